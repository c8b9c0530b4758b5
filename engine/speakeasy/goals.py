"""Get Protection (design §9.3, §8.1, §5 Heat) and Cook the Books on every target (design §10)."""

from __future__ import annotations

from engine.core import Option
from engine.msg import M, Msg, P
from engine.speakeasy import economy as eco
from engine.speakeasy.board import (
    KIND_NAMES,
    buildings,
    operating_buildings,
    space_name,
    zone_index,
    zone_name,
)
from engine.speakeasy.components import TRACKS, ZONES
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState, Task
from engine.speakeasy.steps import Log, opt, push, register, say

# ---- Get Protection ----
# Task: n = Family Members still to place, m = Bribe Ledger Leverage discount left, s = "free" (Lawyer).


def protect_cost(state: SpeakeasyState, seat: int, district: int, discount: int) -> int:
    """Leverage for one protecting Family Member: 1 in a Cop district, +1 Heat at Infamy 15+, less the discount."""
    t = rules(state).tracks
    cost = t.cop_protect_leverage if state.districts[district - 1].cop else 0
    if state.player(seat).infamy >= t.heat_infamy:
        cost += t.heat_leverage
    return max(0, cost - discount)


def _protect_options(state: SpeakeasyState, task: Task) -> list[Option]:
    p = state.player(task.seat)
    if task.n <= 0 or p.family_vip <= 0:
        return []
    out = []
    for d, i, b in buildings(state, task.seat):
        if b.family:
            continue
        cost = 0 if task.s == "free" else protect_cost(state, task.seat, d.number, task.m)
        if cost <= p.leverage:
            where = {"building": KIND_NAMES[b.kind], "space": space_name(d.number, i)}
            label = (
                M(
                    "speakeasy.goals.protect_pay",
                    "Protect the {building} in {space}, pay {cost} Leverage",
                    cost=cost,
                    **where,
                )
                if cost
                else M("speakeasy.goals.protect", "Protect the {building} in {space}", **where)
            )
            out.append(opt(f"fm:{d.number}:{i}", label))
    return out


def _protect_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    p = state.player(task.seat)
    _, dn, si = option.split(":")
    d = state.districts[int(dn) - 1]
    b = d.spaces[int(si)].building
    assert b is not None
    discount = task.m
    if task.s != "free":
        t = rules(state).tracks
        full = (t.cop_protect_leverage if d.cop else 0) + (t.heat_leverage if p.infamy >= t.heat_infamy else 0)
        cost = max(0, full - discount)
        discount -= full - cost
        p.leverage -= cost
    p.family_vip -= 1
    b.family = True
    say(
        log,
        M(
            "speakeasy.goals.protects",
            "{name} protects the {building} in {space} with a Family Member.",
            name=p.name,
            building=KIND_NAMES[b.kind],
            space=space_name(d.number, int(si)),
        ),
    )
    if task.n > 1:
        push(state, "protect", task.seat, n=task.n - 1, m=discount, s=task.s)


register(
    "protect",
    lambda s, t: P(
        "speakeasy.goals.protect_ask",
        "Get Protection: place up to {n} Family Member",
        "Get Protection: place up to {n} Family Members",
        t.n,
    ),
    options=_protect_options,
    choose=_protect_choose,
    skip=M("speakeasy.goals.protect_skip", "Skip protecting"),
)


# ---- Cook the Books ----


def zone_goal_text(goal_type: str, number: int) -> Msg:
    """A Zone goal tile as people read it: "districts 3" (design §10.1)."""
    if goal_type == "districts":
        return M("speakeasy.goals.goal_districts", "districts {n}", n=number)
    if goal_type == "buildings":
        return M("speakeasy.goals.goal_buildings", "buildings {n}", n=number)
    if goal_type == "barrels":
        return M("speakeasy.goals.goal_barrels", "barrels {n}", n=number)
    return M("speakeasy.goals.goal_protected", "protected {n}", n=number)


# Task: n = Books still to place, m = 1 once the first Book of this action is placed (Forged Papers).


