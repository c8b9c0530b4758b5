"""The service's common ground: loading a game, the guards every request passes, and the one way a move is
committed (the choices with everything they change, in one transaction, before anyone is told)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

from bots.table import BotTable, TableBots, bot_level
from engine.core import (
    Choice,
    Event,
    Game,
    IllegalChoice,
    Option,
    Prompt,
    dump_choice,
    load_choice,
    replay,
    waits_for,
)
from engine.msg import M, Msg, dump_or_none, load
from engine.registry import TABLE_GAMES
from service.config import Settings
from service.locks import KeyedLocks
from service.notice import MaybeTaken, Notice, NotTaken, ServiceError, StaleClick, Table, User
from service.outcome import Written, commit_move, taken_reply
from store import UNARMED, Move, Store, StoreBusy, StoreUnavailable

log = logging.getLogger(__name__)

#: The record of an undo: it takes back the latest choice still in effect (the record stays append-only).
UNDO_KIND = "_undo"
#: SQLite's integers (and Discord's snowflakes) end below 2^63: a larger number cannot be a real id.
MAX_ID = 2**63
#: how long a request waits for another process to finish with the same game (the project's own value: a move
#: takes milliseconds, so this only runs out if that process hangs)
GAME_LOCK_WAIT_S = 10.0
#: Kinds of the events the table itself writes into the log (not the engine's).
TABLE_EVENT = "table"
#: Pauses (seconds) before the bots try their move again after the database failed (the project's own values:
#: about two minutes in all; then the next move at the table or the next start-up wakes them).
BOT_RETRY_PAUSES = (0.5, 2.0, 8.0, 30.0, 90.0)
#: The refusal of a click that lost the race to another move.
MOVED_FIRST = M("table.err.moved_first", "Someone else moved first; the board has changed. Use the latest message.")
#: The refusal of a click on a board that has moved on.
OLD_BOARD = M(
    "table.err.old_board", "That button belongs to an older board; the game has moved on. Use the latest message."
)


def effective_choices(raw: Sequence[str]) -> list[Choice]:
    """The choices in effect: each undo record takes back the latest choice before it."""
    out: list[Choice] = []
    for item in raw:
        choice = load_choice(item)
        if choice.kind == UNDO_KIND:
            if out:
                out.pop()
        else:
            out.append(choice)
    return out


def event_row(pos: int, e: Event) -> tuple[int, str, str | None, str, str]:
    """An engine event as the store keeps it."""
    seats = None if e.to is None else json.dumps(list(e.to))
    return (pos, e.kind, seats, e.text, json.dumps(e.data, sort_keys=True, default=str))


def table_row(pos: int, text: str, kind: str = TABLE_EVENT, **data: Any) -> tuple[int, str, None, str, str]:
    """A public line the table itself writes into the log (a skip, an undo, a claim, a seat changing hands). A
    message keeps its JSON form in the data (``"msg"``), as an engine event does, so the log is read in any
    language."""
    if isinstance(text, Msg):
        data = {**data, "msg": text.dump()}
    return (pos, kind, None, str(text), json.dumps(data, sort_keys=True, default=str))


def said(e: Event) -> Any:
    """What an event says: its message (from its JSON form), or its plain text."""
    return load(e.data["msg"]) if "msg" in e.data else e.text


def private_body(lines: Sequence[Any]) -> str:
    """An outbox entry of private lines: their English and, for each message, its JSON form (``msgs``), so the
    line is made in the reader's language when it is sent."""
    return json.dumps({"lines": [str(x) for x in lines], "msgs": [dump_or_none(x) for x in lines]})


def label_of(opt: Option | None) -> Any:
    """An option's label as a message when the engine gave one (its JSON form in ``words``), else its text."""
    if opt is None:
        return ""
    words = opt.words or {}
    return load(words["label"]) if "label" in words else opt.label


def no_game(game_id: object) -> Msg:
    """The refusal for a game number that names no game."""
    return M("table.err.no_game", "There is no game #{game}. Use /game list to see the games here.", game=game_id)


