"""bench.fit_evaluation: the least-squares fit and R^2 it reports, and a position read in parts."""

from __future__ import annotations

import random

from bench.fit_evaluation import FEATURES, parts, r2, solve
from bots.speakeasy import GAME
from bots.speakeasy_worth import Reading


def test_the_fit_recovers_known_weights_and_scores_them():
    rng = random.Random(1)
    xs = [[rng.uniform(-5, 5), rng.uniform(0, 50)] for _ in range(200)]
    ys = [3.0 * a - 0.5 * b + 7.0 for a, b in xs]
    w = solve(xs, ys)
    assert [round(v, 3) for v in w] == [3.0, -0.5, 7.0]
    assert r2(w, xs, ys) > 0.999999
    assert r2([0.0, 0.0, sum(ys) / len(ys)], xs, ys) == 0.0  # the mean alone explains nothing


def test_a_position_is_read_in_every_part():
    state = GAME.new(["A", "B"], {"settle": "auto"}, 3)
    row = parts(state, 0, Reading(state))
    assert len(row) == len(FEATURES)
    p = state.player(0)
    assert row[FEATURES.index("money")] == p.pocket + p.safe
    assert row[FEATURES.index("hand")] == len(p.hand)