def zone_goal_met(state: SpeakeasyState, seat: int, zone: int) -> bool:
    """Design §10.1: the Zone shows the tile's number for you, counting Operating buildings only."""
    goal = rules(state).goals.zone_goals[state.zone_goals[zone]]
    n = (
        min(goal.number, rules(state).sides[state.side].zone_goal_districts_cap[zone])
        if goal.type == "districts"
        else goal.number
    )
    mine = [(d, b) for d, _i, b in operating_buildings(state, seat) if zone_index(d.number) == zone]
    if goal.type == "districts":
        have = len({d.number for d, _b in mine})
    elif goal.type == "buildings":
        have = len(mine)
    elif goal.type == "barrels":
        have = sum(1 for _d, b in mine if b.barrel)
    else:
        have = sum(1 for _d, b in mine if b.family)
    return have >= n


#: The Central Park conditions that count the seat's Operating buildings.
_COUNTS_BUILDINGS = frozenset(
    ("operating_speakeasies", "zones", "barrels", "nightclub_and_casino", "protected", "casinos", "districts")
)


def park_goal_met(state: SpeakeasyState, seat: int, tile: str) -> bool:
    """Design §10.5: whether the seat meets a Central Park tile's condition (only Operating buildings count for
    goals, design §6.5)."""
    g = next(x for x in rules(state).goals.park_goals if x.id == tile)
    p = state.player(seat)
    c, n = g.condition, g.n
    # the buildings only for a condition that counts them: every Cook the Books question asks each tile
    ops = list(operating_buildings(state, seat)) if c in _COUNTS_BUILDINGS else []
    if c == "operating_speakeasies":
        return sum(1 for _d, _i, b in ops if b.kind == "speakeasy") >= n
    if c == "zones":
        return len({zone_index(d.number) for d, _i, _b in ops}) >= n
    if c == "goons":
        return p.goons >= n
    if c == "barrels":
        return sum(1 for _d, _i, b in ops if b.barrel) >= n
    if c == "docks_family":
        return sum(slots.count(seat) for slots in state.docks) >= n
    if c == "city_tiles":
        return len(p.tiles) >= n
    if c == "nightclub_and_casino":
        kinds = {b.kind for _d, _i, b in ops}
        return "nightclub" in kinds and "casino" in kinds
    if c == "protected":
        return sum(1 for _d, _i, b in ops if b.family) >= n
    if c == "ops_at_3":
        return sum(1 for t in TRACKS if p.levels[t] >= 3) >= n
    if c == "strength":
        return p.levels["strength"] >= n
    if c == "helpers":
        return len(p.helpers) + len(p.screen) >= n
    if c == "casinos":
        return sum(1 for _d, _i, b in ops if b.kind == "casino") >= n
    if c == "districts":
        return len({d.number for d, _i, _b in ops}) >= n
    if c == "ops_at_5":
        return sum(1 for t in TRACKS if p.levels[t] >= 5) >= n
    raise ValueError(f"unknown Central Park condition {c!r}")


def _cook_options(state: SpeakeasyState, task: Task) -> list[Option]:
    seat = task.seat
    p = state.player(seat)
    g = rules(state).goals
    if task.n <= 0 or p.books <= 0:
        return []
    out = []
    for z, zone in enumerate(ZONES):
        if seat not in state.zone_books[z] and zone_goal_met(state, seat, z):
            goal = g.zone_goals[state.zone_goals[z]]
            out.append(
                opt(
                    f"zone:{z}",
                    M(
                        "speakeasy.goals.book_zone",
                        "Book on the {zone} goal ({goal})",
                        zone=zone_name(zone),
                        goal=zone_goal_text(goal.type, goal.number),
                    ),
                    M(
                        "speakeasy.goals.safe_level",
                        "${amount} to the safe and +{levels} level",
                        amount=g.zone_goal_reward,
                        levels=g.zone_goal_level,
                    ),
                )
            )
    used = sum(1 for s, a in state.city_hall_books if s == seat and a == state.act)
    if used < g.city_hall_per_act and p.leverage >= g.city_hall_leverage:
        out.append(
            opt(
                "hall",
                M("speakeasy.goals.book_hall", "Book at City Hall, pay {n} Leverage", n=g.city_hall_leverage),
                _to_safe(g.city_hall_reward),
            )
        )
    for z, zone in enumerate(ZONES):
        if seat in state.docks[z] and seat not in state.docks_books[z]:
            out.append(
                opt(
                    f"docks:{z}",
                    M("speakeasy.goals.book_docks", "Book on the {zone} Docks", zone=zone_name(zone)),
                    _to_safe(rules(state).docks.docks_book_reward),
                )
            )
    for space, amount in sorted(g.infamy_books.items()):
        if space <= p.infamy and seat not in state.infamy_books.get(str(space), []):
            out.append(
                opt(
                    f"infamy:{space}",
                    M("speakeasy.goals.book_infamy", "Book on Infamy {n}", n=space),
                    M(
                        "speakeasy.goals.safe_level",
                        "${amount} to the safe and +{levels} level",
                        amount=amount,
                        levels=1,
                    ),
                )
            )
    for j, tile in enumerate(state.park_goals):
        if state.park_books[j] is None and park_goal_met(state, seat, tile):
            goal = next(x for x in g.park_goals if x.id == tile)
            out.append(
                opt(
                    f"park:{j}",
                    M("speakeasy.goals.book_park", "Book on Central Park goal {tile}", tile=tile),
                    M(
                        "speakeasy.goals.safe_gain",
                        "${amount} to the safe and {gain}",
                        amount=g.park_reward,
                        gain=eco.describe(goal.benefit),
                    ),
                )
            )
    return out


