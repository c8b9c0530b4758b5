"""Jo's data (``data/speakeasy/jo.toml``), read and checked like the other Speakeasy files."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from msgspec import Meta, field

from engine.data import at, data_dir, fail, known, levels_complete, ordered, unique
from engine.schema import Table, distinct, vocabulary
from engine.speakeasy.components import TRACKS, ZONES
from engine.speakeasy.loader import SCHEMAS
from engine.speakeasy.schema import board, house
from engine.speakeasy.schema.fields import ACTS, Positive, Text, Track, Whole, WholePerAct, Zone, some
from engine.speakeasy.schema.files import own_values, read

if TYPE_CHECKING:
    from engine.speakeasy.state import SpeakeasyState

ACTIONS = ("B-S", "B-N", "B-C", "PRO", "DEL", "SEL", "PROT", "AMB", "COOK", "+V", "+P", "+S", "+F", "+low")
LOCATIONS = ("docks", "garage", "city_hall", "commission", "contractor", "city_planning", "restaurant", "park")


@dataclass(frozen=True, slots=True)
class JoCard:
    """One of Jo's action cards: deck 0-4 (deck 0 strong or weak), location and actions top to bottom."""

    id: str
    deck: int
    location: str
    actions: tuple[str, ...]
    strong: bool = False


@dataclass(frozen=True, slots=True)
class Difficulty:
    """A difficulty level: which decks give how many random cards for random strong or weak deck-0 cards."""

    level: int
    name: str
    swaps: tuple[tuple[int, int], ...]  # (deck, cards)
    strong: bool
    #: dollars Jo's pool starts with beyond his own (rules version 2 on: docs/house-rules.md)
    head_start: int = 0


@dataclass(frozen=True, slots=True)
class Achievement:
    """A Stretch Goals Solo Achievement."""

    id: str
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class JoRules:
    """Everything Jo's rules read."""

    numbers: dict[str, int]
    ambush_money: tuple[int, ...]
    act_decks: tuple[tuple[int, ...], ...]
    level_number_sizes: bool
    stills_capacity: int
    zone_goal_order: tuple[str, ...]
    docks_order: tuple[str, ...]
    protect_zones: tuple[str, ...]
    lowest_level: tuple[str, ...]
    family_icon: frozenset[int]
    helper_icon: frozenset[int]
    cards: tuple[JoCard, ...]
    difficulties: dict[int, Difficulty]
    default_difficulty: int
    stretch_bonus: int
    achievements: tuple[Achievement, ...]
    ranks: tuple[tuple[int, str], ...]  # (margin from, name), rising
    loss_rank: str
    own_values: tuple[str, ...]

    def card(self, card_id: str) -> JoCard:
        """A card by id."""
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)


NAME = "jo.toml"
Action = Annotated[
    str,
    Meta(
        pattern="^(" + "|".join(re.escape(action) for action in ACTIONS) + r"|\$\d+)$",
        description=f"a Jo action (one of {', '.join(ACTIONS)}, or $n)",
    ),
]
Deck = Annotated[int, Meta(ge=1, le=4, description="a deck 1-4")]


class Numbers(Table):
    capos: Whole
    speakeasies: Whole
    nightclubs: Whole
    casinos: Whole
    family: Whole
    books: Whole
    infamy_start: Whole
    park_money: Whole
    casino_money: Whole
    ambush_money: WholePerAct
    rival_fee: Whole
    city_tile_money: Whole
    cook_books: Whole
    zone_goal_money: Whole
    city_hall_money: Whole
    docks_money: Whole
    park_book_money: Whole
    deck2_boxed: Whole
    act_decks: tuple[(tuple[Deck, ...],) * ACTS]  # type: ignore[misc]


class Flags(Table):
    level_number_sizes: bool
    stills_capacity: Positive


class Orders(Table):
    zone_goals: distinct(Zone, 1)
    docks: distinct(Zone, 1)
    protect_zones: distinct(Zone, 1)
    lowest_level: distinct(Track, 1)


class Districts(Table):
    family_icon: distinct(Positive)
    helper_icon: distinct(Positive)


class CardRow(Table):
    id: Text
    deck: Annotated[int, Meta(ge=0, le=4)]
    location: vocabulary(LOCATIONS, "a location")
    actions: some(Action)
    strong: bool = False


class Swap(Table):
    deck: Deck
    n: Positive


class LevelRow(Table):
    level: Positive
    name: Text
    swaps: distinct(Swap)  # the same swap twice is a mistake (write n = 2)
    strong: bool
    head_start: Whole  # rules version 2 on: docs/house-rules.md


class Difficulties(Table):
    default: Positive
    levels: some(LevelRow)


class AchievementRow(Table):
    id: Text
    name: Text
    text: Text


class RankRow(Table):
    from_: Positive = field(name="from")
    name: Text


