"""Bench: the local table (``python bot.py --local``): how fast it serves, and what the page's API adds to a click.

    python -m bench.local_table [--clicks 40]

Figures: the time from start to the page being served (fake Discord, bot ready, page listening); a click sent
as the page sends it (POST /api/click, answered once the bot has answered the interaction), median and p99; and
the re-read the page makes on each live-update nudge (GET /api/messages of the game's thread), median.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp

from bot import build_bot
from fakediscord import payloads as p
from fakediscord.local import local_table
from fakediscord.server import custom_ids


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def measure(clicks: int) -> dict[str, float]:
    """Open an Omerta table through the page's API and time ``clicks`` presses of "My options"."""
    click_ms: list[float] = []
    read_ms: list[float] = []
    general = str(p.GENERAL_CHANNEL_ID)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        async with (
            local_table(build_bot, port=0, folder=Path(tmp)) as table,
            aiohttp.ClientSession(table.url) as http,
        ):
            served = (await http.get("/")).status
            startup_ms = (time.perf_counter() - start) * 1000
            assert served == 200
            server = table.server
            new = {"user": "anna", "channel": general, "command": "game new", "options": {"game": "omerta"}}
            assert (await http.post("/api/slash", json=new)).status == 200

            def lobby() -> dict | None:
                last = server.last_message(general)
                return last if last and any(i.endswith("|join") for i in custom_ids(last["components"])) else None

            msg = await server.wait_until(lobby, 10, what="the lobby")
            ids = custom_ids(msg["components"])
            for user, cid in (("ben", "|join"), ("cleo", "|join"), ("anna", "|start")):
                body = {"user": user, "message": msg["id"], "custom_id": next(i for i in ids if i.endswith(cid))}
                assert (await http.post("/api/click", json=body)).status == 200

            def board() -> dict | None:
                found = [m for m in server.messages.values() if any(i.startswith("pm|") for i in _ids(m))]
                return found[-1] if found else None

            target = await server.wait_until(board, 10, what="the board")
            mine = next(i for i in _ids(target) if i.startswith("pm|"))
            for _ in range(clicks):
                await asyncio.sleep(0.05)  # let the last click's posting finish
                began = time.perf_counter()
                press = {"user": "anna", "message": target["id"], "custom_id": mine}
                resp = await http.post("/api/click", json=press)
                click_ms.append((time.perf_counter() - began) * 1000)
                assert resp.status == 200, await resp.text()
                began = time.perf_counter()
                read = await http.get("/api/messages", params={"user": "anna", "channel": target["channel_id"]})
                assert read.status == 200 and await read.json()
                read_ms.append((time.perf_counter() - began) * 1000)
    return {
        "startup_ms": round(startup_ms, 1),
        "clicks": len(click_ms),
        "click_median_ms": round(statistics.median(click_ms), 1),
        "click_p99_ms": round(_pct(click_ms, 0.99), 1),
        "reread_median_ms": round(statistics.median(read_ms), 1),
    }


def _ids(message: dict) -> list[str]:
    return custom_ids(message["components"])


def main() -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--clicks", type=int, default=40)
    args = parser.parse_args()
    figures = asyncio.run(measure(args.clicks))
    print(json.dumps({"bench": "local_table", **figures, "target_startup_ms": 10_000}))


if __name__ == "__main__":
    main()
