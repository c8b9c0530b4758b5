"""Work that must happen once across processes sharing one database: work locks (PostgreSQL session advisory
locks, freed when their process dies), claimed reminders, and race windows re-derived only at the version seen."""

from __future__ import annotations

import pytest

from store import RaceRow, Store, StoreBusy

from .conftest import make_active_game


async def test_a_work_lock_is_held_by_one_process_and_freed_when_it_dies(backend: str, db_target: str) -> None:
    first, second = await Store.open(db_target), await Store.open(db_target)
    try:
        assert await first.try_hold("deliver", 7)
        if backend == "sqlite":  # one process is the only supported setup: the lock is this process's own
            assert await second.try_hold("deliver", 7)
            return
        assert not await second.try_hold("deliver", 7)
        assert await second.try_hold("deliver", 8)  # another game: free
        assert await second.try_hold("game", 7)  # another kind of work: free
        await first.release_hold("deliver", 7)
        assert await second.try_hold("deliver", 7)
        await second.release_hold("deliver", 7)
        assert await first.try_hold("deliver", 7)
        await first.close()  # the process dies holding it: the server frees it at once
        assert await second.try_hold("deliver", 7)
    finally:
        await first.close()
        await second.close()


async def test_held_waits_for_the_other_process_then_gives_up_clearly(backend: str, db_target: str) -> None:
    if backend == "sqlite":
        pytest.skip("on SQLite one process is the only supported setup: there is no other process to wait for")
    first, second = await Store.open(db_target), await Store.open(db_target)
    try:
        async with first.held("game", 3, 1.0):
            with pytest.raises(StoreBusy, match="game 3 stayed held by another process"):
                async with second.held("game", 3, 0.05):
                    raise AssertionError("must not get the lock")
        async with second.held("game", 3, 0.05):  # given back when the block ended
            assert not await first.try_hold("game", 3)
    finally:
        await first.close()
        await second.close()


async def test_a_due_reminder_is_claimed_by_one_process(db_target: str) -> None:
    first, second = await Store.open(db_target), await Store.open(db_target)
    try:
        game_id = await make_active_game(first)
        await first.set_reminder(game_id, 1, "turn", 100.0)
        assert not await first.claim_reminder(game_id, 1, "turn", 0, 99.0, 300.0)  # not due yet
        assert await first.claim_reminder(game_id, 1, "turn", 0, 150.0, 300.0)
        assert not await second.claim_reminder(game_id, 1, "turn", 0, 150.0, 300.0)  # taken
        assert await second.due_reminders(299.0) == []
        # the claimer died before sending: once the claim lapses another process takes it, same count
        assert await second.claim_reminder(game_id, 1, "turn", 0, 300.0, 500.0)
        assert await second.bump_reminder(game_id, 1, "turn", 900.0)
        assert not await first.claim_reminder(game_id, 1, "turn", 0, 900.0, 1000.0)  # count moved on: sent
        assert await first.claim_reminder(game_id, 1, "turn", 1, 900.0, 1000.0)
    finally:
        await first.close()
        await second.close()


async def test_recovery_writes_race_windows_only_at_the_version_it_saw(store: Store) -> None:
    game_id = await make_active_game(store)
    version = (await store.get_game(game_id)).version  # type: ignore[union-attr]
    assert not await store.reopen_race(game_id, version + 1, 50.0)  # the game is not there (any more)
    assert await store.get_race(game_id) is None
    assert await store.reopen_race(game_id, version, 50.0)
    assert await store.get_race(game_id) == RaceRow(game_id, version, 50.0)
    assert not await store.drop_stale_race(game_id, version - 1)  # seen at an older version: the window stays
    assert await store.get_race(game_id) is not None
    assert await store.drop_stale_race(game_id, version)
    assert await store.get_race(game_id) is None
    assert not await store.drop_stale_race(game_id, version)  # nothing left to drop


async def test_a_work_lock_of_any_number_is_a_lock_not_a_database_failure(backend: str, db_target: str) -> None:
    """A request may name any number (a mistyped game 2147483648): its work lock is taken and given back like any
    other (the service then refuses the number), never answered as if the database were away (issue 22)."""
    first, second = await Store.open(db_target), await Store.open(db_target)
    try:
        for key in (2**31, -(2**31) - 1, 2**63 - 1, 2**70, -(2**70)):
            assert await first.try_hold("game", key)
            if backend == "postgres":
                assert not await second.try_hold("game", key)
            await first.release_hold("game", key)
            assert await second.try_hold("game", key)
            await second.release_hold("game", key)
    finally:
        await first.close()
        await second.close()
