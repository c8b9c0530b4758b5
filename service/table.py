"""The table service: sessions between the Discord layer and the engines (no Discord import).

Every request loads the game, checks who may do what, applies the choice through the engine, commits it to
the store (the choice before anything is told to anyone) and returns a ``Notice`` of what to tell whom.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from engine.core import (
    TABLE,
    BadOptions,
    Choice,
    Event,
    Game,
    IllegalChoice,
    Prompt,
    dump_choice,
    load_choice,
    replay,
    resolve_options,
)
from engine.registry import TABLE_GAMES
from service.config import Settings
from service.notice import Notice, ServiceError, StaleClick, Table, User
from store import AlreadySeated, Store

#: How many games one channel may have open at once (lobby or active); a guard against spam.
MAX_OPEN_GAMES_PER_CHANNEL = 10


class SeatBot(Protocol):
    """A player the table runs itself (Jo, later): answers its seat's prompts without a human."""

    def choose(self, game: Game, state: Any, prompt: Prompt) -> Choice:
        """The bot's answer to one of its prompts."""


class TableService:
    """Create, join, leave, start, abandon and play games; the only writer of the store."""

    def __init__(
        self,
        store: Store,
        settings: Settings | None = None,
        *,
        clock: Callable[[], float] = time.time,
        games: Mapping[str, Game] = TABLE_GAMES,
        bots: Mapping[str, SeatBot] | None = None,
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.clock = clock
        self.games = dict(games)
        self.bots = dict(bots or {})
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        """One request at a time per game in this process (the store's version check guards the rest)."""
        return self._locks.setdefault(game_id, asyncio.Lock())

    # --- loading -------------------------------------------------------------------------------------------

    def game_of(self, name: str) -> Game:
        """The engine for a game name, or a clear error."""
        try:
            return self.games[name]
        except KeyError:
            raise ServiceError(f"There is no game called {name!r}. Games: {', '.join(sorted(self.games))}.") from None

    async def load(self, game_id: int) -> Table:
        """A game with its seats and state; the state comes from the snapshot or, if that lags, a replay."""
        row = await self.store.get_game(game_id)
        if row is None:
            raise ServiceError(f"There is no game #{game_id}. Use /game list to see the games here.")
        game = self.game_of(row.game)
        table = Table(row, await self.store.get_seats(game_id), game)
        if row.status in ("active", "finished"):
            snap = await self.store.get_snapshot(game_id)
            if snap is not None and snap[0] == row.version:
                table.state = game.loads(snap[1])
            else:  # the record is the truth; the snapshot is only a cache
                table.state = self._replay(table, await self.store.get_choices(game_id))
        return table

    def _replay(self, table: Table, choices: list[str]) -> Any:
        names = [s.name for s in table.seats]
        options = json.loads(table.row.options)
        return replay(table.game, names, options, table.row.seed, [load_choice(c) for c in choices])

    async def list_games(self, guild_id: int, channel_id: int | None = None, *, open_only: bool = True) -> list[Table]:
        """Games in a guild (or one channel), lobby and active ones by default."""
        statuses = ("lobby", "active") if open_only else None
        rows = await self.store.list_games(guild_id, statuses, channel_id)
        return [Table(r, await self.store.get_seats(r.id), self.game_of(r.game)) for r in rows]

    # --- lobby ---------------------------------------------------------------------------------------------

    async def create(
        self, guild_id: int, channel_id: int, host: User, game_name: str, options: Mapping[str, Any]
    ) -> Notice:
        """Open a lobby in a channel with the host seated."""
        game = self.game_of(game_name)
        try:
            resolved = resolve_options(game.option_specs, options)
        except BadOptions as exc:
            raise ServiceError(str(exc)) from None
        open_here = await self.store.list_games(guild_id, ("lobby", "active"), channel_id)
        if len(open_here) >= MAX_OPEN_GAMES_PER_CHANNEL:
            raise ServiceError(f"This channel already has {len(open_here)} open games; finish or abandon one first.")
        now = self.clock()
        game_id = await self.store.create_game(
            game=game.name,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host.id,
            options_json=json.dumps(resolved, sort_keys=True),
            seed=secrets.randbits(63),
            now=now,
        )
        await self.store.add_seat(game_id, host.id, host.name)
        table = await self.load(game_id)
        return Notice(
            table,
            public=[f"{host.name} opened a table of {game.title} (game #{game_id}). Join with the button."],
            reply=f"Game #{game_id} is open. Start it when {game.min_players} to {game.max_players} players sit.",
            board_changed=True,
        )

    async def join(self, game_id: int, user: User) -> Notice:
        """Take the next free seat in a lobby."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            self._need_lobby(table)
            if len(table.seats) >= table.game.max_players:
                raise ServiceError(f"Game #{game_id} is full ({table.game.max_players} players).")
            try:
                await self.store.add_seat(game_id, user.id, user.name)
            except AlreadySeated:
                raise ServiceError(f"You already have a seat in game #{game_id}.") from None
            table = await self.load(game_id)
            return Notice(table, public=[f"{user.name} joins game #{game_id}."], reply="You're in.", board_changed=True)

    async def leave(self, game_id: int, user: User) -> Notice:
        """Leave a lobby; the host's leaving hands the table to the next seat, or closes an empty one."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            self._need_lobby(table)
            if table.seat_of(user.id) is None:
                raise ServiceError(f"You have no seat in game #{game_id}.")
            await self.store.remove_seat(game_id, user.id)
            table = await self.load(game_id)
            lines = [f"{user.name} leaves game #{game_id}."]
            if not table.seats:
                await self.store.set_status(game_id, "abandoned", self.clock())
                lines.append("Nobody is left, so the table is closed.")
            elif table.row.host_id == user.id:
                lines.append(f"{table.seats[0].name} now hosts the table.")
                await self.store.set_host(game_id, table.seats[0].user_id, self.clock())
            table = await self.load(game_id)
            return Notice(table, public=lines, reply="You left the table.", board_changed=True)

    async def start(self, game_id: int, user: User) -> Notice:
        """Deal the game (host or admin), once enough players sit."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            self._need_lobby(table)
            self._need_host(table, user, "start")
            n, game = len(table.seats), table.game
            if not game.min_players <= n <= game.max_players:
                raise ServiceError(f"{game.title} needs {game.min_players} to {game.max_players} players; {n} seated.")
            options = json.loads(table.row.options)
            try:
                state, events = game.start([s.name for s in table.seats], options, table.row.seed)
            except BadOptions as exc:
                raise ServiceError(str(exc)) from None
            if not await self.store.start_game(game_id, game.dumps(state).decode(), self.clock()):
                raise StaleClick(f"Game #{game_id} has already started.")
            table = await self.load(game_id)
            notice = Notice(table, reply=f"Game #{game_id} is on.", board_changed=True, new_turn=True)
            self._route(notice, events)
            await self._after_move(notice, before=[])
            return notice

    async def abandon(self, game_id: int, user: User) -> Notice:
        """End a game without a result (host or a server admin)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status not in ("lobby", "active"):
                raise ServiceError(f"Game #{game_id} is already {table.row.status}.")
            self._need_host(table, user, "abandon")
            await self.store.set_status(game_id, "abandoned", self.clock())
            await self.store.clear_reminders(game_id)
            await self.store.close_race(game_id)
            table = await self.load(game_id)
            return Notice(
                table,
                public=[f"{user.name} abandoned game #{game_id}."],
                reply="Game abandoned.",
                board_changed=True,
                finished=True,
            )

    def _need_lobby(self, table: Table) -> None:
        if table.row.status != "lobby":
            raise ServiceError(f"Game #{table.id} is {table.row.status}, not open for seating.")

    def _need_host(self, table: Table, user: User, what: str) -> None:
        if user.id != table.row.host_id and not user.admin:
            raise ServiceError(f"Only the host or a server admin can {what} game #{table.id}.")

    # --- play ----------------------------------------------------------------------------------------------

    async def act(self, game_id: int, user: User, version: int, kind: str, option: str, ts_ms: int = 0) -> Notice:
        """A seated player's click: a claim in an open race, or a choice applied now."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status != "active":
                raise ServiceError(f"Game #{game_id} is {table.row.status}; there is nothing to play.")
            seat = table.seat_of(user.id)
            if seat is None:
                raise ServiceError(f"You are not seated in game #{game_id}; only its players can use its buttons.")
            if version != table.version and not await self._still_open(table, version, seat, kind):
                raise StaleClick(
                    "That button belongs to an older board; the game has moved on. Use the latest message."
                )
            mine = table.prompts_for(seat)
            if not mine:
                waiting = sorted({table.name_of(p.seat) for p in table.prompts() if p.seat != TABLE})
                raise ServiceError(f"Nothing to decide for you now; waiting for {', '.join(waiting) or 'nobody'}.")
            prompt = next((p for p in mine if p.kind == kind), None)
            if prompt is None:
                raise StaleClick("That button is not for the question you are being asked now. Use the latest message.")
            chosen = prompt.option(option)
            if chosen is None:
                allowed = "; ".join(o.label for o in prompt.options)
                raise ServiceError(f"That is not a legal choice now. You may: {allowed}.")
            choice = Choice(seat, kind, option)
            if prompt.race is not None:
                return await self._claim(table, choice, chosen.label, ts_ms)
            return await self._commit(table, [(choice, user.id)])

    async def _still_open(self, table: Table, version: int, seat: int, kind: str) -> bool:
        """An older button still counts if only other seats' answers to the same concurrent question came since."""
        if version > table.version or version < 0:
            return False
        since = [load_choice(c) for c in (await self.store.get_choices(table.id))[version:]]
        return all(c.kind == kind and c.seat != seat for c in since)

    async def _claim(self, table: Table, choice: Choice, label: str, ts_ms: int) -> Notice:
        """A durable claim in the open race; the earliest Discord timestamp wins when the window closes."""
        race = await self.store.get_race(table.id)
        if race is None or race.version != table.version:
            raise StaleClick("That window has closed.")
        now = self.clock()
        if not await self.store.add_claim(table.id, table.version, choice.seat, dump_choice(choice), ts_ms, now):
            raise ServiceError("You already made a claim in this window; only your first one counts.")
        return Notice(table, reply=f"Claim in: {label}. The earliest claim wins when the window closes.")

    async def close_race(self, game_id: int, version: int) -> Notice | None:
        """The window of a race closes: the earliest claim (Discord's timestamp) is applied, or the table's
        default. ``None`` if that race is already over (e.g. closed before a restart)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            race = await self.store.get_race(game_id)
            if race is None or race.version != version or table.version != version or table.row.status != "active":
                return None
            claims = await self.store.get_claims(game_id, version)
            lines: list[str] = []
            if claims:
                first = claims[0].ts_ms
                tied = [c for c in claims if c.ts_ms == first]
                # exact ties are broken by a draw seeded from the game, so a replay of the log can explain it
                winner = random.Random(f"{table.row.seed}:{version}").choice(tied) if len(tied) > 1 else tied[0]
                for c in claims:
                    delay = c.ts_ms - first
                    tag = "first" if c is winner else f"+{delay} ms" if delay else "tied, lost the draw"
                    lines.append(f"Claim by {table.name_of(c.seat)} ({tag}).")
                moves = [(load_choice(winner.choice), table.user_of(winner.seat))]
            else:
                prompt = next(p for p in table.prompts() if p.seat == TABLE)
                moves = [(Choice(TABLE, prompt.kind, prompt.options[0].id), None)]
            await self.store.close_race(game_id)
            notice = await self._commit(table, moves, preface=lines if len(claims) > 1 else [])
            await self.store.clear_claims(game_id, version)
            return notice

    async def _commit(
        self, table: Table, moves: list[tuple[Choice, int | None]], preface: list[str] | None = None
    ) -> Notice:
        """Apply, run bot seats, store atomically, then say what happened."""
        game, state = table.game, table.state
        before = table.prompts()
        events: list[Event] = []
        try:
            for choice, _ in moves:
                events += game.apply(state, choice)
        except IllegalChoice as exc:
            raise ServiceError(str(exc)) from None
        moves = list(moves) + self._run_bots(table, events)
        over = game.is_over(state)
        result = game.result(state)
        result_json = json.dumps({"scores": list(result.scores), "winners": list(result.winners)}) if result else None
        ok = await self.store.append_choices(
            table.id,
            table.version,
            [(dump_choice(c), actor) for c, actor in moves],
            game.dumps(state).decode(),
            self.clock(),
            status="finished" if over else None,
            result_json=result_json,
        )
        if not ok:
            raise StaleClick("Someone else moved first; the board has changed. Use the latest message.")
        table = await self.load(table.id)
        notice = Notice(table, public=list(preface or []), board_changed=True, finished=over)
        self._route(notice, events)
        await self._after_move(notice, before)
        return notice

    def _run_bots(self, table: Table, events: list[Event]) -> list[tuple[Choice, int | None]]:
        """Let bot seats (user id <= 0) answer their prompts until a human must decide."""
        bot = self.bots.get(table.game.name)
        bot_seats = {s.seat for s in table.seats if s.user_id <= 0}
        moves: list[tuple[Choice, int | None]] = []
        if bot is None or not bot_seats:
            return moves
        for _ in range(10_000):
            if table.game.is_over(table.state):
                break
            mine = [p for p in table.prompts() if p.seat in bot_seats and p.race is None]
            if not mine:
                break
            choice = bot.choose(table.game, table.state, mine[0])
            events += table.game.apply(table.state, choice)
            moves.append((choice, None))
        return moves

    def _route(self, notice: Notice, events: list[Event]) -> None:
        """Public events to the channel, private ones to their seats' users."""
        table = notice.table
        for e in events:
            notice.kinds.add(e.kind)
            if e.to is None:
                notice.public.append(e.text)
            else:
                for seat in e.to:
                    user = table.user_of(seat)
                    if user is not None:
                        notice.tell(user, e.text)

    async def _after_move(self, notice: Notice, before: list[Prompt]) -> None:
        """Pings, reminders, races and the end of the game."""
        table = notice.table
        now = self.clock()
        after = table.prompts()
        acting_before = {p.seat for p in before if p.race is None}
        acting_after = {p.seat for p in after if p.race is None and p.seat != TABLE}
        raced_before = {p.race for p in before if p.race}
        ping = acting_after - acting_before
        race = next((p.race for p in after if p.race), None)
        if race and race not in raced_before:
            ping |= {p.seat for p in after if p.race == race and p.seat != TABLE}
            window = float(json.loads(table.row.options).get("snap_window", 5))
            notice.race_deadline = now + window
            await self.store.open_race(table.id, table.version, notice.race_deadline)
        if acting_after - acting_before:
            notice.new_turn = True
        notice.ping = [u for s in sorted(ping) if (u := table.user_of(s)) is not None and u > 0]
        for s in acting_before - acting_after:
            if (u := table.user_of(s)) is not None:
                await self.store.clear_reminders(table.id, u, "turn")
        for s in acting_after - acting_before:
            if (u := table.user_of(s)) is not None and u > 0:
                await self.store.set_reminder(table.id, u, "turn", now + self.settings.reminder_first_s)
        if notice.finished:
            await self.store.clear_reminders(table.id)
            result = table.result()
            if result is not None:
                notice.public.extend(result.details)

    async def public_log(self, table: Table) -> list[str]:
        """Every public log line of a game, rebuilt from its record (the log is not stored twice)."""
        if table.row.status == "lobby":
            return []
        names = [s.name for s in table.seats]
        state, events = table.game.start(names, json.loads(table.row.options), table.row.seed)
        lines = [e.text for e in events if e.to is None]
        for raw in await self.store.get_choices(table.id):
            lines += [e.text for e in table.game.apply(state, load_choice(raw)) if e.to is None]
        return lines

    # --- reminders -----------------------------------------------------------------------------------------

    async def due_reminders(self) -> list[tuple[Table, int, int]]:
        """Reminders that are due: (table, user id, how many were sent before); each is re-armed a day on."""
        now = self.clock()
        out = []
        for r in await self.store.due_reminders(now):
            table = await self.load(r.game_id)
            seat = table.seat_of(r.user_id)
            if table.row.status != "active" or seat is None or not table.prompts_for(seat):
                await self.store.clear_reminders(r.game_id, r.user_id, r.kind)
                continue
            await self.store.bump_reminder(r.game_id, r.user_id, r.kind, now + self.settings.reminder_repeat_s)
            out.append((table, r.user_id, r.count))
        return out
