"""The story in the table's channel: the board message of the turn now, its edits, the summaries of finished turns,
the turns that passed within a move, and event pictures."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import json
import math
from typing import Any

import discord

from cogs import board
from cogs.board import clip_message
from cogs.components import public_view
from cogs.pictures import PICTURES
from cogs.publish.common import ARCHIVED, DELIVER_WAIT_S, mentions, message_nonce, said_in
from cogs.table_buttons import final_view
from engine.msg import M
from render import story
from service import PublicTable, Table
from service.claims import race_window
from service.people import seat_after
from store import EventRow
from words import words

#: The kinds of event that begin a game's end: the final message tells what follows (issue 24, "the end in order").
END_KINDS = frozenset({"final", "over", "ended"})


def view_digest(view: dict[str, Any]) -> str:
    """A digest of the public view a board's pictures are drawn from (the same view, the same pictures)."""
    return hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).hexdigest()[:16]


def over_line(ping: list[int], lang: str | None = None) -> str:
    """``Game over: <@1> <@2>``: every player told, once, in the final message (never "Your move")."""
    if not ping:
        return ""
    return words(lang)(M("table.board.over_ping", "Game over: {who}", who=" ".join(f"<@{u}>" for u in ping)))


class BoardMixin:
    """The board messages of :class:`~cogs.publish.Publisher`, a mixin of it: it uses the publisher's ``bot``,
    ``_locks`` (set up by its ``__init__``), ``channel`` and ``_deliver``.
    """

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
        upto = current.upto if current is not None else 0
        # only the events of the state loaded: a move committed since (another click) is the next delivery's, so
        # a picture is never drawn from a state older than its events (a round's reveal from the view before it)
        newer = [e for e in await store.events_after(table.id, upto) if e.pos <= table.version]
        last_id = newer[-1].id if newer else upto
        if current is not None and current.version >= table.version and current.upto >= last_id:
            return  # nothing new (or a newer board is up already: never show an older one over it)
        fresh = said_in(table.lang, [e for e in newer if e.seats is None])
        last = max([last_id, upto])
        data = json.loads(current.data) if current is not None else {}
        acting = pt.waiting_users()
        starts = [i for i, e in enumerate(fresh) if e.kind in story.STARTS]
        # a new turn pings whoever must act in it (even the same player again); else only who is new to act
        ping = acting if starts else [u for u in acting if u not in data.get("acting", [])]
        ended = table.row.status != "active" and data.get("status", "active") != table.row.status
        if data.get("final"):  # the final message stays as it is: a line logged after it comes on its own
            lines = [ln for seg in story.segments(fresh) for ln in story.steps(seg, self._names(pt), table.lang)]
            if lines:
                await self._post_lines(table, lines, ("x", table.id, fresh[0].id))
            await store.set_message_shown(table.id, "board", table.version, last)
            return
        if ended and table.row.status in ("finished", "ended"):
            await self._deliver_end(table, pt, current, data, fresh, upto, last)
            return
        if current is not None and not starts and not ping and not ended:
            await self._event_pictures(table, pt, fresh)
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
        await self._event_pictures(table, pt, fresh)  # after the story that led to them (a round's reveal)
        await self._open(table, pt, opening, ping, last, data)

    async def _deliver_end(
        self,
        table: Table,
        pt: PublicTable,
        current: Any,
        data: dict[str, Any],
        fresh: list[EventRow],
        upto: int,
        last: int,
    ) -> None:
        """The end of a game (finished, or ended by agreement), in order: the last turn's story (the open
        message closed into its summary; each turn or phase that passed within the last move a message of its
        own), then one final message (see ``_final``). The end's own log lines (from its first ``END_KINDS``
        event) are told by the final message's standings, not line by line: they are in ``/game log``."""
        cut = next((i for i, e in enumerate(fresh) if e.kind in END_KINDS), len(fresh))
        told = fresh[:cut]
        starts = [i for i, e in enumerate(told) if e.kind in story.STARTS]
        if current is not None:
            # the open turn's message keeps the new events up to the first new turn (all of them when none began)
            first_new = (told[starts[0] - 1].id if starts[0] > 0 else upto) if starts else None
            end = first_new if first_new is not None else (told[-1].id if told else upto)
            await self._close(table, current, data, end)
        passed = told[starts[0] :] if starts else ([] if current is not None else told)
        for seg in story.segments(passed):
            await self._post_passed(table, pt, seg)
        await self._final(table, pt, fresh[cut:], {e.kind for e in fresh}, last)

    async def _final(self, table: Table, pt: PublicTable, end: list[EventRow], kinds: set[str], last: int) -> None:
        """The one final message, the last post of the game: the headline, the standings with money by source and
        ties (the game's end pictures and their words: Speakeasy's final scoring, Omerta's last reveal with the
        final standings; an end by agreement: its log lines and the board), and every player named once, with no
        question; its one button is **Rematch** (issue 26). It becomes the game's board message; the lobby message
        then links it."""
        store = self.bot.service.store
        view = pt.view
        pics = PICTURES[table.game.name]
        pngs: list[tuple[str, bytes]] = []
        lines: list[str] = []
        for kind, (filename, fn, describe) in pics.on_event.items():
            if kind in kinds and view is not None:
                pngs.append((filename, await self.bot.renderer.render(fn, view)))
                lines += describe(view).splitlines()
        if pngs and end:  # the end's first line heads its words ("1933: Prohibition ends. Final scoring")
            lines.insert(0, story.said(end[0], table.lang))
        if not pngs:  # no end picture of its own (an end by agreement): its lines and the board as it stands
            lines = [story.said(e, table.lang) for e in end]
            if view is not None and pics.pictures is not None:
                pngs = await self.bot.renderer.render(pics.pictures, view, None)
            elif view is not None:
                pngs = [("table.png", await self.bot.renderer.render(pics.table, view))]
        everyone = [s.user_id for s in pt.seats if s.user_id > 0]
        # issue 23: who is in their quiet hours, or asked to be told by DM only, is named without a ping
        quiet = await self.bot.service.quiet_ends(everyone) if everyone else {}
        told = await self.bot.service.told_by(everyone) if everyone else {}
        tail = (
            board.ended_line(everyone, table.lang) if table.row.status == "ended" else over_line(everyone, table.lang)
        )
        text, _ = board.compose([board.headline(pt)], [board.Section("", lines)], [tail], lang=table.lang)
        files = [
            discord.File(io.BytesIO(png), filename=name, description=board.picture_description(pt, i) or None)
            for i, (name, png) in enumerate(pngs)
        ]
        channel = await self.channel(table.row.table_channel)
        message = await self.post(  # type: ignore[attr-defined]
            channel,
            text,
            files=files,
            view=final_view(table.id, table.lang),  # issue 26: the end invites the next game
            allowed_mentions=mentions([u for u in everyone if u not in quiet and told.get(u) != "dm"]),
            nonce=message_nonce("f", table.id, table.version),
        )
        data = {
            "first": last + 1,
            "acting": [],
            "status": table.row.status,
            "head": board.headline(pt),
            "names": self._names(pt),
            "since": [],
            "final": True,
        }
        if pics.marks is not None and view is not None:  # what the board showed last, as on every board message
            data["marks"] = pics.marks(view)
        await store.set_message(
            table.id, "board", message.channel.id, message.id, version=table.version, upto=last, data=json.dumps(data)
        )
        await self._redraw_lobby(table, result=message.jump_url)  # type: ignore[attr-defined]

    async def repost(self, game_id: int) -> None:
        """``/game status``: the current message again, at the bottom of the channel, with a fresh picture (the
        old one is closed into its summary). Nobody is pinged."""
        async with (
            self._locks(game_id),
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
            if data.get("final"):
                return  # a game's final message is its last word: it is not closed into a summary
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
        """The turn goes on: the same message shows every step so far, and its pictures what the board shows now
        (redrawn when the public view changed, uploaded when a picture did: issue 24); no ping. A race window it
        shows starts once the edit is made."""
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
        fields: dict[str, Any] = {}
        if pt.view is not None and data.get("drawn") != view_digest(pt.view):
            # issue 24: the picture follows the turn; a picture is uploaded again only when what it shows changed
            # outlined against the pictures before this turn: what the whole turn changed, so a picture whose part
            # of the board a step left alone stays the same (and is not uploaded again)
            pngs, drawn = await self._draw(table, pt.view, data.get("base_marks"))
            was = data.get("pngs") or {}
            if drawn["pngs"] != was:
                fields["attachments"] = await self._attachments(table, current.message_id, pt, pngs, was, drawn["pngs"])
            data = {**data, **drawn}
            redrawn = True
        else:
            redrawn = False
        try:
            await self._edit(
                table, message, content=text, view=public_view(pt), allowed_mentions=mentions([]), **fields
            )
        except discord.NotFound:  # deleted by someone: open anew
            await self._open(table, pt, events, pt.waiting_users(), last, data)
            return
        if arm:  # before the message is marked shown: a crash in between shows it again and then arms it
            await self.bot.service.arm_race(table.id, table.version, pt.race_closes)  # type: ignore[arg-type]
        if redrawn:
            await self._drawn(table, data.get("base_marks"), data.get("base_at"))
        await self.bot.service.store.set_message_shown(table.id, "board", table.version, last, data=json.dumps(data))

    async def _attachments(
        self,
        table: Table,
        message_id: int,
        pt: PublicTable,
        pngs: list[tuple[str, bytes]],
        was: dict[str, str],
        now: dict[str, str],
    ) -> list[Any]:
        """A board edit's pictures: a picture that changed (its digest in ``now`` is not the one in ``was``) is
        uploaded, one that did not stays as it is (Discord keeps an attachment named by its id), so a step that
        moved one Capo does not upload the city again."""
        kept: dict[str, Any] = {}
        if any(was.get(name) == digest for name, digest in now.items()):
            channel = await self.channel(table.row.table_channel)
            with contextlib.suppress(discord.NotFound):
                shown = await channel.fetch_message(message_id)  # type: ignore[attr-defined]
                kept = {a.filename: a for a in shown.attachments}
        out: list[Any] = []
        for i, (name, png) in enumerate(pngs):
            if was.get(name) == now[name] and name in kept:
                out.append(kept[name])
            else:
                described = board.picture_description(pt, i) or None
                out.append(discord.File(io.BytesIO(png), filename=name, description=described))
        return out

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
            # the turn's own line names whose turn it is; a new round's header before it stays in the body (issue
            # 24: "Act 1, round 2 (1922). Turn order: Jo, Anna" as the title said nobody's turn)
            opener = next((e for e in seg.events if e.kind == "turn"), seg.events[0])
            what = opener.text.rstrip(".")
            head = words(table.lang)(M("table.board.passed", "**Game #{game} · {what}**", game=table.id, what=what))
        lines = story.steps(seg, names, table.lang)
        text, left_out = board.compose([head], [board.Section("", lines)], [])
        channel = await self.channel(table.row.table_channel)
        if left_out:  # a long phase: every line, in as many messages as it takes
            for i, chunk in enumerate(board.chunks(lines, head)):
                await self.post(  # type: ignore[attr-defined]
                    channel, chunk, allowed_mentions=mentions([]), nonce=message_nonce("s", table.id, seg.first, i)
                )
            return
        await self.post(channel, text, allowed_mentions=mentions([]), nonce=message_nonce("s", table.id, seg.first))  # type: ignore[attr-defined]

    async def _post_lines(self, table: Table, lines: list[str], key: tuple[Any, ...]) -> None:
        channel = await self.channel(table.row.table_channel)
        title = words(table.lang)(M("table.board.continued", "**Game #{game}** (continued)", game=table.id))
        for i, chunk in enumerate(board.chunks(lines, title)):
            await self.post(channel, chunk, allowed_mentions=mentions([]), nonce=message_nonce(*key, i))  # type: ignore[attr-defined]

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
        # the pictures first: a snap window's time starts after them
        pngs, drawn = await self._draw(table, view, old.get("marks"))
        _, _, left_out = board.turn_message(pt, since, lines, ping)
        if left_out:  # steps of this move that do not fit: posted whole, first
            await self._post_lines(table, lines, ("x", table.id, first))
        channel = await self.channel(table.row.table_channel)
        # the board's place in the channel's pace is taken (and waited for) before a race window's time is set
        await self.pacer.slot(channel.id)  # type: ignore[attr-defined]
        pt, arm = await self._window(table, pt)
        text, _, cut = board.turn_message(pt, since, lines, ping)
        if cut and not left_out:  # the closing time took the room of a step: the steps whole, first
            await self._post_lines(table, lines, ("x", table.id, first))
        files = [
            discord.File(io.BytesIO(png), filename=name, description=board.picture_description(pt, i) or None)
            for i, (name, png) in enumerate(pngs)
        ]
        # issue 23: who is in their quiet hours, or asked to be told by DM only, is named without a ping
        quiet = await self.bot.service.quiet_ends(ping) if ping else {}
        told = await self.bot.service.told_by(ping) if ping else {}
        message = await channel.send(
            text,
            files=files,
            view=public_view(pt),
            allowed_mentions=mentions([u for u in ping if u not in quiet and told.get(u) != "dm"]),
            nonce=message_nonce("m", table.id, first, table.version, why),
        )
        if quiet:  # their turn reminder pings them when their quiet hours end
            await self.bot.service.hold_pings(table.id, quiet)
        if table.row.status == "active":
            for u in [u for u in ping if u not in quiet and told.get(u) != "ping" and u in pt.waiting_users()]:
                link = M("table.me.your_move", "It is your move: {link}", link=message.jump_url)
                await self.tell(table, u, [link], nonce=message_nonce("d", table.id, u, table.version, why))  # type: ignore[attr-defined]
            if opener is not None and opener.kind == "turn" and opener.seat is not None and why == "turn":
                await self._heads_up(table, pt, opener.seat, message.jump_url)
        if arm:  # before the message is recorded: a crash in between posts it again and then arms it
            await self.bot.service.arm_race(table.id, table.version, pt.race_closes)  # type: ignore[arg-type]
        data = {
            "first": first,
            "acting": pt.waiting_users(),
            "status": table.row.status,
            "head": board.headline(pt),
            "names": names,
            "since": since,
            "base_marks": old.get("marks"),
            "base_at": old.get("at"),
            **drawn,
        }
        await self._drawn(table, old.get("marks"), old.get("at"))
        await store.set_message(
            table.id, "board", message.channel.id, message.id, version=table.version, upto=last, data=json.dumps(data)
        )

    async def _draw(
        self, table: Table, view: dict[str, Any], marks: list[str] | None
    ) -> tuple[list[tuple[str, bytes]], dict[str, Any]]:
        """The public pictures of ``view`` (outlining what changed since ``marks``, where the game outlines) and
        what the board message keeps of them: their marks, the digest of the view they were drawn from and of
        each picture (issue 24: an edit replaces a picture only when what it shows changed)."""
        pics = PICTURES[table.game.name]
        if pics.pictures is not None:  # several pictures, outlining what changed since the last ones posted
            pngs = await self.bot.renderer.render(pics.pictures, view, marks)
        else:
            pngs = [("table.png", await self.bot.renderer.render(pics.table, view))]
        kept: dict[str, Any] = {
            "drawn": view_digest(view),
            "pngs": {name: hashlib.sha256(png).hexdigest()[:16] for name, png in pngs},
        }
        if pics.marks is not None:  # what these pictures show, for the next ones to compare with
            kept["marks"] = pics.marks(view)
            kept["at"] = table.version  # the version they show (a replay outlines as the table did)
        return pngs, kept

    async def _drawn(self, table: Table, base_marks: list[str] | None, base_at: int | None) -> None:
        """Issue 26: the board picture just posted (the view at the table's version) was outlined against the
        picture of version ``base_at`` (nothing outlined: ``base_marks`` is None), so a replay draws that step as
        the table did. A base drawn before versions were kept is unknown: nothing is recorded."""
        if PICTURES[table.game.name].marks is None or (base_marks is not None and base_at is None):
            return
        await self.bot.service.picture_drawn(table.id, table.version, None if base_marks is None else base_at)

    async def _heads_up(self, table: Table, pt: PublicTable, seat: int, link: str) -> None:
        """Issue 23, ``/me heads_up``: the player whose turn comes after ``seat``'s is told by DM that it began, if
        they asked to be and are not in their quiet hours (a heads-up after them would be late news: none)."""
        after = seat_after(table.game.name, pt.view, seat)
        user = pt.user_of(after) if after is not None and after != seat else None
        if user is None or user <= 0 or user == pt.user_of(seat):
            return
        if not await self.bot.service.wants_heads_up(user):
            return
        line = M(
            "table.me.heads_up_line",
            "{name} has begun their turn; yours comes next: {link}",
            name=pt.name_of(seat),
            link=link,
        )
        await self.tell(table, user, [line], nonce=message_nonce("h", table.id, user, table.version))  # type: ignore[attr-defined]

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
            await self.post(  # type: ignore[attr-defined]
                channel,
                clip_message(describe(pt.view)),
                file=discord.File(io.BytesIO(png), filename=filename),
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=message_nonce("p", table.id, first),
            )
