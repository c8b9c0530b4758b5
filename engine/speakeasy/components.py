"""Every Speakeasy component and number, as read from ``data/speakeasy/*.toml``.

This module is the contract between the data files and the rules: the rules read only these frozen
dataclasses (through ``rules()``), never the TOML. ``engine.speakeasy.loader`` reads and validates the files.

Effects are the one vocabulary for every gain in the game (City tiles, Operations-board spaces, card benefits
and setup icons, Infamy rewards, Central Park benefits, booths, Park rewards, Helper cards): a tuple of
``Effect(kind, n)``. ``EFFECT_KINDS`` lists the kinds and what ``n`` means.
"""

from __future__ import annotations

from dataclasses import dataclass

ZONES = ("Downtown", "Midtown", "Uptown")
TRACKS = ("vip", "party", "stills", "fleet")  # the four Operations tracks; "strength" is the fifth track
LEVEL_TRACKS = (*TRACKS, "strength")
BUILDING_KINDS = ("stills", "speakeasy", "nightclub", "casino")  # value order, lowest first
BOTTLES = ("moonshine", "gin", "rum", "whiskey", "champagne")
PLAYER_COUNTS = range(1, 5)  # 1 (against Jo) to 4 players; board.toml gives each count its side

#: Every effect kind and what its ``n`` counts. Immediate gains first, then the Helper lower-half actions.
EFFECT_KINDS: dict[str, str] = {
    # gains
    "pocket": "dollars to your pocket",
    "safe": "dollars to your safe",
    "leverage": "Leverage tokens",
    "book": "Books from your supply to your Books space",
    "goon_free": "Goons hired free (cheapest empty spaces)",
    "card": "Operations cards taken (top of any deck)",
    "family": "Family Members to your VIP area or a Docks zone (your choice each)",
    "family_vip": "Family Members to your VIP area",
    "family_docks": "Family Members to a Docks zone of your choice",
    "level_any": "+1 steps to any Operations or Strength level (your choice each)",
    "helper": "Helper cards taken from the display",
    "stills_barrels": "barrels onto your Stills area (up to its capacity)",
    "city_tile": "City tiles taken from the display",
    "cellar": "barrels beside this building if it is an Operating Speakeasy, else onto your Stills area",
    # modifiers of one card play
    "value_bonus": "+n to the value of this card's deck action, this play only",
    "ship_discount": "Ship barrels cost $n less each this play (floor $0)",
    # Helper lower halves (actions)
    "deliver": "Deliver up to n barrels in one trip",
    "produce": "Produce barrels (n ignored, 1)",
    "dock_buy": "buy up to n barrels from one Ship at $1 each onto your Stills area",
    "runner": "deliver n barrels from any Ship for free",
    "sell": "Sell up to n barrels",
    "sell_bonus": "Sell barrels with your Party value +n",
    "upgrade": "Upgrade one building paying $n less",
    "informant": "move one face-down Cop District tile (n ignored, 1)",
    "bagman": "move up to $n from safe to pocket at 1:1",
    "raise_strength": "increase your Strength level n times",
    "raise_ops": "increase an Operations level of your choice n times",
    "cook": "Cook the Books with up to n Books",
    "croupier": "each of your Operating Casinos pays $n to your pocket",
    "associate": "hire an Associate (n ignored, 1)",
    "protect": "Get Protection for up to n Family Members, ignoring Leverage",
}


@dataclass(frozen=True, slots=True)
class Effect:
    """One gain or action: ``kind`` from ``EFFECT_KINDS``, ``n`` its amount."""

    kind: str
    n: int = 1


@dataclass(frozen=True, slots=True)
class District:
    """A district of Manhattan: number 1-16, its Zone, its building spaces (3-4 side) and whether it has a port."""

    number: int
    name: str
    zone: str
    spaces: int
    port: bool


