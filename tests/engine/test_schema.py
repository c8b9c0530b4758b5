"""engine.schema and engine.data: msgspec's errors in the project's words, and the checks across fields."""

from __future__ import annotations

from typing import Annotated

import msgspec
import pytest
from msgspec import Meta

from engine.data import DataError, at, known, levels_complete, unique
from engine.schema import Table, decode, distinct, keyed, vocabulary

Whole = Annotated[int, Meta(ge=0)]
Zones = keyed("Zones", ("Downtown", "Uptown"), Whole, "a Zone")


class Row(Table):
    name: str
    kind: vocabulary(("a", "b"), "a kind")
    n: Annotated[int, Meta(ge=1)] = 1


class Doc(Table):
    rows: tuple[Row, ...]
    levels: dict[int, Whole]
    zones: Zones
    sides: dict[str, Zones]
    pair: tuple[Whole, Whole]


GOOD = {
    "rows": [{"name": "x", "kind": "a"}],
    "levels": {"1": 0, "2": 3},
    "zones": {"Downtown": 1, "Uptown": 2},
    "sides": {"small": {"Downtown": 1, "Uptown": 2}},
    "pair": [1, 2],
}


def _refusal(change: dict) -> str:
    with pytest.raises(DataError) as caught:
        decode({**GOOD, **change}, Doc, "f.toml")
    return str(caught.value)


def test_schema_a_table_is_frozen_and_refuses_unknown_keys():
    doc = decode(GOOD, Doc, "f.toml")
    assert doc.levels == {1: 0, 2: 3} and doc.rows[0].n == 1
    assert Doc.__struct_config__.forbid_unknown_fields and Doc.__struct_config__.frozen
    assert Zones.__struct_config__.forbid_unknown_fields and Zones.__struct_config__.frozen
    with pytest.raises(AttributeError):
        doc.pair = (0, 0)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"extra": 1}, "f.toml: extra: is not a key of this file (misspelt or misplaced? the top level takes rows,"),
        ({"rows": [{"name": "x", "kind": "a", "m": 1}]}, "f.toml: rows[0].m: is not a key of this file"),
        ({"rows": [{"kind": "a"}]}, "f.toml: rows[0].name: is missing"),
        ({"rows": [{"name": "x", "kind": "c"}]}, "f.toml: rows[0].kind: 'c' is not a kind (one of a, b)"),
        ({"rows": [{"name": "x", "kind": 3}]}, "f.toml: rows[0].kind: must be a kind, got 3"),
        ({"rows": [{"name": "x", "kind": "a", "n": 0}]}, "f.toml: rows[0].n: must be at least 1, got 0"),
        ({"rows": [{"name": "x", "kind": "a", "n": True}]}, "f.toml: rows[0].n: must be a whole number, got true"),
        ({"levels": {"1": -2}}, "f.toml: levels.1: must not be negative, got -2"),
        ({"levels": {"1": 0, "two": 3}}, "f.toml: levels.two: key must be a whole number, got 'two'"),
        (
            {"zones": {"Downtown": 1, "Harlem": 2}},
            "f.toml: zones.Harlem: 'Harlem' is not a Zone (one of Downtown, Uptown)",
        ),
        (
            {"sides": {"small": {"Downtown": "1", "Uptown": 2}}},
            "f.toml: sides.small.Downtown: must be a whole number, got '1'",
        ),
        ({"pair": [1]}, "f.toml: pair: must have 2 items, got 1"),
        ({"zones": {"Downtown": 1}}, "f.toml: zones.Uptown: is missing: the table names every Zone (Downtown, Uptown)"),
        ({"rows": {}}, "f.toml: rows: must be a list, got a table"),
    ],
)
def test_schema_a_refusal_names_the_key_and_what_is_allowed(change, message):
    assert _refusal(change).startswith(message)


def test_schema_msgspec_refuses_what_the_file_does_not_fit():
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({**GOOD, "pair": [1, -1]}, Doc, strict=True, str_keys=True)


def test_data_checks_across_fields_name_the_key():
    with pytest.raises(DataError, match=r"^f: rows\[2\]\.name: 'a' appears twice \(also rows\[0\]\.name\)$"):
        unique("f", at("rows", ["a", "b", "a"], "name"))
    with pytest.raises(DataError, match=r"^f: t\.deck: 5 is not a deck \(one of 1, 2\)$"):
        known("f", "t.deck", 5, (1, 2), "a deck")
    with pytest.raises(DataError, match=r"^f: t: level 3 is missing: every level 2\.\.5 must be named \(0 for none\)$"):
        levels_complete("f", "t", [2, 4, 5], range(2, 6))
    with pytest.raises(
        DataError, match=r"^f: t: space 0 is missing: every space 0\.\.2 must be named \(\[\] for none\)$"
    ):
        levels_complete("f", "t", [1, 2], range(3), what="space", empty="[]")
    with pytest.raises(DataError, match=r"^f: t\.6: is not a level of this table \(2\.\.5\)$"):
        levels_complete("f", "t", [2, 3, 4, 5, 6], range(2, 6))
    with pytest.raises(DataError, match=r"^f: t: level 2 is missing: every level 1\.\.3 must be named"):
        levels_complete("f", "t", [1, 3])
    levels_complete("f", "t", [3, 4, 5])  # without the track's levels: first to last


class Effect(Table):
    kind: str
    n: int


class Lists(Table):
    effects: dict[str, distinct(Effect)]
    names: distinct(str, 1)
    costs: tuple[int, ...]  # a plain list may repeat


def test_schema_a_distinct_list_refuses_an_item_given_twice():
    """Issue 22: a benefit list with the same entry twice was accepted; ``distinct`` lists refuse it."""
    good = {"effects": {"a": [{"kind": "card", "n": 1}, {"kind": "card", "n": 2}]}, "names": ["x"], "costs": [3, 3]}
    assert decode(good, Lists, "f.toml").costs == (3, 3)
    twice = {**good, "effects": {"a": [{"kind": "card", "n": 1}, {"n": 1, "kind": "card"}]}}
    with pytest.raises(DataError) as caught:
        decode(twice, Lists, "f.toml")
    assert str(caught.value) == 'f.toml: effects.a[1]: { n = 1, kind = "card" } appears twice (also effects.a[0])'
    with pytest.raises(DataError, match=r"^f\.toml: names\[2\]: 'x' appears twice \(also names\[0\]\)$"):
        decode({**good, "names": ["x", "y", "x"]}, Lists, "f.toml")
    with pytest.raises(DataError, match=r"^f\.toml: names: must not be empty$"):
        decode({**good, "names": []}, Lists, "f.toml")
