"""Posting what the service says: the board message, private lines by DM (or a private thread), pings."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from cogs.components import public_view
from cogs.pictures import PICTURES, render
from service import Notice, Table

if TYPE_CHECKING:
    from bot import TableBot

log = logging.getLogger(__name__)

MESSAGE_MAX = 2000
LOG_LINES = 5


def clip_message(text: str) -> str:
    """Keep a message within Discord's 2,000 characters."""
    return text if len(text) <= MESSAGE_MAX else text[: MESSAGE_MAX - 1] + "…"


def mentions(user_ids: list[int]) -> discord.AllowedMentions:
    """Ping exactly these users, nobody else."""
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in user_ids])


class Publisher:
    """Turns notices into Discord messages."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        # board posts of one game go one at a time, newest state wins: a slow render of an older state must
        # not overwrite a newer board when a player clicks quickly
        self._board_locks: dict[int, asyncio.Lock] = {}
        self._board_version: dict[int, int] = {}
        #: the last safe-screen text sent per (game, user), so an unchanged screen is not edited again
        self._screens: dict[tuple[int, int], str] = {}
        self._screen_version: dict[int, int] = {}

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        """A channel from the cache, or fetched."""
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel  # type: ignore[return-value]

    def board_text(self, table: Table, log_lines: list[str], ping: list[int]) -> str:
        """Headline, the log of what just happened, the compact summary and who must act."""
        view = table.view(None)
        assert view is not None
        pics = PICTURES[table.game.name]
        head = f"**Game #{table.id} · {table.game.title} · {pics.headline(view)}**"
        lines = log_lines[-LOG_LINES:]
        if len(log_lines) > LOG_LINES:
            lines.insert(0, f"-# …{len(log_lines) - LOG_LINES} earlier lines: /game log")
        parts = [head, "\n".join(lines), pics.summary(view), self.question_line(table)]
        if ping:
            parts.append("Your move: " + " ".join(f"<@{u}>" for u in ping))
        return clip_message("\n\n".join(p for p in parts if p))

    @staticmethod
    def question_line(table: Table) -> str:
        """Who is asked what now: the question itself, or where to answer it when it shows private things."""
        prompt = next((p for p in table.prompts() if p.seat >= 0 and p.race is None), None)
        if prompt is None:
            return ""
        where = " · answer in **My options**" if prompt.secret else ""
        return f"**{table.name_of(prompt.seat)}:** {prompt.text}{where}"

    async def publish(self, notice: Notice) -> None:
        """Post or edit the board, send private lines and extra pictures, arm the race timer."""
        table = notice.table
        for user_id, lines in notice.private.items():
            await self.tell(table, user_id, lines)
        if table.state is None:
            return
        view = table.view(None)
        assert view is not None
        pics = PICTURES[table.game.name]
        channel = await self.channel(table.row.channel_id)
        for kind, (filename, fn, words) in pics.on_event.items():
            if kind in notice.kinds:
                png = await render(fn, view)
                await channel.send(
                    clip_message(words(view)),
                    file=discord.File(io.BytesIO(png), filename=filename),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        if notice.board_changed:
            await self.post_board(table, notice.public, notice.ping, new=notice.new_turn or notice.finished)
        if pics.screen is not None:
            await self.update_screens(table)
        if notice.race_deadline is not None:
            self.bot.get_cog("Play").schedule_race(table.id, table.version, notice.race_deadline)  # type: ignore[union-attr]

    async def post_board(self, table: Table, log_lines: list[str], ping: list[int], *, new: bool) -> None:
        """A new board message when the turn passes, otherwise an edit of the current one."""
        async with self._board_locks.setdefault(table.id, asyncio.Lock()):
            if table.version < self._board_version.get(table.id, -1):
                return  # a newer board is already up
            await self._post_board(table, log_lines, ping, new=new)
            self._board_version[table.id] = table.version

    async def _post_board(self, table: Table, log_lines: list[str], ping: list[int], *, new: bool) -> None:
        view = table.view(None)
        assert view is not None
        png = await render(PICTURES[table.game.name].table, view)
        content = self.board_text(table, log_lines, ping)
        file = discord.File(io.BytesIO(png), filename="table.png")
        waiting = next((p.seat for p in table.prompts() if p.race is None), None)
        undo = await self.bot.service.can_undo(table, waiting)
        components = public_view(table, undo=undo)
        channel = await self.channel(table.row.channel_id)
        current = await self.bot.service.store.get_message(table.id, "board")
        if current is not None and not new:
            try:
                message = channel.get_partial_message(current.message_id)  # type: ignore[attr-defined]
                await message.edit(
                    content=content, attachments=[file], view=components, allowed_mentions=mentions(ping)
                )
                return
            except discord.NotFound:
                pass  # deleted by someone: post anew
        message = await channel.send(content, file=file, view=components, allowed_mentions=mentions(ping))
        await self.bot.service.store.set_message(table.id, "board", message.channel.id, message.id)

    async def update_screens(self, table: Table) -> None:
        """Each player's safe screen: one private message the bot edits when it changes (by DM, or in the
        player's private thread when DMs are closed)."""
        screen = PICTURES[table.game.name].screen
        if screen is None or table.state is None:
            return
        async with self._board_locks.setdefault(table.id, asyncio.Lock()):
            if table.version < self._screen_version.get(table.id, -1):
                return  # a newer screen is already up: a slow older publish must not overwrite it
            self._screen_version[table.id] = table.version
            await self._update_screens(table, screen)

    async def _update_screens(self, table: Table, screen: Callable[[dict[str, Any]], str]) -> None:
        store = self.bot.service.store
        for seat in table.seats:
            if seat.user_id <= 0:
                continue
            view = table.view(seat.seat)
            assert view is not None
            text = clip_message(f"**Game #{table.id} · {table.game.title} · your safe screen**\n{screen(view)}")
            key = (table.id, seat.user_id)
            if self._screens.get(key) == text:
                continue
            kind = f"screen:{seat.user_id}"
            row = await store.get_message(table.id, kind)
            if row is not None:
                try:
                    channel = self.bot.get_channel(row.channel_id) or await self.bot.fetch_channel(row.channel_id)
                    await channel.get_partial_message(row.message_id).edit(content=text)  # type: ignore[union-attr]
                    self._screens[key] = text
                    continue
                except discord.HTTPException:
                    pass  # deleted, forbidden, or an archived thread: send a new screen message
            message = await self._send_private(table, seat.user_id, text)
            if message is not None:
                await store.set_message(table.id, kind, message.channel.id, message.id)
                self._screens[key] = text

    async def _send_private(self, table: Table, user_id: int, text: str) -> discord.Message | None:
        """One private message: by DM, or in the private thread when DMs are closed."""
        seat = next((s for s in await self.bot.service.store.get_seats(table.id) if s.user_id == user_id), None)
        if seat is not None and not seat.dm_blocked:
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                return await user.send(text)
            except discord.Forbidden:
                await self.bot.service.store.set_seat_dm_blocked(table.id, user_id, True)
        return await self.tell_in_thread(table, user_id, text)

    async def tell(self, table: Table, user_id: int, lines: list[str]) -> None:
        """Private lines to one player: by DM, or in their private thread when DMs are closed."""
        if user_id <= 0 or not lines:
            return
        text = clip_message(f"**Game #{table.id} · {table.game.title}** (private)\n" + "\n".join(lines))
        seat = next((s for s in table.seats if s.user_id == user_id), None)
        if seat is not None and not seat.dm_blocked:
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(text)
                return
            except discord.Forbidden:
                await self.bot.service.store.set_seat_dm_blocked(table.id, user_id, True)
                log.info("DMs closed for user %s in game %s; using a private thread", user_id, table.id)
        await self.tell_in_thread(table, user_id, text)

    async def tell_in_thread(self, table: Table, user_id: int, text: str) -> discord.Message:
        """The player's private thread in the game's channel, made on first use (only they and the bot see it)."""
        store = self.bot.service.store
        seats = await store.get_seats(table.id)
        seat = next((s for s in seats if s.user_id == user_id), None)
        thread_id = seat.private_thread_id if seat else None
        thread: discord.abc.Messageable | None = None
        if thread_id:
            thread = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)  # type: ignore[assignment]
        if thread is None:
            channel = await self.channel(table.row.channel_id)
            name = seat.name if seat else str(user_id)
            thread = await channel.create_thread(  # type: ignore[attr-defined]
                name=f"Game #{table.id} · {name} (private)",
                type=discord.ChannelType.private_thread,
                invitable=False,
            )
            await thread.add_user(discord.Object(user_id))  # type: ignore[union-attr]
            if seat is not None:
                await store.set_seat_thread(table.id, user_id, thread.id)  # type: ignore[union-attr]
        return await thread.send(text, allowed_mentions=discord.AllowedMentions.none())  # type: ignore[union-attr]
