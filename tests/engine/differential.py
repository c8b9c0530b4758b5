"""Differential helpers: compare a game with the same game whose hidden parts were redrawn (``Game.scramble``).

If two states look the same to a seat (``scramble(state, seat, rng)``), anything that differs between them
afterwards (a view, a public prompt, a log line) was computed from what that seat could not see. The privacy
tests (is a question's public side, the board, free of hidden values?) and the undo test (did a step show
anything?) are built from these pieces.

    for t, state, choice in self_play(game, players, seed):
        after = reveal_check(game, state, choice, rng)   # before the choice is applied
        ...                                              # self_play applies it when the loop goes on
        then, on the next round: after(previous_state) tells whether step t revealed something

``self_play`` yields the live state; copy it (``copy_state``) before changing it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from engine.core import TABLE, Choice, Game, IllegalChoice, PublicPrompt

#: A game that has not ended after this many choices is a loop in the rules (self-play's own bound).
MAX_STEPS = 50_000


def copy_state(game: Game, state: Any) -> Any:
    """An independent copy (a JSON round trip: tens of microseconds)."""
    return game.loads(game.dumps(state))


def public_side(game: Game, state: Any) -> tuple[list[PublicPrompt], dict[str, Any]]:
    """Everything public about a position: the open questions' public sides and the spectator view."""
    return [p.public() for p in game.prompts(state)], game.view(state, None)


def self_play(
    game: Game, players: int, seed: int, options: dict[str, Any] | None = None
) -> Iterator[tuple[int, Any, Choice]]:
    """A random complete game: yields ``(t, state, choice)`` before choice ``t`` is applied to the live
    ``state``; the generator applies it when it is resumed. Picks uniformly among every (prompt, option)."""
    state = game.new([f"P{i + 1}" for i in range(players)], dict(options or {}), seed)
    rng = random.Random(seed ^ 0xD1FF)
    for t in range(MAX_STEPS):
        if game.is_over(state):
            return
        pairs = [(p, o) for p in game.prompts(state) for o in p.options]
        prompt, option = rng.choice(pairs)
        choice = Choice(prompt.seat, prompt.kind, option.id)
        yield t, state, choice
        game.apply(state, choice)
    raise AssertionError(f"seed {seed}: no end after {MAX_STEPS} choices")


def _viewer(choice: Choice) -> int | None:
    """The seat whose view a choice may have changed (the table's timer has none of its own)."""
    return None if choice.seat == TABLE else choice.seat


def reveal_check(game: Game, state: Any, choice: Choice, rng: random.Random) -> Callable[[Any], bool]:
    """The differential oracle of one step, prepared before ``choice`` is applied to ``state``.

    ``state`` is scrambled for the chooser and for a spectator, and the same choice is applied to both copies.
    The returned function takes the real state after the choice and says whether the step revealed anything:
    whether the chooser's view or the spectator's view after the step differs between the real and a scrambled
    run. (A spectator's copy also redraws the chooser's own secrets, so there only the spectator's view counts;
    a choice that is not legal in a copy tells nothing and is left out.)"""
    seat = _viewer(choice)
    runs: list[tuple[Any, tuple[int | None, ...]]] = []
    whom: tuple[int | None, ...] = (seat, None) if seat is not None else (None,)
    for who in whom:
        other = game.scramble(state, who, rng)
        try:
            game.apply(other, choice)
        except IllegalChoice:
            continue
        runs.append((other, (None, seat) if who is not None else (None,)))

    def check(after: Any) -> bool:
        real: dict[int | None, dict[str, Any]] = {}
        for other, viewers in runs:
            for v in viewers:
                if v not in real:
                    real[v] = game.view(after, v)
                if game.view(other, v) != real[v]:
                    return True
        return False

    return check


def chooser_changes(choices: list[Choice], t: int) -> bool:
    """Whether choice ``t`` is made by another seat than choice ``t - 1``."""
    return t > 0 and choices[t].seat != choices[t - 1].seat
