"""A person's games across every server (issue 23, ``/games``): one query for the seats a user holds in open
games, with when each one's wait began and the message that asks (the lobby message, or the game's board)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from .base import Base, cols
from .rows import GameRow

#: the owned message a list of games links to: a lobby's message while it waits for players, the board (the
#: message of the turn now, which mentions who must act) once it runs
LOBBY_MESSAGE, BOARD_MESSAGE = "lobby", "board"


@dataclass(frozen=True, slots=True)
class SeatedRow:
    """A seat a user holds in an open game (lobby or active), with what a list of their games shows."""

    game: GameRow
    seat: int
    #: when the seat's wait began, if the game waits for it (a Unix time): the time of the move that made its turn
    #: (read from its turn reminder: the version the wait began at, and that move's time in the record); a game
    #: without a reminder for the seat: its last move, else its start. A lobby: when it opened
    since: float
    #: the game's version when the wait began (-1: no turn reminder is armed for the seat)
    since_version: int
    #: where the message that asks is (``None``: not posted yet): the lobby message, or the board
    channel_id: int | None
    message_id: int | None
    #: when the seat's time runs out, if the table has a deadline and it runs for the seat (``None``: none; the
    #: seat's ``deadline`` reminder row, issue 23)
    deadline: float | None = None


_GAME = len(fields(GameRow))

# Each part of the row is one LEFT JOIN, so a column (a deadline) is one more join or one more expression:
# r: the seat's turn reminder (armed while the game waits for it; ``since`` the version its wait began at);
# c: the move that made that version (its time is when the wait began); c0: the first move (a wait since the
# start: the start itself is not recorded, so the first move's time, else the start's ``updated_at``);
# m: the message that asks; d: the seat's deadline (issue 23).
_SEATED = (
    f"SELECT {cols(GameRow, 'g.')}, s.seat,"
    " CASE WHEN g.status = 'lobby' THEN g.created_at"
    " WHEN r.since >= 1 THEN COALESCE(c.created_at, g.last_move_at, g.updated_at)"
    " WHEN r.since = 0 THEN COALESCE(c0.created_at, g.updated_at)"
    " ELSE COALESCE(g.last_move_at, g.updated_at) END,"
    " COALESCE(r.since, -1), m.channel_id, m.message_id, d.due_at"
    " FROM seats s JOIN games g ON g.id = s.game_id"
    " LEFT JOIN reminders r ON r.game_id = g.id AND r.user_id = s.user_id AND r.kind = 'turn'"
    " LEFT JOIN reminders d ON d.game_id = g.id AND d.user_id = s.user_id AND d.kind = 'deadline'"
    " LEFT JOIN choices c ON c.game_id = g.id AND c.idx = r.since - 1"
    " LEFT JOIN choices c0 ON c0.game_id = g.id AND c0.idx = 0"
    " LEFT JOIN messages m ON m.game_id = g.id AND m.\"key\" = ''"
    f" AND m.kind = CASE WHEN g.status = 'lobby' THEN '{LOBBY_MESSAGE}' ELSE '{BOARD_MESSAGE}' END"
    " WHERE s.user_id = ? AND g.status IN ('lobby', 'active') ORDER BY g.id"
)


def _seated(row: Sequence[Any]) -> SeatedRow:
    game = GameRow(*row[:_GAME])
    seat, since, since_version, channel_id, message_id = row[_GAME : _GAME + 5]
    return SeatedRow(game, int(seat), float(since), int(since_version), channel_id, message_id, *row[_GAME + 5 :])


class Overview(Base):
    """The games a person sits at."""

    async def seated_games(self, user_id: int) -> list[SeatedRow]:
        """The lobby and active games where ``user_id`` holds a seat, in every server, oldest first: each with
        when its wait for the seat began and the message that asks (finished and abandoned games are left out)."""
        return [_seated(row) for row in await self._fetchall(_SEATED, (user_id,))]
