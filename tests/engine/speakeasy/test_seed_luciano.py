"""The Lucky Luciano phase (seed 001): Mob War, Cops Patrol Manhattan, Payout Zone Control; design §1.1, §6.5,
§9.2, §12, §13.

Most tests arrange one step in a paused game (``kit.paused``: the turn flow is frozen, so a step runs alone): an
empty map (``clear_map``), the Mobster tile of our choice on top of its deck, then ``kit.task(state, "war_district",
-1, n=district)``, ``"cops"`` or ``"payout"``. ``luciano_alone`` runs a whole phase without the next Act;
``play_game`` plays whole games for what the phase does across Acts.
"""

from __future__ import annotations

import itertools
import re

import pytest

from engine.core import Choice
from engine.speakeasy import luciano
from engine.speakeasy.board import operating
from engine.speakeasy.components import BUILDING_KINDS, ZONES
from engine.speakeasy.flow import advance
from engine.speakeasy.hidden import fingerprint, revealed
from tests.engine.speakeasy import kit

R = kit.R()


def mob(name: str) -> int:
    """The Mobster tile id called ``name``."""
    return next(m.id for m in R.mobsters if m.name == name)


BIRDIE = mob("Birdie Brown")  # strength 6, +1: attacks at 7
DIAMOND = mob('Jack "Legs" Diamond')  # strength 6, +2: attacks at 8
SCHULTZ = mob("Dutch Schultz")  # strength 5, +1: attacks at 6


# --- helpers ------------------------------------------------------------------------------------------------------


def clear_map(state) -> None:
    """Empty the map: every player building back to its row (its Family Member to the supply), no Mobster
    Speakeasy, Cop, Cop tile or war tile (the Cop tiles to the box). The Mobster tiles stay on their districts."""
    for d in state.districts:
        for sp in d.spaces:
            b = sp.building
            if b is not None:
                p = state.player(b.owner)
                row = p.rows[b.kind]
                row[len(row) - 1 - row[::-1].index(False)] = True
                p.family_supply += b.family
                sp.building = None
            sp.mobster = False
        if d.cop or d.cop_tile:
            state.box["cop_tiles"].append(d.number)
        d.cop = d.cop_tile = d.war_tile = False


def board(players: int = 3, seed: int = 1):
    """A paused game at the end of Act 1 with an empty map; every player at Strength 1 with no Goon."""
    state = kit.paused(players, seed)
    clear_map(state)
    state.act = 1
    state.war_stats = [[0, 0]]
    for seat in range(players):
        kit.give(state, seat, levels={"strength": 1}, goons=0)
    return state


def districts(state, zone: str | None = None) -> list[int]:
    """Open districts (of ``zone``) without a Mobster tile, lowest first."""
    return [
        d.number
        for d in state.districts
        if d.spaces and d.mobster is None and (zone is None or R.district(d.number).zone == zone)
    ]


def zone(state, name: str) -> list[int]:
    """Every open district of a Zone, lowest first (for control and payouts a Mobster tile does not matter)."""
    return [d.number for d in state.districts if d.spaces and R.district(d.number).zone == name]


def put(state, seat: int, number: int, kind: str = "speakeasy", family: bool = False, barrel: bool = False) -> int:
    """Build ``kind`` for ``seat`` on the first free space of district ``number``; returns the space index."""
    i = kit.empty_space(state, number)
    if family:
        state.player(seat).family_supply -= 1
    kit.build(state, seat, number, i, kind, family=family, barrel=barrel)
    return i


def speakeasy_of_mobsters(state, number: int) -> None:
    """A Mobster Speakeasy beside the first free space of district ``number``."""
    d = state.districts[number - 1]
    next(sp for sp in d.spaces if sp.building is None and not sp.mobster).mobster = True


def add_cop(state, number: int) -> None:
    """A Cop in district ``number`` (a Cop District tile taken out of the box for it)."""
    box = state.box["cop_tiles"]
    box.remove(number if number in box else box[-1])
    state.districts[number - 1].cop = True


def on_top(state, mobster: int, deck: str = "B") -> None:
    """Move a Mobster tile from its deck to the top of ``deck`` (it stays in exactly one place)."""
    for tiles in state.mobster_decks.values():
        if mobster in tiles:
            tiles.remove(mobster)
    state.mobster_decks[deck].insert(0, mobster)


def war(state, number: int, mobster: int = BIRDIE) -> list:
    """The Mob War step in district ``number`` with ``mobster`` drawn; runs up to the first defence prompt."""
    on_top(state, mobster, luciano.DECKS[state.act])
    state.districts[number - 1].war_tile = True
    return kit.task(state, "war_district", -1, n=number)


def attack(mobster: int) -> int:
    m = R.mobsters[mobster]
    return m.strength + m.modifier


def defend_ids(state) -> list[str]:
    return [i for i in kit.ids(state) if i.startswith("defend:")]


def where(state, mobster: int) -> int:
    """The district holding this Mobster tile."""
    return next(d.number for d in state.districts if d.mobster == mobster)


def give_crate(state, seat: int, name: str) -> None:
    """Move the Crate called ``name`` from a Ship or the stack to the seat."""
    c = next(i for i, cr in enumerate(R.docks.crates) if cr.name == name)
    for ship in state.ships:
        if ship.crate == c:
            ship.crate = None
    if c in state.crate_stack:
        state.crate_stack.remove(c)
    state.player(seat).crates.append(c)


def payout(state) -> list[int]:
    """Run the payout step; returns what each seat's safe gained."""
    before = [p.safe for p in state.players]
    kit.task(state, "payout", -1)
    return [p.safe - b for p, b in zip(state.players, before, strict=True)]


def markers(state) -> list[list[int]]:
    return [list(p.zone_markers) for p in state.players]


def luciano_alone(state, answer=None):
    """Run the Lucky Luciano phase of ``state.act`` without the next Act; each defence is answered by
    ``answer(state)`` (default: its first option). Returns (events, the Act's deck right after the shuffle)."""
    log: list = []
    luciano.begin(state, log)
    deck = list(state.mobster_decks[luciano.DECKS[state.act]])
    state.tasks = [t for t in state.tasks if t.kind != "next_act"]
    advance(state, log)
    while state.tasks:
        log += kit.answer(state, answer(state) if answer else kit.ids(state)[0])
    return log, deck


def copy(state):
    return kit.GAME.loads(kit.GAME.dumps(state))


def play_game(players: int = 3, seed: int = 1):
    """A whole game, every prompt declined or answered with its first option; returns (the state at each Act's
    first turn by Act, the final state, the events after the Setup Round)."""
    state = kit.played(players, seed)
    starts = {1: copy(state)}
    events: list = []
    while state.phase != "over":
        act = state.act
        p = kit.prompt(state)
        ids = [o.id for o in p.options]
        events += kit.GAME.apply(state, Choice(p.seat, p.kind, "skip" if "skip" in ids else ids[0]))
        if state.act != act and state.phase == "play":
            starts[state.act] = copy(state)
    return starts, state, events


