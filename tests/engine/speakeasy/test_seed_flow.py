"""Speakeasy game flow: seed 000 section 3 (000:22.1-000:35.1) and design §8.2-§8.3 (turn order, Casino payout).

Complete games (engine II): Acts 1-4 with the Lucky Luciano phase after Acts 1-3 and the final scoring after
Act 4. The phase's own rules (seed 001) are tested in ``test_seed_luciano.py``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import pytest

from engine.core import Choice
from engine.speakeasy import luciano
from engine.speakeasy.components import TRACKS
from engine.speakeasy.flow import advance, begin_turn
from tests.engine.speakeasy import kit

R = kit.R()


# --- helpers ------------------------------------------------------------------------------------------------------


def current(state) -> int:
    return kit.prompt(state).seat


def turn(state, place: str = "first", draw: bool = True) -> int:
    """Play the open turn: no Helper, the Capo on ``place``, every later step skipped (or its first option),
    then (if ``draw``) the first offered draw. Returns the seat."""
    seat = current(state)
    if kit.prompt(state).kind == "helper_use":
        kit.answer(state, "skip")
    assert kit.prompt(state).kind == "place"
    kit.answer(state, place)
    while True:
        p = kit.prompt(state)
        assert p.seat == seat, (p.kind, p.seat, seat)
        ids = kit.ids(state)
        if p.kind == "draw":
            if draw:
                kit.answer(state, ids[0])
            return seat
        kit.answer(state, "skip" if "skip" in ids else ids[0])


PLACES = ("park:", "booth:", "person:", "first")


def answer_default(state, k: int = 0) -> list:
    """Answer the open prompt: decline if possible, else the first option; a Capo goes to the ``k``-th location
    kind of ``PLACES`` (in rotation) that is offered. Returns the events."""
    p = kit.prompt(state)
    ids = [o.id for o in p.options]
    pick = "skip" if "skip" in ids else ids[0]
    if p.kind == "place":
        kinds = PLACES[k % len(PLACES) :] + PLACES[: k % len(PLACES)]
        pick = next(i for pre in kinds for i in ids if i.startswith(pre))
    return kit.GAME.apply(state, Choice(p.seat, p.kind, pick))


def copy(state):
    return kit.GAME.loads(kit.GAME.dumps(state))


def last_draw(state) -> bool:
    """Whether the open prompt is the last draw of the Act (answering it ends the Act)."""
    return (
        state.phase == "play"
        and kit.prompt(state).kind == "draw"
        and state.round == R.tracks.capos_per_act[state.act - 1]
        and state.turn == len(state.order) - 1
    )


@dataclass
class Game:
    """A whole game played with ``answer_default``: the states at each Act's first turn (``starts``) and at its last
    prompt once every Capo is placed (``ends``), the events from Act 1's first round on, each round's (act, round,
    track) and each prompt's (act, phase, kind, seat, Capos on the seat's board)."""

    state: object
    events: list
    starts: dict
    ends: dict
    rounds: list
    asked: list


def play_game(players: int = 3, seed: int = 1) -> Game:
    state = kit.new(players, seed)
    setup = kit.setup_round(state)
    first = next(i for i, e in enumerate(setup) if e.kind == "round")
    g = Game(state, setup[first:], {1: copy(state)}, {}, [(1, 1, list(state.track))], [])
    k = 0
    while state.phase != "over":
        p = kit.prompt(state)
        g.asked.append((state.act, state.phase, p.kind, p.seat, state.player(p.seat).capos))
        if state.phase == "play" and all(q.capos == 0 for q in state.players):
            g.ends[state.act] = copy(state)  # the Act's last turn, its Capo placed
        act = state.act
        k += p.kind == "place"
        events = answer_default(state, k)
        g.events += events
        if any(e.kind == "round" for e in events):
            g.rounds.append((state.act, state.round, list(state.track)))
        if state.act != act and state.phase == "play":
            g.starts[state.act] = copy(state)
    return g


def at_locations(state, seat: int) -> int:
    """The seat's Capos at the locations (Persons, booths, first place, Park)."""
    return (
        list(state.persons.values()).count(seat)
        + state.booths.count(seat)
        + state.first_place.count(seat)
        + state.park.count(seat)
    )


def clear_map(state) -> None:
    """Empty the map: every player building back to its row (with its Family Member to the supply), no Mobster
    Speakeasy, Cop, Cop tile or war tile (the Cop tiles to the box); the Mobster tiles stay."""
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


def open_districts(state, zone: str) -> list[int]:
    """The open districts of a Zone without a Mobster tile, lowest first."""
    return [d.number for d in state.districts if d.spaces and d.mobster is None and R.district(d.number).zone == zone]


def put(state, seat: int, number: int, kind: str = "speakeasy", family: bool = False, **kw) -> int:
    """Build ``kind`` for ``seat`` on the first free space of district ``number``; returns the space index."""
    i = kit.empty_space(state, number)
    if family:
        state.player(seat).family_supply -= 1
    kit.build(state, seat, number, i, kind, family=family, **kw)
    return i


