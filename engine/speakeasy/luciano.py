"""The Lucky Luciano phase at the end of Acts 1-3 (seed 001): Mob War, Cops Patrol Manhattan, Payout Zone Control.

It runs as steps on the task stack like everything else: the automatic steps place the Mobsters, swap tiles,
move Cops and pay; the only decisions are the owners' defences, asked in turn order, building by building.
"""

from __future__ import annotations

from engine.core import Option
from engine.msg import Join, M, Msg, P, T
from engine.speakeasy import crew, solo
from engine.speakeasy import economy as eco
from engine.speakeasy.board import KIND_NAMES, district_name, is_open, operating, space_name, zone_index, zone_name
from engine.speakeasy.components import BUILDING_KINDS, ZONES
from engine.speakeasy.loader import rules
from engine.speakeasy.state import District, SpeakeasyState, Task
from engine.speakeasy.steps import Log, opt, push, register, say

DECKS = {1: "B", 2: "C", 3: "D"}  # seed 001:5.1: the Mobster deck of each Act's war


def begin(state: SpeakeasyState, log: Log) -> None:
    """Queue the three steps in order (seed 001:3.1): every war district lowest first, then Cops, then payout."""
    state.phase = "luciano"
    say(
        log,
        M("speakeasy.luciano.phase", "Lucky Luciano phase after Act {act}: Mob War, Cops, payout.", act=state.act),
        kind="phase",
    )
    push(state, "next_act", -1)
    push(state, "payout", -1)
    push(state, "cops", -1)
    push(state, "war_end", -1)
    for d in reversed([d for d in state.districts if d.war_tile]):
        push(state, "war_district", -1, n=d.number)
    deck = state.mobster_decks.get(DECKS[state.act], [])
    state.rng.shuffle(deck)  # seed 001:5.1: shuffled without looking
    while len(state.war_stats) < state.act:
        state.war_stats.append([0, 0])


def attack(state: SpeakeasyState, d: District) -> int:
    """Seed 001:12.1: strength (brown box) + Mob War modifier (red box) of the district's Mobster."""
    m = rules(state).mobsters[d.mobster]  # type: ignore[index]
    return m.strength + m.modifier


def _war_district(state: SpeakeasyState, task: Task, log: Log) -> None:
    """Seed 001:6.1-9.1: the top Mobster tile, the Strength tile, Mobster Speakeasies, then the attack."""
    r = rules(state)
    d = state.districts[task.n - 1]
    deck = state.mobster_decks[DECKS[state.act]]
    if not deck:  # cannot happen with the shipped data (the loader checks the deck sizes)
        return
    mob = deck.pop(0)
    d.mobster = mob
    d.war_tile = False
    state.box["mobster_districts"].append(d.number)
    d.strength = r.mobsters[mob].strength
    placed = 0
    for sp in d.spaces:
        if sp.building is None and not sp.mobster:
            sp.mobster = True
            placed += 1
    say(
        log,
        P(
            "speakeasy.luciano.mob_war",
            "Mob War: {mobster} (strength {strength}, attacks at {attack}) comes to {district} and opens {n} Mobster "
            "Speakeasy.",
            "Mob War: {mobster} (strength {strength}, attacks at {attack}) comes to {district} and opens {n} Mobster "
            "Speakeasies.",
            placed,
            mobster=T("speakeasy.term.mobster", r.mobsters[mob].name),
            strength=d.strength,
            attack=attack(state, d),
            district=district_name(d.number),
        ),
        kind="war",
    )
    # Seed 001:14.1: in turn order, each owner decides building by building (space order).
    defences = [
        (seat, i) for seat in state.track for i, sp in enumerate(d.spaces) if sp.building and sp.building.owner == seat
    ]
    push(state, "war_check", -1, n=d.number, m=placed)
    jo = state.jo.seat if state.jo is not None else None
    if jo is not None:  # Jo defends his buildings most valuable first, in his place in turn order
        mine = solo.jo("defence_order")(state, jo, d)
        defences = [(s, i) for s, i in defences if s != jo]
        at = next((k for k, (s, _i) in enumerate(defences) if state.track.index(s) > state.track.index(jo)), None)
        at = len(defences) if at is None else at
        defences[at:at] = [(jo, i) for i in mine]
    for seat, i in reversed(defences):
        push(state, "jo_defend" if seat == jo else "defend", seat, n=d.number, m=i)