def arrivals(before, after) -> list[int]:
    """Mobster tiles that came to the board (or came and left the game) between two states."""
    seen = {d.mobster for d in before.districts} | set(before.mobster_gone)
    now = [d.mobster for d in after.districts] + after.mobster_gone
    return [m for m in now if m is not None and m not in seen]


# --- Lucky Luciano Phase (001:1.1-001:3.1) -------------------------------------------------------------------------


def test_001_1_1_lucky_luciano_phase_between_the_acts():
    """001:1.1 Lucky Luciano Phase: when Act 1's last Capo is placed the game enters phase "luciano" (its defence
    prompts are asked there) and comes back to play in Act 2."""
    state = kit.played(3)  # seed 1: the three Setup Stills stand in a war district
    seen = set()
    while state.act == 1:
        p = kit.prompt(state)
        seen.add((state.phase, p.kind))
        ids = [o.id for o in p.options]
        kit.GAME.apply(state, Choice(p.seat, p.kind, "skip" if "skip" in ids else ids[0]))
    assert ("luciano", "defend") in seen
    assert {k for ph, k in seen if ph == "luciano"} == {"defend"}
    assert (state.phase, state.act) == ("play", 2)
    kit.ok(state)


def test_001_2_1_war_cops_control_and_payout_to_the_safe():
    """001:2.1: one phase does all four things: a Mob War district gets its Mobster, the Cop tiles become Cops,
    districts are controlled and the controllers are paid to their safes."""
    state = board()
    war_district, cop_district, mine = districts(state)[:3]
    state.districts[war_district - 1].war_tile = True
    state.districts[cop_district - 1].cop_tile = True
    state.box["cop_tiles"].remove(state.box["cop_tiles"][-1])
    put(state, 0, mine, "casino")
    safes = [p.safe for p in state.players]
    luciano_alone(state)
    assert state.districts[war_district - 1].mobster is not None
    assert state.districts[cop_district - 1].cop
    assert state.player(0).zone_markers[ZONES.index(R.district(mine).zone)] == 1
    assert sum(state.player(0).zone_markers) == 1 and state.player(0).safe > safes[0]
    assert [p.safe for p in state.players][1:] == safes[1:]
    kit.ok(state)


def test_001_3_1_three_steps_in_order():
    """001:3.1: the phase queues, in order: every war district (lowest first), the end of the war, the Cops, the
    payout, then the next Act."""
    state = kit.paused(3)
    wars = sorted(d.number for d in state.districts if d.war_tile)
    luciano.begin(state, [])
    assert state.phase == "luciano"
    queued = [(t.kind, t.n) for t in reversed(state.tasks)]
    assert queued == [("war_district", n) for n in wars] + [
        ("war_end", 0),
        ("cops", 0),
        ("payout", 0),
        ("next_act", 0),
    ]


def test_001_3_1_after_acts_1_2_and_3_not_4():
    """001:3.1: a whole game has the phase after Acts 1, 2 and 3 and none after Act 4 (the final scoring)."""
    _starts, state, events = play_game(3)
    kinds = [(e.kind, e.text) for e in events if e.kind in ("phase", "final", "act")]
    phases = [t for k, t in kinds if k == "phase"]
    assert [re.search(r"after Act (\d)", t).group(1) for t in phases] == ["1", "2", "3"]
    act4 = next(i for i, (k, t) in enumerate(kinds) if t.startswith("Act 4 begins"))
    assert all(k != "phase" for k, _t in kinds[act4:]) and kinds[-1][0] == "final"
    assert state.phase == "over"


# --- Mob War (001:4.1-001:10.1) -------------------------------------------------------------------------------------


def test_001_4_1_mob_war_is_the_first_step():
    """001:4.1 Mob War: the phase's first events are the Mob War's (a Mobster comes to each war district) before
    any Cop arrives."""
    state = kit.paused(3)
    log, _deck = luciano_alone(state)
    kinds = [e.kind for e in log if e.kind in ("war", "cops")]
    assert kinds[0] == "war" and "war" not in kinds[kinds.index("cops") :]
    assert sum(e.text.startswith("Mob War:") for e in log) == 3
    kit.ok(state)


def test_001_5_1_deck_b_after_act_1_c_after_act_2_d_after_act_3():
    """001:5.1: the Mobsters of the war after Act 1 come from deck B, after Act 2 from C, after Act 3 from D."""
    starts, _state, _events = play_game(3)
    for act, letter in ((1, "B"), (2, "C"), (3, "D")):
        came = arrivals(starts[act], starts[act + 1])
        assert came and {R.mobsters[m].deck for m in came} == {letter}


def test_001_5_1_the_deck_is_shuffled_without_looking():
    """001:5.1: the Act's deck is shuffled with the game's chance (the same game gives the same order, other games
    other orders; undo stops there) before the top tiles are drawn."""
    orders = set()
    for k in range(12):
        state = kit.paused(3)
        state.rng = type(state.rng)(1000 + k)
        before = sorted(state.mobster_decks["B"])
        seen = fingerprint(state)
        luciano.begin(state, [])
        assert sorted(state.mobster_decks["B"]) == before
        assert revealed(seen, fingerprint(state))  # chance was used: the choice that led here is fixed
        orders.add(tuple(state.mobster_decks["B"]))
    assert len(orders) > 1
    a, b = kit.paused(3), kit.paused(3)
    luciano.begin(a, [])
    luciano.begin(b, [])
    assert a.mobster_decks["B"] == b.mobster_decks["B"]


def test_001_5_2_every_war_district_lowest_number_first():
    """001:5.2: every district with a face-down Mobster District tile gets a Mobster, one at a time, lowest number
    first: the shuffled deck's first tile goes to the lowest district, whose defences are asked before the next
    district gets its Mobster."""
    state = board()
    chosen = [districts(state, "Uptown")[0], districts(state, "Downtown")[0], districts(state, "Midtown")[0]]
    for n in chosen:
        state.districts[n - 1].war_tile = True
    low, *later = sorted(chosen)
    put(state, 0, low)
    seen = []

    def answer(s):
        seen.append([(s.districts[n - 1].war_tile, s.districts[n - 1].mobster) for n in later])
        return "lose"

    log, deck = luciano_alone(state, answer)
    assert seen == [[(True, None), (True, None)]]
    assert [state.districts[n - 1].mobster for n in sorted(chosen)] == deck[:3]
    named = [e.text for e in log if e.text.startswith("Mob War:")]
    assert [R.district(n).name in t for n, t in zip(sorted(chosen), named, strict=True)] == [True] * 3
    kit.ok(state)


