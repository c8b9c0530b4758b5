"""``/game log`` of a game with 1,000 undo cycles: the event-loop time of reading the log (target: under
50 ms). Issue "trust" 6: the log is read from the events stored with each move, never rebuilt by replaying
the game once per undo.

    python -m bench.log_undo

The game is a 2-player Speakeasy game played through the service on a SQLite file: at each step that may be
taken back, its player takes it back and makes it again (at most ``MAX_UNDOS`` times a step), until 1,000
undo cycles are in the record. Prints one JSON line.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from engine.core import TABLE
from engine.registry import GAMES
from service import Settings, TableService, User
from service.host import MAX_UNDOS
from store import Store

CYCLES = 1000
USERS = [User(1, "Anna"), User(2, "Ben")]


async def _build(svc: TableService) -> int:
    gid = (await svc.create(10, 20, USERS[0], "speakeasy", {})).table.id
    await svc.join(gid, USERS[1])
    await svc.start(gid, USERS[0])
    cycles = 0
    while cycles < CYCLES:
        t = await svc.load(gid)
        if t.row.status != "active":
            raise SystemExit(f"the game ended after {cycles} undo cycles")
        prompt = next(p for p in t.prompts() if p.seat != TABLE and p.race is None)
        user = USERS[prompt.seat]
        option = prompt.default_option()
        await svc.act(gid, user, t.version, prompt.kind, option)
        for _ in range(MAX_UNDOS):
            t = await svc.load(gid)
            if cycles >= CYCLES or not await svc.can_undo(t, prompt.seat):
                break
            await svc.undo(gid, user)
            t = await svc.load(gid)
            await svc.act(gid, user, t.version, prompt.kind, option)
            cycles += 1
    return gid


async def main_async() -> dict[str, object]:
    """Build the game, then time the log's two readings: the latest page and every line."""
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        svc = TableService(store, Settings(), games=GAMES)
        started = time.perf_counter()
        gid = await _build(svc)
        build_s = time.perf_counter() - started
        page_ms, full_ms = [], []
        for _ in range(20):
            t0 = time.perf_counter()
            table = await svc.load(gid)
            lines, page, pages = await svc.log_page(table)
            page_ms.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            every = await svc.public_log(table)
            full_ms.append((time.perf_counter() - t0) * 1000)
        records = len(await store.get_choices(gid))
        await store.close()
    return {
        "bench": "log_undo",
        "undo_cycles": CYCLES,
        "record_entries": records,
        "log_lines": len(every),
        "log_pages": pages,
        "latest_page_ms_median": round(statistics.median(page_ms), 2),
        "latest_page_ms_max": round(max(page_ms), 2),
        "whole_log_ms_median": round(statistics.median(full_ms), 2),
        "target_ms": 50,
        "build_s": round(build_s, 1),
    }


def main() -> None:
    """Print the figures."""
    print(json.dumps(asyncio.run(main_async())))


if __name__ == "__main__":
    main()
