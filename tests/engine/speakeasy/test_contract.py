"""The engine contract for Speakeasy: hidden information, refusals that say why, JSON, replay and invariants.

Issue "engine I" sections 5 and 6 and its acceptance list (malformed and illegal choices refused with a reason).
"""

from __future__ import annotations

import json
import random

import pytest

from engine.core import Choice, IllegalChoice, replay
from engine.speakeasy.invariants import check
from tests.engine.speakeasy import kit

SECRET_KEYS = ("hand", "safe", "screen")


def _random_game(players: int, seed: int, steps: int = 10_000):
    state = kit.new(players, seed)
    rng = random.Random(seed)
    choices = []
    for _ in range(steps):
        if kit.GAME.is_over(state):
            break
        p = kit.prompt(state)
        c = Choice(p.seat, p.kind, rng.choice(p.options).id)
        kit.GAME.apply(state, c)
        choices.append(c)
    return state, choices


def _with_secrets(players: int = 3, seed: int = 4):
    state, _ = _random_game(players, seed, steps=120)
    for seat in range(players):
        kit.give(state, seat, safe=1234 + seat)
        kit.hand(state, seat, "vip")
        state.player(seat).screen.append(state.helper_deck.pop(0))
    return state


def test_view_own_seat_sees_hand_safe_and_screen():
    state = _with_secrets()
    for seat in range(3):
        v = kit.GAME.view(state, seat)
        mine = v["players"][seat]
        assert mine["safe"] == 1234 + seat
        assert [c["id"] for c in mine["hand"]] == state.player(seat).hand
        assert [h["id"] for h in mine["screen"]] == state.player(seat).screen


def test_view_others_and_spectators_see_counts_only():
    state = _with_secrets()
    for viewer in (None, 0, 1, 2):
        v = kit.GAME.view(state, viewer)
        for seat, entry in enumerate(v["players"]):
            if seat == viewer:
                continue
            for key in SECRET_KEYS:
                assert key not in entry
            assert entry["hand_count"] == len(state.player(seat).hand)
            assert entry["screen_count"] == len(state.player(seat).screen)
            assert str(1234 + seat) not in json.dumps(entry)


def test_spectator_view_has_no_safe_money_anywhere():
    state = _with_secrets()
    text = json.dumps(kit.GAME.view(state, None))
    for seat in range(3):
        assert str(1234 + seat) not in text
    assert '"hand":' not in text and '"safe":' not in text


def test_time_track_stacks_are_face_down_in_every_view():
    """Seed 000:12.4, design §1.5.1: the later wars' and patrols' tiles are only counted, not named."""
    state = kit.new(3, 2)
    v = kit.GAME.view(state, 0)
    assert v["war_stacks"] == [len(s) for s in state.war_stacks]
    assert v["cop_stacks"] == [4, 4]


def test_prompts_showing_a_hand_are_secret():
    state = kit.paused(3)
    kit.hand(state, 0, "fleet")
    kit.task(state, "play", 0, s="fleet")
    assert kit.prompt(state).secret


@pytest.mark.parametrize("players", [2, 3, 4])
def test_json_round_trip_and_replay_reproduce_the_state(players):
    state, choices = _random_game(players, 11 + players)
    data = kit.GAME.dumps(state)
    assert kit.GAME.dumps(kit.GAME.loads(data)) == data
    again = replay(kit.GAME, [f"P{i + 1}" for i in range(players)], {}, 11 + players, choices)
    assert kit.GAME.dumps(again) == data


def test_state_json_stays_under_64_kb():
    state, _ = _random_game(4, 3)
    assert len(kit.GAME.dumps(state)) < 64 * 1024


def test_same_seed_same_setup_other_seed_other_setup():
    assert kit.GAME.dumps(kit.new(3, 5)) == kit.GAME.dumps(kit.new(3, 5))
    assert kit.GAME.dumps(kit.new(3, 5)) != kit.GAME.dumps(kit.new(3, 6))


# ---- refusals: the acceptance list of issue "engine I" ----


