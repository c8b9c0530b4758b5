"""Omerta's version 2 rules (decisions file, "## Version 2"): bounded rounds, a wrong snap that does not use up
the window, and ``pace=post`` with standing snap orders. Tests named ``test_decision_v2_<section>_...``."""

from __future__ import annotations

import pytest

from engine.core import TABLE, BadOptions, Choice, waits_for
from engine.omerta.cards import deck
from engine.options import resolve_options
from tests.engine.omerta.helpers import (
    GAME,
    Pick,
    arrange,
    hand,
    new_table,
    play,
    private,
    prompt_of,
    refused,
    texts,
)

V2 = {"rules": 2}
POST = {"rules": 2, "pace": "post"}


def _open_snap(g, s, value, *, active=0, hands=None, draw=()):  # noqa: ANN001, ANN202
    p = Pick()
    for h in (hands or {}).values():
        p.used.update(c for c in h if c is not None)
    p.used.update(draw)
    arrange(s, active=active, hands=hands, draw=[*draw, p(value)])
    play(g, s, active, "turn", "draw")
    return play(g, s, active, "place", "discard")


# --- the options ---------------------------------------------------------------------------------------------


def test_decision_v2_options_old_records_replay_version_1_new_tables_get_version_2():
    specs = GAME.option_specs
    assert resolve_options(specs, {})["rules"] == 1  # a record made before the option: version 1
    assert resolve_options(specs, {}, new=True)["rules"] >= 2  # 3 since decisions 2.1 (test_decisions_2_1.py)
    # a record without the option is live; a new table plays by post (issue 24)
    assert resolve_options(specs, {})["pace"] == "live" and resolve_options(specs, {}, new=True)["pace"] == "post"
    with pytest.raises(BadOptions, match="pace"):
        resolve_options(specs, {"pace": "slow"})
    with pytest.raises(BadOptions, match="rules"):
        resolve_options(specs, {"rules": 4})


def test_decision_v2_max_reshuffles_is_the_data_files_own_value():
    assert deck().numbers["max_reshuffles"] == 1


# --- bounded rounds ------------------------------------------------------------------------------------------


def test_decision_v2_bounded_rounds_second_empty_draw_pile_ends_the_round_dry():
    g, s = new_table(3, options=V2)
    p = Pick()
    arrange(s, active=0, draw=[p("alibi")], discard=[p(5), p(6), p(7), p(2)], rest="discard")
    s.reshuffles = deck().numbers["max_reshuffles"]  # the round has used its reshuffles
    play(g, s, 0, "turn", "draw")
    events = play(g, s, 0, "place", "discard")  # the Alibi lands; Ben's turn begins with an empty draw pile
    assert not any(e.kind == "reshuffle" for e in events)
    assert "No card is left to draw: the round ends without a caller." in texts(events)
    reveal = s.history[-1]
    assert reveal.caller is None and reveal.scores == reveal.points
    assert s.round == 2 and s.reshuffles == 0  # a new round may reshuffle again
    assert g.invariants(s) == []


def test_decision_v2_bounded_rounds_the_first_reshuffle_is_allowed_and_counted():
    g, s = new_table(3, options=V2)
    p = Pick()
    arrange(s, active=0, draw=[p("alibi")], discard=[p(5), p(6), p(7), p(2)], rest="discard")
    play(g, s, 0, "turn", "draw")
    events = play(g, s, 0, "place", "discard")
    assert any(e.kind == "reshuffle" for e in events) and s.reshuffles == 1
    assert s.active == 1 and s.phase == "turn"


def test_decision_v2_version_1_reshuffles_without_a_cap():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, draw=[p("alibi")], discard=[p(5), p(6), p(7), p(2)], rest="discard")
    s.reshuffles = 7
    play(g, s, 0, "turn", "draw")
    events = play(g, s, 0, "place", "discard")
    assert any(e.kind == "reshuffle" for e in events) and s.phase == "turn"


# --- a wrong snap does not use up the window -----------------------------------------------------------------


