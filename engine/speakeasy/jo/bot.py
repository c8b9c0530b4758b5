"""Jo's setup, turn and actions (seed 003, design §15): automatic steps, never a prompt for his seat.

Every order the seed leaves open is design §15.1's: building value Casino > Nightclub > Speakeasy > Stills, then
the lowest district number, then the lowest space index.
"""

from __future__ import annotations

from engine.msg import M, P, T
from engine.speakeasy import economy as eco
from engine.speakeasy import money
from engine.speakeasy.board import (
    KIND_NAMES,
    TRACK_NAMES,
    buildings,
    free_spaces,
    is_open,
    mobster_held,
    operating_buildings,
    space_name,
    stills_operating,
    zone_index,
    zone_name,
)
from engine.speakeasy.components import BUILDING_KINDS, ZONES
from engine.speakeasy.docks import move_ship
from engine.speakeasy.gains import tile_name
from engine.speakeasy.goals import zone_goal_met
from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.loader import rules
from engine.speakeasy.state import Building, District, SpeakeasyState, Task
from engine.speakeasy.steps import Log, opt, push, register, say

VALUE = {kind: i for i, kind in enumerate(BUILDING_KINDS)}  # seed 003:42.1
#: Jo's card locations and the locations of locations.toml.
LOCATION_NAMES = {
    "docks": "Docks",
    "garage": "Garage",
    "city_hall": "City Hall",
    "commission": "Commission",
    "contractor": "Contractor office",
    "city_planning": "City Planning office",
}
#: The bottles of the Helpers as people read them (design §11.2).
BOTTLE_NAMES = {
    "moonshine": M("speakeasy.jo.bottle_moonshine", "moonshine"),
    "gin": M("speakeasy.jo.bottle_gin", "gin"),
    "rum": M("speakeasy.jo.bottle_rum", "rum"),
    "whiskey": M("speakeasy.jo.bottle_whiskey", "whiskey"),
    "champagne": M("speakeasy.jo.bottle_champagne", "champagne"),
}
LEVEL_CODES = {"+V": "vip", "+P": "party", "+S": "stills", "+F": "fleet"}
BUILD_CODES = {"B-S": "speakeasy", "B-N": "nightclub", "B-C": "casino"}


def is_jo(state: SpeakeasyState, seat: int) -> bool:
    """Whether ``seat`` is Jo."""
    return state.jo is not None and state.jo.seat == seat


def _value_key(d: District, i: int, b: Building) -> tuple[int, int, int]:
    """Most valuable first, then the lowest district, then the lowest space (seed 003:42.1-2)."""
    return (-VALUE[b.kind], d.number, i)


# ---- decks ----


def shuffle_districts(state: SpeakeasyState) -> None:
    """Seed 003:50.5: all 16 District cards shuffled into a new deck."""
    jo = state.jo
    assert jo is not None
    jo.districts = [d.number for d in rules().districts]
    jo.drawn = []
    state.rng.shuffle(jo.districts)


def draw_district(state: SpeakeasyState) -> int:
    """The top District card (reshuffling all 16 when the deck is empty)."""
    jo = state.jo
    assert jo is not None
    if not jo.districts:
        shuffle_districts(state)
    card = jo.districts.pop(0)
    jo.drawn.append(card)
    return card