@pytest.mark.parametrize(("players", "sizes"), [(2, [2, 2, 3]), (3, [3, 3, 4]), (4, [3, 3, 4])])
def test_001_5_2_three_three_four_districts(players, sizes):
    """001:5.2: 3/3/4 war districts after Acts 1/2/3 (2/2/3 with two players), one new Mobster for each."""
    starts, _state, _events = play_game(players)
    for act, n in zip((1, 2, 3), sizes, strict=True):
        assert sum(d.war_tile for d in starts[act].districts) == n
        assert len(arrivals(starts[act], starts[act + 1])) == n


def test_001_6_1_the_top_mobster_tile_goes_on_the_district():
    """001:6.1: the top Mobster tile of the deck goes on the war district of the Mobster board; the deck is one
    shorter."""
    state = board()
    n = districts(state)[0]
    deck = len(state.mobster_decks["B"])
    log = war(state, n, DIAMOND)
    assert state.districts[n - 1].mobster == DIAMOND
    assert DIAMOND not in state.mobster_decks["B"] and len(state.mobster_decks["B"]) == deck - 1
    assert "Diamond" in log[0].text and kit.GAME.view(state, None)["districts"][n - 1]["mobster"].endswith("Diamond")
    kit.ok(state)


def test_001_7_1_strength_tile_equals_the_brown_box_and_the_district_tile_is_boxed():
    """001:7.1: the face-down District tile is boxed and a Strength tile of the Mobster's strength (brown box, not
    the attack) takes its place."""
    state = board()
    n = districts(state)[0]
    war(state, n, BIRDIE)
    d = state.districts[n - 1]
    assert not d.war_tile and n in state.box["mobster_districts"]
    assert d.strength == 6 and attack(BIRDIE) == 7
    assert kit.GAME.view(state, None)["districts"][n - 1]["strength"] == 6
    kit.ok(state)


def test_001_8_1_a_mobster_speakeasy_beside_every_empty_space():
    """001:8.1, design §1.1: every free space of the district gets a Mobster Speakeasy; spaces with a player
    building get none (before the attack)."""
    state = board()
    n = districts(state, "Downtown")[0]
    put(state, 0, n)
    log = war(state, n, BIRDIE)
    d = state.districts[n - 1]
    assert [sp.mobster for sp in d.spaces] == [False, True, True]
    assert "opens 2 Mobster Speakeasies" in log[0].text
    kit.answer(state, "lose")
    kit.ok(state)


def test_001_9_1_every_player_building_in_the_district_is_attacked():
    """001:9.1: each player building in the war district (and no other) gets a defence prompt."""
    state = board()
    n, other = districts(state, "Downtown")[:2]
    put(state, 0, n)
    put(state, 1, n, "nightclub")
    put(state, 0, n, "casino")
    put(state, 2, other)
    war(state, n, BIRDIE)
    asked = []
    while not kit.is_waiting(state):
        asked.append((kit.prompt(state).seat, state.tasks[-1].n, state.tasks[-1].m))
        kit.answer(state, "lose")
    assert sorted(asked) == [(0, n, 0), (0, n, 2), (1, n, 1)]
    assert state.districts[other - 1].spaces[0].building is not None
    kit.ok(state)


def test_001_10_1_unused_mobster_tiles_of_the_deck_are_boxed():
    """001:10.1: after the last war district, the deck's unused Mobster tiles go to the box (the other decks
    wait)."""
    state = kit.paused(3)
    c, d = list(state.mobster_decks["C"]), list(state.mobster_decks["D"])
    _log, deck = luciano_alone(state)
    assert state.mobster_decks["B"] == [] and len(deck) == 5
    assert sorted(state.mobster_box[-2:]) == sorted(deck[3:])
    assert (state.mobster_decks["C"], state.mobster_decks["D"]) == (c, d)
    kit.ok(state)


# --- Mob War strength (001:11.1-001:12.3) ---------------------------------------------------------------------------


def test_001_11_1_the_prompt_names_the_mob_war_strength():
    """001:11.1 Mob War strength: the defence prompt names the attack and each Defend option the defence needed."""
    state = board()
    n = districts(state)[0]
    put(state, 0, n)
    kit.give(state, 0, goons=6)
    war(state, n, DIAMOND)
    assert "attack 8" in kit.prompt(state).text
    assert all(o.detail == "defence 8 needed" for o in kit.prompt(state).options if o.id.startswith("defend:"))


@pytest.mark.parametrize("mobster", [m.id for m in R.mobsters if m.deck != "A"])
def test_001_12_1_attack_is_strength_plus_modifier(mobster):
    """001:12.1: every Mob War Mobster attacks at strength (brown box) + modifier (red box): a defence of exactly
    that is offered, one less is not (Strength 5 + Goons, plus Tommy Guns for the 12s)."""
    need = attack(mobster)
    for short in (1, 0):
        state = board()
        n = districts(state)[0]
        put(state, 0, n)
        goons = need - 5 - short
        if goons > 6:
            give_crate(state, 0, "Tommy Guns")
            goons -= 1
        kit.give(state, 0, levels={"strength": 5}, goons=goons)
        war(state, n, mobster)
        assert f"attack {need}" in kit.prompt(state).text
        assert defend_ids(state) == ([] if short else [f"defend:g{goons}"])


def test_001_12_2_birdie_brown_attacks_at_7():
    """001:12.2: Birdie Brown (strength 6, +1) attacks at 7: Strength 5 + 2 Goons defends, + 1 Goon does not."""
    assert (R.mobsters[BIRDIE].strength, R.mobsters[BIRDIE].modifier, attack(BIRDIE)) == (6, 1, 7)
    state = board()
    n = districts(state)[0]
    put(state, 0, n)
    kit.give(state, 0, levels={"strength": 5}, goons=2)
    war(state, n, BIRDIE)
    assert "attack 7" in kit.prompt(state).text
    assert defend_ids(state) == ["defend:g2"]
    state = board()
    put(state, 0, n)
    kit.give(state, 0, levels={"strength": 5}, goons=1)
    war(state, n, BIRDIE)
    assert defend_ids(state) == []


def test_001_12_3_newcomers_get_stronger_each_act():
    """001:12.3: the attacks are 6-8 in deck B (after Act 1), 8-10 in C, 10-12 in D, and a whole game's newcomers
    attack within their Act's range."""
    ranges = {"B": (6, 8), "C": (8, 10), "D": (10, 12)}
    for letter, (lo, hi) in ranges.items():
        attacks = [attack(m.id) for m in R.mobsters if m.deck == letter]
        assert (min(attacks), max(attacks)) == (lo, hi)
    starts, _state, _events = play_game(4)
    for act, letter in ((1, "B"), (2, "C"), (3, "D")):
        lo, hi = ranges[letter]
        assert all(lo <= attack(m) <= hi for m in arrivals(starts[act], starts[act + 1]))


