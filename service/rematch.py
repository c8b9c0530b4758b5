"""The end invites the next game (issue 26): **Rematch** on a finished game's final message.

The first player of the game to press it opens a new table of the same game with the same options, in the same
channel, and hosts it; the bots of the game take their seats again at their levels; the other people who played
are offered their seats: they are named (and pinged) in the new table's thread and each joins with the lobby's
button. A game has one rematch (the store refuses a second): a later press by one of its players joins that
lobby, or, once it started, says which game it is. Only the game's players may press it, and only in its server.
"""

from __future__ import annotations

import json

from bots.table import bot_level
from engine.msg import M, Msg
from service.access import SERVER
from service.bot_seats import BotSeats
from service.lobby import Lobby
from service.notice import Notice, ServiceError, Table, User
from store import Conflict


def not_over(game_id: int) -> Msg:
    """The refusal of a rematch of a game still running."""
    return M("table.err.rematch_running", "Game #{game} is not over yet; its rematch comes after it.", game=game_id)


def not_a_player(game_id: int) -> Msg:
    """The refusal of someone who did not play the game."""
    return M("table.err.rematch_player", "Only the players of game #{game} can start its rematch.", game=game_id)


def started(game_id: int, new: int) -> Msg:
    """The rematch exists and has started."""
    return M(
        "table.err.rematch_started",
        "The rematch of game #{game} is game #{new}, and it has started.",
        game=game_id,
        new=new,
    )


class Rematches(BotSeats, Lobby):
    """``rematch``: the final message's button."""

    async def players_of(self, table: Table) -> list[int]:
        """The people who played a game: its seats' people, and those whose seat a bot played at its end."""
        claims = await self.seat_claims(table)
        people = [claims.get(s.seat, s.user_id) for s in table.seats]
        return [u for u in people if u > 0]

    async def rematch(self, game_id: int, user: User) -> Notice:
        """Open the rematch of a finished (or agreed ended) game, or join it if a player opened it already. The
        notice's ``ping`` names the players offered a seat."""
        old = await self.load_for(game_id, user, SERVER)
        if old.row.status not in ("finished", "ended"):
            raise ServiceError(not_over(game_id))
        players = await self.players_of(old)
        if user.id not in players:
            raise ServiceError(not_a_player(game_id))
        existing = await self.store.rematch_of(game_id)
        if existing is None:
            options = json.loads(old.row.options)
            try:
                notice = await self.create(
                    old.row.guild_id, old.row.channel_id, user, old.game.name, options, rematch_of=game_id
                )
            except Conflict:  # another player opened it a moment ago: join theirs
                existing = await self.store.rematch_of(game_id)
                assert existing is not None
            else:
                return await self._seat_bots(old, notice, user, players)
        if existing.status != "lobby":
            raise ServiceError(started(game_id, existing.id))
        table = await self.load(existing.id)
        if table.seat_of(user.id) is not None:
            reply = M("table.reply.rematch_seated", "You sit at the rematch, game #{game}.", game=existing.id)
            return Notice(table, reply=reply)
        return await self.join(existing.id, user)

    async def _seat_bots(self, old: Table, notice: Notice, host: User, players: list[int]) -> Notice:
        """The new lobby gets the old game's bots at their levels; the other players are offered a seat."""
        new = notice.table
        claims = await self.seat_claims(old)  # a seat a bot played for a person is that person's: not a bot's
        for seat in old.seats:
            level = bot_level(seat.user_id)
            if level is not None and seat.seat not in claims:
                await self.add_bot(new.id, host, level)
        table = await self.load(new.id)
        invited = [u for u in players if u != host.id]
        reply = M(
            "table.reply.rematch_open",
            "Game #{new} is the rematch of game #{game}: the same game and options. The other players are asked "
            "to join.",
            new=new.id,
            game=old.id,
        )
        return Notice(table, public=notice.public, reply=reply, ping=invited)