@dataclass(frozen=True, slots=True)
class Side:
    """One side of the main board: ``small`` (1-2 players) or ``large`` (3-4)."""

    name: str
    players: tuple[int, ...]
    blocked: frozenset[int]  # districts with no spaces on this side
    booths: int  # Restaurant booths open (the first n)
    central_park: tuple[tuple[str, int], ...]  # (letter, tiles laid out) in order A, B, C
    city_piles: tuple[int, ...]  # face-down pile sizes of the City tile display, top row first
    mobsters: tuple[tuple[str, int], ...]  # (deck letter, tiles drawn) for A, B, C, D
    zone_payouts: tuple[tuple[int, ...], ...]  # per Zone (ZONES order): $ for 1st, 2nd, ...
    casino_payouts: tuple[int, ...]  # $ per Operating Casino by new turn position 1st, 2nd, ...
    zone_goal_districts_cap: tuple[int, ...]  # per Zone: the highest N a Districts goal can ask for


@dataclass(frozen=True, slots=True)
class Person:
    """A Person of Interest: ``steps`` in printed order (step names in ``STEP_KINDS``)."""

    id: str
    location: str
    name: str
    position: str  # "left" or "right"
    steps: tuple[str, ...]


#: The steps a Person can have, and what each does.
STEP_KINDS: dict[str, str] = {
    "gain_family": "Gain a Family Member",
    "play_fleet": "Play a Fleet card (Deliver)",
    "ambush": "Ambush one Ship",
    "produce": "Produce barrels (needs an Operating Stills)",
    "play_stills_or_fleet": "Play a Stills or a Fleet card",
    "raise_stills_or_fleet": "Raise your Stills or Fleet level by 1",
    "gain_book": "Gain one Book",
    "cook": "Cook the Books",
    "play_vip": "Play a VIP Room card (Get Protection)",
    "raise_strength": "Increase your Strength level",
    "hire_associate": "Hire an Associate",
    "hire_goons": "Hire Goons",
    "build": "Open a Speakeasy or Stills, or take over a Mobster Speakeasy",
    "take_city_tile": "Take a City tile",
    "raise_ops_once_more": "Raise an Operations level (a discard raises it once more)",
    "upgrade": "Upgrade a building",
    "play_any": "Play any one Operations card",
    "sell_or_party": "Sell barrels, or play a Party card instead",
    "booth_reward": "Gain your booth's reward",
    "first_place": "Move your Turn Order marker to first place",
}


@dataclass(frozen=True, slots=True)
class Booth:
    """A Restaurant lower-row booth."""

    number: int
    leverage: int
    reward: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class ParkSpace:
    """A Park space and its reward."""

    number: int
    reward: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Locations:
    """The eight locations: Persons, Restaurant booths and first place, Park."""

    persons: tuple[Person, ...]  # the 12 Persons of the six two-Person locations (not the Restaurant)
    maitre_d: Person  # Restaurant left: placed on a booth (chosen and paid on placement), one Capo per booth
    first_place: Person  # Restaurant right, Lucky's table: no Capo limit
    booths: tuple[Booth, ...]
    park: tuple[ParkSpace, ...]
    park_copy_discards: int  # cards discarded to copy a Person
    build_times: int  # Contractor M: up to n buildings
    upgrade_times: int  # City Planning M: up to n steps
    cook_books: int  # Books placed per Cook the Books


@dataclass(frozen=True, slots=True)
class Track:
    """An Operations track: the action value at levels 1..5."""

    name: str
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Tracks:
    """Operations and Strength tracks, Infamy, prices, money, Goons, Family, Leverage numbers."""

    ops: dict[str, Track]  # by TRACKS name
    max_level: int  # 5
    trucks_by_fleet: tuple[int, ...]  # usable Trucks at Fleet levels 1..5
    strength_values: tuple[int, ...]  # defence value at Strength 1..5
    ops_discards: dict[int, int]  # level reached -> cards to discard (Operations tracks)
    strength_discards: dict[int, int]  # level reached -> cards to discard (Strength)
    infamy_per_step: int
    infamy_max: int
    infamy_start: int
    infamy_rewards: dict[int, tuple[Effect, ...]]  # space -> reward; "family" spaces use the track's FM
    family_on_infamy: tuple[int, ...]  # spaces holding a Family Member at setup (8, 14)
    price_bands: tuple[int, ...]  # lowest Infamy of each price band (0, 8, 12, 16, 20)
    prices: dict[str, tuple[int, ...]]  # building kind -> $ per band (speakeasy, nightclub, casino)
    heat_infamy: int  # Infamy from which each protecting Family Member costs extra Leverage
    heat_leverage: int
    cop_protect_leverage: int  # Leverage per Family Member placed in a district with a Cop
    safe_ratio: int  # safe dollars per dollar of cost (2)
    goon_costs: tuple[int, ...]  # $ per Goon space, cheapest first
    start_goons: int
    start_pocket: int
    start_safe: int
    start_leverage: int
    start_books: int  # Books in supply
    start_family_supply: int  # Family Members in supply (besides the two on the Infamy track)
    capos: int
    capos_per_act: tuple[int, ...]  # rounds (Capos placed) in Acts 1..4
    capos_returned: tuple[int, ...]  # returned at the start of Acts 1..4 (Act 1: 0)
    capos_boxed: tuple[int, ...]  # sent to the box at the start of Acts 1..4


