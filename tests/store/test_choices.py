"""Starting games, the append-only choice record, snapshots, races for the same version, durability."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from store import ChoiceRow, InvalidStatus, Store, StoreBusy, StoreUnavailable, postgres
from tests.backends import Targets, connect

from .conftest import make_active_game, make_game

REPO_ROOT = Path(__file__).resolve().parents[2]


async def test_start_game_only_once_from_lobby(store: Store) -> None:
    game_id = await make_game(store)
    assert await store.get_snapshot(game_id) is None
    assert await store.start_game(game_id, '"s0"', 50.0)
    assert not await store.start_game(game_id, '"other"', 51.0)
    assert not await store.start_game(999, '"x"', 51.0)
    game = await store.get_game(game_id)
    assert game is not None and (game.status, game.version, game.updated_at) == ("active", 0, 50.0)
    assert await store.get_snapshot(game_id) == (0, '"s0"')


async def test_append_choice_advances_version(store: Store) -> None:
    game_id = await make_active_game(store)
    assert await store.append_choice(game_id, 0, '{"c": 1}', '"s1"', 101.0, actor_id=1)
    assert await store.append_choice(game_id, 1, '{"c": 2}', '"s2"', 102.0)
    assert not await store.append_choice(game_id, 1, '{"stale": 1}', '"bad"', 103.0, actor_id=2)
    game = await store.get_game(game_id)
    assert game is not None and (game.version, game.updated_at, game.last_move_at) == (2, 102.0, 102.0)
    assert await store.get_choices(game_id) == ['{"c": 1}', '{"c": 2}']
    assert await store.get_choice_rows(game_id) == [
        ChoiceRow(game_id, 0, '{"c": 1}', 101.0, 1),
        ChoiceRow(game_id, 1, '{"c": 2}', 102.0, None),
    ]
    assert await store.get_snapshot(game_id) == (2, '"s2"')


async def test_append_choice_requires_active(store: Store) -> None:
    game_id = await make_game(store)
    assert not await store.append_choice(game_id, 0, "1", "{}", 1.0)
    active = await make_active_game(store)
    await store.set_status(active, "abandoned", 2.0)
    assert not await store.append_choice(active, 0, "1", "{}", 3.0)
    assert await store.get_choices(active) == []
    assert await store.get_snapshot(active) == (0, '"s0"')


async def test_append_choice_can_finish_the_game(store: Store) -> None:
    game_id = await make_active_game(store)
    done = await store.append_choice(
        game_id, 0, '"last"', '"end"', 110.0, actor_id=2, status="finished", result_json='{"winner": 1}'
    )
    assert done
    game = await store.get_game(game_id)
    assert game is not None and (game.status, game.result, game.version) == ("finished", '{"winner": 1}', 1)
    assert not await store.append_choice(game_id, 1, '"late"', '"x"', 111.0)
    with pytest.raises(InvalidStatus):
        await store.append_choice(game_id, 1, '"x"', '"x"', 112.0, status="won")


async def test_append_choices_is_atomic(store: Store) -> None:
    game_id = await make_active_game(store)
    batch = [('"human"', 1), ('"bot a"', None), ('"bot b"', None)]
    assert await store.append_choices(game_id, 0, batch, '"s3"', 120.0)
    assert await store.get_choices(game_id) == ['"human"', '"bot a"', '"bot b"']
    assert [r.actor_id for r in await store.get_choice_rows(game_id)] == [1, None, None]
    assert await store.get_snapshot(game_id) == (3, '"s3"')
    assert not await store.append_choices(game_id, 1, [('"x"', 2), ('"y"', None)], '"bad"', 121.0)
    game = await store.get_game(game_id)
    assert game is not None and game.version == 3
    with pytest.raises(ValueError):
        await store.append_choices(game_id, 3, [], '"s"', 122.0)


async def test_concurrent_appends_one_connection(store: Store) -> None:
    game_id = await make_active_game(store)
    results = await asyncio.gather(
        *(store.append_choice(game_id, 0, f'"c{i}"', f'"s{i}"', 130.0 + i, actor_id=i) for i in range(8))
    )
    assert results.count(True) == 1
    winner = results.index(True)
    assert await store.get_choices(game_id) == [f'"c{winner}"']
    assert await store.get_snapshot(game_id) == (1, f'"s{winner}"')


async def test_concurrent_appends_two_connections(db_target: str) -> None:
    """Two stores on one database (two connections, as two processes have): at each version exactly one of two
    racing moves wins, the other is told the game moved on (False) and wrote nothing."""
    async with await Store.open(db_target) as a, await Store.open(db_target) as b:
        game_id = await make_active_game(a)
        for version in range(5):
            results = await asyncio.gather(
                a.append_choice(game_id, version, f'"a{version}"', f'"sa{version}"', 140.0 + version),
                b.append_choice(game_id, version, f'"b{version}"', f'"sb{version}"', 140.0 + version),
            )
            assert sorted(results) == [False, True]
        choices = await b.get_choices(game_id)
        assert len(choices) == 5
        game = await a.get_game(game_id)
        assert game is not None and game.version == 5
        last = choices[-1].strip('"')
        assert await a.get_snapshot(game_id) == (5, f'"s{last}"')


async def test_choices_are_append_only_in_the_schema(db_path: str) -> None:
    async with await Store.open(db_path) as s:
        game_id = await make_active_game(s)
        assert await s.append_choice(game_id, 0, '"c0"', '"s1"', 150.0)
    with sqlite3.connect(db_path) as conn:
        for sql in ("UPDATE choices SET choice = 'x'", "DELETE FROM choices"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(sql)


async def test_choices_survive_reopen(db_target: str) -> None:
    async with await Store.open(db_target) as s:
        game_id = await make_active_game(s)
        for version in range(3):
            assert await s.append_choice(game_id, version, f'"c{version}"', f'"s{version + 1}"', 160.0)
    async with await Store.open(db_target) as s:
        assert await s.get_choices(game_id) == ['"c0"', '"c1"', '"c2"']
        assert await s.get_snapshot(game_id) == (3, '"s3"')
        assert await s.append_choice(game_id, 3, '"c3"', '"s4"', 161.0)
        assert len(await s.get_choices(game_id)) == 4


async def test_a_sqlite_file_is_wal(db_path: str) -> None:
    async with await Store.open(db_path) as s:
        game_id = await make_active_game(s)
        assert await s.append_choice(game_id, 0, '"c0"', '"s1"', 160.0)
        assert os.path.exists(db_path + "-wal")
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_committed_choice_is_visible_to_a_fresh_connection(db_path: str) -> None:
    async with await Store.open(db_path) as s:
        game_id = await make_active_game(s)
        assert await s.append_choice(game_id, 0, '"seen"', '"s1"', 170.0, actor_id=2)
        with sqlite3.connect(db_path) as other:
            rows = other.execute("SELECT idx, choice, actor_id FROM choices WHERE game_id = ?", (game_id,))
            assert rows.fetchall() == [(0, '"seen"', 2)]


async def test_choices_are_append_only_in_the_postgres_schema(postgres_server: str, tmp_path: Path) -> None:
    targets = Targets("postgres", tmp_path, postgres_server)
    try:
        target = targets.new()
        async with await Store.open(target) as s:
            game_id = await make_active_game(s)
            assert await s.append_choice(game_id, 0, '"c0"', '"s1"', 150.0, actor_id=2)
            assert s.backend == "postgres" and "schema=" in s.path
        conn = await connect(target)
        try:
            # a fresh connection sees the committed choice
            rows = await conn.fetch("SELECT idx, choice, actor_id FROM choices WHERE game_id = $1", game_id)
            assert [tuple(r) for r in rows] == [(0, '"c0"', 2)]
            for sql in ("UPDATE choices SET choice = 'x'", "DELETE FROM choices", "TRUNCATE choices"):
                with pytest.raises(asyncpg.RestrictViolationError, match="append-only"):
                    await conn.execute(sql)
        finally:
            await conn.close()
    finally:
        await targets.cleanup()


async def test_postgres_write_lock_timeout_raises_store_busy(postgres_server: str, tmp_path: Path) -> None:
    """Another connection holding the schema's write lock past the busy timeout: ``StoreBusy``, nothing written."""
    targets = Targets("postgres", tmp_path, postgres_server)
    try:
        target = targets.new()
        async with await Store.open(target, busy_timeout_ms=50) as s:
            game_id = await make_active_game(s)
            blocker = await connect(target)
            try:
                async with blocker.transaction():
                    await blocker.execute(
                        "SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))", postgres.LOCK_SPACE
                    )
                    with pytest.raises(StoreBusy):
                        await s.append_choice(game_id, 0, '"c"', '"s"', 1.0)
            finally:
                await blocker.close()
            assert await s.get_choices(game_id) == []
            assert await s.append_choice(game_id, 0, '"c"', '"s"', 1.0)
    finally:
        await targets.cleanup()


