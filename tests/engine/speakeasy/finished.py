"""Complete Speakeasy games of random legal choices, for the tests of the final standings and message."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.core import Choice
from engine.speakeasy.game import SpeakeasyGame
from engine.speakeasy.state import SpeakeasyState

GAME = SpeakeasyGame()


def random_game(
    players: int,
    seed: int,
    *,
    each_step: Callable[[SpeakeasyState], None] | None = None,
    names: list[str] | None = None,
) -> SpeakeasyState:
    """A complete game of random legal choices (solo: against Jo at a difficulty from the seed)."""
    rng = random.Random(seed)
    options = {"difficulty": 1 + seed % 4} if players == 1 else {}
    state = GAME.new(names or [f"P{i + 1}" for i in range(players)], options, seed)
    while not GAME.is_over(state):
        prompt, option = rng.choice([(p, o) for p in GAME.prompts(state) for o in p.options])
        GAME.apply(state, Choice(prompt.seat, prompt.kind, option.id))
        if each_step is not None:
            each_step(state)
    return state