#: The name of the automatic Mob War steps (never asked: no prompt shows it).
_MOB_WAR = M("speakeasy.luciano.mob_war_step", "Mob War")

register("war_district", _MOB_WAR, auto=_war_district, skip=None)


def reach(state: SpeakeasyState, seat: int, d: District) -> int:
    """The best defence the seat could put up here, money aside (public: Strength, Goons, the Associate)."""
    p = state.player(seat)
    add, _fee = crew.associate_strength(state, seat, zone_index(d.number))
    return eco.strength_base(p) + p.goons + add


def _defend_options(state: SpeakeasyState, task: Task) -> list[Option]:
    d = state.districts[task.n - 1]
    b = d.spaces[task.m].building
    if b is None or b.owner != task.seat:
        return []
    need = attack(state, d)
    # the detail names the building: a plan for the whole district lists its buildings by it
    what = M(
        "speakeasy.luciano.building_on_space", "{building} on space {n}", building=KIND_NAMES[b.kind], n=task.m + 1
    )
    out = [
        opt(
            f"defend:{sup.code()}",
            M("speakeasy.luciano.defend_with", "Defend: {support}", support=sup.text()),
            M("speakeasy.luciano.defence_needed", "{what}, defence {need} needed", what=what, need=need),
            "primary",
            sup.fee,
        )
        for sup in crew.supports(state, task.seat, need, zone_index(d.number))
    ]
    if not out and reach(state, task.seat, d) < need:  # impossible whatever the money: say why, greyed out
        out.append(
            opt(
                "defend",
                M("speakeasy.luciano.defend", "Defend"),
                what,
                disabled=M(
                    "speakeasy.luciano.defend_reach",
                    "needs {need}, you reach {reach}",
                    need=need,
                    reach=reach(state, task.seat, d),
                ),
            )
        )
    out.append(
        opt(
            "lose",
            M(
                "speakeasy.luciano.no_defence",
                "Do not defend: the {building} leaves the game",
                building=KIND_NAMES[b.kind],
            ),
            what,
            style="danger",
        )
    )
    return out


def _defend_forced(state: SpeakeasyState, task: Task) -> Msg:
    d = state.districts[task.n - 1]
    return M(
        "speakeasy.luciano.defence_impossible",
        "no defence possible: needs {need}, reaches {reach}",
        need=attack(state, d),
        reach=reach(state, task.seat, d),
    )


def lose_building(state: SpeakeasyState, d: District, index: int, log: Log) -> None:
    """Seed 001:16.1: it leaves the game with its Family Member; its barrel (the Stills: the Stills area's
    barrels) returns to the supply; a Mobster Speakeasy takes the space."""
    sp = d.spaces[index]
    b = sp.building
    assert b is not None
    p = state.player(b.owner)
    if b.family:
        p.lost_family += 1
    if b.kind == "stills":
        p.stills_barrels = 0
    p.lost_buildings[b.kind] = p.lost_buildings.get(b.kind, 0) + 1
    sp.building = None
    sp.mobster = True
    say(
        log,
        M(
            "speakeasy.luciano.loses",
            "{name} loses the {building} in {space}.",
            name=p.name,
            building=KIND_NAMES[b.kind],
            space=space_name(d.number, index),
        ),
        kind="war",
    )


def _defend_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    d = state.districts[task.n - 1]
    state.war_stats[state.act - 1][0] += 1
    if option == "lose":
        state.war_stats[state.act - 1][1] += 1
        lose_building(state, d, task.m, log)
        return
    sup = crew.parse_support(option.split(":")[1], state, task.seat)
    crew.use_support(state, task.seat, sup, log)
    b = d.spaces[task.m].building
    assert b is not None
    say(
        log,
        M(
            "speakeasy.luciano.defends",
            "{name} defends the {building} in {space}.",
            name=state.player(task.seat).name,
            building=KIND_NAMES[b.kind],
            space=space_name(d.number, task.m),
        ),
        kind="war",
    )


