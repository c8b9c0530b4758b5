"""Issue "deciding well": the table settles what is not a choice (table option ``settle``).

A question the public knows has one answer (no defence possible whatever the safe holds; one deck left) is
answered at once with its reason in the log; an impossible defence next to possible answers is greyed out with
why. Private questions whose single answer only the player can know (the safe cannot pay) are still asked: the
table waiting on them is public, so settling them would show the safe."""

from __future__ import annotations

import random

import pytest

from engine.core import Choice
from engine.speakeasy.game import SpeakeasyGame

GAME = SpeakeasyGame()


def _games(players: int, settle: str, count: int, seed: int):  # noqa: ANN202
    for g in range(count):
        state = GAME.new([f"P{i + 1}" for i in range(players)], {"settle": settle}, seed + g)
        rng = random.Random(seed + g)
        events = []
        while not GAME.is_over(state):
            prompt = next(p for p in GAME.prompts(state) if p.race is None)
            yield state, prompt
            option = rng.choice(prompt.options)
            events += GAME.apply(state, Choice(prompt.seat, prompt.kind, option.id))
        yield state, events


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_no_public_question_with_one_answer_reaches_a_player_when_settling(players):
    singles = settled = 0
    for _state, item in _games(players, "auto", 6, 500 + players):
        if isinstance(item, list):
            settled += sum(1 for e in item if e.kind == "settled")
            continue
        if not item.secret and len(item.options) == 1:
            singles += 1
    assert singles == 0
    assert settled > 0


def test_without_settling_such_questions_are_asked():
    singles = 0
    for _state, item in _games(4, "off", 4, 900):
        if not isinstance(item, list) and not item.secret and len(item.options) == 1:
            singles += 1
    assert singles > 0


def test_a_settled_defence_says_what_it_needed_and_what_the_owner_reaches():
    lines = []
    for _state, item in _games(4, "auto", 6, 40):
        if isinstance(item, list):
            lines += [e.text for e in item if e.kind == "settled" and "defence" in e.text]
    assert lines, "some defence was impossible"
    for text in lines:
        assert "Do not defend" in text and "no defence possible: needs " in text and ", reaches " in text


def test_an_impossible_defence_is_greyed_out_with_why_and_cannot_be_chosen():
    from engine.core import IllegalChoice, find_prompt

    for state, item in _games(4, "off", 8, 60):
        if isinstance(item, list) or item.kind != "defend" or not item.unavailable:
            continue
        (grey,) = item.unavailable
        assert grey.id == "defend" and grey.disabled.startswith("needs ") and ", you reach " in grey.disabled
        assert grey.id not in {o.id for o in item.options}
        with pytest.raises(IllegalChoice):
            find_prompt(GAME.prompts(state), Choice(item.seat, "defend", "defend"))
        return
    pytest.fail("no greyed-out defence in 8 games")


def test_old_records_replay_without_settling():
    assert GAME.new(["A", "B"], {}, 1).settle is False
    assert GAME.new(["A", "B"], {"settle": "auto"}, 1).settle is True
