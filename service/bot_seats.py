"""Bots at the table: the host seats a bot in an open lobby, and a player asks for a hint on their turn."""

from __future__ import annotations

import asyncio
import json

from bots.common import LEVELS
from bots.table import Hint, bot_level, bot_name, bot_user_id
from service.core import Core, table_row
from service.notice import Notice, ServiceError, StaleClick, User
from store import AlreadySeated, Move, OfferRow


class BotSeats(Core):
    """``/game addbot`` and ``/hint``."""

    async def add_bot(self, game_id: int, user: User, level: str) -> Notice:
        """Seat a bot at ``level`` in an open lobby (host or admin); its name shows its level."""
        if level not in LEVELS:
            raise ServiceError(f"There is no bot level {level!r}; choose {', '.join(LEVELS)}.")
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status != "lobby":
                raise ServiceError(f"Game #{game_id} is {table.row.status}, not open for seating.")
            self.need_host(table, user, "add a bot to")
            game = table.game
            if not self.bots.plays(game.name):
                raise ServiceError(f"{game.title} has no seat bots.")
            if len(table.seats) >= game.max_players:
                raise ServiceError(f"Game #{game_id} is full ({game.max_players} players).")
            k = sum(bot_level(s.user_id) is not None for s in table.seats)
            used = {s.user_id for s in table.seats}
            while bot_user_id(k, level) in used:  # a bot that left keeps its number taken by no one else
                k += 1
            name = bot_name(k, level)
            try:
                await self.store.add_seat(game_id, bot_user_id(k, level), name)
            except AlreadySeated:
                raise ServiceError("That bot is already seated; try again.") from None
            table = await self.load(game_id)
            return Notice(table, public=[f"{name} joins game #{game_id}."], reply=f"{name} is seated.")

    async def remove_bot(self, game_id: int, user: User, seat: int) -> Notice:
        """Unseat a bot from an open lobby (host or admin)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status != "lobby":
                raise ServiceError(f"Game #{game_id} is {table.row.status}, not open for seating.")
            self.need_host(table, user, "remove a bot from")
            uid = table.user_of(seat)
            if uid is None or bot_level(uid) is None:
                raise ServiceError(f"Seat {seat + 1} of game #{game_id} is not a bot.")
            name = table.name_of(seat)
            await self.store.remove_seat(game_id, uid)
            table = await self.load(game_id)
            return Notice(table, public=[f"{name} leaves game #{game_id}."], reply=f"{name} left the table.")

    async def seat_to_bot(self, game_id: int, user: User, seat_user: int, level: str) -> Notice:
        """The host hands an idle player's seat to a bot (the seat keeps its name in the game). The same rule
        as a substitute's: the player is told, and takes the seat back whenever they like (``reclaim_seat``)."""
        if level not in LEVELS:
            raise ServiceError(f"There is no bot level {level!r}; choose {', '.join(LEVELS)}.")
        async with self.lock(game_id):
            table = await self.load(game_id)
            self.need_active(table, "no seat to hand to a bot")
            self.need_host(table, user, "hand a seat to a bot in")
            if not self.bots.plays(table.game.name):
                raise ServiceError(f"{table.game.title} has no seat bots.")
            seat = table.seat_of(seat_user)
            if seat is None or seat_user <= 0:
                raise ServiceError(f"<@{seat_user}> has no seat in game #{game_id}.")
            if seat_user == table.row.host_id:
                raise ServiceError("The host's own seat cannot go to a bot (a bot cannot host the table).")
            used = {s.user_id for s in table.seats}
            k = 0
            while bot_user_id(k, level) in used:
                k += 1
            bot_id, name = bot_user_id(k, level), table.name_of(seat)
            now = self.clock()
            line = f"{bot_name(k, level)} now plays {name}'s seat; {name} can take it back with /game reclaim."
            await self.store.put_offer(OfferRow(game_id, seat, seat_user, bot_id, name, user.id, now + 60))
            move = Move([], "", now, events=[table_row(table.version, line, "seat", seat=seat, bot_from=seat_user)])
            move.outbox.append(("private", seat_user, json.dumps({"lines": [line]})))
            if not await self.store.take_offer(game_id, seat, bot_id, now, name, move):
                raise StaleClick("That seat changed hands meanwhile; nothing changed.")
            table = await self.load(game_id)
            notice = Notice(table, public=[line], reply=f"{bot_name(k, level)} plays {name}'s seat now.")
            if await self.bots_wanted(table):
                if self.bots_later is not None:
                    self.spawn_bots(table)
                else:
                    notice = await self.commit(table, [], reply=notice.reply)
            return notice

    async def reclaim_seat(self, game_id: int, user: User) -> Notice:
        """A player takes back the seat the host handed to a bot (no one else may)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            self.need_active(table, "no seat to take back")
            if table.seat_of(user.id) is not None:
                raise ServiceError(f"You already play a seat in game #{game_id}.")
            handed = {}
            for e in await self.store.get_events(game_id, public_only=True):
                data = json.loads(e.data or "{}")
                if e.kind == "seat" and "seat" in data:
                    handed[data["seat"]] = data.get("bot_from")
            seat = next((s for s, who in handed.items() if who == user.id), None)
            if seat is None or bot_level(table.user_of(seat) or 0) is None:
                raise ServiceError(f"No seat of yours is played by a bot in game #{game_id}.")
            now = self.clock()
            name = table.name_of(seat)
            line = f"{user.name} takes {name}'s seat back from the bot."
            bot_id = table.user_of(seat) or 0
            await self.store.put_offer(OfferRow(game_id, seat, bot_id, user.id, name, user.id, now + 60))
            move = Move([], "", now, events=[table_row(table.version, line, "seat", seat=seat)])
            if any(p.seat == seat for p in table.prompts()):
                move.reminders_on.append((user.id, "turn", now + self.settings.reminder_first_s))
            if not await self.store.take_offer(game_id, seat, user.id, now, name, move):
                raise StaleClick("That seat changed hands meanwhile; nothing changed.")
            table = await self.load(game_id)
            notice = Notice(table, public=[line], reply=f"You play {name}'s seat again in game #{game_id}.")
            if table.prompts_for(seat):
                notice.ping = [user.id]
            return notice

    async def hint(self, game_id: int, user: User) -> Hint:
        """What the standard bot would choose now in the asking player's place, and why, in one line: only for
        the player whose turn it is, from what their seat has seen, and only if the table allows hints."""
        table = await self.load(game_id)
        self.need_active(table, "nothing to hint at")
        seat = table.seat_of(user.id)
        if seat is None:
            raise ServiceError(f"You are not seated in game #{game_id}.")
        if json.loads(table.row.options).get("hints", "allowed") == "forbidden":
            raise ServiceError(f"Hints are forbidden at game #{game_id} (its table option hints=forbidden).")
        mine = [p for p in table.prompts_for(seat) if p.race is None and not p.optional]
        if not mine:
            raise ServiceError("It is not your turn: a hint is only for the player who must decide now.")
        if not self.bots.plays(table.game.name):
            raise ServiceError(f"{table.game.title} has no hints.")
        bots = await self.bot_table(table, {seat: "standard"})
        return await asyncio.to_thread(self.bots.hint, bots, table.state, mine[0])