def _to_safe(amount: int) -> Msg:
    return M("speakeasy.goals.to_safe", "${amount} to the safe", amount=amount)


def _cook_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    seat = task.seat
    p = state.player(seat)
    g = rules(state).goals
    p.books -= 1
    kind, _, arg = option.partition(":")
    bonus = eco.crate_power(p, "cook_first_bonus") if task.m == 0 else 0
    if task.n > 1:
        push(state, "cook", seat, n=task.n - 1, m=1)
    levels = 0
    extra: tuple = ()
    if kind == "zone":
        state.zone_books[int(arg)].append(seat)
        amount, levels, where = g.zone_goal_reward, g.zone_goal_level, arg
    elif kind == "hall":
        p.leverage -= g.city_hall_leverage
        state.city_hall_books.append([seat, state.act])
        amount, where = g.city_hall_reward, ""
    elif kind == "docks":
        state.docks_books[int(arg)].append(seat)
        amount, where = rules(state).docks.docks_book_reward, arg
    elif kind == "infamy":
        state.infamy_books.setdefault(arg, []).append(seat)
        amount, levels, where = g.infamy_books[int(arg)], g.infamy_book_level, arg
    else:
        j = int(arg)
        state.park_books[j] = seat
        goal = next(x for x in g.park_goals if x.id == state.park_goals[j])
        amount, where, extra = g.park_reward, goal.id, goal.benefit
    eco.earn(p, "books", amount + bonus, "safe")
    say(log, _cooked(kind, where, p.name, amount + bonus))
    eco.gain(state, seat, extra, log)
    for _ in range(levels):
        push(state, "level_any", seat)


def _cooked(kind: str, where: str, name: str, amount: int) -> Msg:
    """The log line of a Book placed: ``where`` is the Zone index, the Infamy space or the Central Park tile."""
    if kind == "zone":
        return M(
            "speakeasy.goals.cooks_zone",
            "{name} cooks the Books on the {zone} goal: ${amount} to the safe.",
            name=name,
            zone=zone_name(ZONES[int(where)]),
            amount=amount,
        )
    if kind == "hall":
        return M(
            "speakeasy.goals.cooks_hall",
            "{name} cooks the Books on City Hall: ${amount} to the safe.",
            name=name,
            amount=amount,
        )
    if kind == "docks":
        return M(
            "speakeasy.goals.cooks_docks",
            "{name} cooks the Books on the {zone} Docks: ${amount} to the safe.",
            name=name,
            zone=zone_name(ZONES[int(where)]),
            amount=amount,
        )
    if kind == "infamy":
        return M(
            "speakeasy.goals.cooks_infamy",
            "{name} cooks the Books on Infamy {n}: ${amount} to the safe.",
            name=name,
            n=int(where),
            amount=amount,
        )
    return M(
        "speakeasy.goals.cooks_park",
        "{name} cooks the Books on Central Park goal {tile}: ${amount} to the safe.",
        name=name,
        tile=where,
        amount=amount,
    )


register(
    "cook",
    lambda s, t: M("speakeasy.goals.cook_ask", "Cook the Books: place a Book ({n} more at most)", n=t.n),
    options=_cook_options,
    choose=_cook_choose,
    skip=M("speakeasy.goals.cook_skip", "Skip cooking"),
)