def add_cop(state, number: int) -> None:
    """A Cop in district ``number`` (a Cop District tile taken out of the box for it)."""
    box = state.box["cop_tiles"]
    box.remove(number if number in box else box[-1])
    state.districts[number - 1].cop = True


def district_with_free_space(state, cop: bool):
    for d in state.districts:
        if d.cop == cop and not d.cop_tile and any(sp.building is None and not sp.mobster for sp in d.spaces):
            return d
    raise AssertionError("no such district")


def start_turn(state, seat: int) -> None:
    """Queue a turn for ``seat`` in a paused game and run it up to its first decision."""
    begin_turn(state, seat, [])
    advance(state, [])


def quiet_district(state):
    """A district with spaces and no Cop, Cop tile, Mobster Speakeasy or building."""
    return next(
        d
        for d in state.districts
        if d.spaces and not d.cop and not d.cop_tile and not any(sp.building or sp.mobster for sp in d.spaces)
    )


def give_helper(state, seat: int, name: str) -> int:
    """Move the Helper called ``name`` from the display or deck to the seat's face-up Helpers."""
    h = next(c.id for c in R.helpers.cards if c.name == name)
    if h in state.helper_display:
        state.helper_display[state.helper_display.index(h)] = state.helper_deck.pop(0)
    else:
        state.helper_deck.remove(h)
    state.player(seat).helpers.append(h)
    return h


# --- 3. Game Flow (000:22.1-000:25.1) -----------------------------------------------------------------------------


def test_000_22_1_after_the_setup_round_act_1_begins():
    """000:22.1 Game Flow: when the Setup Round ends, Act 1's first round starts with the first player's turn."""
    state = kit.new(3)
    events = kit.setup_round(state)
    assert (state.phase, state.act, state.round) == ("play", 1, 1)
    assert kit.prompt(state).seat == state.track[0]
    assert any(e.kind == "act" for e in events)
    kit.ok(state)


def test_000_24_1_four_acts():
    """000:24.1: the game has 4 Acts (Capo rounds per Act in the data); the game starts in Act 1."""
    assert len(R.tracks.capos_per_act) == 4
    assert kit.played(2).act == 1


def test_000_24_2_thirteen_years_1920_to_1933():
    """000:24.2: Setup Round + 11 player rounds + Final Scoring Round = 13 rounds, labelled 1920..1933 (design
    §1.5.5); Act 1 is played as 1921-1924."""
    assert 1 + sum(R.tracks.capos_per_act) + 1 == 13
    assert (R.years["setup"], R.years["final"]) == (1920, 1933)
    state = kit.played(3)
    years = []
    for _ in range(4 * 3):
        if state.turn == 0:
            years.append(state.year)
        turn(state, "first")
    assert years == [1921, 1922, 1923, 1924]
    assert state.year == 1924


def test_000_25_1_an_act_is_player_rounds_then_the_luciano_phase():
    """000:25.1 ACT Structure: each Act is its player rounds; after Acts 1-3 the Lucky Luciano phase follows (its
    prompts are asked in phase "luciano"), then the next Act begins; Act 4's round is followed by the final
    scoring."""
    g = play_game(3)
    marks = []
    for e in g.events:
        if e.kind == "round":
            marks.append("R" + re.match(r"Act (\d), round", e.text).group(1))
        elif e.kind == "phase":
            marks.append("L")
        elif e.kind == "act" and "begins (" in e.text:
            marks.append("A" + re.match(r"Act (\d) begins", e.text).group(1))
        elif e.kind == "final" and "F" not in marks:
            marks.append("F")
    assert marks == ["R1"] * 4 + ["L", "A2"] + ["R2"] * 3 + ["L", "A3"] + ["R3"] * 3 + ["L", "A4", "R4", "F"]
    defences = [(act, phase) for act, phase, kind, _s, _c in g.asked if kind == "defend"]
    assert defences and all(phase == "luciano" for _a, phase in defences)
    assert {kind for _a, phase, kind, _s, _c in g.asked if phase == "luciano"} == {"defend"}
    kit.ok(g.state)


# --- 1. Return Capos (000:26.1-000:26.4) --------------------------------------------------------------------------


def test_000_26_1_act_2_returns_3_capos_and_boxes_1():
    """000:26.1: at the start of Act 2 (1925) the 4 Capos each player placed in Act 1 (on Persons, booths, Lucky's
    table and the Park) come back: 3 to the Operations board, 1 to the box; every Person, booth and Park space is
    free again."""
    t = R.tracks
    assert (t.capos_returned[1], t.capos_boxed[1], R.years["act2"]) == (3, 1, 1925)
    g = play_game(3)
    end, start = g.ends[1], g.starts[2]
    assert all(p.capos == 0 and at_locations(end, s) == 4 for s, p in enumerate(end.players))
    assert (
        end.persons
        and any(x is not None for x in end.booths)
        and end.first_place
        and any(x is not None for x in end.park)
    )
    assert (start.act, start.round, start.year) == (2, 1, 1925)
    assert [(p.capos, p.capos_boxed) for p in start.players] == [(3, 1)] * 3
    assert start.persons == {} and start.first_place == []
    assert all(x is None for x in start.booths + start.park)
    kit.ok(start)


