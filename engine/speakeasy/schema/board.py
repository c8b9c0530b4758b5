"""``board.toml``: the districts, the two board sides, the Cop District tiles and the year labels."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from engine.data import at, fail, known, numbered, unique
from engine.schema import Table, distinct, keyed
from engine.speakeasy.components import PLAYER_COUNTS, ZONES, CityTile, District, Goals, Locations, Mobster, Side
from engine.speakeasy.schema.fields import (
    ACTS,
    MOBSTER_DECKS,
    PARK_LETTERS,
    Positive,
    Positives,
    SomeWholes,
    Text,
    Whole,
    Zone,
    some,
)

NAME = "board.toml"
YEARS = ("setup", *(f"act{n}" for n in range(1, ACTS + 1)), "final")


class DistrictRow(Table):
    number: Positive
    name: Text
    zone: Zone
    spaces: Positive
    port: bool


ParkLayout = keyed("ParkLayout", PARK_LETTERS, Whole, "a Central Park letter")
MobsterDraws = keyed("MobsterDraws", MOBSTER_DECKS, Whole, "a Mobster deck letter")
ZoneCaps = keyed("ZoneCaps", ZONES, Positive, "a Zone")


class SideRow(Table):
    players: some(Positive)
    blocked: distinct(Positive)
    booths: Positive
    central_park: ParkLayout
    city_piles: SomeWholes
    mobsters: MobsterDraws
    zone_goal_districts_cap: ZoneCaps


class Setup(Table):
    zone_goal_rule: Text  # documentation only


class Cops(Table):
    districts: Positives
    revealed: Whole
    face_down: Whole
    stacks: Positives


Years = keyed("Years", YEARS, Positive, "a year label")


class Board(Table):
    districts: some(DistrictRow)
    sides: Annotated[dict[str, SideRow], Meta(min_length=1)]
    setup: Setup
    cops: Cops
    years: Years


def districts(board: Board) -> tuple[District, ...]:
    """The districts, numbered 1, 2, 3 ... in file order, every Zone with at least one."""
    rows = board.districts
    numbered(NAME, "districts", (row.number for row in rows), "districts")
    unique(NAME, at("districts", (row.name for row in rows), "name"))
    for zone in ZONES:
        if not any(row.zone == zone for row in rows):
            fail(NAME, "districts", f"have no district in {zone}")
    return tuple(District(row.number, row.name, row.zone, row.spaces, row.port) for row in rows)


def cops(board: Board) -> tuple[tuple[int, ...], int, int, tuple[int, ...]]:
    """The Cop District tiles (one per district), Cops revealed and face down at setup, the Time-track stacks."""
    cops, count = board.cops, len(board.districts)
    if sorted(cops.districts) != list(range(1, count + 1)):
        fail(NAME, "cops.districts", f"must hold each district 1..{count} exactly once")
    used = cops.revealed + cops.face_down + sum(cops.stacks)
    if used != len(cops.districts):
        fail(NAME, "cops.stacks", f"with revealed and face_down use {used} of {len(cops.districts)} tiles")
    return cops.districts, cops.revealed, cops.face_down, cops.stacks


def years(board: Board, per_act: tuple[int, ...]) -> dict[str, int]:
    """The year labels; the Acts are as many years apart as they have rounds (``per_act``, tracks.toml)."""
    years = {key: getattr(board.years, key) for key in YEARS}
    if years["act1"] != years["setup"] + 1:
        fail(NAME, "years.act1", f"must be the year after the Setup Round ({years['setup'] + 1}), got {years['act1']}")
    for act in range(1, ACTS):
        start, end = years[f"act{act}"], years[f"act{act + 1}"]
        if end - start != per_act[act - 1]:
            fail(
                NAME,
                f"years.act{act + 1}",
                f"must be {start + per_act[act - 1]}: Act {act} has {per_act[act - 1]} rounds (years)",
            )
    if years["final"] <= years[f"act{ACTS}"]:
        fail(NAME, "years.final", f"must come after act{ACTS} ({years[f'act{ACTS}']})")
    return years


def check_sides(board: Board) -> None:
    """The board sides on their own: each player count the game seats on exactly one side, blocked districts exist,
    the Zone goal caps and the Mobster tiles fit the side's open districts."""
    count = len(board.districts)
    seats = [(f"sides.{name}.players[{i}]", n) for name, s in board.sides.items() for i, n in enumerate(s.players)]
    unique(NAME, seats)
    counts = f"{PLAYER_COUNTS[0]}..{PLAYER_COUNTS[-1]}"
    for path, n in seats:
        known(NAME, path, n, PLAYER_COUNTS, "a player count of Speakeasy")
    for n in PLAYER_COUNTS:
        if n not in {seated for _, seated in seats}:
            fail(
                NAME,
                "sides",
                f"a side for {n} player{'s' if n > 1 else ''} is missing: "
                f"the sides must seat every player count {counts}",
            )
    for name, side in board.sides.items():
        where = f"sides.{name}"
        for path, number in at(f"{where}.blocked", side.blocked):
            known(NAME, path, number, range(1, count + 1), "a district")
        open_districts = _open(board, side)
        for zone in ZONES:
            most = getattr(side.zone_goal_districts_cap, zone)
            have = sum(1 for d in open_districts if d.zone == zone)
            if most > have:
                fail(
                    NAME,
                    f"{where}.zone_goal_districts_cap.{zone}",
                    f"is {most}, but the side has only {have} open districts in {zone}",
                )
        draws = sum(getattr(side.mobsters, letter) for letter in MOBSTER_DECKS)
        if draws != len(open_districts):
            fail(
                NAME,
                f"{where}.mobsters",
                f"draw {draws} Mobster District tiles, but the side has {len(open_districts)} open districts "
                "(one tile each)",
            )


