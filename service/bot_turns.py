"""The seat bots' turns at the table: whether a bot seat has something to do, and playing it, inside the move that
made it due or in a task of its own after it (``bots_later``), retrying when the database fails. A mixin of
``service.core.Core``, which gives it the store, the game locks, loading and committing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bots.table import BotTable, bot_level
from engine.core import Choice, Event
from service.notice import MaybeTaken, Notice, NotTaken, ServiceError, Table
from service.records import effective_choices
from store import Store, StoreBusy, StoreUnavailable

log = logging.getLogger("service.core")

#: Pauses (seconds) before the bots try their move again after the database failed (the project's own values:
#: about two minutes in all; then the next move at the table or the next start-up wakes them).
BOT_RETRY_PAUSES = (0.5, 2.0, 8.0, 30.0, 90.0)


class SeatBot(Protocol):
    """The players the table runs itself (``bots.table.TableBots``): they answer their seats' prompts."""

    def plays(self, game_name: str) -> bool:
        """Whether this game has a seat bot."""

    def run(
        self, table: BotTable, state: Any, stop: Callable[[list[Event]], bool] | None = None
    ) -> list[tuple[Choice, list[Event]]]:
        """Play the bot seats (changing ``state``) until a person or the timer must act (or, with ``stop``, until
        a choice's events satisfy it)."""

    def optional_due(self, table: BotTable, state: Any) -> bool:
        """Whether a bot seat would answer an optional question now (``state`` unchanged)."""


