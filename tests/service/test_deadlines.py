"""Issue 23, "a pace for each table" and "what happens at the deadline": the option ``deadline`` arms a deadline
with each wait (and reminders half-way and near its end), and when it passes the table does what ``on_timeout``
says: ``bot`` (the standard bot plays the wait for the player), ``skip`` (the default choices), ``remind`` (the
game waits; the log says so and the player is pinged again), ``hold`` (a bot plays the seat until its player
comes back). A timeout's choices are in the record with their cause; each deadline fires once, also with two
services on one database. All with the fake clock."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from engine.core import load_choice, waits_for
from service import ServiceError, Settings, TableService, User
from service.table import effective_choices
from store import Store

ANNA, BEN, CLEO = User(1, "Anna"), User(2, "Ben"), User(3, "Cleo")
MINUTE = 60.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def service(store: Store, clock: Clock) -> TableService:
    return TableService(store, Settings(reminder_first_s=3600, reminder_repeat_s=7200), clock=clock)


@pytest.fixture
async def svc():
    store = await Store.open(":memory:")
    s = service(store, Clock())
    yield s
    await store.close()


async def omerta(svc: TableService, **options: str) -> int:
    gid = (await svc.create(10, 20, ANNA, "omerta", {"pace": "live"} | options)).table.id
    await svc.join(gid, BEN)
    await svc.join(gid, CLEO)
    await svc.start(gid, ANNA)
    return gid


async def waiting(svc: TableService, gid: int) -> set[int]:
    t = await svc.load(gid)
    return {p.seat for p in t.prompts() if waits_for(p)}


async def test_new_tables_get_their_games_deadline_and_bad_values_are_refused(svc):
    """Issue 23: a new Speakeasy table gets 48h, a new Omerta table 24h; on_timeout defaults to bot; a deadline
    from 1m to 14d or none, anything else refused with what is allowed (and nothing opened)."""
    t = (await svc.create(10, 20, ANNA, "speakeasy", {})).table
    opts = json.loads(t.row.options)
    assert (opts["deadline"], opts["on_timeout"], opts["timeouts_to_replace"]) == ("48h", "bot", 3)
    t = (await svc.create(10, 21, ANNA, "omerta", {"deadline": "none"})).table
    assert json.loads(t.row.options)["deadline"] == "none"
    t = (await svc.create(10, 22, BEN, "omerta", {})).table
    assert json.loads(t.row.options)["deadline"] == "24h"
    for bad in ("15d", "0m", "30s", "soon", 30):
        with pytest.raises(ServiceError, match="from 1m to 14d"):
            await svc.create(10, 23, CLEO, "omerta", {"deadline": bad})
    with pytest.raises(ServiceError, match="remind, bot, hold, skip"):
        await svc.create(10, 23, CLEO, "omerta", {"on_timeout": "wait"})


async def test_reminders_half_way_and_near_the_end_then_the_bot_plays_the_wait(svc):
    """Issue 23: reminders come before the deadline (half-way, near the end), not on the global timer; at the
    deadline the bot plays the wait for each player (``on_timeout=bot``, the default), the log says so, and the
    choices are in the record with the cause "deadline" (a replay reproduces them)."""
    clock = svc.clock
    gid = await omerta(svc, deadline="30m")
    assert await waiting(svc, gid) == {0, 1, 2}
    clock.now += 15 * MINUTE - 1
    assert await svc.due_reminders() == []
    clock.now += 1
    due = await svc.due_reminders()
    assert sorted(u for _, u, *_ in due) == [1, 2, 3]
    for table, user, *_ in due:
        await svc.reminder_sent(table, user)
    clock.now += 12 * MINUTE - 1
    assert await svc.due_reminders() == []
    clock.now += 1  # 27 minutes: near the end
    due = await svc.due_reminders()
    assert sorted(u for _, u, *_ in due) == [1, 2, 3]
    for table, user, *_ in due:
        await svc.reminder_sent(table, user)
    assert await svc.fire_deadlines() == []
    clock.now += 3 * MINUTE
    assert await svc.due_reminders() == []  # no third reminder: the deadline comes next
    assert await svc.fire_deadlines() == [gid, gid, gid]
    rows = await svc.store.get_choice_rows(gid)
    assert [r.cause for r in rows] == ["deadline"] * len(rows) and len(rows) == 3
    assert sorted(load_choice(r.choice).seat for r in rows) == [0, 1, 2]
    assert all(r.actor_id is None for r in rows)
    log = [e.text for e in await svc.store.get_events(gid)]
    assert sum("time ran out: the bot plays for" in line for line in log) == 3
    t = await svc.load(gid)
    replayed = svc.replay(t, effective_choices(await svc.store.get_choices(gid)))
    assert t.game.dumps(replayed) == t.game.dumps(t.state)
    assert await svc.fire_deadlines() == []  # each fired once


async def test_a_player_who_answers_gets_a_new_deadline_and_is_not_timed_out(svc):
    """Issue 23: the time is for each decision: a player's own answer ends their wait's deadline (or starts the
    next one); only the quiet players are timed out."""
    clock = svc.clock
    gid = await omerta(svc, deadline="30m")
    clock.now += 20 * MINUTE
    t = await svc.load(gid)
    await svc.act(gid, ANNA, t.version, "peek", "0,1")
    clock.now += 10 * MINUTE
    assert await svc.fire_deadlines() == [gid, gid]
    rows = await svc.store.get_choice_rows(gid)
    assert [(load_choice(r.choice).seat, r.cause) for r in rows][:1] == [(0, None)]
    assert sorted(load_choice(r.choice).seat for r in rows if r.cause == "deadline") == [1, 2]


async def test_skip_takes_the_default_choices(svc):
    """Issue 23, ``on_timeout=skip``: the default choices, as the host's skip takes them."""
    gid = await omerta(svc, deadline="1h", on_timeout="skip")
    svc.clock.now += 3600
    assert sorted(await svc.fire_deadlines()) == [gid, gid, gid]
    log = [e.text for e in await svc.store.get_events(gid)]
    assert sum("the table takes the default choices" in line for line in log) == 3
    assert all(r.cause == "deadline" for r in await svc.store.get_choice_rows(gid))
    # the fired deadlines are spent: a seat still waited for has a new wait with a fresh deadline, never the claim
    rows = [r for r in await svc.store.get_reminders(gid) if r.kind == "deadline"]
    assert rows and all(r.due_at == svc.clock.now + 3600 for r in rows)
    svc.clock.now += svc.settings.reminder_claim_s + 1
    assert await svc.fire_deadlines() == []


