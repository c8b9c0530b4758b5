"""The service's common ground: loading a game, the guards every request passes, and the one way a move is
committed (the choices with everything they change, in one transaction, before anyone is told)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bots.table import TableBots, bot_level
from engine.core import (
    Choice,
    Event,
    Game,
    IllegalChoice,
    Prompt,
    dump_choice,
    load_choice,
    replay,
    waits_for,
)
from engine.msg import M, Msg
from engine.registry import TABLE_GAMES
from service.access import HOST_ONLY, MAX_ID, SEAT, SERVER, check_id, no_game, no_game_here, no_seat_in_dm, server_only
from service.bot_turns import BotTurns, SeatBot
from service.config import Settings
from service.locks import KeyedLocks
from service.notice import Notice, ServiceError, StaleClick, Table, User
from service.outcome import Written, commit_move, put_offer, seated, take_offer, taken_reply
from service.pace import wait_begins
from service.ratings import decisions, rated_game
from service.records import (
    effective_choices,
    event_row,
    private_body,
    said,
    table_row,
)
from store import UNARMED, Move, OfferRow, Store, StoreBusy, StoreUnavailable

log = logging.getLogger(__name__)

#: how long a request waits for another process to finish with the same game (the project's own value: a move
#: takes milliseconds, so this only runs out if that process hangs)
GAME_LOCK_WAIT_S = 10.0
#: The refusal of a click that lost the race to another move.
MOVED_FIRST = M("table.err.moved_first", "Someone else moved first; the board has changed. Use the latest message.")
#: The refusal when a seat changed hands while a request was on its way.
SEAT_MOVED = M("table.err.seat_moved", "That seat changed hands meanwhile; nothing changed.")
#: The refusal of a click on a board that has moved on.
OLD_BOARD = M(
    "table.err.old_board", "That button belongs to an older board; the game has moved on. Use the latest message."
)


def status_word(status: str) -> Msg | str:
    """A game's status in words (``Game #3 is finished``)."""
    words = {
        "lobby": M("table.status.lobby", "lobby"),
        "active": M("table.status.active", "active"),
        "finished": M("table.status.finished", "finished"),
        "abandoned": M("table.status.abandoned", "abandoned"),
        "ended": M("table.status.ended", "ended by agreement"),
    }
    return words.get(status, status)


def new_seed() -> int:
    """A new game's seed at a real table: fresh randomness, so no two games are dealt alike."""
    return secrets.randbits(63)


class Core(BotTurns):
    """Loading, guards and committing moves; the request methods live in the mixins of ``TableService``."""

    def __init__(
        self,
        store: Store,
        settings: Settings | None = None,
        *,
        clock: Callable[[], float] = time.time,
        games: Mapping[str, Game] = TABLE_GAMES,
        bots: SeatBot | None = None,
        seeds: Callable[[], int] = new_seed,
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.clock = clock
        #: each new game's seed: fresh randomness at a real table; tests pass a fixed sequence so that the games
        #: they play through the bot are the same every run (a failure can be replayed)
        self.seeds = seeds
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

    async def claim_of(self, table: Table, user_id: int) -> int | None:
        """The seat a bot plays for ``user_id`` at ``table`` (their claim), or None."""
        return next((s for s, who in (await self.seat_claims(table)).items() if who == user_id), None)

    async def take_back(self, table: Table, user: User, seat: int) -> Notice:
        """``user`` takes back ``seat``, which a bot plays for them (their claim was checked). Under the game's
        lock: ``/game reclaim``, or any click of theirs at the table (issue 23: a player comes back)."""
        game_id = table.id
        now = self.clock()
        name = table.name_of(seat)
        line = M("table.log.reclaim", "{user} takes {name}'s seat back from the bot.", user=user.name, name=name)
        bot_id = table.user_of(seat) or 0
        await put_offer(self.store, OfferRow(game_id, seat, bot_id, user.id, name, user.id, now + 60))
        move = Move([], "", now, events=[table_row(table.version, line, "seat", seat=seat)])
        if any(p.seat == seat and waits_for(p) for p in table.prompts()):  # their wait starts again
            move.reminders_on += wait_begins(table, user.id, now, self.settings.reminder_first_s)
        if await take_offer(self.store, game_id, seat, user.id, now, name, move) is Written.REFUSED:
            raise StaleClick(SEAT_MOVED)
        table = await self.reload(game_id, lambda: seated(table, seat, user.id, name))
        reply = M("table.reply.reclaimed", "You play {name}'s seat again in game #{game}.", name=name, game=game_id)
        notice = Notice(table, public=[line], reply=reply)
        if table.prompts_for(seat):
            notice.ping = [user.id]
        return notice

    # --- committing a move ---------------------------------------------------------------------------------

    async def commit(
        self,
        table: Table,
        moves: list[tuple[Choice, int | None]],
        *,
        preface: Sequence[str] = (),
        reply: str = "",
        inline_bots: bool = False,
        cause: str | None = None,
    ) -> Notice:
        """Apply the choices (and the bot seats' answers after them), then commit them with their events,
        the race window, reminders and private lines in one transaction; only then say what happened.
        ``preface`` lines are the table's own, logged before the first choice's events; ``cause`` is why the table
        made ``moves`` (issue 23: ``"deadline"``), stored with each of them (not with the bots' answers after)."""
        game, state = table.game, table.state
        before = table.prompts()
        applied: list[tuple[Choice, int | None, list[Event]]] = []
        # private lines that are not events of the record (issue 24: where a drawn card went), read before each
        # choice is applied; a game without them has no ``private_note``
        note = getattr(game, "private_note", None)
        notes: list[Event] = []
        try:
            for choice, actor in moves:
                notes += note(state, choice) if note is not None else []
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
        rating = None
        if over and result is not None:  # issue 26: the ratings are updated with the result, in its transaction
            made = decisions(await self.store.get_choice_rows(table.id), [(c, a) for c, a, _ in applied])
            jo = getattr(state, "jo", None)
            claims = await self.seat_claims(table)
            rating = rated_game(game.name, table.row.guild_id, table.seats, result, jo, made, claims)
        move = Move(
            [(dump_choice(c), actor) for c, actor, _ in applied],
            game.dumps(state).decode(),
            self.clock(),
            events=rows,
            status="finished" if over else None,
            causes=[cause] * len(moves) if cause else [],
            result_json=json.dumps({"scores": list(result.scores), "winners": list(result.winners)})
            if result
            else None,
            rating=rating,
        )
        events = [e for _, _, evs in applied for e in evs]
        notice = self.bookkeep(table, move, before, game.prompts(state), events + notes)
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
                move.reminders_off += [(u, "turn"), (u, "deadline")]
        # a new wait starts its reminders and its deadline; so does each answer of a seat still waited for, its
        # player's or the table's for them at a deadline (issue 23: the time is for each decision; the deadline
        # that fired is spent)
        movers = {load_choice(c).seat for c, _ in move.choices}
        for s in (acting_after - acting_before) | (acting_after & acting_before & movers):
            if (u := table.user_of(s)) is not None and u > 0:
                move.reminders_on += wait_begins(table, u, now, self.settings.reminder_first_s)
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
            move.outbox.append(("private", user_id, private_body(lines, log=True)))  # the game's private log
        notice.ping = [u for s in sorted(ping) if (u := table.user_of(s)) is not None and u > 0]
        notice.new_turn = bool(acting_after - acting_before)
        return notice
