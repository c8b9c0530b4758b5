"""Setting up a game: seed 000 section 2, steps 1-11, with the design file's additions (§1.5)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event, Rng
from engine.msg import Join, M, T
from engine.speakeasy import solo
from engine.speakeasy.board import district_name, zone_name
from engine.speakeasy.components import BUILDING_KINDS, LEVEL_TRACKS, TRACKS, ZONES
from engine.speakeasy.goals import zone_goal_text
from engine.speakeasy.loader import rules
from engine.speakeasy.state import District, JoState, Player, Ship, Space, SpeakeasyState
from engine.speakeasy.steps import Log, say


def new_state(
    seats: Sequence[str], seed: int, difficulty: int = 0, version: int = 1
) -> tuple[SpeakeasyState, list[Event]]:
    """A set-up game waiting for the last player in turn order to open a building in the 1920 Setup Round, under
    rules ``version`` (the table option ``rules``).

    One seat is a solo game against Jo (seed 003): the 2-player set-up with Jo in the second seat.
    """
    from engine.speakeasy.flow import advance, begin_setup

    r = rules(version)
    solo = len(seats) == 1
    if solo:
        seats = [seats[0], "Jo"]
    n = len(seats)
    side = r.side_for(n)
    rng = Rng(seed & ((1 << 64) - 1))
    log: Log = []
    # Step 1: the board side for the player count (seed 000:10.1).
    districts = [
        District(d.number, [Space() for _ in range(0 if d.number in side.blocked else d.spaces)]) for d in r.districts
    ]
    state = SpeakeasyState(list(seats), side.name, rng, [], districts, rules=version)
    state.box = {"mobster_districts": [], "cop_tiles": [], "zone_goals": [], "park_goals": [], "helpers": []}
    say(
        log,
        M(
            "speakeasy.setup.side",
            "Speakeasy for {n} players on the {side} player side.",
            n=n,
            side="1–2" if side.name == "small" else "3–4",
        ),
    )
    _mobsters(state, log)  # step 2
    _cops(state, log)  # step 3
    _city_tiles(state)  # step 4
    _zone_goals(state, log)  # step 5
    _central_park(state)  # step 6
    _cards_and_helpers(state)  # step 7 (cards are dealt after the players exist)
    _docks(state)  # step 8
    # Step 9: barrels, Cops, money, Leverage and Goons are unlimited supplies (design §1.5.6).
    _players(state, seats)  # step 10
    if solo:
        _jo_player(state, 1, difficulty, log)
    for seat in range(n):
        if state.jo is not None and seat == state.jo.seat:
            continue  # Jo has no Operations cards (seed 003:38.1)
        for deck in TRACKS:
            state.players[seat].hand.append(state.decks[deck].pop(0))
    # Step 11: a random starting player, the others clockwise (seed 000:20.1-2).
    first = rng.below(n)
    state.track = [(first + k) % n for k in range(n)]
    state.order = list(reversed(state.track))  # the Setup Round is played in reverse turn order (000:20.3)
    state.booths = [None] * len(r.locations.booths)
    state.park = [None] * len(r.locations.park)
    state.turn = 0
    # Issue 24: the Turn Order panel shows the Setup Round's order (reversed), so the line says both
    say(
        log,
        M(
            "speakeasy.setup.first_reverse",
            "{name} is the starting player; the 1920 Setup Round goes in reverse turn order: {order}.",
            name=seats[first],
            order=Join([seats[s] for s in state.order], "comma"),
        ),
    )
    begin_setup(state, state.order[0], log)
    advance(state, log)
    return state, log


def _jo_player(state: SpeakeasyState, seat: int, difficulty: int, log: Log) -> None:
    """Seed 003:11.1-16.1: Jo's pieces (no Strength marker, Trucks, Associate, safe or money), then his decks."""
    from engine.speakeasy.jo.data import jo_rules

    jr = jo_rules()
    p = state.players[seat]
    p.pocket = p.safe = p.leverage = 0
    p.ledger = {}  # no start money
    p.goons = 0
    p.capos = jr.numbers["capos"]
    p.infamy = jr.numbers["infamy_start"]
    p.family_track = []  # his Family Members are beside his board
    p.family_supply = jr.numbers["family"]
    p.book_supply = jr.numbers["books"]
    p.rows = {
        "stills": [True],
        "speakeasy": [True] * jr.numbers["speakeasies"],
        "nightclub": [True] * jr.numbers["nightclubs"],
        "casino": [True] * jr.numbers["casinos"],
    }
    state.jo = JoState(seat, difficulty or jr.default_difficulty)
    solo.jo("set_up")(state, state.jo.difficulty, log)