def test_000_26_2_act_3_returns_3_capos():
    """000:26.2: at the start of Act 3 (1928) the 3 Capos placed in Act 2 all return to the board, none boxed;
    the locations are free again."""
    t = R.tracks
    assert (t.capos_returned[2], t.capos_boxed[2], R.years["act3"]) == (3, 0, 1928)
    g = play_game(4)
    end, start = g.ends[2], g.starts[3]
    assert all(p.capos == 0 and at_locations(end, s) == 3 for s, p in enumerate(end.players))
    assert (start.act, start.round, start.year) == (3, 1, 1928)
    assert [(p.capos, p.capos_boxed) for p in start.players] == [(3, 1)] * 4
    assert all(at_locations(start, s) == 0 for s in range(4))
    kit.ok(start)


def test_000_26_3_act_4_returns_1_capo_and_boxes_2():
    """000:26.3: at the start of Act 4 (1931) of the 3 Capos placed in Act 3, 1 returns and 2 go to the box (3
    boxed in all, 1 left for the single round)."""
    t = R.tracks
    assert (t.capos_returned[3], t.capos_boxed[3], R.years["act4"]) == (1, 2, 1931)
    assert t.capos - sum(t.capos_boxed) == t.capos_per_act[3]
    g = play_game(2)
    end, start = g.ends[3], g.starts[4]
    assert all(p.capos == 0 and at_locations(end, s) == 3 for s, p in enumerate(end.players))
    assert (start.act, start.round, start.year) == (4, 1, 1931)
    assert [(p.capos, p.capos_boxed) for p in start.players] == [(1, 3)] * 2
    assert all(at_locations(start, s) == 0 for s in range(2))
    kit.ok(start)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_000_26_4_the_act_goes_on_until_no_capo_is_left(players):
    """000:26.4: in every Act each player places Capos until none is left on the board (4/3/3/1), and the Act
    ends exactly then; after Act 4 nobody is asked anything more."""
    g = play_game(players, seed=players)
    placed = Counter((act, seat) for act, _ph, kind, seat, _c in g.asked if kind == "place")
    assert all(capos > 0 for _a, _ph, kind, _s, capos in g.asked if kind == "place")
    assert placed == {(act, s): n for act, n in enumerate(R.tracks.capos_per_act, 1) for s in range(players)}
    for act, rounds in enumerate(R.tracks.capos_per_act, 1):  # the Act is still on when the last Capo is placed
        end = g.ends[act]
        assert (end.act, end.round, end.phase) == (act, rounds, "play")
        assert all(p.capos == 0 for p in end.players)
    assert kit.GAME.is_over(g.state) and kit.is_waiting(g.state)
    assert all(p.capos == 0 and p.capos_boxed == 3 for p in g.state.players)
    kit.ok(g.state)


# --- 2. Player rounds (000:27.1-000:30.2) -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_000_27_1_rounds_4_3_3_1_each_player_one_turn_in_turn_order(players):
    """000:27.1: the Acts have 4/3/3/1 rounds; in each round every player takes exactly one turn, in the order
    of the Turn Order track at the round's start."""
    g = play_game(players, seed=players)
    turns: list[list[int]] = []
    for e in g.events:
        if e.kind == "round":
            turns.append([])
        elif e.kind == "turn":
            turns[-1].append(e.data["seat"])
    assert [act for act, _r, _t in g.rounds] == [1] * 4 + [2] * 3 + [3] * 3 + [4]
    assert [r for _a, r, _t in g.rounds] == [1, 2, 3, 4, 1, 2, 3, 1, 2, 3, 1]
    assert turns == [track for _a, _r, track in g.rounds]
    assert all(sorted(t) == list(range(players)) for t in turns)
    kit.ok(g.state)


def test_000_27_2_a_turn_is_helper_then_capo_then_draw():
    """000:27.2 On your turn: the turn asks, in order, the optional Helper, the Capo, then the draw."""
    state = kit.paused(3)
    give_helper(state, 0, "Bouncer")
    start_turn(state, 0)
    assert [t.kind for t in reversed(state.tasks)] == ["helper_use", "place", "draw"]
    assert kit.prompt(state).kind == "helper_use"
    kit.answer(state, "skip")
    assert kit.prompt(state).kind == "place"
    kit.answer(state, "park:0")
    kit.answer(state, "reward")
    assert kit.prompt(state).kind == "draw"
    kit.ok(state)


