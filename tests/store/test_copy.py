"""``python -m store.copy SRC DST``: every row moves from SQLite to PostgreSQL and back, each game replays to the
state the source holds, and the games go on at the destination."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine.registry import GAMES
from service import Settings, TableService
from store import Move, Store
from store.copy import TABLES, read_table, run
from tests.backends import Targets
from tests.service.test_crash_points import USERS, Clock, _claim, _omerta_at_a_snap, _speakeasy_started, _step

REPO_ROOT = Path(__file__).resolve().parents[2]


async def _tables(target: str) -> dict[str, list[tuple]]:
    async with await Store.open(target) as s:
        return {name: await read_table(s, name) for name, _, _ in TABLES}


async def _bot_database(path: str) -> tuple[list[int], int]:
    """A database as a running bot leaves it: an Omerta game at a snap (with a claim), a Speakeasy game some
    moves in, a lobby, guild settings, an outbox whose latest entries were delivered. Returns the started
    games and the highest outbox id handed out."""
    clock = Clock()
    store = await Store.open(path)
    svc = TableService(store, Settings(reminder_first_s=3600, reminder_repeat_s=7200), clock=clock, games=GAMES)
    omerta = await _omerta_at_a_snap(svc, clock)
    await _claim(svc, omerta)
    speakeasy = await _speakeasy_started(svc, clock)
    await svc.create(10, 30, USERS[2], "omerta", {})
    await store.set_guild_settings(10, {"reminder_hours": 6})
    await store.set_user_lang(2**62, "de", 3.5)
    await store.set_message(omerta, "board", 20, 777, version=3, upto=2)
    entries = await store.outbox_due(1e12)
    assert entries, "the games said something privately"
    for entry in entries:  # delivered: the ids are gone, but must never be handed out again
        await store.outbox_done(entry.id)
    await store.close()
    return [omerta, speakeasy], max(e.id for e in entries)


async def test_copy_to_postgres_and_back(postgres_server: str, tmp_path: Path) -> None:
    src = str(tmp_path / "bot.sqlite3")
    games, outbox_high = await _bot_database(src)
    targets = Targets("postgres", tmp_path, postgres_server)
    try:
        pg, back = targets.new(), str(tmp_path / "back.sqlite3")
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
        proc = subprocess.run(
            [sys.executable, "-m", "store.copy", src, pg], env=env, capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 0, proc.stderr
        assert "2 started games replay to the same state" in proc.stdout
        assert await run(pg, back) == 0
        want = await _tables(src)
        assert await _tables(pg) == want == await _tables(back)
        assert want["choices"] and want["events"] and want["claims"] and want["seats"]
        for target in (pg, back):
            clock = Clock()
            store = await Store.open(target)
            svc = TableService(store, Settings(), clock=clock, games=GAMES)
            game = await store.get_game(games[1])
            assert game is not None
            move = Move([], "", 1.0, outbox=[("private", 1, "{}")])
            assert await store.table_event(game.id, game.version, move)
            assert [e.id for e in await store.outbox_due(1e12)] == [outbox_high + 1]  # no nonce reused
            for gid in games:  # the games go on where they are now
                before = len(await store.get_choices(gid))
                for _ in range(3):
                    await _step(svc, gid, clock)
                assert len(await store.get_choices(gid)) > before
            await store.close()
    finally:
        await targets.cleanup()


async def test_copy_refuses_a_destination_that_holds_games(tmp_path: Path, capsys) -> None:
    src, dst = str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")
    await _bot_database(src)
    async with await Store.open(dst) as s:
        await s.create_game(game="omerta", guild_id=1, channel_id=2, host_id=3, options_json="{}", seed=1, now=1.0)
    before = await _tables(dst)
    assert await run(src, dst) == 2
    assert "already holds games or settings; copy into an empty database" in capsys.readouterr().err
    assert await _tables(dst) == before
    assert await run(src, src) == 2


async def test_copy_reports_a_game_that_replays_differently(tmp_path: Path, capsys) -> None:
    """The check is real: a source whose snapshot is not what its record replays to is reported, by game."""
    src, dst = str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")
    games, _ = await _bot_database(src)
    async with await Store.open(src) as s:
        version, _state = await s.get_snapshot(games[0])
        async with s._write() as conn:
            await conn.execute("UPDATE snapshots SET state = ? WHERE game_id = ?", ('{"tampered": 1}', games[0]))
        assert (await s.get_snapshot(games[0])) == (version, '{"tampered": 1}')
    assert await run(src, dst) == 1
    err = capsys.readouterr().err
    assert f"game {games[0]}: the copy replays to another state than the source holds" in err
    assert f"game {games[1]}:" not in err
