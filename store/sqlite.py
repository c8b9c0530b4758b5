"""The ``Store``: aiosqlite persistence for hosted games (SQLite, WAL, versioned schema).

Usage::

    store = await Store.open("speakeasy.db")   # or ":memory:" in tests
    ...
    await store.close()

    async with await Store.open(path) as store:  # closes on exit
        ...

Every method runs on one connection behind an ``asyncio.Lock``; writes run in ``BEGIN IMMEDIATE``
transactions committed with ``synchronous=FULL``, so a write is durable when its method returns.
Several ``Store`` objects (or processes) may share one file: ``BEGIN IMMEDIATE`` plus
``busy_timeout`` serialise their writes. The store knows no game rules: options, states, choices
and results are opaque JSON strings.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Collection, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import fields
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiosqlite

from .errors import AlreadySeated, GameNotFound, InvalidStatus, NotInLobby, SeatNotFound, StoreBusy, StoreClosed
from .migrations import MIGRATIONS, apply_migrations
from .rows import GAME_STATUSES, ChoiceRow, ClaimRow, GameRow, MessageRow, RaceRow, ReminderRow, SeatRow

MEMORY = ":memory:"
DEFAULT_BUSY_TIMEOUT_MS = 5000
Params = Sequence[Any]


class _Rollback(Exception):
    """Raised inside ``Store._write`` to roll the transaction back without an error."""


def _cols(cls: type, prefix: str = "") -> str:
    """Column list for a row dataclass, in field order."""
    return ", ".join(f'{prefix}"{f.name}"' for f in fields(cls))


def _marks(values: Collection[Any]) -> str:
    """``?, ?, ?`` placeholders for an IN list."""
    return ", ".join("?" * len(values))


def _check_status(status: str) -> str:
    if status not in GAME_STATUSES:
        raise InvalidStatus(status)
    return status


def _seat(row: sqlite3.Row) -> SeatRow:
    game_id, seat, user_id, name, dm_blocked, thread_id = row
    return SeatRow(game_id, seat, user_id, name, bool(dm_blocked), thread_id)


class Store:
    """Async persistence for games, seats, the choice record and the bot's bookkeeping."""

    def __init__(self, conn: aiosqlite.Connection, path: str, schema_version: int, journal_mode: str) -> None:
        """Use ``await Store.open(path)`` instead."""
        self._conn: aiosqlite.Connection | None = conn
        self._lock = asyncio.Lock()
        self.path = path
        self.schema_version = schema_version
        self.journal_mode = journal_mode

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrations: Sequence[str] = MIGRATIONS,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    ) -> Store:
        """Open (creating if needed) the database at ``path`` and apply pending migrations.

        ``":memory:"`` gives a private in-memory database. Files use WAL journaling. Raises
        ``SchemaTooNew`` if the file was written by newer code. ``migrations`` is for tests.
        """
        path = str(path)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            mode = await cls._configure(conn, busy_timeout_ms, wal=path != MEMORY)
            version = await apply_migrations(conn, migrations)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path, version, mode)

    @staticmethod
    async def _configure(conn: aiosqlite.Connection, busy_timeout_ms: int, *, wal: bool) -> str:
        """Set the connection pragmas; return the journal mode in effect."""
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA synchronous = FULL")
        async with conn.execute("PRAGMA journal_mode = WAL" if wal else "PRAGMA journal_mode") as cursor:
            row = await cursor.fetchone()
        return str(row[0]).lower() if row else ""

    async def close(self) -> None:
        """Close the connection (idempotent)."""
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # ------------------------------------------------------------------ plumbing

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreClosed("the store is closed")
        return self._conn

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction; commits on success, rolls back on any exception.

        Raising ``_Rollback`` inside the block rolls back and is swallowed. Raises ``StoreBusy`` if
        another connection keeps the write lock past ``busy_timeout``.
        """
        async with self._lock:
            conn = self._connection()
            try:
                await conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StoreBusy(f"could not start a write transaction: {exc}") from exc
            try:
                yield conn
            except _Rollback:
                await conn.rollback()
            except BaseException:
                await conn.rollback()
                raise
            else:
                await conn.commit()

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
    async def _require_game(conn: aiosqlite.Connection, game_id: int) -> None:
        async with conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)) as cursor:
            if await cursor.fetchone() is None:
                raise GameNotFound(game_id)

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        *,
        game: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options_json: str,
        seed: int,
        now: float,
    ) -> int:
        """Create a game in the lobby (version 0) and return its id."""
        sql = (
            "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, version,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, 0, ?, ?)"
        )
        params = (game, guild_id, channel_id, host_id, options_json, seed, now, now)
        async with self._write() as conn, conn.execute(sql, params) as cursor:
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    async def get_game(self, game_id: int) -> GameRow | None:
        """Return the game or None."""
        row = await self._fetchone(f"SELECT {_cols(GameRow)} FROM games WHERE id = ?", (game_id,))
        return GameRow(*row) if row else None

    async def list_games(
        self, guild_id: int, statuses: Collection[str] | None = None, channel_id: int | None = None
    ) -> list[GameRow]:
        """Games of a guild, optionally filtered by status and channel, oldest first."""
        sql, params = f"SELECT {_cols(GameRow)} FROM games WHERE guild_id = ?", [guild_id]
        if statuses is not None:
            if not statuses:
                return []
            sql += f" AND status IN ({_marks(statuses)})"
            params += list(statuses)
        if channel_id is not None:
            sql += " AND channel_id = ?"
            params.append(channel_id)
        return [GameRow(*row) for row in await self._fetchall(sql + " ORDER BY id", params)]

    async def list_active_games(self) -> list[GameRow]:
        """All active games of all guilds, oldest first (to resume them when the bot starts)."""
        rows = await self._fetchall(f"SELECT {_cols(GameRow)} FROM games WHERE status = 'active' ORDER BY id")
        return [GameRow(*row) for row in rows]

    async def set_status(self, game_id: int, status: str, now: float, result_json: str | None = None) -> None:
        """Set the status (and the result if given). Raises ``GameNotFound``/``InvalidStatus``."""
        sql = "UPDATE games SET status = ?, updated_at = ?, result = COALESCE(?, result) WHERE id = ?"
        if not await self._execute(sql, (_check_status(status), now, result_json, game_id)):
            raise GameNotFound(game_id)

    async def set_host(self, game_id: int, user_id: int, now: float) -> None:
        """Hand the table to another user. Raises ``GameNotFound``."""
        sql = "UPDATE games SET host_id = ?, updated_at = ? WHERE id = ?"
        if not await self._execute(sql, (user_id, now, game_id)):
            raise GameNotFound(game_id)

    async def set_options(self, game_id: int, options_json: str, now: float) -> None:
        """Replace the options of a lobby game. Raises ``NotInLobby`` or ``GameNotFound``."""
        sql = "UPDATE games SET options = ?, updated_at = ? WHERE id = ? AND status = 'lobby'"
        async with self._write() as conn:
            async with conn.execute(sql, (options_json, now, game_id)) as cursor:
                changed = cursor.rowcount
            if not changed:
                await self._require_game(conn, game_id)
                raise NotInLobby(game_id)

    # ------------------------------------------------------------------ seats

    async def add_seat(self, game_id: int, user_id: int, name: str) -> int:
        """Seat a user at the next seat number and return it. Raises ``AlreadySeated``/``GameNotFound``."""
        async with self._write() as conn:
            await self._require_game(conn, game_id)
            sql = "SELECT 1 FROM seats WHERE game_id = ? AND user_id = ?"
            async with conn.execute(sql, (game_id, user_id)) as cursor:
                if await cursor.fetchone() is not None:
                    raise AlreadySeated(game_id, user_id)
            sql = "SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE game_id = ?"
            async with conn.execute(sql, (game_id,)) as cursor:
                row = await cursor.fetchone()
            seat = int(row[0]) if row else 0
            sql = "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)"
            await conn.execute(sql, (game_id, seat, user_id, name))
            return seat

    async def remove_seat(self, game_id: int, user_id: int) -> bool:
        """Unseat a user; later seats move down to keep 0..n-1 in join order. False if not seated."""
        async with self._write() as conn:
            sql = "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?"
            async with conn.execute(sql, (game_id, user_id)) as cursor:
                row = await cursor.fetchone()
            if row is None:
                raise _Rollback
            await conn.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            # Two steps through negative numbers so no intermediate state breaks UNIQUE(game_id, seat).
            sql = "UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat > ?"
            await conn.execute(sql, (game_id, row[0]))
            await conn.execute("UPDATE seats SET seat = -seat - 2 WHERE game_id = ? AND seat < 0", (game_id,))
            return True
        return False

    async def get_seats(self, game_id: int) -> list[SeatRow]:
        """The game's seats ordered by seat number."""
        sql = f"SELECT {_cols(SeatRow)} FROM seats WHERE game_id = ? ORDER BY seat"
        return [_seat(row) for row in await self._fetchall(sql, (game_id,))]

    async def set_seat_dm_blocked(self, game_id: int, user_id: int, blocked: bool) -> None:
        """Record whether DMs to this seated user fail. Raises ``SeatNotFound``."""
        sql = "UPDATE seats SET dm_blocked = ? WHERE game_id = ? AND user_id = ?"
        if not await self._execute(sql, (int(blocked), game_id, user_id)):
            raise SeatNotFound(game_id, f"user {user_id}")

    async def set_seat_thread(self, game_id: int, user_id: int, thread_id: int | None) -> None:
        """Record (or clear with None) the user's private thread. Raises ``SeatNotFound``."""
        sql = "UPDATE seats SET private_thread_id = ? WHERE game_id = ? AND user_id = ?"
        if not await self._execute(sql, (thread_id, game_id, user_id)):
            raise SeatNotFound(game_id, f"user {user_id}")

    async def replace_seat_user(self, game_id: int, seat: int, user_id: int, name: str) -> None:
        """Give a seat to another user (substitution); resets dm_blocked and thread if the user changes.

        Raises ``SeatNotFound`` or ``AlreadySeated`` (the new user holds another seat).
        """
        sql = (
            "UPDATE seats SET"
            " dm_blocked = CASE WHEN user_id = ? THEN dm_blocked ELSE 0 END,"
            " private_thread_id = CASE WHEN user_id = ? THEN private_thread_id END,"
            " user_id = ?, name = ? WHERE game_id = ? AND seat = ?"
        )
        try:
            changed = await self._execute(sql, (user_id, user_id, user_id, name, game_id, seat))
        except sqlite3.IntegrityError as exc:
            raise AlreadySeated(game_id, user_id) from exc
        if not changed:
            raise SeatNotFound(game_id, f"seat {seat}")

    async def games_for_user(self, user_id: int, statuses: Collection[str] | None = None) -> list[GameRow]:
        """Games where the user holds a seat, optionally filtered by status, oldest first."""
        sql = f"SELECT {_cols(GameRow, 'g.')} FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ?"
        params: list[Any] = [user_id]
        if statuses is not None:
            if not statuses:
                return []
            sql += f" AND g.status IN ({_marks(statuses)})"
            params += list(statuses)
        return [GameRow(*row) for row in await self._fetchall(sql + " ORDER BY g.id", params)]

    # ------------------------------------------------------------------ choices and snapshots

    async def start_game(self, game_id: int, snapshot_json: str, now: float) -> bool:
        """Lobby -> active with the initial snapshot at version 0; False unless lobby at version 0."""
        sql = "UPDATE games SET status = 'active', updated_at = ? WHERE id = ? AND status = 'lobby' AND version = 0"
        async with self._write() as conn:
            async with conn.execute(sql, (now, game_id)) as cursor:
                if cursor.rowcount != 1:
                    raise _Rollback
            await self._put_snapshot(conn, game_id, 0, snapshot_json)
            return True
        return False

    async def append_choice(
        self,
        game_id: int,
        expected_version: int,
        choice_json: str,
        snapshot_json: str,
        now: float,
        actor_id: int | None = None,
        status: str | None = None,
        result_json: str | None = None,
    ) -> bool:
        """Record one choice at index ``expected_version`` if the game is active at that version.

        Atomically bumps the version, stores the choice and the snapshot for the new version, and
        optionally sets status/result. Returns False (nothing written) if the board moved on or the
        game is not active. Durable when it returns True.
        """
        choices = [(choice_json, actor_id)]
        return await self.append_choices(
            game_id, expected_version, choices, snapshot_json, now, status=status, result_json=result_json
        )

    async def append_choices(
        self,
        game_id: int,
        expected_version: int,
        choices: Iterable[tuple[str, int | None]],
        snapshot_json: str,
        now: float,
        status: str | None = None,
        result_json: str | None = None,
    ) -> bool:
        """Like ``append_choice`` for several ``(choice_json, actor_id)`` at once, all or nothing.

        The choices get indexes ``expected_version ..``; the snapshot is stored at the final version.
        """
        batch = list(choices)
        if not batch:
            raise ValueError("append_choices needs at least one choice")
        if status is not None:
            _check_status(status)
        new_version = expected_version + len(batch)
        sql = (
            "UPDATE games SET version = ?, updated_at = ?, last_move_at = ?, status = COALESCE(?, status),"
            " result = COALESCE(?, result) WHERE id = ? AND version = ? AND status = 'active'"
        )
        params = (new_version, now, now, status, result_json, game_id, expected_version)
        rows = [(game_id, expected_version + i, c, now, actor) for i, (c, actor) in enumerate(batch)]
        async with self._write() as conn:
            async with conn.execute(sql, params) as cursor:
                if cursor.rowcount != 1:
                    raise _Rollback
            sql = "INSERT INTO choices (game_id, idx, choice, created_at, actor_id) VALUES (?, ?, ?, ?, ?)"
            await conn.executemany(sql, rows)
            await self._put_snapshot(conn, game_id, new_version, snapshot_json)
            return True
        return False

    @staticmethod
    async def _put_snapshot(conn: aiosqlite.Connection, game_id: int, version: int, state: str) -> None:
        sql = (
            "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state"
        )
        await conn.execute(sql, (game_id, version, state))

    async def get_choices(self, game_id: int) -> list[str]:
        """The game's choice JSON strings in index order."""
        rows = await self._fetchall("SELECT choice FROM choices WHERE game_id = ? ORDER BY idx", (game_id,))
        return [row[0] for row in rows]

    async def get_choice_rows(self, game_id: int) -> list[ChoiceRow]:
        """The full choice records (with actor and time) in index order."""
        sql = f"SELECT {_cols(ChoiceRow)} FROM choices WHERE game_id = ? ORDER BY idx"
        return [ChoiceRow(*row) for row in await self._fetchall(sql, (game_id,))]

    async def get_snapshot(self, game_id: int) -> tuple[int, str] | None:
        """``(version, state_json)`` of the cached snapshot, or None."""
        row = await self._fetchone("SELECT version, state FROM snapshots WHERE game_id = ?", (game_id,))
        return (row[0], row[1]) if row else None

    # ------------------------------------------------------------------ messages

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int, key: str = "") -> None:
        """Remember (or replace) the message of this kind/key that the game owns."""
        sql = (
            'INSERT INTO messages (game_id, kind, "key", channel_id, message_id) VALUES (?, ?, ?, ?, ?)'
            ' ON CONFLICT (game_id, kind, "key") DO UPDATE'
            " SET channel_id = excluded.channel_id, message_id = excluded.message_id"
        )
        await self._execute(sql, (game_id, kind, key, channel_id, message_id))

    async def get_message(self, game_id: int, kind: str, key: str = "") -> MessageRow | None:
        """The owned message of this kind/key, or None."""
        sql = f'SELECT {_cols(MessageRow)} FROM messages WHERE game_id = ? AND kind = ? AND "key" = ?'
        row = await self._fetchone(sql, (game_id, kind, key))
        return MessageRow(*row) if row else None

    async def find_message(self, message_id: int) -> MessageRow | None:
        """The owned-message record for a Discord message id (e.g. to route a button click), or None."""
        sql = f"SELECT {_cols(MessageRow)} FROM messages WHERE message_id = ? LIMIT 1"
        row = await self._fetchone(sql, (message_id,))
        return MessageRow(*row) if row else None

    async def list_messages(self, game_id: int) -> list[MessageRow]:
        """All messages the game owns, ordered by kind then key."""
        sql = f'SELECT {_cols(MessageRow)} FROM messages WHERE game_id = ? ORDER BY kind, "key"'
        return [MessageRow(*row) for row in await self._fetchall(sql, (game_id,))]

    async def delete_message(self, game_id: int, kind: str, key: str = "") -> bool:
        """Forget an owned message; False if there was none."""
        sql = 'DELETE FROM messages WHERE game_id = ? AND kind = ? AND "key" = ?'
        return bool(await self._execute(sql, (game_id, kind, key)))

    # ------------------------------------------------------------------ reminders

    async def set_reminder(self, game_id: int, user_id: int, kind: str, due_at: float) -> None:
        """Schedule (or reschedule) a reminder; resets its sent count to 0."""
        sql = (
            "INSERT INTO reminders (game_id, user_id, kind, due_at, count) VALUES (?, ?, ?, ?, 0)"
            " ON CONFLICT (game_id, user_id, kind) DO UPDATE SET due_at = excluded.due_at, count = 0"
        )
        await self._execute(sql, (game_id, user_id, kind, due_at))

    async def due_reminders(self, now: float) -> list[ReminderRow]:
        """Reminders with ``due_at <= now``, earliest first."""
        sql = f"SELECT {_cols(ReminderRow)} FROM reminders WHERE due_at <= ? ORDER BY due_at, game_id, user_id, kind"
        return [ReminderRow(*row) for row in await self._fetchall(sql, (now,))]

    async def bump_reminder(self, game_id: int, user_id: int, kind: str, next_due_at: float) -> bool:
        """Mark one more reminder sent and move it to ``next_due_at``; False if there is none."""
        sql = "UPDATE reminders SET count = count + 1, due_at = ? WHERE game_id = ? AND user_id = ? AND kind = ?"
        return bool(await self._execute(sql, (next_due_at, game_id, user_id, kind)))

    async def clear_reminders(self, game_id: int, user_id: int | None = None, kind: str | None = None) -> int:
        """Delete the game's reminders, optionally only a user's and/or a kind; return how many."""
        sql = "DELETE FROM reminders WHERE game_id = ? AND (? IS NULL OR user_id = ?) AND (? IS NULL OR kind = ?)"
        return await self._execute(sql, (game_id, user_id, user_id, kind, kind))

    # ------------------------------------------------------------------ real-time races

    async def add_claim(self, game_id: int, version: int, seat: int, choice_json: str, ts_ms: int, now: float) -> bool:
        """Record a seat's claim in the race at ``version``; False if that seat already claimed.

        Durable when it returns.
        """
        sql = (
            "INSERT INTO claims (game_id, version, seat, choice, ts_ms, received_at)"
            " VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, version, seat) DO NOTHING"
        )
        return bool(await self._execute(sql, (game_id, version, seat, choice_json, ts_ms, now)))

    async def get_claims(self, game_id: int, version: int) -> list[ClaimRow]:
        """Claims of the race at ``version``, earliest Discord timestamp first (then arrival, seat)."""
        sql = (
            f"SELECT {_cols(ClaimRow)} FROM claims WHERE game_id = ? AND version = ? ORDER BY ts_ms, received_at, seat"
        )
        return [ClaimRow(*row) for row in await self._fetchall(sql, (game_id, version))]

    async def clear_claims(self, game_id: int, version: int | None = None) -> int:
        """Delete the game's claims (only those of ``version`` if given); return how many."""
        sql = "DELETE FROM claims WHERE game_id = ? AND (? IS NULL OR version = ?)"
        return await self._execute(sql, (game_id, version, version))

    async def open_race(self, game_id: int, version: int, deadline: float) -> None:
        """Open (or replace) the game's race window for ``version`` closing at ``deadline``."""
        sql = (
            "INSERT INTO races (game_id, version, deadline) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, deadline = excluded.deadline"
        )
        await self._execute(sql, (game_id, version, deadline))

    async def get_race(self, game_id: int) -> RaceRow | None:
        """The game's open race, or None."""
        row = await self._fetchone(f"SELECT {_cols(RaceRow)} FROM races WHERE game_id = ?", (game_id,))
        return RaceRow(*row) if row else None

    async def close_race(self, game_id: int) -> bool:
        """Close the game's race window (claims are kept); False if none was open."""
        return bool(await self._execute("DELETE FROM races WHERE game_id = ?", (game_id,)))

    async def open_races(self) -> list[RaceRow]:
        """All open races, earliest deadline first (to restart timers after a restart)."""
        rows = await self._fetchall(f"SELECT {_cols(RaceRow)} FROM races ORDER BY deadline, game_id")
        return [RaceRow(*row) for row in rows]

    # ------------------------------------------------------------------ guild settings

    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The guild's settings dict ({} if never set)."""
        row = await self._fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return dict(json.loads(row[0])) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: Mapping[str, Any]) -> None:
        """Replace the guild's settings with a JSON-serialisable mapping."""
        sql = (
            "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings"
        )
        await self._execute(sql, (guild_id, json.dumps(dict(settings), sort_keys=True)))
