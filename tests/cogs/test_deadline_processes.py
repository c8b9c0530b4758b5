"""Issue 23, "kill the bot while deadlines are due": real ``bot.py`` processes against the fake Discord, their
timers on the wall clock. Tables with ``deadline=1m on_timeout=skip`` are opened; every process stops; the
deadlines pass while none runs (the test moves them an hour back in the database: the time the processes were
down); then the processes start again and one is SIGKILLed just as its first sweep runs, and restarted. Every
deadline fires once, none twice: each waiting seat's wait is skipped exactly once, with one log line.

On PostgreSQL two shard processes share the database (issue 14's claims decide who fires what); on SQLite one
process, killed and restarted. Without a PostgreSQL server the PostgreSQL case is skipped saying why
(``SPEAKEASY_REQUIRE_POSTGRES=1``: it fails instead)."""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from pathlib import Path

import pytest

from engine.core import load_choice
from service import Settings, TableService
from store import Store
from tests.cogs.driver import Clock, Driver
from tests.cogs.test_shard_processes import TIMINGS, USERS, BotProcess, Reader, fake_discord, shared_schema
from tests.fakediscord import payloads as p

pytestmark = pytest.mark.slow

OPTIONS = "deadline=1m on_timeout=skip"
GAMES_PER_GUILD = 3


class OneProcess(BotProcess):
    """The only process of a bot (SQLite): shard 0 of 1."""

    async def ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while "ready: shards" not in self.log():
            assert self.proc is not None and self.proc.poll() is None, self.log()
            assert time.monotonic() < deadline, self.log()
            await asyncio.sleep(0.05)


async def all_fired(reader: TableService, games: list[int], timeout: float = 60.0) -> None:
    """Wait until each game's three opening waits (the peeks) were skipped at their deadline."""
    end = time.monotonic() + timeout
    while True:
        done = 0
        for gid in games:
            rows = await reader.store.get_choice_rows(gid)
            done += sum(r.cause == "deadline" for r in rows) >= len(USERS)
        if done == len(games):
            return
        assert time.monotonic() < end, f"{done} of {len(games)} games had their deadlines fired"
        await asyncio.sleep(0.1)


async def check_once(reader: TableService, games: list[int]) -> int:
    """Each seat's opening wait was skipped once, by one choice with the cause and one log line."""
    lines = 0
    for gid in games:
        rows = await reader.store.get_choice_rows(gid)
        fired = Counter(load_choice(r.choice).seat for r in rows if r.cause == "deadline")
        assert fired == Counter({0: 1, 1: 1, 2: 1}), (gid, fired)
        log = [e.text for e in await reader.store.get_events(gid)]
        said = Counter(line.split("'s time ran out")[0] for line in log if "'s time ran out" in line)
        assert said == Counter({"Anna": 1, "Ben": 1, "Cleo": 1}), (gid, said)
        lines += sum(said.values())
    return lines


async def run(db: str, tmp_path: Path, shards: int) -> None:
    async with fake_discord() as server:
        twin_id = p.GUILD_ID + (1 << 22)
        twin = server.add_twin_guild(twin_id)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SPEAKEASY_", "DISCORD_"))}
        env |= TIMINGS | {
            "DISCORD_TOKEN": "fake-token",
            "FAKE_DISCORD_URL": server.base_url,
            "SPEAKEASY_DB": db,
            "PYTHONUNBUFFERED": "1",
        }
        if shards == 2:
            env["SPEAKEASY_SHARD_COUNT"] = "2"
            procs = [BotProcess(0, env, tmp_path), BotProcess(1, env, tmp_path)]
        else:
            procs = [OneProcess(0, env | {"SPEAKEASY_SHARD_COUNT": "1"}, tmp_path)]
        store = None
        try:
            for proc in procs:
                proc.start()
            await asyncio.gather(*(proc.ready() for proc in procs))
            await server.wait_until(lambda: server.commands.get(None), what="the slash commands")
            store = await Store.open(db)
            reader = Reader(TableService(store, Settings(database=db)))
            games = []
            for channel in (p.GENERAL_CHANNEL_ID, twin["general"]):
                for _ in range(GAMES_PER_GUILD):
                    d = Driver(server, reader, Clock(), USERS, channel=channel)  # type: ignore[arg-type]
                    games.append(await d.open_and_start(OPTIONS))
            for proc in procs:
                proc.stop()
            # the processes were down for an hour: every deadline passed meanwhile
            moved = await store._execute("UPDATE reminders SET due_at = due_at - 3600 WHERE kind = 'deadline'")
            assert moved == len(games) * len(USERS)
            opened = {id(proc): len(proc.log_paths) for proc in procs}  # the runs that opened the tables
            for proc in procs:
                proc.start()
            await procs[-1].ready()
            procs[-1].sigkill()  # right after it is ready: its first sweep begins then
            procs[-1].start()
            await asyncio.gather(*(proc.ready() for proc in procs))
            await all_fired(reader.service, games)
            await asyncio.sleep(float(TIMINGS["SPEAKEASY_REMINDER_CLAIM_SECONDS"]) + 1)  # a lapsed claim's retry too
            assert await check_once(reader.service, games) == len(games) * len(USERS)
            # the runs that fired the deadlines logged no error (a run stopped while it still renamed a thread
            # logs that interaction as cut short: the stop, not what is tested here)
            errors = [
                line
                for proc in procs
                for path in proc.log_paths[opened[id(proc)] :]
                for line in path.read_text(errors="replace").splitlines()
                if " ERROR " in line or line.startswith("Traceback")
            ]
            assert not errors, errors
        finally:
            for proc in procs:
                proc.stop()
            if store is not None:
                await store.close()


@pytest.mark.slow
async def test_deadlines_due_while_two_shard_processes_were_down_fire_once_with_one_killed(
    postgres_server: str, tmp_path: Path
) -> None:
    async with shared_schema(postgres_server) as db:
        await run(db, tmp_path, shards=2)


@pytest.mark.slow
async def test_deadlines_due_while_the_bot_was_down_fire_once_on_sqlite_with_a_kill(tmp_path: Path) -> None:
    await run(str(tmp_path / "bot.sqlite3"), tmp_path, shards=1)
