"""The game record: the append-only choices, the snapshot cache, the log events, and the one transaction
that commits a move with everything it changes (race window, claims, reminders, what must be posted)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .base import Rollback, _Conn, cols
from .errors import InvalidStatus
from .rated import RatedGame, Ratings
from .rows import GAME_STATUSES, ChoiceRow, EventRow


def check_status(status: str) -> str:
    """``status`` if it is one of ``GAME_STATUSES``; ``InvalidStatus`` otherwise."""
    if status not in GAME_STATUSES:
        raise InvalidStatus(status)
    return status


#: (Re)arm a reminder: its count back to 0 and its wait beginning at the game's version (already the new one
#: inside a move's transaction)
ARM_REMINDER = (
    "INSERT INTO reminders (game_id, user_id, kind, due_at, count, since)"
    " VALUES (?, ?, ?, ?, 0, (SELECT version FROM games WHERE id = ?))"
    " ON CONFLICT (game_id, user_id, kind) DO UPDATE SET due_at = excluded.due_at, count = 0, since = excluded.since"
)

#: Bring a reminder forward to a new due time, keeping how many were sent in its wait (so its next message is a
#: new one: a message's nonce names the wait and the count); a reminder not there is armed afresh.
AGAIN_REMINDER = (
    "INSERT INTO reminders (game_id, user_id, kind, due_at, count, since)"
    " VALUES (?, ?, ?, ?, 0, (SELECT version FROM games WHERE id = ?))"
    " ON CONFLICT (game_id, user_id, kind) DO UPDATE SET due_at = excluded.due_at"
)


@dataclass
class Move:
    """Everything one move writes, in one transaction: all of it is committed, or none of it.

    ``events`` are ``(pos, kind, seats_json | None, text, data_json)``; ``pos`` is 0 for the set-up and
    ``i + 1`` for the choice at index ``i``. A move closes any race window of the version it was made at and
    drops that window's claims; ``race_deadline`` opens the window of the new version.
    """

    choices: list[tuple[str, int | None]]
    snapshot: str
    now: float
    events: list[tuple[int, str, str | None, str, str]] = field(default_factory=list)
    status: str | None = None
    result_json: str | None = None
    race_deadline: float | None = None
    #: ``(user_id, kind)`` reminders to drop, ``(user_id, kind, due_at)`` reminders to (re)arm
    reminders_off: list[tuple[int, str]] = field(default_factory=list)
    reminders_on: list[tuple[int, str, float]] = field(default_factory=list)
    #: ``(user_id, kind, due_at)`` reminders brought forward within their wait (their count kept)
    reminders_again: list[tuple[int, str, float]] = field(default_factory=list)
    clear_reminders: bool = False
    #: ``(kind, user_id, body_json)``: what must still be said (e.g. private lines), delivered and deleted later
    outbox: list[tuple[str, int | None, str]] = field(default_factory=list)
    #: why the table made each choice (``"deadline"``: its player's time ran out; None: someone made it), by
    #: index into ``choices``; shorter than ``choices`` (e.g. empty) means None for the rest
    causes: list[str | None] = field(default_factory=list)
    #: a game that finishes by the rules: its places for the ratings, written with its result (issue 26)
    rating: RatedGame | None = None


class Record(Ratings):
    """Choices, snapshots, events and moves."""

    async def start_game(self, game_id: int, snapshot_json: str, now: float, move: Move | None = None) -> bool:
        """Lobby -> active with the initial snapshot at version 0 (and the set-up's events, reminders and
        outbox of ``move``); False unless the game is in the lobby at version 0."""
        sql = "UPDATE games SET status = 'active', updated_at = ? WHERE id = ? AND status = 'lobby' AND version = 0"
        async with self._write() as conn:
            cursor = await conn.execute(sql, (now, game_id))
            if cursor.rowcount != 1:
                raise Rollback
            await self._put_snapshot(conn, game_id, 0, snapshot_json)
            if move is not None:
                await self._side_effects(conn, game_id, 0, 0, move)
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
        """Record one choice at index ``expected_version`` if the game is active at that version (see
        ``commit_move``). Durable when it returns True."""
        move = Move([(choice_json, actor_id)], snapshot_json, now, status=status, result_json=result_json)
        return await self.commit_move(game_id, expected_version, move)

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
        """Like ``append_choice`` for several ``(choice_json, actor_id)`` at once, all or nothing."""
        move = Move(list(choices), snapshot_json, now, status=status, result_json=result_json)
        return await self.commit_move(game_id, expected_version, move)

    async def commit_move(self, game_id: int, expected_version: int, move: Move) -> bool:
        """Commit a move if the game is active at ``expected_version`` (compare-and-set: of two racing moves
        exactly one wins). The choices get indexes ``expected_version ..``; the version, snapshot, events,
        race window, claims, reminders and outbox change together. False (nothing written) if the board moved
        on or the game is not active. Durable when it returns True."""
        if not move.choices:
            raise ValueError("a move needs at least one choice (table_event records a move without one)")
        if move.status is not None:
            check_status(move.status)
        new_version = expected_version + len(move.choices)
        sql = (
            "UPDATE games SET version = ?, updated_at = ?, last_move_at = ?, status = COALESCE(?, status),"
            " result = COALESCE(?, result) WHERE id = ? AND version = ? AND status = 'active'"
        )
        now = move.now
        params = (new_version, now, now, move.status, move.result_json, game_id, expected_version)
        causes = move.causes + [None] * (len(move.choices) - len(move.causes))
        rows = [(game_id, expected_version + i, c, now, actor, causes[i]) for i, (c, actor) in enumerate(move.choices)]
        async with self._write() as conn:
            cursor = await conn.execute(sql, params)
            if cursor.rowcount != 1:
                raise Rollback
            sql = "INSERT INTO choices (game_id, idx, choice, created_at, actor_id, cause) VALUES (?, ?, ?, ?, ?, ?)"
            await conn.executemany(sql, rows)
            await self._put_snapshot(conn, game_id, new_version, move.snapshot)
            await self._side_effects(conn, game_id, expected_version, new_version, move)
            if move.rating is not None and move.status == "finished":
                await self._rate(conn, game_id, now, move.rating)
            return True
        return False

    async def _side_effects(self, conn: _Conn, game_id: int, old: int, new: int, move: Move) -> None:
        """Events, the race window, claims, reminders and the outbox of a move (inside its transaction)."""
        await self._insert_events(conn, game_id, move.events)
        await conn.execute("DELETE FROM races WHERE game_id = ?", (game_id,))
        await conn.execute("DELETE FROM claims WHERE game_id = ? AND version < ?", (game_id, new))
        if move.race_deadline is not None:
            sql = "INSERT INTO races (game_id, version, deadline) VALUES (?, ?, ?)"
            await conn.execute(sql, (game_id, new, move.race_deadline))
        await self._bookkeeping(conn, game_id, move)

    @staticmethod
    async def _bookkeeping(conn: _Conn, game_id: int, move: Move) -> None:
        """Reminders and the outbox of a move (inside its transaction)."""
        if move.clear_reminders:
            await conn.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
        for user_id, kind in move.reminders_off:
            sql = "DELETE FROM reminders WHERE game_id = ? AND user_id = ? AND kind = ?"
            await conn.execute(sql, (game_id, user_id, kind))
        for user_id, kind, due in move.reminders_on:
            await conn.execute(ARM_REMINDER, (game_id, user_id, kind, due, game_id))
        for user_id, kind, due in move.reminders_again:
            await conn.execute(AGAIN_REMINDER, (game_id, user_id, kind, due, game_id))
        if move.outbox:
            sql = "INSERT INTO outbox (game_id, kind, user_id, body, created_at, due_at) VALUES (?, ?, ?, ?, ?, ?)"
            await conn.executemany(sql, [(game_id, k, u, b, move.now, move.now) for k, u, b in move.outbox])

    @staticmethod
    async def _put_snapshot(conn: _Conn, game_id: int, version: int, state: str) -> None:
        sql = (
            "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state"
        )
        await conn.execute(sql, (game_id, version, state))

    async def table_event(self, game_id: int, expected_version: int, move: Move) -> bool:
        """Events, reminders and outbox of something the table did without a choice (e.g. a seat changing
        hands), committed together if the game is still at ``expected_version``; False otherwise."""
        if move.choices:
            raise ValueError("table_event takes no choices; use commit_move")
        async with self._write() as conn:
            sql = "SELECT 1 FROM games WHERE id = ? AND version = ?"
            cursor = await conn.execute(sql, (game_id, expected_version))
            if cursor.fetchone() is None:
                raise Rollback
            await self._insert_events(conn, game_id, move.events)
            await self._bookkeeping(conn, game_id, move)
            return True
        return False

    async def end_game(
        self, game_id: int, status: str, now: float, statuses: tuple[str, ...], move: Move | None = None
    ) -> bool:
        """Set a final status (e.g. abandoned) if the game is in one of ``statuses``, dropping its reminders,
        race window, claims, offers and votes to end it, and adding the events of ``move`` (and its
        ``result_json``, e.g. the standings of a game ended by agreement) in the same transaction; False if it
        was not."""
        check_status(status)
        result = move.result_json if move is not None else None
        sql = (
            "UPDATE games SET status = ?, updated_at = ?, result = COALESCE(?, result)"
            f" WHERE id = ? AND status IN ({', '.join('?' * len(statuses))})"
        )
        async with self._write() as conn:
            cursor = await conn.execute(sql, (status, now, result, game_id, *statuses))
            if cursor.rowcount != 1:
                raise Rollback
            for table in ("reminders", "races", "claims", "offers", "end_votes"):
                await conn.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            if move is not None:
                await self._insert_events(conn, game_id, move.events)
                await self._bookkeeping(conn, game_id, move)
            return True
        return False

    async def get_choices(self, game_id: int) -> list[str]:
        """The game's choice JSON strings in index order."""
        rows = await self._fetchall("SELECT choice FROM choices WHERE game_id = ? ORDER BY idx", (game_id,))
        return [row[0] for row in rows]

    async def get_choice_rows(self, game_id: int, since: int = 0) -> list[ChoiceRow]:
        """The full choice records (with actor and time) in index order, from index ``since`` on."""
        sql = f"SELECT {cols(ChoiceRow)} FROM choices WHERE game_id = ? AND idx >= ? ORDER BY idx"
        return [ChoiceRow(*row) for row in await self._fetchall(sql, (game_id, since))]

    async def get_snapshot(self, game_id: int) -> tuple[int, str] | None:
        """``(version, state_json)`` of the cached snapshot, or None."""
        row = await self._fetchone("SELECT version, state FROM snapshots WHERE game_id = ?", (game_id,))
        return (row[0], row[1]) if row else None

    # ------------------------------------------------------------------ events (the log)

    async def get_events(
        self, game_id: int, *, since: int = 0, until: int | None = None, public_only: bool = False
    ) -> list[EventRow]:
        """Events with ``since <= pos <= until`` (all if ``until`` is None), in order."""
        sql = (
            f"SELECT {cols(EventRow)} FROM events WHERE game_id = ? AND pos >= ?"
            " AND (CAST(? AS BIGINT) IS NULL OR pos <= ?)"
        )
        if public_only:
            sql += " AND seats IS NULL"
        rows = await self._fetchall(sql + " ORDER BY id", (game_id, since, until, until))
        return [EventRow(*row) for row in rows]

    async def events_after(self, game_id: int, after_id: int) -> list[EventRow]:
        """The game's events with an id above ``after_id`` (what a message has not shown yet), in order."""
        sql = f"SELECT {cols(EventRow)} FROM events WHERE game_id = ? AND id > ? ORDER BY id"
        return [EventRow(*row) for row in await self._fetchall(sql, (game_id, after_id))]

    async def last_event_id(self, game_id: int) -> int:
        """The id of the game's latest event (0: none)."""
        row = await self._fetchone("SELECT COALESCE(MAX(id), 0) FROM events WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    async def put_events(self, game_id: int, events: list[tuple[int, str, str | None, str, str]]) -> None:
        """Store the events of a game that has none yet (a database written before events were kept)."""
        async with self._write() as conn:
            cursor = await conn.execute("SELECT 1 FROM events WHERE game_id = ? LIMIT 1", (game_id,))
            if cursor.fetchone() is not None:
                raise Rollback
            await self._insert_events(conn, game_id, events)

    @staticmethod
    async def _insert_events(conn: _Conn, game_id: int, events: list[tuple[int, str, str | None, str, str]]) -> None:
        """Insert events in order (their ids keep that order)."""
        if events:
            sql = "INSERT INTO events (game_id, pos, kind, seats, text, data) VALUES (?, ?, ?, ?, ?, ?)"
            await conn.executemany(sql, [(game_id, *e) for e in events])

    async def games_without_events(self) -> list[int]:
        """Started games whose log events were never stored (written by an older version of the bot)."""
        sql = (
            "SELECT id FROM games g WHERE status IN ('active', 'finished')"
            " AND NOT EXISTS (SELECT 1 FROM events e WHERE e.game_id = g.id) ORDER BY id"
        )
        return [int(r[0]) for r in await self._fetchall(sql)]
