"""Move a bot's database from SQLite to PostgreSQL (or back), and prove nothing changed on the way:

    python -m store.copy speakeasy.sqlite3 postgresql://postgres@127.0.0.1:5432/test

Every row of every table (games, seats, choices, snapshots, messages, reminders, claims, races, settings, the
log's events, the outbox, offers) is copied with its id, in one transaction of the destination: all of it or
nothing. The destination must hold no games yet; it is created and migrated like any store. Ids never handed
out twice stay so (the outbox's ids are the nonces of messages on Discord). Then every copied game is checked:
its rows read back equal, and its record (seed, options, seats, choices) replays to the same state the source
holds (its snapshot, or the source's own replay when the snapshot lags).

Exit status: 0 copied and checked, 1 a check failed (the copy is committed: drop it and look), 2 nothing
copied (a bad argument, a destination that is not empty, a server that does not answer).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from .errors import StoreError
from .people import PersonRow
from .postgres import describe
from .rows import (
    ChoiceRow,
    ClaimRow,
    EventRow,
    GameRow,
    MessageRow,
    OfferRow,
    OutboxRow,
    RaceRow,
    RatedGameRow,
    RatingRow,
    ReminderRow,
    SeatRow,
)
from .store import Store


def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


#: every table with its columns and key, in foreign-key order (a game before what refers to it)
TABLES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("games", _names(GameRow), "id"),
    ("seats", _names(SeatRow), "game_id, seat"),
    ("choices", _names(ChoiceRow), "game_id, idx"),
    ("snapshots", ("game_id", "version", "state"), "game_id"),
    ("messages", _names(MessageRow), 'game_id, kind, "key"'),
    ("reminders", _names(ReminderRow), "game_id, user_id, kind"),
    ("claims", _names(ClaimRow), "game_id, version, seat"),
    ("races", _names(RaceRow), "game_id"),
    ("guild_settings", ("guild_id", "settings"), "guild_id"),
    ("user_langs", ("user_id", "lang", "updated_at"), "user_id"),
    ("events", _names(EventRow), "id"),
    ("outbox", _names(OutboxRow), "id"),
    ("offers", _names(OfferRow), "game_id, seat"),
    ("cooldowns", ("kind", "key", "ends_at"), 'kind, "key"'),
    ("end_votes", ("game_id", "user_id", "agreed_at"), "game_id, user_id"),
    ("people", _names(PersonRow), "user_id"),
    ("away_pauses", ("game_id", "user_id", "paused_s"), "game_id, user_id"),
    ("rated_games", _names(RatedGameRow), "id"),
    ("rated_players", ("identity", "game_id"), "identity, game_id"),
    ("ratings", _names(RatingRow), "ladder, scope, identity"),
    ("rating_steps", ("ladder", "scope", "identity", "rated_id", "mu", "sigma"), "identity, ladder, scope, rated_id"),
    ("pictures_drawn", ("game_id", "version", "base"), "game_id, version"),
)
#: the tables whose ids a sequence hands out
ID_TABLES = ("games", "events", "outbox", "rated_games")


class CopyRefused(StoreError):
    """Nothing was copied (e.g. the destination already holds games)."""


def _select(table: str, columns: Sequence[str], key: str) -> str:
    names = ", ".join(f'"{c}"' for c in columns)
    return f"SELECT {names} FROM {table} ORDER BY {key}"


async def read_table(store: Store, table: str) -> list[tuple[Any, ...]]:
    """Every row of one of ``TABLES`` in key order, as plain tuples."""
    for name, columns, key in TABLES:
        if name == table:
            return [tuple(r) for r in await store._fetchall(_select(name, columns, key))]
    raise ValueError(f"not a table of the store: {table!r}")


async def copy_rows(src: Store, dst: Store) -> dict[str, int]:
    """Copy every row from ``src`` into the empty ``dst`` in one transaction; return the count per table.

    Raises ``CopyRefused`` (nothing written) if ``dst`` already holds a game or a guild's settings.
    """
    held = await dst._fetchone("SELECT (SELECT COUNT(*) FROM games) + (SELECT COUNT(*) FROM guild_settings)")
    if held and int(held[0]):
        raise CopyRefused(f"{dst.path} already holds games or settings; copy into an empty database")
    data = {name: await read_table(src, name) for name, _, _ in TABLES}
    high = {name: await src._live().id_high_water(name) for name in ID_TABLES}
    backend = dst._live()
    async with dst._write() as conn:
        for name, columns, _ in TABLES:
            if data[name]:
                names = ", ".join(f'"{c}"' for c in columns)
                marks = ", ".join("?" * len(columns))
                await conn.executemany(f"INSERT INTO {name} ({names}) VALUES ({marks})", data[name])
        for name in ID_TABLES:
            await backend.set_id_high_water(conn, name, high[name])
    return {name: len(rows) for name, rows in data.items()}


def _state_of(row: GameRow, seats: Sequence[Any], raw: Sequence[str]) -> Any:
    """The state a game's record replays to, as JSON data. The one place the store package reaches up to the
    rules: this is a tool over the whole bot, importing the engine only when it runs."""
    from engine.core import replay
    from engine.registry import get_game
    from service.records import effective_choices

    game = get_game(row.game)
    names = [s[3] for s in sorted(seats, key=lambda s: s[1])]
    state = replay(game, names, json.loads(row.options), row.seed, effective_choices(raw))
    return json.loads(game.dumps(state))


async def check_games(src: Store, dst: Store) -> tuple[int, list[str]]:
    """Compare every table and replay every started game of ``dst``; ``(games replayed, problems)``."""
    problems = [
        f"table {name}: the copy differs from the source"
        for name, _, _ in TABLES
        if await read_table(src, name) != await read_table(dst, name)
    ]
    replayed = 0
    seats: dict[int, list[tuple[Any, ...]]] = {}
    for seat in await read_table(dst, "seats"):  # the copy's seats equal the source's, or a problem was noted
        seats.setdefault(seat[0], []).append(seat)
    for row in [GameRow(*r) for r in await read_table(dst, "games")]:
        if row.status == "lobby":
            continue
        raw = await dst.get_choices(row.id)
        try:
            got = await asyncio.to_thread(_state_of, row, seats.get(row.id, []), raw)
        except Exception as exc:  # a record that no longer replays is exactly what this check is for
            problems.append(f"game {row.id}: its record does not replay: {exc}")
            continue
        snap = await src.get_snapshot(row.id)
        if snap is not None and snap[0] == row.version:
            want = json.loads(snap[1])
        else:  # the source's snapshot lags (it is only a cache): its own record is the truth
            want = await asyncio.to_thread(_state_of, row, seats.get(row.id, []), await src.get_choices(row.id))
        replayed += 1
        if got != want:
            problems.append(f"game {row.id}: the copy replays to another state than the source holds")
    return replayed, problems


async def run(src_target: str, dst_target: str) -> int:
    """Copy and check; print what was done; return the exit status."""
    if src_target == dst_target:
        print("store.copy: the source and the destination are the same database", file=sys.stderr)
        return 2
    try:
        async with await Store.open(src_target) as src, await Store.open(dst_target) as dst:
            counts = await copy_rows(src, dst)
            print(f"copied {describe(src_target)} -> {describe(dst_target)}:")
            print("  " + ", ".join(f"{name} {n}" for name, n in counts.items()))
            replayed, problems = await check_games(src, dst)
    except (StoreError, ValueError, OSError) as exc:
        print(f"store.copy: {exc}", file=sys.stderr)
        return 2
    for problem in problems:
        print(f"  CHECK FAILED: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"  checked: every table reads back equal; {replayed} started games replay to the same state")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m store.copy", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("src", help="a SQLite path or a postgresql:// URL")
    parser.add_argument("dst", help="an empty (or not yet existing) database: a SQLite path or a postgresql:// URL")
    args = parser.parse_args(argv)
    return asyncio.run(run(args.src, args.dst))


if __name__ == "__main__":
    sys.exit(main())