def test_decision_v2_wrong_snap_keeps_the_window_open_for_the_next_claim():
    g, s = new_table(3, options=V2)
    p = Pick()
    _open_snap(g, s, 8, hands={1: p.many(1, 2, 3, 4), 2: p.many(8, 5, 6, 7)})
    race = prompt_of(g, s, 2, "snap").race
    events = play(g, s, 1, "snap", "slot:0")  # wrong: revealed and penalised as before
    assert "Ben snaps slot 1: Bottle 1, wrong! It goes back face down." in texts(events)
    assert len(hand(s, 1)) == 5
    assert s.phase == "snap" and prompt_of(g, s, 2, "snap").race == race
    assert all(pr.seat != 1 for pr in g.prompts(s))  # a seat claims once a window
    refused(g, s, Choice(1, "snap", "slot:1"))
    events = play(g, s, 2, "snap", "slot:0")  # the next claim is right: it snaps
    assert "Cleo snaps slot 1: Bottle 8. One card fewer!" in texts(events)
    assert hand(s, 2)[0] is None and s.phase == "turn" and s.active == 1


def test_decision_v2_all_claims_wrong_the_table_closes_the_window():
    g, s = new_table(3, options=V2)
    p = Pick()
    _open_snap(g, s, 8, hands={0: p.many(1, 2, 3, 4), 1: p.many(5, 6, 7, 9), 2: p.many(1, 2, 3, 4)})
    for seat in (0, 1, 2):
        play(g, s, seat, "snap", "slot:0")
    assert s.phase == "snap" and [pr.seat for pr in g.prompts(s)] == [TABLE]
    events = play(g, s, TABLE, "snap", "close")
    # every card the claims revealed is still in the picture with the log lines that name them
    assert [c["value"] for c in g.view(s, None)["shown"]] == [1, 5, 1]
    # issue 24: not "Nobody snaps" right after three wrong snaps
    assert "The snap window closes: no one else snaps." in texts(events) and "Nobody snaps." not in texts(events)
    assert s.phase == "turn" and s.active == 1 and s.claimed == []


def test_decision_v2_version_1_a_wrong_snap_closes_the_window():
    g, s = new_table(3)
    p = Pick()
    _open_snap(g, s, 8, hands={1: p.many(1, 2, 3, 4), 2: p.many(8, 5, 6, 7)})
    play(g, s, 1, "snap", "slot:0")
    assert s.phase == "turn" and s.active == 1


# --- pace=post: standing snap orders -------------------------------------------------------------------------


def test_decision_v2_post_orders_are_private_optional_and_never_waited_for():
    g, s = new_table(3, options=POST)
    orders = [pr for pr in g.prompts(s) if pr.kind == "order"]
    assert sorted(pr.seat for pr in orders) == [0, 1, 2]
    assert all(pr.secret and pr.optional and not waits_for(pr) for pr in orders)
    assert [pr.seat for pr in g.prompts(s) if waits_for(pr)] == [s.active]
    assert all(pr.public().options == () and pr.public().text == "" for pr in orders)


def test_decision_v2_post_a_seat_sets_an_order_out_of_turn_privately():
    g, s = new_table(3, options=POST)
    assert s.active != 2 or s.phase != "turn"
    other = (s.active + 1) % 3
    before = (s.active, s.phase)
    events = play(g, s, other, "order", "set:2:7")
    assert (s.active, s.phase) == before  # nothing on the table changed
    assert texts(events, None) == [] and texts(events, other) == [
        "Standing order: you snap slot 3 when a Bottle 7 lands."
    ]
    assert g.view(s, other)["orders"] == [{"slot": 2, "value": 7}]
    assert g.view(s, None)["orders"] == [] and g.view(s, s.active)["orders"] == []
    play(g, s, other, "order", "set:2:4")  # at most one order per slot: it is replaced
    assert g.view(s, other)["orders"] == [{"slot": 2, "value": 4}]
    play(g, s, other, "order", "cancel:2")
    assert g.view(s, other)["orders"] == []
    refused(g, s, Choice(other, "order", "cancel:2"))
    refused(g, s, Choice(other, "order", "set:9:4"))


def test_decision_v2_post_a_matching_order_snaps_at_once_without_a_window():
    g, s = new_table(3, options=POST)
    p = Pick()
    arrange(s, active=0, hands={1: p.many(1, 7, 3, 4)}, draw=[p(7)])
    play(g, s, 1, "order", "set:1:7")
    play(g, s, 0, "turn", "draw")
    events = play(g, s, 0, "place", "discard")
    assert "Ben's standing order snaps slot 2: Bottle 7. One card fewer!" in texts(events)
    assert hand(s, 1)[1] is None and s.phase == "turn" and s.active == 1
    assert not any(e.kind == "snap_open" for e in events)
    assert all(pr.race is None for pr in g.prompts(s))
    assert g.view(s, 1)["orders"] == []  # a used order is removed