def test_refused_malformed_choices():
    state = kit.played(3)
    p = kit.prompt(state)
    for bad in (
        ("not", "a", "choice"),
        Choice(p.seat, p.kind, 7),  # type: ignore[arg-type]
        Choice(p.seat, p.kind, "no-such-option"),
        Choice(p.seat, "no-such-kind", p.options[0].id),
        Choice(True, p.kind, p.options[0].id),  # type: ignore[arg-type]
        Choice(99, p.kind, p.options[0].id),
    ):
        assert kit.refuse(state, bad)  # type: ignore[arg-type]


def test_refused_wrong_seat_names_whose_decision_it_is():
    state = kit.played(3)
    p = kit.prompt(state)
    other = (p.seat + 1) % 3
    msg = kit.refuse(state, Choice(other, p.kind, p.options[0].id))
    assert f"It is {state.player(p.seat).name}'s decision now" in msg


def test_refused_a_taken_person():
    state = kit.paused(3)
    state.persons["alderman"] = 1
    kit.task(state, "place", 0)
    msg = kit.refuse(state, Choice(0, "place", "person:alderman"))
    assert "already has P2's Capo this Act" in msg
    assert "person:police_captain" in msg  # and says what is allowed


def test_refused_an_unaffordable_building():
    state = kit.paused(3)
    kit.give(state, 0, pocket=4, safe=3)  # can spend $4 + $1
    kit.task(state, "build", 0, n=2)
    msg = kit.refuse(state, Choice(0, "build", "row:speakeasy:6"))
    assert "costs $8; you can spend at most $5" in msg


def test_refused_a_seventh_goon():
    state = kit.paused(3)
    kit.give(state, 0, goons=5, pocket=20)
    kit.task(state, "hire_goons", 0)
    kit.answer(state, "hire")  # the sixth Goon, on the $5 space
    assert state.player(0).goons == 6
    kit.task(state, "hire_goons", 0)
    msg = kit.refuse(state, Choice(0, "hire_goons", "hire"))
    assert "All 6 Goon spaces are full" in msg


def test_refused_a_take_over_without_enough_strength():
    state = kit.paused(3)
    held = next(d for d in state.districts if d.strength)
    space = next(i for i, sp in enumerate(held.spaces) if sp.mobster)
    kit.give(state, 0, goons=0, pocket=30, associate=None)
    kit.task(state, "build", 0, n=2)
    kit.answer(state, "row:speakeasy:0")
    msg = kit.refuse(state, Choice(0, "build_at", f"take:{held.number}:{space}:g{held.strength - 1}"))
    assert f"needs Strength {held.strength}; you reach at most 1" in msg


def test_refused_a_level_5_raise_without_a_discard():
    state = kit.paused(3)
    kit.give(state, 0, levels={"party": 4})
    kit.empty_hand(state, 0)
    kit.task(state, "level_any", 0)
    assert "raise:party" not in kit.ids(state)
    msg = kit.refuse(state, Choice(0, "level_any", "raise:party"))
    assert "Raising Party to 5 needs 1 discarded card; you hold 0" in msg


def test_invariants_catch_a_card_in_two_places():
    state = kit.played(3)
    assert check(state) == []
    state.player(0).hand.append(state.decks["vip"][0])
    assert any("Operations cards" in line for line in check(state))


def test_invariants_catch_negative_money_and_a_falling_infamy():
    state = kit.played(3)
    kit.give(state, 1, pocket=-1, infamy=4)
    problems = " ".join(check(state))
    assert "pocket is -1" in problems and "Infamy 4" in problems


def test_jo_deck_order_is_in_no_view():
    """Issue "at the table": no public message or picture may show Jo's deck order; the view gives counts."""
    state = kit.GAME.new(["Ann"], {"difficulty": 4}, 3)
    kit.setup_round(state)
    for viewer in (None, 0):
        v = kit.GAME.view(state, viewer)
        assert v["jo"]["deck_count"] == len(state.jo.deck)
        text = json.dumps(v)
        assert json.dumps(state.jo.deck) not in text and json.dumps(state.jo.districts) not in text
        assert "deck" not in {k for k in v["jo"] if k != "deck_count"}


