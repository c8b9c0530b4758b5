"""Fair play of the Speakeasy seat bots: a decision depends only on what the bot's seat can see.

The differential test of the trust issue applied to the bots: at many positions of random games, the real
state and copies with everything the bot's seat cannot see redrawn (``Game.scramble`` from that seat) must get
the same decision from every level.
"""

from __future__ import annotations

import random

import pytest

from bots.speakeasy import GAME, Budget, SpeakeasyBot
from bots.speakeasy_worlds import canonical
from engine.core import TABLE
from tests.engine.differential import self_play

SMALL = Budget(nodes=150, seconds=60.0)  # the node limit binds, never the clock: reproducible


def positions(players: int, seed: int, every: int):
    """Every ``every``-th position of a random game with a seat's prompt open: (state copy, prompt)."""
    for t, state, _choice in self_play(GAME, players, seed):
        if t % every:
            continue
        prompts = [p for p in GAME.prompts(state) if p.seat != TABLE]
        if prompts:
            yield GAME.loads(GAME.dumps(state)), prompts[0]


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (2, 8), (1, 5)])
def test_canonical_world_ignores_the_hidden_arrangement(players, seed):
    """The canonical form of a position is the same however its hidden parts lie (so the samples are too)."""
    rng = random.Random(seed)
    for state, prompt in positions(players, seed, 9):
        other = GAME.scramble(state, prompt.seat, rng)
        assert GAME.dumps(canonical(other, prompt.seat)) == GAME.dumps(canonical(state, prompt.seat))


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (3, 2), (2, 4), (1, 6)])
def test_easy_and_standard_decide_from_their_seat_only(players, seed):
    rng = random.Random(seed * 7)
    checked = 0
    for state, prompt in positions(players, seed, 7):
        for level in ("easy", "standard"):
            bot = SpeakeasyBot(level, salt=seed)
            want = bot.decide(state, prompt)
            for _ in range(2):
                other = GAME.scramble(state, prompt.seat, rng)
                got = bot.decide(other, prompt)
                assert (got.choice, got.expected) == (want.choice, want.expected), (level, prompt.kind)
            checked += 1
    assert checked > 15


def test_hard_decides_from_its_seat_only():
    rng = random.Random(99)
    bot = SpeakeasyBot("hard", salt=3, budget=SMALL)
    checked = 0
    for state, prompt in positions(4, 12, 37):
        if len(prompt.options) < 2:
            continue
        want = bot.decide(state, prompt)
        got = bot.decide(GAME.scramble(state, prompt.seat, rng), prompt)
        assert (got.choice, got.expected, got.nodes) == (want.choice, want.expected, want.nodes)
        checked += 1
    assert checked >= 3


def test_a_decision_is_reproducible_and_legal():
    state = GAME.new(["a", "b", "c"], {}, 21)
    for level in ("easy", "standard", "hard"):
        for _ in range(5 if level == "hard" else 15):
            prompt = GAME.prompts(state)[0]
            bot = SpeakeasyBot(level, salt=1, budget=SMALL)
            first, second = bot.decide(state, prompt), bot.decide(state, prompt)
            assert first.choice == second.choice and first.expected == second.expected
            assert prompt.option(first.choice.option) is not None
            GAME.apply(state, first.choice)


def test_unknown_level_is_refused_clearly():
    with pytest.raises(ValueError, match="choose one of easy, standard, hard"):
        SpeakeasyBot("expert")


def test_the_engine_never_imports_the_bots():
    """The bots are a layer above the engine: no engine module may import them."""
    from pathlib import Path

    engine = Path(__file__).resolve().parents[2] / "engine"
    for path in engine.rglob("*.py"):
        source = path.read_text()
        assert "import bots" not in source and "from bots" not in source, path
