"""Time the Omerta pictures: a 5-player mid-game table and an end-of-game reveal, PNG encoding included.

Run ``python -m bench.render_omerta`` (or ``python bench/render_omerta.py``) from the project root. Prints one
JSON line: median and p95 milliseconds and PNG size for each picture. Targets: under 60 ms median, under 1 MB.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Choice  # noqa: E402
from engine.omerta import OmertaGame  # noqa: E402
from render.omerta import render_reveal, render_table  # noqa: E402

RUNS = 50
NAMES = ["Anna", "Ben", "Cleo", "Dario", "Eve"]


def play_until(stop: Callable[[dict[str, Any]], bool], seed: int, omerta_rate: float) -> dict[str, Any]:
    """The spectator view of the first position of a random 5-player game where ``stop`` holds."""
    g = OmertaGame()
    state = g.new(NAMES, {}, seed=seed)
    rng = random.Random(seed)
    for _ in range(20000):
        view = g.view(state, None)
        if stop(view):
            return view
        if g.is_over(state):
            break
        prompt = rng.choice(g.prompts(state))
        options = list(prompt.options)
        if prompt.kind == "turn" and len(options) > 1 and rng.random() > omerta_rate:
            options = [o for o in options if o.id != "omerta"]
        g.apply(state, Choice(prompt.seat, prompt.kind, rng.choice(options).id))
    raise LookupError("position not reached")


def mid_game_view() -> dict[str, Any]:
    """Round 2 or later, a card drawn, a Police Check on the table, some penalty slots."""
    return play_until(
        lambda v: (
            v["round"] >= 2
            and v["phase"] == "drawn"
            and any(s["police"] for p in v["players"] for s in p["slots"])
            and max(len(p["slots"]) for p in v["players"]) >= 6
        ),
        seed=3,
        omerta_rate=0.05,
    )


def reveal_view() -> dict[str, Any]:
    """The end of the last round: the reveal and the final standings."""
    return play_until(lambda v: v["over"], seed=6, omerta_rate=0.3)


def measure(render: Callable[[dict[str, Any]], bytes], view: dict[str, Any]) -> dict[str, float]:
    """Median and p95 ms over ``RUNS`` renders after one warm-up, and the PNG size in KB."""
    data = render(view)  # warm-up: fonts and sprites are cached after this
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        data = render(view)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return {
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": round(p95, 1),
        "kb": round(len(data) / 1024, 1),
    }


def main() -> None:
    """Run both benchmarks and print one JSON line."""
    table = measure(render_table, mid_game_view())
    reveal = measure(render_reveal, reveal_view())
    print(json.dumps({"runs": RUNS, "table_5p": table, "reveal_5p": reveal}))


if __name__ == "__main__":
    main()
