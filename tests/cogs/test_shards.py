"""Issue 14's story inside one process: two bot instances (shards 0 and 1 of 2) on one PostgreSQL database and
the fake Discord; the instance that runs the game's shard (and the DMs) is "killed" in the middle and restarted.

The acceptance itself, with real OS processes (``bot.py`` started twice, SIGKILL, the bots' timers on the wall
clock), is ``test_shard_processes.py``. Here each "process" is a bot instance in this test's process, with its
own store, connection pool and gateway connections, its timers on the test's clock (so a window's close or a
reminder's due time is reached at once): the kill cuts its gateway connections and its database connections at
once, without a clean shutdown, as SIGKILL would. The first test has one guild, on shard 0: the other process
serves no interactions, so what it must take over is the dead one's background work (closing its snap window,
sending its reminders, posting its boards); the second has guilds on both shards."""

from __future__ import annotations

import asyncio
import contextlib
import re
import uuid
from collections.abc import AsyncIterator

import pytest

from bot import TableBot, build_bot
from service import Settings
from tests.backends import drop_schema, with_schema
from tests.cogs.driver import Clock, Driver, answer, play_to_end
from tests.fakediscord import payloads as p
from tests.fakediscord.fixtures import fake_server
from tests.fakediscord.server import FakeDiscordServer, custom_ids

USERS = [p.ANNA, p.BEN, p.CLEO]


@contextlib.asynccontextmanager
async def shard_process(server: FakeDiscordServer, db: str, clock: Clock, shard: int) -> AsyncIterator[TableBot]:
    """One bot process running ``shard`` of 2 (its loops poll often: the test's clock is moved by hand)."""
    settings = Settings(
        token="fake-token",
        database=db,
        reminder_poll_s=0.1,
        delivery_retry_s=0.05,
        delivery_sweep_s=0.2,
        race_sweep_s=0.1,
        shard_count=2,
        shard_ids=(shard,),
    )
    bot = build_bot(settings, clock=clock, sleep=clock.sleep)
    bot._connection.guild_ready_timeout = 0.05
    task = asyncio.create_task(bot.start("fake-token"))
    await server.wait_until(bot.is_ready, 10, what=f"the process of shard {shard} to be ready")
    try:
        yield bot
    finally:
        if not bot.is_closed():  # a process the test killed is closed already
            await bot.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, 5)


async def kill(server: FakeDiscordServer, bot: TableBot) -> None:
    """SIGKILL, as near as one process can do it to a part of itself: the gateway and the database connections
    drop at once (the server frees its locks), nothing is flushed, then its leftovers are stopped."""
    await server.kill_connections(bot.shard_ids or [0])
    backend = bot.service.store._backend  # the test reaches in: a killed process closes nothing politely
    holder = getattr(backend, "_holder", None)
    if holder is not None:
        holder.terminate()
    backend._pool.terminate()  # type: ignore[union-attr]
    with contextlib.suppress(Exception):
        await bot.close()


def board_versions(server: FakeDiscordServer, channel: int, gid: int) -> list[int]:
    """The version of every board posted or edited in ``channel``, in the order Discord received them (from the
    version its buttons carry)."""
    out = []
    path = re.compile(rf"/channels/{channel}/messages(/\d+)?")
    for req in server.requests:
        if req.method not in ("POST", "PATCH") or not path.fullmatch(req.path) or not req.json:
            continue
        ids = [i for i in custom_ids(req.json.get("components") or []) if i.startswith(f"pl|{gid}|")]
        if ids:
            out.append(int(ids[0].split("|")[2]))
    return out


@pytest.fixture
async def database(postgres_server: str) -> AsyncIterator[str]:
    """A fresh PostgreSQL schema both processes share (skipped with the reason when no server answers)."""
    target = with_schema(postgres_server, f"t_{uuid.uuid4().hex[:16]}")
    yield target
    await drop_schema(target)