def set_up(state: SpeakeasyState, difficulty: int, log: Log) -> None:
    """Seed 003:14.1-22.2 and design §15.3-§15.4: the District deck, deck 0's setup raise, decks 1-4, the
    difficulty swaps and the Act 1 deck."""
    jr = jo_rules()
    jo = state.jo
    assert jo is not None
    shuffle_districts(state)
    by_deck: dict[int, list[str]] = {d: [c.id for c in jr.cards if c.deck == d] for d in range(5)}
    for cards in by_deck.values():
        state.rng.shuffle(cards)
    # Deck 0: reveal until a card raises an Operations level; apply its first + action; box it.
    zero = by_deck[0]
    revealed: list[str] = []
    while zero:
        card = zero.pop(0)
        raise_code = next((a for a in jr.card(card).actions if a in LEVEL_CODES or a == "+low"), None)
        if raise_code is None:
            revealed.append(card)
            continue
        track = LEVEL_CODES.get(raise_code) or lowest_level(state, jo.seat)
        state.player(jo.seat).levels[track] += 1  # the setup raise moves no Infamy (design §15.1)
        jo.boxed.append(card)
        say(
            log,
            M(
                "speakeasy.jo.setup_raise",
                "Jo's setup card raises his {track} to {level}.",
                track=TRACK_NAMES[track],
                level=state.player(jo.seat).levels[track],
            ),
        )
        break
    zero += revealed
    state.rng.shuffle(zero)
    # Box 2 random cards of deck 2 (seed 003:20.1).
    for _ in range(jr.numbers["deck2_boxed"]):
        jo.boxed.append(by_deck[2].pop(state.rng.below(len(by_deck[2]))))
    # Difficulty: random cards of the named decks out, random strong or weak deck-0 cards in.
    level = jr.difficulties[difficulty]
    pool = [c for c in zero if jr.card(c).strong == level.strong]
    for deck, n in level.swaps:
        outs = [by_deck[deck].pop(state.rng.below(len(by_deck[deck]))) for _ in range(n)]
        jo.boxed += outs
        by_deck[deck] += [pool.pop(state.rng.below(len(pool))) for _ in range(n)]
        state.rng.shuffle(by_deck[deck])
    jo.boxed += [c for c in zero if c not in {x for d in (1, 2, 3, 4) for x in by_deck[d]}]
    jo.waiting = {str(d): by_deck[d] for d in (3, 4)}
    jo.deck = []
    for d in jr.act_decks[0]:
        jo.deck += by_deck[d]
    state.rng.shuffle(jo.deck)
    say(
        log,
        M(
            "speakeasy.jo.difficulty",
            "Jo plays at difficulty {level} ({name}).",
            level=level.level,
            name=T("speakeasy.term.jo_level", level.name),
        ),
    )


def start_act(state: SpeakeasyState, log: Log) -> None:
    """Seed 003:22.2, 003:50.5: the leftover cards shuffled with the Act's new deck; the District deck reshuffled."""
    jo = state.jo
    assert jo is not None
    for d in jo_rules().act_decks[state.act - 1]:
        jo.deck += jo.waiting.pop(str(d), [])
    state.rng.shuffle(jo.deck)
    if state.act <= 3:
        shuffle_districts(state)


# ---- Setup Round (seed 003:26.2-3) ----


def _setup(state: SpeakeasyState, task: Task, log: Log) -> None:
    jo = state.jo
    assert jo is not None
    while True:
        number = draw_district(state)
        d = state.districts[number - 1]
        free = [i for i, sp in enumerate(d.spaces) if sp.building is None and not sp.mobster]
        if free:
            break
    place_building(state, jo.seat, d, free[0], "stills", log)
    shuffle_districts(state)


register("jo_setup", M("speakeasy.jo.setup_step", "Jo's Setup Round"), auto=_setup, skip=None)


def place_building(state: SpeakeasyState, seat: int, d: District, i: int, kind: str, log: Log) -> None:
    """Jo's building from his row onto a space; he takes the City tile without its benefit (seed 003:50.2)."""
    p = state.player(seat)
    row = p.rows[kind]
    row[row.index(True)] = False
    sp = d.spaces[i]
    took = sp.mobster
    sp.mobster = False
    sp.building = Building(seat, kind)
    tile = None
    if sp.tile is not None:
        p.tiles.append(sp.tile)
        tile = tile_name(sp.tile)
        sp.tile = None
    what = {"space": space_name(d.number, i), "building": KIND_NAMES[kind]}
    if took and tile is not None:
        text = M(
            "speakeasy.jo.take_over_tile",
            "Jo takes over the Mobster Speakeasy in {space} with a {building} and takes the City tile {tile}.",
            tile=tile,
            **what,
        )
    elif took:
        text = M("speakeasy.jo.take_over", "Jo takes over the Mobster Speakeasy in {space} with a {building}.", **what)
    elif tile is not None:
        text = M(
            "speakeasy.jo.opens_tile",
            "Jo opens a {building} in {space} and takes the City tile {tile}.",
            tile=tile,
            **what,
        )
    else:
        text = M("speakeasy.jo.opens", "Jo opens a {building} in {space}.", **what)
    say(log, text)


# ---- his turn (seed 003:30.1-34.1) ----


