"""The SQLite backend (aiosqlite): one connection, WAL, ``synchronous=FULL``; writers are serialised by
``BEGIN IMMEDIATE`` plus ``busy_timeout``, so several processes may share one file."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

from .base import Cursor, Executes, Params
from .errors import BadValue, Conflict, MigrationError, OutcomeUnknown, SchemaTooNew, StoreBusy, StoreUnavailable
from .migrations import Migration, script_for, split_statements

MEMORY = ":memory:"
#: What a failing SQLite file raises (a disk I/O error, a full disk, a damaged file; ``ValueError``: aiosqlite's
#: connection is gone); an integrity violation (``Conflict``) is caught before these. The store answers each as
#: ``StoreUnavailable``, as the PostgreSQL backend does.
_FAILURES = (sqlite3.Error, ValueError)


def _unavailable(exc: BaseException, what: str, error: type[StoreUnavailable] = StoreUnavailable) -> StoreUnavailable:
    """The store's answer to a failure of the SQLite file (``what``: what it means for the caller)."""
    return error(f"the SQLite database failed ({what}): {type(exc).__name__}: {exc}")


def _busy(exc: sqlite3.Error) -> bool:
    """Whether SQLite gave up waiting for another connection's lock (``busy_timeout``)."""
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


class SqliteTransaction:
    """A ``BEGIN IMMEDIATE`` transaction on the backend's connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> Cursor:
        """Run one statement; a broken constraint raises ``Conflict``, any other failure ``StoreUnavailable``."""
        try:
            async with self._conn.execute(sql, params) as cursor:
                rows = list(await cursor.fetchall())
                return Cursor(cursor.rowcount, rows)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc
        except OverflowError as exc:  # a number SQLite cannot hold
            raise BadValue(f"SQLite refused a value (nothing was written): {exc}") from exc
        except _FAILURES as exc:
            raise _unavailable(exc, "nothing was written") from exc

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement per row of parameters."""
        try:
            await self._conn.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc
        except OverflowError as exc:  # a number SQLite cannot hold
            raise BadValue(f"SQLite refused a value (nothing was written): {exc}") from exc
        except _FAILURES as exc:
            raise _unavailable(exc, "nothing was written") from exc

    async def commit(self) -> None:
        """Commit (durable on return: ``synchronous=FULL``). A failure raises ``OutcomeUnknown`` (an I/O error
        while committing may leave the transaction in the log or not), after rolling back whatever is left open
        so the connection can begin the next one."""
        try:
            await self._conn.commit()
        except sqlite3.IntegrityError as exc:  # a deferred check: nothing was committed
            await self.rollback()
            raise Conflict(str(exc)) from exc
        except _FAILURES as exc:
            await self.rollback()
            raise _unavailable(exc, "during the commit: it may or may not have been committed", OutcomeUnknown) from exc

    async def rollback(self) -> None:
        """Roll back; a connection that is already gone has nothing to undo."""
        with contextlib.suppress(*_FAILURES):
            await self._conn.rollback()


class SqliteBackend:
    """The store on a SQLite file (or ``":memory:"``)."""

    name = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, journal_mode: str) -> None:
        self._conn = conn
        self.journal_mode = journal_mode

    @classmethod
    async def open(cls, path: str, busy_timeout_ms: int) -> SqliteBackend:
        """Connect in autocommit mode and set the pragmas (WAL for files)."""
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute("PRAGMA synchronous = FULL")
            async with conn.execute("PRAGMA journal_mode = WAL" if path != MEMORY else "PRAGMA journal_mode") as c:
                row = await c.fetchone()
        except BaseException:
            await conn.close()
            raise
        return cls(conn, str(row[0]).lower() if row else "")

    async def begin(self) -> SqliteTransaction:
        """``BEGIN IMMEDIATE``: take the write lock now (``StoreBusy`` past ``busy_timeout``)."""
        try:
            await self._conn.execute("BEGIN IMMEDIATE")
        except _FAILURES as exc:
            if isinstance(exc, sqlite3.Error) and _busy(exc):
                raise StoreBusy(f"could not start a write transaction: {exc}") from exc
            raise _unavailable(exc, "nothing was written") from exc
        return SqliteTransaction(self._conn)

    async def fetch(self, sql: str, params: Params = ()) -> list[Sequence[Any]]:
        """Rows of one read statement (``StoreUnavailable`` if the file fails)."""
        try:
            async with self._conn.execute(sql, params) as cursor:
                return list(await cursor.fetchall())
        except OverflowError as exc:
            raise BadValue(f"SQLite refused a value: {exc}") from exc
        except _FAILURES as exc:
            if isinstance(exc, sqlite3.Error) and _busy(exc):
                raise StoreBusy(f"could not read: {exc}") from exc
            raise _unavailable(exc, "while reading") from exc

    async def close(self) -> None:
        """Close the connection."""
        await self._conn.close()

    async def try_hold(self, name: str, key: int) -> bool:
        """Always granted: on SQLite one bot process is the only supported setup, and within a process the
        caller's own ``asyncio.Lock`` already makes the work exclusive."""
        return True

    async def release_hold(self, name: str, key: int) -> None:
        """Nothing to release (see ``try_hold``)."""

    async def id_high_water(self, table: str) -> int:
        """The highest id ``table`` ever handed out (AUTOINCREMENT remembers deleted ones in sqlite_sequence)."""
        rows = await self.fetch(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
        seq = await self.fetch("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
        return max(int(rows[0][0]), int(seq[0][0]) if seq else 0)

    @staticmethod
    async def set_id_high_water(tx: Executes, table: str, value: int) -> None:
        """Inside a copy: the next id ``table`` hands out is above ``value`` (only AUTOINCREMENT tables keep one;
        the others take the highest id + 1 anyway)."""
        if (await tx.execute("SELECT 1 FROM sqlite_sequence WHERE name = ?", (table,))).rows:
            await tx.execute("UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?", (value, table))
        elif (
            await tx.execute("SELECT 1 FROM sqlite_master WHERE name = ? AND sql LIKE '%AUTOINCREMENT%'", (table,))
        ).rows:
            await tx.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, value))

    async def migrate(self, migrations: Sequence[Migration | str]) -> int:
        """Bring the database up to ``len(migrations)`` atomically and return that version.

        Raises ``SchemaTooNew`` if the file is newer than ``migrations`` and ``MigrationError`` if a script fails.
        """
        target = len(migrations)
        scripts = [split_statements(script_for(m, self.name)) for m in migrations]
        await self._conn.execute("BEGIN IMMEDIATE")
        try:
            async with self._conn.execute("PRAGMA user_version") as cursor:
                row = await cursor.fetchone()
            current = int(row[0]) if row else 0
            if current > target:
                raise SchemaTooNew(current, target)
            for number in range(current, target):
                for statement in scripts[number]:
                    try:
                        await self._conn.execute(statement)
                    except sqlite3.Error as exc:
                        raise MigrationError(f"migration {number + 1} failed: {exc}") from exc
            if current != target:
                # PRAGMA takes no bound parameters; target is an int we computed.
                await self._conn.execute(f"PRAGMA user_version = {int(target)}")
        except BaseException:
            await self._conn.rollback()
            raise
        await self._conn.commit()
        return target