@pytest.mark.slow
async def test_two_shard_processes_one_killed_and_restarted(database: str) -> None:
    clock = Clock()
    async with fake_server(heartbeat_interval_ms=30_000, shards=2) as server:
        async with shard_process(server, database, clock, 1) as one, shard_process(server, database, clock, 0) as first:
            assert sorted(server.identified_shards) == [(0, 2), (1, 2)]
            assert server.shard_of(p.GUILD_ID) == 0  # the guild, and every DM, are shard 0's
            assert one.get_guild(p.GUILD_ID) is None and first.get_guild(p.GUILD_ID) is not None
            d = Driver(server, first, clock, USERS)
            await d.open_and_start()
            await d.settle()
            t = await d.load()
            for pr in [pr for pr in t.prompts() if pr.kind == "peek"]:
                await answer(d, pr.seat, "peek", pr.options[0].id, pr.secret)
            await d.settle()
            await to_snap_window(d)  # the process is killed inside a snap window
            race = await first.service.store.get_race(d.gid)
            assert race is not None
            acknowledged = await first.service.store.get_choices(d.gid)
            await kill(server, first)
            server.take_error_logs()  # what the dying process logged about its cut connections

            # the other process takes over: the window closes once, the board follows
            d.bot = one
            assert await one.service.store.get_choices(d.gid) == acknowledged  # no acknowledged move lost
            clock.now = race.deadline + 1
            for _ in range(200):
                if await one.service.store.get_race(d.gid) is None:
                    break
                await asyncio.sleep(0.05)
            assert await one.service.store.get_race(d.gid) is None, "nobody closed the dead process's window"
            await d.settle()
            closes = [c for c in (await one.service.store.get_choices(d.gid))[len(acknowledged) :] if '"snap"' in c]
            assert len(closes) == 1  # closed exactly once

            # reminders fall due while shard 0 is down: the other process sends each once
            t = await d.load()
            waiting = sorted({t.user_of(pr.seat) for pr in t.prompts() if pr.seat >= 0 and pr.race is None})
            clock.now += 13 * 3600
            texts = "waiting for you"
            await server.wait_until(
                lambda: (
                    len([m for m in server.messages_in(d.where) if texts in (m.get("content") or "")]) >= len(waiting)
                ),
                10,
                what="the reminders",
            )
            await asyncio.sleep(0.5)  # a few more polls of the reminder loop: nothing is sent twice

            # shard 0 comes back (a new process on the same database) and the game plays to its end
            async with shard_process(server, database, clock, 0) as again:
                d.bot = again
                await play_to_end(d)
                assert (await d.load()).row.status == "finished"

        reminders = [m for m in server.messages_in(d.where) if texts in (m.get("content") or "")]
        sent = [r for r in server.requests if r.method == "POST" and r.json and texts in str(r.json.get("content"))]
        assert len(reminders) == len(waiting) == len(sent), (len(reminders), waiting, len(sent))
        versions = board_versions(server, d.where, d.gid)
        assert versions and versions == sorted(versions), "a board showed an older version than one already shown"


async def _peek_by_dm(d: Driver, seat: int) -> None:
    """A private answer through DMs: ``/hand`` in the player's DM (shard 0's process), then its menu there."""
    user = d.user_of_seat(seat)
    dm = d.server.dm_channel_id(user)
    hand = await d.server.slash(user, "hand", {"game": d.gid}, channel_id=dm)
    await hand.wait_followups(1)
    t = await d.load()
    peek = next(pr for pr in t.prompts_for(seat) if pr.kind == "peek")
    rec = await d.click_private(hand, seat, "peek", peek.options[0].id)
    await d.done(rec, t.version)
    await d.settle()  # the board in the channel follows (posted by whichever process handled the DM)


async def to_snap_window(d: Driver) -> None:
    """Turns of draw and discard (on the board, in the channel) until a snap window is open (a discarded power
    card first asks its power, which is declined or used with its first option)."""
    for _ in range(20):
        await d.settle()
        if await d.bot.service.store.get_race(d.gid) is not None:
            return
        t = await d.load()
        first = next(pr for pr in t.prompts() if pr.seat >= 0)
        if first.kind == "turn":
            rec = await d.click_board(first.seat, "turn", "draw")
            await rec.wait_followups(1)
            await d.done(await d.click_private(rec, first.seat, "place", "discard"), t.version + 1)
        else:
            await answer(d, first.seat, first.kind, first.options[0].id, first.secret)
    raise AssertionError("no snap window opened")


