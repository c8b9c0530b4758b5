"""Bench: Jo, the solo bot. The time of a full Jo turn, and Jo's final money per difficulty against the random
and the greedy player of ``bench/speakeasy_players.py``.

python -m bench.jo [--games 200]

Prints one JSON line per difficulty: Jo's mean final total, the player's mean total and win rate, for a random
player and for a greedy player; and one line with Jo's turn time (median and slowest, target under 1 ms).
A Jo turn is timed as the engine call that runs it: the player's last choice before Jo's turn, whose work is
Jo's whole turn (his card, placement and every action) plus that one choice.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bench.speakeasy_players import GAME, play, random_choice


def jo_turn_times(games: int, seed: int = 7) -> list[float]:
    """Seconds per engine call that ran a whole Jo turn, over random solo games."""
    times: list[float] = []
    for g in range(games):
        rng = random.Random(seed + g)
        state = GAME.new(["P1"], {"difficulty": 1 + g % 4}, seed + g)
        while not GAME.is_over(state):
            prompt = GAME.prompts(state)[0]
            choice = random_choice(state, prompt, rng)
            t0 = time.perf_counter()
            events = GAME.apply(state, choice)
            dt = time.perf_counter() - t0
            if any(e.kind == "turn" and e.data.get("seat") == 1 for e in events):
                times.append(dt)
    return times


def money(games: int, difficulty: int, greedy: bool, seed: int = 1) -> dict[str, float]:
    """Jo's and the player's mean totals and the player's win rate."""
    jo_totals, mine, wins = [], [], 0
    for g in range(games):
        state, _ = play(1, seed + g, frozenset({0}) if greedy else frozenset(), {"difficulty": difficulty})
        result = GAME.result(state)
        assert result is not None
        jo_totals.append(result.scores[1])
        mine.append(result.scores[0])
        wins += result.winners == (0,)
    return {
        "jo_mean_total": round(statistics.mean(jo_totals), 1),
        "player_mean_total": round(statistics.mean(mine), 1),
        "player_win_rate": round(wins / games, 3),
    }


def main() -> None:
    """Print the JSON lines."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    times = jo_turn_times(max(20, args.games // 4))
    print(
        json.dumps(
            {
                "bench": "jo_turn",
                "turns": len(times),
                "median_ms": round(statistics.median(times) * 1000, 3),
                "slowest_ms": round(max(times) * 1000, 3),
                "target_ms": 1.0,
            }
        ),
        flush=True,
    )
    for difficulty in (1, 2, 3, 4):
        line = {"bench": "jo_money", "difficulty": difficulty, "games": args.games}
        line["vs_random"] = money(args.games, difficulty, greedy=False)
        line["vs_greedy"] = money(args.games, difficulty, greedy=True)
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
