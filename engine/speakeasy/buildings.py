"""Open, take over and upgrade buildings (seed 000:52.1-3, 000:20.3-7, design §6)."""

from __future__ import annotations

from functools import cache

from engine.core import Option
from engine.msg import M, Msg, P
from engine.speakeasy import crew, money
from engine.speakeasy import economy as eco
from engine.speakeasy.board import KIND_NAMES, buildings, free_spaces, mobster_held, space_name, zone_index
from engine.speakeasy.components import Effect, RowSpace
from engine.speakeasy.gains import tile_kind, tile_name
from engine.speakeasy.loader import rules
from engine.speakeasy.state import Building, SpeakeasyState, Task
from engine.speakeasy.steps import Log, opt, push, register, say


@cache  # a function of the data files: read for every row of every build and upgrade question
def row_space(kind: str, index: int) -> RowSpace:
    """A space of a building row."""
    return rules().buildings.rows[kind][index]


@cache  # labels are made for every option of every question: each distinct one once (a function of the data)
def row_label(rs: RowSpace, cost: int | None = None) -> Msg:
    """ "Speakeasy $3 (1 Leverage)"."""
    c = rs.cost if cost is None else cost
    return M(
        "speakeasy.buildings.row",
        "{kind} ${cost} ({gains})",
        kind=KIND_NAMES[rs.kind],
        cost=c,
        gains=eco.describe(rs.benefit),
    )


def _available(state: SpeakeasyState, seat: int, kinds: tuple[str, ...]) -> list[RowSpace]:
    p = state.player(seat)
    return [row_space(k, i) for k in kinds for i, here in enumerate(p.rows[k]) if here]


def _takeovers(state: SpeakeasyState, seat: int, cost: int, associate: bool) -> list[tuple[int, int, crew.Support]]:
    """Mobster-held spaces the seat can take over, each with the ways to reach its Strength tile (design §6.2).
    The Associate helps once per Contractor action (design §9.2), so ``associate`` is False after its use."""
    out = []
    # the ways depend on the tile's Strength and the Zone only: worked out once for each pair (many spaces share)
    ways: dict[tuple[int, int], list[crew.Support]] = {}
    for d, i in mobster_held(state):
        key = (d.strength, zone_index(d.number))
        if key not in ways:
            ways[key] = crew.supports(state, seat, key[0], key[1], cost, associate=associate)
        for sup in ways[key]:
            out.append((d.number, i, sup))
    return out


def _targets(state: SpeakeasyState, seat: int, rs: RowSpace, setup: bool, associate: bool = True) -> list[Option]:
    p = state.player(seat)
    out = []
    can_open = (p.pocket >= rs.cost) if setup else money.can_pay(p, rs.cost)
    if can_open:
        for d, i in free_spaces(state):
            tile = d.spaces[i].tile
            out.append(_open_option(rs.kind, d.number, i, rs.cost, tile, 0 if setup else rs.cost))
    if not setup and rs.kind == rules(state).buildings.takeover_kind:
        for dn, i, sup in _takeovers(state, seat, rs.cost, associate):
            out.append(_take_option(dn, i, sup, state.districts[dn - 1].strength, rs.cost))
    return out


# Each distinct option made once: a function of its arguments and the data files (options are frozen), asked for
# every free space or Mobster Speakeasy in every build question. There are a few thousand at most.
@cache
def _open_option(kind: str, number: int, index: int, cost: int, tile: int | None, charge: int) -> Option:
    return opt(f"open:{number}:{index}", _open_label(kind, number, index), _open_pays(cost, tile), cost=charge)


# The texts of the options above, each made once too: the tiles on the spaces differ from game to game, so an
# option is made anew in each game, its words need not be.
@cache
def _open_label(kind: str, number: int, index: int) -> Msg:
    return M(
        "speakeasy.buildings.open", "Open {kind} in {space}", kind=KIND_NAMES[kind], space=space_name(number, index)
    )


@cache
def _open_pays(cost: int, tile: int | None) -> Msg:
    if tile is None:
        return M("speakeasy.buildings.open_pay", "pay ${cost}", cost=cost)
    return M("speakeasy.buildings.open_pay_tile", "pay ${cost}, gain City tile {tile}", cost=cost, tile=tile_name(tile))


@cache
def _take_option(number: int, index: int, sup: crew.Support, need: int, cost: int) -> Option:
    return opt(
        f"take:{number}:{index}:{sup.code()}",
        _take_label(number, index),
        _take_detail(need, sup, cost),
        style="danger",
        cost=cost + sup.fee,
    )