async def test_a_lost_postgres_connection_is_a_clear_error_then_the_store_reconnects(
    postgres_server: str, tmp_path: Path
) -> None:
    """The server drops the store's connection in the middle of a write: ``StoreUnavailable``, nothing written,
    and the next call works on a new connection (as it does when the connection died between calls)."""
    targets = Targets("postgres", tmp_path, postgres_server)
    try:
        target = targets.new()
        async with await Store.open(target) as s:
            game_id = await make_active_game(s)
            admin = await connect(target)
            try:
                with pytest.raises(StoreUnavailable, match="lost the connection to the PostgreSQL server"):
                    async with s._write() as conn:
                        pid = (await conn.execute("SELECT pg_backend_pid()")).rows[0][0]
                        await conn.execute("UPDATE games SET version = 9 WHERE id = ?", (game_id,))
                        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
                        await asyncio.sleep(0.2)  # the server closes the socket
                        await conn.execute("UPDATE games SET updated_at = 5 WHERE id = ?", (game_id,))
                game = await s.get_game(game_id)  # a new connection
                assert game is not None and game.version == 0
                assert await s.append_choice(game_id, 0, '"c0"', '"s1"', 2.0)
                pid = (await s._fetchone("SELECT pg_backend_pid()"))[0]
                assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
                await asyncio.sleep(0.2)
                assert await s.append_choice(game_id, 1, '"c1"', '"s2"', 3.0)  # between calls: nothing to see
                assert await s.get_choices(game_id) == ['"c0"', '"c1"']
            finally:
                await admin.close()
    finally:
        await targets.cleanup()