def lowest_level(state: SpeakeasyState, seat: int) -> str:
    """His lowest Operations level; ties in the order VIP, Party, Stills, Fleet (design §15.1)."""
    p = state.player(seat)
    order = jo_rules().lowest_level
    return min(order, key=lambda t: (p.levels[t], order.index(t)))


def _spot(state: SpeakeasyState, location: str) -> tuple[str, str] | None:
    """Where a card of this location puts Jo's Capo: ("person", id) / ("bump", id) / ("booth", n) / ("first", "")
    / ("park", k); None when blocked by his own Capos or a full Park."""
    jo = state.jo
    assert jo is not None
    loc = rules().locations
    if location == "park":
        for k, holder in enumerate(state.park):
            if holder is None:
                return ("park", str(k))
        return None
    if location == "restaurant":
        for b in loc.booths[: rules().sides[state.side].booths]:
            if state.booths[b.number - 1] is None:
                return ("booth", str(b.number))
        return ("first", "")
    name = LOCATION_NAMES[location]
    left = next(p for p in loc.persons if p.location == name and p.position == "left")
    right = next(p for p in loc.persons if p.location == name and p.position == "right")
    for per in (left, right):
        if per.id not in state.persons:
            return ("person", per.id)
    for per in (left, right):  # design §15.1: your leftmost Capo there is bumped
        if state.persons[per.id] != jo.seat:
            return ("bump", per.id)
    return None


def _turn(state: SpeakeasyState, task: Task, log: Log) -> None:
    jo = state.jo
    assert jo is not None
    seat = jo.seat
    jo.icons = []
    drawn: list[str] = []
    spot = None
    while jo.deck and spot is None:
        card = jo.deck.pop(0)
        drawn.append(card)
        spot = _spot(state, jo_rules().card(card).location)
    if spot is None:  # design §15.1: no card can be placed: first place with the first card drawn
        card, spot = drawn[0], ("first", "")
    else:
        card = drawn[-1]
    unused = [c for c in drawn if c != card]
    state.rng.shuffle(unused)
    jo.deck += unused  # seed 003:33.1: the unused cards to the bottom
    jo.card = card
    p = state.player(seat)
    p.capos -= 1
    kind, arg = spot
    loc = rules().locations
    if kind == "person":
        state.persons[arg] = seat
        per = next(x for x in loc.persons if x.id == arg)
        say(
            log,
            M(
                "speakeasy.jo.flip_person",
                "Jo flips card {card} and sends a Capo to the {person} ({location}).",
                card=card,
                person=T("speakeasy.term.person", per.name),
                location=T("speakeasy.term.location", per.location),
            ),
            kind="jo",
        )
    elif kind == "bump":
        bumped = state.persons[arg]
        per = next(x for x in loc.persons if x.id == arg)
        state.persons[arg] = seat
        free = [k for k, holder in enumerate(state.park) if holder is None]
        if free:
            state.park[free[0]] = bumped
        else:
            state.beside_park.append(bumped)
        say(
            log,
            M(
                "speakeasy.jo.flip_bump",
                "Jo flips card {card}: both Persons at the {location} are taken, so {name}'s Capo moves from the "
                "{person} to the Park.",
                card=card,
                location=T("speakeasy.term.location", per.location),
                name=state.player(bumped).name,
                person=T("speakeasy.term.person", per.name),
            ),
            kind="jo",
        )
    elif kind == "booth":
        state.booths[int(arg) - 1] = seat
        say(
            log,
            M(
                "speakeasy.jo.flip_booth",
                "Jo flips card {card} and sends a Capo to Restaurant booth {n}.",
                card=card,
                n=int(arg),
            ),
            kind="jo",
        )
    elif kind == "first":
        state.first_place.append(seat)
        state.track.remove(seat)
        state.track.insert(0, seat)
        say(
            log,
            M("speakeasy.jo.flip_first", "Jo flips card {card} and takes first place at the Restaurant.", card=card),
            kind="jo",
        )
    else:
        state.park[int(arg)] = seat
        say(
            log, M("speakeasy.jo.flip_park", "Jo flips card {card} and sends a Capo to the Park.", card=card), kind="jo"
        )
    jo.discard.append(card)  # seed 003:30.3: done, then discarded (face up at once: it is shown anyway)
    for action in reversed(jo_rules().card(card).actions):
        push(state, "jo_action", seat, s=action)
    if kind == "bump":
        push(state, "park_bump", bumped)