# --- Defending a building (001:13.1-001:17.2) -----------------------------------------------------------------------


def test_001_13_1_the_owner_is_asked_defend_or_not():
    """001:13.1 Defending a building: the owner (not the Mobsters, not another player) is asked, with Defend
    options and "Do not defend"; another seat's answer is refused."""
    state = board()
    n = districts(state)[0]
    put(state, 1, n)
    kit.give(state, 1, levels={"strength": 5}, goons=3)
    war(state, n, BIRDIE)
    p = kit.prompt(state)
    assert (p.seat, p.kind) == (1, "defend")
    assert kit.ids(state) == ["defend:g2", "lose"]
    assert kit.refuse(state, Choice(0, "defend", "lose"))


def test_001_14_1_defence_asked_in_turn_order_building_by_building():
    """001:14.1, design §12: the owners are asked in Turn Order track order, each building by building in space
    order."""
    state = board(4)
    n = districts(state, "Downtown")[0]
    put(state, 2, n)  # space 0
    put(state, 0, n)  # space 1
    put(state, 2, n, "nightclub")  # space 2
    state.track = [3, 2, 1, 0]  # not seat order: seat 2 before seat 0
    war(state, n, BIRDIE)
    asked = []
    while not kit.is_waiting(state):
        asked.append((kit.prompt(state).seat, state.tasks[-1].m))
        kit.answer(state, "lose")
    assert asked == [(2, 0), (2, 2), (0, 1)]
    kit.ok(state)


def test_001_14_2_strength_5_and_2_goons_defend_at_7():
    """001:14.2: defence = Strength value + 1 per Goon returned: Strength 5 + 2 Goons = 7 holds against Birdie
    Brown; exactly 2 Goons are returned."""
    state = board()
    n = districts(state)[0]
    put(state, 0, n)
    kit.give(state, 0, levels={"strength": 5}, goons=4)
    war(state, n, BIRDIE)
    assert defend_ids(state) == ["defend:g2"]
    kit.answer(state, "defend:g2")
    assert state.player(0).goons == 2 and state.districts[n - 1].spaces[0].building is not None
    kit.ok(state)


def test_001_14_2_strength_and_associate_defend_at_7():
    """001:14.2, design §9.2: Strength 3 + an Associate of strength 4 (outside its Zone) = 7 holds against Birdie
    Brown without Goons; the fee (its strength, $4) is paid."""
    state = board()
    yale = mob("Frankie Yale")  # strength 4, +2
    zone = R.district(where(state, yale)).zone
    n = next(x for x in districts(state) if R.district(x).zone != zone)
    put(state, 0, n)
    kit.give(state, 0, levels={"strength": 3}, associate=yale, pocket=10)
    war(state, n, BIRDIE)
    assert defend_ids(state) == ["defend:ag0"]
    assert "pay the Associate $4" in kit.labels(state)[0]
    kit.answer(state, "defend:ag0")
    assert state.player(0).pocket == 6 and state.districts[n - 1].spaces[0].building is not None
    kit.ok(state)


def test_001_14_2_tommy_guns_and_the_associate_zone_bonus_count():
    """001:14.2 "(plus Crate and Associate bonuses)", design §9.2, §12: Tommy Guns adds 1; an Associate adds its
    modifier for a building in its own Zone (Strength 1 + Frankie Yale 4 + 2 = 7 there, 5 elsewhere)."""
    state = board()
    n = districts(state)[0]
    put(state, 0, n)
    kit.give(state, 0, levels={"strength": 4}, goons=2)
    give_crate(state, 0, "Tommy Guns")
    war(state, n, DIAMOND)  # 8 = 4 + 1 + 3 Goons: one Goon short
    assert defend_ids(state) == []
    state = board()
    put(state, 0, n)
    kit.give(state, 0, levels={"strength": 4}, goons=3)
    give_crate(state, 0, "Tommy Guns")
    war(state, n, DIAMOND)
    assert defend_ids(state) == ["defend:g3"]
    yale = mob("Frankie Yale")
    for inside, expected in ((True, ["defend:ag0"]), (False, [])):
        state = board()
        zone = R.district(where(state, yale)).zone
        x = next(d for d in districts(state) if (R.district(d).zone == zone) == inside)
        put(state, 0, x)
        kit.give(state, 0, levels={"strength": 1}, associate=yale, pocket=10)
        war(state, x, BIRDIE)
        assert defend_ids(state) == expected, (inside, zone, x)


def test_001_14_3_goons_count_for_one_building_only():
    """001:14.3: Goons returned for one building are gone for the next: 2 Goons save the first Speakeasy, the
    second can no longer be defended."""
    state = board()
    n = districts(state, "Midtown")[0]
    put(state, 0, n)
    put(state, 0, n)
    kit.give(state, 0, levels={"strength": 5}, goons=2)
    war(state, n, BIRDIE)
    kit.answer(state, "defend:g2")
    assert state.player(0).goons == 0
    assert state.tasks[-1].m == 1 and kit.ids(state) == ["lose"]
    kit.answer(state, "lose")
    d = state.districts[n - 1]
    assert d.spaces[0].building is not None and d.spaces[1].building is None
    kit.ok(state)


def test_001_14_3_the_associate_serves_each_building_and_is_paid_each_time():
    """001:14.3, design §9.2: the Associate may be added to each building defended, its fee paid each time."""
    state = board()
    yale = mob("Frankie Yale")
    zone = R.district(where(state, yale)).zone
    n = next(x for x in districts(state) if R.district(x).zone != zone and len(state.districts[x - 1].spaces) == 3)
    for _ in range(3):
        put(state, 0, n)
    kit.give(state, 0, levels={"strength": 3}, associate=yale, pocket=10, safe=0)
    war(state, n, BIRDIE)
    kit.answer(state, "defend:ag0")
    assert state.player(0).pocket == 6
    kit.answer(state, "defend:ag0")
    assert state.player(0).pocket == 2
    assert kit.ids(state) == ["lose"]  # $2 left: the third fee cannot be paid
    kit.answer(state, "lose")
    assert [sp.building is not None for sp in state.districts[n - 1].spaces] == [True, True, False]
    kit.ok(state)


def test_001_14_4_equal_defence_is_enough_one_less_is_not():
    """001:14.4: defence equal to the attack is enough; one less is not (Jack "Legs" Diamond, 8)."""
    for goons, offered in ((3, ["defend:g3"]), (2, [])):
        state = board()
        n = districts(state)[0]
        put(state, 0, n)
        kit.give(state, 0, levels={"strength": 5}, goons=goons)
        war(state, n, DIAMOND)
        assert defend_ids(state) == offered


