"""Bench: complete random games per second on one core (no checks), and with self-play's full checks.

python bench/selfplay_speed.py [--game omerta] [--players 4] [--games 500]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from engine.core import Choice
from engine.registry import get_game
from engine.selfplay import run


def raw_games(name: str, players: int, games: int, seed: int = 1) -> tuple[float, int, float]:
    """(games per second, choices, slowest single choice in ms) for plain random play."""
    game = get_game(name)
    seats = [f"P{i + 1}" for i in range(players)]
    choices = 0
    slowest = 0.0
    start = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.new(seats, {}, seed + g)
        while not game.is_over(state):
            t0 = time.perf_counter()
            pairs = [(p, o) for p in game.prompts(state) for o in p.options]
            prompt, option = rng.choice(pairs)
            game.apply(state, Choice(prompt.seat, prompt.kind, option.id))
            slowest = max(slowest, time.perf_counter() - t0)
            choices += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, choices, slowest * 1000


def main() -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="omerta")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=500)
    args = parser.parse_args()
    rate, choices, slowest = raw_games(args.game, args.players, args.games)
    checked = run(args.game, args.players, min(args.games, 200), seed=1)
    print(
        json.dumps(
            {
                "bench": "selfplay",
                "game": args.game,
                "players": args.players,
                "games_per_second": round(rate, 1),
                "choices_per_game": round(choices / args.games, 1),
                "slowest_choice_ms": round(slowest, 3),
                "checked_games_per_second": round(checked.games / checked.seconds, 1),
                "target_games_per_second": 200,
            }
        )
    )


if __name__ == "__main__":
    main()
