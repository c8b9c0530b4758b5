"""The CI acceptance checks: random self-play games of both games at every player count, all clean.

Self-play checks, after every choice, that illegal and malformed choices are refused with the state
unchanged, that the invariants hold, that every view is JSON, and at the end that the state survives a JSON
round trip and that seed + choices replay to the same state (see engine/selfplay.py).

Each check is split into chunks of consecutive seeds, so that pytest-xdist can spread them over the cores;
together the chunks play exactly the games the issues ask for.
"""

from __future__ import annotations

import pytest

from engine.selfplay import run

CHUNK = 50


def _chunks(games: int) -> list[int]:
    return list(range(0, games, CHUNK))


def _clean(tally, games: int) -> None:
    summary = tally.summary()
    assert tally.games == games, summary
    assert tally.completed == games, summary
    assert tally.errors == 0, summary
    assert tally.invariant_violations == 0, summary
    assert tally.replay_mismatches == 0, summary
    assert tally.ok and not tally.messages, summary


@pytest.mark.slow
@pytest.mark.parametrize("start", _chunks(300))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_selfplay_omerta_300_games_complete_without_errors(players, start):
    _clean(run("omerta", players, CHUNK, seed=1 + start), CHUNK)


@pytest.mark.slow
@pytest.mark.parametrize("start", _chunks(300))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_selfplay_speakeasy_300_complete_games_without_errors(players, start):
    """Issue "engine II": 300 complete games per player count, from setup to the 1933 final scoring, with every
    invariant after every choice, no error, violation or replay mismatch, and a result for each game."""
    # every other chunk with settle=auto (issue "deciding well"): forced questions answered by the table
    settle = "auto" if (start // CHUNK) % 2 else "off"
    tally = run("speakeasy", players, CHUNK, seed=1 + start, options={"settle": settle})
    _clean(tally, CHUNK)  # self-play counts a game complete only when is_over and a result
    # Every game is the Setup Round plus 11 rounds: at least 12 turns' worth of choices per player.
    assert tally.choices >= CHUNK * players * 12, tally.summary()


@pytest.mark.slow
@pytest.mark.parametrize("start", _chunks(250))
@pytest.mark.parametrize("difficulty", [1, 2, 3, 4])
def test_selfplay_speakeasy_solo_against_jo_250_games_per_difficulty(difficulty, start):
    """Issue "Jo": 1,000 complete solo games in all (250 per difficulty), a random player against Jo, clean.
    Jo's money never goes negative (an invariant) and he never pays for a building or a barrel (his only
    spending is the Mob War: ``test_jo_spends_money_only_in_mob_wars``)."""
    settle = "auto" if (start // CHUNK) % 2 else "off"
    tally = run(
        "speakeasy", 1, CHUNK, seed=1000 * difficulty + start, options={"difficulty": difficulty, "settle": settle}
    )
    _clean(tally, CHUNK)