CRASH_SCRIPT = """
import asyncio, os, sys
from store import Store

async def main():
    s = await Store.open(sys.argv[1])
    game_id = await s.create_game(game="omerta", guild_id=1, channel_id=2, host_id=3,
                                  options_json="{}", seed=1, now=1.0)
    await s.add_seat(game_id, 5, "Eve")
    assert await s.start_game(game_id, '"s0"', 2.0)
    assert await s.append_choice(game_id, 0, '"before crash"', '"s1"', 3.0, actor_id=5)
    await s.open_race(game_id, 1, 60.0)
    assert await s.add_claim(game_id, 1, 0, '"snap"', 1234, 3.5)
    os._exit(0)  # die without closing: no checkpoint, no clean shutdown

asyncio.run(main())
"""


async def test_choice_survives_process_death(db_target: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", CRASH_SCRIPT, db_target], env=env, capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 0, proc.stderr
    async with await Store.open(db_target) as s:
        (game,) = await s.list_active_games()
        assert game.version == 1
        assert await s.get_choices(game.id) == ['"before crash"']
        assert [c.choice for c in await s.get_claims(game.id, 1)] == ['"snap"']


async def test_write_lock_timeout_raises_store_busy(db_path: str) -> None:
    async with await Store.open(db_path, busy_timeout_ms=50) as s:
        game_id = await make_active_game(s)
        with sqlite3.connect(db_path, isolation_level=None) as blocker:
            blocker.execute("BEGIN IMMEDIATE")
            with pytest.raises(StoreBusy):
                await s.append_choice(game_id, 0, '"c"', '"s"', 1.0)
            blocker.execute("ROLLBACK")
        assert await s.append_choice(game_id, 0, '"c"', '"s"', 1.0)


RACE_SCRIPT = """
import asyncio, sys
from store import Store

async def main():
    s = await Store.open(sys.argv[1])
    game_id, name, wins = int(sys.argv[2]), sys.argv[3], 0
    print("ready", flush=True)
    sys.stdin.readline()  # both processes start together
    while True:
        game = await s.get_game(game_id)
        if game.version >= 30:
            break
        wins += await s.append_choice(game_id, game.version, f'"{name}{game.version}"', f'"s{game.version}"', 1.0)
    print(wins, flush=True)
    await s.close()

asyncio.run(main())
"""


async def test_two_processes_racing_on_one_game_never_both_win(db_target: str) -> None:
    """Two real processes move the same game as fast as they can, each at the version it last read: every index
    of the record is taken exactly once and each process won exactly the moves it was told it won."""
    async with await Store.open(db_target) as s:
        game_id = await make_active_game(s)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RACE_SCRIPT, db_target, str(game_id), name],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in "ab"
    ]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    wins = [int(proc.communicate(timeout=60)[0].strip()) for proc in procs]
    async with await Store.open(db_target) as s:
        choices = await s.get_choices(game_id)
        game = await s.get_game(game_id)
    assert game is not None and game.version == len(choices) == sum(wins) == 30
    assert [c.strip('"')[1:] for c in choices] == [str(i) for i in range(30)]  # each index once, in order
    assert [sum(c.startswith(f'"{n}') for c in choices) for n in "ab"] == wins