def _mobsters(state: SpeakeasyState, log: Log) -> None:
    """Seed 000:11.1-7 and design §1.5.1: Setup Mobsters, then the next wars' District tiles."""
    r = rules(state)
    side = r.sides[state.side]
    draws = dict(side.mobsters)
    tiles = [d.number for d in r.districts if d.number not in side.blocked]
    state.rng.shuffle(tiles)
    decks: dict[str, list[int]] = {letter: [m.id for m in r.mobsters if m.deck == letter] for letter in draws}
    setup = decks.pop("A")
    state.rng.shuffle(setup)
    for mob in setup[: draws["A"]]:
        number = tiles.pop(0)
        d = state.districts[number - 1]
        d.mobster = mob
        d.strength = r.mobsters[mob].strength
        for sp in d.spaces:
            sp.mobster = True
        say(
            log,
            M(
                "speakeasy.setup.mobster",
                "{mobster} (strength {strength}) holds {district}.",
                mobster=T("speakeasy.term.mobster", r.mobsters[mob].name),
                strength=d.strength,
                district=district_name(number),
            ),
        )
    state.mobster_box = setup[draws["A"] :]
    for number in tiles[: draws["B"]]:
        state.districts[number - 1].war_tile = True
    rest = tiles[draws["B"] :]
    state.war_stacks = [rest[: draws["C"]], rest[draws["C"] : draws["C"] + draws["D"]]]
    state.box["mobster_districts"] = rest[draws["C"] + draws["D"] :] + [
        d.number for d in r.districts if d.number in side.blocked
    ]
    state.mobster_decks = decks
    wars = Join([district_name(d.number) for d in state.districts if d.war_tile], "comma")
    say(log, M("speakeasy.setup.first_war", "The first Mob War will come to {districts}.", districts=wars))


def _cops(state: SpeakeasyState, log: Log) -> None:
    """Seed 000:12.1-4: 4 Cops, 4 face-down tiles, two stacks of 4 on the Time track."""
    r = rules(state)
    tiles = list(r.cop_districts)
    state.rng.shuffle(tiles)
    k, f = r.cops_revealed, r.cops_face_down
    for number in tiles[:k]:
        state.districts[number - 1].cop = True
    for number in tiles[k : k + f]:
        state.districts[number - 1].cop_tile = True
    rest = tiles[k + f :]
    state.cop_stacks = []
    for size in r.cop_stacks:
        state.cop_stacks.append(rest[:size])
        rest = rest[size:]
    state.box["cop_tiles"] = rest
    say(
        log,
        M(
            "speakeasy.setup.cops",
            "Cops patrol {districts}.",
            districts=Join([district_name(n) for n in sorted(tiles[:k])], "comma"),
        ),
    )


def _city_tiles(state: SpeakeasyState) -> None:
    """Seed 000:13.1-4: a tile on every space, 3 face up, the rest in 3 face-down piles."""
    r = rules(state)
    tiles = list(range(sum(ct.count for ct in r.city_tiles)))
    state.rng.shuffle(tiles)
    for d in state.districts:
        for sp in d.spaces:
            sp.tile = tiles.pop(0)
    piles = r.sides[state.side].city_piles
    state.city_face = [tiles.pop(0) for _ in piles]
    state.city_piles = []
    for size in piles:
        state.city_piles.append(tiles[:size])
        tiles = tiles[size:]