@dataclass(frozen=True, slots=True)
class OpsCard:
    """An Operations card: its deck, top-left benefit and setup icon."""

    id: int
    deck: str  # a TRACKS name
    name: str
    benefit: tuple[Effect, ...]
    setup: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class RowSpace:
    """A building's space on the Operations board: its cost and the benefit it uncovers."""

    kind: str  # BUILDING_KINDS
    index: int  # 0-based within its row
    cost: int
    benefit: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Buildings:
    """Building rows, capacity, upgrade chain and protected-building values."""

    rows: dict[str, tuple[RowSpace, ...]]  # kind -> row spaces, leftmost first
    barrel_capacity: int  # per Speakeasy, Nightclub, Casino
    stills_capacity: int  # Stills area
    upgrades: dict[str, str]  # from kind -> to kind
    setup_kinds: tuple[str, ...]  # what the Setup Round may open ("stills", "speakeasy")
    takeover_kind: str  # what a take-over places ("speakeasy")


@dataclass(frozen=True, slots=True)
class Crate:
    """A Crate tile: cash to the pocket when ambushed and a permanent power."""

    id: int
    name: str
    cash: int
    power: str  # a CRATE_POWERS key
    n: int = 1


#: Crate powers and what ``n`` means.
CRATE_POWERS: dict[str, str] = {
    "strength": "+n Strength in every Mob War defence, take-over and ambush",
    "fleet_value": "+n Fleet value",
    "stills_value": "+n Stills value",
    "party_value": "+n Party value",
    "vip_value": "+n VIP value",
    "protect_discount": "each Get Protection costs n Leverage less in total (minimum 0)",
    "cook_first_bonus": "the first Book of each Cook action pays +$n",
    "speakeasy_sale_bonus": "barrels sold at Speakeasies pay +$n",
    "upgrade_discount": "each upgrade costs $n less",
    "goon_discount": "each Goon hire costs $n less (minimum $0)",
    "ship_discount": "Ship barrels cost $n less (floor in docks)",
    "champagne": "counts as n Champagne bottles at final scoring",
}


@dataclass(frozen=True, slots=True)
class Docks:
    """City Docks: Docks zones, Ships, Ports, Crates, ambush and refill numbers."""

    family_spaces: int  # per Docks zone (8)
    ship_prices: tuple[int, ...]  # Ship 1..4
    ship_barrels: int  # at setup and refill
    family_discount: int  # per barrel with your Family Member in the Ship's Docks zone
    price_floor: int  # 1
    price_floor_with_card: int  # 0
    ports: tuple[int, ...]  # port districts, one tile each
    crates: tuple[Crate, ...]
    ambush_strength_base: int  # needed Strength = Act + base
    ambush_family: int  # Family Members needed in the zone (at least 1 yours)
    ambush_rival_fee: int  # $ per rival Family Member used, pocket to its owner
    docks_book_reward: int  # Cook the Books on a Docks zone


@dataclass(frozen=True, slots=True)
class ZoneGoal:
    """A Zone Goal tile: type (districts, buildings, barrels, protected) and number N."""

    id: int
    type: str
    number: int


