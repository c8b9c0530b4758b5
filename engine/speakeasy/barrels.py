"""Barrels: Produce, Sell, Deliver with Trucks and buying from Ships (seed 000:45-46, design §5, §7.1-7.2)."""

from __future__ import annotations

from engine.core import Option
from engine.msg import M, P
from engine.speakeasy import economy as eco
from engine.speakeasy import money
from engine.speakeasy.board import (
    KIND_NAMES,
    barrel_targets,
    operating_buildings,
    space_name,
    stills_operating,
    zone_index,
    zone_name,
)
from engine.speakeasy.components import ZONES
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState, Task
from engine.speakeasy.steps import Log, open_options, opt, push, register, say

# ---- Produce (seed 000:45.1-2) ----


def _produce(state: SpeakeasyState, task: Task, log: Log) -> None:
    p = state.player(task.seat)
    if not stills_operating(state, task.seat):
        say(log, M("speakeasy.barrels.no_stills", "{name} has no Operating Stills: nothing is produced.", name=p.name))
        return
    added = eco.add_stills_barrels(p, eco.action_value(p, "stills", task.n))
    say(
        log,
        P(
            "speakeasy.barrels.produced",
            "{name} produces {n} barrel (Stills area: {stock}).",
            "{name} produces {n} barrels (Stills area: {stock}).",
            added,
            name=p.name,
            stock=p.stills_barrels,
        ),
    )


register("produce", M("speakeasy.barrels.ask_produce", "Produce barrels"), auto=_produce, skip=None)


# ---- Sell (seed 000:46.1-2, design §5 prices) ----


def price(state: SpeakeasyState, seat: int, kind: str) -> int:
    """The price of one barrel sold beside a building of this kind at the seller's Infamy."""
    t = rules(state).tracks
    infamy = state.player(seat).infamy
    band = max(i for i, low in enumerate(t.price_bands) if infamy >= low)
    bonus = eco.crate_power(state.player(seat), "speakeasy_sale_bonus") if kind == "speakeasy" else 0
    return t.prices[kind][band] + bonus


def _sell_options(state: SpeakeasyState, task: Task) -> list[Option]:
    if task.n <= 0:
        return []
    return [
        opt(
            f"sell:{d.number}:{i}",
            M(
                "speakeasy.barrels.sell",
                "Sell the barrel at the {kind} in {space}",
                kind=KIND_NAMES[b.kind],
                space=space_name(d.number, i),
            ),
            M("speakeasy.barrels.sell_detail", "${n} to your pocket", n=price(state, task.seat, b.kind)),
        )
        for d, i, b in operating_buildings(state, task.seat)
        if b.barrel and b.kind != "stills"
    ]


def _sell_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    _, dn, si = option.split(":")
    d = state.districts[int(dn) - 1]
    b = d.spaces[int(si)].building
    assert b is not None
    amount = price(state, task.seat, b.kind)
    b.barrel = False
    p = state.player(task.seat)
    eco.earn(p, "sales", amount)
    say(
        log,
        M(
            "speakeasy.barrels.sold",
            "{name} sells a barrel at the {kind} in {space} for ${n}.",
            name=p.name,
            kind=KIND_NAMES[b.kind],
            space=space_name(d.number, int(si)),
            n=amount,
        ),
    )
    if task.n > 1:
        push(state, "sell", task.seat, n=task.n - 1)


register(
    "sell",
    lambda s, t: M("speakeasy.barrels.ask_sell", "Sell barrels ({n} more at most)", n=t.n),
    options=_sell_options,
    choose=_sell_choose,
    skip=M("speakeasy.barrels.skip_sell", "Skip selling"),
)


# ---- Deliver (design §7.1) ----
# Task fields: n = barrels still allowed, m = trips left, s = "runner" for the Runner Helper (free, Ships only);
# items = [source (-1 none, 0 the Stills area, k Ship k), zone of this trip (-1 not yet), card discount].