async def test_remind_waits_says_so_pings_again_and_comes_round_again(svc):
    """Issue 23, ``on_timeout=remind``: nothing is played; the log says the time ran out and what the host may
    do; the player is pinged again at once; the deadline comes round again after as long."""
    gid = await omerta(svc, deadline="1h", on_timeout="remind")
    svc.clock.now += 3600
    assert sorted(await svc.fire_deadlines()) == [gid, gid, gid]
    assert await svc.store.get_choice_rows(gid) == []
    log = [e.text for e in await svc.store.get_events(gid)]
    assert sum("time ran out; the game waits" in line and "/game skip" in line for line in log) == 3
    assert sorted(u for _, u, *_ in await svc.due_reminders()) == [1, 2, 3]
    assert await svc.fire_deadlines() == []
    svc.clock.now += 3600
    assert len(await svc.fire_deadlines()) == 3


async def test_hold_hands_the_seat_to_a_bot_that_stays_the_players(svc):
    """Issue 23, ``on_timeout=hold``: a bot plays the seat until its player comes back (``/game reclaim``); the
    seat stays theirs (issue 22's consent rule: it cannot be offered to anyone else)."""
    gid = await omerta(svc, deadline="1h", on_timeout="hold")
    t = await svc.load(gid)
    await svc.act(gid, ANNA, t.version, "peek", "0,1")
    await svc.act(gid, BEN, t.version + 1, "peek", "0,1")
    svc.clock.now += 3600
    assert await svc.fire_deadlines() == [gid]
    t = await svc.load(gid)
    assert t.seat_of(CLEO.id) is None and t.name_of(2) == "Cleo"
    assert (await svc.seat_claims(t)) == {2: CLEO.id}
    for _ in range(50):  # the bot plays its turns in the bots' task
        if not svc.bots_busy(gid):
            break
        await asyncio.sleep(0.05)
    t = await svc.load(gid)
    with pytest.raises(ServiceError, match="You play Cleo's seat again"):  # any click of hers brings her back
        await svc.act(gid, CLEO, t.version, "no-such-question", "x")
    t = await svc.load(gid)
    assert t.seat_of(CLEO.id) == 2 and await svc.seat_claims(t) == {}
    log = [e.text for e in await svc.store.get_events(gid)]
    assert any("Cleo's time ran out" in line and "until Cleo comes back" in line for line in log)
    assert any("takes Cleo's seat back" in line for line in log)
    deadlines = [r for r in await svc.store.get_reminders(gid) if r.kind == "deadline"]
    assert all(r.user_id != CLEO.id or r.due_at == svc.clock.now + 3600 for r in deadlines)