register("jo_turn", M("speakeasy.jo.turn_step", "Jo's turn"), auto=_turn, skip=None)


def _bump_options(state: SpeakeasyState, task: Task) -> list:
    return [
        opt(
            f"reward:{k}",
            M(
                "speakeasy.jo.park_reward",
                "Take the Park reward of space {n}: {gain}",
                n=sp.number,
                gain=eco.describe(sp.reward),
            ),
        )
        for k, sp in enumerate(rules().locations.park)
    ]


def _bump_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    sp = rules().locations.park[int(option.split(":")[1])]
    say(
        log,
        M(
            "speakeasy.jo.park_reward_taken",
            "{name} takes the Park reward: {gain}.",
            name=state.player(task.seat).name,
            gain=eco.describe(sp.reward),
        ),
    )
    eco.gain(state, task.seat, sp.reward, log)


register(
    "park_bump",
    M("speakeasy.jo.park_bump_ask", "Jo moved your Capo to the Park: take one of the three Park rewards"),
    options=_bump_options,
    choose=_bump_choose,
    skip=None,
)


# ---- his actions (seed 003:46.1-54.1, design §15.1) ----


def size(state: SpeakeasyState, seat: int, track: str) -> int:
    """An action's size: the level number (design §15.1 flag), or the track's value."""
    p = state.player(seat)
    if jo_rules().level_number_sizes:
        return p.levels[track]
    return rules().tracks.ops[track].values[p.levels[track] - 1]


def _action(state: SpeakeasyState, task: Task, log: Log) -> None:
    code, seat = task.s, task.seat
    p = state.player(seat)
    if code in LEVEL_CODES or code == "+low":
        track = LEVEL_CODES.get(code) or lowest_level(state, seat)
        if p.levels[track] < rules().tracks.max_level:
            eco.raise_level(state, seat, track, log)
        else:
            say(log, M("speakeasy.jo.track_top", "Jo's {track} is at the top: skipped.", track=TRACK_NAMES[track]))
    elif code.startswith("$"):
        amount = jo_rules().numbers["park_money"] if state.park.count(seat) and code == "$5" else int(code[1:])
        eco.earn(p, "bonuses", amount)
        say(log, M("speakeasy.jo.gains", "Jo gains ${amount}.", amount=amount))
    elif code in BUILD_CODES:
        build(state, seat, BUILD_CODES[code], log)
    elif code == "PRO":
        produce(state, seat, log)
    elif code == "DEL":
        deliver(state, seat, log)
    elif code == "SEL":
        sell(state, seat, log)
    elif code == "PROT":
        protect(state, seat, log)
    elif code == "AMB":
        ambush(state, seat, log)
    elif code == "COOK":
        cook(state, seat, log)


register("jo_action", M("speakeasy.jo.action_step", "Jo's action"), auto=_action, skip=None)


def build(state: SpeakeasyState, seat: int, kind: str, log: Log) -> None:
    """Seed 003:50.1-4, design §15.1: draw District cards until he can open or take over there."""
    jo = state.jo
    assert jo is not None
    p = state.player(seat)
    chain = ["speakeasy", "nightclub", "casino"]
    kinds = [k for k in reversed(chain[: chain.index(kind) + 1])]
    have = next((k for k in kinds if any(p.rows[k])), None)
    if have is None or (next(free_spaces(state), None) is None and next(mobster_held(state), None) is None):
        say(log, M("speakeasy.jo.cannot_build", "Jo cannot build a {building}: skipped.", building=KIND_NAMES[kind]))
        return
    jr = jo_rules()
    while True:
        number = draw_district(state)
        if number in jr.family_icon and "family" not in jo.icons:
            jo.icons.append("family")
            _family_to_docks(state, seat, zone_index(number), log)
        if number in jr.helper_icon and "helper" not in jo.icons:
            jo.icons.append("helper")
            take_bottle(state, seat, log)
        if not is_open(state, number):
            continue
        d = state.districts[number - 1]
        free = [i for i, sp in enumerate(d.spaces) if sp.building is None and not sp.mobster]
        held = [i for i, sp in enumerate(d.spaces) if sp.building is None and sp.mobster]
        if free or held:
            place_building(state, seat, d, (free or held)[0], have, log)
            return