def test_000_28_1_use_one_helper_lower_half_then_it_goes_behind_the_screen():
    """000:28.1: at the start of the turn a face-up Helper's lower half may be used (Bouncer: 2 free Goons); it
    then goes behind the Safe screen, and only one Helper is used per turn."""
    state = kit.paused(3)
    bouncer = give_helper(state, 0, "Bouncer")
    tailor = give_helper(state, 0, "Tailor")
    p = state.player(0)
    start_turn(state, 0)
    assert set(kit.ids(state)) == {f"use:{bouncer}", f"use:{tailor}", "skip"}
    kit.answer(state, f"use:{bouncer}")
    assert p.goons == 3
    assert p.helpers == [tailor] and p.screen == [bouncer]
    assert kit.prompt(state).kind == "place"  # no second Helper
    v = kit.GAME.view(state, 1)["players"][0]
    assert v["screen_count"] == 1 and "screen" not in v
    state.tasks.clear()
    start_turn(state, 0)
    assert set(kit.ids(state)) == {f"use:{tailor}", "skip"}  # a used Helper is never offered again
    kit.ok(state)


def test_000_28_1_the_helper_is_optional():
    """000:28.1 "may": declining keeps the Helper face up for a later turn."""
    state = kit.paused(3)
    h = give_helper(state, 1, "Bouncer")
    start_turn(state, 1)
    kit.answer(state, "skip")
    assert state.player(1).helpers == [h] and state.player(1).goons == 1
    assert kit.prompt(state).kind == "place"


def test_000_28_1_a_helper_gained_this_turn_is_used_on_a_later_turn():
    """000:28.1: a Helper taken during a turn (booth 2) is offered at the start of the player's next turn."""
    state = kit.played(3, seed=4)
    seat = current(state)
    kit.give(state, seat, leverage=1)
    kit.answer(state, "booth:2")
    while kit.prompt(state).kind != "take_helper":
        kit.answer(state, "skip")
    kit.answer(state, kit.ids(state)[0])
    h = state.player(seat).helpers[0]
    while kit.prompt(state).kind != "draw":
        ids = kit.ids(state)
        kit.answer(state, "skip" if "skip" in ids else ids[0])
    kit.answer(state, kit.ids(state)[0])
    while not (current(state) == seat and kit.prompt(state).kind in ("helper_use", "place")):
        turn(state, "first")
    assert kit.prompt(state).kind == "helper_use"
    assert f"use:{h}" in kit.ids(state)
    kit.ok(state)


def test_000_29_1_a_capo_must_go_to_one_of_the_eight_locations():
    """000:29.1: the Capo step has no decline option, and its options span the eight locations."""
    state = kit.played(4)
    p = kit.prompt(state)
    assert p.kind == "place"
    assert "skip" not in kit.ids(state)
    locations = {R.locations.persons[k].location for k in range(12)}
    assert locations == {"Docks", "City Hall", "Commission", "Contractor office", "City Planning office", "Garage"}
    ids = kit.ids(state)
    assert {f"person:{per.id}" for per in R.locations.persons} <= set(ids)
    assert "first" in ids and any(i.startswith("booth:") for i in ids)  # Restaurant
    assert any(i.startswith("park:") for i in ids)  # Park
    labels = " ".join(kit.labels(state))
    for loc in locations | {"Restaurant", "Park"}:
        assert loc in labels
    capos = state.player(p.seat).capos
    kit.answer(state, "person:alderman")
    assert state.player(p.seat).capos == capos - 1


def test_000_29_2_the_capo_takes_a_free_person_and_does_their_steps():
    """000:29.2: the Capo goes on a Person without a Capo and does that Person's steps in order (Alderman: gain
    a Book, then Cook the Books); the Person is then taken."""
    state = kit.played(3)
    seat = current(state)
    p = state.player(seat)
    books = p.books
    kit.answer(state, "person:alderman")
    assert state.persons["alderman"] == seat
    assert p.books == books + 1
    while kit.prompt(state).kind != "draw":
        kit.answer(state, "skip" if "skip" in kit.ids(state) else kit.ids(state)[0])
    kit.answer(state, kit.ids(state)[0])
    assert "person:alderman" not in kit.ids(state)
    kit.ok(state)


def test_000_29_3_each_person_talks_with_only_one_capo_per_act():
    """000:29.3: a taken Person is offered to nobody for the rest of the Act (its owner included) and choosing it
    is refused."""
    state = kit.played(3)
    seat = turn(state, "person:consigliere")
    for k in range(11):  # every later turn of the Act, the Consigliere's owner's included
        if kit.prompt(state).kind == "helper_use":
            kit.answer(state, "skip")
        assert "person:consigliere" not in kit.ids(state)
        assert kit.refuse(state, Choice(current(state), "place", "person:consigliere"))
        turn(state, "first", draw=k < 10)
    assert last_draw(state)
    assert state.persons["consigliere"] == seat
    kit.ok(state)


