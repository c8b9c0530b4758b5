"""The table service: lobby, authorization, stale clicks, races, bots and reminders (no Discord)."""

from __future__ import annotations

import asyncio

import pytest

from engine.core import Choice
from service import ServiceError, Settings, StaleClick, TableService, User
from service.table import effective_choices
from store import Store

HOST = User(1, "Anna")
BEN = User(2, "Ben")
CLEO = User(3, "Cleo")
STRANGER = User(9, "Zed")
ADMIN = User(50, "Mod", admin=True, guild_id=10)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def svc():
    store = await Store.open(":memory:")
    clock = Clock()
    service = TableService(store, Settings(reminder_first_s=3600, reminder_repeat_s=7200), clock=clock)
    service.test_clock = clock  # type: ignore[attr-defined]
    yield service
    await store.close()


async def started(svc: TableService) -> int:
    n = await svc.create(10, 20, HOST, "omerta", {"pace": "live"})
    gid = n.table.id
    await svc.join(gid, BEN)
    await svc.join(gid, CLEO)
    await svc.start(gid, HOST)
    return gid


async def peek_all(svc: TableService, gid: int) -> None:
    for user in (HOST, BEN, CLEO):
        t = await svc.load(gid)
        await svc.act(gid, user, t.version, "peek", "0,1")


async def test_lobby_create_join_leave_start(svc):
    n = await svc.create(10, 20, HOST, "omerta", {"snap_window": 3, "pace": "live"})
    gid = n.table.id
    assert [s.name for s in n.table.seats] == ["Anna"]
    with pytest.raises(ServiceError, match="needs 3 to 5 players"):
        await svc.start(gid, HOST)
    await svc.join(gid, BEN)
    with pytest.raises(ServiceError, match="already have a seat"):
        await svc.join(gid, BEN)
    await svc.join(gid, CLEO)
    with pytest.raises(ServiceError, match="Only the host"):
        await svc.start(gid, BEN)
    notice = await svc.start(gid, HOST)
    assert notice.table.row.status == "active"
    assert sorted(notice.ping) == [1, 2, 3]  # everyone must peek
    with pytest.raises(ServiceError, match="not open for seating"):
        await svc.join(gid, STRANGER)


async def test_bad_options_are_refused_with_what_is_allowed(svc):
    with pytest.raises(ServiceError, match="between 2 and 30"):
        await svc.create(10, 20, HOST, "omerta", {"snap_window": 99})
    with pytest.raises(ServiceError, match="no game called"):
        await svc.create(10, 20, HOST, "chess", {})


async def test_peek_is_private_and_concurrent_buttons_stay_valid(svc):
    gid = await started(svc)
    v0 = (await svc.load(gid)).version
    n1 = await svc.act(gid, HOST, v0, "peek", "0,1")
    assert HOST.id in n1.private and "You peek" in n1.private[HOST.id][0]
    assert not any("You peek" in line for line in n1.public)
    # Ben's peek button was made at v0; Anna's peek since then does not make it stale
    n2 = await svc.act(gid, BEN, v0, "peek", "2,3")
    assert BEN.id in n2.private


async def test_refusals_change_nothing(svc):
    gid = await started(svc)
    await peek_all(svc, gid)
    t = await svc.load(gid)
    active = t.prompts()[0].seat
    user = [HOST, BEN, CLEO][active]
    other = [HOST, BEN, CLEO][(active + 1) % 3]
    with pytest.raises(ServiceError, match="not seated"):
        await svc.act(gid, STRANGER, t.version, "turn", "draw")
    with pytest.raises(ServiceError, match="Nothing to decide for you"):
        await svc.act(gid, other, t.version, "turn", "draw")
    with pytest.raises(StaleClick, match="older board"):
        await svc.act(gid, user, t.version - 1, "turn", "draw")
    with pytest.raises(ServiceError, match="not a legal choice"):
        await svc.act(gid, user, t.version, "turn", "dance")
    assert (await svc.load(gid)).version == t.version
    assert await svc.store.get_choices(gid) == await svc.store.get_choices(gid)
    assert len(await svc.store.get_choices(gid)) == t.version


