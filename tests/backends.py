"""The two databases the store runs on, for tests: SQLite always, PostgreSQL when a server answers.

The PostgreSQL server is the one named by ``SPEAKEASY_TEST_POSTGRES`` (a ``postgresql://`` URL), else the
development and CI machines' local one (``LOCAL``) if it answers. Each test gets its own schema, created by the
store when it opens and dropped when the test ends, so parallel test workers never see each other's rows.
Without a server the PostgreSQL tests are skipped with the reason; under ``SPEAKEASY_REQUIRE_POSTGRES=1``
(``.ci/run``) they fail instead.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from store.postgres import is_postgres, split_target

LOCAL = "postgresql://postgres@127.0.0.1:5432/test"
BACKENDS = ("sqlite", "postgres")


def configured_url() -> str:
    """The server the tests should use."""
    return os.environ.get("SPEAKEASY_TEST_POSTGRES", "").strip() or LOCAL


def required() -> bool:
    """Whether a missing server is a failure (CI) rather than a skip."""
    return os.environ.get("SPEAKEASY_REQUIRE_POSTGRES", "") not in ("", "0")


async def _probe(url: str) -> str | None:
    """None if the server answers, else why not."""
    try:
        conn = await asyncpg.connect(split_target(url)[0], timeout=3)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


def probe_server() -> str | None:
    """The server's URL, or None with the test skipped (or failed, when required) saying why.

    Run from a synchronous session fixture, outside any event loop.
    """
    url = configured_url()
    why = asyncio.run(_probe(url))
    if why is None:
        return url
    message = (
        f"PostgreSQL tests need a server: none answers at {url} ({why}); "
        "set SPEAKEASY_TEST_POSTGRES to a postgresql:// URL to run them"
    )
    if required():
        pytest.fail(message + " (SPEAKEASY_REQUIRE_POSTGRES is set)", pytrace=False)
    pytest.skip(message)
    return None


def with_schema(url: str, schema: str) -> str:
    """``url`` naming its own schema."""
    return f"{url}{'&' if '?' in url else '?'}schema={schema}"


async def drop_schema(target: str) -> None:
    """Drop a test's schema and everything in it."""
    dsn, schema = split_target(target)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


async def connect(target: str) -> asyncpg.Connection:
    """A raw connection to a test's schema (to look at what the store wrote, or to break things)."""
    dsn, schema = split_target(target)
    return await asyncpg.connect(dsn, server_settings={"search_path": schema or "public"})


class Targets:
    """Fresh databases of one backend for one test: SQLite files, or PostgreSQL schemas dropped at the end."""

    def __init__(self, backend: str, tmp_path: Path, server: str | None) -> None:
        self.backend, self._tmp, self._server = backend, tmp_path, server
        self.made: list[str] = []

    def new(self) -> str:
        """A database that does not exist yet (the store creates it when it opens)."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        if self.backend == "sqlite":
            return str(self._tmp / f"{name}.sqlite3")
        assert self._server is not None
        target = with_schema(self._server, name)
        self.made.append(target)
        return target

    async def cleanup(self) -> None:
        """Drop the PostgreSQL schemas made."""
        for target in self.made:
            await drop_schema(target)


async def tables(target: str) -> set[str]:
    """The names of the tables in a database."""
    if not is_postgres(target):
        with sqlite3.connect(target) as conn:
            return {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    conn = await connect(target)
    try:
        rows = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return {r[0] for r in rows}
    finally:
        await conn.close()


async def columns(target: str) -> dict[str, list[str]]:
    """Each table's columns in order."""
    out: dict[str, list[str]] = {}
    if not is_postgres(target):
        with sqlite3.connect(target) as conn:
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
                out[name] = [r[1] for r in conn.execute(f'PRAGMA table_info("{name}")')]
        return out
    conn = await connect(target)
    try:
        sql = (
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " ORDER BY table_name, ordinal_position"
        )
        for table, column in await conn.fetch(sql):
            out.setdefault(table, []).append(column)
        return out
    finally:
        await conn.close()


async def schema_version(target: str, set_to: int | None = None) -> int:
    """The schema version recorded in a database (written first if ``set_to`` is given)."""
    if not is_postgres(target):
        with sqlite3.connect(target) as conn:
            if set_to is not None:
                conn.execute(f"PRAGMA user_version = {int(set_to)}")
            return int(conn.execute("PRAGMA user_version").fetchone()[0])
    conn = await connect(target)
    try:
        if set_to is not None:
            await conn.execute("UPDATE schema_version SET version = $1", set_to)
        return int(await conn.fetchval("SELECT version FROM schema_version"))
    finally:
        await conn.close()


async def targets_fixture(backend: str, tmp_path: Path, server: str | None) -> AsyncIterator[Targets]:
    """The body of a ``targets`` fixture."""
    made = Targets(backend, tmp_path, server)
    try:
        yield made
    finally:
        await made.cleanup()
