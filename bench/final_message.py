"""The final message of Speakeasy (issue 11) over random complete games: how long its words are (Discord's limit
is 2,000 characters), how big and how quick its picture is, and how often a tie on money needed a tie-breaker.

    python -m bench.final_message [--games 10]

Prints one JSON line per player count (1 = solo against Jo) and a last line with the largest figures.
"""

from __future__ import annotations

import argparse
import json
import time

from render import speakeasy_final_text
from render.speakeasy import final as speakeasy_final
from tests.engine.speakeasy.finished import GAME, random_game


def measure(players: int, games: int) -> dict[str, object]:
    """Play ``games`` random games with ``players`` seats and measure their final message."""
    chars, sizes, millis, ties, sources = [], [], [], 0, []
    for seed in range(games):
        view = GAME.view(random_game(players, 1000 * players + seed), None)
        text = speakeasy_final_text.final_message(view)
        start = time.perf_counter()
        png = speakeasy_final.render_final(view)
        millis.append((time.perf_counter() - start) * 1000)
        chars.append(len(text))
        sizes.append(len(png))
        ties += len(view["standings"]["ties"])
        sources += [len(p["sources"]) for p in view["players"]]
    return {
        "players": players,
        "games": games,
        "max_chars": max(chars),
        "mean_chars": round(sum(chars) / games),
        "max_png_kb": round(max(sizes) / 1024),
        "mean_render_ms": round(sum(millis) / games, 1),
        "ties_on_money": ties,
        "max_sources_per_player": max(sources),
    }


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    rows = [measure(n, args.games) for n in (1, 2, 3, 4)]
    for row in rows:
        print(json.dumps(row))
    print(json.dumps({"max_chars": max(r["max_chars"] for r in rows), "limit": 2000}))


if __name__ == "__main__":
    main()
