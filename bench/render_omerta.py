"""Time the Omerta pictures: a 5-player mid-game table and an end-of-game reveal, PNG encoding included.

Run ``python -m bench.render_omerta`` (or ``python bench/render_omerta.py``) from the project root. Prints one
JSON line: median and p95 milliseconds and PNG size for each picture. Targets: under 60 ms median, under 1 MB.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render.omerta import render_reveal, render_table  # noqa: E402
from tests.render.games import play_until as play_from_start  # noqa: E402

RUNS = 50


def play_until(stop: Callable[[dict[str, Any]], bool], seed: int, omerta_rate: float) -> dict[str, Any]:
    """The spectator view of the first position of a random 5-player game where ``stop`` holds."""
    return play_from_start(5, seed, stop, max_steps=20000, omerta_rate=omerta_rate)


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