def _zone_goals(state: SpeakeasyState, log: Log) -> None:
    """Seed 000:14.1-3, design §10.1: three tiles with three different numbers."""
    goals = rules(state).goals.zone_goals
    tiles = [g.id for g in goals]
    state.rng.shuffle(tiles)
    chosen: list[int] = []
    while len(chosen) < len(ZONES):
        t = tiles.pop(0)
        if all(goals[t].number != goals[c].number for c in chosen):
            chosen.append(t)
        else:
            state.box["zone_goals"].append(t)
    state.box["zone_goals"] += tiles
    state.zone_goals = chosen
    state.zone_books = [[] for _ in ZONES]
    state.docks_books = [[] for _ in ZONES]
    downtown, midtown, uptown = (
        M(
            "speakeasy.setup.zone_goal",
            "{zone} {goal}",
            zone=zone_name(z),
            goal=zone_goal_text(goals[t].type, goals[t].number),
        )
        for z, t in zip(ZONES, chosen, strict=True)
    )
    say(
        log,
        M(
            "speakeasy.setup.zone_goals",
            "Zone goals: {downtown}; {midtown}; {uptown}.",
            downtown=downtown,
            midtown=midtown,
            uptown=uptown,
        ),
    )


def _central_park(state: SpeakeasyState) -> None:
    """Seed 000:15.1-2, design §10.5: A, B, C stacks shuffled and laid out left to right."""
    r = rules(state)
    state.park_goals = []
    for letter, count in r.sides[state.side].central_park:
        stack = [g.id for g in r.goals.park_goals if g.letter == letter]
        state.rng.shuffle(stack)
        state.park_goals += stack[:count]
        state.box["park_goals"] += stack[count:]
    state.park_books = [None] * len(state.park_goals)


def _cards_and_helpers(state: SpeakeasyState) -> None:
    """Seed 000:16.1-4: four shuffled face-up decks; the Helper deck with three face up."""
    r = rules(state)
    state.decks = {}
    for deck in TRACKS:
        cards = [c.id for c in r.cards if c.deck == deck]
        state.rng.shuffle(cards)
        state.decks[deck] = cards
    helpers = [h.id for h in r.helpers.cards]
    state.rng.shuffle(helpers)
    state.helper_display = helpers[: r.helpers.display]
    state.helper_deck = helpers[r.helpers.display :]


def _docks(state: SpeakeasyState) -> None:
    """Seed 000:17.1-4: 5 barrels and a Crate on each Ship; a Port tile for each."""
    r = rules(state)
    d = r.docks
    crates = [c.id for c in d.crates]
    state.rng.shuffle(crates)
    ports = list(d.ports)
    state.rng.shuffle(ports)
    state.ships = [Ship(k + 1, ports[k], d.ship_barrels, crates[k]) for k in range(len(d.ship_prices))]
    state.crate_stack = crates[len(d.ship_prices) :]
    state.port_stack = ports[len(d.ship_prices) :]
    state.port_box = []
    state.docks = [[None] * d.family_spaces for _ in ZONES]


def _players(state: SpeakeasyState, seats: Sequence[str]) -> None:
    """Seed 000:19.1-11 and design §1.5.2."""
    r = rules(state)
    t = r.tracks
    rows = r.buildings.rows
    for name in seats:
        state.players.append(
            Player(
                name=name,
                pocket=t.start_pocket,
                safe=t.start_safe,
                leverage=t.start_leverage,
                infamy=t.infamy_start,
                levels={track: 1 for track in LEVEL_TRACKS},
                goons=t.start_goons,
                associate=None,
                capos=t.capos,
                capos_boxed=0,
                hand=[],
                slots={deck: None for deck in TRACKS},
                books=0,
                book_supply=t.start_books,
                family_supply=t.start_family_supply,
                family_vip=0,
                family_track=list(t.family_on_infamy),
                rows={kind: [True] * len(rows[kind]) for kind in BUILDING_KINDS},
                stills_barrels=0,
                tiles=[],
                helpers=[],
                screen=[],
                crates=[],
                rewards=[],
                zone_markers=[0] * len(ZONES),
                ledger={"start": t.start_pocket + t.start_safe},
            )
        )