@pytest.mark.slow
async def test_guilds_on_both_shards_dm_answers_between_channel_clicks_shard_1_killed(database: str) -> None:
    """A game in a guild of shard 1 gets its players' private answers through DMs (shard 0's process) between
    clicks in its channel (shard 1's process); a game in shard 0's guild runs beside it. Shard 1's process is
    killed inside a snap window and restarted: nothing acknowledged is lost, each window closes once, each
    reminder goes out once, no board goes back to an older version."""
    clock = Clock()
    async with fake_server(heartbeat_interval_ms=30_000, shards=2) as server:
        twin_id = p.GUILD_ID + (1 << 22)  # the next shard's guild
        twin = server.add_twin_guild(twin_id)
        async with shard_process(server, database, clock, 0) as zero, shard_process(server, database, clock, 1) as one:
            assert server.shard_of(twin_id) == 1 and one.get_guild(twin_id) is not None
            assert zero.get_guild(twin_id) is None and one.get_guild(p.GUILD_ID) is None
            far = Driver(server, one, clock, USERS, channel=twin["general"])
            near = Driver(server, zero, clock, USERS)
            await far.open_and_start()
            await near.open_and_start()
            assert (await far.load()).row.guild_id == twin_id
            # private answers by DM (process 0) between the channel's "My options" answers (process 1)
            await _peek_by_dm(far, 0)
            t = await far.load()
            await answer(far, 1, "peek", t.prompts_for(1)[0].options[0].id, True)
            await _peek_by_dm(far, 2)
            await far.settle()
            for pr in (await near.load()).prompts():
                await answer(near, pr.seat, "peek", pr.options[0].id, pr.secret)
            await near.settle()
            await to_snap_window(far)  # shard 1's process opens a snap window ...
            race = await one.service.store.get_race(far.gid)
            assert race is not None
            acknowledged = await one.service.store.get_choices(far.gid)
            await kill(server, one)  # ... and dies inside it
            server.take_error_logs()

            far.bot = zero  # reads go through the live process
            assert await zero.service.store.get_choices(far.gid) == acknowledged
            clock.now = race.deadline + 1
            for _ in range(200):
                if await zero.service.store.get_race(far.gid) is None:
                    break
                await asyncio.sleep(0.05)
            assert await zero.service.store.get_race(far.gid) is None, "nobody closed the dead process's window"
            await far.settle()  # shard 0's process posted the board in shard 1's guild
            after = (await zero.service.store.get_choices(far.gid))[len(acknowledged) :]
            assert len([c for c in after if '"snap"' in c]) == 1

            t = await far.load()
            waiting = {t.user_of(pr.seat) for pr in t.prompts() if pr.seat >= 0 and pr.race is None}
            t0 = await near.load()
            waiting_near = {t0.user_of(pr.seat) for pr in t0.prompts() if pr.seat >= 0 and pr.race is None}
            clock.now += 13 * 3600
            texts = "waiting for you"

            def reminded(channel: int) -> int:
                return len([m for m in server.messages_in(channel) if texts in (m.get("content") or "")])

            await server.wait_until(
                lambda: reminded(far.where) >= len(waiting) and reminded(near.where) >= len(waiting_near),
                10,
                what="the reminders",
            )
            await asyncio.sleep(0.5)  # more polls: nothing sent twice

            async with shard_process(server, database, clock, 1) as again:
                far.bot = again
                await play_to_end(far)
                await play_to_end(near)
                assert (await far.load()).row.status == (await near.load()).row.status == "finished"

        sent = [r for r in server.requests if r.method == "POST" and r.json and texts in str(r.json.get("content"))]
        assert reminded(far.where) + reminded(near.where) == len(waiting) + len(waiting_near) == len(sent)
        for d in (far, near):
            versions = board_versions(server, d.where, d.gid)
            assert versions and versions == sorted(versions), "a board showed an older version than one shown"
