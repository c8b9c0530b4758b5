"""The undo floor moves by itself (issue "trust"; architecture: undo never reaches behind a reveal).

Acceptance test: over 1,000 self-play games (solo against Jo, 2, 3 and 4 players), a differential oracle decides
at every step, independently of the engine's bookkeeping, whether the step showed anything: the state before the
step is scrambled for the chooser and for a spectator (``Game.scramble``), the same choice is applied to both,
and if the chooser's or the spectator's view afterwards differs from the real game's, the step revealed
something. Then no undo may take it back: ``undo_floor`` after step ``t`` is at least ``t + 1``. A choice by
another seat than the one before fixes every earlier choice (``undo_floor >= t``).

Split into chunks so that pytest-xdist spreads them (``pytest -n 2``).
"""

from __future__ import annotations

import random

import pytest

from engine.speakeasy.game import SpeakeasyGame
from tests.engine.differential import reveal_check, self_play

GAME = SpeakeasyGame()
CHUNKS = 10
GAMES_PER_CHUNK = 100
#: Player counts, one per game in turn (every count, solo games most often: they are the shortest).
MIX = (1, 2, 1, 3, 1, 4, 1, 2, 1, 1)


def undo_misses(first_game: int, games: int) -> dict[str, int]:
    """Play ``games`` games from seed ``first_game``; count the reveal steps, the reveals the undo floor did not
    fix, and the steps where the chooser changed but earlier choices stayed open."""
    out = {"steps": 0, "reveals": 0, "reveal_missed": 0, "seat_changes": 0, "seat_missed": 0}
    rng = random.Random(first_game)
    for g in range(first_game, first_game + games):
        seats: list[int] = []
        check = state = None
        for t, state, choice in self_play(GAME, MIX[g % len(MIX)], g):
            if check is not None:  # ``state`` is now the state after step t - 1
                _settle(out, state, t - 1, seats, check)
            seats.append(choice.seat)
            check = reveal_check(GAME, state, choice, rng)
        _settle(out, state, len(seats) - 1, seats, check)
    return out


def _settle(out: dict[str, int], after, t: int, seats: list[int], check) -> None:
    """Count step ``t`` given the state after it."""
    floor = GAME.undo_floor(after)
    out["steps"] += 1
    if check(after):
        out["reveals"] += 1
        out["reveal_missed"] += floor < t + 1
    if t > 0 and seats[t] != seats[t - 1]:
        out["seat_changes"] += 1
        out["seat_missed"] += floor < t


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_revealing_step_is_fixed_and_a_new_chooser_fixes_the_past(chunk):
    out = undo_misses(10_000 + chunk * GAMES_PER_CHUNK, GAMES_PER_CHUNK)
    assert out["reveals"] > 0 and out["seat_changes"] > 0, out
    assert out["reveal_missed"] == 0 and out["seat_missed"] == 0, out


def test_the_fingerprint_reads_the_piles_shared_piles_defines():
    """The fingerprint reads the piles straight from the state (it is taken twice a choice); its names and
    face-down parts are those of ``shared_piles``, the one definition of the face-down piles, in every kind of
    game and at every step."""
    from engine.speakeasy.hidden import _names, fingerprint, shared_piles

    for players, seed in ((1, 3), (2, 4), (3, 5), (4, 6)):
        for _t, state, _choice in self_play(GAME, players, seed):
            rng_state, layout, parts = fingerprint(state)
            piles = shared_piles(state)
            assert rng_state == state.rng.state
            assert _names(layout) == tuple(p.name for p in piles)
            assert parts == tuple(tuple(p.items[p.start :]) for p in piles)
