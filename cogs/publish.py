"""Telling the channel and the players what the store says happened: the board message, pictures, private lines
(by DM, or a private thread when DMs are closed), seat offers and safe screens.

Nothing here is told from memory: ``deliver`` reads what is still missing from the store (the events after the
last one the board shows, the outbox) and posts it, so a restart or a Discord failure only delays it. New
messages carry a nonce that Discord enforces, so a message sent just before a crash is not sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import io
import json
import logging
import math
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from cogs import board
from cogs.board import clip_message
from cogs.components import OfferButton, public_view
from cogs.pictures import PICTURES
from engine.msg import M, load
from render import story
from service import PublicTable, ServiceError, Table
from service.claims import race_window
from service.public_table import in_lang
from store import EventRow, OutboxRow, StoreBusy, StoreClosed
from words import words

if TYPE_CHECKING:
    from bot import TableBot

log = logging.getLogger(__name__)

#: Discord's error code for an action in an archived thread.
ARCHIVED = 50083
#: Failures of Discord (or of the way to it) after which a delivery is tried again later.
#: How long a delivery waits for another process delivering the same game (the project's own value; then it is
#: retried later like a failed one).
DELIVER_WAIT_S = 30.0
TRANSIENT = (discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError, asyncio.TimeoutError)


def mentions(user_ids: list[int]) -> discord.AllowedMentions:
    """Ping exactly these users, nobody else."""
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in user_ids])


def private_lines(body: dict[str, Any]) -> list[Any]:
    """The lines of an outbox entry: each as its message when the entry kept one (``msgs``), else its text (an
    entry written before messages were kept)."""
    lines = list(body.get("lines", []))
    msgs = list(body.get("msgs") or [])
    return [load(m) if i < len(msgs) and (m := msgs[i]) else line for i, line in enumerate(lines)]


def said_in(lang: str, rows: list[EventRow]) -> list[EventRow]:
    """Public events with their text in ``lang`` (each from the message its data keeps, else as stored), so the
    story of the board is told in the table's words."""
    w = words(lang)
    out = []
    for e in rows:
        text = w.stored(json.loads(e.data or "{}"), e.text)
        out.append(e if text == e.text else dataclasses.replace(e, text=text))
    return out


def message_nonce(*parts: Any) -> str:
    """A message nonce (at most 25 characters) that names one thing to post: Discord refuses a second
    message with the same nonce for a few minutes, so a retry after a crash does not post twice."""
    return "n" + hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


