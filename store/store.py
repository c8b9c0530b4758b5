"""The ``Store``: persistence for hosted games, on SQLite (a file) or PostgreSQL (a ``postgresql://`` URL).

Usage::

    store = await Store.open("speakeasy.db")   # or ":memory:" in tests
    store = await Store.open("postgresql://postgres@127.0.0.1:5432/test")
    ...
    await store.close()

    async with await Store.open(target) as store:  # closes on exit
        ...

Every method runs one statement at a time behind an ``asyncio.Lock``; writes run in transactions that exclude
every other writer (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: an advisory lock), so a write is durable when its
method returns. Several ``Store`` objects (or processes) may share one database. The store knows no game rules:
options, states, choices and results are opaque JSON strings.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from .base import Backend, Rollback, cols, marks
from .errors import AlreadySeated, Conflict, GameNotFound, NotInLobby, SeatNotFound, TooManyOpen
from .history import History
from .migrations import MIGRATIONS, Migration
from .overview import Overview
from .people import People
from .pictures import Pictures
from .postgres import PostgresBackend, describe, is_postgres
from .record import check_status
from .rows import GameRow, SeatRow
from .sqlite import MEMORY, SqliteBackend
from .votes import Votes

DEFAULT_BUSY_TIMEOUT_MS = 5000

__all__ = ["DEFAULT_BUSY_TIMEOUT_MS", "MEMORY", "Store"]


def _seat(row: Sequence[Any]) -> SeatRow:
    game_id, seat, user_id, name, dm_blocked, thread_id = row
    return SeatRow(game_id, seat, user_id, name, bool(dm_blocked), thread_id)


class Store(History, Overview, People, Votes, Pictures):
    """Async persistence for games, seats, the choice record and the bot's bookkeeping."""

    def __init__(self, backend: Backend, path: str, schema_version: int, journal_mode: str) -> None:
        """Use ``await Store.open(target)`` instead."""
        super().__init__(backend)
        #: the SQLite path or the PostgreSQL URL (without its password)
        self.path = path
        self.schema_version = schema_version
        #: SQLite's journal mode (``"wal"`` for a file); empty on PostgreSQL
        self.journal_mode = journal_mode

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        migrations: Sequence[Migration | str] = MIGRATIONS,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    ) -> Store:
        """Open (creating if needed) the database at ``target`` and apply pending migrations.

        ``target`` is a SQLite path (``":memory:"``: a private in-memory database; files use WAL) or a
        ``postgresql://`` URL (see ``store.postgres``). Raises ``SchemaTooNew`` if the database was written by
        newer code, ``StoreError`` if a PostgreSQL server does not answer. ``migrations`` is for tests.
        """
        target = str(target)
        backend: SqliteBackend | PostgresBackend
        if is_postgres(target):
            backend = await PostgresBackend.open(target, busy_timeout_ms)
        else:
            backend = await SqliteBackend.open(target, busy_timeout_ms)
        try:
            version = await backend.migrate(migrations)
        except BaseException:
            await backend.close()
            raise
        return cls(backend, describe(target), version, backend.journal_mode)

    async def close(self) -> None:
        """Close the connection (idempotent)."""
        async with self._lock:
            backend, self._backend = self._backend, None
            if backend is not None:
                await backend.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

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
        host_name: str | None = None,
        max_in_channel: int | None = None,
        max_hosted: int | None = None,
        rematch_of: int | None = None,
    ) -> int:
        """Create a game in the lobby (version 0) and return its id. With ``host_name`` the host takes seat 0 in
        the same transaction, so a crash never leaves a lobby without its host. ``max_in_channel``: refuse
        (``TooManyOpen``, nothing written) when the channel (or a game's thread in it) already has that many open
        games, lobby or active; ``max_hosted``: when the host already hosts that many lobbies in the server. Both
        are counted inside the transaction, which excludes every other writer: two requests at once cannot both
        slip under a limit. ``rematch_of``: the game this one is the rematch of; a game has one rematch (a second
        raises ``Conflict``, nothing written)."""
        columns = "game, guild_id, channel_id, host_id, status, options, seed, version, created_at, updated_at"
        values = "?, ?, ?, ?, 'lobby', ?, ?, 0, ?, ?"
        params: tuple[Any, ...] = (game, guild_id, channel_id, host_id, options_json, seed, now, now)
        if rematch_of is not None:  # named only when given: the migration tests write games at older versions
            columns, values, params = f"{columns}, rematch_of", f"{values}, ?", (*params, rematch_of)
        sql = f"INSERT INTO games ({columns}) VALUES ({values}) RETURNING id"
        async with self._write() as conn:
            if max_in_channel is not None:
                count = (
                    "SELECT id FROM games WHERE guild_id = ? AND status IN ('lobby', 'active')"
                    " AND (channel_id = ? OR thread_id = ?) ORDER BY id"
                )
                ids = [int(r[0]) for r in (await conn.execute(count, (guild_id, channel_id, channel_id))).rows]
                if len(ids) >= max_in_channel:
                    raise TooManyOpen("channel", ids)
            if max_hosted is not None:
                count = "SELECT id FROM games WHERE guild_id = ? AND host_id = ? AND status = 'lobby' ORDER BY id"
                ids = [int(r[0]) for r in (await conn.execute(count, (guild_id, host_id))).rows]
                if len(ids) >= max_hosted:
                    raise TooManyOpen("host", ids)
            row = (await conn.execute(sql, params)).fetchone()
            assert row is not None
            game_id = int(row[0])
            if host_name is not None:
                seat = "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)"
                await conn.execute(seat, (game_id, host_id, host_name))
            return game_id

    async def rematch_of(self, game_id: int) -> GameRow | None:
        """The rematch of a game (issue 26), or None."""
        row = await self._fetchone(f"SELECT {cols(GameRow)} FROM games WHERE rematch_of = ?", (game_id,))
        return GameRow(*row) if row else None

    async def stale_lobbies(self, opened_before: float, limit: int = 100) -> list[GameRow]:
        """Lobbies opened at or before ``opened_before`` and still not started, oldest first (at most ``limit``)."""
        sql = f"SELECT {cols(GameRow)} FROM games WHERE status = 'lobby' AND created_at <= ? ORDER BY id LIMIT ?"
        return [GameRow(*row) for row in await self._fetchall(sql, (opened_before, limit))]

    async def get_game(self, game_id: int) -> GameRow | None:
        """Return the game or None."""
        row = await self._fetchone(f"SELECT {cols(GameRow)} FROM games WHERE id = ?", (game_id,))
        return GameRow(*row) if row else None

    async def list_games(
        self, guild_id: int, statuses: Collection[str] | None = None, channel_id: int | None = None
    ) -> list[GameRow]:
        """Games of a guild, optionally filtered by status and channel, oldest first."""
        sql, params = f"SELECT {cols(GameRow)} FROM games WHERE guild_id = ?", [guild_id]
        if statuses is not None:
            if not statuses:
                return []
            sql += f" AND status IN ({marks(statuses)})"
            params += list(statuses)
        if channel_id is not None:  # a channel, or a game's own thread
            sql += " AND (channel_id = ? OR thread_id = ?)"
            params += [channel_id, channel_id]
        return [GameRow(*row) for row in await self._fetchall(sql + " ORDER BY id", params)]

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Record the public thread the game is played in. Raises ``GameNotFound``."""
        if not await self._execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id)):
            raise GameNotFound(game_id)

    async def list_active_games(self) -> list[GameRow]:
        """All active games of all guilds, oldest first (to resume them when the bot starts)."""
        rows = await self._fetchall(f"SELECT {cols(GameRow)} FROM games WHERE status = 'active' ORDER BY id")
        return [GameRow(*row) for row in rows]

    async def set_status(self, game_id: int, status: str, now: float, result_json: str | None = None) -> None:
        """Set the status (and the result if given). Raises ``GameNotFound``/``InvalidStatus``."""
        sql = "UPDATE games SET status = ?, updated_at = ?, result = COALESCE(?, result) WHERE id = ?"
        if not await self._execute(sql, (check_status(status), now, result_json, game_id)):
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
            if not (await conn.execute(sql, (options_json, now, game_id))).rowcount:
                await self._require_game(conn, game_id)
                raise NotInLobby(game_id)

    # ------------------------------------------------------------------ seats

    async def add_seat(self, game_id: int, user_id: int, name: str) -> int:
        """Seat a user at the next seat number and return it. Raises ``AlreadySeated``/``GameNotFound``."""
        async with self._write() as conn:
            await self._require_game(conn, game_id)
            sql = "SELECT 1 FROM seats WHERE game_id = ? AND user_id = ?"
            if (await conn.execute(sql, (game_id, user_id))).fetchone() is not None:
                raise AlreadySeated(game_id, user_id)
            sql = "SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE game_id = ?"
            row = (await conn.execute(sql, (game_id,))).fetchone()
            seat = int(row[0]) if row else 0
            sql = "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)"
            await conn.execute(sql, (game_id, seat, user_id, name))
            return seat

    async def remove_seat(self, game_id: int, user_id: int) -> bool:
        """Unseat a user; later seats move down to keep 0..n-1 in join order. False if not seated."""
        async with self._write() as conn:
            sql = "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?"
            row = (await conn.execute(sql, (game_id, user_id))).fetchone()
            if row is None:
                raise Rollback
            await conn.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            # Two steps through negative numbers so no intermediate state breaks UNIQUE(game_id, seat).
            sql = "UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat > ?"
            await conn.execute(sql, (game_id, row[0]))
            await conn.execute("UPDATE seats SET seat = -seat - 2 WHERE game_id = ? AND seat < 0", (game_id,))
            return True
        return False

    async def get_seats(self, game_id: int) -> list[SeatRow]:
        """The game's seats ordered by seat number."""
        sql = f"SELECT {cols(SeatRow)} FROM seats WHERE game_id = ? ORDER BY seat"
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
        except Conflict as exc:
            raise AlreadySeated(game_id, user_id) from exc
        if not changed:
            raise SeatNotFound(game_id, f"seat {seat}")

    async def games_for_user(self, user_id: int, statuses: Collection[str] | None = None) -> list[GameRow]:
        """Games where the user holds a seat, optionally filtered by status, oldest first."""
        sql = f"SELECT {cols(GameRow, 'g.')} FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ?"
        params: list[Any] = [user_id]
        if statuses is not None:
            if not statuses:
                return []
            sql += f" AND g.status IN ({marks(statuses)})"
            params += list(statuses)
        return [GameRow(*row) for row in await self._fetchall(sql + " ORDER BY g.id", params)]