register(
    "defend",
    lambda s, t: M(
        "speakeasy.luciano.defend_ask",
        "Mob War in {district}: defend your building on space {n} (attack {attack})?",
        district=district_name(t.n),
        n=t.m + 1,
        attack=attack(s, s.districts[t.n - 1]),
    ),
    options=_defend_options,
    choose=_defend_choose,
    skip=None,
    pays=True,
    forced=_defend_forced,
    # one owner's buildings in one district are asked in a row: the table lets them decide all at once
    group=lambda s, t: f"war:{t.n}",
)


def _war_check(state: SpeakeasyState, task: Task, log: Log) -> None:
    """Seed 001:17.1: a Mobster that placed no Speakeasy at all leaves the game; its Strength tile flips."""
    d = state.districts[task.n - 1]
    if any(sp.mobster for sp in d.spaces):
        return
    mob = d.mobster
    assert mob is not None
    d.mobster = None
    d.strength_down = True
    state.mobster_gone.append(mob)
    say(
        log,
        M(
            "speakeasy.luciano.no_room",
            "{mobster} finds no room in {district} and leaves the game.",
            mobster=T("speakeasy.term.mobster", rules(state).mobsters[mob].name),
            district=district_name(d.number),
        ),
        kind="war",
    )


register("war_check", _MOB_WAR, auto=_war_check, skip=None)


def _war_end(state: SpeakeasyState, task: Task, log: Log) -> None:
    """Seed 001:10.1, 001:19.1: box the deck's unused Mobsters; the next war's districts get their tiles."""
    deck = DECKS[state.act]
    state.mobster_box += state.mobster_decks.get(deck, [])
    state.mobster_decks[deck] = []
    if state.act <= len(state.war_stacks) and state.war_stacks[state.act - 1]:
        stack = state.war_stacks[state.act - 1]
        for number in stack:
            state.districts[number - 1].war_tile = True
        state.war_stacks[state.act - 1] = []
        say(
            log,
            M(
                "speakeasy.luciano.next_war",
                "The next Mob War will come to {districts}.",
                districts=Join([district_name(n) for n in sorted(stack)], "comma"),
            ),
        )


register("war_end", _MOB_WAR, auto=_war_end, skip=None)


def _cops(state: SpeakeasyState, task: Task, log: Log) -> None:
    """Seed 001:21.1-22.1: Cop tiles become Cops; after Acts 1 and 2 the next stack arrives face down.

    A Cop stands for the tile it replaced (the tile's count in ``invariants``); the tile itself is out of play.
    """
    arrived = []
    for d in state.districts:
        if d.cop_tile:
            d.cop_tile = False
            d.cop = True
            arrived.append(d.number)
    if arrived:
        say(
            log,
            M(
                "speakeasy.luciano.cops_arrive",
                "Cops arrive in {districts}.",
                districts=Join([district_name(n) for n in arrived], "comma"),
            ),
            kind="cops",
        )
    if state.act <= len(state.cop_stacks) and state.cop_stacks[state.act - 1]:
        coming = []
        for number in state.cop_stacks[state.act - 1]:
            d = state.districts[number - 1]
            if d.cop or d.cop_tile:  # design §12: only one Cop can ever stand in a district
                state.box["cop_tiles"].append(number)
            else:
                d.cop_tile = True
                coming.append(number)
        state.cop_stacks[state.act - 1] = []
        if coming:
            # by district number: the order the tiles lay in the stack is not shown (the tiles are flipped together)
            say(
                log,
                M(
                    "speakeasy.luciano.cops_next",
                    "Cops will come next to {districts}.",
                    districts=Join([district_name(n) for n in sorted(coming)], "comma"),
                ),
            )


register("cops", M("speakeasy.luciano.cops_step", "Cops Patrol Manhattan"), auto=_cops, skip=None)


# ---- Payout Zone Control (seed 001:25.1-34.2) ----

RANK = {kind: i + 1 for i, kind in enumerate(BUILDING_KINDS)}  # Stills 1 < Speakeasy < Nightclub < Casino
FAMILY = len(BUILDING_KINDS) + 1  # seed 001:30.1: a Family Member present ranks above every building


