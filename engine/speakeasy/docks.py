"""The City Docks: Ambush and the Ship's move (design §7.4), and the Informant's Cop tile (design §11.2)."""

from __future__ import annotations

from engine.core import Option
from engine.msg import M, Msg, T
from engine.speakeasy import crew, money
from engine.speakeasy import economy as eco
from engine.speakeasy.board import KIND_NAMES, barrel_targets, district_name, is_open, space_name, zone_index, zone_name
from engine.speakeasy.components import ZONES
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState, Task
from engine.speakeasy.steps import Log, opt, push, register, say


def crate_name(crate: int) -> Msg:
    """A Crate as people read it (a term)."""
    return T("speakeasy.term.crate", rules().docks.crates[crate].name)


def ambush_need(state: SpeakeasyState) -> int:
    """Design §7.4: the Strength total an ambush needs (Act number + 3)."""
    return state.act + rules(state).docks.ambush_strength_base


def _rivals(state: SpeakeasyState, seat: int, zone: int) -> tuple[int, list[int]]:
    """(own Family Members in the zone, rival Family Members' seats in slot order)."""
    slots = [s for s in state.docks[zone] if s is not None]
    return sum(1 for s in slots if s == seat), [s for s in slots if s != seat]


def _ambush_options(state: SpeakeasyState, task: Task) -> list[Option]:
    seat = task.seat
    d = rules(state).docks
    out = []
    for sh in state.ships:
        if sh.barrels < 1:
            continue
        zone = zone_index(sh.port)
        own, rivals = _rivals(state, seat, zone)
        used = max(0, d.ambush_family - own)
        if own < 1 or used > len(rivals):
            continue
        reserve = used * d.ambush_rival_fee
        if state.player(seat).pocket < reserve:
            continue
        crate = crate_name(sh.crate) if sh.crate is not None else M("speakeasy.docks.no_crate", "no Crate")
        for sup in crew.supports(state, seat, ambush_need(state), zone, 0, reserve):
            need = ambush_need(state)
            detail = (
                M(
                    "speakeasy.docks.ambush_pay",
                    "strength {need}: {help}, pay ${fee} to rivals",
                    need=need,
                    help=sup.text(),
                    fee=reserve,
                )
                if reserve
                else M("speakeasy.docks.ambush_detail", "strength {need}: {help}", need=need, help=sup.text())
            )
            out.append(
                opt(
                    f"amb:{sh.number}:{sup.code()}",
                    M(
                        "speakeasy.docks.ambush",
                        "Ambush Ship {ship} ({zone} Docks, {crate})",
                        ship=sh.number,
                        zone=zone_name(ZONES[zone]),
                        crate=crate,
                    ),
                    detail,
                    style="danger",
                    cost=sup.fee + reserve,
                )
            )
    return out


def move_ship(state: SpeakeasyState, number: int, log: Log) -> None:
    """Design §7.4.4: set the Port tile aside, reveal the top one (reshuffling the boxed ones if none is left),
    move the Ship there, box the old tile."""
    ship = state.ships[number - 1]
    old = ship.port
    if not state.port_stack:
        state.port_stack = state.port_box
        state.port_box = []
        state.rng.shuffle(state.port_stack)
    ship.port = state.port_stack.pop(0)
    state.port_box.append(old)
    say(
        log,
        M(
            "speakeasy.docks.ship_moves",
            "Ship {ship} moves to {district} ({zone} Docks).",
            ship=number,
            district=district_name(ship.port),
            zone=zone_name(ZONES[zone_index(ship.port)]),
        ),
    )


