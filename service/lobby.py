"""Opening a table, taking and leaving seats, starting and abandoning a game."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from typing import Any

from engine.core import BadOptions
from engine.msg import M, Msg
from engine.options import resolve_options
from service.access import SERVER, check_id
from service.core import Core, status_word
from service.host import already_seated
from service.notice import Notice, ServiceError, StaleClick, Table, User
from service.outcome import Written, end_game, start_game
from service.records import event_row, table_row
from store import AlreadySeated, Move, TooManyOpen

#: How many games one channel may have open at once (lobby or active); a guard against spam.
MAX_OPEN_GAMES_PER_CHANNEL = 10


class Lobby(Core):
    """The lobby's requests."""

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host: User,
        game_name: str,
        options: Mapping[str, Any],
        rematch_of: int | None = None,
    ) -> Notice:
        """Open a lobby in a channel with the host seated (``rematch_of``: the game it is the rematch of; a second
        rematch of one game raises ``store.Conflict``)."""
        game = self.game_of(game_name)
        check_id(guild_id, "server")
        check_id(channel_id, "channel")
        try:
            resolved = resolve_options(game.option_specs, options, new=True)
        except BadOptions as exc:
            raise ServiceError(exc.args[0] if exc.args else str(exc)) from None
        now = self.clock()
        try:
            # the limits are counted and the host seated in the lobby's own transaction: two requests at once
            # cannot both slip under a limit, and a crash never leaves a lobby without its host (issue 22)
            game_id = await self.store.create_game(
                game=game.name,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host.id,
                options_json=json.dumps(resolved, sort_keys=True),
                seed=self.seeds(),
                now=now,
                host_name=host.name,
                max_in_channel=MAX_OPEN_GAMES_PER_CHANNEL,
                max_hosted=self.settings.lobbies_per_user,
                rematch_of=rematch_of,
            )
        except TooManyOpen as exc:
            raise ServiceError(await self._too_many(exc)) from None
        table = await self.load(game_id)
        return Notice(
            table,
            public=[
                M(
                    "table.lobby.opened",
                    "{name} opened a table of {title} (game #{game}). Join with the button.",
                    name=host.name,
                    title=game.title,
                    game=game_id,
                )
            ],
            reply=M(
                "table.lobby.open",
                "Game #{game} is open. Start it when {low} to {high} players sit.",
                game=game_id,
                low=game.min_players,
                high=game.max_players,
            ),
        )

    async def join(self, game_id: int, user: User) -> Notice:
        """Take the next free seat in a lobby."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SERVER)
            self._need_lobby(table)
            if len(table.seats) >= table.game.max_players:
                raise ServiceError(full(game_id, table.game.max_players))
            try:
                await self.store.add_seat(game_id, user.id, user.name)
            except AlreadySeated:
                raise ServiceError(already_seated(game_id)) from None
            table = await self.load(game_id)
            public = [M("table.lobby.joins", "{name} joins game #{game}.", name=user.name, game=game_id)]
            return Notice(table, public=public, reply=M("table.lobby.in", "You're in."))

    async def leave(self, game_id: int, user: User) -> Notice:
        """Leave a lobby; the host's leaving hands the table to the next seat, or closes an empty one."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SERVER)
            self._need_lobby(table)
            if table.seat_of(user.id) is None:
                raise ServiceError(M("table.err.no_seat", "You have no seat in game #{game}.", game=game_id))
            await self.store.remove_seat(game_id, user.id)
            table = await self.load(game_id)
            lines = [M("table.lobby.leaves", "{name} leaves game #{game}.", name=user.name, game=game_id)]
            if not table.seats:
                await self.store.set_status(game_id, "abandoned", self.clock())
                lines.append(M("table.lobby.empty", "Nobody is left, so the table is closed."))
            elif table.row.host_id == user.id:
                lines.append(M("table.lobby.new_host", "{name} now hosts the table.", name=table.seats[0].name))
                await self.store.set_host(game_id, table.seats[0].user_id, self.clock())
            table = await self.load(game_id)
            return Notice(table, public=lines, reply=M("table.lobby.left", "You left the table."))

    async def start(self, game_id: int, user: User) -> Notice:
        """Deal the game (host or admin), once enough players sit: the first state, the set-up's log, the
        first reminders and private lines are committed together."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SERVER)
            self._need_lobby(table)
            self.need_host(table, user, "start")
            n, game = len(table.seats), table.game
            if not game.min_players <= n <= game.max_players:
                raise ServiceError(
                    M(
                        "table.err.players",
                        "{title} needs {low} to {high} players; {n} seated.",
                        title=game.title,
                        low=game.min_players,
                        high=game.max_players,
                        n=n,
                    )
                )
            options = json.loads(table.row.options)
            try:
                state, events = game.start([s.name for s in table.seats], options, table.row.seed)
            except BadOptions as exc:
                raise ServiceError(exc.args[0] if exc.args else str(exc)) from None
            move = Move([], game.dumps(state).decode(), self.clock(), events=[event_row(0, e) for e in events])
            table.state = state
            notice = self.bookkeep(table, move, [], game.prompts(state), events)
            if await start_game(self.store, game_id, move) is Written.REFUSED:
                raise StaleClick(M("table.err.started", "Game #{game} has already started.", game=game_id))
            row = dataclasses.replace(table.row, status="active", updated_at=move.now)
            notice.table = await self.reload(game_id, lambda: Table(row, table.seats, game, state))
            notice.reply = M("table.lobby.on", "Game #{game} is on.", game=game_id)
            return await self.bots_after(notice)  # bots to act first play at once

    async def abandon(self, game_id: int, user: User) -> Notice:
        """End a game without a result (host or a server admin)."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SERVER)
            if table.row.status not in ("lobby", "active"):
                raise ServiceError(
                    M(
                        "table.err.already",
                        "Game #{game} is already {status}.",
                        game=game_id,
                        status=status_word(table.row.status),
                    )
                )
            self.need_host(table, user, "abandon")
            line = M("table.lobby.abandoned", "{name} abandoned game #{game}.", name=user.name, game=game_id)
            move = Move([], "", self.clock(), events=[table_row(table.version, line)])
            if await end_game(self.store, game_id, "abandoned", ("lobby", "active"), move) is Written.REFUSED:
                raise StaleClick(M("table.err.just_ended", "Game #{game} has just ended.", game=game_id))
            row = dataclasses.replace(table.row, status="abandoned", updated_at=move.now)
            table = await self.reload(game_id, lambda: Table(row, table.seats, table.game, table.state))
            return Notice(table, public=[line], reply=M("table.lobby.abandon_done", "Game abandoned."), finished=True)

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Record the public thread the game is played in."""
        await self.store.set_thread(game_id, thread_id)

    async def threads_wanted(self, guild_id: int) -> bool:
        """Whether a new table opens in a thread of its own (the server setting ``threads``, on by default)."""
        return (await self.store.get_guild_settings(guild_id)).get("threads", True) is not False

    async def set_threads_wanted(self, guild_id: int, user: User, on: bool) -> str:
        """An admin turns threads for new tables on or off (the answer is a message)."""
        if not user.admin or user.guild_id != guild_id:
            raise ServiceError(
                M("table.err.admin_only", "Only a server admin can change this server's table settings.")
            )
        settings = await self.store.get_guild_settings(guild_id)
        settings["threads"] = on
        await self.store.set_guild_settings(guild_id, settings)
        if on:
            return M("table.settings.threads_on", "New tables open in a thread of their own.")
        return M("table.settings.threads_off", "New tables are played in their channel.")

    async def _too_many(self, exc: TooManyOpen) -> Msg:
        """The refusal of a lobby over a limit: how many are open, and what to do (when it may be tried again)."""
        n = len(exc.game_ids)
        if exc.what == "channel":
            return M(
                "table.err.channel_full",
                "This channel already has {n} open games; finish or abandon one first.",
                n=n,
            )
        games = ", ".join(f"#{g}" for g in exc.game_ids)
        oldest = await self.store.get_game(exc.game_ids[0])
        closes = (oldest.created_at if oldest else self.clock()) + self.settings.lobby_expire_s
        return M(
            "table.err.lobbies_per_user",
            "You already host {n} open lobbies in this server ({games}), the most one player may have. Start one "
            "(/game start), or leave or abandon one (/game leave, /game abandon), then open another; else #{oldest} "
            "closes itself unstarted <t:{at}:R>.",
            n=n,
            games=games,
            oldest=exc.game_ids[0],
            at=math.ceil(closes),
        )

    def _need_lobby(self, table: Table) -> None:
        if table.row.status != "lobby":
            raise ServiceError(not_seating(table.id, table.row.status))


def not_seating(game_id: int, status: str) -> Msg:
    """The refusal to seat anyone at a game that is not a lobby."""
    return M(
        "table.err.not_seating",
        "Game #{game} is {status}, not open for seating.",
        game=game_id,
        status=status_word(status),
    )


def full(game_id: int, players: int) -> Msg:
    """The refusal to seat anyone at a full table."""
    return M("table.err.full", "Game #{game} is full ({n} players).", game=game_id, n=players)
