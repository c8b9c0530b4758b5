"""The players' votes to end a game by agreement (issue 23): who agreed and when, kept in the store so that a
restart knows an open vote. A vote is open while its game has rows; each agreement, and a refusal that clears
the vote, is written with its log lines and what must be posted (``Move``), in one transaction."""

from __future__ import annotations

from .base import Rollback
from .bookkeeping import Bookkeeping
from .record import Move


class Votes(Bookkeeping):
    """Votes to end a game by agreement."""

    async def get_end_votes(self, game_id: int) -> dict[int, float]:
        """``{user_id: agreed_at}`` of the game's open vote (empty: no vote), earliest first."""
        sql = "SELECT user_id, agreed_at FROM end_votes WHERE game_id = ? ORDER BY agreed_at, user_id"
        return {int(u): float(at) for u, at in await self._fetchall(sql, (game_id,))}

    async def agree_end(self, game_id: int, user_id: int, now: float, move: Move, *, fresh: bool = False) -> bool:
        """Record ``user_id``'s agreement to end the active game, with the events and outbox of ``move``; ``fresh``:
        a new proposal, whose earlier votes (a lapsed vote) are dropped first. False (nothing written) if the
        game is not active, or the user had agreed already to the vote this one would join."""
        if move.choices:
            raise ValueError("a vote takes no choices")
        async with self._write() as conn:
            cursor = await conn.execute("SELECT 1 FROM games WHERE id = ? AND status = 'active'", (game_id,))
            if cursor.fetchone() is None:
                raise Rollback
            if fresh:
                await conn.execute("DELETE FROM end_votes WHERE game_id = ?", (game_id,))
            sql = "INSERT INTO end_votes (game_id, user_id, agreed_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
            if (await conn.execute(sql, (game_id, user_id, now))).rowcount != 1:
                raise Rollback
            await self._insert_events(conn, game_id, move.events)
            await self._bookkeeping(conn, game_id, move)
            return True
        return False

    async def clear_end_votes(self, game_id: int, move: Move | None = None) -> bool:
        """Drop the game's open vote (a refusal), with the events and outbox of ``move``; False (nothing
        written) if there was no vote."""
        async with self._write() as conn:
            if (await conn.execute("DELETE FROM end_votes WHERE game_id = ?", (game_id,))).rowcount < 1:
                raise Rollback
            if move is not None:
                await self._insert_events(conn, game_id, move.events)
                await self._bookkeeping(conn, game_id, move)
            return True
        return False
