"""Jo in the Mob War (seed 003:39.2, design §15.1): he pays to keep a building, and defends his most valuable first."""

from __future__ import annotations

from engine.msg import M
from engine.speakeasy import money
from engine.speakeasy.board import KIND_NAMES, space_name
from engine.speakeasy.jo.orders import VALUE
from engine.speakeasy.luciano import attack, lose_building
from engine.speakeasy.solo import provide
from engine.speakeasy.state import District, SpeakeasyState, Task
from engine.speakeasy.steps import Log, register, say


def _defend(state: SpeakeasyState, task: Task, log: Log) -> None:
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


provide("defence_order", defence_order)
