"""The Speakeasy game state: plain msgspec structs, serialised as JSON without loss.

Every component is held by id or count in exactly one place (``invariants`` checks it). Pending decisions
are a stack of ``Task``s: the top one is asked next; a Person's steps, a card's benefit and an Infamy reward
are pushed as tasks so that each is asked in its printed order.
"""

from __future__ import annotations

import msgspec

from engine.core import Rng


class Building(msgspec.Struct):
    """A player's building on a space."""

    owner: int
    kind: str  # stills, speakeasy, nightclub, casino
    barrel: bool = False  # a barrel beside it (never for the Stills: its barrels are on the Stills area)
    family: bool = False  # a protecting Family Member on its slot


class Space(msgspec.Struct):
    """A building space: a player building, or a Mobster Speakeasy beside it, and the City tile on it."""

    building: Building | None = None
    mobster: bool = False
    tile: int | None = None


class District(msgspec.Struct):
    """A district on the main board."""

    number: int
    spaces: list[Space]
    cop: bool = False  # a Cop stands here
    cop_tile: bool = False  # a face-down Cop District tile on its Cop space (no effect yet)
    war_tile: bool = False  # a face-down Mobster District tile on its gun space (the next Mob War)
    strength: int = 0  # the Mobster Strength tile (0: none)
    strength_down: bool = False  # the Strength tile flipped face down (its Mobster left the game)
    mobster: int | None = None  # the Mobster tile on this district of the Mobster board


class Ship(msgspec.Struct):
    """A Rum-runner Ship at a berth of the City Docks."""

    number: int
    port: int  # district of its Port tile
    barrels: int
    crate: int | None


class Task(msgspec.Struct):
    """A pending decision or step. ``n``/``m``/``s``/``items`` are the step's own counters and arguments."""

    kind: str
    seat: int
    n: int = 0
    m: int = 0
    s: str = ""
    items: list[int] = []


class Player(msgspec.Struct):
    """One player's pieces, money and board."""

    name: str
    pocket: int
    safe: int
    leverage: int
    infamy: int
    levels: dict[str, int]  # vip, party, stills, fleet, strength
    goons: int
    associate: int | None  # Mobster tile id carrying this player's Associate marker
    capos: int  # on the Operations board, ready to place
    capos_boxed: int
    hand: list[int]
    slots: dict[str, int | None]  # card in each deck's slot
    books: int  # on the Books space
    book_supply: int
    family_supply: int
    family_vip: int
    family_track: list[int]  # Infamy spaces still holding this player's Family Member
    rows: dict[str, list[bool]]  # True: the building is still on that row space
    stills_barrels: int
    tiles: list[int]  # City tiles on the Operations board
    helpers: list[int]  # face up beside the board
    screen: list[int]  # used Helper cards behind the Safe screen
    crates: list[int]
    rewards: list[int]  # Infamy reward spaces already collected
    zone_markers: list[int]
    lost_family: int = 0  # Family Members that left the game
    ambushes: int = 0
    lost_buildings: dict[str, int] = {}  # buildings that left the game in a Mob War, by kind
    income: dict[str, int] = {}  # dollars gained by source (sales, casinos, crates, zones, books, ...): statistics
    final: dict[str, int] = {}  # the final scoring's parts, once the game is over
    # every dollar gained (+) or lost (-) by source, the start money included: sums to pocket + safe (money.py);
    # empty in records saved before it existed
    ledger: dict[str, int] = {}


class JoState(msgspec.Struct):
    """Jo, the solo bot (seed 003): his decks and what his rules remember."""

    seat: int
    difficulty: int
    deck: list[str] = []  # his action deck for this Act, top first (face down: never shown)
    waiting: dict[str, list[str]] = {}  # decks 3 and 4, waiting for Acts 2 and 3
    discard: list[str] = []  # cards he has done (face up)
    boxed: list[str] = []
    districts: list[int] = []  # his District deck, top first (face down)
    drawn: list[int] = []  # District cards drawn since the last reshuffle
    icons: list[str] = []  # District-card icons already used this turn (seed 003:50.3-4)
    card: str = ""  # the card of his latest turn
    kingpin: list[bool] = []  # per payout: the player alone in 1st place on at least one Zone
    achievements: list[str] = []
    rank: str = ""