def test_000_29_4_the_restaurant_first_place_takes_any_number_of_capos():
    """000:29.4: Lucky's table (Restaurant first place) is offered to every Capo, however many are there."""
    state = kit.played(4)
    for k in range(16):
        if kit.prompt(state).kind == "helper_use":
            kit.answer(state, "skip")
        assert "first" in kit.ids(state)
        turn(state, "first", draw=k < 15)
    assert last_draw(state)
    assert len(state.first_place) == 16
    kit.ok(state)


def test_000_30_1_draw_the_top_card_of_any_deck():
    """000:30.1, design §3.1: the turn ends with a mandatory draw of the top card of any non-empty deck."""
    state = kit.played(3)
    seat = turn(state, "park:0", draw=False)
    p = state.player(seat)
    assert kit.prompt(state).kind == "draw" and "skip" not in kit.ids(state)
    assert kit.ids(state) == [f"deck:{d}" for d in TRACKS]
    top = state.decks["fleet"][0]
    hand = len(p.hand)
    kit.answer(state, "deck:fleet")
    assert p.hand[-1] == top and len(p.hand) == hand + 1
    assert top not in state.decks["fleet"]
    kit.ok(state)


def test_000_30_1_an_empty_deck_is_not_offered_and_with_all_empty_nothing_is_drawn():
    """000:30.1, design §3.1: only non-empty decks can be drawn; with all four empty the turn ends without a draw."""
    state = kit.paused(3)
    p = state.player(0)
    p.hand.extend(state.decks["vip"])
    state.decks["vip"] = []
    kit.task(state, "draw", 0)
    assert kit.ids(state) == ["deck:party", "deck:stills", "deck:fleet"]
    state.tasks.clear()
    for d in TRACKS:
        p.hand.extend(state.decks[d])
        state.decks[d] = []
    hand = len(p.hand)
    kit.task(state, "draw", 0)
    assert kit.is_waiting(state) and len(p.hand) == hand
    kit.ok(state)


def test_000_30_2_there_is_no_hand_limit():
    """000:30.2: a player with many cards still draws and is never asked to discard."""
    state = kit.paused(3)
    p = state.player(0)
    for d in TRACKS:
        p.hand.extend(state.decks[d][:-1])
        state.decks[d] = state.decks[d][-1:]
    hand = len(p.hand)
    assert hand > 20
    start_turn(state, 0)
    kit.answer(state, "park:0")
    kit.answer(state, "reward")
    kit.answer(state, "deck:vip")
    assert len(p.hand) == hand + 1
    assert kit.is_waiting(state)
    kit.ok(state)


# --- 3. Lucky Luciano phase (000:31.1-000:34.5) -------------------------------------------------------------------


def payout_board(players: int = 3):
    """A paused game with an empty map (see ``clear_map``) at the end of Act 1."""
    state = kit.paused(players)
    clear_map(state)
    return state


def safes(state) -> list[int]:
    return [p.safe for p in state.players]


def test_000_31_1_the_luciano_phase_follows_acts_1_2_and_3():
    """000:31.1: the Lucky Luciano phase comes after Act 1's 4 rounds (1924), after Act 2 and after Act 3; each
    time its steps come in order: Mob War, Cops Patrol Manhattan, then the payout."""
    g = play_game(3)
    assert (g.ends[1].round, g.ends[1].year) == (4, 1924)
    starts = [i for i, e in enumerate(g.events) if e.kind == "phase"]
    assert [g.events[i].text for i in starts] == [
        f"Lucky Luciano phase after Act {a}: Mob War, Cops, payout." for a in (1, 2, 3)
    ]
    for i in starts:
        end = next(j for j in range(i, len(g.events)) if g.events[j].kind == "act" and "begins" in g.events[j].text)
        steps = [
            0 if e.kind == "war" else 1 if e.kind == "cops" else 2
            for e in g.events[i:end]
            if e.kind in ("war", "cops") or "controlled by" in e.text
        ]
        assert steps == sorted(steps) and set(steps) == {0, 1, 2}


def _new_mobsters(before, after) -> list[int]:
    on = {d.mobster for d in before.districts} | set(before.mobster_gone)
    return [m for m in [d.mobster for d in after.districts] + after.mobster_gone if m is not None and m not in on]


def test_000_32_1_mob_war_draws_from_the_act_s_deck():
    """000:32.1: each Mob War uses its Act's Mobster deck (B after Act 1, C after Act 2, D after Act 3), shuffled;
    the other decks wait."""
    g = play_game(3)
    s = g.starts
    assert {R.mobsters[m].deck for m in _new_mobsters(s[1], s[2])} == {"B"}
    assert {R.mobsters[m].deck for m in _new_mobsters(s[2], s[3])} == {"C"}
    assert {R.mobsters[m].deck for m in _new_mobsters(s[3], s[4])} == {"D"}
    assert (s[2].mobster_decks["B"], s[2].mobster_decks["C"]) == ([], s[1].mobster_decks["C"])
    assert s[3].mobster_decks["D"] == s[1].mobster_decks["D"] and s[4].mobster_decks["D"] == []


