"""Recorded openings that reach positions worth testing: a builder who crowds one district meets its Mob War."""

from __future__ import annotations

import random
from typing import Any

from engine.core import Choice, Option, Prompt
from engine.speakeasy.game import SpeakeasyGame

NAMES = ["Anna", "Ben", "Cleo", "Dan"]
#: With this seed and these names, Cleo (seat 2) defends three buildings in one district in the first Mob War.
THREE_BUILDINGS_SEED = 11


def _score(state: Any, prompt: Prompt, option: Option) -> float:
    """A builder: open buildings, crowd the districts where they already stand (and a Mob War will come)."""
    parts = option.id.split(":")
    if option.id.startswith("row:"):
        return 5 if parts[1] == "speakeasy" else 4
    if prompt.kind in ("build_at", "setup_at") and len(parts) > 2 and parts[1].isdigit():
        d = state.districts[int(parts[1]) - 1]
        mine = sum(1 for sp in d.spaces if sp.building and sp.building.owner == prompt.seat)
        return 10 * mine + (5 if d.war_tile else 0) + 1
    if option.id == "skip":
        return -1
    return random.random()


def three_building_war(seed: int = THREE_BUILDINGS_SEED) -> tuple[Any, list[Choice]]:
    """The state where one owner is about to be asked to defend three buildings in one district (with a real
    choice), and the choices that lead there from a new 4-player table (settle=auto)."""
    game = SpeakeasyGame()
    state = game.new(NAMES, {"settle": "auto"}, seed)
    random.seed(seed)
    choices: list[Choice] = []
    while not game.is_over(state) and len(choices) < 2000:
        prompt = next(p for p in game.prompts(state) if p.race is None)
        if prompt.kind == "defend" and len(prompt.options) >= 2:
            same = [t for t in state.tasks if t.kind == "defend" and t.seat == prompt.seat and t.n == state.tasks[-1].n]
            if len(same) >= 3:
                return state, choices
        option = max(prompt.options, key=lambda o: _score(state, prompt, o))
        choice = Choice(prompt.seat, prompt.kind, option.id)
        game.apply(state, choice)
        choices.append(choice)
    raise AssertionError(f"seed {seed} never reaches a three-building Mob War")
