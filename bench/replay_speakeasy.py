"""Issue 26's speed target: a replay step's pictures in under 300 ms when not cached (Speakeasy, the heavier game).

    python -m bench.replay_speakeasy [--players 4] [--seed 3] [--samples 20]

A complete game is played by the engine with random legal choices; then, for ``--samples`` steps spread over it,
what ``/game replay`` does for an uncached step is timed: the state rebuilt from the record up to the step
(``service.replay``: the step before, the view, the step, the view), and the public pictures drawn against the
step before (``render.speakeasy.render_pictures``, city, table and the crop of what changed). The render caches
are cleared before each step, so no step is helped by the one before. Prints one JSON line: median, 95th
percentile and worst, in ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from engine.core import Choice, replay
from engine.speakeasy.game import SpeakeasyGame
from render import speakeasy as se

TARGET_MS = 300


def play(players: int, seed: int) -> tuple[list[str], list[Choice]]:
    """A complete game of random legal choices: the seats and the record."""
    game = SpeakeasyGame()
    names = ["Anna", "Ben", "Cleo", "Dario"][:players]
    state = game.new(names, {}, seed)
    rng = random.Random(seed)
    record: list[Choice] = []
    while not game.is_over(state):
        prompt = game.prompts(state)[0]
        options = [o for o in prompt.options if o.id != "back"] or list(prompt.options)
        choice = Choice(prompt.seat, prompt.kind, rng.choice(options).id)
        game.apply(state, choice)
        record.append(choice)
    return names, record


def main() -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m bench.replay_speakeasy")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--samples", type=int, default=20)
    args = parser.parse_args()
    game = SpeakeasyGame()
    names, record = play(args.players, args.seed)
    steps = sorted({max(1, round(len(record) * (k + 1) / args.samples)) for k in range(args.samples)})
    ms: list[float] = []
    for step in steps:
        se.clear_caches()
        t0 = time.perf_counter()
        state = replay(game, names, {}, args.seed, record[: step - 1])
        before = game.view(state, None)
        game.apply(state, record[step - 1])
        view = game.view(state, None)
        se.render_pictures({**view, "lang": "en"}, se.marks({**before, "lang": "en"}))
        ms.append((time.perf_counter() - t0) * 1000)
    ms_sorted = sorted(ms)
    print(
        json.dumps(
            {
                "bench": "replay_speakeasy",
                "players": args.players,
                "choices": len(record),
                "steps_timed": len(steps),
                "median_ms": round(statistics.median(ms), 1),
                "p95_ms": round(ms_sorted[min(len(ms) - 1, int(0.95 * len(ms)))], 1),
                "worst_ms": round(ms_sorted[-1], 1),
                "target_ms": TARGET_MS,
            }
        )
    )


if __name__ == "__main__":
    main()