def test_001_15_1_a_defended_building_stays():
    """001:15.1: a defended building stays on its space with its barrel and Family Member; no Mobster Speakeasy
    goes there."""
    state = board()
    n = districts(state)[0]
    put(state, 0, n, "nightclub", family=True, barrel=True)
    kit.give(state, 0, levels={"strength": 5}, goons=2)
    war(state, n, BIRDIE)
    kit.answer(state, "defend:g2")
    sp = state.districts[n - 1].spaces[0]
    assert (sp.building.kind, sp.building.barrel, sp.building.family, sp.mobster) == ("nightclub", True, True, False)
    assert state.player(0).lost_buildings == {} and state.war_stats == [[1, 0]]
    kit.ok(state)


def test_001_16_1_defence_6_is_not_offered_and_the_building_falls():
    """001:16.1, 001:14.4: with defence 6 against Birdie Brown "Defend" is not offered; the building leaves the
    game (not back to the row) and a Mobster Speakeasy takes the space."""
    state = board()
    n = districts(state)[0]
    put(state, 0, n)
    kit.give(state, 0, levels={"strength": 5}, goons=1)
    row = list(state.player(0).rows["speakeasy"])
    war(state, n, BIRDIE)
    assert kit.ids(state) == ["lose"]
    kit.answer(state, "lose")
    sp = state.districts[n - 1].spaces[0]
    assert sp.building is None and sp.mobster
    assert state.player(0).lost_buildings == {"speakeasy": 1} and state.player(0).rows["speakeasy"] == row
    assert state.player(0).goons == 1 and state.war_stats == [[1, 1]]
    kit.ok(state)


def test_001_16_1_the_family_member_and_barrel_leave_with_the_building():
    """001:16.1, design §6.5: a Protected building gets no defence from its Family Member; lost, it leaves with
    its Family Member (out of the game, not to the supply) and its barrel."""
    state = board()
    n = districts(state)[0]
    put(state, 0, n, "casino", family=True, barrel=True)
    kit.give(state, 0, levels={"strength": 5}, goons=1, stills_barrels=2)
    supply = state.player(0).family_supply
    war(state, n, BIRDIE)
    assert kit.ids(state) == ["lose"]
    kit.answer(state, "lose")
    p = state.player(0)
    assert (p.lost_family, p.family_supply) == (1, supply)
    assert p.stills_barrels == 2  # only a lost Stills empties the Stills area
    assert not any(sp.building for sp in state.districts[n - 1].spaces)
    kit.ok(state)


def test_001_16_1_a_player_may_choose_not_to_defend():
    """001:16.1 "do not": declining a defence that could be made loses the building and keeps the Goons."""
    state = board()
    n = districts(state)[0]
    put(state, 0, n)
    kit.give(state, 0, levels={"strength": 5}, goons=2)
    war(state, n, BIRDIE)
    kit.answer(state, "lose")
    assert state.player(0).goons == 2 and state.districts[n - 1].spaces[0].mobster
    kit.ok(state)


def test_001_16_1_a_lost_stills_empties_the_stills_area():
    """001:16.1: losing the Stills returns the barrels on the Stills area to the supply."""
    state = board()
    n = districts(state)[0]
    put(state, 0, n, "stills")
    kit.give(state, 0, stills_barrels=4)
    war(state, n, BIRDIE)
    kit.answer(state, "lose")
    assert state.player(0).stills_barrels == 0 and state.player(0).lost_buildings == {"stills": 1}
    kit.ok(state)


def test_001_17_1_a_mobster_without_speakeasy_leaves_the_game():
    """001:17.1, design §9.2: a full district whose buildings are all defended: the Mobster placed no Speakeasy,
    so its tile leaves the game (it can no longer be hired) and its Strength tile is flipped face down."""
    state = board()
    n = next(x for x in districts(state) if len(state.districts[x - 1].spaces) == 2)
    put(state, 0, n)
    put(state, 1, n)
    for seat in (0, 1):
        kit.give(state, seat, levels={"strength": 5}, goons=2)
    war(state, n, BIRDIE)
    kit.answer(state, "defend:g2")
    kit.answer(state, "defend:g2")
    d = state.districts[n - 1]
    assert d.mobster is None and BIRDIE in state.mobster_gone and d.strength_down
    assert kit.GAME.view(state, None)["districts"][n - 1]["strength"] is None
    assert not any(sp.mobster for sp in d.spaces)
    kit.task(state, "hire_associate", 2)
    assert f"mobster:{BIRDIE}" not in kit.ids(state)
    state.tasks.clear()
    kit.ok(state)


def test_001_17_1_a_fallen_building_gives_the_mobster_its_speakeasy():
    """001:17.1: in a full district where one building falls, the Mobster Speakeasy on its space keeps the
    Mobster on the board."""
    state = board()
    n = next(x for x in districts(state) if len(state.districts[x - 1].spaces) == 2)
    put(state, 0, n)
    put(state, 1, n)
    kit.give(state, 0, levels={"strength": 5}, goons=2)
    war(state, n, BIRDIE)
    kit.answer(state, "defend:g2")
    kit.answer(state, "lose")
    d = state.districts[n - 1]
    assert d.mobster == BIRDIE and not d.strength_down and BIRDIE not in state.mobster_gone
    kit.ok(state)


def test_001_17_2_earlier_mobsters_stay_and_never_attack_again():
    """001:17.2: in the war after Act 2, the Setup Mobsters and the Act-1 Mobsters stay on the board, even without
    any Mobster Speakeasy, and never attack: only the new war district's buildings are asked."""
    state = board()
    old_war = districts(state)[0]
    war(state, old_war, BIRDIE)  # Act 1's war: an empty district, 3 Mobster Speakeasies
    setup_mobsters = {d.number: d.mobster for d in state.districts if d.mobster is not None}
    for sp in state.districts[old_war - 1].spaces:
        sp.mobster = False  # all its Speakeasies taken over since
    put(state, 0, old_war)
    setup_district = next(n for n, m in setup_mobsters.items() if n != old_war)
    put(state, 1, setup_district)
    new_war = districts(state, "Uptown")[0]
    put(state, 2, new_war)
    state.act = 2
    state.war_stats.append([0, 0])
    state.districts[new_war - 1].war_tile = True
    asked = []
    luciano_alone(state, lambda s: asked.append((kit.prompt(s).seat, s.tasks[-1].n)) or "lose")
    assert asked == [(2, new_war)]
    assert all(state.districts[n - 1].mobster == m for n, m in setup_mobsters.items())
    assert state.districts[old_war - 1].spaces[0].building is not None
    assert state.districts[setup_district - 1].spaces[0].building is not None
    kit.ok(state)


# --- Prepare the next Mob War (001:18.1-001:19.2) ---------------------------------------------------------------------


def test_001_18_1_the_war_ends_by_preparing_the_next():
    """001:18.1 Prepare the next Mob War: the end of the war lays the next war's tiles and says where it will be."""
    state = kit.paused(3)
    stack = list(state.war_stacks[0])
    log, _deck = luciano_alone(state)
    text = next(e.text for e in log if e.text.startswith("The next Mob War will come to"))
    assert all(R.district(n).name in text for n in stack)
    kit.ok(state)


