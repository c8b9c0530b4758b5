"""Bench: a Speakeasy click's round trip through the fake Discord with many active games in the database.

    python -m bench.click_speakeasy [--games 500] [--clicks 150]

Fills the database with ``games`` active Speakeasy games (started through the service), then three players play
one more game through the fake Discord (real discord.py, loopback) and each click is timed from dispatch to the
bot's private answer ("reply") and to the board showing the new state ("board", which includes the picture).
Prints one JSON line; target p99 under 150 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from service import User
from tests.cogs.driver import Driver, answer, quick_option, table
from tests.fakediscord import payloads as p


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def measure(games: int, clicks: int) -> dict[str, float]:
    """Fill the store, then time ``clicks`` clicks of one game."""
    reply_ms: list[float] = []
    board_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with table(Path(tmp)) as (server, bot, clock):
            svc = bot.service
            t0 = time.perf_counter()
            for g in range(games):
                host = User(10_000 + g, f"Host {g}")
                gid = (await svc.create(1, 2 + g % 50, host, "speakeasy", {})).table.id
                await svc.join(gid, User(20_000 + g, f"Guest {g}"))
                await svc.start(gid, host)
            fill_s = time.perf_counter() - t0
            d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
            await d.open_and_start(game="speakeasy")
            for _ in range(clicks):
                await d.settle()
                t = await d.load()
                if t.row.status != "active":
                    break
                pr = next(pr for pr in t.prompts() if pr.race is None)
                start = time.perf_counter()
                await answer(d, pr.seat, pr.kind, quick_option(pr), pr.secret)
                reply_ms.append((time.perf_counter() - start) * 1000)
                await d.settle()
                board_ms.append((time.perf_counter() - start) * 1000)
    return {
        "active_games": games + 1,
        "fill_seconds": round(fill_s, 1),
        "clicks": len(reply_ms),
        "reply_median_ms": round(statistics.median(reply_ms), 1),
        "reply_p99_ms": round(_pct(reply_ms, 0.99), 1),
        "board_median_ms": round(statistics.median(board_ms), 1),
        "board_p99_ms": round(_pct(board_ms, 0.99), 1),
    }


def main() -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--clicks", type=int, default=150)
    args = parser.parse_args()
    figures = asyncio.run(measure(args.games, args.clicks))
    print(json.dumps({"bench": "click_speakeasy", **figures, "target_p99_ms": 150}))


if __name__ == "__main__":
    main()