@pytest.mark.parametrize(("players", "sizes"), [(2, [2, 2, 3]), (3, [3, 3, 4]), (4, [3, 3, 4])])
def test_000_32_2_as_many_mobsters_as_face_down_district_tiles_3_3_4(players, sizes):
    """000:32.2, design §1.5.1: each Mob War repeats its steps once per face-down Mobster District tile on the
    board: 3/3/4 after Acts 1/2/3 (2/2/3 with two players); the tiles are gone afterwards."""
    g = play_game(players)
    s = g.starts
    assert [sum(d.war_tile for d in s[a].districts) for a in (1, 2, 3)] == sizes
    assert [len(_new_mobsters(s[a], s[a + 1])) for a in (1, 2, 3)] == sizes
    assert not any(d.war_tile for d in s[4].districts)
    assert [n for letter, n in R.sides[g.state.side].mobsters if letter != "A"] == sizes


def _war_board():
    """A paused game, empty map, one war district (the first open Midtown one without a Mobster): seat 0 (Strength
    5, 6 Goons) and seat 1 (Strength 1, no Goon) each have a Speakeasy there."""
    state = payout_board()
    number = open_districts(state, "Midtown")[0]
    state.districts[number - 1].war_tile = True
    kit.give(state, 0, levels={"strength": 5}, goons=6)
    kit.give(state, 1, levels={"strength": 1}, goons=0)
    put(state, 0, number)
    put(state, 1, number)
    return state, state.districts[number - 1]


def luciano_alone(state):
    """Run the Lucky Luciano phase of ``state.act`` without moving on to the next Act, answering each defence with
    its first option; returns (events, the Act's deck right after the shuffle)."""
    log: list = []
    luciano.begin(state, log)
    deck = list(state.mobster_decks[luciano.DECKS[state.act]])
    state.tasks = [t for t in state.tasks if t.kind != "next_act"]
    advance(state, log)
    while state.tasks:
        log += kit.answer(state, kit.ids(state)[0])
    return log, deck


def test_000_32_3_the_top_mobster_tile_goes_on_the_district():
    """000:32.3: the war districts, lowest first, get the topmost Mobster tiles of the shuffled deck."""
    state = kit.paused(3)
    wars = [d.number for d in state.districts if d.war_tile]
    _log, deck = luciano_alone(state)
    assert [state.districts[n - 1].mobster for n in wars] == deck[: len(wars)]
    kit.ok(state)


def test_000_32_4_the_district_tile_becomes_a_strength_tile():
    """000:32.4: each war district's face-down District tile is boxed and a Strength tile of its Mobster's
    strength takes its place."""
    state = kit.paused(3)
    wars = [d.number for d in state.districts if d.war_tile]
    luciano_alone(state)
    for n in wars:
        d = state.districts[n - 1]
        assert not d.war_tile and n in state.box["mobster_districts"]
        assert d.strength == R.mobsters[d.mobster].strength
    kit.ok(state)


def test_000_32_5_mobster_speakeasies_beside_the_empty_spaces():
    """000:32.5: every empty space of the war district gets a Mobster Speakeasy; a defended building keeps its
    space."""
    state, d = _war_board()
    luciano_alone(state)
    assert [sp.mobster for sp in d.spaces] == [False, True, True]
    assert d.spaces[0].building.owner == 0
    kit.ok(state)


def test_000_32_6_defend_against_the_mob_war_strength():
    """000:32.6: each building in the war district must reach the Mobster's Mob War strength: seat 0 returns the
    Goons it needs and keeps its Speakeasy; seat 1 cannot and loses it."""
    state, d = _war_board()
    luciano_alone(state)
    m = R.mobsters[d.mobster]
    assert state.player(0).goons == 6 - (m.strength + m.modifier - 5)
    assert d.spaces[0].building is not None and d.spaces[1].building is None
    assert state.player(1).lost_buildings == {"speakeasy": 1}
    kit.ok(state)


def test_000_33_1_cop_tiles_become_cops():
    """000:33.1: at each patrol every face-down Cop District tile on the board is replaced by a Cop."""
    g = play_game(3)
    s = g.starts
    for a in (1, 2, 3):
        tiles = {d.number for d in s[a].districts if d.cop_tile}
        cops = {d.number for d in s[a].districts if d.cop}
        assert tiles and {d.number for d in s[a + 1].districts if d.cop} == cops | tiles


def test_000_33_2_a_new_stack_of_four_cop_tiles_after_acts_1_and_2():
    """000:33.2: after Acts 1 and 2 one stack of four Cop District tiles leaves the Time track and lies face down
    in its districts; after Act 3 there is none, and every district has its Cop."""
    g = play_game(3)
    s = g.starts
    assert [len(x) for x in s[1].cop_stacks] == [4, 4]
    assert {d.number for d in s[2].districts if d.cop_tile} == set(s[1].cop_stacks[0])
    assert {d.number for d in s[3].districts if d.cop_tile} == set(s[1].cop_stacks[1])
    assert s[3].cop_stacks == [[], []]
    assert not any(d.cop_tile for d in s[4].districts) and all(d.cop for d in s[4].districts)


