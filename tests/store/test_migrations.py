"""Schema versioning on both backends: fresh databases, idempotent re-open, upgrades and refusal of newer ones;
the two scripts of each migration build the same schema."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import MIGRATIONS, SCHEMA_VERSION, MigrationError, SchemaTooNew, Store, StoreClosed, StoreError
from store.migrations import split_statements
from tests.backends import Targets, columns, schema_version, tables

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
    "user_langs",
    "cooldowns",
    "people",
    "away_pauses",
    "rated_games",
    "rated_players",
    "rating_steps",
    "ratings",
    "pictures_drawn",
    "replay_pictures",
}


async def test_fresh_database_gets_every_migration(db_target: str, backend: str) -> None:
    async with await Store.open(db_target) as s:
        assert s.schema_version == SCHEMA_VERSION == len(MIGRATIONS) == 12
        assert s.backend == backend
        assert s.journal_mode == ("wal" if backend == "sqlite" else "")
    assert await tables(db_target) >= TABLES
    assert await schema_version(db_target) == SCHEMA_VERSION


async def test_both_backends_build_the_same_tables_and_columns(postgres_server: str, tmp_path: Path) -> None:
    """The two scripts of every migration agree: after each version, the same tables with the same columns in
    the same order (the store's SELECTs name columns in row-dataclass order)."""
    targets = Targets("postgres", tmp_path, postgres_server)
    try:
        for version in range(1, SCHEMA_VERSION + 1):
            lite, pg = str(tmp_path / f"v{version}.sqlite3"), targets.new()
            for target in (lite, pg):
                async with await Store.open(target, migrations=MIGRATIONS[:version]):
                    pass
            expected = await columns(lite)
            expected.pop("sqlite_sequence", None)  # SQLite's own bookkeeping of AUTOINCREMENT
            got = await columns(pg)
            assert got.pop("schema_version") == ["version"]
            assert got == expected, version
    finally:
        await targets.cleanup()


async def test_memory_database_is_migrated(store: Store) -> None:
    assert store.schema_version == SCHEMA_VERSION
    assert await store.get_game(1) is None


async def test_reopen_is_idempotent_and_keeps_data(db_target: str) -> None:
    async with await Store.open(db_target) as s:
        game_id = await make_game(s)
    for _ in range(2):
        async with await Store.open(db_target) as s:
            assert s.schema_version == SCHEMA_VERSION
            game = await s.get_game(game_id)
            assert game is not None and game.game == "omerta"
    assert await schema_version(db_target) == SCHEMA_VERSION


async def test_real_upgrade_from_v1(db_target: str) -> None:
    async with await Store.open(db_target, migrations=MIGRATIONS[:1]) as s:
        assert s.schema_version == 1
        game_id = await make_game(s)
    assert "reminders" not in await tables(db_target)
    async with await Store.open(db_target) as s:
        assert s.schema_version == SCHEMA_VERSION
        assert (await s.get_game(game_id)) is not None
        await s.set_reminder(game_id, 1, "turn", 5.0)
        assert len(await s.due_reminders(5.0)) == 1


async def test_upgrade_to_v4_keeps_reminders_and_names_each_wait(db_target: str) -> None:
    """Version 4: a reminder kept from before starts at ``since`` 0; a new wait begins at the game's version."""
    async with await Store.open(db_target, migrations=MIGRATIONS[:3]) as s:
        game_id = await make_game(s)
        sql = "INSERT INTO reminders (game_id, user_id, kind, due_at, count) VALUES (?, 1, 'turn', 5.0, 0)"
        await s._execute(sql, (game_id,))
    async with await Store.open(db_target) as s:
        assert [(r.count, r.since) for r in await s.due_reminders(5.0)] == [(0, 0)]
        await s._execute("UPDATE games SET version = 7 WHERE id = ?", (game_id,))
        await s.set_reminder(game_id, 1, "turn", 6.0)
        assert [(r.count, r.since) for r in await s.due_reminders(6.0)] == [(0, 7)]


async def test_injected_migration_list_upgrades(db_target: str) -> None:
    """A plain string is one script both databases run as it is."""
    v1 = ("CREATE TABLE t (a INTEGER);",)
    v2 = (*v1, "ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'; INSERT INTO t (a) VALUES (7);")
    async with await Store.open(db_target, migrations=v1) as s:
        assert s.schema_version == 1
    async with await Store.open(db_target, migrations=v2) as s:
        assert s.schema_version == 2
        assert [tuple(r) for r in await s._fetchall("SELECT a, b FROM t")] == [(7, "x")]
    assert await schema_version(db_target) == 2


async def test_newer_database_is_refused(db_target: str) -> None:
    async with await Store.open(db_target):
        pass
    await schema_version(db_target, set_to=SCHEMA_VERSION + 1)
    with pytest.raises(SchemaTooNew, match="newer than this code supports") as info:
        await Store.open(db_target)
    assert (info.value.found, info.value.supported) == (SCHEMA_VERSION + 1, SCHEMA_VERSION)
    assert await schema_version(db_target) == SCHEMA_VERSION + 1


async def test_failed_migration_changes_nothing(db_target: str) -> None:
    broken = (*MIGRATIONS, "CREATE TABLE extra (a INTEGER); INSERT INTO nowhere VALUES (1);")
    async with await Store.open(db_target, migrations=MIGRATIONS[:1]):
        pass
    with pytest.raises(MigrationError, match=f"migration {len(broken)} failed"):
        await Store.open(db_target, migrations=broken)
    assert await schema_version(db_target) == 1
    assert "extra" not in await tables(db_target) and "reminders" not in await tables(db_target)


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


async def test_closed_store_raises(db_target: str) -> None:
    s = await Store.open(db_target)
    await s.close()
    await s.close()
    with pytest.raises(StoreClosed):
        await s.get_game(1)


async def test_an_unreachable_postgres_server_is_a_clear_error() -> None:
    # port 1 on localhost: nothing listens there
    with pytest.raises(StoreError, match="cannot open the PostgreSQL database postgresql://u:\\*\\*\\*@127.0.0.1:1/x"):
        await Store.open("postgresql://u:secret@127.0.0.1:1/x")


async def test_a_bad_schema_name_is_refused_before_connecting() -> None:
    with pytest.raises(ValueError, match="schema must be a plain SQL name"):
        await Store.open("postgresql://postgres@127.0.0.1:1/x?schema=a;drop")


async def test_upgrade_to_v8_allows_a_game_ended_by_agreement_and_keeps_the_rest(db_target: str) -> None:
    """Issue 23, version 8: a database of version 7 keeps its games and now takes the status 'ended' (the
    widened CHECK, also for a connection opened before) and the votes to end a game; any other status is still
    refused by the database itself."""
    async with await Store.open(db_target, migrations=MIGRATIONS[:7]) as s:
        game_id = await make_game(s)
        other = await make_game(s)
    async with await Store.open(db_target) as s, await Store.open(db_target) as again:
        assert await s.end_game(game_id, "ended", 9.0, ("lobby",))
        assert (await again.get_game(game_id)).status == "ended"  # type: ignore[union-attr]
        with pytest.raises(StoreError):
            await s._execute("UPDATE games SET status = 'bogus' WHERE id = ?", (other,))
        assert (await s.get_game(other)).status == "lobby"  # type: ignore[union-attr]
        assert await s.get_end_votes(other) == {}