def test_decision_v2_post_orders_judged_earliest_set_first_wrong_ones_penalised_and_removed():
    g, s = new_table(3, options=POST)
    p = Pick()
    arrange(s, active=0, hands={1: p.many(1, 2, 3, 4), 2: p.many(5, 6, 7, 9), 0: p.many(7, 2, 3, 4)}, draw=[p(7)])
    play(g, s, 2, "order", "set:0:7")  # wrong (a Bottle 5), set first
    play(g, s, 0, "order", "set:0:7")  # right, set second
    play(g, s, 1, "order", "set:3:7")  # right too, but the window is used by then
    play(g, s, 0, "turn", "draw")
    events = play(g, s, 0, "place", "discard")
    lines = texts(events)
    wrong = lines.index("Cleo's standing order snaps slot 1: Bottle 5, wrong! It goes back face down.")
    right = lines.index("Anna's standing order snaps slot 1: Bottle 7. One card fewer!")
    assert wrong < right and len(hand(s, 2)) == 5 and hand(s, 0)[0] is None
    assert not any("Ben" in line and "snaps" in line for line in lines)
    assert g.view(s, 2)["orders"] == [] and g.view(s, 1)["orders"] == [{"slot": 3, "value": 7}]
    assert not private(events)


def test_decision_v2_post_no_order_for_the_value_the_game_goes_on():
    g, s = new_table(3, options=POST)
    p = Pick()
    arrange(s, active=0, hands={1: p.many(1, 2, 3, 4)}, draw=[p(7)])
    play(g, s, 1, "order", "set:0:3")
    play(g, s, 0, "turn", "draw")
    events = play(g, s, 0, "place", "discard")
    assert not any(e.kind == "snap" for e in events) and s.phase == "turn" and s.active == 1
    assert g.view(s, 1)["orders"] == [{"slot": 0, "value": 3}]


def test_decision_v2_post_orders_end_with_the_round():
    g, s = new_table(3, options=POST)
    play(g, s, 1, "order", "set:0:3")
    play(g, s, s.active, "turn", "omerta")
    assert s.round == 2 and s.orders == []


def test_decision_v2_post_the_same_record_replays_the_same_game():
    g = GAME
    state = g.new(["Anna", "Ben", "Cleo"], POST, 9)
    record = [Choice(seat, "peek", "0,1") for seat in range(3)]
    record += [Choice(1, "order", "set:1:5"), Choice(2, "order", "set:0:9")]
    for choice in record:
        g.apply(state, choice)
    again = g.new(["Anna", "Ben", "Cleo"], POST, 9)
    for choice in record:
        g.apply(again, choice)
    assert g.dumps(again) == g.dumps(state)
    assert GAME.loads(g.dumps(state)).orders == state.orders


# --- self-play with memory players ---------------------------------------------------------------------------


def test_decision_v2_bounded_rounds_memory_players_never_exceed_the_bound_the_cap_implies():
    """Cautious memory players (they call OMERTA only with 0 points) make the longest rounds: under version 2
    no round is longer than the cards a round can draw (``bench/omerta_rounds.py`` prints the figures)."""
    from bench.omerta_players import play as memory_play
    from bench.omerta_rounds import draw_bound

    bound = draw_bound(4)
    assert bound == 39 + 59
    longest = 0
    for seed in range(12):
        state, rounds = memory_play(4, seed, {"rules": 2}, call_at=0)
        assert GAME.invariants(state) == [] and len(rounds) == 4
        longest = max(longest, *rounds)
    assert longest <= bound


@pytest.mark.parametrize(("pace", "games"), [("live", 40), ("post", 12)])
def test_decision_v2_random_play_keeps_every_invariant_in_each_pace(pace, games):
    import random

    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.new(["Anna", "Ben", "Cleo", "Dino"], {"rules": 2, "pace": pace}, 700 + seed)
        for _ in range(20_000):
            if GAME.is_over(state):
                break
            prompts = GAME.prompts(state)
            orders = [p for p in prompts if p.optional and p.options]
            needed = [p for p in prompts if not p.optional]
            prompt = rng.choice(orders) if orders and rng.random() < 0.2 else rng.choice(needed)
            GAME.apply(state, Choice(prompt.seat, prompt.kind, rng.choice(prompt.options).id))
            assert GAME.invariants(state) == [], (seed, GAME.invariants(state))
            assert GAME.loads(GAME.dumps(state)) == state
        assert GAME.is_over(state), f"seed {seed}: no end"