def _family_to_docks(state: SpeakeasyState, seat: int, zone: int, log: Log) -> None:
    p = state.player(seat)
    slots = state.docks[zone]
    if p.family_supply > 0 and None in slots:
        p.family_supply -= 1
        slots[slots.index(None)] = seat
        say(
            log,
            M(
                "speakeasy.jo.family_docks",
                "Jo sends a Family Member to the {zone} Docks.",
                zone=zone_name(ZONES[zone]),
            ),
        )


def take_bottle(state: SpeakeasyState, seat: int, log: Log) -> None:
    """Seed 003:50.3, design §15.1: the most valuable bottle he lacks from the display, scanning left to right."""
    r = rules()
    p = state.player(seat)
    owned = {r.helpers.cards[h].bottle for h in p.helpers + p.screen}
    best = None
    for h in state.helper_display:
        if h is None or r.helpers.cards[h].bottle in owned:
            continue
        if (
            best is None
            or r.helpers.bottle_values[r.helpers.cards[h].bottle]
            > r.helpers.bottle_values[r.helpers.cards[best].bottle]
        ):
            best = h
    if best is None:
        return
    idx = state.helper_display.index(best)
    p.helpers.append(best)
    state.helper_display[idx] = state.helper_deck.pop(0) if state.helper_deck else None
    say(
        log,
        M(
            "speakeasy.jo.helper",
            "Jo takes the Helper {helper} ({bottle}).",
            helper=T("speakeasy.term.helper", r.helpers.cards[best].name),
            bottle=BOTTLE_NAMES[r.helpers.cards[best].bottle],
        ),
    )


def produce(state: SpeakeasyState, seat: int, log: Log) -> None:
    """Design §15.1: barrels equal to his Stills level onto his Stills area (capacity 8), with an Operating Stills."""
    p = state.player(seat)
    if not stills_operating(state, seat):
        say(log, M("speakeasy.jo.no_stills", "Jo has no Operating Stills: no barrels."))
        return
    added = min(size(state, seat, "stills"), jo_rules().stills_capacity - p.stills_barrels)
    p.stills_barrels += max(0, added)
    say(log, P("speakeasy.jo.produces", "Jo produces {n} barrel.", "Jo produces {n} barrels.", max(0, added)))


def _targets(state: SpeakeasyState, seat: int) -> list[tuple[District, int, Building]]:
    return sorted(
        ((d, i, b) for d, i, b in operating_buildings(state, seat) if b.kind != "stills" and not b.barrel),
        key=lambda t: _value_key(*t),
    )


def deliver(state: SpeakeasyState, seat: int, log: Log) -> None:
    """Seed 003:48.1: up to his Fleet level, first from his Stills, then the cheapest Ship, to his most valuable
    Operating buildings without a barrel; free."""
    p = state.player(seat)
    moved = 0
    prices = rules().docks.ship_prices
    for d, i, b in _targets(state, seat)[: size(state, seat, "fleet")]:
        if p.stills_barrels:
            p.stills_barrels -= 1
            src: int | None = None  # his Stills
        else:
            ships = [s for s in state.ships if s.barrels]
            if not ships:
                break
            ship = min(ships, key=lambda s: (prices[s.number - 1], s.number))
            ship.barrels -= 1
            src = ship.number
        b.barrel = True
        moved += 1
        where = space_name(d.number, i)
        if src is None:
            say(log, M("speakeasy.jo.delivers_stills", "Jo delivers a barrel from his Stills to {space}.", space=where))
        else:
            say(
                log,
                M(
                    "speakeasy.jo.delivers_ship",
                    "Jo delivers a barrel from Ship {ship} to {space}.",
                    ship=src,
                    space=where,
                ),
            )
    if not moved:
        say(log, M("speakeasy.jo.no_delivery", "Jo has nothing to deliver."))