def controllers(state: SpeakeasyState, d: District) -> list[int]:
    """Who controls a district: player seats, ``[-1]`` for the Mobsters, or ``[]`` (seed 001:26.1-30.2)."""
    if not is_open(state, d.number):
        return []
    protected: dict[int, int] = {}
    best: dict[int, int] = {}
    for sp in d.spaces:
        b = sp.building
        if b is None or not operating(d, b):
            continue
        best[b.owner] = max(best.get(b.owner, 0), RANK[b.kind])
        if b.family:
            protected[b.owner] = max(protected.get(b.owner, 0), RANK[b.kind])
    if protected:  # 001:26.1: the best building with a Family Member beside it
        top = max(protected.values())
        return sorted(s for s, v in protected.items() if v == top)
    if not d.cop and best:  # 001:27.1: no Cop and no Family Member: the best building
        top = max(best.values())
        return sorted(s for s, v in best.items() if v == top)
    if not best and any(sp.mobster for sp in d.spaces):  # 001:28.1
        return [-1]
    return []  # 001:29.1


def positions(markers: list[int], mobster: int) -> list[int]:
    """Seed 001:33.1 quick count: a player's position is the number of markers on their space and above it
    (the Mobsters' and their own included): tied players share the lowest position (001:32.3)."""
    everyone = [*markers, mobster]
    return [sum(1 for m in everyone if m >= mine) for mine in markers]


def _payout(state: SpeakeasyState, task: Task, log: Log) -> None:
    r = rules(state)
    for p in state.players:
        p.zone_markers = [0] * len(ZONES)  # 001:25.1
    state.mobster_markers = [0] * len(ZONES)
    for d in state.districts:  # 001:25.2: district by district in number order
        z = zone_index(d.number)
        who = controllers(state, d)
        for seat in who:  # 001:30.3
            if seat < 0:
                state.mobster_markers[z] += 1
            else:
                state.player(seat).zone_markers[z] += 1
        if who:
            names = Join(
                [M("speakeasy.luciano.the_mobsters", "the Mobsters") if s < 0 else state.player(s).name for s in who],
                "comma",
            )
            say(
                log,
                M(
                    "speakeasy.luciano.control",
                    "{district}: controlled by {names}.",
                    district=district_name(d.number),
                    names=names,
                ),
                kind="control",
            )
    chart = r.sides[state.side].zone_payouts
    for z, zone in enumerate(ZONES):
        markers = [p.zone_markers[z] for p in state.players]
        for seat, pos in enumerate(positions(markers, state.mobster_markers[z])):
            if markers[seat] == 0:  # 001:32.4: no district controlled in this Zone, nothing paid
                continue
            amount = chart[z][pos - 1] if pos - 1 < len(chart[z]) else 0
            if amount:
                # Jo has one public pool (design §15.1): his payouts go there.
                to = "pocket" if state.jo is not None and seat == state.jo.seat else "safe"
                eco.earn(state.player(seat), "zones", amount, to)
            say(
                log,
                M(
                    "speakeasy.luciano.zone_payout",
                    "{zone}: {name} is {place} and puts ${amount} in the safe.",
                    zone=zone_name(zone),
                    name=state.player(seat).name,
                    place=_ordinal(pos),
                    amount=amount,
                ),
                kind="payout",
            )

    if state.jo is not None:  # for the Kingpin achievement (design §15.5)
        human = next(s for s in range(len(state.players)) if s != state.jo.seat)
        alone = False
        for z in range(len(ZONES)):
            markers = [p.zone_markers[z] for p in state.players]
            if markers[human] and positions(markers, state.mobster_markers[z])[human] == 1:
                alone = True
        state.jo.kingpin.append(alone)


def _ordinal(n: int) -> Msg:
    """A place as people read it: "1st" (German "1.")."""
    if n == 1:
        return M("speakeasy.luciano.place_1", "{n}st", n=n)
    if n == 2:
        return M("speakeasy.luciano.place_2", "{n}nd", n=n)
    if n == 3:
        return M("speakeasy.luciano.place_3", "{n}rd", n=n)
    return M("speakeasy.luciano.place_n", "{n}th", n=n)


register("payout", M("speakeasy.luciano.payout_step", "Payout Zone Control"), auto=_payout, skip=None)