@cache
def _take_label(number: int, index: int) -> Msg:
    return M("speakeasy.buildings.take", "Take over the Mobster Speakeasy in {space}", space=space_name(number, index))


@cache
def _take_detail(need: int, sup: crew.Support, cost: int) -> Msg:
    return M(
        "speakeasy.buildings.take_detail",
        "strength {need} needed: {help}; pay ${cost}",
        need=need,
        help=sup.text(),
        cost=cost,
    )


def _has_target(state: SpeakeasyState, seat: int, rs: RowSpace, setup: bool, free: bool, associate: bool) -> bool:
    """Whether ``_targets`` would offer anything (without building its labels)."""
    p = state.player(seat)
    if free and ((p.pocket >= rs.cost) if setup else money.can_pay(p, rs.cost)):
        return True
    if setup or rs.kind != rules(state).buildings.takeover_kind:
        return False
    # ``bool(_takeovers(...))``, stopping at the first space that can be taken (each Strength and Zone once)
    tried: set[tuple[int, int]] = set()
    for d, _i in mobster_held(state):
        key = (d.strength, zone_index(d.number))
        if key not in tried:
            tried.add(key)
            if crew.supports(state, seat, key[0], key[1], rs.cost, associate=associate):
                return True
    return False


def _build_options(state: SpeakeasyState, task: Task) -> list[Option]:
    setup = task.kind == "setup_build"
    kinds = rules(state).buildings.setup_kinds if setup else ("stills", "speakeasy")
    free = next(free_spaces(state), None) is not None
    return [
        _row_option(rs, setup)
        for rs in _available(state, task.seat, kinds)
        if _has_target(state, task.seat, rs, setup, free, task.m == 0)
    ]


@cache  # each distinct option made once (options are frozen): a function of the row space and the data files
def _row_option(rs: RowSpace, setup: bool) -> Option:
    return opt(f"row:{rs.kind}:{rs.index}", _build_label(rs), cost=0 if setup else rs.cost)


@cache
def _build_label(rs: RowSpace) -> Msg:
    return M("speakeasy.buildings.build", "Build: {row}", row=row_label(rs))


def _build_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    _, kind, idx = option.split(":")
    push(
        state,
        "setup_at" if task.kind == "setup_build" else "build_at",
        task.seat,
        n=task.n,
        m=task.m,
        s=f"{kind}:{idx}",
    )


def _rs(task: Task) -> RowSpace:
    kind, idx = task.s.split(":")
    return row_space(kind, int(idx))


def _at_options(state: SpeakeasyState, task: Task) -> list[Option]:
    out = _targets(state, task.seat, _rs(task), task.kind == "setup_at", task.m == 0)
    if out:
        out.append(opt("back", M("speakeasy.buildings.back", "Choose another building")))
    return out


def _at_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    seat = task.seat
    setup = task.kind == "setup_at"
    if option == "back":
        push(state, "setup_build" if setup else "build", seat, n=task.n, m=task.m)
        return
    rs = _rs(task)
    p = state.player(seat)
    parts = option.split(":")
    dn, i = int(parts[1]), int(parts[2])
    d = state.districts[dn - 1]
    space = d.spaces[i]
    if setup:
        money.pay_pocket(p, rs.cost, "buildings")  # the Setup Round pays from the pocket
        paid = f"${rs.cost}"
    else:
        used = task.m
        if parts[0] == "take":
            sup = crew.parse_support(parts[3], state, seat)
            used = used or int(sup.associate)
            crew.use_support(state, seat, sup, log)
            space.mobster = False
            say(
                log,
                M(
                    "speakeasy.buildings.took",
                    "{name} takes over the Mobster Speakeasy in {space}.",
                    name=p.name,
                    space=space_name(dn, i),
                ),
            )
        paid = money.paid_text(rs.cost, money.pay(p, rs.cost, log, seat, source="buildings"))
        if task.n > 1:
            push(state, "build", seat, n=task.n - 1, m=used)
    p.rows[rs.kind][rs.index] = False
    space.building = Building(seat, rs.kind)
    say(
        log,
        M(
            "speakeasy.buildings.opened",
            "{name} opens a {kind} in {space} for {paid}.",
            name=p.name,
            kind=KIND_NAMES[rs.kind],
            space=space_name(dn, i),
            paid=paid,
        ),
    )
    # Design §6.2 order: City tile and its benefit, then the uncovered Operations-board benefit.
    eco.gain(state, seat, rs.benefit, log)
    tile = space.tile
    if tile is not None:
        space.tile = None
        p.tiles.append(tile)
        say(log, M("speakeasy.buildings.tile", "{name} gains the City tile {tile}.", name=p.name, tile=tile_name(tile)))
        eco.gain(state, seat, rules(state).city_tiles[tile_kind(tile)].benefit, log, where=(dn, i))