async def test_two_racing_clicks_exactly_one_applies(svc):
    gid = await started(svc)
    await peek_all(svc, gid)
    t = await svc.load(gid)
    user = [HOST, BEN, CLEO][t.prompts()[0].seat]
    results = await asyncio.gather(
        svc.act(gid, user, t.version, "turn", "draw"),
        svc.act(gid, user, t.version, "turn", "omerta"),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert any(isinstance(r, StaleClick) for r in results)
    assert (await svc.load(gid)).version == t.version + 1


async def _to_snap_window(svc: TableService, gid: int) -> int:
    """Play draw+discard turns until a bottle opens a snap window; returns the race version."""
    for _ in range(200):
        t = await svc.load(gid)
        if await svc.store.get_race(gid):
            return t.version
        p = next(p for p in t.prompts() if p.seat >= 0)
        user = [HOST, BEN, CLEO][p.seat]
        if p.kind == "turn":
            await svc.act(gid, user, t.version, "turn", "draw")
        elif p.kind == "place":
            await svc.act(gid, user, t.version, "place", "discard")
        else:
            await svc.act(gid, user, t.version, p.kind, "decline")
    raise AssertionError("no snap window")


async def test_snap_race_earliest_discord_timestamp_wins_even_if_it_arrives_second(svc):
    gid = await started(svc)
    await peek_all(svc, gid)
    version = await _to_snap_window(svc, gid)
    race = await svc.store.get_race(gid)
    assert race is not None and race.version == version
    late = await svc.act(gid, BEN, version, "snap", "slot:0", ts_ms=5_000)
    assert "judged earliest first" in late.reply
    await svc.act(gid, CLEO, version, "snap", "slot:1", ts_ms=4_000)  # earlier stamp, arrives second
    with pytest.raises(ServiceError, match="already made a claim"):
        await svc.act(gid, CLEO, version, "snap", "slot:2", ts_ms=4_500)
    notice = await svc.close_race(gid, version)
    assert notice is not None
    record = await svc.store.get_choices(gid)
    assert Choice(2, "snap", "slot:1") == __import__("engine.core").core.load_choice(record[version])
    assert any("Cleo" in line and "first" in line for line in notice.public)
    assert await svc.close_race(gid, version) is None  # already closed


async def test_snap_window_with_no_claim_closes_by_table(svc):
    gid = await started(svc)
    await peek_all(svc, gid)
    version = await _to_snap_window(svc, gid)
    notice = await svc.close_race(gid, version)
    assert notice is not None and any("Nobody snaps" in line for line in notice.public)


async def test_reminders_fire_after_idle_time_not_at_once(svc):
    """Without a deadline (``deadline=none``, as every table before issue 23) reminders follow the global timer."""
    n = await svc.create(10, 20, HOST, "omerta", {"deadline": "none", "pace": "live"})
    await svc.join(n.table.id, BEN)
    await svc.join(n.table.id, CLEO)
    await svc.start(n.table.id, HOST)
    assert await svc.due_reminders() == []
    svc.test_clock.now += 3601
    due = await svc.due_reminders()
    assert sorted(u for _, u, *_ in due) == [1, 2, 3]
    assert await svc.due_reminders() == []  # claimed for sending: never handed out twice (issue 14)
    svc.test_clock.now += svc.settings.reminder_claim_s  # the sender died before sending: the claim lapses
    due = await svc.due_reminders()
    assert [c for _, _, c, _ in due] == [0, 0, 0]  # not counted until sent (the same count: the same nonce)
    for table, user, *_ in due:
        await svc.reminder_sent(table, user)
    assert await svc.due_reminders() == []  # re-armed a day on
    svc.test_clock.now += 7201
    assert len(await svc.due_reminders()) == 3


async def test_abandon_by_host_or_admin_only(svc):
    gid = await started(svc)
    with pytest.raises(ServiceError, match="Only the host"):
        await svc.abandon(gid, BEN)
    n = await svc.abandon(gid, ADMIN)
    assert n.table.row.status == "abandoned"


async def test_state_rebuilt_from_record_when_snapshot_lags(svc):
    gid = await started(svc)
    await peek_all(svc, gid)
    t = await svc.load(gid)
    expected = t.game.dumps(t.state)
    rebuilt = svc.replay(t, effective_choices(await svc.store.get_choices(gid)))
    assert t.game.dumps(rebuilt) == expected
