"""Finished games, newest first (issue 26's ``/game history``): of a server, of a person, or both."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import Base, cols
from .rows import GameRow, SeatRow

#: How a game can have ended: by the rules, by its players' agreement, or abandoned after it started.
ENDED = ("finished", "ended", "abandoned")


class History(Base):
    """The games that ended, for the history pages."""

    async def past_games(
        self, guild_id: int | None, user_id: int | None, limit: int, offset: int = 0
    ) -> tuple[list[GameRow], int]:
        """A page of the games that ended (a lobby closed before it started is not one), newest first, in a
        server (``guild_id``), of a person (``user_id``: they held a seat at its end, or a bot played theirs), or
        both; and how many there are in all."""
        where = ["g.status IN (?, ?, ?)", "(g.status <> 'abandoned' OR g.version > 0)"]
        params: list[Any] = list(ENDED)
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        if user_id is not None:  # their seat at the end, or the seat a bot played for them (its rated identity)
            where.append(
                "g.id IN (SELECT game_id FROM seats WHERE user_id = ?"
                " UNION SELECT game_id FROM rated_players WHERE identity = ?)"
            )
            params += [user_id, f"u:{int(user_id)}"]
        clause = " AND ".join(where)
        total = await self._fetchone(f"SELECT COUNT(*) FROM games g WHERE {clause}", params)
        sql = f"SELECT {cols(GameRow, 'g.')} FROM games g WHERE {clause} ORDER BY g.updated_at DESC, g.id DESC"
        rows = await self._fetchall(sql + " LIMIT ? OFFSET ?", [*params, limit, offset])
        return [GameRow(*r) for r in rows], int(total[0]) if total else 0

    async def seats_of(self, game_ids: Sequence[int]) -> dict[int, list[SeatRow]]:
        """The seats of several games, by game id, in seat order."""
        if not game_ids:
            return {}
        marks = ", ".join("?" * len(game_ids))
        sql = f"SELECT {cols(SeatRow)} FROM seats WHERE game_id IN ({marks}) ORDER BY game_id, seat"
        out: dict[int, list[SeatRow]] = {g: [] for g in game_ids}
        for r in await self._fetchall(sql, tuple(game_ids)):
            values = list(r)
            values[4] = bool(values[4])
            out[int(values[0])].append(SeatRow(*values))  # type: ignore[arg-type]
        return out

    async def move_times(self, user_id: int, games: int = 100) -> tuple[float, int]:
        """How long a person took to move, on average, over their last ``games`` games that ended: the time from
        the choice before each of theirs (anyone's, in the same game) to theirs; and how many moves that is."""
        sql = (
            "SELECT AVG(created_at - prev), COUNT(*) FROM ("
            " SELECT actor_id, created_at, LAG(created_at) OVER (PARTITION BY game_id ORDER BY idx) AS prev"
            " FROM choices WHERE game_id IN ("
            "  SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ?"
            "  AND g.status IN ('finished', 'ended', 'abandoned') ORDER BY g.id DESC LIMIT ?)"
            ") t WHERE actor_id = ? AND prev IS NOT NULL"
        )
        row = await self._fetchone(sql, (user_id, games, user_id))
        if row is None or not row[1]:
            return 0.0, 0
        return float(row[0]), int(row[1])

    async def events_of(self, game_ids: Sequence[int], kinds: Sequence[str]) -> list[tuple[int, str, str]]:
        """``(game id, kind, data JSON)`` of the public events of these kinds in these games, in order."""
        if not game_ids or not kinds:
            return []
        sql = (
            f"SELECT game_id, kind, data FROM events WHERE game_id IN ({', '.join('?' * len(game_ids))})"
            f" AND kind IN ({', '.join('?' * len(kinds))}) AND seats IS NULL ORDER BY id"
        )
        return [(int(r[0]), str(r[1]), str(r[2] or "{}")) for r in await self._fetchall(sql, (*game_ids, *kinds))]
