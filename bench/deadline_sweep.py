"""Bench (issue 23): what the deadline sweep costs with 10,000 active games that have deadlines.

    python -m bench.deadline_sweep [--games 10000] [--sweeps 60] [--postgres URL]

For each backend, ``--games`` active games of four seats are written (in bulk) with what a running table with a
deadline keeps: for the player each game waits for, a ``deadline`` reminder row and a ``turn`` one (the wait began
at a random moment of the last two days, ``deadline=48h``; the next reminder is the one half-way or near the end,
none once both passed). Then the reminder loop's own queries run ``--sweeps`` times, the clock moving on a minute
each time: ``due_reminders(now, "deadline")`` (the deadlines to act on), ``away_deadlines(now)`` (those of the
players away, one waited-for player in a hundred here: acted on at once at some tables) and ``due_reminders(now,
"turn")`` (the reminders to send), as one round of the loop asks them (a round runs every
``SPEAKEASY_REMINDER_POLL_SECONDS``, 60 by default: one a minute). What is found is then dropped, untimed (acting on
it is a move, measured by ``bench.store_backends``): the figure is the cost of finding the due ones among all the
rest. Prints one JSON line per backend: the median and the 95th percentile of a round's milliseconds, and the total
per minute at the default poll. Issue 23's target: under 20 ms a minute on both. ``--without-index`` drops the index
on ``reminders (due_at)`` first, to show what it is worth. PostgreSQL is the server of ``SPEAKEASY_TEST_POSTGRES``
or 127.0.0.1:5432 (a schema of its own, dropped afterwards); skipped with a note if none answers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg

from store import Store, StoreError
from store.people import PersonRow
from store.postgres import split_target

LOCAL = "postgresql://postgres@127.0.0.1:5432/test"
NOW = 1_800_000_000.0
DAY = 86_400.0
#: the default poll of the reminder loop (``SPEAKEASY_REMINDER_POLL_SECONDS``): rounds per minute
ROUNDS_PER_MINUTE = 1


async def _away(s: Store, games: int) -> None:
    """One waited-for player in a hundred has said they are away (``/away``) for a week."""
    for gid in range(1, games + 1, 100):
        await s.put_person(PersonRow(10_000 * gid + gid % 4, away_until=NOW + 7 * DAY))


async def _fill(s: Store, games: int) -> None:
    """``games`` active four-seat games, each waiting for one player with a deadline and a turn reminder."""
    rng = random.Random(23)
    game_rows, seat_rows, reminder_rows = [], [], []
    for gid in range(1, games + 1):
        opts = json.dumps({"deadline": "48h", "on_timeout": "bot"})
        game_rows.append((gid, "speakeasy", 1 + gid % 50, 100 + gid, 1000 + gid, "active", opts, gid, 7, NOW, NOW))
        for seat in range(4):
            seat_rows.append((gid, seat, 10_000 * gid + seat, f"P{seat}"))
        waited = 10_000 * gid + gid % 4
        # the wait began at a random moment of the last 48 hours: its deadline is 48 hours after that, its next
        # reminder half-way or at 90 % (the ones before were sent), none if both have passed
        start = NOW - rng.uniform(0, 2 * DAY)
        reminder_rows.append((gid, waited, "deadline", start + 2 * DAY, 0, 7))
        turn = next((start + 2 * DAY * f for f in (0.5, 0.9) if start + 2 * DAY * f > NOW), None)
        if turn is not None:
            reminder_rows.append((gid, waited, "turn", turn, 0, 7))
    async with s._write() as conn:  # bulk: the bench's own set-up, not a path of the bot
        await conn.executemany(
            "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, options, seed, version, created_at,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        )
        await conn.executemany("INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)", seat_rows)
        await conn.executemany(
            "INSERT INTO reminders (game_id, user_id, kind, due_at, count, since) VALUES (?, ?, ?, ?, ?, ?)",
            reminder_rows,
        )


async def _measure(target: str, games: int, sweeps: int, index: bool = True) -> dict[str, object]:
    async with await Store.open(target) as s:
        if not index:
            await s._execute("DROP INDEX reminders_due")  # the experiment: the same rounds without the index
        t0 = time.perf_counter()
        await _fill(s, games)
        await _away(s, games)
        filled = time.perf_counter() - t0
        rows = len(await s.due_reminders(NOW + 10 * DAY))
        rounds, found = [], []
        for i in range(sweeps):
            now = NOW + 60 * i
            t = time.perf_counter()
            deadlines = await s.due_reminders(now, "deadline")
            await s.away_deadlines(now)  # the away players' (/away), acted on at once at some tables
            reminders = await s.due_reminders(now, "turn")
            rounds.append((time.perf_counter() - t) * 1000)
            found.append(len(deadlines) + len(reminders))
            # what the loop would then do (not timed): the table acts, the reminder is sent; here both are dropped
            for r in deadlines + reminders:
                await s.clear_reminders(r.game_id, r.user_id, r.kind)
        median = statistics.median(rounds)
        return {
            "bench": "deadline_sweep",
            "backend": s.backend,
            "games": games,
            "index": index,
            "reminder_rows": rows,
            "sweeps": sweeps,
            "fill_s": round(filled, 1),
            "due_found_median": statistics.median(found),
            "round_ms_median": round(median, 2),
            "round_ms_p95": round(sorted(rounds)[int(0.95 * (len(rounds) - 1))], 2),
            "ms_per_minute": round(median * ROUNDS_PER_MINUTE, 2),
            "target_ms_per_minute": 20,
        }


async def main() -> None:
    """Run both backends and print their figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.deadline_sweep")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--sweeps", type=int, default=60)
    parser.add_argument("--postgres", default=os.environ.get("SPEAKEASY_TEST_POSTGRES") or LOCAL)
    parser.add_argument("--without-index", action="store_true", help="drop the index on reminders (due_at) first")
    args = parser.parse_args()
    index = not args.without_index
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(await _measure(str(Path(tmp) / "bench.sqlite3"), args.games, args.sweeps, index)))
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    target = f"{args.postgres}{'&' if '?' in args.postgres else '?'}schema={schema}"
    try:
        print(json.dumps(await _measure(target, args.games, args.sweeps, index)))
    except (StoreError, OSError) as exc:
        print(json.dumps({"bench": "deadline_sweep", "backend": "postgres", "skipped": str(exc)}))
    finally:
        try:
            conn = await asyncpg.connect(split_target(args.postgres)[0])
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            await conn.close()
        except (OSError, asyncpg.PostgresError):
            pass


if __name__ == "__main__":
    asyncio.run(main())
