"""Issue 22: the per-game locks are freed when nobody holds or waits for them, without ever letting two coroutines
in at once."""

from __future__ import annotations

import asyncio

import pytest

from engine.registry import GAMES
from service import Settings, TableService, User
from service.locks import KeyedLocks
from store import Store


async def test_one_holder_at_a_time_and_nothing_kept_afterwards() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    inside: list[int] = []
    most = 0

    async def work(key: int) -> None:
        nonlocal most
        async with locks(key):
            inside.append(key)
            most = max(most, inside.count(key))
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            inside.remove(key)

    await asyncio.gather(*(work(i % 3) for i in range(30)))
    assert most == 1  # never two holders of one key, though every waiter came while it was held
    assert len(locks) == 0  # and no key is kept once all are done


async def test_a_waiter_that_is_cancelled_leaves_the_lock_working() -> None:
    """A lock is dropped only when its count of holders and waiters is 0: a waiter cancelled while another holds it
    must not drop it under the holder (a newcomer would then get a fresh lock and two would be inside)."""
    locks: KeyedLocks[str] = KeyedLocks()
    release = asyncio.Event()
    entered = asyncio.Event()

    async def holder() -> None:
        async with locks("g"):
            entered.set()
            await release.wait()

    async def waiter() -> None:
        async with locks("g"):
            raise AssertionError("the cancelled waiter got in")

    held = asyncio.create_task(holder())
    await entered.wait()
    waiting = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert locks.held("g")  # the holder still holds it
    newcomer_in = asyncio.Event()

    async def newcomer() -> None:
        async with locks("g"):
            newcomer_in.set()

    late = asyncio.create_task(newcomer())
    await asyncio.sleep(0.01)
    assert not newcomer_in.is_set()  # still excluded by the holder
    release.set()
    await asyncio.gather(held, late)
    assert newcomer_in.is_set() and len(locks) == 0


async def test_the_service_keeps_no_lock_of_a_game_it_served() -> None:
    """Issue 22: ``Core._locks`` held one lock per game ever served; now none is left once the requests are done."""
    store = await Store.open(":memory:")
    svc = TableService(store, Settings(), games=GAMES)
    try:
        users = [User(1, "Ann"), User(2, "Bob"), User(3, "Cy")]
        for _ in range(5):
            gid = (await svc.create(10, 20, users[0], "omerta", {})).table.id
            await asyncio.gather(*(svc.join(gid, u) for u in users[1:]))
            await svc.start(gid, users[0])
            await svc.abandon(gid, users[0])
        assert len(svc._locks) == 0 and not svc._bot_tasks
    finally:
        await store.close()
