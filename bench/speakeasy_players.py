"""Two simple Speakeasy players for benches and fixtures: uniform random, and a one-step greedy player.

The greedy player tries every option of its prompt on a copy of the state and keeps the one whose position is
worth most to it by a rough money estimate (``worth``); ties go to the earlier option, so it is deterministic.
It is a yardstick for the balance report, not a strong player.
"""

from __future__ import annotations

import random

from engine.core import Choice, Prompt
from engine.speakeasy.acts import bottles
from engine.speakeasy.board import buildings
from engine.speakeasy.game import SpeakeasyGame
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState

GAME = SpeakeasyGame()
#: Rough worth in dollars of things that are not yet money (the project's estimate for the greedy player only).
BUILDING_WORTH = {"stills": 6, "speakeasy": 5, "nightclub": 9, "casino": 13}
BARREL_WORTH = 4
LEVEL_WORTH = 2


def worth(state: SpeakeasyState, seat: int) -> float:
    """A rough final-money estimate of a seat's position."""
    r = rules()
    p = state.player(seat)
    value = p.pocket + p.safe
    for _d, _i, b in buildings(state, seat):
        value += BUILDING_WORTH[b.kind] + (BARREL_WORTH if b.barrel else 0)
        if b.family:
            value += r.final.protected[b.kind]
    value += sum(bottles(state, seat))
    value += 2 * p.stills_barrels + 3 * p.books + LEVEL_WORTH * sum(p.levels.values())
    value += p.leverage + p.goons + 2 * (p.family_vip + sum(z.count(seat) for z in state.docks)) + len(p.hand)
    return value


def random_choice(state: SpeakeasyState, prompt: Prompt, rng: random.Random) -> Choice:
    """Any legal option, uniformly."""
    return Choice(prompt.seat, prompt.kind, rng.choice(prompt.options).id)


def greedy_choice(state: SpeakeasyState, prompt: Prompt, rng: random.Random | None = None) -> Choice:
    """The option that leaves the deciding seat's position worth most after one step."""
    if len(prompt.options) == 1:
        return Choice(prompt.seat, prompt.kind, prompt.options[0].id)
    data = GAME.dumps(state)
    options = [o for o in prompt.options if o.id != "back"]  # going back changes nothing and could loop
    best, best_value = options[0].id, float("-inf")
    for option in options:
        trial = GAME.loads(data)
        GAME.apply(trial, Choice(prompt.seat, prompt.kind, option.id))
        value = worth(trial, prompt.seat)
        if value > best_value:
            best, best_value = option.id, value
    return Choice(prompt.seat, prompt.kind, best)


def play(
    players: int, seed: int, greedy_seats: frozenset[int] = frozenset(), options: dict | None = None
) -> tuple[SpeakeasyState, list[Choice]]:
    """A complete game (one player: against Jo): ``greedy_seats`` play greedy, the others random."""
    rng = random.Random(seed ^ 0xBA1A)
    state = GAME.new([f"P{i + 1}" for i in range(players)], options or {}, seed)
    choices: list[Choice] = []
    while not GAME.is_over(state):
        if len(choices) > 20_000:
            raise RuntimeError(f"seed {seed}: no end after {len(choices)} choices")
        prompt = GAME.prompts(state)[0]
        pick = greedy_choice if prompt.seat in greedy_seats else random_choice
        choice = pick(state, prompt, rng)
        GAME.apply(state, choice)
        choices.append(choice)
    return state, choices