@dataclass(frozen=True, slots=True)
class ParkGoal:
    """A Central Park Goal tile: letter, condition and benefit on top of the Book's money."""

    id: str  # "A1" ...
    letter: str
    condition: str  # a PARK_CONDITIONS key
    n: int
    benefit: tuple[Effect, ...]


#: Central Park conditions: "you have ..." n of these.
PARK_CONDITIONS: dict[str, str] = {
    "operating_speakeasies": "n Operating Speakeasies",
    "zones": "Operating buildings in n Zones",
    "goons": "n Goons",
    "barrels": "n barrels beside your buildings",
    "docks_family": "n Family Members at the Docks",
    "city_tiles": "n City tiles on your board",
    "nightclub_and_casino": "a Nightclub and a Casino (n ignored)",
    "protected": "n Protected buildings",
    "ops_at_3": "n Operations levels at 3 or higher",
    "strength": "Strength level n or higher",
    "helpers": "n Helper cards",
    "casinos": "n Casinos",
    "districts": "Operating buildings in n districts",
    "ops_at_5": "n Operations levels at 5",
}


@dataclass(frozen=True, slots=True)
class Goals:
    """Cook-the-Books targets."""

    zone_goals: tuple[ZoneGoal, ...]
    zone_goal_reward: int  # $ to safe (+ level_reward)
    zone_goal_level: int  # +levels of your choice
    city_hall_leverage: int
    city_hall_reward: int
    city_hall_per_act: int
    infamy_books: dict[int, int]  # Infamy space -> $ to safe (+ infamy_book_level)
    infamy_book_level: int
    park_goals: tuple[ParkGoal, ...]
    park_reward: int  # $ to safe per Central Park Book


@dataclass(frozen=True, slots=True)
class CityTile:
    """A kind of City tile, its count and benefit."""

    name: str
    count: int
    benefit: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Helper:
    """A Helper card: bottle, upper-half gain, lower-half benefit."""

    id: int
    name: str
    bottle: str
    upper: tuple[Effect, ...]
    lower: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Helpers:
    """The Helper deck, display size, bottle values and the variety bonus."""

    cards: tuple[Helper, ...]
    display: int
    bottle_values: dict[str, int]
    variety_bonus: dict[int, int]  # different types owned -> $


@dataclass(frozen=True, slots=True)
class Mobster:
    """A Mobster tile: deck letter, strength (brown box) and Mob War modifier (red box)."""

    id: int
    deck: str
    name: str
    strength: int
    modifier: int


@dataclass(frozen=True, slots=True)
class Final:
    """Final scoring values."""

    protected: dict[str, int]  # building kind -> $ per Protected building
    tie_breakers: tuple[str, ...]  # in order: "safe", "operating_buildings", "later_turn_order"


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything the rules read."""

    districts: tuple[District, ...]  # by number, 1..16
    sides: dict[str, Side]  # "small", "large"
    setup_zone_goal_rule: str  # documentation only
    cop_districts: tuple[int, ...]  # one Cop District tile per entry
    cops_revealed: int  # Cops placed at setup
    cops_face_down: int  # Cop tiles placed face down at setup
    cop_stacks: tuple[int, ...]  # sizes of the Time-track stacks
    years: dict[str, int]  # "setup", "act1" .. "act4", "final"
    locations: Locations
    tracks: Tracks
    cards: tuple[OpsCard, ...]  # id = index
    buildings: Buildings
    docks: Docks
    goals: Goals
    city_tiles: tuple[CityTile, ...]
    helpers: Helpers
    mobsters: tuple[Mobster, ...]  # id = index
    final: Final
    own_values: tuple[str, ...]  # "file: key" of every value marked as the project's own
    tile_kinds: tuple[int, ...] = ()  # City tile id -> index into ``city_tiles`` (the kinds expanded in order)

    def district(self, number: int) -> District:
        """The district with this number."""
        return self.districts[number - 1]

    def side_for(self, players: int) -> Side:
        """The board side for this player count."""
        for side in self.sides.values():
            if players in side.players:
                return side
        raise ValueError(f"no board side for {players} players")
