"""Schema versioning: fresh databases, idempotent re-open, upgrades and refusal of newer files."""

from __future__ import annotations

import sqlite3

import pytest

from store import MIGRATIONS, SCHEMA_VERSION, MigrationError, SchemaTooNew, Store, StoreClosed
from store.migrations import split_statements

from .conftest import make_game

TABLES = {
    "games",
    "seats",
    "choices",
    "snapshots",
    "messages",
    "reminders",
    "claims",
    "races",
    "guild_settings",
    "events",
    "outbox",
    "offers",
}


def _tables(path: str) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name for (name,) in rows}


def _user_version(path: str) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


async def test_fresh_database_gets_every_migration(db_path: str) -> None:
    async with await Store.open(db_path) as s:
        assert s.schema_version == SCHEMA_VERSION == len(MIGRATIONS) == 3
        assert s.journal_mode == "wal"
    assert _tables(db_path) >= TABLES
    assert _user_version(db_path) == SCHEMA_VERSION


async def test_memory_database_is_migrated(store: Store) -> None:
    assert store.schema_version == SCHEMA_VERSION
    assert await store.get_game(1) is None


async def test_reopen_is_idempotent_and_keeps_data(db_path: str) -> None:
    async with await Store.open(db_path) as s:
        game_id = await make_game(s)
    for _ in range(2):
        async with await Store.open(db_path) as s:
            assert s.schema_version == SCHEMA_VERSION
            game = await s.get_game(game_id)
            assert game is not None and game.game == "omerta"
    assert _user_version(db_path) == SCHEMA_VERSION


async def test_real_upgrade_from_v1(db_path: str) -> None:
    async with await Store.open(db_path, migrations=MIGRATIONS[:1]) as s:
        assert s.schema_version == 1
        game_id = await make_game(s)
    assert "reminders" not in _tables(db_path)
    async with await Store.open(db_path) as s:
        assert s.schema_version == SCHEMA_VERSION
        assert (await s.get_game(game_id)) is not None
        await s.set_reminder(game_id, 1, "turn", 5.0)
        assert len(await s.due_reminders(5.0)) == 1


async def test_injected_migration_list_upgrades(db_path: str) -> None:
    v1 = ("CREATE TABLE t (a INTEGER);",)
    v2 = (*v1, "ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'; INSERT INTO t (a) VALUES (7);")
    async with await Store.open(db_path, migrations=v1) as s:
        assert s.schema_version == 1
    async with await Store.open(db_path, migrations=v2) as s:
        assert s.schema_version == 2
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT a, b FROM t").fetchall() == [(7, "x")]
    assert _user_version(db_path) == 2


async def test_newer_database_is_refused(db_path: str) -> None:
    async with await Store.open(db_path):
        pass
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNew, match="newer than this code supports") as info:
        await Store.open(db_path)
    assert (info.value.found, info.value.supported) == (SCHEMA_VERSION + 1, SCHEMA_VERSION)
    assert _user_version(db_path) == SCHEMA_VERSION + 1


async def test_failed_migration_changes_nothing(db_path: str) -> None:
    broken = (*MIGRATIONS, "CREATE TABLE extra (a INTEGER); INSERT INTO nowhere VALUES (1);")
    async with await Store.open(db_path, migrations=MIGRATIONS[:1]):
        pass
    with pytest.raises(MigrationError, match="migration 4 failed"):
        await Store.open(db_path, migrations=broken)
    assert _user_version(db_path) == 1
    assert "extra" not in _tables(db_path) and "reminders" not in _tables(db_path)


def test_split_statements_keeps_trigger_bodies_whole() -> None:
    script = (
        "CREATE TABLE a (x TEXT DEFAULT ';');\n"
        "-- a comment; with a semicolon\n"
        "CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1; SELECT 2; END;"
    )
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].endswith("END;")
    with pytest.raises(MigrationError):
        split_statements("CREATE TRIGGER u AFTER INSERT ON a BEGIN SELECT 1;")


async def test_closed_store_raises(db_path: str) -> None:
    s = await Store.open(db_path)
    await s.close()
    await s.close()
    with pytest.raises(StoreClosed):
        await s.get_game(1)
