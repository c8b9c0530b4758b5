"""Issue 22, limits on spam, in the service on a fake clock: open lobbies per user and server, the cooldowns of
``/game status``, ``/hint`` and ``/board``, and lobbies that close themselves when they were never started."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.core import TABLE
from engine.registry import GAMES
from service import ServiceError, Settings, TableService, User
from service.limits import BOARD, EXPIRED, HINT, TooSoon
from store import Store

ANN, BOB, CY = User(1, "Ann"), User(2, "Bob"), User(3, "Cy")
DAY = 86400.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def svc(clock: Clock) -> AsyncIterator[TableService]:
    store = await Store.open(":memory:")
    yield TableService(store, Settings(), clock=clock, games=GAMES)
    await store.close()


async def _started_omerta(svc: TableService) -> int:
    gid = (await svc.create(10, 20, ANN, "omerta", {})).table.id
    for u in (BOB, CY):
        await svc.join(gid, u)
    await svc.start(gid, ANN)
    return gid


# --- open lobbies per user and server --------------------------------------------------------------------------


async def test_a_user_hosts_at_most_three_open_lobbies_per_server(svc: TableService, clock: Clock) -> None:
    """Issue 22: one user opened 27 tables; now the fourth open lobby in a server is refused, saying how many are
    open, which, what to do and when the oldest closes by itself."""
    opened = [(await svc.create(10, 20 + i, ANN, "omerta", {})).table for i in range(3)]
    clock.now += 60
    with pytest.raises(ServiceError) as refused:
        await svc.create(10, 30, ANN, "omerta", {})
    text = str(refused.value)
    ids = ", ".join(f"#{t.id}" for t in opened)
    assert f"You already host 3 open lobbies in this server ({ids})" in text
    assert "Start one (/game start), or leave or abandon one (/game leave, /game abandon)" in text
    closes = math.ceil(opened[0].row.created_at + svc.settings.lobby_expire_s)
    assert f"#{opened[0].id} closes itself unstarted <t:{closes}:R>" in text
    assert len(await svc.store.list_games(10)) == 3  # nothing was written
    await svc.create(11, 40, ANN, "omerta", {})  # another server counts its own
    await svc.create(10, 30, BOB, "omerta", {})  # another host
    await svc.abandon(opened[1].id, ANN)  # an abandoned lobby is no longer open
    again = (await svc.create(10, 30, ANN, "omerta", {})).table.id
    await svc.join(again, BOB)
    await svc.join(again, CY)
    await svc.start(again, ANN)  # a started game is no longer a lobby
    await svc.create(10, 31, ANN, "omerta", {})


async def test_the_number_of_lobbies_is_a_setting(clock: Clock) -> None:
    store = await Store.open(":memory:")
    svc = TableService(store, Settings(lobbies_per_user=1), clock=clock, games=GAMES)
    try:
        await svc.create(10, 20, ANN, "omerta", {})
        with pytest.raises(ServiceError, match="You already host 1 open lobbies"):
            await svc.create(10, 21, ANN, "omerta", {})
    finally:
        await store.close()


# --- /game status ----------------------------------------------------------------------------------------------


async def test_a_board_is_reposted_at_most_once_a_minute_per_game(svc: TableService, clock: Clock) -> None:
    """Issue 22: 20 ``/game status`` in 2 seconds posted 20 boards. The first repost is allowed; until a minute
    has passed the others are told when (whoever asks: the limit is the game's)."""
    gid = await _started_omerta(svc)
    other = await _started_omerta(svc)
    table = await svc.load(gid)
    assert await svc.claim_repost(table) is None
    for _ in range(19):
        clock.now += 0.1
        assert await svc.claim_repost(table) == 1_000_060.0
    assert await svc.claim_repost(await svc.load(other)) is None  # each game its own minute
    text = str(svc.board_recent(table, "https://discord.com/channels/10/20/30", 1_000_059.5))
    assert "less than 60 seconds ago: https://discord.com/channels/10/20/30" in text
    assert "It can be posted again <t:1000060:R>." in text
    clock.now = 1_000_060.0
    assert await svc.claim_repost(table) is None
    assert await svc.claim_repost(table) == 1_000_120.0


# --- /hint and /board ------------------------------------------------------------------------------------------


async def test_a_hint_per_player_per_half_minute(svc: TableService, clock: Clock) -> None:
    """Issue 22: ``/hint`` runs a bot's search; a second one within the cooldown is refused with when to ask
    again. A hint refused for another reason (not your turn) does not start it; each player has their own."""
    gid = await _started_omerta(svc)
    table = await svc.load(gid)
    for user in (ANN, BOB, CY):  # everyone peeks, each with a hint first
        assert await svc.hint(gid, user)
    with pytest.raises(TooSoon) as soon:
        await svc.hint(gid, ANN)
    assert soon.value.again_at == clock.now + 30
    assert (
        str(soon.value)
        == f"You asked for a hint less than 30 seconds ago; ask again <t:{math.ceil(clock.now + 30)}:R>."
    )
    clock.now += 30
    for user in (ANN, BOB, CY):
        seat = table.seat_of(user.id)
        prompt = next(p for p in table.prompts() if p.seat == seat)
        table = (await svc.act(gid, user, table.version, "peek", prompt.options[0].id)).table
    turn = next(p for p in table.prompts() if p.seat != TABLE)
    mover = next(u for u in (ANN, BOB, CY) if table.seat_of(u.id) == turn.seat)
    waiting = next(u for u in (ANN, BOB, CY) if u != mover)
    with pytest.raises(ServiceError, match="not your turn") as refused:
        await svc.hint(gid, waiting)
    assert not isinstance(refused.value, TooSoon)
    assert await svc.hint(gid, mover)  # the mover's own cooldown had ended
    clock.now += 29.9
    with pytest.raises(TooSoon):
        await svc.hint(gid, mover)


async def test_a_board_picture_per_player_per_ten_seconds(svc: TableService, clock: Clock) -> None:
    """Issue 22: ``/board`` draws a picture; the cog asks the service just before drawing it."""
    await svc.user_cooldown(BOARD, ANN)
    await svc.user_cooldown(BOARD, BOB)
    clock.now += 9.5
    with pytest.raises(TooSoon) as soon:
        await svc.user_cooldown(BOARD, ANN)
    assert soon.value.again_at == 1_000_010.0
    assert "ask again <t:1000010:R>" in str(soon.value)
    await svc.user_cooldown(HINT, ANN)  # a hint is another cooldown
    clock.now += 0.5
    await svc.user_cooldown(BOARD, ANN)
    with pytest.raises(ValueError):
        await svc.user_cooldown("dance", ANN)


async def test_the_cooldowns_are_settings(clock: Clock) -> None:
    store = await Store.open(":memory:")
    svc = TableService(
        store, Settings(board_cooldown_s=2, hint_cooldown_s=5, status_repost_s=7), clock=clock, games=GAMES
    )
    try:
        await svc.user_cooldown(BOARD, ANN)
        with pytest.raises(TooSoon, match="less than 2 seconds ago") as board:
            await svc.user_cooldown(BOARD, ANN)
        await svc.user_cooldown(HINT, ANN)
        with pytest.raises(TooSoon, match="less than 5 seconds ago") as hint:
            await svc.user_cooldown(HINT, ANN)
        gid = await _started_omerta(svc)
        table = await svc.load(gid)
        assert await svc.claim_repost(table) is None
        assert (board.value.again_at, hint.value.again_at, await svc.claim_repost(table)) == (
            clock.now + 2,
            clock.now + 5,
            clock.now + 7,
        )
    finally:
        await store.close()


# --- lobbies that were never started ---------------------------------------------------------------------------


async def test_an_unstarted_lobby_closes_itself_after_seven_days(svc: TableService, clock: Clock) -> None:
    """Issue 22: lobbies never expired. After 7 days unstarted, one closes (abandoned) with a line in its log and
    one for its thread or channel in the outbox, committed together; a started game and a younger lobby stay."""
    old = (await svc.create(10, 20, ANN, "omerta", {})).table
    started = await _started_omerta(svc)
    clock.now += DAY
    young = (await svc.create(10, 21, BOB, "omerta", {})).table
    clock.now = old.row.created_at + 7 * DAY - 1
    assert await svc.expire_lobbies() == []
    clock.now += 1
    assert await svc.expire_lobbies() == [old.id]
    assert await svc.expire_lobbies() == []  # once
    table = await svc.load(old.id)
    assert table.row.status == "abandoned" and table.state is None
    line = (
        f"Game #{old.id} has closed itself: it was not started within 7 days of being opened. Open a new table with "
        "/game new when you are ready to play."
    )
    events = await svc.store.get_events(old.id)
    assert [(e.kind, e.seats, e.text) for e in events] == [(EXPIRED, None, line)]
    (entry,) = await svc.store.outbox_due(clock.now, old.id)
    body = json.loads(entry.body)
    assert (entry.kind, entry.user_id, body["text"], body["lobby"]) == ("public", None, line, True)
    assert (await svc.load(started)).row.status == "active"
    assert (await svc.load(young.id)).row.status == "lobby"
    clock.now = young.row.created_at + 7 * DAY
    assert await svc.expire_lobbies() == [young.id]
    assert len(svc._locks) == 0


async def test_the_expiry_is_a_setting(clock: Clock) -> None:
    store = await Store.open(":memory:")
    svc = TableService(store, Settings(lobby_expire_s=0.5 * DAY), clock=clock, games=GAMES)
    try:
        gid = (await svc.create(10, 20, ANN, "omerta", {})).table.id
        clock.now += 0.5 * DAY
        assert await svc.expire_lobbies() == [gid]
        (entry,) = await svc.store.outbox_due(clock.now, gid)
        assert "not started within 0.5 days" in json.loads(entry.body)["text"]
    finally:
        await store.close()


async def test_two_processes_close_each_old_lobby_once(tmp_path: Path, clock: Clock) -> None:
    """Issue 22: several processes run the expiry on one database; the status changes from lobby once, so each
    lobby is closed, logged and announced by exactly one of them."""
    path = tmp_path / "t.sqlite3"
    a, b = await Store.open(path), await Store.open(path)
    one = TableService(a, Settings(), clock=clock, games=GAMES)
    two = TableService(b, Settings(), clock=clock, games=GAMES)
    try:
        users = [User(i, f"p{i}") for i in range(1, 7)]
        ids = [(await one.create(10, 20 + i, u, "omerta", {})).table.id for i, u in enumerate(users)]
        clock.now += 7 * DAY
        first, second = await asyncio.gather(one.expire_lobbies(), two.expire_lobbies())
        assert sorted(first + second) == ids and not set(first) & set(second)
        for gid in ids:
            assert len(await a.outbox_due(clock.now, gid)) == 1
            assert len(await a.get_events(gid)) == 1
    finally:
        await a.close()
        await b.close()
