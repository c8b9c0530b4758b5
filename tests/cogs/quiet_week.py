"""Issue 23's quiet hours acceptance, as a harness both the test and ``bench/quiet_week.py`` run: games played
through the fake Discord over simulated days by their deadlines (the players never click: the table's bot plays
each wait when its time runs out, so boards, reminders and pings come at every hour), with players in 3 time
zones who set their quiet hours with ``/me``. After every step of the fake clock it checks that no message pinged
a player in their quiet hours and no DM to one notified them (a DM then is sent silent), and that a ping left out
of a board in someone's quiet hours arrives when those hours end (one step later at most) while the game still
waits for them."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from engine.core import waits_for
from service.quiet import quiet_until
from store import PersonRow
from tests.cogs.driver import Clock, Driver, bot_on
from tests.cogs.test_dm_access import said
from tests.fakediscord import payloads as p
from tests.fakediscord.fixtures import fake_server
from tests.fakediscord.server import FakeDiscordServer

#: Discord's flag of a message that notifies nobody (``@silent``)
SUPPRESS_NOTIFICATIONS = 1 << 12
#: the players' /me settings: 3 time zones, quiet hours over midnight and within a night, two told by DM too
SETTINGS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (p.ANNA, {"time_zone": "Europe/Berlin", "quiet_start": "22:00", "quiet_end": "08:00"}),
    (p.BEN, {"time_zone": "America/New_York", "quiet_start": "23:00", "quiet_end": "07:00", "told_by": "both"}),
    (p.CLEO, {"time_zone": "Asia/Tokyo", "quiet_start": "0:00", "quiet_end": "9:30"}),
    (p.DAN, {"time_zone": "Europe/Berlin", "told_by": "both"}),
    (p.EVE, {"time_zone": "America/New_York", "quiet_start": "21:00", "quiet_end": "09:00", "told_by": "dm"}),
]


@dataclass
class Figures:
    """What a simulated stretch did."""

    games: int = 0
    steps: int = 0
    #: messages in the games' channels, and those that pinged someone
    posted: int = 0
    pinged: int = 0
    #: DMs to players, and those sent silent (in the reader's quiet hours)
    dms: int = 0
    silent: int = 0
    #: boards that named someone in their quiet hours without a ping, and those pings that came when they ended
    held: int = 0
    held_arrived: int = 0
    finished: int = 0
    #: every failure of the acceptance (empty: it holds)
    failures: list[str] = field(default_factory=list)


@contextlib.asynccontextmanager
async def week_table(tmp_path: Path, clock: Clock) -> AsyncIterator[tuple[FakeDiscordServer, Any]]:
    """The fake Discord and the bot on a fresh database."""
    async with (
        fake_server(heartbeat_interval_ms=30_000) as server,
        bot_on(server, tmp_path / "week.sqlite3", clock) as bot,
    ):
        yield server, bot


async def simulate(tmp_path: Path, games: int, days: float, step_s: float, deadline: str) -> Figures:
    """``games`` Omerta tables of 3 (players rotating over the 5) with ``deadline`` and ``on_timeout=bot``, the
    clock moved by ``step_s`` for ``days``, the deadlines fired and the reminders sent at each step; every message
    checked as it comes."""
    clock = Clock()
    clock.now = datetime(2026, 3, 2, 6, 0, tzinfo=ZoneInfo("UTC")).timestamp()  # a Monday; 3 zones' clocks move
    fig = Figures(games=games)
    async with week_table(tmp_path, clock) as (server, bot):
        users = [u for u, _ in SETTINGS]
        for user, opts in SETTINGS:
            await said(await server.slash(user, "me", opts, channel_id=server.dm_channel_id(user)))
        people = {u.user_id: u for u in (await bot.service.store.get_people([p.uid(x) for x in users])).values()}
        dm_of = {server.dm_channel_id(u): p.uid(u) for u in users}
        drivers: list[Driver] = []
        for i in range(games):
            clock.now += 60
            seated = [users[(i + k) % len(users)] for k in range(3)]
            d = Driver(server, bot, clock, seated)
            await d.open_and_start(options=f"deadline={deadline} on_timeout=bot", game="omerta")
            drivers.append(d)
        seen = 0
        channels = {d.where: d for d in drivers}
        #: (channel, user) -> when their quiet hours end: a ping left out of a board, to arrive then
        pending: dict[tuple[int, int], float] = {}
        play, people_cog = bot.get_cog("Play"), bot.get_cog("People")
        end = clock.now + days * 86400
        first = True
        while clock.now < end:
            if not first:
                clock.now += step_s
                fig.steps += 1
                await play.close_due_races()  # a snap window's time (the table's own move)
                await play.fire_deadlines()
                await play.send_reminders()
                await people_cog.send_digests()
            first = False
            ids = sorted(m for m in server.messages if m > seen)
            seen = max([seen, *ids])
            for mid in ids:
                check(server.messages[mid], clock.now, people, channels, dm_of, pending, fig)
            for (channel, user), at in list(pending.items()):
                if clock.now < at + step_s:
                    continue
                d = channels[channel]
                t = await d.load()
                seat = t.seat_of(user)
                if t.row.status == "active" and any(q.seat == seat and waits_for(q) for q in t.prompts()):
                    fig.failures.append(f"game {d.gid}: the ping held for {user} did not come by {at + step_s}")
                del pending[(channel, user)]
        fig.finished = sum([(await d.load()).row.status == "finished" for d in drivers])
    return fig


def check(
    m: dict[str, Any],
    now: float,
    people: dict[int, PersonRow],
    channels: dict[int, Driver],
    dm_of: dict[int, int],
    pending: dict[tuple[int, int], float],
    fig: Figures,
) -> None:
    """One new message: nobody it pings is in their quiet hours; a DM to someone in them is silent; a name written
    as a mention without a ping (someone's quiet hours) is owed a ping when they end."""
    if m.get("ephemeral"):
        return
    channel = int(m["channel_id"])
    if channel in dm_of:
        fig.dms += 1
        user = dm_of[channel]
        quiet = user in people and quiet_until(people[user], now) is not None
        if m["flags"] & SUPPRESS_NOTIFICATIONS:
            fig.silent += 1
        elif quiet:
            fig.failures.append(f"a DM notified {user} in their quiet hours at {now}: {m['content'][:80]!r}")
        return
    if channel not in channels:
        return
    fig.posted += 1
    pinged = {int(u["id"]) for u in m.get("mentions", [])}
    fig.pinged += bool(pinged)
    for user in pinged:
        if pending.pop((channel, user), None) is not None:
            fig.held_arrived += 1
        if user in people and quiet_until(people[user], now) is not None:
            fig.failures.append(f"message {m['id']} pinged {user} in their quiet hours at {now}")
    for user, person in people.items():
        if f"<@{user}>" in m["content"] and user not in pinged and person.notify != "dm":
            end = quiet_until(person, now)
            if end is None:
                fig.failures.append(f"message {m['id']} named {user} without a ping outside their quiet hours")
            elif (channel, user) not in pending:
                pending[(channel, user)] = end
                fig.held += 1
