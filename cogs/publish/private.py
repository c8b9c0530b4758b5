"""Private messages: each player's safe screen, and private lines, by DM or in the player's private thread when
DMs are closed."""

from __future__ import annotations

import json
from typing import Any

import discord

from cogs.board import MESSAGE_MAX, clip_message
from cogs.pictures import PICTURES
from cogs.publish.common import log, message_nonce
from engine.msg import M, load
from service import Table
from service.public_table import in_lang
from words import words

#: how many lines a private log keeps (a message shows the newest that fit in 2,000 characters)
LOG_LINES = 60


def completes(before: Any, line: Any) -> bool:
    """Whether ``line`` completes ``before`` in a private log: its message id extends that one's and it says
    everything that one said (``You drew Bottle 7.`` → ``You drew Bottle 7 (into slot 2).``)."""
    if not (isinstance(before, dict) and isinstance(line, dict)):
        return False
    if not str(line.get("m", "")).startswith(str(before.get("m", "")) + "."):
        return False
    mine, theirs = line.get("a") or {}, before.get("a") or {}
    return all(mine.get(k) == v for k, v in theirs.items())


class PrivateMixin:
    """The private messages of :class:`~cogs.publish.Publisher`, a mixin of it: it uses the publisher's ``bot``,
    ``screens_of`` and ``channel``.
    """

    async def _update_screens(self, table: Table) -> None:
        """Each player's safe screen: one private message the bot edits when it changes (by DM, or in the
        player's private thread when DMs are closed)."""
        screen = PICTURES[table.game.name].screen
        assert screen is not None
        store = self.bot.service.store
        shown = self.screens_of(table.id)
        for seat in table.seats:
            if seat.user_id <= 0:
                continue
            lang = await self.bot.langs.of(store, seat.user_id, table)  # a private screen: its reader's words
            view = in_lang(table.view(seat.seat), lang)
            assert view is not None
            head = M(
                "table.screen.head",
                "**Game #{game} · {title} · your safe screen**",
                game=table.id,
                title=table.game.title,
            )
            text = clip_message(f"{words(lang)(head)}\n{screen(view)}")
            kind = f"screen:{seat.user_id}"
            row = await store.get_message(table.id, kind)
            if row is not None and row.version > table.version:
                continue  # a newer screen is up already
            # unchanged since this process showed it (and no other process has shown a screen since)
            if row is not None and shown.get(seat.user_id) == (text, row.version):
                continue
            if row is not None:
                try:
                    channel = self.bot.get_channel(row.channel_id) or await self.bot.fetch_channel(row.channel_id)
                    await channel.get_partial_message(row.message_id).edit(content=text)  # type: ignore[union-attr]
                    await store.set_message_shown(table.id, kind, table.version, 0)
                    shown[seat.user_id] = (text, table.version)
                    continue
                except (discord.NotFound, discord.Forbidden):
                    pass  # deleted, or an archived thread: send a new screen message
            message = await self._send_private(
                table, seat.user_id, text, message_nonce("s", table.id, seat.user_id, table.version)
            )
            if message is not None:
                await store.set_message(table.id, kind, message.channel.id, message.id, version=table.version)
                shown[seat.user_id] = (text, table.version)

    async def log_private(self, table: Table, user_id: int, body: dict[str, Any], entry: int) -> None:
        """Issue 24, fewer pushes: a player's private lines of a game (what they drew, peeked at...) are kept in
        one private message edited in place, newest last, so only its first line notifies them. A line that
        completes the line before it (its message id extends that one's, e.g. ``omerta.log.drew`` →
        ``omerta.log.drew.slot``, with the same card) takes its place. Lines are kept with the message (``plog``,
        the last ``LOG_LINES``); an entry applied before (a retry) only edits the message again."""
        store = self.bot.service.store
        key = str(user_id)
        row = await store.get_message(table.id, "plog", key)
        data = json.loads(row.data) if row is not None else {}
        kept: list[Any] = list(data.get("lines", []))
        if entry > int(data.get("entry", 0)):
            for i, line in enumerate(body.get("lines", [])):
                msgs = body.get("msgs") or []
                item = msgs[i] if i < len(msgs) and msgs[i] else line
                if kept and completes(kept[-1], item):
                    kept[-1] = item
                else:
                    kept.append(item)
            data = {"lines": kept[-LOG_LINES:], "entry": entry}
            if row is not None:  # first the lines (a crash before the edit: the retry edits with them)
                await store.set_message(
                    table.id, "plog", row.channel_id, row.message_id, key, version=row.version, data=json.dumps(data)
                )
        text = await self._log_text(table, user_id, data["lines"])
        if row is not None:
            try:
                channel = self.bot.get_channel(row.channel_id) or await self.bot.fetch_channel(row.channel_id)
                await channel.get_partial_message(row.message_id).edit(content=text)  # type: ignore[union-attr]
                return
            except (discord.NotFound, discord.Forbidden):
                pass  # deleted, or an archived thread: a new log message
        message = await self._send_private(table, user_id, text, message_nonce("l", table.id, user_id, entry))
        if message is not None:
            await store.set_message(table.id, "plog", message.channel.id, message.id, key, data=json.dumps(data))

    async def _log_text(self, table: Table, user_id: int, lines: list[Any]) -> str:
        """The private log message in its reader's words: the head, then the newest lines that fit."""
        w = words(await self.bot.langs.of(self.bot.service.store, user_id, table))
        head = w(
            M(
                "table.private.log_head",
                "**Game #{game} · {title} · your private log**",
                game=table.id,
                title=table.game.title,
            )
        )
        said = [w(load(x)) if isinstance(x, dict) else str(x) for x in lines]
        shown: list[str] = []
        room = MESSAGE_MAX - len(head) - 1
        for line in reversed(said):  # the newest lines, as many as fit
            if len(line) + 1 > room:
                break
            shown.insert(0, line)
            room -= len(line) + 1
        return clip_message("\n".join([head, *shown]))

    async def _send_private(self, table: Table, user_id: int, text: str, nonce_: str) -> discord.Message | None:
        """One private message: by DM, or in the private thread when DMs are closed."""
        seat = next((s for s in await self.bot.service.store.get_seats(table.id) if s.user_id == user_id), None)
        # issue 23: in the player's quiet hours it comes without a notification (what they play with is there when
        # they look; nothing buzzes)
        silent = bool(await self.bot.service.quiet_ends([user_id]))
        if seat is not None and not seat.dm_blocked:
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await self.pacer.slot(-user_id)  # the DM channel's pace (keyed by its user: no id needed)
                return await user.send(text, nonce=nonce_, silent=silent)
            except discord.Forbidden:
                await self.bot.service.store.set_seat_dm_blocked(table.id, user_id, True)
                log.info("DMs closed for user %s in game %s; using a private thread", user_id, table.id)
        return await self.tell_in_thread(table, user_id, text, nonce_, silent=silent)

    async def tell(self, table: Table, user_id: int, lines: list[Any], *, nonce: str | None = None) -> None:
        """Private lines (messages or plain text) to one player, in their language as last seen (else the
        table's): by DM, or in their private thread when DMs are closed."""
        if user_id <= 0 or not lines:
            return
        w = words(await self.bot.langs.of(self.bot.service.store, user_id, table))
        head = w(M("table.private.head", "**Game #{game} · {title}** (private)", game=table.id, title=table.game.title))
        text = clip_message(head + "\n" + "\n".join(w(line) for line in lines))
        await self._send_private(table, user_id, text, nonce or message_nonce("t", table.id, user_id, text))

    async def tell_in_thread(
        self, table: Table, user_id: int, text: str, nonce_: str, *, silent: bool = False
    ) -> discord.Message:
        """The player's private thread in the game's channel, made on first use (only they and the bot see it)."""
        store = self.bot.service.store
        seats = await store.get_seats(table.id)
        seat = next((s for s in seats if s.user_id == user_id), None)
        thread_id = seat.private_thread_id if seat else None
        thread: discord.abc.Messageable | None = None
        if thread_id:
            try:
                thread = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)  # type: ignore[assignment]
            except discord.NotFound:
                thread = None  # deleted: make a new one
        if thread is None:
            channel = await self.channel(table.row.channel_id)
            name = seat.name if seat else str(user_id)
            w = words(await self.bot.langs.of(store, user_id, table))
            thread = await channel.create_thread(  # type: ignore[attr-defined]
                name=w(M("table.private.thread", "Game #{game} · {name} (private)", game=table.id, name=name))[:100],
                type=discord.ChannelType.private_thread,
                invitable=False,
            )
            await thread.add_user(discord.Object(user_id))  # type: ignore[union-attr]
            if seat is not None:
                await store.set_seat_thread(table.id, user_id, thread.id)  # type: ignore[union-attr]
        return await self.post(  # type: ignore[attr-defined]
            thread, text, allowed_mentions=discord.AllowedMentions.none(), nonce=nonce_, silent=silent
        )