def no_game_here(game_id: object) -> Msg:
    """The refusal for a game of another server (a number typed, or a button forged, elsewhere)."""
    return M(
        "table.err.no_game_here",
        "There is no game #{game} in this server. Use /game list to see the games here.",
        game=game_id,
    )


def no_seat_in_dm(game_id: object) -> Msg:
    """The refusal in a DM for a game where the user holds no seat (the same for a game that does not exist)."""
    return M(
        "table.err.dm_no_seat",
        "You have no seat in game #{game}; run this in the game's server.",
        game=game_id,
    )


def server_only(game_id: object) -> Msg:
    """The refusal in a DM of what only the game's own server may do (a seated player asking)."""
    return M(
        "table.err.dm_server_only",
        "That works only in game #{game}'s own server, not in a DM; run it there.",
        game=game_id,
    )


#: ``Core.load_for`` scopes: what a seated player may do from a DM too (look at their game, move, undo, reclaim)
SEAT = "seat"
#: what only the game's own server may do (join, open, export, every host tool)
SERVER = "server"


def status_word(status: str) -> Msg | str:
    """A game's status in words (``Game #3 is finished``)."""
    words = {
        "lobby": M("table.status.lobby", "lobby"),
        "active": M("table.status.active", "active"),
        "finished": M("table.status.finished", "finished"),
        "abandoned": M("table.status.abandoned", "abandoned"),
    }
    return words.get(status, status)


#: What only the host or an admin may do, each refusal a whole sentence (word order differs by language).
HOST_ONLY: dict[str, Callable[[int], Msg]] = {
    "start": lambda g: M("table.err.host.start", "Only the host or a server admin can start game #{game}.", game=g),
    "abandon": lambda g: M(
        "table.err.host.abandon", "Only the host or a server admin can abandon game #{game}.", game=g
    ),
    "skip": lambda g: M(
        "table.err.host.skip", "Only the host or a server admin can skip a turn in game #{game}.", game=g
    ),
    "substitute": lambda g: M(
        "table.err.host.substitute", "Only the host or a server admin can substitute a player in game #{game}.", game=g
    ),
    "addbot": lambda g: M(
        "table.err.host.addbot", "Only the host or a server admin can add a bot to game #{game}.", game=g
    ),
    "removebot": lambda g: M(
        "table.err.host.removebot", "Only the host or a server admin can remove a bot from game #{game}.", game=g
    ),
    "botseat": lambda g: M(
        "table.err.host.botseat", "Only the host or a server admin can hand a seat to a bot in game #{game}.", game=g
    ),
}


def check_id(value: int, what: str = "game") -> int:
    """A game, server, channel or user id: a positive whole number below 2^63, else a clear refusal."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < MAX_ID:
        if what == "game":
            raise ServiceError(no_game(value))
        if what == "server":
            raise ServiceError(M("table.err.bad_server_id", "{value} is not a valid server id.", value=value))
        if what == "channel":
            raise ServiceError(M("table.err.bad_channel_id", "{value} is not a valid channel id.", value=value))
        raise ServiceError(M("table.err.bad_id", "{value} is not a valid id.", value=value))
    return value


class SeatBot(Protocol):
    """The players the table runs itself (``bots.table.TableBots``): they answer their seats' prompts."""

    def plays(self, game_name: str) -> bool:
        """Whether this game has a seat bot."""

    def run(self, table: BotTable, state: Any) -> list[tuple[Choice, list[Event]]]:
        """Play the bot seats (changing ``state``) until a person or the timer must act."""

    def optional_due(self, table: BotTable, state: Any) -> bool:
        """Whether a bot seat would answer an optional question now (``state`` unchanged)."""


