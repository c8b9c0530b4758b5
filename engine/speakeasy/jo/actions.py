"""Jo's actions (seed 003:46.1-54.1, design §15.1): build, take a Helper, produce, deliver, sell, protect, ambush
and cook the Books, each his own way and without a prompt."""

from __future__ import annotations

from engine.msg import M, P, T
from engine.speakeasy import economy as eco
from engine.speakeasy.board import (
    KIND_NAMES,
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
from engine.speakeasy.components import ZONES
from engine.speakeasy.docks import move_ship
from engine.speakeasy.goals import zone_goal_met
from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.jo.orders import VALUE, lowest_level, value_key
from engine.speakeasy.jo.setup import draw_district, place_building
from engine.speakeasy.loader import rules
from engine.speakeasy.solo import provide
from engine.speakeasy.state import Building, District, SpeakeasyState
from engine.speakeasy.steps import Log, say

#: The bottles of the Helpers as people read them (design §11.2).
BOTTLE_NAMES = {
    "moonshine": M("speakeasy.jo.bottle_moonshine", "moonshine"),
    "gin": M("speakeasy.jo.bottle_gin", "gin"),
    "rum": M("speakeasy.jo.bottle_rum", "rum"),
    "whiskey": M("speakeasy.jo.bottle_whiskey", "whiskey"),
    "champagne": M("speakeasy.jo.bottle_champagne", "champagne"),
}


def size(state: SpeakeasyState, seat: int, track: str) -> int:
    """An action's size: the level number (design §15.1 flag), or the track's value."""
    p = state.player(seat)
    if jo_rules().level_number_sizes:
        return p.levels[track]
    return rules(state).tracks.ops[track].values[p.levels[track] - 1]


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
    r = rules(state)
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
        key=lambda t: value_key(*t),
    )


def deliver(state: SpeakeasyState, seat: int, log: Log) -> None:
    """Seed 003:48.1: up to his Fleet level, first from his Stills, then the cheapest Ship, to his most valuable
    Operating buildings without a barrel; free."""
    p = state.player(seat)
    moved = 0
    prices = rules(state).docks.ship_prices
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
        key=lambda t: value_key(*t),
    )
    for d, i, b in full[: size(state, seat, "party")]:
        t = rules(state).tracks
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
    g = rules(state).goals
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
    if state.player(seat).levels[track] < rules(state).tracks.max_level:
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
    spaces = [
        s for s in rules(state).goals.infamy_books if s <= p.infamy and seat not in state.infamy_books.get(str(s), [])
    ]
    if spaces:
        return ("infamy", max(spaces))
    return None


provide("take_helper", take_bottle)