def sides(
    board: Board,
    payouts: dict[str, tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]],
    locations: Locations,
    goals: Goals,
    mobsters: tuple[Mobster, ...],
    city_tiles: tuple[CityTile, ...],
) -> dict[str, Side]:
    """The board sides (checked by ``check_sides``), each with its payouts (payouts.toml: side -> (Zone payouts,
    Casino payouts)), checked against the components of the other files they lay out."""
    out: dict[str, Side] = {}
    for name, side in board.sides.items():
        where = f"sides.{name}"
        draws = tuple((letter, getattr(side.mobsters, letter)) for letter in MOBSTER_DECKS)
        for letter, n in draws:
            have = sum(1 for mobster in mobsters if mobster.deck == letter)
            if n > have:
                fail(NAME, f"{where}.mobsters.{letter}", f"draws {n} tiles, but mobsters.toml has {have}")
        park = tuple((letter, getattr(side.central_park, letter)) for letter in PARK_LETTERS)
        for letter, n in park:
            have = sum(1 for goal in goals.park_goals if goal.letter == letter)
            if n > have:
                fail(NAME, f"{where}.central_park.{letter}", f"lays out {n} tiles, but goals.toml has {have}")
        if side.booths > len(locations.booths):
            fail(NAME, f"{where}.booths", f"is {side.booths}, but locations.toml has {len(locations.booths)} booths")
        _check_city_piles(where, side, _open(board, side), city_tiles)
        zone_payouts, casino_payouts = payouts[name]
        out[name] = Side(
            name=name,
            players=side.players,
            blocked=frozenset(side.blocked),
            booths=side.booths,
            central_park=park,
            city_piles=side.city_piles,
            mobsters=draws,
            zone_payouts=zone_payouts,
            casino_payouts=casino_payouts,
            zone_goal_districts_cap=tuple(getattr(side.zone_goal_districts_cap, zone) for zone in ZONES),
        )
    return out


def _open(board: Board, side: SideRow) -> list[DistrictRow]:
    return [d for d in board.districts if d.number not in side.blocked]


def _check_city_piles(
    where: str, side: SideRow, open_districts: list[DistrictRow], city_tiles: tuple[CityTile, ...]
) -> None:
    total = sum(kind.count for kind in city_tiles)
    spaces, piles = sum(d.spaces for d in open_districts), side.city_piles
    needed = spaces + len(piles) + sum(piles)  # map spaces + one face-up tile per row + the piles
    if needed > total:
        fail(
            NAME,
            f"{where}.city_piles",
            f"{spaces} map spaces + {len(piles)} face up + {sum(piles)} in piles need {needed} City tiles, "
            f"but city_tiles.toml has {total}",
        )
