"""Bench: a click's round trip through the fake Discord (real discord.py, loopback), median and p99.

    python -m bench.click_roundtrip [--turns 60]

Times each action click (draw, then discard) from the moment the fake Discord dispatches it to the moment
the bot's private answer to the clicker arrives, and to the moment the board shows the new state.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from tests.cogs.driver import Driver, answer, table
from tests.fakediscord import payloads as p


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def measure(turns: int) -> dict[str, float]:
    """Play ``turns`` draw-and-discard turns and time every click."""
    reply_ms: list[float] = []
    board_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with table(Path(tmp)) as (server, bot, clock):
            d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO, p.DAN])
            await d.open_and_start("rounds=10")
            done = 0
            while done < turns:
                await d.settle()
                t = await d.load()
                if t.row.status != "active":
                    break
                if await bot.service.store.get_race(d.gid):
                    await d.close_windows()
                    continue
                pr = next(pr for pr in t.prompts() if pr.seat >= 0)
                start = time.perf_counter()
                if pr.kind == "peek":
                    rec = await d.click_board(pr.seat, "peek", pr.options[0].id)
                elif pr.kind == "turn":
                    rec = await d.click_board(pr.seat, "turn", "draw")
                    await rec.wait_followups(1)
                    reply_ms.append((time.perf_counter() - start) * 1000)
                    start = time.perf_counter()
                    rec = await d.click_private(rec, pr.seat, "place", "discard")
                    done += 1
                else:  # a power: decline (secret questions go through "My options")
                    rec = await answer(d, pr.seat, pr.kind, pr.options[-1].id, pr.secret)
                await rec.wait_callback()  # the click is acknowledged (a quiet click sends nothing else)
                reply_ms.append((time.perf_counter() - start) * 1000)
                await d.settle()
                board_ms.append((time.perf_counter() - start) * 1000)
    return {
        "clicks": len(reply_ms),
        "reply_median_ms": round(statistics.median(reply_ms), 1),
        "reply_p99_ms": round(_pct(reply_ms, 0.99), 1),
        "board_median_ms": round(statistics.median(board_ms), 1),
        "board_p99_ms": round(_pct(board_ms, 0.99), 1),
    }


def main() -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=60)
    args = parser.parse_args()
    figures = asyncio.run(measure(args.turns))
    print(json.dumps({"bench": "click_roundtrip", **figures, "target_p99_ms": 150}))


if __name__ == "__main__":
    main()
