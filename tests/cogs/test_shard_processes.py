"""Issue 14's acceptance with real OS processes: two ``bot.py`` processes (shards 0 and 1 of 2, started as
``python bot.py`` with ``FAKE_DISCORD_URL``) on one PostgreSQL schema and the fake Discord (in this test's
process, ``shards=2``, guilds routed by ``(guild_id >> 22) % 2``), each process killed once with SIGKILL in the
middle of play and started again. (``test_shards.py`` plays the same story with two bots inside the test's
process, on the test's clock.)

An Omerta game is played in a guild of shard 1: its players' private answers come through DMs (shard 0's
process) between clicks in its channel (shard 1's process), and it opens snap windows. A Speakeasy game is played
in shard 0's guild, its private answers through "My options" and DMs. Everything runs on the wall clock, made
short by the bot's own settings (``SPEAKEASY_REMIND_AFTER_HOURS``, ``SPEAKEASY_RACE_SWEEP_SECONDS`` ...):

1. shard 1's process is killed just after it acknowledged a snap claim inside a window it opened and posted
   (so it holds the window's timer): shard 0's process must close the window, post the board in shard 1's guild
   and remind the next player, and the Omerta game goes on through DMs alone until shard 1 is back;
2. shard 0's process is killed just after it acknowledged a private answer by DM that opened a snap window (its
   board perhaps not yet posted, its window not yet started): shard 1's process must post that board, start and
   close the window and send the reminders, the Speakeasy game's (shard 0's guild) among them;
3. both games play on: Omerta to its end, Speakeasy a few answers further.

Then: every acknowledged move and claim is in the record, every window opened and closed exactly once, every
wait reminded with one message, and no board message was ever posted or edited to an older version than one
already shown. Without a PostgreSQL server the test is skipped saying why (``SPEAKEASY_REQUIRE_POSTGRES=1``: it
fails).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from cogs.publish import message_nonce
from engine.core import TABLE, Choice, dump_choice
from engine.omerta.cards import deck
from service import Settings, TableService
from service.records import effective_choices
from store import Store
from tests.backends import drop_schema, with_schema
from tests.cogs.driver import Clock, Driver, quick_option
from tests.fakediscord import payloads as p
from tests.fakediscord.server import FakeDiscordServer, InteractionRecord

ROOT = Path(__file__).resolve().parents[2]
USERS = [p.ANNA, p.BEN, p.CLEO]
REMINDER = "is waiting for you"
#: the bots' timers, short on the wall clock (the settings a deployment would leave at their defaults)
TIMINGS = {
    "SPEAKEASY_REMIND_AFTER_HOURS": str(2.0 / 3600),  # 2 s
    "SPEAKEASY_REMIND_EVERY_HOURS": "1",  # no repeat within the test: each wait is reminded once
    "SPEAKEASY_REMINDER_POLL_SECONDS": "0.25",
    "SPEAKEASY_REMINDER_CLAIM_SECONDS": "3",
    "SPEAKEASY_RACE_SWEEP_SECONDS": "0.5",
    "SPEAKEASY_DELIVERY_RETRY_SECONDS": "0.1",
    "SPEAKEASY_DELIVERY_SWEEP_SECONDS": "0.5",
    "SPEAKEASY_RENDER_WORKERS": "0",  # pictures in a thread: a SIGKILL leaves no orphaned worker behind
    # the channel's pace is tested on the fake clock (tests/cogs/test_end_in_order.py); here, on the wall clock,
    # it would only make the processes wait (issue 24)
    "SPEAKEASY_CHANNEL_BURST": "0",
}
SNAP_WINDOW = 2  # seconds (the table option's least): time enough to claim once the board shows the window


class BotProcess:
    """One ``python bot.py`` OS process running one shard of 2, its log in a file."""

    def __init__(self, shard: int, env: dict[str, str], logs: Path) -> None:
        self.shard, self.env, self.logs = shard, env, logs
        self.runs = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = logs
        #: every run's log
        self.log_paths: list[Path] = []

    def start(self) -> None:
        """Start the process (a fresh one each time: nothing survives from the last run but the database)."""
        self.runs += 1
        self.log_path = self.logs / f"shard{self.shard}-run{self.runs}.log"
        self.log_paths.append(self.log_path)
        env = self.env | {"SPEAKEASY_SHARD_IDS": str(self.shard)}
        with self.log_path.open("wb") as out:
            # cwd: an empty folder, so no developer's .env is read
            self.proc = subprocess.Popen(
                [sys.executable, str(ROOT / "bot.py")], cwd=self.logs, env=env, stdout=out, stderr=subprocess.STDOUT
            )

    def log(self) -> str:
        """What the current run logged."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    async def ready(self, timeout: float = 30.0) -> None:
        """Wait until the process says it is ready (connected, its servers received)."""
        deadline = time.monotonic() + timeout
        assert self.proc is not None
        while f"ready: shards [{self.shard}] of 2" not in self.log():
            if self.proc.poll() is not None:
                raise AssertionError(f"shard {self.shard}'s process exited with {self.proc.returncode}:\n{self.log()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"shard {self.shard}'s process was not ready in {timeout} s:\n{self.log()}")
            await asyncio.sleep(0.05)

    def sigkill(self) -> None:
        """SIGKILL: no clean shutdown, nothing flushed; the kernel closes its sockets."""
        assert self.proc is not None and self.proc.poll() is None, "the process is not running"
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        assert self.proc.returncode == -signal.SIGKILL

    def stop(self) -> None:
        """A clean stop (SIGINT: discord.py closes the bot), SIGKILL if it hangs."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def errors(self) -> list[str]:
        """Lines any run logged at ERROR (or tracebacks), a killed run's up to its death."""
        lines = [line for path in self.log_paths for line in path.read_text(errors="replace").splitlines()]
        return [line for line in lines if " ERROR " in line or line.startswith("Traceback")]


class Reader:
    """How the test reads the games: a service on its own connection to the shared schema. It never writes;
    the players act only through the fake Discord."""

    def __init__(self, service: TableService) -> None:
        self.service = service


@dataclass
class Acks:
    """What the players were told was done: moves ``(game, index, choice)`` and claims ``(game, version,
    choice)``, checked against the record at the end."""

    moves: list[tuple[int, int, str]] = field(default_factory=list)
    claims: list[tuple[int, int, str]] = field(default_factory=list)
    by_dm: int = 0  # of them, how many were answered in a DM (shard 0's process)


async def hand_in_dm(d: Driver, seat: int) -> InteractionRecord:
    """``/hand`` in the player's DM (an interaction of shard 0, whatever the game's guild): the player's questions
    with their components, ephemerally."""
    user = d.user_of_seat(seat)
    rec = await d.server.slash(user, "hand", {"game": d.gid}, channel_id=d.server.dm_channel_id(user))
    await rec.wait_followups(1)
    return rec


async def act(
    d: Driver, acks: Acks, seat: int, kind: str, option: str, via: str, reply: InteractionRecord | None = None
) -> InteractionRecord:
    """One move, made as a player makes it: ``via`` "board" (a click in the game's channel), "mine" (My options
    on the board, then the answer in its ephemeral reply), "dm" (``/hand`` in a DM, then the answer there) or
    "reply" (on the ephemeral reply ``reply`` to the player's last click). A risky step is confirmed. The move
    must be acknowledged (answered, and in the record at the version it was made at)."""
    version = (await d.load()).version
    if via == "board":
        rec = await d.click_board(seat, kind, option)
    elif via == "mine":
        board = await d.board()
        button = next(i for i in _all_ids(board["components"]) if i.startswith(f"pm|{d.gid}|"))  # as the board shows
        mine = await d.server.click(d.user_of_seat(seat), board["id"], button, ts_ms=d.next_ts())
        rec = await d.click_private(mine, seat, kind, option)
    elif via == "dm":
        rec = await d.click_private(await hand_in_dm(d, seat), seat, kind, option)
        acks.by_dm += 1
    else:
        assert via == "reply" and reply is not None
        rec = await d.click_private(reply, seat, kind, option)
    await rec.wait_callback()
    if rec.message is not None and any(i.endswith("|!") for i in _ids(rec.message)):
        rec = await d.confirm(rec, seat)
    await d.done(rec, version)
    record = await d.bot.service.store.get_choices(d.gid)
    want = dump_choice(Choice(seat, kind, option))
    said = [m.get("content") for m in rec.followups]
    assert len(record) > version and record[version] == want, f"{want} at {version} not applied: {said}"
    acks.moves.append((d.gid, version, want))
    return rec


def _ids(message: dict[str, Any]) -> list[str]:
    out = []
    for row in message.get("components") or []:
        out += [c.get("custom_id", "") for c in row.get("components", [])]
    return out


async def claim(d: Driver, acks: Acks, seat: int, option: str) -> int:
    """A snap claim on the board, acknowledged ("Claim in"); returns the window's version."""
    for _ in range(200):  # the board is posted: its window starts (the publisher arms it just after)
        race = await d.bot.service.store.get_race(d.gid)
        assert race is not None, "no window to claim in"
        if race.armed:
            break
        await asyncio.sleep(0.02)
    assert race.armed, "the window's board was posted but its time never started"
    rec = await d.click_board(seat, "snap", option)
    await rec.wait_followups(1)
    said = rec.followups[-1].get("content") or ""
    assert said.startswith("Claim in"), said
    acks.claims.append((d.gid, race.version, dump_choice(Choice(seat, "snap", option))))
    return race.version


async def window_closed(d: Driver, version: int, timeout: float = 20.0) -> None:
    """Wait (on the wall clock) until the window at ``version`` is closed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        race = await d.bot.service.store.get_race(d.gid)
        if race is None or race.version != version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the window of game {d.gid} at version {version} was never closed")


async def settle_windows(d: Driver) -> None:
    """Let open windows close by themselves (their bot's timer), the board catching up after each."""
    for _ in range(10):
        await d.settle()
        race = await d.bot.service.store.get_race(d.gid)
        if race is None:
            return
        await window_closed(d, race.version)
    raise AssertionError("windows kept opening")


async def resolve(d: Driver, acks: Acks, *, channel: bool, dm: bool) -> None:
    """Answer whatever the Omerta game asks before the next turn (peeks, a power), closing windows first: a
    secret question by DM or My options, a public one on the board, or by DM when the channel's process is
    down (``/hand`` lists every question of the player)."""
    for _ in range(20):
        await settle_windows(d)
        t = await d.load()
        if t.row.status != "active":
            return
        pending = [pr for pr in t.prompts() if pr.seat >= 0 and pr.race is None]
        if not pending or pending[0].kind == "turn":
            return
        pr = pending[0]
        if pr.secret:
            via = "dm" if dm and (not channel or len(acks.moves) % 2) else "mine"
        else:
            via = "board" if channel else "dm"
        await act(d, acks, pr.seat, pr.kind, pr.options[0].id, via)
    raise AssertionError("the game kept asking before the next turn")


async def draw(d: Driver, acks: Acks, via: str) -> tuple[int, InteractionRecord, bool]:
    """The player whose turn it is draws (``via`` the board or a DM); returns the seat, the answer to the draw
    (it asks where the card goes) and whether the card is a Bottle (discarded, it opens a snap window)."""
    t = await d.load()
    seat = next(pr.seat for pr in t.prompts() if pr.kind == "turn")
    rec = await act(d, acks, seat, "turn", "draw", via)
    await d.reply_of(rec)
    return seat, rec, is_bottle((await d.load()).state.held)


async def reminded(
    server: FakeDiscordServer, channel: int, user: dict[str, Any], before: int, timeout: float = 20.0
) -> None:
    """Wait until ``user`` has more than ``before`` reminders in ``channel``."""
    await server.wait_until(
        lambda: len(reminders_to(server, channel, user)) > before, timeout, what=f"a reminder for {p.uid(user)}"
    )


def reminders_to(server: FakeDiscordServer, channel: int, user: dict[str, Any]) -> list[dict[str, Any]]:
    """The reminders ``user`` got in ``channel``."""
    return [m for m in reminder_messages(server, channel) if m["content"].startswith(f"<@{p.uid(user)}>")]


def reminder_messages(server: FakeDiscordServer, channel: int) -> list[dict[str, Any]]:
    """Every reminder message in a channel."""
    return [m for m in server.messages_in(channel) if REMINDER in (m.get("content") or "")]


def shown_versions(server: FakeDiscordServer, channel: int, gid: int) -> list[int]:
    """The version of every board Discord accepted in ``channel`` (posted or edited), in the order it received
    them, from the version its buttons carry."""
    out = []
    path = re.compile(rf"/channels/{channel}/messages(/\d+)?")
    for req in server.requests:
        if req.method not in ("POST", "PATCH") or req.status >= 300 or not path.fullmatch(req.path) or not req.json:
            continue
        ids = [i for i in _all_ids(req.json.get("components") or []) if i.startswith(f"pl|{gid}|")]
        if ids:
            out.append(int(ids[0].split("|")[2]))
    return out


def _all_ids(components: list[dict[str, Any]]) -> list[str]:
    out = []
    for c in components:
        if c.get("custom_id"):
            out.append(c["custom_id"])
        out += _all_ids(c.get("components") or [])
    return out


def windows(table: Any, raw: list[str]) -> tuple[Counter[str], Counter[str]]:
    """The snap windows of a game from its record: how often each race opened and how often it closed (the
    engine replayed choice by choice)."""
    game = table.game
    state = game.new([s.name for s in table.seats], json.loads(table.row.options), table.row.seed)
    opened: Counter[str] = Counter()
    closed: Counter[str] = Counter()

    def race_now() -> str | None:
        return next((pr.race for pr in game.prompts(state) if pr.race), None)

    current = race_now()
    for choice in effective_choices(raw):
        game.apply(state, choice)
        after = race_now()
        if current is not None and after != current:
            closed[current] += 1
        if after is not None and after != current:
            opened[after] += 1
        current = after
    return opened, closed


@contextlib.asynccontextmanager
async def shared_schema(postgres_server: str) -> AsyncIterator[str]:
    """A fresh PostgreSQL schema, dropped at the end."""
    target = with_schema(postgres_server, f"t_{uuid.uuid4().hex[:16]}")
    try:
        yield target
    finally:
        await drop_schema(target)


@contextlib.asynccontextmanager
async def fake_discord() -> AsyncIterator[FakeDiscordServer]:
    """The fake Discord for bot processes: it only listens (the processes point at it with FAKE_DISCORD_URL);
    waits are generous, two processes on a busy machine answering."""
    server = FakeDiscordServer(heartbeat_interval_ms=30_000, shards=2, default_timeout=15.0)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.mark.slow
async def test_two_bot_processes_each_sigkilled_mid_play_and_restarted(postgres_server: str, tmp_path: Path) -> None:
    started = time.monotonic()
    async with shared_schema(postgres_server) as db, fake_discord() as server:
        twin_id = p.GUILD_ID + (1 << 22)  # a guild of shard 1
        twin = server.add_twin_guild(twin_id)
        assert (twin_id >> 22) % 2 == 1 and (p.GUILD_ID >> 22) % 2 == 0  # Discord's routing
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SPEAKEASY_", "DISCORD_"))}
        env |= TIMINGS | {
            "DISCORD_TOKEN": "fake-token",
            "FAKE_DISCORD_URL": server.base_url,
            "SPEAKEASY_DB": db,
            "SPEAKEASY_SHARD_COUNT": "2",
            "PYTHONUNBUFFERED": "1",
        }
        zero, one = BotProcess(0, env, tmp_path), BotProcess(1, env, tmp_path)
        store: Store | None = None
        try:
            zero.start()
            one.start()
            await asyncio.gather(zero.ready(), one.ready())
            assert sorted(server.identified_shards) == [(0, 2), (1, 2)]
            assert server.shard_of(twin_id) == 1 and server.shard_of(p.GUILD_ID) == 0
            await server.wait_until(lambda: server.commands.get(None), what="the slash commands (shard 0 syncs)")
            store = await Store.open(db)
            reader = Reader(TableService(store, Settings(database=db)))
            clock = Clock()  # unused by the players: the bots run on the wall clock
            far = Driver(server, reader, clock, USERS, channel=twin["general"])  # type: ignore[arg-type]
            near = Driver(server, reader, clock, USERS)  # type: ignore[arg-type]
            for d in (far, near):
                d.ts = int(time.time() * 1000)  # interactions stamped with the real time
            acks = Acks()

            # no table deadline (issue 23): the reminders follow the bot's own short global timer here
            await far.open_and_start(f"snap_window={SNAP_WINDOW} rounds=2 deadline=none")
            await near.open_and_start("deadline=none", game="speakeasy")
            assert (await far.load()).row.guild_id == twin_id and (await near.load()).row.guild_id == p.GUILD_ID

            # the peeks of the shard-1 game: by DM (process 0), on the channel's My options (process 1), by DM
            t = await far.load()
            for seat, via in ((0, "dm"), (1, "mine"), (2, "dm")):
                peek = next(pr for pr in t.prompts_for(seat) if pr.kind == "peek")
                await act(far, acks, seat, "peek", peek.options[0].id, via)
            await far.settle()
            await play_speakeasy(near, acks, moves=6)

            # --- kill 1: shard 1's process, just after it acknowledged a claim in a window it posted and times ----
            for _ in range(40):
                await resolve(far, acks, channel=True, dm=True)
                seat, rec, bottle = await draw(far, acks, "board")  # a click in shard 1's channel
                if bottle:  # discarded on the channel (process 1 posts the board and starts the window)
                    await act(far, acks, seat, "place", "discard", "reply", rec)
                    await far.settle()
                    t = await far.load()
                    snaps = [pr for pr in t.prompts() if pr.kind == "snap" and pr.seat != TABLE]
                    snapper = next((pr for pr in snaps if pr.seat != seat), snaps[0])  # another player if one can
                    window = await claim(far, acks, snapper.seat, snapper.options[0].id)
                    break
                await act(far, acks, seat, "place", "discard", "dm")  # by DM: process 0 answers
            else:
                raise AssertionError("no Bottle was drawn")
            one.sigkill()
            marks = {"kill shard 1": time.monotonic() - started}
            before = {p.uid(u): len(reminders_to(server, far.where, u)) for u in USERS}

            # shard 0's process alone: it closes the window (its sweep), posts the board in shard 1's guild,
            # reminds the next player and takes the shard-1 game's next turn, all through DMs
            await window_closed(far, window)
            await resolve(far, acks, channel=False, dm=True)
            t = await far.load()
            waiting = far.user_of_seat(next(pr.seat for pr in t.prompts() if pr.kind == "turn"))
            await reminded(server, far.where, waiting, before[p.uid(waiting)])  # its wait began after the kill
            seat, rec, _ = await draw(far, acks, "dm")
            await act(far, acks, seat, "place", "discard", "reply", rec)  # on the draw's answer, in the DM
            await resolve(far, acks, channel=False, dm=True)
            one.start()
            await one.ready()
            marks["shard 1 back"] = time.monotonic() - started

            # --- kill 2: shard 0's process, just after it acknowledged a DM answer that opened a window --------
            for _ in range(40):
                await resolve(far, acks, channel=True, dm=True)
                seat, rec, bottle = await draw(far, acks, "board")
                if bottle:
                    break
                await act(far, acks, seat, "place", "discard", "reply", rec)
            else:
                raise AssertionError("no Bottle was drawn")
            # a Speakeasy player starts waiting (reminded 2 s later: normally by process 1, 0 being dead by then)
            before = {p.uid(u): len(reminders_to(server, near.where, u)) for u in USERS}
            near_waiting = await fresh_wait(near, acks)
            await act(far, acks, seat, "place", "discard", "dm")  # process 0 commits the move opening a window
            zero.sigkill()
            marks["kill shard 0"] = time.monotonic() - started
            before_far = {p.uid(u): len(reminders_to(server, far.where, u)) for u in USERS}

            # shard 1's process alone: it posts the board, times and closes the window, reminds the Speakeasy
            # game's player (shard 0's guild; sent once, by whichever process lived when it fell due) and the
            # Omerta game's next player (whose wait began after the kill), and the Omerta game goes on
            await settle_windows(far)
            for user in near_waiting:
                await reminded(server, near.where, user, before[p.uid(user)])
            await resolve(far, acks, channel=True, dm=False)
            t = await far.load()
            waiting = far.user_of_seat(next(pr.seat for pr in t.prompts() if pr.kind == "turn"))
            await reminded(server, far.where, waiting, before_far[p.uid(waiting)])
            seat, rec, _ = await draw(far, acks, "board")
            await act(far, acks, seat, "place", "discard", "reply", rec)
            zero.start()
            await zero.ready()
            marks["shard 0 back"] = time.monotonic() - started

            # --- both back: Omerta to its end, Speakeasy on to a decisive point ----------------------------------
            await play_omerta_to_end(far, acks)
            await play_speakeasy(near, acks, moves=8)
        finally:
            for proc in (zero, one):
                proc.stop()
            if store is not None:
                await store.close()
        wall = time.monotonic() - started

        # no acknowledged move or claim lost
        store = await Store.open(db)
        try:
            records = {d.gid: await store.get_choices(d.gid) for d in (far, near)}
            lost = [m for m in acks.moves if len(records[m[0]]) <= m[1] or records[m[0]][m[1]] != m[2]]
            lost += [c for c in acks.claims if len(records[c[0]]) <= c[1] or records[c[0]][c[1]] != c[2]]
            assert not lost, lost
            assert acks.by_dm >= 6 and len(acks.claims) == 1
            reader = Reader(TableService(store, Settings(database=db)))
            far.bot = near.bot = reader  # type: ignore[assignment]
            t = await far.load()
            assert t.row.status == "finished"
            assert await store.get_race(far.gid) is None

            # every window closed exactly once: replayed from the record, and in the log
            opened, closed = windows(t, records[far.gid])
            assert opened and set(opened.values()) == {1} and closed == opened, (opened, closed)
            events = await store.get_events(far.gid)
            assert len([e for e in events if e.kind == "snap_open"]) == sum(opened.values())
        finally:
            await store.close()

        # every reminder once: each message names its wait (game, player, the version the wait began at) and its
        # number in that wait (REMIND_EVERY is an hour: only number 0); one message per wait, and every post the
        # bots made is one of those messages (a second post of one, a retry after a kill, Discord refuses)
        names = {
            message_nonce("r", d.gid, p.uid(u), since, n): (d.gid, p.uid(u), since, n)
            for d in (far, near)
            for u in USERS
            for since in range(len(records[d.gid]) + 1)
            for n in range(3)
        }
        waits: Counter[tuple[int, int, int]] = Counter()
        for d in (far, near):
            for m in reminder_messages(server, d.where):
                key = names.get(m.get("nonce") or "")
                assert key is not None and m["content"].startswith(f"<@{key[1]}>"), f"a reminder of no wait: {m}"
                waits[key[:3]] += 1
        assert waits and set(waits.values()) == {1}, waits
        posts = Counter(
            r.json.get("nonce")
            for r in server.requests
            if r.method == "POST" and REMINDER in str((r.json or {}).get("content"))
        )
        shown = {m.get("nonce") for d in (far, near) for m in reminder_messages(server, d.where)}
        assert set(posts) == shown and max(posts.values()) <= 2, posts
        assert sum(posts.values()) - len(shown) <= 2  # at most a retry per kill

        # no board went back to an older version than one already shown
        for d in (far, near):
            versions = shown_versions(server, d.where, d.gid)
            assert versions and versions == sorted(versions), f"game {d.gid}'s board went back: {versions}"

        assert not zero.errors() and not one.errors(), zero.errors() + one.errors()
        when = ", ".join(f"{k} at {v:.1f} s" for k, v in marks.items())
        print(
            f"\nshard processes: {len(acks.moves)} moves and {len(acks.claims)} claims acknowledged, all found "
            f"({acks.by_dm} by DM); {sum(closed.values())} windows opened and closed once; {len(shown)} reminders "
            f"({sum(posts.values())} posts); board versions {len(shown_versions(server, far.where, far.gid))} + "
            f"{len(shown_versions(server, near.where, near.gid))} in order; {wall:.1f} s ({when})"
        )


async def fresh_wait(d: Driver, acks: Acks) -> list[dict[str, Any]]:
    """Speakeasy moves until some player has a reminder armed and not yet sent; returns those players."""
    for _ in range(20):
        await play_speakeasy(d, acks, moves=1)
        rows = await d.bot.service.store.get_reminders(d.gid)
        fresh = [r.user_id for r in rows if r.count == 0 and r.due_at > time.time()]
        if fresh:
            return [u for u in USERS if p.uid(u) in fresh]
    raise AssertionError("no Speakeasy player started waiting")


async def play_omerta_to_end(d: Driver, acks: Acks, *, turns_per_round: int = 4, windows: int = 1) -> None:
    """Draw and place (by DM and on the channel in turn) a few turns a round, then the player whose turn it is
    calls OMERTA (confirmed), until the game is over. After ``windows`` snap windows the players keep Bottles off
    the discard pile where they can (a window costs its seconds of wall time)."""
    turns, round_seen, opened = 0, None, 0
    for _ in range(200):
        await resolve(d, acks, channel=True, dm=True)
        t = await d.load()
        if t.row.status != "active":
            return
        if t.view(None)["round"] != round_seen:
            round_seen, turns = t.view(None)["round"], 0
        turns += 1
        seat = next(pr.seat for pr in t.prompts() if pr.kind == "turn")
        if turns > turns_per_round:
            await act(d, acks, seat, "turn", "omerta", "board")
            continue
        seat, rec, bottle = await draw(d, acks, "board")
        option = "discard"
        if bottle and opened >= windows:
            t = await d.load()
            place = next(pr for pr in t.prompts() if pr.kind == "place")
            slots = t.state.players[seat].slots
            quiet = [o.id for o in place.options if o.id != "discard" and not is_bottle(slots[int(o.id[5:])])]
            option = quiet[0] if quiet else option
        await act(d, acks, seat, "place", option, "dm" if turns % 2 else "reply", rec)
        opened += await d.bot.service.store.get_race(d.gid) is not None
    raise AssertionError("the Omerta game did not end")


def is_bottle(card: int | None) -> bool:
    """Whether a card is a Bottle (face up on the discard pile, it opens a snap window)."""
    return card is not None and deck().cards[card].kind == "bottle"


async def play_speakeasy(d: Driver, acks: Acks, *, moves: int) -> None:
    """``moves`` more Speakeasy answers by the scripted players: public ones on the board, private ones on My
    options and by DM in turn."""
    for _ in range(moves):
        await d.settle()
        t = await d.load()
        assert t.row.status == "active"
        pr = next(x for x in t.prompts() if x.race is None and x.seat >= 0)
        via = ("dm" if len(acks.moves) % 2 else "mine") if pr.secret else "board"
        await act(d, acks, pr.seat, pr.kind, quick_option(pr), via)
    await d.settle()
