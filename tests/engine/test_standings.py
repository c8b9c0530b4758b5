"""Issue 23, "Ending well": each engine's standings at the current position, for a game its players end by
agreement. They leave the state alone, and at the end of a game they are its result."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Choice, Game
from engine.registry import TABLE_GAMES


def play_defaults(game: Game, state: Any, until: Any, limit: int = 5000, *, strict: bool = True) -> None:
    """Each waited-for question's default option, until ``until(state)`` or the game's end (``strict``: it must
    get there within ``limit`` steps; else ``limit`` steps are enough)."""
    for _ in range(limit):
        if until(state) or game.is_over(state):
            return
        prompts = [p for p in game.prompts(state) if not p.optional]
        p = prompts[0]
        game.apply(state, Choice(p.seat, p.kind, p.default_option()))
    if strict:
        raise AssertionError("the game did not get there")


@pytest.mark.parametrize("name", sorted(TABLE_GAMES))
def test_standings_mid_game_leave_the_state_alone(name: str) -> None:
    """Issue 23: standings now, mid-game, change nothing in the position (Speakeasy scores a copy)."""
    game = TABLE_GAMES[name]
    state, _ = game.start(["Anna", "Ben", "Cleo"], {}, 11)
    play_defaults(game, state, lambda s: False, limit=60, strict=False)
    before = game.dumps(state)
    result = game.standings(state)  # type: ignore[attr-defined]
    assert game.dumps(state) == before and not game.is_over(state)
    assert len(result.scores) == 3 and result.winners and len(result.details) >= 3


def test_omerta_standings_are_the_rounds_scored_so_far_lowest_first() -> None:
    """Issue 23: Omerta's standings mid-game are each player's total of the rounds scored (as the board shows
    them), lowest first and equal totals sharing the place; at the end, the game's result."""
    game = TABLE_GAMES["omerta"]
    state, _ = game.start(["Anna", "Ben", "Cleo"], {}, 5)
    play_defaults(game, state, lambda s: any(p.round_scores for p in s.players))
    result = game.standings(state)  # type: ignore[attr-defined]
    totals = tuple(p.total for p in state.players)
    assert result.scores == totals and result.lower_is_better
    assert result.winners == tuple(i for i, t in enumerate(totals) if t == min(totals))
    play_defaults(game, state, lambda s: False)
    assert game.standings(state) == game.result(state)  # type: ignore[attr-defined]


def test_speakeasy_standings_are_the_final_scoring_of_the_position() -> None:
    """Issue 23: Speakeasy's standings mid-game are what the final scoring would give now (pocket and safe money
    at least: nothing scores negative), ranked by the game's own tie-breakers (one first)."""
    game = TABLE_GAMES["speakeasy"]
    state, _ = game.start(["Anna", "Ben", "Cleo"], {}, 3)
    play_defaults(game, state, lambda s: False, limit=200, strict=False)
    result = game.standings(state)  # type: ignore[attr-defined]
    for seat, p in enumerate(state.players):
        assert result.scores[seat] >= p.pocket + p.safe
    assert len(result.winners) == 1 and not result.lower_is_better
