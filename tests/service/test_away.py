"""Issue 23, "Games that keep going for weeks": a player who is away (``/away``) and one in their quiet hours, as
the table treats them, with the fake clock. Away, at a table whose ``on_timeout`` is bot or hold (``away=act``, the
default), their deadline is due at once; at a table with ``away=pause`` it is put off until they are back (at most
7 days a game); quiet hours hold reminders until they end, and the deadline keeps running."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from engine.core import load_choice
from service import TableService
from store import Store
from tests.service.test_deadlines import ANNA, BEN, CLEO, Clock, omerta, service, waiting

DAY = 86400.0


@pytest.fixture
async def svc() -> AsyncIterator[TableService]:
    store = await Store.open(":memory:")
    yield service(store, Clock())
    await store.close()


async def test_an_away_players_deadline_is_due_at_once_with_bot_or_hold_and_not_with_remind(svc: TableService):
    """Issue 23: "while away, the player's deadlines are handled by the table's on_timeout at once when it is bot
    or hold": Ben goes away and the next sweep plays his wait (cause: deadline), nobody else's; at a table that only
    reminds, his deadline runs as before; back (/away off), his next wait has its full time."""
    gid = await omerta(svc, deadline="24h")
    quiet = await omerta(svc, deadline="24h", on_timeout="remind")
    assert await svc.fire_deadlines() == []
    await svc.set_away(BEN.id, "3d")
    assert await svc.fire_deadlines() == [gid]
    rows = await svc.store.get_choice_rows(gid)
    assert rows and {load_choice(r.choice).seat for r in rows} == {1} and {r.cause for r in rows} == {"deadline"}
    assert 1 not in await waiting(svc, gid) and {0, 2} <= await waiting(svc, gid)
    assert await svc.store.get_choice_rows(quiet) == []
    assert await svc.fire_deadlines() == []
    await svc.set_away(BEN.id, "off")
    assert (await svc.public(await svc.load(gid))).away == ()


async def test_away_pause_puts_the_deadline_off_until_the_player_is_back_at_most_7_days_a_game(svc: TableService):
    """Issue 23: ``away=pause``: a deadline that comes due while its player is away waits until they are back
    (and a tenth of the deadline more), and a reminder pings them when they are back; it counts against 7 days a
    game: away longer, the deadline fires after 7 days of pause."""
    clock = svc.clock
    gid = await omerta(svc, deadline="1h", away="pause")
    await svc.set_away(BEN.id, "2d")
    back = clock.now + 2 * DAY
    assert await svc.fire_deadlines() == []  # not at once: the table pauses
    clock.now += 1 * 3600
    assert await svc.fire_deadlines() == [gid, gid]  # Anna's and Cleo's
    assert await waiting(svc, gid) == {1}
    ben = {r.kind: r for r in await svc.store.get_reminders(gid) if r.user_id == BEN.id}
    assert ben["deadline"].due_at == back + 360 and ben["turn"].due_at == back
    assert await svc.store.paused_s(gid, BEN.id) == back + 360 - clock.now
    clock.now = back + 359
    assert await svc.fire_deadlines() == []
    clock.now += 1
    assert await svc.fire_deadlines() == [gid]

    long = await omerta(svc, deadline="1h", away="pause")
    await svc.set_away(BEN.id, "14d")
    start = clock.now
    clock.now += 3600
    assert (await svc.fire_deadlines()).count(long) == 2  # Anna's and Cleo's (the first game goes on too)
    (r,) = [r for r in await svc.store.get_reminders(long) if r.user_id == BEN.id and r.kind == "deadline"]
    assert r.due_at == clock.now + 7 * DAY  # all the game's 7 days at once: he is away longer
    clock.now = start + 3600 + 7 * DAY
    fired = await svc.fire_deadlines()  # (the first game's later waits fire too: it went on meanwhile)
    assert fired.count(long) == 1  # the 7 days are used up: the table acts


async def test_a_reminder_due_in_quiet_hours_waits_until_they_end_and_the_deadline_keeps_running(svc: TableService):
    """Issue 23: "no pings or DMs then: they wait until the quiet hours end; the deadline does not stop"."""
    clock = svc.clock
    berlin = ZoneInfo("Europe/Berlin")
    clock.now = datetime(2026, 6, 1, 21, 0, tzinfo=berlin).timestamp()
    await svc.set_my_settings(BEN.id, tz="Europe/Berlin", quiet_start="22:00", quiet_end="08:00")
    gid = await omerta(svc, deadline="4h")
    clock.now += 2 * 3600  # 23:00 in Berlin: the half-way reminders are due
    due = await svc.due_reminders()
    assert sorted(u for _, u, *_ in due) == [ANNA.id, CLEO.id]
    (r,) = [r for r in await svc.store.get_reminders(gid) if r.user_id == BEN.id and r.kind == "turn"]
    assert r.due_at == datetime(2026, 6, 2, 8, 0, tzinfo=berlin).timestamp()
    clock.now += 2 * 3600  # 01:00: the deadline passes all the same
    assert sorted(await svc.fire_deadlines()) == [gid, gid, gid]
