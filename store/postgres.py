"""The PostgreSQL backend (asyncpg): the store's SQL with ``$n`` placeholders, one writer at a time.

Every write transaction first takes a transaction-level advisory lock of its schema, as SQLite's
``BEGIN IMMEDIATE`` takes the file's write lock: writers never interleave (so a read-then-write such as the
next seat number is safe, and event ids commit in order), readers never wait, and the compare-and-set on a
game's version decides which of two racing moves wins. ``lock_timeout`` plays ``busy_timeout``'s part.

A target is ``postgresql://user[:password]@host[:port]/database[?schema=NAME]``: with ``schema`` the store
lives in that schema (created if missing), else in the database's default one (``public``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import Iterable, Sequence
from contextlib import suppress
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

from .base import Cursor, Executes, Params
from .errors import (
    BadValue,
    Conflict,
    MigrationError,
    OutcomeUnknown,
    SchemaTooNew,
    StoreBusy,
    StoreError,
    StoreUnavailable,
)
from .migrations import Migration, script_for

SCHEMES = ("postgresql://", "postgres://")
#: the first half of the advisory lock's key: the project's own value, so other users of the lock space differ
LOCK_SPACE = 0x5EA7
#: a work lock's key: the name within this schema (so test schemas never share locks), and a number (a game id)
_HOLD = "SELECT pg_try_advisory_lock(hashtext(current_schema() || ':' || $1), $2::int)"
_RELEASE = "SELECT pg_advisory_unlock(hashtext(current_schema() || ':' || $1), $2::int)"
_INT4 = 2**31


def _lock_number(key: int) -> int:
    """A work lock's number as the server takes it (a 32-bit integer): ``key`` itself (every game id so far),
    else a stable hash of it, so that any number a request names (e.g. a mistyped game 2147483648) takes a lock
    and is then refused by the service, instead of failing as if the database were away."""
    if -_INT4 <= key < _INT4:
        return key
    return int.from_bytes(hashlib.blake2b(str(key).encode(), digest_size=4).digest(), "big", signed=True)


log = logging.getLogger(__name__)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


def is_postgres(target: str) -> bool:
    """Whether a ``SPEAKEASY_DB`` value names a PostgreSQL database (else it is a SQLite path)."""
    return target.startswith(SCHEMES)


def split_target(target: str) -> tuple[str, str | None]:
    """``(dsn for asyncpg, schema or None)``; ``ValueError`` for a schema name that is not an identifier."""
    parts = urlsplit(target)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schemas = [v for k, v in query if k == "schema"]
    rest = [(k, v) for k, v in query if k != "schema"]
    schema = schemas[-1] if schemas else None
    if schema is not None and not _IDENTIFIER.fullmatch(schema):
        raise ValueError(f"schema must be a plain SQL name (letters, digits, _), not {schema!r}")
    return urlunsplit(parts._replace(query=urlencode(rest))), schema


def describe(target: str) -> str:
    """The target without its password, for logs and messages."""
    parts = urlsplit(target)
    if parts.password is None:
        return target
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


def to_dollars(sql: str) -> str:
    """``?`` placeholders to ``$1, $2 ...`` (a ``?`` inside a quoted string or name is left alone)."""
    out: list[str] = []
    quote: str | None = None
    n = 0
    for ch in sql:
        if quote is not None:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


#: Every failure of the server, of the connection to it, or of asyncpg's side of it (a connection left mid-operation
#: raises ``InternalClientError``); an integrity violation (``Conflict``) and a lock timeout (``StoreBusy``) are
#: caught before these. The store answers each as ``StoreUnavailable`` and never reuses the connection.
_FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)
#: A value the server (a data exception, SQLSTATE class 22) or asyncpg (an argument it cannot encode, a
#: ``ValueError``) refuses: the statement's fault, answered as ``BadValue``, caught before ``_FAILURES``; the
#: connection stays usable.
_BAD_VALUE = (asyncpg.DataError, ValueError)
#: Of those, the ones that mean the connection is gone (the server went down, or ended it)
_GONE = (asyncpg.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError, asyncpg.InterfaceError, OSError)


def _unavailable(exc: BaseException, what: str, error: type[StoreUnavailable] = StoreUnavailable) -> StoreUnavailable:
    """The store's answer to a failure of asyncpg or of the server (``what``: what it means for the caller)."""
    if isinstance(exc, asyncpg.PostgresError) and not isinstance(exc, _GONE):
        said = "the PostgreSQL server refused the work"
    else:
        said = "lost the connection to the PostgreSQL server"
    return error(f"{said} ({what}): {type(exc).__name__}: {exc}")


