"""The plumbing every part of the store shares, whatever the database: one backend, one lock, short write
transactions, and a hook that tests use to simulate a crash at any write boundary.

A backend (``store.sqlite.SqliteBackend``, ``store.postgres.PostgresBackend``) runs the store's SQL, written once
with ``?`` placeholders in the SQL both databases understand; its dialect translates what differs.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

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


@dataclass(frozen=True, slots=True)
class Cursor:
    """What one statement gave: how many rows it changed and the rows it returned (a SELECT or RETURNING)."""

    rowcount: int
    rows: list[Sequence[Any]] = field(default_factory=list)

    def fetchone(self) -> Sequence[Any] | None:
        """The first row, or None."""
        return self.rows[0] if self.rows else None


class Executes(Protocol):
    """Anything that runs a statement inside a write transaction (a backend's transaction, or ``_Conn``)."""

    async def execute(self, sql: str, params: Params = ()) -> Cursor:
        """Run one statement."""
        ...


class Transaction(Protocol):
    """One open write transaction of a backend."""

    async def execute(self, sql: str, params: Params = ()) -> Cursor:
        """Run one statement (``?`` placeholders); a broken constraint raises ``store.errors.Conflict``."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement for each row of parameters."""
        ...

    async def commit(self) -> None:
        """Make everything durable."""
        ...

    async def rollback(self) -> None:
        """Undo everything (never raises: the connection may already be gone)."""
        ...


class Backend(Protocol):
    """A database the store runs on."""

    #: ``"sqlite"`` or ``"postgres"``
    name: str

    async def begin(self) -> Transaction:
        """Start a write transaction that excludes every other writer until it ends; ``StoreBusy`` if another
        writer keeps it waiting past the busy timeout."""
        ...

    async def fetch(self, sql: str, params: Params = ()) -> list[Sequence[Any]]:
        """Run one read statement outside any transaction and return its rows."""
        ...

    async def close(self) -> None:
        """Close the connection(s)."""
        ...

    async def id_high_water(self, table: str) -> int:
        """The highest id ``table`` ever handed out, deleted rows included (for ``store.copy``)."""
        ...

    async def set_id_high_water(self, tx: Executes, table: str, value: int) -> None:
        """Inside a write transaction: make ``table`` hand out ids above ``value`` from now on."""
        ...

    async def try_hold(self, name: str, key: int) -> bool:
        """Take the work lock ``(name, key)`` for this process without waiting; False while another holds it.
        A process that dies loses its locks at once."""
        ...

    async def release_hold(self, name: str, key: int) -> None:
        """Give a work lock back."""
        ...


class _Conn:
    """The transaction as the store's logic sees it: every statement passes the write hook first."""

    def __init__(self, tx: Transaction, hook: WriteHook | None) -> None:
        self._tx, self._hook = tx, hook

    async def execute(self, sql: str, params: Params = ()) -> Cursor:
        if self._hook is not None:
            self._hook("execute")
        return await self._tx.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        if self._hook is not None:
            self._hook("execute")
        await self._tx.executemany(sql, rows)


class Base:
    """Async access to one backend behind an ``asyncio.Lock`` (one statement at a time per store)."""

    def __init__(self, backend: Backend) -> None:
        self._backend: Backend | None = backend
        self._lock = asyncio.Lock()
        #: tests only: see ``WriteHook``
        self.write_hook: WriteHook | None = None

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgres"``."""
        return self._live().name

    def _live(self) -> Backend:
        if self._backend is None:
            raise StoreClosed("the store is closed")
        return self._backend

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[_Conn]:
        """One write transaction that no other writer interleaves with; commits on success, rolls back on any
        exception. Raising ``Rollback`` inside the block rolls back and is swallowed. Raises ``StoreBusy`` if
        another connection keeps the write lock past the busy timeout.
        """
        async with self._lock:
            tx = await self._live().begin()
            try:
                yield _Conn(tx, self.write_hook)
            except Rollback:
                await tx.rollback()
            except BaseException:
                await tx.rollback()
                raise
            else:
                await tx.commit()
                if self.write_hook is not None:
                    self.write_hook("commit")

    async def settle(self) -> None:
        """Wait until every write transaction that began before this call has ended, in this process or any
        other (it takes the write lock and gives it back): after a write failed with ``OutcomeUnknown``, what is
        read next shows whether it was committed. ``StoreBusy`` if the lock stays held past the busy timeout
        (e.g. by a connection whose client is gone but which the server has not ended yet)."""
        async with self._write():
            raise Rollback

    async def _execute(self, sql: str, params: Params = ()) -> int:
        """Run one write statement in its own transaction; return the number of changed rows."""
        async with self._write() as conn:
            return (await conn.execute(sql, params)).rowcount

    async def _fetchall(self, sql: str, params: Params = ()) -> list[Sequence[Any]]:
        async with self._lock:
            return await self._live().fetch(sql, params)

    async def _fetchone(self, sql: str, params: Params = ()) -> Sequence[Any] | None:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    async def try_hold(self, name: str, key: int) -> bool:
        """Take the work lock ``(name, key)`` (e.g. ``("deliver", game_id)``) for this process, without waiting:
        False while another process holds it. Work that must run in one process at a time across several
        (PostgreSQL) takes it; a process that dies loses its locks at once, so another takes its work over."""
        return await self._live().try_hold(name, key)

    async def release_hold(self, name: str, key: int) -> None:
        """Give a work lock back."""
        if self._backend is not None:
            await self._backend.release_hold(name, key)

    @asynccontextmanager
    async def held(self, name: str, key: int, wait_s: float) -> AsyncIterator[None]:
        """Hold the work lock ``(name, key)`` for the block, waiting up to ``wait_s`` seconds (of real time) for
        another process to give it back; ``StoreBusy`` if it does not."""
        give_up = time.monotonic() + wait_s
        pause = 0.002
        while not await self.try_hold(name, key):
            if time.monotonic() >= give_up:
                raise StoreBusy(f"the work lock {name} {key} stayed held by another process for {wait_s:g} s")
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.05)  # short waits for short work, without hammering the server
        try:
            yield
        finally:
            await self.release_hold(name, key)

    @staticmethod
    async def _require_game(conn: _Conn, game_id: int) -> None:
        if (await conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,))).fetchone() is None:
            raise GameNotFound(game_id)
