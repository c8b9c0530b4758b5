"""Real Omerta positions for the render tests: random legal play from fixed seeds."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.core import Choice
from engine.omerta import OmertaGame
from engine.omerta.state import OmertaState

NAMES = ["Anna", "Ben", "Cleo", "Dario", "Eve"]

View = dict[str, Any]


def reach(
    players: int, seed: int, stop: Callable[[View], bool], max_steps: int = 5000, omerta_rate: float = 0.05
) -> tuple[OmertaGame, OmertaState]:
    """Play random legal choices until ``stop(spectator view)`` holds; the game and its state then.

    OMERTA is called only now and then (``omerta_rate`` of the turns where it is allowed), so rounds last long
    enough to see snaps, powers and penalty cards. Raises ``LookupError`` if the position is not reached.
    """
    g = OmertaGame()
    state = g.new(NAMES[:players], {}, seed=seed)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if stop(g.view(state, None)):
            return g, state
        if g.is_over(state):
            break
        prompt = rng.choice(g.prompts(state))
        options = list(prompt.options)
        if prompt.kind == "turn" and len(options) > 1 and rng.random() > omerta_rate:
            options = [o for o in options if o.id != "omerta"]
        option = rng.choice(options)
        g.apply(state, Choice(prompt.seat, prompt.kind, option.id))
    raise LookupError("position not reached")


def play_until(
    players: int, seed: int, stop: Callable[[View], bool], max_steps: int = 5000, omerta_rate: float = 0.05
) -> View:
    """Like ``reach``, but the spectator view of the position."""
    g, state = reach(players, seed, stop, max_steps, omerta_rate)
    return g.view(state, None)
