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
#: The record of an undo: it takes back the latest choice still in effect (the record stays append-only).
UNDO_KIND = "_undo"
#: At most this many default choices when the host skips a player's turn (a guard against a loop).
MAX_SKIP_CHOICES = 500
#: Event kinds that end a turn: a skip stops there.
TURN_BOUNDARIES = frozenset({"turn", "round", "act", "phase", "final"})


def effective_choices(raw: list[str]) -> list[Choice]:
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


def default_option(prompt: Prompt) -> str:
    """The choice the table takes for an idle player (documented in docs/rules): decline when the question
    may be declined, otherwise the first option offered."""
    return "skip" if prompt.option("skip") is not None else prompt.options[0].id


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

    async def load_in(self, game_id: int, guild_id: int | None) -> Table:
        """``load``, refusing a game of another server (a game number typed from elsewhere)."""
        table = await self.load(game_id)
        if guild_id is not None and table.row.guild_id != guild_id:
            raise ServiceError(f"There is no game #{game_id} in this server. Use /game list to see the games here.")
        return table

    def _replay(self, table: Table, choices: list[str]) -> Any:
        names = [s.name for s in table.seats]
        options = json.loads(table.row.options)
        return replay(table.game, names, options, table.row.seed, effective_choices(choices))

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
        # a server admin's rights count only for that server's games
        admin = user.admin and (user.guild_id is None or user.guild_id == table.row.guild_id)
        if user.id != table.row.host_id and not admin:
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
        """Every public log line of a game, rebuilt from its record (the log is not stored twice). An undo is
        logged where it happened; the steps it took back stay in the log."""
        if table.row.status == "lobby":
            return []
        names = [s.name for s in table.seats]
        options = json.loads(table.row.options)
        state, events = table.game.start(names, options, table.row.seed)
        lines = [e.text for e in events if e.to is None]
        done: list[Choice] = []
        for raw in await self.store.get_choices(table.id):
            choice = load_choice(raw)
            if choice.kind == UNDO_KIND:
                if done:
                    done.pop()
                    state = replay(table.game, names, options, table.row.seed, done)
                lines.append(f"↩ {table.name_of(choice.seat)} takes back their last step.")
                continue
            done.append(choice)
            lines += [e.text for e in table.game.apply(state, choice) if e.to is None]
        return lines

    # --- undo, skip, substitute ------------------------------------------------------------------------------

    def undo_check(self, table: Table, seat: int, effective: list[Choice]) -> str | None:
        """Why ``seat`` may not undo now, or ``None`` when it may."""
        floor_of = getattr(table.game, "undo_floor", None)
        if floor_of is None:
            return f"{table.game.title} has no undo."
        if not effective:
            return "There is nothing to take back yet."
        last = effective[-1]
        if last.seat != seat:
            return f"Only your own steps can be taken back; the last step was {table.name_of(last.seat)}'s."
        if len(effective) <= floor_of(table.state):
            return "You cannot take back a step once a card, tile or chance was revealed, or from an earlier turn."
        return None

    async def can_undo(self, table: Table, seat: int | None) -> bool:
        """Whether ``seat`` could undo its last step now (for showing the button)."""
        if seat is None or table.row.status != "active" or getattr(table.game, "undo_floor", None) is None:
            return False
        return self.undo_check(table, seat, effective_choices(await self.store.get_choices(table.id))) is None

    async def undo(self, game_id: int, user: User, version: int | None = None) -> Notice:
        """Take back the player's own last step of this turn (issue "at the table": undo, logged, not hidden)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status != "active":
                raise ServiceError(f"Game #{game_id} is {table.row.status}; there is nothing to undo.")
            seat = table.seat_of(user.id)
            if seat is None:
                raise ServiceError(f"You are not seated in game #{game_id}.")
            if version is not None and version != table.version:
                raise StaleClick(
                    "That button belongs to an older board; the game has moved on. Use the latest message."
                )
            effective = effective_choices(await self.store.get_choices(game_id))
            why = self.undo_check(table, seat, effective)
            if why is not None:
                raise ServiceError(why)
            asked_before = table.prompts()
            names = [s.name for s in table.seats]
            options = json.loads(table.row.options)
            before = replay(table.game, names, options, table.row.seed, effective[:-1])
            undone = effective[-1]
            prompt = next(
                (p for p in table.game.prompts(before) if p.seat == undone.seat and p.kind == undone.kind), None
            )
            opt = prompt.option(undone.option) if prompt else None
            label = opt.label if opt else undone.option
            record = Choice(seat, UNDO_KIND, "1")
            ok = await self.store.append_choices(
                game_id,
                table.version,
                [(dump_choice(record), user.id)],
                table.game.dumps(before).decode(),
                self.clock(),
            )
            if not ok:
                raise StaleClick("Someone else moved first; the board has changed. Use the latest message.")
            table = await self.load(game_id)
            notice = Notice(
                table,
                public=[f"↩ {table.name_of(seat)} takes back: {label}."],
                reply="Step taken back.",
                board_changed=True,
            )
            await self._after_move(notice, asked_before)
            return notice

    async def skip(self, game_id: int, user: User) -> Notice:
        """The host (or an admin) skips an idle player's turn: the table takes the default choice for each of
        that player's questions (``default_option``) until someone else must decide."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status != "active":
                raise ServiceError(f"Game #{game_id} is {table.row.status}; there is no turn to skip.")
            self._need_host(table, user, "skip a turn in")
            waiting = [p for p in table.prompts() if p.seat != TABLE and p.race is None]
            if not waiting:
                raise ServiceError("Nobody is being waited for right now.")
            seat = waiting[0].seat
            state = table.game.loads(table.game.dumps(table.state))
            moves: list[tuple[Choice, int | None]] = []
            labels: list[str] = []
            for _ in range(MAX_SKIP_CHOICES):
                mine = [p for p in table.game.prompts(state) if p.seat == seat and p.race is None]
                if not mine or table.game.is_over(state):
                    break
                option = default_option(mine[0])
                choice = Choice(seat, mine[0].kind, option)
                labels.append(mine[0].option(option).label)  # type: ignore[union-attr]
                events = table.game.apply(state, choice)
                moves.append((choice, None))
                if any(e.kind in TURN_BOUNDARIES for e in events):
                    break  # the skipped turn is over: never play that player's next turn too
            preface = [
                f"{user.name} skips {table.name_of(seat)}'s turn: "
                + "; ".join(labels[:6])
                + (" …" if len(labels) > 6 else "")
                + "."
            ]
            notice = await self._commit(table, moves, preface=preface)
            notice.reply = f"Skipped {table.name_of(seat)}'s turn ({len(moves)} default choices)."
            return notice

    async def substitute(self, game_id: int, user: User, seat_user: int, new: User) -> Notice:
        """The host (or an admin) gives a player's seat to someone else; the seat keeps its name in the game."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status not in ("lobby", "active"):
                raise ServiceError(f"Game #{game_id} is {table.row.status}.")
            self._need_host(table, user, "substitute a player in")
            seat = table.seat_of(seat_user)
            if seat is None:
                raise ServiceError(f"<@{seat_user}> has no seat in game #{game_id}.")
            if table.seat_of(new.id) is not None:
                raise ServiceError(f"{new.name} already has a seat in game #{game_id}.")
            try:
                await self.store.replace_seat_user(game_id, seat, new.id, table.name_of(seat))
            except AlreadySeated:
                raise ServiceError(f"{new.name} already has a seat in game #{game_id}.") from None
            await self.store.clear_reminders(game_id, seat_user)
            if table.row.host_id == seat_user:  # the host's role goes with the seat, as when the host leaves
                await self.store.set_host(game_id, new.id, self.clock())
            table = await self.load(game_id)
            notice = Notice(
                table,
                public=[f"{new.name} now plays {table.name_of(seat)}'s seat."],
                reply="Seat handed over.",
                board_changed=True,
            )
            if table.prompts_for(seat):
                await self.store.set_reminder(game_id, new.id, "turn", self.clock() + self.settings.reminder_first_s)
                notice.ping = [new.id]
            return notice

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
