"""bench.bots_strength's level names: ``hard*4`` is hard at four times the pair's node limit."""

from __future__ import annotations

import pytest

from bench.bots_strength import bot_of


def test_a_times_suffix_multiplies_hards_node_limit():
    assert bot_of("hard", 1, 400).budget.nodes == 400
    four = bot_of("hard*4", 1, 400)
    assert (four.level, four.budget.nodes) == ("hard", 1600)
    assert bot_of("standard", 1, 400).level == "standard"
    with pytest.raises(ValueError):
        bot_of("hard*x", 1, 400)
