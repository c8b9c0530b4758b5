"""Jo's data (``data/speakeasy/jo.toml``), read and checked like the other Speakeasy files."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.data import data_dir
from engine.speakeasy.components import TRACKS, ZONES
from engine.speakeasy.loader import _File, _finish, _Table

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


NUMBERS = (
    "capos",
    "speakeasies",
    "nightclubs",
    "casinos",
    "family",
    "books",
    "infamy_start",
    "park_money",
    "casino_money",
    "rival_fee",
    "city_tile_money",
    "cook_books",
    "zone_goal_money",
    "city_hall_money",
    "docks_money",
    "park_book_money",
    "deck2_boxed",
)


def load_jo(folder: Path) -> JoRules:
    """Read and check ``jo.toml``; ``DataError`` names the file, the key and the reason."""
    file = _File(folder, "jo.toml")
    root = file.root
    nums = root.table("numbers")
    numbers = {key: nums.whole(key) for key in NUMBERS}
    ambush = nums.wholes("ambush_money", 4)
    raw_decks = nums.value("act_decks")
    if not isinstance(raw_decks, list) or len(raw_decks) != 4:
        nums.fail("act_decks", "must list the decks added at the start of each of the 4 Acts")
    act_decks: list[tuple[int, ...]] = []
    for i, raw in enumerate(raw_decks):
        if not isinstance(raw, list):
            nums.fail(f"act_decks[{i}]", "must be a list of deck numbers")
        for d in raw:
            if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 4:
                nums.fail(f"act_decks[{i}]", f"{d!r} is not a deck 1-4")
        act_decks.append(tuple(raw))
    flags = root.table("flags")
    level_number_sizes = flags.flag("level_number_sizes")
    stills_capacity = flags.whole("stills_capacity", low=1)
    orders = root.table("orders")
    zone_goal_order = orders.texts("zone_goals", ZONES, "a Zone")
    docks_order = orders.texts("docks", ZONES, "a Zone")
    protect_zones = orders.texts("protect_zones", ZONES, "a Zone")
    lowest_level = orders.texts("lowest_level", TRACKS, "an Operations track")
    for key, value in (("zone_goals", zone_goal_order), ("docks", docks_order), ("protect_zones", protect_zones)):
        if len(value) != len(ZONES):
            orders.fail(key, f"must name all {len(ZONES)} Zones")
    if len(lowest_level) != len(TRACKS):
        orders.fail("lowest_level", f"must name all {len(TRACKS)} Operations tracks")
    districts = root.table("districts")
    family_icon = frozenset(districts.wholes("family_icon", low=1))
    helper_icon = frozenset(districts.wholes("helper_icon", low=1))
    cards: list[JoCard] = []
    for row in root.rows("cards"):
        deck = row.whole("deck")
        if deck > 4:
            row.fail("deck", f"must be 0-4, got {deck}")
        strong = row.flag("strong") if "strong" in row.raw else False
        cards.append(
            JoCard(
                row.text("id"),
                deck,
                row.text("location", LOCATIONS, "a location"),
                tuple(_action(row, i, a) for i, a in enumerate(row.value("actions"))),
                strong,
            )
        )
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        root.fail("cards", "has a card id twice")
    diff = root.table("difficulty")
    levels: dict[int, Difficulty] = {}
    for row in diff.rows("levels"):
        swaps = []
        for s in row.rows("swaps") if row.raw.get("swaps") else []:
            swaps.append((s.whole("deck", low=1), s.whole("n", low=1)))
        if not row.raw.get("swaps"):
            row.value("swaps")
        level = row.whole("level", low=1)
        levels[level] = Difficulty(level, row.text("name"), tuple(swaps), row.flag("strong"))
    default = diff.whole("default", low=1)
    if default not in levels:
        diff.fail("default", f"{default} is not a listed level")
    stretch = root.table("stretch")
    achievements = tuple(
        Achievement(r.text("id"), r.text("name"), r.text("text")) for r in stretch.rows("achievements")
    )
    ranks = tuple((r.whole("from", low=1), r.text("name")) for r in stretch.rows("ranks"))
    if [f for f, _ in ranks] != sorted(f for f, _ in ranks):
        stretch.fail("ranks", "must rise")
    bonus = stretch.whole("bonus")
    loss_rank = stretch.text("loss_rank")
    own = _finish(file)
    return JoRules(
        numbers=numbers,
        ambush_money=ambush,
        act_decks=tuple(act_decks),
        level_number_sizes=level_number_sizes,
        stills_capacity=stills_capacity,
        zone_goal_order=zone_goal_order,
        docks_order=docks_order,
        protect_zones=protect_zones,
        lowest_level=lowest_level,
        family_icon=family_icon,
        helper_icon=helper_icon,
        cards=tuple(cards),
        difficulties=levels,
        default_difficulty=default,
        stretch_bonus=bonus,
        achievements=achievements,
        ranks=ranks,
        loss_rank=loss_rank,
        own_values=tuple(own),
    )


def _action(row: _Table, i: int, action: object) -> str:
    if not isinstance(action, str) or not (action in ACTIONS or (action.startswith("$") and action[1:].isdigit())):
        row.fail(f"actions[{i}]", f"{action!r} is not a Jo action (one of {', '.join(ACTIONS)}, or $n)")
    return action  # type: ignore[return-value]


@cache
def jo_rules() -> JoRules:
    """Jo's rules from ``data_dir() / "speakeasy" / "jo.toml"`` (read once per process)."""
    return load_jo(data_dir() / "speakeasy")