def ship_price(state: SpeakeasyState, seat: int, ship: int, card_discount: int = 0) -> int:
    """Design §7.2: printed price, -$1 with your Family Member in its Docks zone, Counterfeit Bills and the
    Fleet card's discount; the floor is $1, or $0 with the card's discount."""
    d = rules(state).docks
    sh = state.ships[ship - 1]
    p = state.player(seat)
    cost = d.ship_prices[ship - 1] - card_discount - eco.crate_power(p, "ship_discount")
    if seat in state.docks[zone_index(sh.port)]:
        cost -= d.family_discount
    floor = d.price_floor_with_card if card_discount else d.price_floor
    return max(floor, cost)


#: The deliver step's two ways out: no (more) loading, and the end of a trip.
_SKIP_DELIVERING = M("speakeasy.barrels.skip_deliver", "Skip delivering")
_END_TRIP = M("speakeasy.barrels.end_trip", "End this trip")


def _deliver_items(task: Task) -> tuple[int, int, int]:
    items = task.items or [-1, -1, 0]
    return items[0], items[1], items[2]


def _source_cost(state: SpeakeasyState, task: Task, source: int) -> int:
    if source == 0 or task.s == "runner":
        return 0
    return ship_price(state, task.seat, source, _deliver_items(task)[2])


def _deliver_options(state: SpeakeasyState, task: Task) -> list[Option]:
    seat = task.seat
    p = state.player(seat)
    source, zone, disc = _deliver_items(task)
    if task.n <= 0 or task.m <= 0:
        return []
    if source < 0:
        out = []
        if not barrel_targets(state, seat):
            return []
        if p.stills_barrels and task.s != "runner":
            # (the English says "barrels" for one too; the plural lets a language do better)
            label = P(
                "speakeasy.barrels.load_stills",
                "Load from your Stills area ({n} barrel)",
                "Load from your Stills area ({n} barrels)",
                p.stills_barrels,
            )
            out.append(opt("src:0", label))
        for sh in state.ships:
            cost = _source_cost(state, task, sh.number)
            if sh.barrels and money.can_pay(p, cost):
                where = zone_name(ZONES[zone_index(sh.port)])
                out.append(
                    opt(
                        f"src:{sh.number}",
                        M(
                            "speakeasy.barrels.load_ship",
                            "Load from Ship {ship} ({zone} Docks), ${cost} a barrel",
                            ship=sh.number,
                            zone=where,
                            cost=cost,
                        ),
                        P("speakeasy.barrels.aboard", "{n} barrel aboard", "{n} barrels aboard", sh.barrels),
                        cost=cost,
                    )
                )
        if out:
            out.append(opt("done", _SKIP_DELIVERING))
        return out
    out = []
    cost = _source_cost(state, task, source)
    if money.can_pay(p, cost):
        for d, i in barrel_targets(state, seat, zone if zone >= 0 else None):
            b = d.spaces[i].building
            assert b is not None
            kind, space = KIND_NAMES[b.kind], space_name(d.number, i)
            label = (
                M(
                    "speakeasy.barrels.deliver_pay",
                    "Deliver to the {kind} in {space}, pay ${cost}",
                    kind=kind,
                    space=space,
                    cost=cost,
                )
                if cost
                else M("speakeasy.barrels.deliver", "Deliver to the {kind} in {space}", kind=kind, space=space)
            )
            out.append(opt(f"to:{d.number}:{i}", label, cost=cost))
    if out:
        out.append(opt("end", _END_TRIP))
    return out


def _end_trip(state: SpeakeasyState, task: Task) -> None:
    if task.m > 1 and task.n > 0:
        push(state, "deliver", task.seat, n=task.n, m=task.m - 1, s=task.s, items=[-1, -1, _deliver_items(task)[2]])


