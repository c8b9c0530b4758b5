"""Issue 22: every failure of the database reaches the store's caller as the store's own ``StoreUnavailable`` (a lost
COMMIT answer as ``OutcomeUnknown``), on SQLite and on PostgreSQL; a connection on which anything failed is never
used again, and the next call works."""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from store import BadValue, Move, OutcomeUnknown, Store, StoreBusy, StoreUnavailable
from store.postgres import PostgresTransaction
from tests.backends import Targets, connect
from tests.pgfaults import CommitCutter, named
from tests.store.conftest import make_active_game


def _move(choice: str, now: float) -> Move:
    return Move([(choice, 1)], '"s"', now)


class _Failing:
    """Makes the SQLite connection fail: every statement containing ``on`` raises ``error``."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        conn = store._backend._conn  # type: ignore[union-attr]
        self.on: str | None = None
        self.error: Exception = sqlite3.OperationalError("disk I/O error")
        real_execute, real_commit = conn.execute, conn.commit

        def execute(sql: str, *args: Any) -> Any:
            if self.on is not None and self.on in sql:
                raise self.error
            return real_execute(sql, *args)

        async def commit() -> None:
            if self.on == "COMMIT":
                raise self.error
            await real_commit()

        monkeypatch.setattr(conn, "execute", execute)
        monkeypatch.setattr(conn, "commit", commit)


async def test_a_failing_sqlite_file_is_store_unavailable_and_a_failed_commit_an_unknown_outcome(
    db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await Store.open(db_path) as s:
        game_id = await make_active_game(s)
        failing = _Failing(s, monkeypatch)
        failing.on = "SELECT"
        with pytest.raises(StoreUnavailable, match="disk I/O error"):
            await s.get_game(game_id)
        failing.on = "INSERT INTO snapshots"
        with pytest.raises(StoreUnavailable) as caught:
            await s.commit_move(game_id, 0, _move('"c0"', 2.0))
        assert not isinstance(caught.value, OutcomeUnknown)  # failed before its commit: nothing written
        failing.on = "COMMIT"
        with pytest.raises(OutcomeUnknown):
            await s.commit_move(game_id, 0, _move('"c0"', 3.0))
        failing.on = "BEGIN IMMEDIATE"
        failing.error = sqlite3.OperationalError("database is locked")
        with pytest.raises(StoreBusy):
            await s.commit_move(game_id, 0, _move('"c0"', 4.0))
        failing.on = None  # the file is back: nothing was left half-done, the next write goes in
        await s.settle()
        assert await s.get_choices(game_id) == []
        assert await s.commit_move(game_id, 0, _move('"c0"', 5.0))
        assert await s.get_choices(game_id) == ['"c0"']


class _Conn:
    """A pool's connection that fails as asyncpg does when a connection is left mid-operation."""

    def __init__(self) -> None:
        self.terminated = False

    async def execute(self, *args: Any) -> str:
        raise asyncpg.InternalClientError("cannot switch to state 12; another operation (2) is in progress")

    fetch = execute

    def terminate(self) -> None:
        self.terminated = True

    def is_closed(self) -> bool:
        return self.terminated


class _Backend:
    def __init__(self) -> None:
        self.released: list[_Conn] = []

    def translate(self, sql: str) -> str:
        return sql

    async def release(self, conn: _Conn) -> None:
        self.released.append(conn)


async def test_asyncpgs_own_errors_are_store_unavailable_and_the_connection_is_not_reused() -> None:
    """A fault run let asyncpg's ``InternalClientError`` escape the store 158 times; now it is
    ``StoreUnavailable`` (at the commit: ``OutcomeUnknown``), and the connection is terminated, not reused."""
    backend, conn = _Backend(), _Conn()
    tx = PostgresTransaction(backend, conn)  # type: ignore[arg-type]
    with pytest.raises(StoreUnavailable, match="InternalClientError"):
        await tx.execute("UPDATE games SET version = 1")
    assert conn.terminated
    conn = _Conn()
    tx = PostgresTransaction(backend, conn)  # type: ignore[arg-type]
    with pytest.raises(OutcomeUnknown, match="may or may not have been committed"):
        await tx.commit()
    assert conn.terminated and backend.released[-1] is conn
    await PostgresTransaction(backend, _Conn()).rollback()  # never raises


async def test_a_postgres_commit_cut_before_or_after_the_server_got_it_is_an_unknown_outcome_that_settle_resolves(
    postgres_server: str, tmp_path: Path
) -> None:
    cutter = CommitCutter(postgres_server)
    async with cutter.running():
        targets = Targets("postgres", tmp_path, named(cutter.url(), f"cut_{uuid.uuid4().hex[:10]}"))
        try:
            async with await Store.open(targets.new()) as s:
                game_id = await make_active_game(s)
                for mode in ("before", "after"):  # both at version 0: the first is rolled back
                    cutter.arm(mode)
                    with pytest.raises(OutcomeUnknown, match="may or may not have been committed"):
                        await s.commit_move(game_id, 0, _move(f'"{mode}"', 2.0))
                    await s.settle()  # the cut transaction has ended: what is read now is final
                assert await s.get_choices(game_id) == ['"after"']  # cut before: rolled back; after: committed
                assert cutter.cuts == {"before": 1, "after": 1}
                assert await s.commit_move(game_id, 1, _move('"next"', 3.0))
        finally:
            await targets.cleanup()


async def test_connections_the_server_ended_while_idle_are_replaced_without_an_error(
    postgres_server: str, tmp_path: Path
) -> None:
    """The pool's connection and the one holding the work locks, ended by the server between calls: the next
    read, write and work lock each go through on a new connection."""
    app = f"idle_{uuid.uuid4().hex[:10]}"
    targets = Targets("postgres", tmp_path, named(postgres_server, app))
    try:
        target = targets.new()
        async with await Store.open(target) as s:
            game_id = await make_active_game(s)
            assert await s.try_hold("deliver", game_id)
            admin = await connect(target)
            try:
                for call in range(3):
                    sql = (
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        " WHERE application_name = $1 AND pid <> pg_backend_pid()"
                    )
                    ended = await admin.fetchval(sql, app)
                    assert ended == (2 if call == 0 else 1)  # the work locks' connection is made again at call 2
                    await asyncio.sleep(0.1)  # the server has ended them; the store has not used them since
                    if call == 0:
                        assert (await s.get_game(game_id)).version == 0
                    elif call == 1:
                        assert await s.commit_move(game_id, 0, _move('"c0"', 2.0))
                    else:
                        assert await s.try_hold("deliver", game_id)  # the old lock died with its connection
                await s.release_hold("deliver", game_id)
            finally:
                await admin.close()
    finally:
        await targets.cleanup()


async def test_a_value_the_database_cannot_hold_is_a_bad_value_not_a_database_failure(store: Store) -> None:
    """A number outside a column's range is the caller's mistake: ``BadValue`` (a ``ValueError``), nothing written,
    and the next call works on either backend; never ``StoreUnavailable``, which would tell a player the database
    was away."""
    game_id = await make_active_game(store)
    with pytest.raises(BadValue):
        await store.get_game(2**70)
    with pytest.raises(BadValue):
        await store.commit_move(game_id, 2**70, _move('"c0"', 2.0))
    assert await store.get_choices(game_id) == []
    assert await store.commit_move(game_id, 0, _move('"c0"', 3.0))
