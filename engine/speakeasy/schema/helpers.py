"""``helpers.toml``: the Helper cards, the display, bottle values and the variety bonus."""

from __future__ import annotations

from engine.data import at, fail, levels_complete, unique
from engine.schema import Table, keyed
from engine.speakeasy.components import BOTTLES, Helper, Helpers
from engine.speakeasy.schema.fields import Bottle, Effects, NumberTable, Positive, Text, Whole, effects, some

NAME = "helpers.toml"

Bottles = keyed("Bottles", BOTTLES, Whole, "a bottle")


class HelperRow(Table):
    name: Text
    bottle: Bottle
    upper: Effects
    lower: Effects


class HelpersFile(Table):
    display: Positive
    bottles: Bottles
    variety_bonus: NumberTable  # different bottle types owned -> $, every count 1..5
    helpers: some(HelperRow)


def helpers(f: HelpersFile) -> Helpers:
    """The Helpers, numbered 0, 1, 2 ... in file order; the variety bonus names every number of bottle types."""
    unique(NAME, at("helpers", (row.name for row in f.helpers), "name"))
    if f.display > len(f.helpers):
        fail(NAME, "display", f"is {f.display}, but there are only {len(f.helpers)} Helper cards")
    levels_complete(NAME, "variety_bonus", f.variety_bonus, range(1, len(BOTTLES) + 1))
    return Helpers(
        cards=tuple(
            Helper(i, row.name, row.bottle, effects(row.upper), effects(row.lower)) for i, row in enumerate(f.helpers)
        ),
        display=f.display,
        bottle_values={bottle: getattr(f.bottles, bottle) for bottle in BOTTLES},
        # the file names every count; the rules read a count without a bonus as $0
        variety_bonus={types: n for types, n in sorted(f.variety_bonus.items()) if n},
    )