def test_final_parts_are_in_the_view_only_when_the_game_is_over():
    state, _ = _random_game(2, 21)
    assert kit.GAME.is_over(state)
    v = kit.GAME.view(state, None)
    assert all(p["final"]["total"] == state.player(i).final["total"] for i, p in enumerate(v["players"]))
    mid = kit.played(2, 21)
    assert all("final" not in p for p in kit.GAME.view(mid, None)["players"])


def test_a_question_that_can_cost_money_is_private_by_its_kind():
    """Design §4: the safe is hidden. A question whose options are what the seat can pay for is private by its
    kind (answered through "My options"), whether the pocket alone could pay or not: whether it is on the public
    board tells nothing about the safe. A question that reads nothing hidden stays public."""
    for pocket, safe in ((20, 0), (0, 10)):
        state = kit.paused(3)
        kit.give(state, 0, pocket=pocket, safe=safe, goons=1)
        kit.task(state, "hire_goons", 0)
        prompt = kit.prompt(state)
        assert prompt.secret and prompt.options[0].cost == 1
        assert prompt.public().options == () and prompt.public().kind == "hire_goons"
    state = kit.paused(3)
    kit.task(state, "take_card", 0)
    assert not kit.prompt(state).secret


@pytest.mark.parametrize("players", [1, 4])
def test_the_kept_question_is_the_question_a_fresh_copy_asks(players):
    """Issue 27 (choices without waste): ``advance`` keeps the open question's options with the state for the
    ``prompts`` and the validation that follow. At every step of whole random games (solo against Jo, and four
    players) the prompts, the bots' ``question`` and a refusal are exactly those of a copy that never kept
    anything, and what is kept is neither stored nor compared."""
    game = kit.GAME
    state = game.new(["A"] if players == 1 else ["A", "B", "C", "D"], {}, 5)
    rng = random.Random(5)
    steps = 0
    while not game.is_over(state):
        fresh = game.loads(game.dumps(state))
        assert "asked" in state.__dict__ and not fresh.__dict__
        assert game.prompts(state) == game.prompts(fresh)
        assert game.question(state) == game.question(fresh)
        assert fresh == state and game.dumps(fresh) == game.dumps(state)
        p = game.prompts(state)[0]
        wrong = Choice(p.seat, p.kind, "no-such-option")
        with pytest.raises(IllegalChoice) as kept:
            game.apply(state, wrong)
        with pytest.raises(IllegalChoice) as made:
            game.apply(fresh, wrong)
        assert str(kept.value) == str(made.value)
        game.apply(state, Choice(p.seat, p.kind, rng.choice(p.options).id))
        steps += 1
    assert steps > 40


def test_apply_offered_plays_the_same_game_without_words():
    """A bot's trial choice (``Game.apply_offered``) makes no log lines and skips the undo reveal check, and the
    game goes exactly as with ``apply``: the same state after every choice (``undo_mark`` aside)."""
    import random

    import msgspec

    from engine.core import Choice
    from engine.speakeasy.game import SpeakeasyGame

    game = SpeakeasyGame()
    for players, seed in ((1, 2), (3, 5)):
        real = game.new([f"P{i}" for i in range(players)], {}, seed)
        quiet = game.loads(game.dumps(real))
        rng = random.Random(seed)
        said = 0
        while not game.is_over(real):
            pairs = [(p, o) for p in game.prompts(real) for o in p.options]
            p, o = rng.choice(pairs)
            said += len(game.apply(real, Choice(p.seat, p.kind, o.id)))
            assert game.apply_offered(quiet, Choice(p.seat, p.kind, o.id)) == []
            a, b = msgspec.structs.replace(real, undo_mark=0), msgspec.structs.replace(quiet, undo_mark=0)
            assert game.dumps(a) == game.dumps(b)
        assert said > 0
