"""Time the Speakeasy main board picture: a 4-player Act 3 board drawn from the spectator view, PNG encoding
included.

Run ``python -m bench.render_speakeasy`` (or ``python bench/render_speakeasy.py``) from the project root. Prints
one JSON line: median and max milliseconds over the runs (the static layer of the game cached, as every turn of a
running game finds it), the first render of a game (static layer drawn too), the PNG size and width, and the
targets: under 80 ms, under 1.5 MB, at least 1600 px wide.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.speakeasy_players import GAME, greedy_choice, random_choice  # noqa: E402
from render import speakeasy  # noqa: E402

RUNS = 50
TARGET_MS = 80
TARGET_BYTES = 1536 * 1024
TARGET_WIDTH = 1600


def board_view(seed: int = 3) -> dict[str, Any]:
    """The spectator view of a 4-player game in Act 3, round 2 (mostly greedy play, so the city is built up)."""
    state = GAME.new(["Anna", "Ben", "Cleo", "Dario"], {}, seed)
    rng = random.Random(seed)
    while not GAME.is_over(state):
        view = GAME.view(state, None)
        if view["phase"] == "play" and view["act"] == 3 and view["round"] == 2:
            return view
        prompt = GAME.prompts(state)[0]
        pick = greedy_choice if rng.random() < 0.8 else random_choice
        GAME.apply(state, pick(state, prompt, rng))
    raise LookupError("the game ended before Act 3, round 2")


def main() -> None:
    """Time the board and print one JSON line."""
    view = board_view()
    speakeasy.clear_caches()
    t = time.perf_counter()
    data = speakeasy.render_board(view)
    cold = (time.perf_counter() - t) * 1000
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        data = speakeasy.render_board(view)
        times.append((time.perf_counter() - t) * 1000)
    width = int.from_bytes(data[16:20], "big")  # the IHDR width
    median = statistics.median(times)
    result = {
        "runs": RUNS,
        "board_median_ms": round(median, 1),
        "board_max_ms": round(max(times), 1),
        "board_first_ms": round(cold, 1),
        "png_bytes": len(data),
        "width": width,
        "targets": {"ms": TARGET_MS, "bytes": TARGET_BYTES, "width": TARGET_WIDTH},
        "ok": median < TARGET_MS and len(data) < TARGET_BYTES and width >= TARGET_WIDTH,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