class Core:
    """Loading, guards and committing moves; the request methods live in the mixins of ``TableService``."""

    def __init__(
        self,
        store: Store,
        settings: Settings | None = None,
        *,
        clock: Callable[[], float] = time.time,
        games: Mapping[str, Game] = TABLE_GAMES,
        bots: SeatBot | None = None,
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.clock = clock
        self.games = dict(games)
        self.bots: SeatBot = bots if bots is not None else TableBots()
        #: ``None``: bots answer inside the move that made them due (one transaction). Set (by the Discord bot,
        #: to post what they did): they play in a task of their own after the move is committed, so the
        #: player who moved is answered at once; this is called with the game id after their move.
        self.bots_later: Callable[[int], Awaitable[Any]] | None = None
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}
        #: games whose bots' task must look again before it ends: a move came while it ran (``spawn_bots``)
        self._bots_again: set[int] = set()
        #: a game's lock exists only while a request holds or waits for it (memory stays flat over many games)
        self._locks: KeyedLocks[int] = KeyedLocks()
        #: set by ``stop_bots``: a bots' task waiting to try again after a failing database stops
        self._stopping = False
        self._stop = asyncio.Event()

    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """One request at a time per game: in this process, and across the processes that share a PostgreSQL
        database (the store's work lock, which a process that dies gives up at once). The store's version
        check guards the rest; the lock keeps e.g. a claim from slipping in while another process closes the
        window."""
        async with self._locks(game_id), self.store.held("game", game_id, GAME_LOCK_WAIT_S):
            yield

    # --- loading -------------------------------------------------------------------------------------------

    def game_of(self, name: str) -> Game:
        """The engine for a game name, or a clear error."""
        try:
            return self.games[name]
        except KeyError:
            raise ServiceError(
                M(
                    "table.err.no_game_called",
                    "There is no game called {name}. Games: {games}.",
                    name=repr(name),
                    games=", ".join(sorted(self.games)),
                )
            ) from None

    async def load(self, game_id: int) -> Table:
        """A game with its seats and state; the state comes from the snapshot or, if that lags, a replay (off
        the event loop: a long game takes milliseconds to replay)."""
        row = await self.store.get_game(check_id(game_id))
        if row is None:
            raise ServiceError(no_game(game_id))
        game = self.game_of(row.game)
        table = Table(row, await self.store.get_seats(game_id), game)
        snap = await self.store.get_snapshot(game_id) if row.status != "lobby" else None
        if row.status in ("active", "finished") or snap is not None:  # an abandoned game keeps its last state
            if snap is not None and snap[0] == row.version:
                table.state = game.loads(snap[1])
            else:  # the record is the truth; the snapshot is only a cache
                raw = await self.store.get_choices(game_id)
                table.state = await asyncio.to_thread(self.replay, table, effective_choices(raw))
        return table

    async def load_in(self, game_id: int, guild_id: int | None) -> Table:
        """``load``, refusing a game of another server (a game number typed from elsewhere)."""
        table = await self.load(game_id)
        if guild_id is not None and table.row.guild_id != guild_id:
            raise ServiceError(no_game_here(game_id))
        return table

    async def load_for(self, game_id: int, user: User, scope: str = SEAT) -> Table:
        """The game a person asks about, where they ask (issue 22, "A DM is not a back door"). In a server: only
        that server's games ("There is no game #3 in this server"). In a DM: only a game where the user holds a
        seat (or the claim on the seat a bot plays for them), and only what a seated player does there
        (``scope`` ``SEAT``); joining, exporting and the host's tools (``SERVER``) only in the game's own
        server. A DM gets the same answer for a game that does not exist as for one without the user's seat, so
        a game number typed in a DM tells nothing about other servers' games."""
        if not user.dm:
            return await self.load_in(game_id, user.guild_id)
        if not isinstance(game_id, int) or isinstance(game_id, bool) or not 0 < game_id < MAX_ID:
            raise ServiceError(no_seat_in_dm(game_id))
        row = await self.store.get_game(game_id)
        if row is None:
            raise ServiceError(no_seat_in_dm(game_id))
        table = await self.load(game_id)
        if table.seat_of(user.id) is None and user.id not in (await self.seat_claims(table)).values():
            raise ServiceError(no_seat_in_dm(game_id))
        if scope == SERVER:
            raise ServiceError(server_only(game_id))
        return table

    async def seat_claims(self, table: Table) -> dict[int, int]:
        """``{seat: player}`` for each seat a bot plays for a player (the host's ``/game botseat``): the seat stays
        that player's; only they take it back (``/game reclaim``) and it is offered to no one else meanwhile.
        Read from the log's seat lines (committed with each change of hands): the latest line of a seat says
        who holds it and for whom."""
        claims: dict[int, int] = {}
        for e in await self.store.get_events(table.id, public_only=True):
            if e.kind != "seat":
                continue
            data = json.loads(e.data or "{}")
            if "seat" not in data:
                continue
            if data.get("bot_from") is not None:
                claims[data["seat"]] = int(data["bot_from"])
            else:
                claims.pop(data["seat"], None)
        return {s: u for s, u in claims.items() if bot_level(table.user_of(s) or 0) is not None}

    async def list_games(self, guild_id: int, channel_id: int | None = None, *, open_only: bool = True) -> list[Table]:
        """Games in a guild (or one channel), lobby and active ones by default."""
        statuses = ("lobby", "active") if open_only else None
        rows = await self.store.list_games(guild_id, statuses, channel_id)
        return [Table(r, await self.store.get_seats(r.id), self.game_of(r.game)) for r in rows]

    async def games_of_user(self, user_id: int) -> list[Table]:
        """The lobby and active games where a user holds a seat, in every server (without their states)."""
        rows = await self.store.games_for_user(user_id, ("lobby", "active"))
        return [Table(r, await self.store.get_seats(r.id), self.game_of(r.game)) for r in rows]

    def replay(self, table: Table, choices: Sequence[Choice]) -> Any:
        """The state after ``choices`` from the game's start (synchronous: call it off the event loop)."""
        names = [s.name for s in table.seats]
        return replay(table.game, names, json.loads(table.row.options), table.row.seed, choices)

    # --- guards --------------------------------------------------------------------------------------------

    @staticmethod
    def need_active(table: Table, what: Msg | str) -> None:
        """The game must be running (``what``: what there is not, e.g. "nothing to play", as a message)."""
        if table.row.status != "active":
            raise ServiceError(
                M(
                    "table.err.not_active",
                    "Game #{game} is {status}; there is {what}.",
                    game=table.id,
                    status=status_word(table.row.status),
                    what=what,
                )
            )

    @staticmethod
    def need_host(table: Table, user: User, what: str) -> None:
        """Host or a server admin of the game's own server, asking from that server (``what``: a key of
        ``HOST_ONLY``)."""
        if user.dm:
            raise ServiceError(no_seat_in_dm(table.id) if table.seat_of(user.id) is None else server_only(table.id))
        if user.guild_id is not None and user.guild_id != table.row.guild_id:
            raise ServiceError(no_game_here(table.id))
        admin = user.admin and user.guild_id == table.row.guild_id
        if user.id != table.row.host_id and not admin:
            raise ServiceError(HOST_ONLY[what](table.id))

    # --- committing a move ---------------------------------------------------------------------------------

    async def commit(
        self,
        table: Table,
        moves: list[tuple[Choice, int | None]],
        *,
        preface: Sequence[str] = (),
        reply: str = "",
        inline_bots: bool = False,
    ) -> Notice:
        """Apply the choices (and the bot seats' answers after them), then commit them with their events,
        the race window, reminders and private lines in one transaction; only then say what happened.
        ``preface`` lines are the table's own, logged before the first choice's events."""
        game, state = table.game, table.state
        before = table.prompts()
        applied: list[tuple[Choice, int | None, list[Event]]] = []
        try:
            for choice, actor in moves:
                applied.append((choice, actor, game.apply(state, choice)))
        except IllegalChoice as exc:
            raise ServiceError(exc.args[0] if exc.args else str(exc)) from None  # the engine's message, kept
        later = self.bots_later is not None and not inline_bots
        if not later:
            applied += await self.run_bots(table, [c for c, _, _ in applied])
        v0 = table.version
        rows = [table_row(v0 + 1, line) for line in preface]
        for i, (_, _, events) in enumerate(applied):
            rows += [event_row(v0 + i + 1, e) for e in events]
        over = game.is_over(state)
        result = game.result(state)
        if result is not None:
            rows += [table_row(v0 + len(applied), line, "result") for line in result.details]
        move = Move(
            [(dump_choice(c), actor) for c, actor, _ in applied],
            game.dumps(state).decode(),
            self.clock(),
            events=rows,
            status="finished" if over else None,
            result_json=json.dumps({"scores": list(result.scores), "winners": list(result.winners)})
            if result
            else None,
        )
        events = [e for _, _, evs in applied for e in evs]
        notice = self.bookkeep(table, move, before, game.prompts(state), events)
        outcome = await commit_move(self.store, table.id, v0, move)
        if outcome is Written.REFUSED:
            raise StaleClick(MOVED_FIRST)
        notice.table = await self.reload(table.id, lambda: self.moved(table, move, state))
        notice.reply = taken_reply(outcome, reply)
        notice.finished = over
        notice.public = list(preface) + notice.public
        if result is not None:
            notice.public += list(result.details)
        if later and self.bots_may_want(notice.table):
            # whether a bot would change its standing orders (a replay of the record) is asked in the bots' own
            # task, after this reply: a click is answered as fast at a table with bots as at one without
            self.spawn_bots(notice.table)
        return notice

    async def reload(self, game_id: int, fallback: Callable[[], Table]) -> Table:
        """The game read again after a write was committed; if the database fails now, ``fallback()`` (the
        table as the write left it): what was committed is never answered as a failure."""
        try:
            return await self.load(game_id)
        except (StoreUnavailable, StoreBusy) as exc:
            log.warning("game %s: committed, but could not be read again (%s); answering from memory", game_id, exc)
            return fallback()

    @staticmethod
    def moved(table: Table, move: Move, state: Any) -> Table:
        """``table`` after ``move`` was committed at its version, leaving ``state`` (what ``load`` would read)."""
        row = dataclasses.replace(
            table.row,
            version=table.version + len(move.choices),
            status=move.status or table.row.status,
            updated_at=move.now,
            last_move_at=move.now if move.choices else table.row.last_move_at,
            result=move.result_json or table.row.result,
        )
        return Table(row, list(table.seats), table.game, state)

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

    def bookkeep(
        self, table: Table, move: Move, before: list[Prompt], after: list[Prompt], events: list[Event]
    ) -> Notice:
        """Fill in what a move changes beside the record (reminders, the race window, private lines in the
        outbox) and the notice of who must act now. Pure: nothing is written here."""
        now = move.now
        acting_before = {p.seat for p in before if waits_for(p)}
        acting_after = {p.seat for p in after if waits_for(p)}
        race = next((p.race for p in after if p.race), None)
        ping = acting_after - acting_before
        if race is not None:
            # the window's time starts when its board has been posted (the publisher arms it); nobody is
            # pinged for a window: a ping arrives too late to matter
            move.race_deadline = UNARMED
        for s in acting_before - acting_after:
            if (u := table.user_of(s)) is not None and u > 0:
                move.reminders_off.append((u, "turn"))
        for s in acting_after - acting_before:
            if (u := table.user_of(s)) is not None and u > 0:
                move.reminders_on.append((u, "turn", now + self.settings.reminder_first_s))
        if move.status == "finished":
            move.clear_reminders = True
        notice = Notice(table, kinds={e.kind for e in events})
        for e in events:
            if e.to is None:
                notice.public.append(said(e))
            else:
                for seat in e.to:
                    if (u := table.user_of(seat)) is not None and u > 0:
                        notice.tell(u, said(e))
        for user_id, lines in notice.private.items():
            move.outbox.append(("private", user_id, private_body(lines)))
        notice.ping = [u for s in sorted(ping) if (u := table.user_of(s)) is not None and u > 0]
        notice.new_turn = bool(acting_after - acting_before)
        return notice

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
