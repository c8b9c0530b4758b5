"""The publisher: it brings Discord up to date with the store, one game at a time, retrying what failed; the board
messages and the private ones come from its mixins."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from cogs.board import clip_message
from cogs.errors import one_round
from cogs.pictures import PICTURES
from cogs.publish.common import DELIVER_WAIT_S, TRANSIENT, log, mentions, message_nonce, private_lines
from cogs.publish.pacing import Pacer
from cogs.publish.private import PrivateMixin
from cogs.publish.story import BoardMixin
from cogs.table_buttons import EndVoteButton, OfferButton
from service import ServiceError, Table
from service.locks import KeyedLocks
from store import OutboxRow, StoreClosed
from words import words

if TYPE_CHECKING:
    from bot import TableBot

#: how many games' safe-screen texts a process keeps (the project's own value: a few MB at most)
SCREEN_GAMES = 1000


class Publisher(BoardMixin, PrivateMixin):
    """Brings Discord up to date with the store, one game at a time, retrying what failed."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        #: a game's delivery lock exists only while a delivery holds or waits for it
        self._locks: KeyedLocks[int] = KeyedLocks()
        #: a game's pending retry (the task forgets itself when it runs)
        self._retries: dict[int, asyncio.Task[None]] = {}
        #: failed deliveries in a row per game (dropped once one succeeds)
        self._failures: dict[int, int] = {}
        #: the last safe-screen text sent per game and user, so an unchanged screen is not edited again: the
        #: games used last, at most ``SCREEN_GAMES`` of them, and none that is over (``forget``)
        self._screens: OrderedDict[int, dict[int, tuple[str, int]]] = OrderedDict()
        self._sweeper: asyncio.Task[None] | None = None
        #: at most 5 posts in 5 seconds in a channel (``Settings.channel_burst``), by the service's clock
        self.pacer = Pacer(lambda: bot.clock(), lambda seconds: bot.sleep(seconds), burst=bot.settings.channel_burst)

    def start(self) -> None:
        """Deliver what a restart left undelivered, then keep sweeping now and then (a safety net)."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_loop())

    async def stop(self) -> None:
        """Stop the sweeper and pending retries."""
        tasks = [t for t in [self._sweeper, *self._retries.values()] if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):  # stopping: nothing left to report
                await task
        self._sweeper = None
        self._retries.clear()

    async def _sweep_loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            await one_round("delivery sweep", self.sweep, log)
            await asyncio.sleep(self.bot.settings.delivery_sweep_s)

    async def sweep(self) -> int:
        """Deliver for every game whose board lags behind its record or that has something due in the outbox."""
        store = self.bot.service.store
        games = set(await store.games_behind("board"))
        games |= {row.game_id for row in await store.outbox_due(self.bot.service.clock())}
        for gid in sorted(games):
            await self.deliver(gid)
        return len(games)

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        """A channel from the cache, or fetched."""
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel  # type: ignore[return-value]

    async def post(self, channel: Any, *args: Any, **fields: Any) -> discord.Message:
        """``channel.send`` at the channel's pace (at most 5 posts in 5 seconds: see :mod:`.pacing`)."""
        await self.pacer.slot(channel.id)
        return await channel.send(*args, **fields)

    async def deliver(self, game_id: int) -> bool:
        """Post whatever the store says is not yet posted for this game; True when nothing is left. A failure
        of Discord is logged and retried later (with growing pauses), never lost."""
        async with self._locks(game_id):
            try:
                # one process at a time brings a game's messages up to date (several may share PostgreSQL):
                # the holder reads the store after taking the lock, so no board is followed by an older one
                async with self.bot.service.store.held("deliver", game_id, DELIVER_WAIT_S):
                    done = await self._deliver(game_id)
            except ServiceError:
                self.forget(game_id)
                return True  # the game is gone: nothing to tell
            except TRANSIENT as exc:
                log.warning("delivery for game %s failed (%s: %s); will retry", game_id, type(exc).__name__, exc)
                done = False
            except (RuntimeError, StoreClosed):
                if self.bot.is_closed():
                    return False  # shutting down: the next start delivers it (the store still says so)
                raise
        if done:
            self._failures.pop(game_id, None)
        else:
            self._retry_later(game_id)
        return done

    def forget(self, game_id: int) -> None:
        """Drop what this process keeps of a game (its screens' texts, its failure count): it is over or gone."""
        self._screens.pop(game_id, None)
        self._failures.pop(game_id, None)

    def screens_of(self, game_id: int) -> dict[int, tuple[str, int]]:
        """The safe-screen texts last sent for a game, by user (kept for the ``SCREEN_GAMES`` games used last:
        one forgotten only costs an edit that changes nothing)."""
        shown = self._screens.get(game_id)
        if shown is None:
            shown = self._screens[game_id] = {}
            while len(self._screens) > SCREEN_GAMES:
                self._screens.popitem(last=False)
        else:
            self._screens.move_to_end(game_id)
        return shown

    def _retry_later(self, game_id: int) -> None:
        if self.bot.is_closed():
            return
        if game_id in self._retries and not self._retries[game_id].done():
            return
        n = self._failures[game_id] = self._failures.get(game_id, 0) + 1
        delay = min(self.bot.settings.delivery_retry_s * 2 ** (n - 1), 600.0)

        async def later() -> None:
            await asyncio.sleep(delay)
            self._retries.pop(game_id, None)
            await self.deliver(game_id)

        self._retries[game_id] = asyncio.create_task(later())

    async def _deliver(self, game_id: int) -> bool:
        service = self.bot.service
        table = await service.load(game_id)
        done = await self._deliver_outbox(table)
        if table.state is not None:
            pt = await service.public(table)
            await self._deliver_board(table, pt)
            if PICTURES[table.game.name].screen is not None:
                await self._update_screens(table)
            race = await service.store.get_race(game_id)
            if race is not None:
                self.bot.get_cog("Play").schedule_race(game_id, race.version, race.deadline)  # type: ignore[union-attr]
        if done and table.row.status in ("finished", "abandoned", "ended"):
            self.forget(game_id)  # over and delivered: nothing of it is needed again
        return done

    async def _deliver_outbox(self, table: Table) -> bool:
        """Private lines and seat offers, each exactly once; True when none is left waiting."""
        store = self.bot.service.store
        now = self.bot.service.clock()
        done = True
        for row in await store.outbox_due(math.inf, table.id):  # this delivery was already timed by its caller
            try:
                await self._send_entry(table, row)
            except TRANSIENT as exc:
                log.warning("outbox entry %s of game %s failed (%s); will retry", row.id, table.id, exc)
                await store.outbox_retry(row.id, now + self.bot.settings.delivery_retry_s * 2 ** min(row.attempts, 7))
                done = False
                continue
            await store.outbox_done(row.id)
        return done

    async def _send_entry(self, table: Table, row: OutboxRow) -> None:
        body = json.loads(row.body)
        if row.kind == "private" and row.user_id is not None and body.get("log"):
            await self.log_private(table, row.user_id, body, row.id)  # the one private log message, edited
        elif row.kind == "private" and row.user_id is not None:
            await self.tell(table, row.user_id, private_lines(body), nonce=message_nonce("o", row.id))
        elif row.kind == "offer":  # in the channel, for the table to see: the table's language
            channel = await self.channel(table.row.table_channel)
            view = discord.ui.View(timeout=None)
            for action in ("take", "give", "keep"):
                view.add_item(OfferButton(table.id, body["seat"], action, table.lang))
            asked = [body["to_user"], body["from_user"]]
            quiet = await self.bot.service.quiet_ends(asked)  # issue 23: named, not pinged, in their quiet hours
            await self.post(
                channel,
                clip_message(words(table.lang).stored(body, body["text"])),
                view=view,
                allowed_mentions=mentions([u for u in asked if u not in quiet]),
                nonce=message_nonce("o", row.id),
            )
        elif row.kind == "endvote":  # a vote to end the game by agreement (issue 23), with its Agree / Refuse buttons
            channel = await self.channel(table.row.table_channel)
            view = discord.ui.View(timeout=None)
            for action in ("agree", "refuse"):
                view.add_item(EndVoteButton(table.id, body["opened"], action, table.lang))
            await self.post(
                channel,
                clip_message(words(table.lang).stored(body, body["text"])),
                view=view,
                allowed_mentions=mentions(body["waiting"]),
                nonce=message_nonce("o", row.id),
            )
        elif row.kind == "public":  # a line the table says in its thread or channel (a lobby that closed itself)
            if body.get("lobby"):
                await self._redraw_lobby(table)  # first: an edit is harmless to repeat, a post has its nonce
            channel = await self.channel(table.row.table_channel)
            await self.post(
                channel,
                clip_message(words(table.lang).stored(body, body["text"])),
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=message_nonce("o", row.id),
            )
        else:
            log.error("unknown outbox entry %s of kind %r dropped", row.id, row.kind)

    async def _redraw_lobby(self, table: Table, result: str | None = None) -> None:
        """The lobby message as the game's status now shows it (a closed lobby: no buttons); a game that is over
        links its ``result`` (the final message)."""
        row = await self.bot.service.store.get_message(table.id, "lobby")
        lobby = self.bot.get_cog("Lobby")
        if row is None or lobby is None:
            return
        channel = await self.channel(row.channel_id)
        with contextlib.suppress(discord.NotFound):  # deleted by someone: nothing to redraw
            await channel.get_partial_message(row.message_id).edit(  # type: ignore[attr-defined]
                content=lobby.lobby_text(table, result=result),  # type: ignore[attr-defined]
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