class Publisher:
    """Brings Discord up to date with the store, one game at a time, retrying what failed."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._retries: dict[int, asyncio.Task[None]] = {}
        self._failures: dict[int, int] = {}
        #: the last safe-screen text sent per (game, user), so an unchanged screen is not edited again
        self._screens: dict[tuple[int, int], tuple[str, int]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    # --- lifecycle ---------------------------------------------------------------------------------------

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
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("delivery sweep failed")
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

    # --- delivering ----------------------------------------------------------------------------------------

    async def deliver(self, game_id: int) -> bool:
        """Post whatever the store says is not yet posted for this game; True when nothing is left. A failure
        of Discord is logged and retried later (with growing pauses), never lost."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            try:
                # one process at a time brings a game's messages up to date (several may share PostgreSQL):
                # the holder reads the store after taking the lock, so no board is followed by an older one
                async with self.bot.service.store.held("deliver", game_id, DELIVER_WAIT_S):
                    done = await self._deliver(game_id)
            except ServiceError:
                return True  # the game is gone: nothing to tell
            except (*TRANSIENT, StoreBusy) as exc:
                log.warning("delivery for game %s failed (%s); will retry", game_id, exc)
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
        if row.kind == "private" and row.user_id is not None:
            await self.tell(table, row.user_id, private_lines(body), nonce=message_nonce("o", row.id))
        elif row.kind == "offer":  # in the channel, for the table to see: the table's language
            channel = await self.channel(table.row.table_channel)
            view = discord.ui.View(timeout=None)
            view.add_item(OfferButton(table.id, body["seat"], "take", table.lang))
            view.add_item(OfferButton(table.id, body["seat"], "keep", table.lang))
            await channel.send(
                clip_message(words(table.lang).stored(body, body["text"])),
                view=view,
                allowed_mentions=mentions([body["to_user"], body["from_user"]]),
                nonce=message_nonce("o", row.id),
            )
        else:
            log.error("unknown outbox entry %s of kind %r dropped", row.id, row.kind)

    async def _deliver_board(self, table: Table, pt: PublicTable) -> None:
        """The story in the table's channel (see ``docs/table.md``, "The channel tells the story"):

        * the current message (the "board") is edited while its turn goes on and nobody new must act;
        * when a turn ends, it is edited one last time into a summary without buttons; every turn or Lucky
          Luciano phase that passed within the same move gets a message of its own; then a new message opens,
          mentioning whoever must act now (a player's turn starts with what happened since their last one);
        * a line that cannot be shown in the message it belongs to is posted on its own first, so every public
          event reaches the channel.
        """
        store = self.bot.service.store
        current = await store.get_message(table.id, "board")
        last_id = await store.last_event_id(table.id)
        if current is not None and current.version >= table.version and current.upto >= last_id:
            return  # nothing new (or a newer board is up already: never show an older one over it)
        upto = current.upto if current is not None else 0
        fresh = said_in(table.lang, [e for e in await store.events_after(table.id, upto) if e.seats is None])
        last = max([last_id, upto])
        data = json.loads(current.data) if current is not None else {}
        acting = pt.waiting_users()
        starts = [i for i, e in enumerate(fresh) if e.kind in story.STARTS]
        # a new turn pings whoever must act in it (even the same player again); else only who is new to act
        ping = acting if starts else [u for u in acting if u not in data.get("acting", [])]
        ended = table.row.status != "active" and data.get("status", "active") != table.row.status
        if ended and table.row.status == "finished":
            ping = [s.user_id for s in pt.seats if s.user_id > 0]  # the end of the game: everyone
        await self._event_pictures(table, pt, fresh)
        if current is not None and not starts and not ping and not ended:
            await self._edit_open(table, pt, current, data, fresh, last)
            return
        if current is not None:
            end = fresh[starts[0] - 1].id if starts and starts[0] > 0 else upto
            await self._close(table, current, data, end)
        opening = fresh
        if starts:
            segs = story.segments(fresh[starts[0] :])
            for seg in segs[:-1]:  # whole turns or phases that passed within this move: a message each
                await self._post_passed(table, pt, seg)
            opening = segs[-1].events
        await self._open(table, pt, opening, ping, last, data)

    async def repost(self, game_id: int) -> None:
        """``/game status``: the current message again, at the bottom of the channel, with a fresh picture (the
        old one is closed into its summary). Nobody is pinged."""
        async with (
            self._locks.setdefault(game_id, asyncio.Lock()),
            self.bot.service.store.held("deliver", game_id, DELIVER_WAIT_S),
        ):
            await self._deliver(game_id)  # first bring it up to date
            service = self.bot.service
            table = await service.load(game_id)
            current = await service.store.get_message(game_id, "board")
            if table.state is None or current is None:
                return
            pt = await service.public(table)
            data = json.loads(current.data)
            await self._close(table, current, data, current.upto)
            events = await self._range(table, int(data.get("first", 0)))
            await self._open(table, pt, events, [], current.upto, data, why=f"status{current.message_id}")

    def _names(self, pt: PublicTable) -> list[str]:
        players = (pt.view or {}).get("players", [])
        return [pt.name_of(i) for i in range(max(len(players), len(pt.seats)))]

    async def _range(self, table: Table, first: int, end: int | None = None) -> list[EventRow]:
        """The public events of one message: ids from ``first`` to ``end``."""
        rows = await self.bot.service.store.events_after(table.id, first - 1)
        return said_in(table.lang, [e for e in rows if e.seats is None and (end is None or e.id <= end)])

    async def _edit_open(
        self, table: Table, pt: PublicTable, current: Any, data: dict[str, Any], fresh: list[EventRow], last: int
    ) -> None:
        """The turn goes on: the same message shows every step so far (no new picture, no ping). A race window
        it shows starts once the edit is made."""
        pt, arm = await self._window(table, pt)
        events = await self._range(table, int(data.get("first", 0)))
        names = self._names(pt)
        lines = [ln for seg in story.segments(events) for ln in story.steps(seg, names, table.lang)]
        text, _, left_out = board.turn_message(pt, data.get("since", []), lines, [])
        new_lines = [ln for seg in story.segments(fresh) for ln in story.steps(seg, names, table.lang)]
        if left_out and len(lines) - left_out < len(new_lines):  # some new lines are not on show: post them whole
            await self._post_lines(table, new_lines, ("x", table.id, fresh[0].id if fresh else last))
        channel = await self.channel(table.row.table_channel)
        message = channel.get_partial_message(current.message_id)  # type: ignore[attr-defined]
        data = {**data, "acting": pt.waiting_users(), "status": table.row.status}
        try:
            await self._edit(table, message, content=text, view=public_view(pt), allowed_mentions=mentions([]))
        except discord.NotFound:  # deleted by someone: open anew
            await self._open(table, pt, events, pt.waiting_users(), last, data)
            return
        if arm:  # before the message is marked shown: a crash in between shows it again and then arms it
            await self.bot.service.arm_race(table.id, table.version, pt.race_closes)  # type: ignore[arg-type]
        await self.bot.service.store.set_message_shown(table.id, "board", table.version, last, data=json.dumps(data))

    async def _close(self, table: Table, current: Any, data: dict[str, Any], end: int) -> None:
        """A finished turn's message: one last edit into its summary, without buttons."""
        events = await self._range(table, int(data.get("first", 0)), end)
        names = data.get("names", [])
        lines = [story.line(seg, names, complete=True, lang=table.lang) for seg in story.segments(events)]
        text, _ = board.compose([data.get("head", "")], [board.Section("", lines)], [])
        channel = await self.channel(table.row.table_channel)
        message = channel.get_partial_message(current.message_id)  # type: ignore[attr-defined]
        with contextlib.suppress(discord.NotFound):
            await self._edit(table, message, content=text or "…", view=None, allowed_mentions=mentions([]))

    async def _edit(self, table: Table, message: Any, **fields: Any) -> None:
        """Edit a message of the table; an archived thread (a game resting for days) is re-opened first."""
        try:
            await message.edit(**fields)
        except discord.HTTPException as exc:
            if exc.code != ARCHIVED or not table.row.thread_id:
                raise
            thread = self.bot.get_channel(table.row.thread_id) or await self.bot.fetch_channel(table.row.thread_id)
            await thread.edit(archived=False)  # type: ignore[union-attr]
            await message.edit(**fields)

    async def _post_passed(self, table: Table, pt: PublicTable, seg: story.Segment) -> None:
        """A turn or phase that began and ended within one move (Jo's turn; a Mob War nobody could defend)."""
        names = self._names(pt)
        head = ""
        if seg.events:  # its events are in the table's words already (said_in)
            what = seg.events[0].text.rstrip(".")
            head = words(table.lang)(M("table.board.passed", "**Game #{game} · {what}**", game=table.id, what=what))
        lines = story.steps(seg, names, table.lang)
        text, left_out = board.compose([head], [board.Section("", lines)], [])
        channel = await self.channel(table.row.table_channel)
        if left_out:  # a long phase: every line, in as many messages as it takes
            for i, chunk in enumerate(board.chunks(lines, head)):
                await channel.send(
                    chunk, allowed_mentions=mentions([]), nonce=message_nonce("s", table.id, seg.first, i)
                )
            return
        await channel.send(text, allowed_mentions=mentions([]), nonce=message_nonce("s", table.id, seg.first))

    async def _post_lines(self, table: Table, lines: list[str], key: tuple[Any, ...]) -> None:
        channel = await self.channel(table.row.table_channel)
        title = words(table.lang)(M("table.board.continued", "**Game #{game}** (continued)", game=table.id))
        for i, chunk in enumerate(board.chunks(lines, title)):
            await channel.send(chunk, allowed_mentions=mentions([]), nonce=message_nonce(*key, i))

    async def _open(
        self,
        table: Table,
        pt: PublicTable,
        events: list[EventRow],
        ping: list[int],
        last: int,
        old: dict[str, Any],
        why: str = "turn",
    ) -> None:
        """A new message for the turn (or question) now: the picture, what happened since the player's last
        turn, the steps so far, the question and the mention of whoever must act."""
        store = self.bot.service.store
        names = self._names(pt)
        first = events[0].id if events else last + 1
        segs = story.segments(events)
        since: list[str] = []
        opener = segs[0] if segs else None
        if opener is not None and opener.kind == "turn" and opener.seat is not None:
            user = pt.user_of(opener.seat)
            if user is not None and user > 0:
                everything = story.segments(said_in(table.lang, await store.get_events(table.id, public_only=True)))
                behind = story.since_last_turn(everything, opener.seat, first)
                since = [story.line(s, names, lang=table.lang) for s in behind]
        lines = [ln for seg in segs for ln in story.steps(seg, names, table.lang)]
        view = pt.view
        assert view is not None
        pics = PICTURES[table.game.name]
        # the pictures first: a snap window's time starts after them
        if pics.pictures is not None:  # several pictures, outlining what changed since the last ones posted
            pngs = await self.bot.renderer.render(pics.pictures, view, old.get("marks"))
        else:
            pngs = [("table.png", await self.bot.renderer.render(pics.table, view))]
        pt, arm = await self._window(table, pt)
        text, _, left_out = board.turn_message(pt, since, lines, ping)
        if left_out:  # steps of this move that do not fit: posted whole, first
            await self._post_lines(table, lines, ("x", table.id, first))
        files = [
            discord.File(io.BytesIO(png), filename=name, description=board.picture_description(pt, i) or None)
            for i, (name, png) in enumerate(pngs)
        ]
        channel = await self.channel(table.row.table_channel)
        message = await channel.send(
            text,
            files=files,
            view=public_view(pt),
            allowed_mentions=mentions(ping),
            nonce=message_nonce("m", table.id, first, table.version, why),
        )
        if arm:  # before the message is recorded: a crash in between posts it again and then arms it
            await self.bot.service.arm_race(table.id, table.version, pt.race_closes)  # type: ignore[arg-type]
        data = {
            "first": first,
            "acting": pt.waiting_users(),
            "status": table.row.status,
            "head": board.headline(pt),
            "names": names,
            "since": since,
        }
        if pics.marks is not None:  # what these pictures show, for the next ones to compare with
            data["marks"] = pics.marks(view)
        await store.set_message(
            table.id, "board", message.channel.id, message.id, version=table.version, upto=last, data=json.dumps(data)
        )

    async def _window(self, table: Table, pt: PublicTable) -> tuple[PublicTable, bool]:
        """A race window whose time has not started yet starts now, as its board is about to be posted: the
        closing time it will show, and True (the caller starts it once the board is posted)."""
        if not any(p.race for p in pt.prompts):
            return pt, False
        race = await self.bot.service.store.get_race(table.id)
        if race is None or race.version != table.version or race.armed:
            return pt, False
        # rounded up to the second a relative timestamp shows: the window never closes before the time shown
        closes = pt.race_closes or float(math.ceil(self.bot.service.clock() + race_window(table)))
        return dataclasses.replace(pt, race_closes=closes), True

    async def _event_pictures(self, table: Table, pt: PublicTable, events: list[EventRow]) -> None:
        """Extra pictures for events such as a round's reveal or the final scoring, once each."""
        pics = PICTURES[table.game.name]
        kinds = {e.kind for e in events}
        channel = None
        for kind, (filename, fn, describe) in pics.on_event.items():
            if kind not in kinds or pt.view is None:
                continue
            channel = channel or await self.channel(table.row.table_channel)
            first = next(e.id for e in events if e.kind == kind)
            png = await self.bot.renderer.render(fn, pt.view)
            await channel.send(
                clip_message(describe(pt.view)),
                file=discord.File(io.BytesIO(png), filename=filename),
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=message_nonce("p", table.id, first),
            )

    # --- private messages ----------------------------------------------------------------------------------

    async def _update_screens(self, table: Table) -> None:
        """Each player's safe screen: one private message the bot edits when it changes (by DM, or in the
        player's private thread when DMs are closed)."""
        screen = PICTURES[table.game.name].screen
        assert screen is not None
        store = self.bot.service.store
        for seat in table.seats:
            if seat.user_id <= 0:
                continue
            lang = await self.bot.langs.of(store, seat.user_id, table.lang)  # a private screen: its reader's words
            view = in_lang(table.view(seat.seat), lang)
            assert view is not None
            head = M(
                "table.screen.head",
                "**Game #{game} · {title} · your safe screen**",
                game=table.id,
                title=table.game.title,
            )
            text = clip_message(f"{words(lang)(head)}\n{screen(view)}")
            key = (table.id, seat.user_id)
            kind = f"screen:{seat.user_id}"
            row = await store.get_message(table.id, kind)
            if row is not None and row.version > table.version:
                continue  # a newer screen is up already
            # unchanged since this process showed it (and no other process has shown a screen since)
            if row is not None and self._screens.get(key) == (text, row.version):
                continue
            if row is not None:
                try:
                    channel = self.bot.get_channel(row.channel_id) or await self.bot.fetch_channel(row.channel_id)
                    await channel.get_partial_message(row.message_id).edit(content=text)  # type: ignore[union-attr]
                    await store.set_message_shown(table.id, kind, table.version, 0)
                    self._screens[key] = (text, table.version)
                    continue
                except (discord.NotFound, discord.Forbidden):
                    pass  # deleted, or an archived thread: send a new screen message
            message = await self._send_private(
                table, seat.user_id, text, message_nonce("s", table.id, seat.user_id, table.version)
            )
            if message is not None:
                await store.set_message(table.id, kind, message.channel.id, message.id, version=table.version)
                self._screens[key] = (text, table.version)

    async def _send_private(self, table: Table, user_id: int, text: str, nonce_: str) -> discord.Message | None:
        """One private message: by DM, or in the private thread when DMs are closed."""
        seat = next((s for s in await self.bot.service.store.get_seats(table.id) if s.user_id == user_id), None)
        if seat is not None and not seat.dm_blocked:
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                return await user.send(text, nonce=nonce_)
            except discord.Forbidden:
                await self.bot.service.store.set_seat_dm_blocked(table.id, user_id, True)
                log.info("DMs closed for user %s in game %s; using a private thread", user_id, table.id)
        return await self.tell_in_thread(table, user_id, text, nonce_)

    async def tell(self, table: Table, user_id: int, lines: list[Any], *, nonce: str | None = None) -> None:
        """Private lines (messages or plain text) to one player, in their language as last seen (else the
        table's): by DM, or in their private thread when DMs are closed."""
        if user_id <= 0 or not lines:
            return
        w = words(await self.bot.langs.of(self.bot.service.store, user_id, table.lang))
        head = w(M("table.private.head", "**Game #{game} · {title}** (private)", game=table.id, title=table.game.title))
        text = clip_message(head + "\n" + "\n".join(w(line) for line in lines))
        await self._send_private(table, user_id, text, nonce or message_nonce("t", table.id, user_id, text))

    async def tell_in_thread(self, table: Table, user_id: int, text: str, nonce_: str) -> discord.Message:
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
            w = words(await self.bot.langs.of(store, user_id, table.lang))
            thread = await channel.create_thread(  # type: ignore[attr-defined]
                name=w(M("table.private.thread", "Game #{game} · {name} (private)", game=table.id, name=name))[:100],
                type=discord.ChannelType.private_thread,
                invitable=False,
            )
            await thread.add_user(discord.Object(user_id))  # type: ignore[union-attr]
            if seat is not None:
                await store.set_seat_thread(table.id, user_id, thread.id)  # type: ignore[union-attr]
        return await thread.send(text, allowed_mentions=discord.AllowedMentions.none(), nonce=nonce_)  # type: ignore[union-attr]