class BotTurns:
    """The bots' part of ``Core`` (its attributes and methods are ``Core``'s: see there)."""

    store: Store
    bots: SeatBot
    bots_later: Callable[[int], Awaitable[Any]] | None
    _bot_tasks: dict[int, asyncio.Task[None]]
    _bots_again: set[int]
    _stopping: bool
    _stop: asyncio.Event

    # the rest of Core that the bots use
    lock: Callable[[int], AbstractAsyncContextManager[None]]
    load: Callable[[int], Awaitable[Table]]
    commit: Callable[..., Awaitable[Notice]]

    async def bots_after(self, notice: Notice) -> Notice:
        """After a committed request that may leave a bot seat to answer (a start, a seat handed to a bot): the
        bots play, in their own task (``bots_later``) or in a move of their own now. The request is committed
        whatever the bots' move meets: a failing database there is logged, not answered as the request's
        failure (the bots' task tries again; without one, the next start-up's recovery lets them play)."""
        try:
            if await self.bots_wanted(notice.table):
                if self.bots_later is not None:
                    self.spawn_bots(notice.table)
                else:
                    notice = await self.commit(notice.table, [], reply=notice.reply)
        except (StoreUnavailable, StoreBusy, NotTaken, MaybeTaken) as exc:
            log.warning("game %s: the bots could not play after the request (%s)", notice.table.id, exc)
            if self.bots_later is not None:
                self.spawn_bots(notice.table)
        return notice

    def bots_due(self, table: Table) -> bool:
        """Whether a bot seat has a question open that is not optional (its answer is due)."""
        levels = self.bot_seats(table)
        # an optional question (a standing snap order) alone is never due: see ``bots_wanted``
        due = any(p.seat in levels and not p.optional for p in table.prompts())
        return bool(levels) and table.row.status == "active" and due

    async def bots_wanted(self, table: Table) -> bool:
        """Whether the bots have something to do: a question due, or an optional one a bot would answer now (an
        Omerta bot whose standing snap orders no longer fit what its seat has seen). The second is asked only
        when a bot seat has an optional question open, and answered off the event loop (it replays the record
        through the bots' eyes), so a move that changed nothing for the bots is followed by no bot move."""
        if self.bots_due(table):
            return True
        if not self._bot_optional_open(table):
            return False
        bots = await self.bot_table(table, self.bot_seats(table))
        return await asyncio.to_thread(self.bots.optional_due, bots, table.state)

    def bots_may_want(self, table: Table) -> bool:
        """Whether the bots may have something to do (cheap, no replay): a question due, or an optional one open
        at a bot seat. ``bots_wanted`` tells which."""
        return self.bots_due(table) or self._bot_optional_open(table)

    def _bot_optional_open(self, table: Table) -> bool:
        levels = self.bot_seats(table)
        if not levels or table.row.status != "active" or table.state is None or not self.bots.plays(table.game.name):
            return False
        return any(p.seat in levels and p.optional for p in table.prompts())

    def spawn_bots(self, table: Table) -> None:
        """Let the bots play in a task of their own (``bots_later`` mode); the caller has checked that they may
        have something to do (``bots_may_want``). A task already running looks again before it ends."""
        if not self.bots.plays(table.game.name):
            return
        running = self._bot_tasks.get(table.id)
        if running is not None and not running.done():
            self._bots_again.add(table.id)
            return
        task = asyncio.get_running_loop().create_task(self._bots_task(table.id))
        self._bot_tasks[table.id] = task
        task.add_done_callback(lambda done, gid=table.id: self._bot_task_done(gid, done))

    def _bot_task_done(self, game_id: int, task: asyncio.Task[None]) -> None:
        """Forget a game's finished bots' task (unless a newer one took its place)."""
        if self._bot_tasks.get(game_id) is task:
            del self._bot_tasks[game_id]

    async def _bots_task(self, game_id: int) -> None:
        # (no await between the flag's test and the end: a move that finds this task running is never missed)
        failures = 0
        try:
            while True:
                self._bots_again.discard(game_id)
                try:
                    await self._bots_once(game_id)
                except (StoreUnavailable, StoreBusy, NotTaken, MaybeTaken) as exc:
                    # the record is the truth: the next look reloads it and plays only what is still due
                    if failures >= len(BOT_RETRY_PAUSES) or self._stopping:
                        log.warning(
                            "game %s: the bots gave up for now (%s); the next move or start-up wakes them", game_id, exc
                        )
                        return
                    log.warning("game %s: the bots' move failed (%s); trying again", game_id, exc)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._stop.wait(), BOT_RETRY_PAUSES[failures])
                    failures += 1
                    self._bots_again.add(game_id)
                if game_id not in self._bots_again:
                    return
        except BaseException:
            self._bots_again.discard(game_id)  # the task is over: its flag would be kept for nothing
            raise

    async def _bots_once(self, game_id: int) -> None:
        """One bot move, if the bots have something to do. Whether they have is asked outside the game's lock
        (for Omerta's standing orders it replays the record, in a thread): the players' clicks meanwhile are not
        held up. If the game moved on while it was asked, the task looks again."""
        table = await self.load(game_id)
        if not await self.bots_wanted(table):
            return
        async with self.lock(game_id):
            now = await self.load(game_id)
            if now.version != table.version:
                self._bots_again.add(game_id)
                return
            try:
                await self.commit(now, [], inline_bots=True)
            except (NotTaken, MaybeTaken):
                raise
            except (ServiceError, ValueError):  # the bots let a race go, or the game is over
                return
        if self.bots_later is not None:
            await self.bots_later(game_id)

    async def stop_bots(self) -> None:
        """Wait for the bots' running moves (a clean shutdown: a move is committed whole or not at all); a task
        waiting to try again after a failure stops."""
        self._stopping = True
        self._stop.set()
        for task in list(self._bot_tasks.values()):
            with contextlib.suppress(Exception):
                await task

    def bots_busy(self, game_id: int) -> bool:
        """Whether the bots of a game are still playing (for tests and a clean shutdown)."""
        task = self._bot_tasks.get(game_id)
        return task is not None and not task.done()

    @staticmethod
    def bot_seats(table: Table) -> dict[int, str]:
        """The seats bots play, with their levels (a bot seat's user id says its level)."""
        return {s.seat: lv for s in table.seats if (lv := bot_level(s.user_id)) is not None}

    async def bot_table(self, table: Table, levels: dict[int, str], since: Sequence[Choice] = ()) -> BotTable:
        """What the bots need of a table: its record (the choices in effect, then ``since``) and levels."""
        record = effective_choices(await self.store.get_choices(table.id)) + list(since)
        names = [s.name for s in table.seats]
        return BotTable(table.game, names, json.loads(table.row.options), table.row.seed, levels, record)

    async def run_bots(
        self, table: Table, since: Sequence[Choice] = ()
    ) -> list[tuple[Choice, int | None, list[Event]]]:
        """Let the bot seats answer their prompts until a person must decide, off the event loop (a search may
        take seconds: other games go on meanwhile; this game's lock keeps its own requests waiting)."""
        levels = self.bot_seats(table)
        if not levels or table.state is None or not self.bots.plays(table.game.name):
            return []
        if not any(p.seat in levels for p in table.prompts()):
            return []  # an optional question only: the bots answer it if their knowledge asks for it
        bots = await self.bot_table(table, levels, since)
        done = await asyncio.to_thread(self.bots.run, bots, table.state)
        return [(choice, None, events) for choice, events in done]