def _deliver_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    seat = task.seat
    p = state.player(seat)
    source, zone, disc = _deliver_items(task)
    if option == "done":
        return
    if option == "end":
        _end_trip(state, task)
        return
    if option.startswith("src:"):
        src = int(option.split(":")[1])
        push(state, "deliver", seat, n=task.n, m=task.m, s=task.s, items=[src, -1, disc])
        return
    _, dn, si = option.split(":")
    d = state.districts[int(dn) - 1]
    b = d.spaces[int(si)].building
    assert b is not None
    cost = _source_cost(state, task, source)
    if source == 0:
        p.stills_barrels -= 1
        frm = M("speakeasy.barrels.from_stills", "the Stills area")
    else:
        state.ships[source - 1].barrels -= 1
        frm = M("speakeasy.barrels.from_ship", "Ship {n}", n=source)
    paid = money.pay(p, cost, log, seat, source="barrels") if cost else (0, 0)
    b.barrel = True
    space = space_name(d.number, int(si))
    said = (
        M(
            "speakeasy.barrels.delivered_paid",
            "{name} delivers a barrel from {source} to {space}, paying {paid}.",
            name=p.name,
            source=frm,
            space=space,
            paid=money.paid_text(cost, paid),
        )
        if cost
        else M(
            "speakeasy.barrels.delivered",
            "{name} delivers a barrel from {source} to {space}.",
            name=p.name,
            source=frm,
            space=space,
        )
    )
    say(log, said)
    zone = zone_index(d.number)
    nxt = Task("deliver", seat, task.n - 1, task.m, task.s, [source, zone, disc])
    left = p.stills_barrels if source == 0 else state.ships[source - 1].barrels
    # Asked again unless the public knows this trip can go no further: the safe may not tell (design §4).
    if nxt.n > 0 and left > 0 and open_options(state, nxt):
        state.tasks.append(nxt)
    else:
        _end_trip(state, nxt)


register(
    "deliver",
    lambda s, t: (
        P(
            "speakeasy.barrels.ask_load",
            "Deliver: choose where this trip loads ({barrels} barrels, {n} trip left)",
            "Deliver: choose where this trip loads ({barrels} barrels, {n} trips left)",
            t.m,
            barrels=t.n,
        )
        if _deliver_items(t)[0] < 0
        else P(
            "speakeasy.barrels.ask_unload",
            "Deliver: unload in one Zone ({n} barrel left)",
            "Deliver: unload in one Zone ({n} barrels left)",
            t.n,
        )
    ),
    options=_deliver_options,
    choose=_deliver_choose,
    skip=None,
    pays=True,
    empty=lambda s, t: opt("done", _SKIP_DELIVERING) if _deliver_items(t)[0] < 0 else opt("end", _END_TRIP),
    default=lambda s, t: "done" if _deliver_items(t)[0] < 0 else "end",  # an idle player buys no barrel
)


# ---- Dock Worker (design §11.2): buy up to n barrels from one Ship at $1 each onto the Stills area ----


def _dock_buy_options(state: SpeakeasyState, task: Task) -> list[Option]:
    p = state.player(task.seat)
    room = rules(state).buildings.stills_capacity - p.stills_barrels
    out = []
    for sh in state.ships:
        for k in range(min(task.n, sh.barrels, room), 0, -1):
            if money.can_pay(p, k):
                out.append(
                    opt(
                        f"buy:{sh.number}:{k}",
                        P(
                            "speakeasy.barrels.buy",
                            "Buy {n} barrel from Ship {ship}, pay ${n}",
                            "Buy {n} barrels from Ship {ship}, pay ${n}",
                            k,
                            ship=sh.number,
                        ),
                        cost=k,
                    )
                )
    return out


def _dock_buy_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    _, sn, kn = option.split(":")
    k = int(kn)
    p = state.player(task.seat)
    paid = money.pay(p, k, log, task.seat, source="barrels")
    state.ships[int(sn) - 1].barrels -= k
    p.stills_barrels += k
    say(
        log,
        P(
            "speakeasy.barrels.bought",
            "{name} buys {n} barrel from Ship {ship} for {paid}.",
            "{name} buys {n} barrels from Ship {ship} for {paid}.",
            k,
            name=p.name,
            ship=int(sn),
            paid=money.paid_text(k, paid),
        ),
    )


register(
    "dock_buy",
    M("speakeasy.barrels.ask_dock_buy", "Dock Worker: buy barrels from a Ship"),
    options=_dock_buy_options,
    choose=_dock_buy_choose,
    pays=True,
    skip=M("speakeasy.barrels.skip", "Skip"),
)