def test_000_34_1_districts_are_checked_in_number_order():
    """000:34.1: control is checked district by district in number order (the log names them in that order)."""
    state = payout_board()
    up, mid, down = open_districts(state, "Uptown")[0], open_districts(state, "Midtown")[0], 1
    put(state, 0, up)
    put(state, 1, down)
    state.districts[mid - 1].spaces[0].mobster = True
    log = kit.task(state, "payout", -1)
    named = [e.text.split(":")[0] for e in log if "controlled by" in e.text]
    assert named == [R.district(n).name for n in (down, mid, up)]
    kit.ok(state)


def test_000_34_2_the_best_protected_building_controls():
    """000:34.2: a building with a Family Member next to it gives control, even against a Casino."""
    state = payout_board()
    put(state, 0, 2, "stills", family=True)
    put(state, 1, 2, "casino")
    kit.task(state, "payout", -1)
    assert (state.player(0).zone_markers, state.player(1).zone_markers) == ([1, 0, 0], [0, 0, 0])
    kit.ok(state)


def test_000_34_3_without_cop_or_family_the_best_building_controls():
    """000:34.3: with neither a Cop nor a Family Member the best building controls; with a Cop (and no Family
    Member) it does not."""
    state = payout_board()
    put(state, 0, 2, "speakeasy")
    put(state, 1, 2, "nightclub")
    put(state, 0, 3, "casino")
    add_cop(state, 3)
    kit.task(state, "payout", -1)
    assert (state.player(0).zone_markers, state.player(1).zone_markers) == ([0, 0, 0], [1, 0, 0])
    kit.ok(state)


def test_000_34_4_each_controller_moves_up_one_space():
    """000:34.4: each controlling player's marker moves up one space per district (tied controllers both)."""
    state = payout_board()
    put(state, 0, 1)
    put(state, 0, 2)
    put(state, 1, 2)
    put(state, 0, open_districts(state, "Midtown")[0], "stills")
    kit.task(state, "payout", -1)
    assert (state.player(0).zone_markers, state.player(1).zone_markers) == ([2, 1, 0], [1, 0, 0])
    kit.ok(state)


def test_000_34_5_the_zone_position_pays_to_the_safe():
    """000:34.5, design §13: money from the supply to the safe by position on the Zone's track (3-4 side Uptown:
    1st $45, 2nd $35); pockets unchanged."""
    state = payout_board()
    up = open_districts(state, "Uptown")
    put(state, 0, up[0])
    put(state, 0, up[1])
    put(state, 1, up[2])
    before, pockets = safes(state), [p.pocket for p in state.players]
    kit.task(state, "payout", -1)
    assert [a - b for a, b in zip(safes(state), before, strict=True)] == [45, 35, 0]
    assert [p.pocket for p in state.players] == pockets
    kit.ok(state)


def test_000_35_1_final_scoring_only_after_act_4():
    """000:35.1: the Final Scoring Round (1933) comes only after Act 4's single round, with no Lucky Luciano phase
    after Act 4; before it the game has no result."""
    g = play_game(3)
    assert all(not kit.GAME.is_over(s) and kit.GAME.result(s) is None for s in g.starts.values())
    act4 = next(i for i, e in enumerate(g.events) if e.kind == "act" and e.text.startswith("Act 4 begins"))
    later = [e.kind for e in g.events[act4:]]
    assert "phase" not in later and "war" not in later and "final" in later
    assert later.index("final") > max(i for i, k in enumerate(later) if k == "turn")
    assert (g.state.phase, g.state.act, g.state.year) == ("over", 4, 1933)
    res = kit.GAME.result(g.state)
    assert res is not None and res.scores == tuple(p.final["total"] for p in g.state.players)


# --- design §8.2: turn order ---------------------------------------------------------------------------------------


def test_design_8_2_lucky_s_table_moves_the_marker_at_once():
    """Design §8.2: a Capo at first place moves its owner's marker to the front of the track immediately; the
    others shift right."""
    state = kit.played(3)
    a, b, c = state.track
    turn(state, "person:alderman")
    turn(state, "first", draw=False)
    assert state.track == [b, a, c]
    assert kit.GAME.view(state, None)["track"] == [b, a, c]


def test_design_8_2_the_round_finishes_in_its_starting_order():
    """Design §8.2: after the last player takes first place, the round still goes on in its starting order; the
    new order applies from the next round."""
    state = kit.played(3)
    a, b, c = state.track
    turn(state, "person:alderman")
    turn(state, "first")
    assert current(state) == c  # not a: the round's order does not change
    assert state.order == [a, b, c]
    turn(state, "person:fixer")
    assert state.order == [b, a, c] and current(state) == b
    kit.ok(state)


