"""Bots at the table: the host seats a bot in an open lobby, and a player asks for a hint on their turn."""

from __future__ import annotations

import asyncio
import json

from bots.common import LEVELS
from bots.table import Hint, bot_level, bot_name, bot_user_id
from service.core import Core
from service.notice import Notice, ServiceError, User
from store import AlreadySeated


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
        mine = [p for p in table.prompts_for(seat) if p.race is None]
        if not mine:
            raise ServiceError("It is not your turn: a hint is only for the player who must decide now.")
        if not self.bots.plays(table.game.name):
            raise ServiceError(f"{table.game.title} has no hints.")
        bots = await self.bot_table(table, {seat: "standard"})
        return await asyncio.to_thread(self.bots.hint, bots, table.state, mine[0])
