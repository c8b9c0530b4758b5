"""The connection plumbing every part of the SQLite store shares: one connection, one lock, short write
transactions, and a hook that tests use to simulate a crash at any write boundary."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import fields
from typing import Any

import aiosqlite

from .errors import GameNotFound, StoreBusy, StoreClosed

Params = Sequence[Any]
#: Called with a label before every write statement and after every commit (``"execute"``, ``"commit"``);
#: a crash-point test makes it raise ``SimulatedCrash`` at the n-th boundary.
WriteHook = Callable[[str], None]


class SimulatedCrash(BaseException):
    """Raised by a test's write hook: the process "dies" here (a BaseException, so no handler swallows it)."""


class Rollback(Exception):
    """Raised inside ``Base._write`` to roll the transaction back without an error."""


def cols(cls: type, prefix: str = "") -> str:
    """Column list for a row dataclass, in field order."""
    return ", ".join(f'{prefix}"{f.name}"' for f in fields(cls))


def marks(values: Iterable[Any]) -> str:
    """``?, ?, ?`` placeholders for an IN list."""
    return ", ".join("?" * len(list(values)))


class _Conn:
    """The connection as a write transaction sees it: every statement passes the write hook first."""

    def __init__(self, conn: aiosqlite.Connection, hook: WriteHook | None) -> None:
        self._conn, self._hook = conn, hook

    def execute(self, sql: str, params: Params = ()) -> Any:
        if self._hook is not None:
            self._hook("execute")
        return self._conn.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> Any:
        if self._hook is not None:
            self._hook("execute")
        return await self._conn.executemany(sql, rows)


class Base:
    """Async access to one SQLite connection behind an ``asyncio.Lock``."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self._lock = asyncio.Lock()
        #: tests only: see ``WriteHook``
        self.write_hook: WriteHook | None = None

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreClosed("the store is closed")
        return self._conn

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[_Conn]:
        """One ``BEGIN IMMEDIATE`` transaction; commits on success, rolls back on any exception.

        Raising ``Rollback`` inside the block rolls back and is swallowed. Raises ``StoreBusy`` if another
        connection keeps the write lock past ``busy_timeout``.
        """
        async with self._lock:
            conn = self._connection()
            try:
                await conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StoreBusy(f"could not start a write transaction: {exc}") from exc
            try:
                yield _Conn(conn, self.write_hook)
            except Rollback:
                await conn.rollback()
            except BaseException:
                await conn.rollback()
                raise
            else:
                await conn.commit()
                if self.write_hook is not None:
                    self.write_hook("commit")

    async def _execute(self, sql: str, params: Params = ()) -> int:
        """Run one write statement in its own transaction; return the number of changed rows."""
        async with self._write() as conn, conn.execute(sql, params) as cursor:
            return cursor.rowcount

    async def _fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        async with self._lock, self._connection().execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def _fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        async with self._lock, self._connection().execute(sql, params) as cursor:
            return await cursor.fetchone()

    @staticmethod
    async def _require_game(conn: _Conn, game_id: int) -> None:
        async with conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)) as cursor:
            if await cursor.fetchone() is None:
                raise GameNotFound(game_id)