def test_design_8_2_the_last_to_arrive_at_first_place_ends_up_first():
    """Design §8.2: if several players take first place in one round, the last to arrive is first next round."""
    state = kit.played(4, seed=3)
    a, b, c, d = state.track
    turn(state, "first")
    turn(state, "first")
    turn(state, "person:alderman")
    turn(state, "first")
    assert state.order == [d, b, a, c]
    assert state.first_place == [a, b, d]


# --- design §8.3: Casino payout -----------------------------------------------------------------------------------


def _casino(state, seat: int, cop: bool = False, protected: bool = False):
    d = district_with_free_space(state, cop)
    i = next(i for i, sp in enumerate(d.spaces) if sp.building is None and not sp.mobster)
    return kit.build(state, seat, d.number, i, "casino", family=protected)


def test_design_8_3_casinos_pay_by_new_position_when_turn_order_changes():
    """Design §8.3: on a change of turn order, each Operating Casino pays its owner by the new position (3-4 side:
    $2/$4/$6/$8), to the pocket."""
    state = kit.played(3, seed=2)
    a, b, c = state.track
    for seat in (a, b, c):
        _casino(state, seat)
    turn(state, "person:alderman")
    turn(state, "person:fixer")
    turn(state, "first", draw=False)
    pockets = [p.pocket for p in state.players]
    safes = [p.safe for p in state.players]
    kit.answer(state, "deck:vip")
    assert state.order == [c, a, b]
    gained = [state.players[s].pocket - pockets[s] for s in range(3)]
    assert (gained[c], gained[a], gained[b]) == (2, 4, 6)
    assert [p.safe for p in state.players] == safes
    kit.ok(state)


def test_design_8_3_two_casinos_pay_twice_and_the_small_side_pays_4_and_6():
    """Design §8.3: the payout is per Operating Casino; the 1-2 side pays $4 (1st) and $6 (2nd)."""
    state = kit.played(2, seed=5)
    a, b = state.track
    _casino(state, a)
    _casino(state, a)
    _casino(state, b)
    turn(state, "person:alderman")
    turn(state, "first", draw=False)
    pockets = [p.pocket for p in state.players]
    kit.answer(state, "deck:party")
    assert state.order == [b, a]
    assert state.players[b].pocket - pockets[b] == 4
    assert state.players[a].pocket - pockets[a] == 2 * 6


def test_design_8_3_no_payout_when_turn_order_is_unchanged():
    """Design §8.2-§8.3: a round whose order equals the last one pays no Casino (the first player returning to
    first place changes nothing)."""
    state = kit.played(3, seed=2)
    a, b, c = state.track
    for seat in (a, b, c):
        _casino(state, seat)
    turn(state, "first")
    turn(state, "person:alderman")
    turn(state, "person:fixer", draw=False)
    pockets = [p.pocket for p in state.players]
    kit.answer(state, "deck:stills")
    assert state.order == [a, b, c] and state.round == 2
    assert [p.pocket for p in state.players] == pockets


def test_design_8_3_only_operating_casinos_pay():
    """Design §8.3, §1.2: a Casino in a Cop district pays only if Protected."""
    state = kit.played(3, seed=2)
    a, b, c = state.track
    _casino(state, a, cop=True)
    _casino(state, b, cop=True, protected=True)
    turn(state, "person:alderman")
    turn(state, "person:fixer")
    turn(state, "first", draw=False)
    pockets = [p.pocket for p in state.players]
    kit.answer(state, "deck:vip")
    assert state.order == [c, a, b]
    assert state.players[a].pocket == pockets[a]  # unprotected in a Cop district: not Operating
    assert state.players[b].pocket - pockets[b] == 6  # protected, third place


def test_design_8_3_the_setup_round_order_is_not_a_change():
    """Design §8.2: the Setup Round is played in reverse order, yet Act 1's first round pays no Casino."""
    state = kit.new(3, seed=2)
    while not (kit.prompt(state).kind == "setup_card" and state.turn == len(state.order) - 1):
        p = kit.prompt(state)
        kit.GAME.apply(state, Choice(p.seat, p.kind, p.options[0].id))
    last = kit.prompt(state).seat
    for seat in range(3):
        _casino(state, seat)
    pockets = [p.pocket for p in state.players]
    events = kit.answer(state, kit.ids(state)[0])
    assert (state.phase, state.round, state.order) == ("play", 1, state.track)
    assert not any("Turn order changed" in e.text for e in events)
    assert [p.pocket for i, p in enumerate(state.players) if i != last] == [
        x for i, x in enumerate(pockets) if i != last
    ]
    kit.ok(state)


def test_000_27_1_only_the_player_in_turn_may_place():
    """000:27.1 "in turn order": a Capo choice from another seat is refused and changes nothing."""
    state = kit.played(3)
    other = (current(state) + 1) % 3
    msg = kit.refuse(state, Choice(other, "place", "first"))
    assert msg
