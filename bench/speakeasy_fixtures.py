"""Write the Speakeasy replay fixtures: complete scripted games whose exact scores a test requires.

python -m bench.speakeasy_fixtures

Each fixture is seed + seats + every choice + the final scores and winners. The choices were made by the
greedy player of ``bench/speakeasy_players.py`` for every seat; the test (``test_replay_fixtures.py``) replays
the choices through the engine and needs the exact scores. Re-run this only when a rule or a data value changes
on purpose, and say so in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench.speakeasy_players import GAME, play

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "engine" / "speakeasy" / "fixtures"
GAMES = {"game_2p.json": (2, 20251130), "game_4p.json": (4, 19201933)}


def main() -> None:
    """Write every fixture and print a line per file."""
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for name, (players, seed) in GAMES.items():
        state, choices = play(players, seed, frozenset(range(players)))
        result = GAME.result(state)
        assert result is not None
        data = {
            "game": "speakeasy",
            "seats": state.seats,
            "options": {},
            "seed": seed,
            "choices": [[c.seat, c.kind, c.option] for c in choices],
            "scores": list(result.scores),
            "winners": list(result.winners),
            "details": list(result.details),
        }
        (FIXTURES / name).write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
        print(f"{name}: {len(choices)} choices, scores {list(result.scores)}")


if __name__ == "__main__":
    main()
