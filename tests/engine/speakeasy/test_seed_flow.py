"""Speakeasy game flow: seed 000 section 3 (000:22.1-000:35.1) and design §8.2-§8.3 (turn order, Casino payout).

The Lucky Luciano phase and Acts 2-4 come with engine II: for their sentences these tests check what exists now
(the data numbers, the Time-track stacks, the face-down tiles) and that play stops at the end of Act 1 with
phase "luciano".
"""

from __future__ import annotations

import pytest

from engine.core import Choice
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


def play_to_luciano(state) -> list:
    """Answer every prompt (decline optional steps, else the first option) until the Act ends; returns events."""
    events = []
    while state.phase == "play":
        p = kit.prompt(state)
        ids = [o.id for o in p.options]
        events += kit.GAME.apply(state, Choice(p.seat, p.kind, "skip" if "skip" in ids else ids[0]))
    return events


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
    """000:25.1 ACT Structure: Act 1 is its player rounds, then the Lucky Luciano phase (phase "luciano")."""
    state = kit.played(2)
    assert state.phase == "play"
    play_to_luciano(state)
    assert (state.phase, state.act) == ("luciano", 1)
    assert kit.GAME.selfplay_stop(state)


# --- 1. Return Capos (000:26.1-000:26.4) --------------------------------------------------------------------------


def test_000_26_1_act_2_returns_3_capos_and_boxes_1():
    """000:26.1: the data for the start of Act 2 (1925): 3 Capos back, 1 to the box (the phase: engine II)."""
    t = R.tracks
    assert (t.capos_returned[1], t.capos_boxed[1], R.years["act2"]) == (3, 1, 1925)
    assert t.capos_returned[1] + t.capos_boxed[1] == t.capos_per_act[0]


def test_000_26_2_act_3_returns_3_capos():
    """000:26.2: the data for the start of Act 3 (1928): 3 Capos back, none boxed."""
    t = R.tracks
    assert (t.capos_returned[2], t.capos_boxed[2], R.years["act3"]) == (3, 0, 1928)
    assert t.capos_returned[2] + t.capos_boxed[2] == t.capos_per_act[1]