def _ambush_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    seat = task.seat
    p = state.player(seat)
    d = rules(state).docks
    _, sn, code = option.split(":")
    ship = state.ships[int(sn) - 1]
    zone = zone_index(ship.port)
    own, rivals = _rivals(state, seat, zone)
    for rival in rivals[: max(0, d.ambush_family - own)]:
        money.pay_pocket(p, d.ambush_rival_fee, "fees_paid")
        eco.earn(state.player(rival), "fees", d.ambush_rival_fee)
        say(
            log,
            M(
                "speakeasy.docks.fee",
                "{name} pays {rival} ${fee} for their Family Member's help.",
                name=p.name,
                rival=state.player(rival).name,
                fee=d.ambush_rival_fee,
            ),
        )
    crew.use_support(state, seat, crew.parse_support(code, state, seat), log)
    p.ambushes += 1
    say(log, M("speakeasy.docks.ambushes", "{name} ambushes Ship {ship}!", name=p.name, ship=ship.number))
    if ship.crate is not None:
        crate = d.crates[ship.crate]
        p.crates.append(ship.crate)
        ship.crate = None
        eco.earn(p, "crates", crate.cash)
        say(
            log,
            M(
                "speakeasy.docks.crate",
                "{name} takes the {crate} Crate and ${cash}.",
                name=p.name,
                crate=T("speakeasy.term.crate", crate.name),
                cash=crate.cash,
            ),
        )
    room = bool(barrel_targets(state, seat)) or p.stills_barrels < rules(state).buildings.stills_capacity
    if room:
        ship.barrels -= 1  # with no room the barrel stays on the Ship (design §7.4.2)
    # Return the ambusher's last Family Member in that Docks zone to the supply.
    slots = state.docks[zone]
    last = max(i for i, s in enumerate(slots) if s == seat)
    slots[last] = None
    p.family_supply += 1
    say(
        log,
        M(
            "speakeasy.docks.leaves",
            "{name}'s Family Member leaves the {zone} Docks.",
            name=p.name,
            zone=zone_name(ZONES[zone]),
        ),
    )
    ship_number = ship.number
    move_ship(state, ship_number, log)
    if room:
        push(state, "ambush_barrel", seat, n=ship_number)


register(
    "ambush",
    M("speakeasy.docks.ask_ambush", "Ambush one Ship"),
    options=_ambush_options,
    choose=_ambush_choose,
    pays=True,
    skip=M("speakeasy.docks.skip", "Skip"),
)


def _barrel_options(state: SpeakeasyState, task: Task) -> list[Option]:
    out = []
    for d, i in barrel_targets(state, task.seat):
        b = d.spaces[i].building
        assert b is not None
        out.append(
            opt(
                f"to:{d.number}:{i}",
                M(
                    "speakeasy.docks.put",
                    "Put the barrel at the {kind} in {space}",
                    kind=KIND_NAMES[b.kind],
                    space=space_name(d.number, i),
                ),
            )
        )
    p = state.player(task.seat)
    if p.stills_barrels < rules(state).buildings.stills_capacity:
        out.append(opt("stills", M("speakeasy.docks.put_stills", "Put the barrel on your Stills area")))
    return out


def _barrel_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    p = state.player(task.seat)
    if option == "stills":
        p.stills_barrels += 1
        say(log, M("speakeasy.docks.stolen_stills", "{name} puts the stolen barrel on the Stills area.", name=p.name))
        return
    _, dn, si = option.split(":")
    b = state.districts[int(dn) - 1].spaces[int(si)].building
    assert b is not None
    b.barrel = True
    say(
        log,
        M(
            "speakeasy.docks.stolen",
            "{name} puts the stolen barrel at {space}.",
            name=p.name,
            space=space_name(int(dn), int(si)),
        ),
    )


register(
    "ambush_barrel",
    M("speakeasy.docks.ask_barrel", "Where does the stolen barrel go?"),
    options=_barrel_options,
    choose=_barrel_choose,
    skip=None,
)


# ---- Informant (design §11.2) ----


def _informant_options(state: SpeakeasyState, task: Task) -> list[Option]:
    # Design §11.2 "to another open district": the tile moves between open districts (a tile lying on a blocked
    # district of the 1-2 side has no effect and stays out of play).
    sources = [d for d in state.districts if d.cop_tile and is_open(state, d.number)]
    targets = [d for d in state.districts if is_open(state, d.number) and not d.cop and not d.cop_tile]
    return [
        opt(
            f"cop:{a.number}:{b.number}",
            M(
                "speakeasy.docks.cop",
                "Move the Cop tile from {source} to {target}",
                source=district_name(a.number),
                target=district_name(b.number),
            ),
        )
        for a in sources
        for b in targets
    ]


def _informant_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    _, a, b = option.split(":")
    state.districts[int(a) - 1].cop_tile = False
    state.districts[int(b) - 1].cop_tile = True
    say(
        log,
        M(
            "speakeasy.docks.cop_moved",
            "{name}'s Informant moves the Cop tile from {source} to {target}.",
            name=state.player(task.seat).name,
            source=district_name(int(a)),
            target=district_name(int(b)),
        ),
    )


register(
    "informant",
    M("speakeasy.docks.ask_informant", "Informant: move a face-down Cop District tile"),
    options=_informant_options,
    choose=_informant_choose,
    skip=M("speakeasy.docks.skip", "Skip"),
)