@pytest.mark.parametrize(("players", "sizes"), [(2, [2, 3]), (3, [3, 4]), (4, [3, 4])])
def test_001_19_1_next_war_tiles_on_the_gun_spaces_3_then_4(players, sizes):
    """001:19.1: after Act 1 the Time track's stack of 3 (2 with two players) lies face down on its districts' gun
    spaces, after Act 2 the stack of 4 (3); after Act 3 nothing is left."""
    starts, _state, _events = play_game(players)
    first = starts[1]
    assert [len(s) for s in first.war_stacks] == sizes
    for act, stack in ((2, first.war_stacks[0]), (3, first.war_stacks[1])):
        assert {d.number for d in starts[act].districts if d.war_tile} == set(stack)
    assert starts[3].war_stacks == [[], []]
    assert not any(d.war_tile for d in starts[4].districts)


def test_001_19_2_the_next_war_districts_are_public():
    """001:19.2: every seat and spectators see which districts hold the next war's tiles, and the Time track's
    stack sizes."""
    state = kit.paused(3)
    luciano_alone(state)
    wars = [d.number for d in state.districts if d.war_tile]
    for seat in (None, 0, 2):
        v = kit.GAME.view(state, seat)
        assert [x["number"] for x in v["districts"] if x["war_tile"]] == wars
        assert v["war_stacks"] == [0, 4]


# --- Cops Patrol Manhattan (001:20.1-001:23.1) ------------------------------------------------------------------------


def test_001_20_1_cops_patrol_after_the_mob_war():
    """001:20.1 Cops Patrol Manhattan: the Cops step runs after the war's end and before the payout, and is
    logged."""
    state = kit.paused(3)
    log, _deck = luciano_alone(state)
    kinds = [e.kind for e in log]
    texts = [e.text for e in log]
    cops = kinds.index("cops")
    assert max(i for i, k in enumerate(kinds) if k == "war") < cops
    assert cops < min(i for i, t in enumerate(texts) if "controlled by" in t)
    assert texts[cops].startswith("Cops arrive in")


def test_001_21_1_cop_tiles_become_cops():
    """001:21.1: every face-down Cop District tile is replaced by a Cop; the tile is out of play (the Cop stands
    for it)."""
    state = kit.paused(3)
    tiles = [d.number for d in state.districts if d.cop_tile]
    cops = [d.number for d in state.districts if d.cop]
    kit.task(state, "cops", -1)
    assert sorted(d.number for d in state.districts if d.cop) == sorted(tiles + cops)
    assert not any(d.cop_tile for d in state.districts if d.number in tiles)
    kit.ok(state)


def test_001_22_1_after_acts_1_and_2_the_next_four_come_face_down():
    """001:22.1: after Act 1 the first Time-track stack of four Cop tiles lies face down on its districts, after
    Act 2 the second; after Act 3 no tile is laid."""
    for act in (1, 2, 3):
        state = kit.paused(3)
        state.act = act
        stacks = [list(s) for s in state.cop_stacks]
        kit.task(state, "cops", -1)
        tiles = sorted(d.number for d in state.districts if d.cop_tile)
        if act < 3:
            assert tiles == sorted(stacks[act - 1]) and state.cop_stacks[act - 1] == []
        else:
            assert tiles == [] and state.cop_stacks == stacks
        kit.ok(state)


def test_001_22_1_a_tile_for_a_district_with_a_cop_is_boxed():
    """001:22.1, design §12: a stack tile whose district already holds a Cop, or gets one in this patrol, is
    boxed (the Informant can move face-down tiles there)."""
    state = kit.paused(3)
    stack = list(state.cop_stacks[0])
    t1, t2 = [d for d in state.districts if d.cop_tile][:2]
    t1.cop_tile = False
    state.districts[stack[0] - 1].cop_tile = True  # moved there by an Informant: a Cop in this patrol
    t2.cop_tile = False
    state.districts[stack[1] - 1].cop = True  # moved there earlier: already a Cop
    kit.task(state, "cops", -1)
    assert state.districts[stack[0] - 1].cop and not state.districts[stack[0] - 1].cop_tile
    assert not state.districts[stack[1] - 1].cop_tile
    assert state.box["cop_tiles"][-2:] == stack[:2]
    assert sorted(d.number for d in state.districts if d.cop_tile) == sorted(stack[2:])
    kit.ok(state)


def test_001_23_1_a_cop_leaves_the_barrel_but_stops_the_building():
    """001:23.1, design §6.5: a Cop arriving beside a building with a barrel leaves the barrel; the building stops
    operating (no control) until protected."""
    state = board()
    n = districts(state)[0]
    d = state.districts[n - 1]
    d.cop_tile = True
    state.box["cop_tiles"].pop()
    put(state, 0, n, "speakeasy", barrel=True)
    b = d.spaces[0].building
    kit.task(state, "cops", -1)
    assert d.cop and b.barrel and not operating(d, b)
    assert not kit.GAME.view(state, 0)["districts"][n - 1]["spaces"][0]["building"]["operating"]
    assert luciano.controllers(state, d) == []
    state.player(0).family_supply -= 1
    b.family = True
    assert operating(d, b) and luciano.controllers(state, d) == [0]
    kit.ok(state)


# --- Payout Zone Control (001:24.1-001:30.3) ----------------------------------------------------------------------


def test_001_24_1_payout_is_the_last_step():
    """001:24.1 Payout Zone Control: the payout runs after the Cops: a Cop that arrives in this phase already
    denies control to an unprotected building."""
    state = board()
    n = districts(state)[0]
    state.districts[n - 1].cop_tile = True
    state.box["cop_tiles"].pop()
    put(state, 0, n, "casino")
    luciano_alone(state)
    assert state.player(0).zone_markers == [0, 0, 0]
    kit.ok(state)


def test_001_25_1_markers_reset_to_the_bottom():
    """001:25.1: all Zone Control markers (players' and Mobsters') start from the bottom: old positions do not
    carry over."""
    state = board()
    for p in state.players:
        p.zone_markers = [3, 2, 1]
    state.mobster_markers = [2, 2, 2]
    put(state, 1, zone(state, "Midtown")[0])
    payout(state)
    assert markers(state) == [[0, 0, 0], [0, 1, 0], [0, 0, 0]]
    assert state.mobster_markers == [0, 0, 0]
    kit.ok(state)


