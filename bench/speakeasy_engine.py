"""Bench: Speakeasy engine speed over complete games, the slowest choice, and the size of a state's JSON.

python -m bench.speakeasy_engine [--players 4] [--games 200]

Prints one JSON line: complete games and choices per second in plain random play on one core (no checks;
target 20 four-player games per second), the slowest single choice, games per second with self-play's full
checks, and the largest and median state JSON seen (target: under 64 KB).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from engine.core import Choice
from engine.registry import get_game
from engine.selfplay import run


def raw(players: int, games: int, seed: int = 1) -> dict[str, float]:
    """Plain random play of complete games: games/s, choices/s, slowest choice, JSON sizes."""
    game = get_game("speakeasy")
    seats = [f"P{i + 1}" for i in range(players)]
    choices = 0
    slowest = 0.0
    sizes: list[int] = []
    elapsed = 0.0
    for g in range(games):
        rng = random.Random(seed + g)
        t0 = time.perf_counter()
        state = game.new(seats, {}, seed + g)
        elapsed += time.perf_counter() - t0
        while not game.is_over(state):
            t0 = time.perf_counter()
            pairs = [(p, o) for p in game.prompts(state) for o in p.options]
            prompt, option = rng.choice(pairs)
            game.apply(state, Choice(prompt.seat, prompt.kind, option.id))
            dt = time.perf_counter() - t0
            elapsed += dt
            slowest = max(slowest, dt)
            choices += 1
            if choices % 7 == 0:
                sizes.append(len(game.dumps(state)))
        sizes.append(len(game.dumps(state)))
    return {
        "games_per_second": round(games / elapsed, 1),
        "choices_per_second": round(choices / elapsed, 1),
        "choices_per_game": round(choices / games, 1),
        "slowest_choice_ms": round(slowest * 1000, 3),
        "state_json_max_bytes": max(sizes),
        "state_json_median_bytes": int(statistics.median(sizes)),
    }


def main() -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    figures = raw(args.players, args.games)
    checked = run("speakeasy", args.players, min(args.games, 100), seed=1)
    print(
        json.dumps(
            {
                "bench": "speakeasy_engine",
                "players": args.players,
                "games": args.games,
                "until": "the end of the game (1933)",
                "target_games_per_second": 20,
                **figures,
                "checked_games_per_second": round(checked.games / checked.seconds, 1),
                "target_state_json_bytes": 64 * 1024,
            }
        )
    )


if __name__ == "__main__":
    main()