def sell(state: SpeakeasyState, seat: int, log: Log) -> None:
    """Seed 003:49.1: up to his Party level at his Infamy price, most valuable buildings first (no Crate bonus)."""
    p = state.player(seat)
    full = sorted(
        ((d, i, b) for d, i, b in operating_buildings(state, seat) if b.kind != "stills" and b.barrel),
        key=lambda t: _value_key(*t),
    )
    for d, i, b in full[: size(state, seat, "party")]:
        t = rules().tracks
        band = max(k for k, low in enumerate(t.price_bands) if p.infamy >= low)
        amount = t.prices[b.kind][band]
        b.barrel = False
        eco.earn(p, "sales", amount)
        say(
            log,
            M(
                "speakeasy.jo.sells",
                "Jo sells a barrel at {space} for ${amount}.",
                space=space_name(d.number, i),
                amount=amount,
            ),
        )


def protect(state: SpeakeasyState, seat: int, log: Log) -> None:
    """Seed 003:51.1: up to his VIP level of Family Members from his supply, ignoring Leverage."""
    p = state.player(seat)
    order = jo_rules().protect_zones
    spots = sorted(
        ((d, i, b) for d, i, b in buildings(state, seat) if not b.family),
        key=lambda t: (
            not t[0].cop,
            not t[2].barrel,
            -VALUE[t[2].kind],
            order.index(ZONES[zone_index(t[0].number)]),
            t[0].number,
            t[1],
        ),
    )
    for d, i, b in spots[: size(state, seat, "vip")]:
        if p.family_supply <= 0:
            break
        p.family_supply -= 1
        b.family = True
        say(
            log,
            M(
                "speakeasy.jo.protects",
                "Jo protects the {building} in {space}.",
                building=KIND_NAMES[b.kind],
                space=space_name(d.number, i),
            ),
        )


def ambush(state: SpeakeasyState, seat: int, log: Log) -> None:
    """Seed 003:52.1-3: the Ship with most barrels; $5/$10/$15 instead of the Crate's cash; he keeps the Crate."""
    jr = jo_rules()
    ships = [s for s in state.ships if s.barrels]
    if not ships:
        say(log, M("speakeasy.jo.no_ambush", "No Ship has barrels: Jo cannot ambush."))
        return
    ship = min(ships, key=lambda s: (-s.barrels, s.port))
    zone = zone_index(ship.port)
    p = state.player(seat)
    amount = jr.ambush_money[min(state.act, len(jr.ambush_money)) - 1]
    eco.earn(p, "crates", amount)
    p.ambushes += 1
    say(
        log,
        M("speakeasy.jo.ambush", "Jo ambushes Ship {ship} and gains ${amount}.", ship=ship.number, amount=amount),
        kind="jo",
    )
    for other, pl in enumerate(state.players):
        if other != seat:
            n = state.docks[zone].count(other)
            if n:
                eco.earn(pl, "fees", n * jr.numbers["rival_fee"])
                say(
                    log,
                    M(
                        "speakeasy.jo.rival_fee",
                        "{name} gets ${amount} for their Family Members at those Docks.",
                        name=pl.name,
                        amount=n * jr.numbers["rival_fee"],
                    ),
                )
    if ship.crate is not None:
        p.crates.append(ship.crate)
        ship.crate = None
    targets = _targets(state, seat)
    if targets:
        ship.barrels -= 1
        targets[0][2].barrel = True
    elif p.stills_barrels < jr.stills_capacity:
        ship.barrels -= 1
        p.stills_barrels += 1
    slots = state.docks[zone]
    if seat in slots:
        slots[max(i for i, s in enumerate(slots) if s == seat)] = None
        p.family_supply += 1
    move_ship(state, ship.number, log)