def _end(conn: asyncpg.Connection) -> None:
    """Terminate a pool's connection so it is never reused (one the pool already let go of is closed)."""
    with suppress(asyncpg.InterfaceError):  # asyncpg detaches a lost connection from its proxy itself
        conn.terminate()


def _closed(conn: asyncpg.Connection) -> bool:
    """Whether a pool's connection is closed (or already let go of by the pool)."""
    try:
        return conn.is_closed()
    except asyncpg.InterfaceError:
        return True


def _returns_rows(sql: str) -> bool:
    return sql.lstrip().upper().startswith(("SELECT", "WITH")) or " RETURNING " in sql.upper()


def _rowcount(status: str) -> int:
    """The row count of a command tag such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresTransaction:
    """One write transaction on a connection taken from the pool (given back when it ends). A connection on which
    anything failed is terminated, never given back for reuse: the pool connects anew on the next call."""

    def __init__(self, backend: PostgresBackend, conn: asyncpg.Connection) -> None:
        self._backend, self._conn = backend, conn

    async def execute(self, sql: str, params: Params = ()) -> Cursor:
        """Run one statement; a broken constraint raises ``Conflict``, any other failure ``StoreUnavailable``
        (nothing of the transaction is committed then)."""
        query = self._backend.translate(sql)
        try:
            if _returns_rows(sql):
                rows = await self._conn.fetch(query, *params)
                return Cursor(len(rows), list(rows))
            return Cursor(_rowcount(await self._conn.execute(query, *params)))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc
        except _BAD_VALUE as exc:
            raise BadValue(f"the PostgreSQL server refused a value (nothing was written): {exc}") from exc
        except _FAILURES as exc:
            _end(self._conn)
            raise _unavailable(exc, "nothing was written") from exc

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement per row of parameters."""
        try:
            await self._conn.executemany(self._backend.translate(sql), [tuple(r) for r in rows])
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc
        except _BAD_VALUE as exc:
            raise BadValue(f"the PostgreSQL server refused a value (nothing was written): {exc}") from exc
        except _FAILURES as exc:
            _end(self._conn)
            raise _unavailable(exc, "nothing was written") from exc

    async def commit(self) -> None:
        """Commit (durable on return with the server's default ``synchronous_commit = on``). A failure here
        raises ``OutcomeUnknown``: the COMMIT may have been carried out with its answer lost."""
        try:
            await self._conn.execute("COMMIT")
        except asyncpg.IntegrityConstraintViolationError as exc:  # a deferred check: the server rolled back
            raise Conflict(str(exc)) from exc
        except _FAILURES as exc:
            _end(self._conn)
            raise _unavailable(exc, "during the commit: it may or may not have been committed", OutcomeUnknown) from exc
        except BaseException:  # cancelled while waiting for the answer: the connection's state is unknown
            _end(self._conn)
            raise
        finally:
            await self._backend.release(self._conn)

    async def rollback(self) -> None:
        """Roll back (never raises a failure: a connection that is gone has nothing to undo, the server rolled
        it back; one that cannot roll back is terminated, which rolls back too)."""
        try:
            if not _closed(self._conn):
                await self._conn.execute("ROLLBACK")
        except _FAILURES:
            _end(self._conn)
        except BaseException:
            _end(self._conn)
            raise
        finally:
            await self._backend.release(self._conn)