class SpeakeasyState(msgspec.Struct, dict=True):
    """A whole game. (``dict=True``: the engine may keep what it worked out for the open question beside the
    fields, never stored, copied or compared: ``flow._keep_asked``.)"""

    seats: list[str]
    side: str  # "small" (1-2 players) or "large"
    rng: Rng
    players: list[Player]
    districts: list[District]  # index = number - 1
    phase: str = "setup"  # setup (the 1920 Setup Round), play, luciano (end of an Act), over
    act: int = 0
    round: int = 0  # player round within the Act, 1-based
    year: int = 1920
    track: list[int] = []  # the Turn Order track: first place first
    order: list[int] = []  # the order the current round is played in
    turn: int = 0  # index into ``order``
    tasks: list[Task] = []
    persons: dict[str, int] = {}  # Person id -> seat of the Capo talking to them this Act
    booths: list[int | None] = []  # Restaurant lower row
    first_place: list[int] = []  # seats of Capos at Lucky's table, in arrival order
    park: list[int | None] = []
    decks: dict[str, list[int]] = {}  # Operations decks, face up, top first
    helper_deck: list[int] = []
    helper_display: list[int | None] = []
    city_piles: list[list[int]] = []  # face-down piles of the City tile display, top first
    city_face: list[int | None] = []  # the face-up tile of each display row
    zone_goals: list[int] = []  # Zone Goal tile per Zone
    zone_books: list[list[int]] = []  # seats with a Book on each Zone goal
    city_hall_books: list[list[int]] = []  # [seat, act] of each City Hall Book
    docks_books: list[list[int]] = []  # seats with a Book on each Docks zone
    infamy_books: dict[str, list[int]] = {}  # Infamy book space -> seats
    park_goals: list[str] = []  # Central Park Goal tiles, left to right
    park_books: list[int | None] = []  # the seat whose Book is on each tile
    docks: list[list[int | None]] = []  # Family Member spaces of each Docks zone (seat or empty)
    ships: list[Ship] = []
    port_stack: list[int] = []
    port_box: list[int] = []
    crate_stack: list[int] = []
    mobster_decks: dict[str, list[int]] = {}  # unused Mobster tiles per deck letter
    mobster_box: list[int] = []
    war_stacks: list[list[int]] = []  # Time track: Mobster District tiles of the later Mob Wars
    cop_stacks: list[list[int]] = []  # Time track: Cop District tiles of the later patrols
    box: dict[str, list[int | str]] = {}  # boxed components by kind (mobster_districts, cop_tiles, zone_goals, ...)
    mobster_markers: list[int] = []  # the Mobsters' Zone Control marker on each Zone track
    mobster_gone: list[int] = []  # Mobster tiles that left the game (placed no Speakeasy, seed 001:17.1)
    war_stats: list[list[int]] = []  # per Act 1-3: [buildings attacked, buildings lost]
    beside_park: list[int] = []  # Capos Jo bumped when the Park was full (design §2), by seat
    jo: JoState | None = None  # solo games only
    log_count: int = 0  # choices applied (for the log)
    undo_mark: int = 0  # choices that can never be undone (a reveal, chance, another seat's choice, a new turn)
    last_chooser: int | None = None  # the seat of the latest choice
    #: the table answers a question at once when the public knows it has one possible answer (table option)
    settle: bool = False
    #: the rules version its table was opened with (table option ``rules``; ``schema/house.py``)
    rules: int = 1

    def player(self, seat: int) -> Player:
        """The player in ``seat``."""
        return self.players[seat]


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(SpeakeasyState)


def dumps(state: SpeakeasyState) -> bytes:
    """The state as JSON."""
    return _encoder.encode(state)


def loads(data: bytes | str) -> SpeakeasyState:
    """A state from ``dumps``."""
    return _decoder.decode(data)