def test_001_25_2_districts_checked_in_number_order():
    """001:25.2: the control check goes district by district in number order."""
    state = board()
    up, mid, down = zone(state, "Uptown")[-1], zone(state, "Midtown")[0], zone(state, "Downtown")[0]
    put(state, 0, up)
    speakeasy_of_mobsters(state, mid)
    put(state, 2, down, "stills")
    log = kit.task(state, "payout", -1)
    named = [e.text.split(":")[0] for e in log if "controlled by" in e.text]
    assert named == [R.district(x).name for x in (down, mid, up)]


def test_001_26_1_a_family_member_beats_any_building():
    """001:26.1, 001:30.1: a protected Stills controls against an unprotected Casino (no Cop)."""
    state = board()
    n = districts(state)[0]
    put(state, 0, n, "stills", family=True)
    put(state, 1, n, "casino")
    assert luciano.controllers(state, state.districts[n - 1]) == [0]
    payout(state)
    assert state.player(0).zone_markers[ZONES.index(R.district(n).zone)] == 1
    assert state.player(1).zone_markers == [0, 0, 0]
    kit.ok(state)


def test_001_26_1_the_best_protected_building_controls_ties_share():
    """001:26.1: among protected buildings the best controls; equal best protected buildings share control."""
    state = board()
    a, b = zone(state, "Downtown")[:2]
    put(state, 0, a, "speakeasy", family=True)
    put(state, 1, a, "nightclub", family=True)
    put(state, 2, a, "casino")
    put(state, 0, b, "nightclub", family=True)
    put(state, 1, b, "nightclub", family=True)
    assert luciano.controllers(state, state.districts[a - 1]) == [1]
    assert luciano.controllers(state, state.districts[b - 1]) == [0, 1]
    add_cop(state, b)
    assert luciano.controllers(state, state.districts[b - 1]) == [0, 1]


def test_001_27_1_no_cop_no_family_the_best_building_controls():
    """001:27.1: without Cop and Family Member the best building controls; equal best buildings share; with a Cop
    an unprotected building does not control."""
    state = board()
    a, b, c = zone(state, "Downtown")[:3]
    put(state, 0, a, "speakeasy")
    put(state, 1, a, "nightclub")
    put(state, 0, b, "casino")
    put(state, 2, b, "casino")
    put(state, 1, c, "casino")
    add_cop(state, c)
    assert luciano.controllers(state, state.districts[a - 1]) == [1]
    assert luciano.controllers(state, state.districts[b - 1]) == [0, 2]
    assert luciano.controllers(state, state.districts[c - 1]) == []
    payout(state)
    assert markers(state) == [[1, 0, 0], [1, 0, 0], [1, 0, 0]]
    kit.ok(state)


def test_001_28_1_mobsters_control_when_no_player_building_operates():
    """001:28.1: with a Cop, no protected building and Mobster Speakeasies, the Mobsters control (Cops do not
    affect them); their marker moves up."""
    state = board()
    n = zone(state, "Midtown")[0]
    put(state, 0, n, "casino")
    speakeasy_of_mobsters(state, n)
    add_cop(state, n)
    assert luciano.controllers(state, state.districts[n - 1]) == [-1]
    payout(state)
    assert state.mobster_markers == [0, 1, 0] and state.player(0).zone_markers == [0, 0, 0]
    kit.ok(state)


def test_001_28_1_any_operating_building_beats_mobster_speakeasies():
    """001:28.1, 001:30.1: a single Operating Stills controls a district full of Mobster Speakeasies (no Cop)."""
    state = board()
    n = zone(state, "Downtown")[0]
    put(state, 2, n, "stills")
    speakeasy_of_mobsters(state, n)
    speakeasy_of_mobsters(state, n)
    assert luciano.controllers(state, state.districts[n - 1]) == [2]


def test_001_29_1_otherwise_nobody_controls():
    """001:29.1: a Cop district with only an unprotected building and no Mobster Speakeasy, and an empty district,
    are controlled by nobody; a blocked district of the 1-2 side too."""
    state = board()
    a, b = zone(state, "Uptown")[:2]
    put(state, 0, a, "casino")
    add_cop(state, a)
    assert luciano.controllers(state, state.districts[a - 1]) == []
    assert luciano.controllers(state, state.districts[b - 1]) == []
    assert payout(state) == [0, 0, 0] and markers(state) == [[0, 0, 0]] * 3 and state.mobster_markers == [0, 0, 0]
    small = board(2)
    blocked = next(d for d in small.districts if not d.spaces)
    assert luciano.controllers(small, blocked) == []


@pytest.mark.parametrize(("low", "high"), list(itertools.combinations(BUILDING_KINDS, 2)))
def test_001_30_1_hierarchy_of_buildings(low, high):
    """001:30.1: Casino > Nightclub > Speakeasy > Stills between Operating buildings; a Family Member on the lower
    one turns it around."""
    order = ["stills", "speakeasy", "nightclub", "casino"]
    low, high = sorted((low, high), key=order.index)
    state = board()
    n = zone(state, "Downtown")[0]
    put(state, 0, n, low)
    put(state, 1, n, high)
    assert luciano.controllers(state, state.districts[n - 1]) == [1]
    state.districts[n - 1].spaces[0].building.family = True
    state.player(0).family_supply -= 1
    assert luciano.controllers(state, state.districts[n - 1]) == [0]
    kit.ok(state)


def test_001_30_2_only_the_best_building_counts_not_the_number():
    """001:30.2: three Speakeasies lose to one Nightclub; two Speakeasies tie with one."""
    state = board()
    a, b = zone(state, "Downtown")[:2]
    for _ in range(2):
        put(state, 0, a)
    put(state, 1, a, "nightclub")
    put(state, 0, b)
    put(state, 0, b)
    put(state, 2, b)
    assert luciano.controllers(state, state.districts[a - 1]) == [1]
    assert luciano.controllers(state, state.districts[b - 1]) == [0, 2]
    payout(state)
    assert markers(state) == [[1, 0, 0], [1, 0, 0], [1, 0, 0]]
    kit.ok(state)


def test_001_30_3_each_controller_moves_up_one_space():
    """001:30.3: every controller (tied ones each) moves its Zone's marker up one space per district; the
    Mobsters' marker too."""
    state = board()
    down = zone(state, "Downtown")
    up = zone(state, "Uptown")
    put(state, 0, down[0])
    put(state, 0, down[1])
    put(state, 0, up[0])
    put(state, 1, up[0])
    speakeasy_of_mobsters(state, up[1])
    payout(state)
    assert markers(state) == [[2, 0, 1], [0, 0, 1], [0, 0, 0]]
    assert state.mobster_markers == [0, 0, 1]
    kit.ok(state)


# --- Lucky Luciano payout (001:31.1-001:34.2) -----------------------------------------------------------------------


def test_001_31_1_lucky_luciano_payout_is_logged():
    """001:31.1 Lucky Luciano payout: each paid player's place and amount is logged, and counted as Zone income."""
    state = board()
    put(state, 0, zone(state, "Uptown")[0])
    log = kit.task(state, "payout", -1)
    assert "Uptown: P1 is 1st and puts $45 in the safe." in [e.text for e in log]
    assert state.player(0).income.get("zones") == 45