async def test_hold_then_reclaim_by_command(svc):
    """Issue 23: ``/game reclaim`` brings a held seat back too."""
    gid = await omerta(svc, deadline="1h", on_timeout="hold")
    svc.clock.now += 3600
    await svc.fire_deadlines()
    for _ in range(100):
        if not svc.bots_busy(gid):
            break
        await asyncio.sleep(0.05)
    notice = await svc.reclaim_seat(gid, BEN)
    assert "again" in str(notice.reply)
    assert (await svc.load(gid)).seat_of(BEN.id) == 1


async def test_the_host_is_told_after_timeouts_in_a_row(svc):
    """Issue 23, ``timeouts_to_replace``: after that many timeouts in a row the host is told privately that they
    may offer the seat (the count comes from the record: the player's own choice starts it again)."""
    gid = await omerta(svc, deadline="1m", on_timeout="skip", timeouts_to_replace=1)
    svc.clock.now += MINUTE
    await svc.fire_deadlines()
    bodies = [o.body for o in await svc.store.outbox_due(svc.clock.now + 1, gid) if o.user_id == ANNA.id]
    assert any("ran out 1 times in a row" in b for b in bodies), bodies


async def test_two_services_on_one_database_fire_each_deadline_once(tmp_path: Path):
    """Issue 23 ("each deadline fires exactly once"): two processes' services sweep at the same moment; every
    seat is played for once."""
    clock = Clock()
    a = service(await Store.open(str(tmp_path / "t.sqlite3")), clock)
    b = service(await Store.open(str(tmp_path / "t.sqlite3")), clock)
    try:
        gid = await omerta(a, deadline="30m")
        clock.now += 30 * MINUTE
        got = await asyncio.gather(a.fire_deadlines(), b.fire_deadlines())
        assert len(got[0]) + len(got[1]) == 3
        rows = await a.store.get_choice_rows(gid)
        assert sorted(load_choice(r.choice).seat for r in rows) == [0, 1, 2]
    finally:
        await a.store.close()
        await b.store.close()


DAN = User(4, "Dan")


