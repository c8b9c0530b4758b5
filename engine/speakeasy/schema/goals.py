"""``goals.toml``: the targets of Cook the Books: Zone goals, City Hall, Infamy book spaces, Central Park."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from engine.data import at, fail, levels_complete, unique
from engine.schema import Table, vocabulary
from engine.speakeasy.components import ZONES, Goals, ParkGoal, ZoneGoal
from engine.speakeasy.schema.fields import (
    PARK_LETTERS,
    Effects,
    NumberTable,
    ParkCondition,
    Positive,
    Whole,
    effects,
    some,
)

NAME = "goals.toml"
ZONE_GOAL_TYPES = ("districts", "buildings", "barrels", "protected")
ParkTileId = Annotated[
    str,
    Meta(
        pattern=rf"^[{''.join(PARK_LETTERS)}]\d+$",
        description=f"a letter {', '.join(PARK_LETTERS)} and a number, e.g. 'A1'",
    ),
]


class ZoneGoalRow(Table):
    type: vocabulary(ZONE_GOAL_TYPES, "a Zone goal type")
    number: Positive


class ZoneGoalReward(Table):
    reward: Whole
    level: Whole


class CityHall(Table):
    leverage: Whole
    reward: Whole
    per_act: Positive


class InfamyBooks(Table):
    spaces: NumberTable  # Infamy space -> $: every space 0..infamy.max, 0 where it holds no Book area
    level: Whole


class ParkTileRow(Table):
    id: ParkTileId
    condition: ParkCondition
    n: Positive
    benefit: Effects


class CentralPark(Table):
    reward: Whole
    tiles: some(ParkTileRow)


class GoalsFile(Table):
    zone_goals: some(ZoneGoalRow)
    zone_goal: ZoneGoalReward
    city_hall: CityHall
    infamy_books: InfamyBooks
    central_park: CentralPark


def goals(f: GoalsFile, infamy_max: int) -> Goals:
    """The goals; each Zone goal once, every type with the same numbers, every space of the Infamy track
    (tracks.toml ``infamy_max``) named by the book spaces."""
    unique(NAME, ((f"zone_goals[{i}].number", (g.type, g.number)) for i, g in enumerate(f.zone_goals)))
    numbers = {kind: sorted(g.number for g in f.zone_goals if g.type == kind) for kind in ZONE_GOAL_TYPES}
    first = numbers[ZONE_GOAL_TYPES[0]]
    for kind, found in numbers.items():
        if found != first or len(found) < len(ZONES):
            fail(
                NAME,
                "zone_goals",
                f"every type needs the same {len(ZONES)} or more numbers (one per Zone): "
                f"{ZONE_GOAL_TYPES[0]} has {first}, {kind} has {found}",
            )
    levels_complete(NAME, "infamy_books.spaces", f.infamy_books.spaces, range(infamy_max + 1), what="space")
    unique(NAME, at("central_park.tiles", (row.id for row in f.central_park.tiles), "id"))
    return Goals(
        zone_goals=tuple(ZoneGoal(i, row.type, row.number) for i, row in enumerate(f.zone_goals)),
        zone_goal_reward=f.zone_goal.reward,
        zone_goal_level=f.zone_goal.level,
        city_hall_leverage=f.city_hall.leverage,
        city_hall_reward=f.city_hall.reward,
        city_hall_per_act=f.city_hall.per_act,
        infamy_books={space: n for space, n in sorted(f.infamy_books.spaces.items()) if n},
        infamy_book_level=f.infamy_books.level,
        park_goals=tuple(
            ParkGoal(row.id, row.id[0], row.condition, row.n, effects(row.benefit)) for row in f.central_park.tiles
        ),
        park_reward=f.central_park.reward,
    )
