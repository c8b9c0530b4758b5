"""Differential helpers: compare a game with the same game whose hidden parts were redrawn (``Game.scramble``).

If two states look the same to a seat (``scramble(state, seat, rng)``), anything that differs between them
afterwards (a view, a public prompt, a log line) was computed from what that seat could not see. The privacy
tests (is the public side of a position free of hidden values?) and the undo test (did a step show anything?)
are built from these pieces:

* ``self_play`` walks a random complete game and yields each position with the choice about to be applied;
* ``public_side`` is everything public about a position; ``public_after`` the same after one more choice;
* ``reveal_check`` is the oracle of one step: prepared before the choice, asked with the state after it.
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


def public_after(game: Game, state: Any, choice: Choice) -> tuple[list[PublicPrompt], dict[str, Any]] | None:
    """``public_side`` after applying ``choice`` to a copy of ``state``; ``None`` when it is not legal there."""
    other = copy_state(game, state)
    try:
        game.apply(other, choice)
    except IllegalChoice:
        return None
    return public_side(game, other)


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


def _run(game: Game, state: Any, choice: Choice) -> Any | None:
    """``state`` after ``choice``, or ``None`` when the choice is not legal there (it then tells nothing)."""
    try:
        game.apply(state, choice)
    except IllegalChoice:
        return None
    return state


def reveal_check(game: Game, state: Any, choice: Choice, rng: random.Random) -> Callable[[Any], bool]:
    """The differential oracle of one step, prepared before ``choice`` is applied to ``state``.

    ``state`` is scrambled for the chooser and for a spectator, and the same choice is applied to both copies.
    The returned function takes the real state after the choice and says whether the step revealed anything:
    whether the chooser's view or the spectator's view after the step differs from the real game's. In the
    chooser's copy the chooser's view is compared (it holds everything the spectator sees); in the spectator's
    copy, which also redraws the chooser's own secrets, only the spectator's view. A choice that is not legal in
    a copy tells nothing. The spectator's copy is played only when the chooser's shows nothing."""
    seat = _viewer(choice)
    mine = _run(game, game.scramble(state, seat, rng), choice) if seat is not None else None
    spectators = game.scramble(state, None, rng)  # applied only if the chooser's copy shows nothing

    def check(after: Any) -> bool:
        if mine is not None and game.view(mine, seat) != game.view(after, seat):
            return True
        other = _run(game, spectators, choice)
        return other is not None and game.view(other, None) != game.view(after, None)

    return check
