"""Bots at the table: the host seats a bot in an open lobby, and a player asks for a hint on their turn."""

from __future__ import annotations

import asyncio
import json

from bots.common import LEVELS
from bots.table import Hint, bot_level, bot_name, bot_user_id
from engine.msg import Join, M, Msg
from service.access import SEAT, SERVER
from service.core import SEAT_MOVED
from service.host import no_seat_of, not_seated
from service.limits import HINT, Limits
from service.lobby import full, not_seating
from service.notice import Notice, ServiceError, StaleClick, Table, User
from service.outcome import Written, put_offer, seated, take_offer
from service.records import private_body, table_row
from store import AlreadySeated, Move, OfferRow


def bad_level(level: str) -> Msg:
    """The refusal of an unknown bot level."""
    return M(
        "table.err.bot_level",
        "There is no bot level {level}; choose {levels}.",
        level=repr(level),
        levels=Join(list(LEVELS), "comma"),
    )


def no_bots(title: str) -> Msg:
    """The refusal of a bot at a game without seat bots."""
    return M("table.err.no_bots", "{title} has no seat bots.", title=title)


class BotSeats(Limits):
    """``/game addbot`` and ``/hint``."""

    async def add_bot(self, game_id: int, user: User, level: str) -> Notice:
        """Seat a bot at ``level`` in an open lobby (host or admin); its name shows its level."""
        if level not in LEVELS:
            raise ServiceError(bad_level(level))
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SERVER)
            if table.row.status != "lobby":
                raise ServiceError(not_seating(game_id, table.row.status))
            self.need_host(table, user, "addbot")
            game = table.game
            if not self.bots.plays(game.name):
                raise ServiceError(no_bots(game.title))
            if len(table.seats) >= game.max_players:
                raise ServiceError(full(game_id, game.max_players))
            k = sum(bot_level(s.user_id) is not None for s in table.seats)
            used = {s.user_id for s in table.seats}
            while bot_user_id(k, level) in used:  # a bot that left keeps its number taken by no one else
                k += 1
            name = bot_name(k, level)
            try:
                await self.store.add_seat(game_id, bot_user_id(k, level), name)
            except AlreadySeated:
                raise ServiceError(M("table.err.bot_seated", "That bot is already seated; try again.")) from None
            table = await self.load(game_id)
            public = [M("table.lobby.joins", "{name} joins game #{game}.", name=name, game=game_id)]
            return Notice(table, public=public, reply=M("table.reply.bot_seated", "{name} is seated.", name=name))

    async def remove_bot(self, game_id: int, user: User, seat: int) -> Notice:
        """Unseat a bot from an open lobby (host or admin)."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SERVER)
            if table.row.status != "lobby":
                raise ServiceError(not_seating(game_id, table.row.status))
            self.need_host(table, user, "removebot")
            uid = table.user_of(seat)
            if uid is None or bot_level(uid) is None:
                raise ServiceError(
                    M("table.err.not_bot", "Seat {seat} of game #{game} is not a bot.", seat=seat + 1, game=game_id)
                )
            name = table.name_of(seat)
            await self.store.remove_seat(game_id, uid)
            table = await self.load(game_id)
            public = [M("table.lobby.leaves", "{name} leaves game #{game}.", name=name, game=game_id)]
            return Notice(table, public=public, reply=M("table.reply.bot_left", "{name} left the table.", name=name))

    async def seat_to_bot(self, game_id: int, user: User, seat_user: int, level: str) -> Notice:
        """The host hands an idle player's seat to a bot (the seat keeps its name in the game). The same rule
        as a substitute's: the player is told, and takes the seat back whenever they like (``reclaim_seat``)."""
        if level not in LEVELS:
            raise ServiceError(bad_level(level))
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SERVER)
            self.need_active(table, M("table.what.botseat", "no seat to hand to a bot"))
            self.need_host(table, user, "botseat")
            if not self.bots.plays(table.game.name):
                raise ServiceError(no_bots(table.game.title))
            seat = table.seat_of(seat_user)
            if seat is None or seat_user <= 0:
                raise ServiceError(no_seat_of(seat_user, game_id))
            if seat_user == table.row.host_id:
                raise ServiceError(
                    M("table.err.host_bot", "The host's own seat cannot go to a bot (a bot cannot host the table).")
                )
            table, line, bot = await self.bot_takes_seat(table, seat, seat_user, level, user.id)
            reply = M("table.reply.bot_plays", "{bot} plays {name}'s seat now.", bot=bot, name=table.name_of(seat))
            return await self.bots_after(Notice(table, public=[line], reply=reply))

    async def bot_takes_seat(
        self, table: Table, seat: int, seat_user: int, level: str, by: int, *, timeout: bool = False
    ) -> tuple[Table, Msg, str]:
        """A bot of ``level`` takes ``seat_user``'s seat for them (asked by ``by``: the host, or the table itself
        when their time ran out, ``timeout``); the seat stays theirs to take back (issue 22's consent rule).
        Returns the table after it, the log line and the bot's name. Call under the game's lock."""
        game_id = table.id
        used = {s.user_id for s in table.seats}
        k = 0
        while bot_user_id(k, level) in used:
            k += 1
        bot_id, name = bot_user_id(k, level), table.name_of(seat)
        now = self.clock()
        if timeout:
            line = M(
                "table.log.bot_seat_timeout",
                "{name}'s time ran out: {bot} plays {name}'s seat until {name} comes back (any click of theirs, "
                "or /game reclaim).",
                bot=bot_name(k, level),
                name=name,
            )
        else:
            line = M(
                "table.log.bot_seat",
                "{bot} now plays {name}'s seat; {name} can take it back with /game reclaim.",
                bot=bot_name(k, level),
                name=name,
            )
        await put_offer(self.store, OfferRow(game_id, seat, seat_user, bot_id, name, by, now + 60))
        move = Move([], "", now, events=[table_row(table.version, line, "seat", seat=seat, bot_from=seat_user)])
        move.outbox.append(("private", seat_user, private_body([line])))
        if await take_offer(self.store, game_id, seat, bot_id, now, name, move) is Written.REFUSED:
            raise StaleClick(SEAT_MOVED)
        before = table
        table = await self.reload(game_id, lambda: seated(before, seat, bot_id, name))
        return table, line, bot_name(k, level)

    async def reclaim_seat(self, game_id: int, user: User) -> Notice:
        """A player takes back the seat the host handed to a bot (no one else may)."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SEAT)
            self.need_active(table, M("table.what.reclaim", "no seat to take back"))
            if table.seat_of(user.id) is not None:
                raise ServiceError(M("table.err.plays_seat", "You already play a seat in game #{game}.", game=game_id))
            seat = next((s for s, who in (await self.seat_claims(table)).items() if who == user.id), None)
            if seat is None:
                raise ServiceError(
                    M("table.err.no_bot_seat", "No seat of yours is played by a bot in game #{game}.", game=game_id)
                )
            return await self.take_back(table, user, seat)

    async def come_back(self, game_id: int, user: User) -> tuple[Table, Notice | None]:
        """Issue 23: a player whose seat a bot plays for them (their time ran out at an ``on_timeout=hold``
        table, or the host's ``/game botseat``) comes back with any click of theirs at the table, such as "My
        options": the seat is theirs again. Returns the game as it is now and the notice of the taking back (None
        if there was nothing to take back: no such seat, the game not running, or they play their seat already)."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SEAT)
            if table.row.status != "active" or table.seat_of(user.id) is not None:
                return table, None
            seat = await self.claim_of(table, user.id)
            if seat is None:
                return table, None
            back = await self.take_back(table, user, seat)
            return back.table, back

    async def hint(self, game_id: int, user: User) -> Hint:
        """What the standard bot would choose now in the asking player's place, and why, in one line: only for
        the player whose turn it is, from what their seat has seen, and only if the table allows hints."""
        table = await self.load_for(game_id, user, SEAT)
        self.need_active(table, M("table.what.hint", "nothing to hint at"))
        seat = table.seat_of(user.id)
        if seat is None:
            raise ServiceError(not_seated(game_id))
        if json.loads(table.row.options).get("hints", "allowed") == "forbidden":
            raise ServiceError(
                M(
                    "table.err.hints_forbidden",
                    "Hints are forbidden at game #{game} (its table option hints=forbidden).",
                    game=game_id,
                )
            )
        mine = [p for p in table.prompts_for(seat) if p.race is None and not p.optional]
        if not mine:
            raise ServiceError(
                M("table.err.hint_turn", "It is not your turn: a hint is only for the player who must decide now.")
            )
        if not self.bots.plays(table.game.name):
            raise ServiceError(M("table.err.no_hints", "{title} has no hints.", title=table.game.title))
        await self.user_cooldown(HINT, user)  # a search per user per cooldown (issue 22), after every other check
        bots = await self.bot_table(table, {seat: "standard"})
        return await asyncio.to_thread(self.bots.hint, bots, table.state, mine[0])
