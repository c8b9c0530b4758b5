"""bench.bots_strength's level names: ``hard*4`` is hard at four times the pair's node limit, ``hard+fitted`` hard
judging by the evaluation fitted on self-play."""

from __future__ import annotations

import pytest

from bench.bots_strength import bot_of, pair, solo


def test_a_times_suffix_multiplies_hards_node_limit():
    assert bot_of("hard", 1, 400).budget.nodes == 400
    four = bot_of("hard*4", 1, 400)
    assert (four.level, four.budget.nodes) == ("hard", 1600)
    assert bot_of("standard", 1, 400).level == "standard"
    with pytest.raises(ValueError):
        bot_of("hard*x", 1, 400)


def test_a_fitted_suffix_gives_hard_the_fitted_evaluation():
    from bots.speakeasy_evaluation import fitted_margins

    assert bot_of("hard", 1, 400).judge is None  # the table's hard: the hand-made margin
    fitted = bot_of("hard*4+fitted", 1, 400)
    assert (fitted.level, fitted.budget.nodes, fitted.judge) == ("hard", 1600, fitted_margins)
    with pytest.raises(ValueError, match=r"the only one is '\+fitted'"):
        bot_of("hard+deep", 1, 400)


def test_a_jo_pair_plays_solo_games_against_jo_at_that_difficulty():
    """``LEVEL:joN``: the level alone against Jo at difficulty N (seed 003), its win share."""
    out = pair("easy", "jo4", 2, 3, 400)
    assert out["pair"] == "easy vs jo4" and out["games"] == 2
    assert out["win_share"] == (solo("easy", 4, 3, 400) + solo("easy", 4, 4, 400)) / 2
    # easy, which hardly builds, loses to Jo at difficulty 4 on seed 3 (its score 100 against his 200)
    assert solo("easy", 4, 3, 400) is False