def test_001_32_1_paid_to_the_safe_by_rank():
    """001:32.1: highest marker 1st, next 2nd, next 3rd (3-4 side Uptown $45/$35/$25), to the safe only."""
    state = board(4)
    up = zone(state, "Uptown")
    for seat, count in ((2, 3), (0, 2), (3, 1)):
        for _ in range(count):
            put(state, seat, up.pop(0))
    pockets = [p.pocket for p in state.players]
    assert payout(state) == [35, 0, 45, 25]
    assert [p.pocket for p in state.players] == pockets
    kit.ok(state)


def test_001_32_2_the_mobster_marker_ranks_but_is_not_paid():
    """001:32.2: Mobsters controlling 2 Midtown districts rank 1st; the player with 1 is 2nd ($15); the 1st
    place's $25 is paid to nobody."""
    state = board()
    mid = zone(state, "Midtown")
    speakeasy_of_mobsters(state, mid[0])
    speakeasy_of_mobsters(state, mid[1])
    put(state, 1, mid[2])
    assert payout(state) == [0, 15, 0]
    assert state.mobster_markers[ZONES.index("Midtown")] == 2
    kit.ok(state)


def test_001_32_3_two_players_tied_first_both_get_second_place():
    """001:32.3: two players tied for first in Uptown are both paid the 2nd place's $35."""
    state = board()
    up = zone(state, "Uptown")
    put(state, 0, up[0])
    put(state, 2, up[1])
    assert payout(state) == [35, 0, 35]
    kit.ok(state)


def test_001_32_3_a_marker_beside_the_mobsters_gets_the_lower_amount():
    """001:32.3, 001:33.1: a player whose marker shares its space with the Mobster marker gets the lower position's
    amount (Uptown 2nd: $35); below them a 3rd player gets the 3rd place's $25."""
    state = board()
    up = zone(state, "Uptown")
    put(state, 0, up[0])
    put(state, 0, up[1])
    speakeasy_of_mobsters(state, up[2])
    speakeasy_of_mobsters(state, up[3])
    put(state, 1, up[4])
    assert payout(state) == [35, 25, 0]
    kit.ok(state)


def test_001_32_4_no_district_in_a_zone_no_pay():
    """001:32.4: a player who controls nothing in a Zone gets nothing there, though every other player is paid
    (Uptown: three players and the Mobsters tied, 4th place $20 each)."""
    state = board(4)
    up = zone(state, "Uptown")
    for seat in (0, 1, 2):
        put(state, seat, up[seat])
    speakeasy_of_mobsters(state, up[3])
    assert payout(state) == [20, 20, 20, 0]
    assert state.player(3).income.get("zones", 0) == 0
    kit.ok(state)


def test_001_33_1_quick_count_equals_the_ranking():
    """001:33.1, 001:32.3: position = markers on one's space and above (the Mobsters' and one's own included) is
    the lowest of the places a player shares in the ranking, for every marker layout of 4 players."""
    for layout in itertools.product(range(4), repeat=5):
        players, mobster = list(layout[:4]), layout[4]
        ranking = sorted([*players, mobster], reverse=True)
        expected = [max(i + 1 for i, m in enumerate(ranking) if m == mine) for mine in players]
        assert luciano.positions(players, mobster) == expected


def test_001_33_1_quick_count_in_a_payout():
    """001:33.1: markers 2 (seat 0), 1 (seat 1 and the Mobsters), 1 (seat 2): seat 0 counts 1 marker (1st,
    Downtown $35); seats 1 and 2 count 4 (4th, $10)."""
    state = board()
    down = zone(state, "Downtown")
    put(state, 0, down[0])
    put(state, 0, down[1])
    put(state, 1, down[2])
    put(state, 2, down[3])
    speakeasy_of_mobsters(state, down[4])
    assert payout(state) == [35, 10, 10]
    kit.ok(state)


def test_001_34_1_midtown_and_uptown_charts_3_4_players():
    """001:34.1: the 3-4 side pays Midtown $25/$15/$10/$5/$0 and Uptown $45/$35/$25/$20/$15; all five markers tied
    on one space pay each player the 5th place ($0 Midtown, $15 Uptown)."""
    sides = R.sides["large"].zone_payouts
    assert list(sides[ZONES.index("Midtown")]) == [25, 15, 10, 5, 0]
    assert list(sides[ZONES.index("Uptown")]) == [45, 35, 25, 20, 15]
    state = board(4)
    mid, up = zone(state, "Midtown"), zone(state, "Uptown")
    for seat in range(4):
        put(state, seat, mid[seat])
        put(state, seat, up[seat])
    speakeasy_of_mobsters(state, mid[4])
    speakeasy_of_mobsters(state, up[4])
    assert payout(state) == [15, 15, 15, 15]
    state = board(4)
    mid = zone(state, "Midtown")
    put(state, 0, mid[0])
    put(state, 0, mid[1])
    put(state, 1, mid[2])
    speakeasy_of_mobsters(state, mid[3])
    put(state, 2, mid[4])
    assert payout(state) == [25, 5, 5, 0]  # seat 1, seat 2 and the Mobsters share 2nd-4th: the 4th's $5
    kit.ok(state)


def test_001_34_2_downtown_and_the_small_side_from_the_board():
    """001:34.2, design §13: Downtown on the 3-4 side pays $35/$25/$15/$10/$5; the 1-2 side pays Downtown
    $30/$20/$10, Midtown $20/$10/$5, Uptown $40/$25/$15 (read from the data)."""
    assert list(R.sides["large"].zone_payouts[0]) == [35, 25, 15, 10, 5]
    small = R.sides["small"].zone_payouts
    assert [list(z) for z in small] == [[30, 20, 10], [20, 10, 5], [40, 25, 15]]
    state = board(2)
    assert state.side == "small"
    down, mid, up = (zone(state, z) for z in ZONES)
    put(state, 0, down[0])
    put(state, 0, down[1])
    put(state, 1, down[2])  # Downtown: 1st $30, 2nd $20
    put(state, 0, mid[0])
    put(state, 1, mid[1])
    speakeasy_of_mobsters(state, mid[2])  # Midtown: all three tied, 3rd $5 each
    put(state, 1, up[0])  # Uptown: 1st $40
    assert payout(state) == [30 + 5, 20 + 5 + 40]
    kit.ok(state)


def test_001_34_2_the_payout_chart_follows_the_board_side():
    """001:34.2: one Uptown district alone pays the 1st place of the side's chart: $45 with 3 players, $40 with 2."""
    for players, amount in ((3, 45), (2, 40)):
        state = board(players)
        put(state, 0, zone(state, "Uptown")[0])
        assert payout(state)[0] == amount