register(
    "build",
    M("speakeasy.buildings.ask_build", "Open a Speakeasy or Stills, or take over a Mobster Speakeasy"),
    options=_build_options,
    choose=_build_choose,
    skip=M("speakeasy.buildings.skip_build", "Skip building"),
    pays=True,
)
register(
    "build_at",
    lambda s, t: M("speakeasy.buildings.ask_where", "Where does your {row} go?", row=row_label(_rs(t))),
    options=_at_options,
    choose=_at_choose,
    skip=None,
    pays=True,
    default=lambda s, t: "back",  # an idle player builds nothing: back to the choice, which can be declined
)
register(
    "setup_build",
    M("speakeasy.buildings.ask_setup", "1920 Setup Round: open your Stills or a Speakeasy, paid from your $15"),
    options=_build_options,
    choose=_build_choose,
    skip=None,
)
register(
    "setup_at",
    lambda s, t: M("speakeasy.buildings.ask_where", "Where does your {row} go?", row=row_label(_rs(t))),
    options=_at_options,
    choose=_at_choose,
    skip=None,
)


# ---- Upgrade (design §6.4) ----


def upgrade_cost(state: SpeakeasyState, seat: int, rs: RowSpace, extra: int) -> int:
    """A row space's cost less Silk Stockings and a Helper's discount, never below $0."""
    return max(0, rs.cost - eco.crate_power(state.player(seat), "upgrade_discount") - extra)


def _upgrade_options(state: SpeakeasyState, task: Task) -> list[Option]:
    seat = task.seat
    p = state.player(seat)
    ups = rules(state).buildings.upgrades
    out = []
    for d, i, b in buildings(state, seat):
        to = ups.get(b.kind)
        if to is None:
            continue
        for rs in _available(state, seat, (to,)):
            cost = upgrade_cost(state, seat, rs, task.m)
            if money.can_pay(p, cost):
                label = _upgrade_label(b.kind, d.number, i, to, cost)
                out.append(opt(f"up:{d.number}:{i}:{rs.index}", label, _uncovers(rs.benefit), cost=cost))
    return out


# The texts of the upgrade options, each made once (functions of their arguments and the data files)
@cache
def _upgrade_label(old: str, number: int, index: int, new: str, cost: int) -> Msg:
    return M(
        "speakeasy.buildings.upgrade",
        "Upgrade {old} in {space} to {new} ${cost}",
        old=KIND_NAMES[old],
        space=space_name(number, index),
        new=KIND_NAMES[new],
        cost=cost,
    )


@cache
def _uncovers(benefit: tuple[Effect, ...]) -> Msg:
    return M("speakeasy.buildings.uncovers", "uncovers {gains}", gains=eco.describe(benefit))


def _upgrade_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    seat = task.seat
    p = state.player(seat)
    _, dn, si, ri = option.split(":")
    d = state.districts[int(dn) - 1]
    b = d.spaces[int(si)].building
    assert b is not None
    to = rules(state).buildings.upgrades[b.kind]
    rs = row_space(to, int(ri))
    cost = upgrade_cost(state, seat, rs, task.m)
    paid = money.pay(p, cost, log, seat, source="buildings")
    p.rows[to][rs.index] = False
    old = b.kind
    back = p.rows[old].index(False)  # the leftmost empty space of its row (design §6.1)
    p.rows[old][back] = True
    b.kind = to  # the barrel and the Family Member stay with the building
    say(
        log,
        M(
            "speakeasy.buildings.upgraded",
            "{name} upgrades the {old} in {space} to a {new} for {paid}.",
            name=p.name,
            old=KIND_NAMES[old],
            space=space_name(int(dn), int(si)),
            new=KIND_NAMES[to],
            paid=money.paid_text(cost, paid),
        ),
    )
    if task.n > 1:
        push(state, "upgrade", seat, n=task.n - 1, m=task.m)
    eco.gain(state, seat, rs.benefit, log)


register(
    "upgrade",
    lambda s, t: P(
        "speakeasy.buildings.ask_upgrade",
        "Upgrade a building ({n} step left)",
        "Upgrade a building ({n} steps left)",
        t.n,
    ),
    options=_upgrade_options,
    choose=_upgrade_choose,
    skip=M("speakeasy.buildings.skip_upgrade", "Skip upgrading"),
    pays=True,
)