class PostgresBackend:
    """The store on a PostgreSQL database (one schema of it)."""

    name = "postgres"
    journal_mode = ""

    def __init__(
        self, pool: asyncpg.Pool, schema: str | None, lock_key: int, busy_timeout_ms: int, dsn: str = ""
    ) -> None:
        self._pool = pool
        self.schema = schema
        self._lock_key = lock_key
        self._busy_ms = int(busy_timeout_ms)
        self._sql: dict[str, str] = {}  # the store's few dozen statements, translated once
        self._dsn = dsn
        #: the connection that holds this process's session advisory locks (``try_hold``), opened on first use
        self._holder: asyncpg.Connection | None = None
        self._holder_lock = asyncio.Lock()  # one statement at a time on that connection

    @classmethod
    async def open(cls, target: str, busy_timeout_ms: int) -> PostgresBackend:
        """Connect (creating the target's schema if it names one). ``StoreError`` if no server answers."""
        dsn, schema = split_target(target)
        # search_path may name a schema that does not exist yet; it is created on the pool's connection.
        settings = {"search_path": schema} if schema else {}
        try:
            # One connection: the store runs one statement at a time anyway; the pool replaces a broken one.
            pool = await asyncpg.create_pool(dsn, min_size=1, max_size=1, server_settings=settings, reset=_keep_session)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreError(f"cannot open the PostgreSQL database {describe(target)}: {exc}") from exc
        assert pool is not None
        try:
            # Look first: a user without the right to create schemas may still use one made for it.
            if schema is not None and not await pool.fetchval("SELECT 1 FROM pg_namespace WHERE nspname = $1", schema):
                with suppress(asyncpg.UniqueViolationError, asyncpg.DuplicateSchemaError):  # another process won
                    await pool.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
            key = int(await pool.fetchval("SELECT hashtext(current_schema())"))
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, asyncpg.PostgresError):
                raise StoreError(f"cannot use the PostgreSQL database {describe(target)}: {exc}") from exc
            raise
        return cls(pool, schema, key, busy_timeout_ms, target)

    def translate(self, sql: str) -> str:
        """The statement in PostgreSQL's placeholders (cached)."""
        query = self._sql.get(sql)
        if query is None:
            query = self._sql[sql] = to_dollars(sql)
        return query

    async def release(self, conn: asyncpg.Connection) -> None:
        """Give a connection back to the pool (never raises a failure: a connection the pool cannot reset is
        terminated by the pool, which connects anew on the next call)."""
        try:
            await self._pool.release(conn)
        except _FAILURES as exc:
            log.warning("a PostgreSQL connection could not be given back to the pool (%s: %s)", type(exc).__name__, exc)

    async def _acquire(self, what: str) -> asyncpg.Connection:
        """A connection of the pool (a new one if the last one was lost); ``StoreUnavailable`` if none can be had."""
        try:
            return await self._pool.acquire()
        except _FAILURES as exc:
            raise _unavailable(exc, what) from exc

    async def _lock(self, conn: asyncpg.Connection) -> None:
        """Begin a transaction and take the schema's write lock (``StoreBusy`` past the busy timeout)."""
        sql = (
            f"BEGIN; SET LOCAL lock_timeout = {self._busy_ms};"
            f" SELECT pg_advisory_xact_lock({LOCK_SPACE}, {self._lock_key})"
        )
        try:
            await conn.execute(sql)
        except asyncpg.LockNotAvailableError as exc:
            try:
                await conn.execute("ROLLBACK")
            except _FAILURES:
                _end(conn)
            raise StoreBusy(f"could not start a write transaction: {exc}") from exc

    async def begin(self) -> PostgresTransaction:
        """A write transaction holding the schema's write lock. A pooled connection found dead (the server
        ended it while it was idle) is replaced once before ``StoreUnavailable``: nothing was written yet."""
        for attempt in range(2):
            conn = await self._acquire("nothing was written")
            try:
                await self._lock(conn)
            except StoreBusy:
                await self.release(conn)
                raise
            except _FAILURES as exc:
                _end(conn)
                await self.release(conn)
                if attempt:
                    raise _unavailable(exc, "nothing was written") from exc
                continue
            except BaseException:
                _end(conn)
                await self.release(conn)
                raise
            return PostgresTransaction(self, conn)
        raise AssertionError("unreachable")

    async def fetch(self, sql: str, params: Params = ()) -> list[Sequence[Any]]:
        """Rows of one read statement; tried once more on a new connection if the first one fails (a read
        changes nothing), then ``StoreUnavailable``."""
        query = self.translate(sql)
        for attempt in range(2):
            conn = await self._acquire("while reading")
            try:
                return list(await conn.fetch(query, *params))
            except _BAD_VALUE as exc:
                raise BadValue(f"the PostgreSQL server refused a value: {exc}") from exc
            except _FAILURES as exc:
                _end(conn)
                if attempt:
                    raise _unavailable(exc, "while reading") from exc
            except BaseException:
                _end(conn)
                raise
            finally:
                await self.release(conn)
        raise AssertionError("unreachable")

    async def close(self) -> None:
        """Close the pool (and the connection holding this process's locks, which frees them)."""
        self._drop_holder()
        try:
            await self._pool.close()
        except _FAILURES:  # asyncpg has terminated the pool's connections then
            log.warning("the PostgreSQL pool did not close cleanly; its connections were terminated")

    def _drop_holder(self) -> None:
        """End the connection holding this process's work locks (the server frees them all)."""
        holder, self._holder = self._holder, None
        if holder is not None:
            holder.terminate()

    async def _holding_connection(self) -> asyncpg.Connection:
        if self._holder is None or self._holder.is_closed():
            if self._holder is not None:  # the locks it held died with it: others may take the work over now
                log.warning("the PostgreSQL connection holding this process's work locks was lost; reconnecting")
                self._drop_holder()
            dsn, schema = split_target(self._dsn)
            try:
                self._holder = await asyncpg.connect(dsn, server_settings={"search_path": schema} if schema else {})
            except _FAILURES as exc:
                raise _unavailable(exc, "while taking a work lock") from exc
        return self._holder

    async def try_hold(self, name: str, key: int) -> bool:
        """Take the work lock ``(name, key)`` (e.g. delivering game 12) for this process, without waiting: False
        while another process holds it. A session advisory lock on a connection of its own, so the server frees
        it the moment this process dies and another process takes the work over. If that connection fails it is
        ended (with every lock it held) and the lock asked for once more on a new one, then
        ``StoreUnavailable``."""
        async with self._holder_lock:
            for attempt in range(2):
                conn = await self._holding_connection()
                try:
                    return bool(await conn.fetchval(_HOLD, name, _lock_number(key)))
                except _FAILURES as exc:
                    if self._holder is conn:
                        log.warning("the PostgreSQL connection holding this process's work locks failed; ending it")
                        self._drop_holder()
                    if attempt:
                        raise _unavailable(exc, "while taking a work lock") from exc
            raise AssertionError("unreachable")

    async def release_hold(self, name: str, key: int) -> None:
        """Give a work lock back (nothing happens if the connection holding it is gone: so is the lock). If the
        release fails the connection is ended, so no lock stays held by a connection in an unknown state."""
        async with self._holder_lock:
            if self._holder is None or self._holder.is_closed():
                return
            try:
                await self._holder.fetchval(_RELEASE, name, _lock_number(key))
            except _FAILURES:
                log.warning(
                    "a work lock could not be given back; ending the connection that holds this process's locks"
                )
                self._drop_holder()

    async def id_high_water(self, table: str) -> int:
        """The highest id ``table`` ever handed out (its identity sequence remembers deleted ones)."""
        top = (await self.fetch(f"SELECT COALESCE(MAX(id), 0) FROM {table}"))[0][0]
        seq = (await self.fetch("SELECT pg_get_serial_sequence(?, 'id')", (table,)))[0][0]
        last = (await self.fetch(f"SELECT last_value, is_called FROM {seq}"))[0]
        return max(int(top), int(last[0]) if last[1] else 0)

    @staticmethod
    async def set_id_high_water(tx: Executes, table: str, value: int) -> None:
        """Inside a copy: the next id ``table`` hands out is above ``value`` (rows copied with their ids do not
        move the identity sequence)."""
        sql = "SELECT setval(pg_get_serial_sequence(?, 'id'), ?, ?)"
        await tx.execute(sql, (table, max(value, 1), value > 0))

    async def migrate(self, migrations: Sequence[Migration | str]) -> int:
        """Bring the schema up to ``len(migrations)`` in one transaction and return that version.

        The version is the one row of ``schema_version``. Raises ``SchemaTooNew`` if the database is newer than
        ``migrations`` and ``MigrationError`` if a script fails (nothing is changed then).
        """
        target = len(migrations)
        try:
            return await self._migrate(migrations, target)
        except _FAILURES as exc:
            raise _unavailable(exc, "while migrating") from exc

    async def _migrate(self, migrations: Sequence[Migration | str], target: int) -> int:
        async with self._pool.acquire() as conn:
            await self._lock(conn)
            try:
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                current = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
                if current > target:
                    raise SchemaTooNew(current, target)
                for number in range(current, target):
                    try:
                        await conn.execute(script_for(migrations[number], self.name))
                    except asyncpg.PostgresError as exc:
                        raise MigrationError(f"migration {number + 1} failed: {exc}") from exc
                if current != target:
                    await conn.execute("DELETE FROM schema_version")
                    await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", target)
            except BaseException:
                await conn.execute("ROLLBACK")
                raise
            await conn.execute("COMMIT")
        return target


async def _keep_session(conn: asyncpg.Connection) -> None:
    """No reset query when a connection goes back to the pool: every transaction ends with COMMIT or ROLLBACK
    and changes settings only with SET LOCAL, so there is nothing to reset (and a round trip is saved)."""
