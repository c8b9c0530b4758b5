"""Where is it my turn? (issue 23, ``/games``): every open game of a person, in every server, the ones waiting for
them first.

A seat is enough to be listed: the store knows seats, not who is still a member of which server, and a seat's
player may play it from a DM whatever servers they are in (``Core.load_for``), so a game waiting for them is
never hidden. Only the user's own seats are listed (a seat a bot plays for them is not theirs until they take it
back), so the list tells nothing about anyone else's games, in a DM or in a server.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.core import waits_for
from service.core import Core
from service.notice import Table
from store import SeatedRow

#: the parts of the list, in the order they are shown: games waiting for the user, lobbies the user sits in,
#: games waiting for someone else (or for the table's own timer)
YOURS, LOBBY, OTHERS = "yours", "lobby", "others"
KINDS = (YOURS, LOBBY, OTHERS)


@dataclass(frozen=True)
class SeatedGame:
    """One of a person's open games as ``/games`` lists it."""

    id: int
    #: the game's name (Speakeasy, Omerta)
    title: str
    guild_id: int
    #: ``YOURS``, ``LOBBY`` or ``OTHERS``
    kind: str
    #: ``YOURS``: when the wait for the user began; ``LOBBY``: when it opened; ``OTHERS``: the last move (else the
    #: start) (Unix times)
    since: float
    #: ``YOURS``: when the user's turn must be played, if the table has a deadline
    deadline: float | None
    #: the message that asks (the board, or the lobby message); ``message_id`` ``None``: not posted yet, so the
    #: table's channel (its thread, or the channel it was opened in)
    channel_id: int
    message_id: int | None
    #: ``OTHERS``: the names of the seats the game waits for (empty: for the table itself, e.g. a snap window)
    waiting_for: tuple[str, ...] = ()
    #: ``LOBBY``: how many sit at it and how many may play
    seated: int = 0
    low: int = 0
    high: int = 0
    #: the user hosts it (a lobby with enough players waits for their start)
    host: bool = False

    @property
    def ready(self) -> bool:
        """A lobby with enough players to start."""
        return self.kind == LOBBY and self.seated >= self.low


def _order(game: SeatedGame) -> tuple[object, ...]:
    """Waiting for the user first (the soonest deadline, then the longest wait), then lobbies (one the user may
    start first, then the oldest), then the rest (the longest quiet first)."""
    deadline = game.deadline if game.deadline is not None else math.inf
    return (KINDS.index(game.kind), not (game.ready and game.host), deadline, game.since, game.id)


class Overview(Core):
    """A person's open games across servers."""

    async def my_games(self, user_id: int) -> list[SeatedGame]:
        """Every lobby and active game where ``user_id`` holds a seat, in every server, in the order ``/games``
        shows them (see ``_order``); finished and abandoned games are left out. Whether a game waits for the user
        is the engine's word (a question of their seat the game waits for: not a snap window, not an optional
        one); when the wait began, the store's (``Store.seated_games``)."""
        out = [await self._entry(row, user_id) for row in await self.store.seated_games(user_id)]
        return sorted((g for g in out if g is not None), key=_order)

    async def _entry(self, row: SeatedRow, user_id: int) -> SeatedGame | None:
        if row.game.status == "lobby":
            table = Table(row.game, await self.store.get_seats(row.game.id), self.game_of(row.game.game))
            return self._seated(table, row, LOBBY, row.since)
        table = await self.load(row.game.id)
        if table.row.status != "active":  # it ended since the list was read
            return None
        seat = table.seat_of(user_id)
        waiting = sorted({p.seat for p in table.prompts() if waits_for(p)})
        if seat is not None and seat in waiting:
            return self._seated(table, row, YOURS, row.since, deadline=row.deadline)
        names = tuple(table.name_of(s) for s in waiting)
        quiet = table.row.last_move_at or table.row.updated_at
        return self._seated(table, row, OTHERS, quiet, waiting_for=names)

    @staticmethod
    def _seated(
        table: Table,
        row: SeatedRow,
        kind: str,
        since: float,
        *,
        deadline: float | None = None,
        waiting_for: tuple[str, ...] = (),
    ) -> SeatedGame:
        message = row.message_id if row.channel_id is not None else None
        return SeatedGame(
            id=table.id,
            title=table.game.title,
            guild_id=table.row.guild_id,
            kind=kind,
            since=since,
            deadline=deadline,
            channel_id=row.channel_id if row.channel_id is not None else table.row.table_channel,
            message_id=message,
            waiting_for=waiting_for,
            seated=len(table.seats),
            low=table.game.min_players,
            high=table.game.max_players,
            host=table.user_of(row.seat) == table.row.host_id,
        )
