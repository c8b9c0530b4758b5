"""Goons, the Associate and Strength totals (design §9.1, §9.2, §6.2, §7.4)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Option
from engine.msg import Join, M, Msg, P, T
from engine.speakeasy import economy as eco
from engine.speakeasy import money
from engine.speakeasy.board import district_name, zone_index, zone_name
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState, Task
from engine.speakeasy.steps import Log, opt, push, register, say


@dataclass(frozen=True, slots=True)
class Support:
    """How a Strength total is reached: Goons returned and whether the Associate's fee is paid."""

    goons: int
    associate: bool
    fee: int

    def code(self) -> str:
        """Part of an option id: ``g2`` or ``a1g0``."""
        return f"{'a' if self.associate else ''}g{self.goons}"

    def text(self) -> Msg:
        """For a label: "return 2 Goons", "pay the Associate $5"."""
        parts: list[Msg] = []
        if self.associate:
            parts.append(M("speakeasy.crew.pay_associate", "pay the Associate ${fee}", fee=self.fee))
        if self.goons:
            parts.append(P("speakeasy.crew.return_goons", "return {n} Goon", "return {n} Goons", self.goons))
        return Join(parts) if parts else M("speakeasy.crew.no_help", "no help needed")


def associate_zone(state: SpeakeasyState, mobster: int) -> int | None:
    """The Zone of the district where this Mobster tile sits on the Mobster board."""
    for d in state.districts:
        if d.mobster == mobster:
            return zone_index(d.number)
    return None


def associate_strength(state: SpeakeasyState, seat: int, zone: int) -> tuple[int, int]:
    """(strength added, fee) of the seat's Associate for a target in ``zone``; (0, 0) without one."""
    p = state.player(seat)
    if p.associate is None:
        return 0, 0
    m = rules(state).mobsters[p.associate]
    bonus = m.modifier if associate_zone(state, p.associate) == zone else 0
    return m.strength + bonus, m.strength


def supports(
    state: SpeakeasyState, seat: int, need: int, zone: int, cost: int = 0, reserve: int = 0, associate: bool = True
) -> list[Support]:
    """The cheapest ways to reach Strength ``need`` (Goons only; Associate plus the fewest Goons) that the
    player can pay for together with ``cost`` (keeping ``reserve`` pocket dollars for payments to players)."""
    p = state.player(seat)
    base = eco.strength_base(p)
    out: list[Support] = []
    g = max(0, need - base)
    if g <= p.goons and money.can_pay(p, cost, reserve):
        out.append(Support(g, False, 0))
    add, fee = associate_strength(state, seat, zone)
    if associate and add and g > 0:
        g2 = max(0, need - base - add)
        if g2 <= p.goons and money.can_pay(p, cost + fee, reserve):
            out.append(Support(g2, True, fee))
    return out


def parse_support(code: str, state: SpeakeasyState, seat: int) -> Support:
    """The ``Support`` an option id part names."""
    associate = code.startswith("a")
    goons = int(code.lstrip("a").lstrip("g"))
    fee = rules(state).mobsters[state.player(seat).associate].strength if associate else 0  # type: ignore[index]
    return Support(goons, associate, fee)


def use_support(state: SpeakeasyState, seat: int, sup: Support, log: Log) -> None:
    """Return the Goons (from the most expensive space, design §9.1) and pay the Associate's fee."""
    p = state.player(seat)
    if sup.goons:
        p.goons -= sup.goons
        say(
            log,
            P(
                "speakeasy.crew.returned",
                "{name} returns {n} Goon.",
                "{name} returns {n} Goons.",
                sup.goons,
                name=p.name,
            ),
        )
    if sup.associate:
        paid = money.pay(p, sup.fee, log, seat, source="associate")
        say(
            log,
            M(
                "speakeasy.crew.paid_associate",
                "{name} pays the Associate {paid}.",
                name=p.name,
                paid=money.paid_text(sup.fee, paid),
            ),
        )


# ---- Hire one or more Goons (seed 000:47.1) ----


def _goon_options(state: SpeakeasyState, task: Task) -> list[Option]:
    cost = eco.hire_goon(state, task.seat)
    if cost is None or not money.can_pay(state.player(task.seat), cost):
        return []
    return [opt("hire", M("speakeasy.crew.hire", "Hire a Goon, pay ${cost}", cost=cost), style="primary", cost=cost)]


def _goon_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    p = state.player(task.seat)
    cost = eco.hire_goon(state, task.seat)
    assert cost is not None
    paid = money.pay(p, cost, log, task.seat, source="goons")
    p.goons += 1
    say(
        log, M("speakeasy.crew.hired", "{name} hires a Goon for {paid}.", name=p.name, paid=money.paid_text(cost, paid))
    )
    push(state, "hire_goons", task.seat)  # "one or more": ask again


register(
    "hire_goons",
    M("speakeasy.crew.ask_goons", "Hire one or more Goons"),
    options=_goon_options,
    choose=_goon_choose,
    skip=M("speakeasy.crew.skip_goons", "Skip hiring"),
    pays=True,
)


# ---- Hire an Associate (design §9.2) ----


def _associate_options(state: SpeakeasyState, task: Task) -> list[Option]:
    taken = {p.associate for i, p in enumerate(state.players) if i != task.seat}
    mine = state.player(task.seat).associate
    out = []
    for d in state.districts:
        m = d.mobster
        if m is None or m in taken or m == mine or d.strength_down:
            continue
        mob = rules(state).mobsters[m]
        out.append(
            opt(
                f"mobster:{m}",
                M(
                    "speakeasy.crew.associate",
                    "Hire {mobster} ({district})",
                    mobster=T("speakeasy.term.mobster", mob.name),
                    district=district_name(d.number),
                ),
                M(
                    "speakeasy.crew.associate_detail",
                    "strength {strength}, fee ${fee}, +{bonus} in {zone}",
                    strength=mob.strength,
                    fee=mob.strength,
                    bonus=mob.modifier,
                    zone=zone_name(rules(state).district(d.number).zone),
                ),
            )
        )
    return out


def _associate_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    m = int(option.split(":")[1])
    state.player(task.seat).associate = m
    say(
        log,
        M(
            "speakeasy.crew.hired_associate",
            "{name} hires {mobster} as Associate.",
            name=state.player(task.seat).name,
            mobster=T("speakeasy.term.mobster", rules(state).mobsters[m].name),
        ),
    )


register(
    "hire_associate",
    M("speakeasy.crew.ask_associate", "Hire an Associate"),
    options=_associate_options,
    choose=_associate_choose,
    skip=M("speakeasy.crew.skip", "Skip"),
)


# ---- Bagman (design §11.2): safe to pocket at 1:1 ----


def _bagman_options(state: SpeakeasyState, task: Task) -> list[Option]:
    p = state.player(task.seat)
    top = min(task.n, p.safe)
    return [
        opt(f"move:{k}", M("speakeasy.crew.bagman", "Move ${n} from safe to pocket", n=k)) for k in range(top, 0, -1)
    ]


def _bagman_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    k = int(option.split(":")[1])
    p = state.player(task.seat)
    p.safe -= k
    p.pocket += k
    say(log, M("speakeasy.crew.moved", "{name} moves ${n} from the safe to the pocket.", name=p.name, n=k))


register(
    "bagman",
    M("speakeasy.crew.ask_bagman", "Bagman: move money from your safe to your pocket"),
    options=_bagman_options,
    choose=_bagman_choose,
    secret=True,
    skip=M("speakeasy.crew.skip", "Skip"),
)