async def ben_misses(svc: TableService, gid: int, waits: int) -> None:
    """Anna and Cleo answer at once (their first option), Ben never: minutes pass and his deadlines fire until
    ``waits`` of his waits were answered for him."""
    for _ in range(500):
        t = await svc.load(gid)
        if await svc.timeouts_in_row(t, 1) >= waits:
            return
        mine = [p for p in t.prompts() if waits_for(p) and p.seat in (0, 2)]
        if mine:
            p = mine[0]
            await svc.act(gid, (ANNA, BEN, CLEO)[p.seat], t.version, p.kind, p.default_option())
            continue
        race = await svc.store.get_race(gid)
        if race is not None:
            await svc.close_race(gid, race.version)
            continue
        svc.clock.now += MINUTE
        await svc.fire_deadlines()
    raise AssertionError("Ben's waits were not timed out")


async def test_after_timeouts_in_a_row_silence_for_a_day_counts_as_consent(svc):
    """Issue 23, ``timeouts_to_replace``: the host offers the seat of a player whose last waits were answered for
    him; if he neither keeps nor gives it up within a day, it changes hands once the invited person takes it
    (here: accepted first, handed over by the sweep when the day is over)."""
    gid = await omerta(svc, deadline="1m", on_timeout="skip", timeouts_to_replace=2)
    await ben_misses(svc, gid, 2)
    notice = await svc.offer_seat(gid, ANNA, BEN.id, DAN)
    assert "both agree" in str(notice.reply) or notice.reply
    offer = await svc.store.get_offer(gid, 1)
    assert offer is not None and offer.silent_from == svc.clock.now + 24 * 3600
    await svc.take_seat(gid, DAN, 1)  # accepted; Ben has a day to answer
    assert (await svc.load(gid)).seat_of(DAN.id) is None
    svc.clock.now = offer.silent_from
    changed = await svc.fire_deadlines()
    assert gid in changed
    t = await svc.load(gid)
    assert t.seat_of(DAN.id) == 1 and t.seat_of(BEN.id) is None and t.name_of(1) == "Ben"


async def test_a_player_back_before_the_day_keeps_the_seat_unless_he_agrees(svc):
    """Issue 23: silence counts only while it lasts: a player who plays again is asked as before (issue 22)."""
    gid = await omerta(svc, deadline="1h", on_timeout="skip", timeouts_to_replace=2)
    await ben_misses(svc, gid, 2)
    await svc.offer_seat(gid, ANNA, BEN.id, DAN)
    offer = await svc.store.get_offer(gid, 1)
    assert offer is not None and offer.silent_from is not None
    for _ in range(200):  # Ben plays his next question himself
        t = await svc.load(gid)
        mine = [p for p in t.prompts() if waits_for(p)]
        if any(p.seat == 1 for p in mine):
            p = next(p for p in mine if p.seat == 1)
            await svc.act(gid, BEN, t.version, p.kind, p.default_option())
            break
        race = await svc.store.get_race(gid)
        if race is not None:
            await svc.close_race(gid, race.version)
            continue
        if not mine:
            svc.clock.now += MINUTE
            await svc.fire_deadlines()
            continue
        p = mine[0]
        await svc.act(gid, (ANNA, BEN, CLEO)[p.seat], t.version, p.kind, p.default_option())
    else:
        raise AssertionError("Ben was never asked")
    assert await svc.timeouts_in_row(await svc.load(gid), 1) == 0
    svc.clock.now = offer.silent_from + 1  # (his next wait may time out meanwhile: one, not two in a row)
    await svc.take_seat(gid, DAN, 1)
    await svc.fire_deadlines()
    assert (await svc.load(gid)).seat_of(BEN.id) == 1


async def test_an_offer_without_timeouts_needs_the_players_consent(svc):
    """Issue 22's rule, kept by issue 23: a seat whose player plays is never taken by silence."""
    gid = await omerta(svc, deadline="1h")
    await svc.offer_seat(gid, ANNA, BEN.id, DAN)
    offer = await svc.store.get_offer(gid, 1)
    assert offer is not None and offer.silent_from is None
    await svc.take_seat(gid, DAN, 1)
    svc.clock.now += 23 * 3600
    await svc.fire_deadlines()
    assert (await svc.load(gid)).seat_of(DAN.id) is None