class Stretch(Table):
    bonus: Whole
    achievements: some(AchievementRow)
    ranks: some(RankRow)
    loss_rank: Text


class JoFile(Table):
    cards: some(CardRow)
    numbers: Numbers
    flags: Flags
    orders: Orders
    districts: Districts
    difficulty: Difficulties
    stretch: Stretch


def load_jo(folder: Path, version: int = 1) -> JoRules:
    """Read and check ``jo.toml`` as rules ``version`` has it (``house.toml``: only own values change);
    ``DataError`` names the file, the key and the reason."""
    # the other files a version may change are the main loader's to check
    changes = house.changes(folder, version, {NAME: read(folder, NAME, JoFile)}, elsewhere=tuple(SCHEMAS))
    file = read(folder, NAME, JoFile, changes.get(NAME))
    f = file.data
    the_board = read(folder, board.NAME, board.Board).data  # the districts his District cards name
    _check(f, range(1, len(the_board.districts) + 1))
    own = own_values(file)
    nums = f.numbers
    levels = f.difficulty.levels
    return JoRules(
        numbers={key: getattr(nums, key) for key in nums.__struct_fields__ if key not in ("ambush_money", "act_decks")},
        ambush_money=nums.ambush_money,
        act_decks=nums.act_decks,
        level_number_sizes=f.flags.level_number_sizes,
        stills_capacity=f.flags.stills_capacity,
        zone_goal_order=f.orders.zone_goals,
        docks_order=f.orders.docks,
        protect_zones=f.orders.protect_zones,
        lowest_level=f.orders.lowest_level,
        family_icon=frozenset(f.districts.family_icon),
        helper_icon=frozenset(f.districts.helper_icon),
        cards=tuple(JoCard(row.id, row.deck, row.location, row.actions, row.strong) for row in f.cards),
        difficulties={
            row.level: Difficulty(
                row.level, row.name, tuple((s.deck, s.n) for s in row.swaps), row.strong, row.head_start
            )
            for row in levels
        },
        default_difficulty=f.difficulty.default,
        stretch_bonus=f.stretch.bonus,
        achievements=tuple(Achievement(row.id, row.name, row.text) for row in f.stretch.achievements),
        ranks=tuple((row.from_, row.name) for row in f.stretch.ranks),
        loss_rank=f.stretch.loss_rank,
        own_values=own,
    )


def _check(f: JoFile, districts: range) -> None:
    """What the schema cannot say: ids and names once, every Zone and track in each order, known references."""
    for key, choices, what in (
        ("zone_goals", ZONES, "Zones"),
        ("docks", ZONES, "Zones"),
        ("protect_zones", ZONES, "Zones"),
        ("lowest_level", TRACKS, "Operations tracks"),
    ):
        values = getattr(f.orders, key)
        if len(values) != len(choices):
            fail(NAME, f"orders.{key}", f"must name all {len(choices)} {what}")
    for key in ("family_icon", "helper_icon"):
        for path, number in at(f"districts.{key}", getattr(f.districts, key)):
            known(NAME, path, number, districts, "a district of board.toml")
    acts = f.numbers.act_decks
    unique(NAME, ((f"numbers.act_decks[{a}][{i}]", d) for a, decks in enumerate(acts) for i, d in enumerate(decks)))
    unique(NAME, at("cards", (row.id for row in f.cards), "id"))
    levels = f.difficulty.levels
    unique(NAME, at("difficulty.levels", (row.level for row in levels), "level"))
    unique(NAME, at("difficulty.levels", (row.name for row in levels), "name"))
    levels_complete(
        NAME, "difficulty.levels", (row.level for row in levels), range(1, max(r.level for r in levels) + 1)
    )
    known(NAME, "difficulty.default", f.difficulty.default, [row.level for row in levels], "a listed level")
    stretch = f.stretch
    unique(NAME, at("stretch.achievements", (row.id for row in stretch.achievements), "id"))
    unique(NAME, at("stretch.achievements", (row.name for row in stretch.achievements), "name"))
    unique(NAME, at("stretch.ranks", (row.name for row in stretch.ranks), "name"))
    ordered(NAME, "stretch.ranks", [row.from_ for row in stretch.ranks], strict=True)


def jo_rules(of: SpeakeasyState | int = 1) -> JoRules:
    """Jo's rules of a game: ``of`` is its state (its table's rules version) or a version number. A version may
    change only the difficulty table (``tests/engine/speakeasy/test_house_rules.py``), so the reads of other
    parts need no version."""
    return _jo_rules(of if isinstance(of, int) else of.rules)


@cache
def _jo_rules(version: int) -> JoRules:
    """Jo's rules from ``data_dir() / "speakeasy" / "jo.toml"`` at ``version`` (read once per process and version)."""
    return load_jo(data_dir() / "speakeasy", version)
