"""Issue 25, beliefs the bots can trust: a rival's safe is estimated from the public board (Books placed, Infamy
passed, the Zone markers of the last payout), not drawn from $1-40 while rivals hold $70-150 from Act 2."""

from __future__ import annotations

import random
import statistics

from bots.speakeasy import SpeakeasyBot
from bots.speakeasy_beliefs import public_safe
from bots.speakeasy_worlds import world
from engine.core import TABLE
from engine.speakeasy import hidden
from engine.speakeasy.game import SpeakeasyGame

GAME = SpeakeasyGame()


def _positions(seed: int, players: int = 3, every: int = 30):  # noqa: ANN202
    """Positions of a game the easy bots play (they build, cook and score, unlike a random player)."""
    state = GAME.new([f"P{i}" for i in range(players)], {"settle": "auto"}, seed)
    bots = [SpeakeasyBot("easy", seed * 8 + i) for i in range(players)]
    k = 0
    while not GAME.is_over(state):
        prompt = next(p for p in GAME.prompts(state) if p.seat != TABLE)
        GAME.apply(state, bots[prompt.seat].choose(state, prompt))
        k += 1
        if k % every == 0:
            yield state


def test_the_estimate_is_a_function_of_public_information():
    """Scrambling everything hidden (the safes among it) leaves every seat's estimate as it was."""
    for state in _positions(3, every=60):
        other = hidden.scramble(state, None, random.Random(1))
        assert [public_safe(other, s) for s in range(3)] == [public_safe(state, s) for s in range(3)]


def test_a_sampled_rival_safe_is_near_the_real_one():
    """From Act 2 on, the safes a bot imagines for its rivals are off by less than a third of the real amount on
    average (the $1-40 draw was off by more than half)."""
    real, drawn = [], []
    for state in (s for seed in (1, 2) for s in _positions(seed, every=12)):
        if state.act < 2 or state.phase == "over":
            continue
        w = world(state, 0, random.Random(7))
        for s in (1, 2):
            real.append(state.player(s).safe)
            drawn.append(w.player(s).safe)
    assert len(real) > 10
    error = statistics.mean(abs(a - b) for a, b in zip(real, drawn, strict=True))
    assert error < statistics.mean(real) / 3, (error, statistics.mean(real))
