"""Bench: load on one PostgreSQL database with many active games, clicks through the fake Discord (issue 14).

    python -m bench.load [--games 1000,10000] [--hot 4] [--turns 15] [--setups thread,workers,shards]

For each setup and each number of games: a fresh schema holds that many active Omerta games (made through the
service, their boards marked as posted, so they weigh on every query but not on the renderer), then ``--hot``
games opened through the fake Discord are played at once, as fast as their players click (a closed loop: each
player clicks as soon as the board answered). Setups: one process rendering in a thread, one process with render
workers, two shard processes (two bot instances in this process, each with its own store and pool, shards 0
and 1 of 2, a hot game in each one's guild). Prints one JSON line per run: the click rate sustained, p99
click-to-reply and click-to-board (targets 150 ms and 1 s), CPU per click (this process: bots, fake Discord
and players together, plus render workers) and memory (this process's peak RSS, each worker's RSS).

Needs PostgreSQL (``SPEAKEASY_TEST_POSTGRES`` or the local server).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import statistics
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from bot import TableBot, build_bot
from engine.registry import GAMES
from service import Settings, TableService, User
from store import Store
from tests.backends import configured_url, drop_schema, with_schema
from tests.cogs.driver import Clock, Driver, answer
from tests.fakediscord import payloads as p
from tests.fakediscord.fixtures import fake_server
from tests.fakediscord.server import FakeDiscordServer

PLAYERS = [p.ANNA, p.BEN, p.CLEO]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else 0.0


async def fill(target: str, games: int) -> None:
    """``games`` active Omerta games with their boards marked as posted and their private lines as told (so the
    bot leaves them be)."""
    store = await Store.open(target)
    svc = TableService(store, Settings(), clock=Clock(), games=GAMES)  # the bots' clock: no reminder is due
    users = [User(p.uid(u), u["username"], guild_id=p.GUILD_ID) for u in PLAYERS]
    try:
        for i in range(games):
            # a channel each (the fake Discord never sees them): a channel holds at most a few open games
            channel = 10_000 + i
            gid = (await svc.create(p.GUILD_ID, channel, users[0], "omerta", {})).table.id
            for u in users[1:]:
                await svc.join(gid, u)
            t = (await svc.start(gid, users[0])).table
            last = await store.last_event_id(gid)
            await store.set_message(gid, "board", channel, 1, version=t.version, upto=last)
        for row in await store.outbox_due(float("inf")):  # their private lines count as told
            await store.outbox_done(row.id)
    finally:
        await store.close()


@contextlib.asynccontextmanager
async def process(
    server: FakeDiscordServer, db: str, clock: Clock, workers: int, shard: int | None
) -> AsyncIterator[TableBot]:
    """One bot process (``shard`` of 2, or unsharded)."""
    settings = Settings(
        token="fake-token",
        database=db,
        render_workers=workers,
        shard_count=None if shard is None else 2,
        shard_ids=None if shard is None else (shard,),
        reminder_poll_s=3600,
        delivery_sweep_s=3600,
        delivery_retry_s=0.05,
        race_sweep_s=3600,
    )
    bot = build_bot(settings, clock=clock, sleep=clock.sleep)  # the pace between posts on the fake clock
    bot._connection.guild_ready_timeout = 0.05
    task = asyncio.create_task(bot.start("fake-token"))
    await server.wait_until(bot.is_ready, 30, what="the bot to be ready")
    try:
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, 10)


async def play(d: Driver, turns: int, reply_ms: list[float], board_ms: list[float]) -> None:
    """Draw-and-discard turns as fast as the board answers; each click timed to its reply and to the board."""
    done = 0
    while done < turns:
        await d.settle()
        t = await d.load()
        if t.row.status != "active":
            return
        if await d.bot.service.store.get_race(d.gid):
            await d.close_windows()
            continue
        pr = next(pr for pr in t.prompts() if pr.seat >= 0)
        start = time.perf_counter()
        if pr.kind == "turn":
            try:
                rec = await d.click_board(pr.seat, "turn", "draw")
            except ValueError:  # another table's player moved the shared clock: this board moved on, look again
                continue
            await rec.wait_followups(1)
            reply_ms.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            rec = await d.click_private(rec, pr.seat, "place", "discard")
            done += 1
        else:  # a peek or a power: through the board or "My options"
            rec = await answer(d, pr.seat, pr.kind, pr.options[-1].id, pr.secret)
        await rec.wait_callback()
        reply_ms.append((time.perf_counter() - start) * 1000)
        await d.settle()
        board_ms.append((time.perf_counter() - start) * 1000)


def _worker_rss_mb(bot: TableBot) -> list[float]:
    pool = bot.renderer._pool
    out = []
    for pid in list(getattr(pool, "_processes", {}) or {}):
        with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    out.append(round(int(line.split()[1]) / 1024, 1))
    return out


def _workers_cpu(bots: list[TableBot]) -> float:
    """CPU seconds the live render workers have used (a live child is not in RUSAGE_CHILDREN yet)."""
    total = 0.0
    for bot in bots:
        for pid in list(getattr(bot.renderer._pool, "_processes", {}) or {}):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def run(setup: str, games: int, hot: int, turns: int, server_url: str) -> dict[str, Any]:
    """One measured run."""
    target = with_schema(server_url, f"load_{uuid.uuid4().hex[:12]}")
    try:
        t0 = time.perf_counter()
        await fill(target, games)
        fill_s = time.perf_counter() - t0
        clock = Clock()
        workers = 0 if setup == "thread" else max((os.cpu_count() or 2) - 1, 1)
        async with fake_server(heartbeat_interval_ms=30_000, shards=2 if setup == "shards" else 1) as server:
            twin = server.add_twin_guild(p.GUILD_ID + (1 << 22)) if setup == "shards" else {}
            async with contextlib.AsyncExitStack() as stack:
                shards = [0, 1] if setup == "shards" else [None]
                bots = [await stack.enter_async_context(process(server, target, clock, workers, s)) for s in shards]
                drivers = []
                for i in range(hot):
                    bot = bots[i % len(bots)]
                    channel = twin["general"] if getattr(bot, "shard_ids", None) == [1] else p.GENERAL_CHANNEL_ID
                    d = Driver(server, bot, clock, PLAYERS, channel=channel)
                    d.ts += i * 1_000_000  # distinct click timestamps per table
                    await d.open_and_start("rounds=10")
                    drivers.append(d)
                reply_ms: list[float] = []
                board_ms: list[float] = []
                cpu0, kids0, wall0 = time.process_time(), _workers_cpu(bots), time.perf_counter()
                await asyncio.gather(*(play(d, turns, reply_ms, board_ms) for d in drivers))
                wall = time.perf_counter() - wall0
                cpu = time.process_time() - cpu0 + _workers_cpu(bots) - kids0
                workers_rss = [mb for b in bots for mb in _worker_rss_mb(b)]
        clicks = len(reply_ms)
        return {
            "bench": "load",
            "setup": setup,
            "games": games + hot,
            "fill_s": round(fill_s, 1),
            "clicks": clicks,
            "clicks_per_s": round(clicks / wall, 1),
            "reply_p50_ms": round(statistics.median(reply_ms), 1),
            "reply_p99_ms": round(_pct(reply_ms, 0.99), 1),
            "board_p50_ms": round(statistics.median(board_ms), 1),
            "board_p99_ms": round(_pct(board_ms, 0.99), 1),
            "meets_targets": _pct(reply_ms, 0.99) < 150 and _pct(board_ms, 0.99) < 1000,
            "cpu_ms_per_click": round(cpu * 1000 / max(clicks, 1), 1),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "worker_rss_mb": workers_rss,
        }
    finally:
        await drop_schema(target)


def main() -> None:
    """Print one JSON line per setup and number of games."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default="1000,10000", help="numbers of background games, comma-separated")
    parser.add_argument("--hot", type=int, default=4, help="games played at once through the fake Discord")
    parser.add_argument("--turns", type=int, default=15, help="draw-and-discard turns per hot game")
    parser.add_argument("--setups", default="thread,workers,shards")
    args = parser.parse_args()
    for games in [int(g) for g in args.games.split(",")]:
        for setup in args.setups.split(","):
            figures = asyncio.run(run(setup, games, args.hot, args.turns, configured_url()))
            print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