def cook(state: SpeakeasyState, seat: int, log: Log) -> None:
    """Seed 003:53.1-2, design §15.1: up to 3 Books in his order, then at most one Central Park Book."""
    jr = jo_rules()
    g = rules().goals
    p = state.player(seat)
    placed = 0
    while placed < jr.numbers["cook_books"] and p.book_supply > 0:
        target = _cook_target(state, seat)
        if target is None:
            break
        kind, arg = target
        p.book_supply -= 1
        placed += 1
        if kind == "zone":
            state.zone_books[arg].append(seat)
            eco.earn(p, "books", jr.numbers["zone_goal_money"])
            say(
                log,
                M(
                    "speakeasy.jo.cooks_zone",
                    "Jo cooks the Books on the {zone} goal: ${amount}.",
                    zone=zone_name(ZONES[arg]),
                    amount=jr.numbers["zone_goal_money"],
                ),
            )
            _raise_lowest(state, seat, log)
        elif kind == "hall":
            state.city_hall_books.append([seat, state.act])
            eco.earn(p, "books", jr.numbers["city_hall_money"])
            say(
                log,
                M(
                    "speakeasy.jo.cooks_hall",
                    "Jo cooks the Books at City Hall: ${amount}.",
                    amount=jr.numbers["city_hall_money"],
                ),
            )
        elif kind == "docks":
            state.docks_books[arg].append(seat)
            eco.earn(p, "books", jr.numbers["docks_money"])
            say(
                log,
                M(
                    "speakeasy.jo.cooks_docks",
                    "Jo cooks the Books on the {zone} Docks: ${amount}.",
                    zone=zone_name(ZONES[arg]),
                    amount=jr.numbers["docks_money"],
                ),
            )
        else:
            state.infamy_books.setdefault(str(arg), []).append(seat)
            eco.earn(p, "books", g.infamy_books[arg])
            say(
                log,
                M(
                    "speakeasy.jo.cooks_infamy",
                    "Jo cooks the Books on Infamy {n}: ${amount}.",
                    n=arg,
                    amount=g.infamy_books[arg],
                ),
            )
            _raise_lowest(state, seat, log)
    if placed < jr.numbers["cook_books"] and p.book_supply > 0 and None in state.park_books:
        j = state.park_books.index(None)
        state.park_books[j] = seat
        p.book_supply -= 1
        eco.earn(p, "books", jr.numbers["park_book_money"])
        say(
            log,
            M(
                "speakeasy.jo.cooks_park",
                "Jo puts a Book on Central Park goal {tile}: ${amount}.",
                tile=state.park_goals[j],
                amount=jr.numbers["park_book_money"],
            ),
        )


def _raise_lowest(state: SpeakeasyState, seat: int, log: Log) -> None:
    track = lowest_level(state, seat)
    if state.player(seat).levels[track] < rules().tracks.max_level:
        eco.raise_level(state, seat, track, log)


def _cook_target(state: SpeakeasyState, seat: int) -> tuple[str, int] | None:
    jr = jo_rules()
    p = state.player(seat)
    for zone in jr.zone_goal_order:
        z = ZONES.index(zone)
        if seat not in state.zone_books[z] and zone_goal_met(state, seat, z):
            return ("zone", z)
    if not any(s == seat and a == state.act for s, a in state.city_hall_books):
        return ("hall", 0)
    for zone in jr.docks_order:
        z = ZONES.index(zone)
        if seat in state.docks[z] and seat not in state.docks_books[z]:
            return ("docks", z)
    spaces = [s for s in rules().goals.infamy_books if s <= p.infamy and seat not in state.infamy_books.get(str(s), [])]
    if spaces:
        return ("infamy", max(spaces))
    return None


# ---- Mob War (seed 003:39.2, design §15.1) ----


def _defend(state: SpeakeasyState, task: Task, log: Log) -> None:
    from engine.speakeasy.luciano import attack, lose_building

    d = state.districts[task.n - 1]
    b = d.spaces[task.m].building
    if b is None:
        return
    p = state.player(task.seat)
    need = attack(state, d)
    state.war_stats[state.act - 1][0] += 1
    if p.pocket <= 0:
        state.war_stats[state.act - 1][1] += 1
        lose_building(state, d, task.m, log)
        return
    paid = min(need, p.pocket)
    money.pay_pocket(p, paid, "war")  # Jo's one pool pays to keep his building
    say(
        log,
        M(
            "speakeasy.jo.defends",
            "Jo pays ${paid} and keeps the {building} in {space}.",
            paid=paid,
            building=KIND_NAMES[b.kind],
            space=space_name(d.number, task.m),
        ),
        kind="war",
    )


register("jo_defend", M("speakeasy.jo.defend_step", "Jo defends"), auto=_defend, skip=None)


def defence_order(state: SpeakeasyState, seat: int, d: District) -> list[int]:
    """His buildings in a war district, most valuable first (design §15.1)."""
    mine = [(i, sp.building) for i, sp in enumerate(d.spaces) if sp.building and sp.building.owner == seat]
    return [i for i, b in sorted(mine, key=lambda t: (-VALUE[t[1].kind], t[0]))]