def test_000_26_3_act_4_returns_1_capo_and_boxes_2():
    """000:26.3: the data for the start of Act 4 (1931): 1 Capo back, 2 to the box; each Act's rounds equal the
    Capos returned for it."""
    t = R.tracks
    assert (t.capos_returned[3], t.capos_boxed[3], R.years["act4"]) == (1, 2, 1931)
    assert t.capos_returned[3] + t.capos_boxed[3] == t.capos_per_act[2]
    assert list(t.capos_returned[1:]) == list(t.capos_per_act[1:])
    assert t.capos - sum(t.capos_boxed) == t.capos_per_act[3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_000_26_4_the_act_goes_on_until_no_capo_is_left(players):
    """000:26.4: Act 1 ends exactly when every player has placed all 4 Capos; nobody is asked anything more."""
    state = kit.played(players)
    play_to_luciano(state)
    assert all(p.capos == 0 for p in state.players)
    assert state.phase == "luciano" and kit.is_waiting(state)
    assert not kit.GAME.is_over(state)
    kit.ok(state)


# --- 2. Player rounds (000:27.1-000:30.2) -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_000_27_1_four_rounds_in_act_1_each_player_one_turn_in_turn_order(players):
    """000:27.1: Act 1 has 4 rounds; in each every player takes exactly one turn, in Turn Order track order."""
    state = kit.played(players, seed=players)
    rounds: list[list[int]] = []
    orders: list[list[int]] = []
    while state.phase == "play":
        if state.turn == 0 and (not rounds or len(rounds[-1]) == players):
            rounds.append([])
            orders.append(list(state.order))
        rounds[-1].append(turn(state, "first"))
    assert len(rounds) == 4
    assert rounds == orders
    assert all(sorted(r) == list(range(players)) for r in rounds)
    assert state.round == 4
    kit.ok(state)


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
    asked = 0
    while state.phase == "play":
        if kit.prompt(state).kind == "place":
            asked += 1
            assert "person:consigliere" not in kit.ids(state)
            assert kit.refuse(state, Choice(current(state), "place", "person:consigliere"))
        turn(state, "first")
    assert asked == 11  # every later turn of the Act, the Consigliere's owner's included
    assert state.persons["consigliere"] == seat
    kit.ok(state)


def test_000_29_4_the_restaurant_first_place_takes_any_number_of_capos():
    """000:29.4: Lucky's table (Restaurant first place) is offered to every Capo, however many are there."""
    state = kit.played(4)
    while state.phase == "play":
        assert "first" in kit.ids(state)
        turn(state, "first")
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


# --- 3. Lucky Luciano phase (000:31.1-000:34.5): engine II; what exists now ---------------------------------------


def test_000_31_1_play_stops_at_the_luciano_phase_after_act_1():
    """000:31.1: after Act 1's 4 rounds the game waits in phase "luciano" (the phase itself: engine II)."""
    for players in (2, 3, 4):
        state = kit.played(players)
        play_to_luciano(state)
        assert (state.phase, state.act, state.round, state.year) == ("luciano", 1, 4, 1924)
        assert kit.GAME.prompts(state) == []
        assert kit.GAME.selfplay_stop(state)


def test_000_32_1_the_mob_war_decks_wait_unshuffled_for_their_acts():
    """000:32.1: the Mobster tiles of decks B, C and D (5, 5, 6) are still apart at the end of Act 1."""
    state = kit.played(3)
    before = {k: list(v) for k, v in state.mobster_decks.items()}
    play_to_luciano(state)
    assert state.mobster_decks == before
    assert [len(state.mobster_decks[k]) for k in "BCD"] == [5, 5, 6]


@pytest.mark.parametrize(("players", "sizes"), [(2, [2, 2, 3]), (3, [3, 3, 4]), (4, [3, 3, 4])])
def test_000_32_2_face_down_mobster_district_tiles_3_3_4(players, sizes):
    """000:32.2, design §1.5.1: face-down District tiles for the Mob Wars after Acts 1/2/3: 3/3/4 (2/2/3 with two
    players): on the gun spaces for Act 1, on the Time track for Acts 2 and 3; unchanged at the end of Act 1."""
    state = kit.played(players)
    play_to_luciano(state)
    wars = [d.number for d in state.districts if d.war_tile]
    assert [len(wars), *map(len, state.war_stacks)] == sizes
    assert [n for letter, n in R.sides[state.side].mobsters if letter != "A"] == sizes


def test_000_32_3_war_districts_have_no_mobster_yet():
    """000:32.3: the Act 1 war districts have no Mobster on the Mobster board until the Mob War (engine II)."""
    state = kit.played(3)
    play_to_luciano(state)
    assert all(d.mobster is None for d in state.districts if d.war_tile)


def test_000_32_4_war_districts_have_no_strength_tile_yet():
    """000:32.4: the face-down District tile is swapped for a Strength tile only in the Mob War (engine II)."""
    state = kit.played(3)
    play_to_luciano(state)
    assert all(d.strength == 0 for d in state.districts if d.war_tile)
    assert all(d.strength == R.mobsters[d.mobster].strength for d in state.districts if d.mobster is not None)


def test_000_32_5_war_districts_have_no_mobster_speakeasies_yet():
    """000:32.5: Mobster Speakeasies come to the war districts' empty spaces only in the Mob War (engine II)."""
    state = kit.played(3)
    play_to_luciano(state)
    assert not any(sp.mobster for d in state.districts if d.war_tile for sp in d.spaces)


def test_000_32_6_no_building_is_attacked_before_the_mob_war():
    """000:32.6: the Mob War attacks (B: 6-8) are in the data; at the end of Act 1 every building still stands
    (defence comes with the phase, engine II)."""
    assert sorted({m.strength + m.modifier for m in R.mobsters if m.deck == "B"}) == [6, 7, 8]
    state = kit.played(3)
    built = [(d.number, i) for d in state.districts for i, sp in enumerate(d.spaces) if sp.building]
    play_to_luciano(state)
    assert [(d.number, i) for d in state.districts for i, sp in enumerate(d.spaces) if sp.building] == built
    assert all(p.lost_family == 0 for p in state.players)


def test_000_33_1_cop_tiles_stay_face_down_until_the_patrol():
    """000:33.1: 4 face-down Cop District tiles and 4 Cops at the end of Act 1 (the patrol: engine II)."""
    state = kit.played(4)
    tiles = [d.number for d in state.districts if d.cop_tile]
    play_to_luciano(state)
    assert [d.number for d in state.districts if d.cop_tile] == tiles and len(tiles) == 4
    assert sum(d.cop for d in state.districts) == 4


def test_000_33_2_two_cop_stacks_on_the_time_track_for_acts_1_and_2():
    """000:33.2: one stack of 4 Cop District tiles waits on the Time track for each of Acts 1 and 2."""
    state = kit.played(3)
    stacks = [list(s) for s in state.cop_stacks]
    play_to_luciano(state)
    assert state.cop_stacks == stacks
    assert [len(s) for s in stacks] == [4, 4]


def _protected_building_then_luciano(players: int = 3):
    """Seat 0 holds the only building of a Cop-free district, with a Family Member; Act 1 is then played out."""
    state = kit.played(players)
    d = quiet_district(state)
    state.player(0).family_supply -= 1
    b = kit.build(state, 0, d.number, 0, family=True)
    play_to_luciano(state)
    return state, d, b


def test_000_34_1_zone_control_is_not_checked_before_the_luciano_phase():
    """000:34.1: district control is checked in the Luciano phase (engine II): after Act 1 every Zone Control
    marker is still on 0."""
    state = kit.played(3)
    play_to_luciano(state)
    assert all(p.zone_markers == [0, 0, 0] for p in state.players)


def test_000_34_2_a_protected_building_exists_but_control_waits_for_engine_ii():
    """000:34.2: a building with a Family Member next to it (Protected) is on the map at the end of Act 1; its
    owner's Zone Control marker has not moved yet (control: engine II)."""
    state, d, b = _protected_building_then_luciano()
    assert b.family and kit.GAME.view(state, None)["districts"][d.number - 1]["spaces"]
    assert state.player(0).zone_markers == [0, 0, 0]
    kit.ok(state)


def test_000_34_3_a_lone_building_without_cop_or_family_waits_for_engine_ii():
    """000:34.3: the only building of a district without a Cop or Family Member has not yet given control."""
    state = kit.played(3)
    d = quiet_district(state)
    kit.build(state, 1, d.number, 0)
    play_to_luciano(state)
    assert state.player(1).zone_markers == [0, 0, 0]
    kit.ok(state)


def test_000_34_4_zone_control_tracks_have_one_place_per_player_and_one_more():
    """000:34.4: each Zone's track ranks the controllers (payout charts of players + 1 places: 3-4 side 5, 1-2
    side 3); markers start and stay at the bottom through Act 1."""
    assert all(len(z) == 5 for z in R.sides["large"].zone_payouts)
    assert all(len(z) == 3 for z in R.sides["small"].zone_payouts)
    state = kit.played(2)
    play_to_luciano(state)
    assert all(p.zone_markers == [0, 0, 0] for p in state.players)


def test_000_34_5_zone_payouts_go_to_the_safe_in_engine_ii():
    """000:34.5: the payout charts exist for both sides, highest first; Act 1 ends with no payout to any safe."""
    for side in ("small", "large"):
        payouts = R.sides[side].zone_payouts
        assert len(payouts) == 3
        assert all(list(z) == sorted(z, reverse=True) for z in payouts)
    state = kit.played(3)
    safes = [p.safe for p in state.players]
    play_to_luciano(state)
    assert [p.safe for p in state.players] == safes


def test_000_35_1_the_final_scoring_round_only_in_act_4():
    """000:35.1: the Final Scoring Round (1933) follows Act 4's single round; Act 1 ends without it."""
    assert R.years["final"] == 1933 and R.tracks.capos_per_act[3] == 1
    state = kit.played(2)
    play_to_luciano(state)
    assert not kit.GAME.is_over(state) and kit.GAME.result(state) is None


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
