"""The store on SQLite and on PostgreSQL: how long a move's transaction and a game's load take.

    python -m bench.store_backends [--moves 300] [--postgres URL]

For each backend, one game takes ``--moves`` moves through ``commit_move`` (each with two events, a reminder and
an outbox line, as a real move writes), then the game's rows are read as ``TableService.load`` reads them (game,
seats, snapshot). PostgreSQL is the server of ``SPEAKEASY_TEST_POSTGRES`` or 127.0.0.1:5432 (a schema of its own,
dropped afterwards); skipped with a note if none answers. Prints one JSON line per backend.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg

from store import Move, Store, StoreError
from store.postgres import split_target

LOCAL = "postgresql://postgres@127.0.0.1:5432/test"


def _move(i: int) -> Move:
    return Move(
        choices=[(f'{{"seat": 0, "kind": "k", "option": "{i}"}}', 1)],
        snapshot='{"state": "' + "x" * 2000 + '"}',  # a small game's state is a few KB
        now=float(i),
        events=[(i + 1, "turn", None, "Anna played.", "{}"), (i + 1, "look", "[0]", "You drew X.", "{}")],
        reminders_on=[(2, "turn", 1e9)],
        reminders_off=[(1, "turn")],
        outbox=[("private", 1, '{"lines": ["You drew X."]}')],
    )


async def _measure(target: str, moves: int) -> dict[str, object]:
    async with await Store.open(target) as s:
        gid = await s.create_game(game="omerta", guild_id=1, channel_id=2, host_id=1, options_json="{}", seed=1, now=0)
        await s.add_seat(gid, 1, "Anna")
        await s.add_seat(gid, 2, "Ben")
        assert await s.start_game(gid, '"s0"', 0.0)
        commit_ms, load_ms = [], []
        for i in range(moves):
            t0 = time.perf_counter()
            assert await s.commit_move(gid, i, _move(i))
            commit_ms.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            await s.get_game(gid)
            await s.get_seats(gid)
            await s.get_snapshot(gid)
            load_ms.append((time.perf_counter() - t0) * 1000)
        return {
            "backend": s.backend,
            "moves": moves,
            "commit_move_ms_median": round(statistics.median(commit_ms), 2),
            "commit_move_ms_p95": round(sorted(commit_ms)[int(0.95 * len(commit_ms))], 2),
            "load_ms_median": round(statistics.median(load_ms), 2),
        }


async def main() -> None:
    """Run both backends and print their figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.store_backends")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--postgres", default=os.environ.get("SPEAKEASY_TEST_POSTGRES") or LOCAL)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(await _measure(str(Path(tmp) / "bench.sqlite3"), args.moves)))
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    target = f"{args.postgres}{'&' if '?' in args.postgres else '?'}schema={schema}"
    try:
        print(json.dumps(await _measure(target, args.moves)))
    except StoreError as exc:
        print(json.dumps({"backend": "postgres", "skipped": f"no server answers at {args.postgres}: {exc}"}))
        return
    finally:
        try:
            conn = await asyncpg.connect(split_target(target)[0])
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            await conn.close()
        except OSError:
            pass


if __name__ == "__main__":
    asyncio.run(main())
