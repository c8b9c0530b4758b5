"""The value types the Speakeasy data files share: numbers, texts, the vocabularies and effects."""

from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

from engine.schema import Table, distinct, vocabulary
from engine.speakeasy.components import (
    BOTTLES,
    BUILDING_KINDS,
    CRATE_POWERS,
    EFFECT_KINDS,
    PARK_CONDITIONS,
    STEP_KINDS,
    TRACKS,
    ZONES,
    Effect,
)

ACTS = 4  # seed 000:24.1: "The game is divided into 4 ACTS"
MOBSTER_DECKS = ("A", "B", "C", "D")  # A: Setup Mobsters; B, C, D: the Mob Wars after Acts 1, 2, 3
PARK_LETTERS = ("A", "B", "C")

Whole = Annotated[int, Meta(ge=0)]
Positive = Annotated[int, Meta(ge=1)]
Text = Annotated[str, Meta(pattern=r"\S", description="a non-empty text")]
Wholes = tuple[Whole, ...]
Positives = tuple[Positive, ...]
SomeWholes = Annotated[Wholes, Meta(min_length=1)]
#: A table keyed by whole numbers written as strings (``{ "5" = 1 }``: TOML keys are text).
NumberTable = dict[int, Whole]
PerAct = tuple[(Positive,) * ACTS]  # type: ignore[misc]
WholePerAct = tuple[(Whole,) * ACTS]  # type: ignore[misc]

Zone = vocabulary(ZONES, "a Zone")
Track = vocabulary(TRACKS, "an Operations deck")
BuildingKind = vocabulary(BUILDING_KINDS, "a building kind")
Bottle = vocabulary(BOTTLES, "a bottle")
StepKind = vocabulary(STEP_KINDS, "a step kind")
CratePower = vocabulary(CRATE_POWERS, "a Crate power")
ParkCondition = vocabulary(PARK_CONDITIONS, "a Central Park condition")
MobsterDeck = vocabulary(MOBSTER_DECKS, "a Mobster deck")
EffectKind = vocabulary(EFFECT_KINDS, "an effect kind")


def some(item: Any) -> Any:
    """A non-empty list of ``item``."""
    return Annotated[tuple[item, ...], Meta(min_length=1)]


class EffectRow(Table):
    """``{ kind = "leverage", n = 2 }``."""

    kind: EffectKind
    n: Positive


#: An effect list: the same effect twice is a mistake (write ``n = 2``), so its entries must differ.
Effects = distinct(EffectRow)


def effects(rows: Effects) -> tuple[Effect, ...]:
    """The components' effects of ``rows``."""
    return tuple(Effect(row.kind, row.n) for row in rows)
