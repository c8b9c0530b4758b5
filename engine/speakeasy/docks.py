"""The City Docks: Ambush and the Ship's move (design §7.4), and the Informant's Cop tile (design §11.2)."""

from __future__ import annotations

from engine.core import Option
from engine.speakeasy import crew, money
from engine.speakeasy import economy as eco
from engine.speakeasy.board import KIND_NAMES, barrel_targets, district_name, is_open, space_name, zone_index
from engine.speakeasy.components import ZONES
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState, Task
from engine.speakeasy.steps import Log, opt, push, register, say


def ambush_need(state: SpeakeasyState) -> int:
    """Design §7.4: the Strength total an ambush needs (Act number + 3)."""
    return state.act + rules().docks.ambush_strength_base


def _rivals(state: SpeakeasyState, seat: int, zone: int) -> tuple[int, list[int]]:
    """(own Family Members in the zone, rival Family Members' seats in slot order)."""
    slots = [s for s in state.docks[zone] if s is not None]
    return sum(1 for s in slots if s == seat), [s for s in slots if s != seat]


def _ambush_options(state: SpeakeasyState, task: Task) -> list[Option]:
    seat = task.seat
    d = rules().docks
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
        crate = rules().docks.crates[sh.crate].name if sh.crate is not None else "no Crate"
        for sup in crew.supports(state, seat, ambush_need(state), zone, 0, reserve):
            pay = f", pay ${reserve} to rivals" if reserve else ""
            out.append(
                opt(
                    f"amb:{sh.number}:{sup.code()}",
                    f"Ambush Ship {sh.number} ({ZONES[zone]} Docks, {crate})",
                    f"strength {ambush_need(state)}: {sup.text()}{pay}",
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
    say(log, f"Ship {number} moves to {district_name(ship.port)} ({ZONES[zone_index(ship.port)]} Docks).")


def _ambush_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    seat = task.seat
    p = state.player(seat)
    d = rules().docks
    _, sn, code = option.split(":")
    ship = state.ships[int(sn) - 1]
    zone = zone_index(ship.port)
    own, rivals = _rivals(state, seat, zone)
    for rival in rivals[: max(0, d.ambush_family - own)]:
        money.pay_pocket(p, d.ambush_rival_fee, "fees_paid")
        eco.earn(state.player(rival), "fees", d.ambush_rival_fee)
        say(log, f"{p.name} pays {state.player(rival).name} ${d.ambush_rival_fee} for their Family Member's help.")
    crew.use_support(state, seat, crew.parse_support(code, state, seat), log)
    p.ambushes += 1
    say(log, f"{p.name} ambushes Ship {ship.number}!")
    if ship.crate is not None:
        crate = d.crates[ship.crate]
        p.crates.append(ship.crate)
        ship.crate = None
        eco.earn(p, "crates", crate.cash)
        say(log, f"{p.name} takes the {crate.name} Crate and ${crate.cash}.")
    room = bool(barrel_targets(state, seat)) or p.stills_barrels < rules().buildings.stills_capacity
    if room:
        ship.barrels -= 1  # with no room the barrel stays on the Ship (design §7.4.2)
    # Return the ambusher's last Family Member in that Docks zone to the supply.
    slots = state.docks[zone]
    last = max(i for i, s in enumerate(slots) if s == seat)
    slots[last] = None
    p.family_supply += 1
    say(log, f"{p.name}'s Family Member leaves the {ZONES[zone]} Docks.")
    ship_number = ship.number
    move_ship(state, ship_number, log)
    if room:
        push(state, "ambush_barrel", seat, n=ship_number)


register("ambush", "Ambush one Ship", options=_ambush_options, choose=_ambush_choose, pays=True)


def _barrel_options(state: SpeakeasyState, task: Task) -> list[Option]:
    out = []
    for d, i in barrel_targets(state, task.seat):
        b = d.spaces[i].building
        assert b is not None
        out.append(
            opt(f"to:{d.number}:{i}", f"Put the barrel at the {KIND_NAMES[b.kind]} in {space_name(d.number, i)}")
        )
    p = state.player(task.seat)
    if p.stills_barrels < rules().buildings.stills_capacity:
        out.append(opt("stills", "Put the barrel on your Stills area"))
    return out


def _barrel_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    p = state.player(task.seat)
    if option == "stills":
        p.stills_barrels += 1
        say(log, f"{p.name} puts the stolen barrel on the Stills area.")
        return
    _, dn, si = option.split(":")
    b = state.districts[int(dn) - 1].spaces[int(si)].building
    assert b is not None
    b.barrel = True
    say(log, f"{p.name} puts the stolen barrel at {space_name(int(dn), int(si))}.")


register("ambush_barrel", "Where does the stolen barrel go?", options=_barrel_options, choose=_barrel_choose, skip=None)


# ---- Informant (design §11.2) ----


def _informant_options(state: SpeakeasyState, task: Task) -> list[Option]:
    # Design §11.2 "to another open district": the tile moves between open districts (a tile lying on a blocked
    # district of the 1-2 side has no effect and stays out of play).
    sources = [d for d in state.districts if d.cop_tile and is_open(state, d.number)]
    targets = [d for d in state.districts if is_open(state, d.number) and not d.cop and not d.cop_tile]
    return [
        opt(
            f"cop:{a.number}:{b.number}",
            f"Move the Cop tile from {district_name(a.number)} to {district_name(b.number)}",
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
        f"{state.player(task.seat).name}'s Informant moves the Cop tile from {district_name(int(a))} "
        f"to {district_name(int(b))}.",
    )


register(
    "informant", "Informant: move a face-down Cop District tile", options=_informant_options, choose=_informant_choose
)
