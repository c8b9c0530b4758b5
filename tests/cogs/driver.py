"""Drive the real bot through the fake Discord as players would: slash commands and clicks only.

The driver may read the game (to decide what a scripted player does), but it acts only by clicking the
components the bot posted.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot import TableBot, build_bot
from service import Settings
from tests.fakediscord import payloads as p
from tests.fakediscord.fixtures import fake_server
from tests.fakediscord.server import FakeDiscordServer, custom_ids

CHANNEL = p.GENERAL_CHANNEL_ID


class Clock:
    """A clock the test moves by hand (reminders and snap windows read it)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        """The bot's pause (between posts): the fake time moves on, the test does not wait."""
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


@contextlib.asynccontextmanager
async def bot_on(server: FakeDiscordServer, db: Path, clock: Clock) -> AsyncIterator[TableBot]:
    """Start a fresh bot process-equivalent (new bot object, same database) against ``server``."""
    settings = Settings(
        token="fake-token", database=str(db), reminder_poll_s=3600, delivery_retry_s=0.05, delivery_sweep_s=0.5
    )
    # the same games every run (each test's n-th game is dealt from seed n): a failure replays as it happened
    bot = build_bot(settings, clock=clock, sleep=clock.sleep, seeds=itertools.count(1).__next__)
    server.clock = clock  # the fake Discord records each request at the same fake time
    bot._connection.guild_ready_timeout = 0.05
    task = asyncio.create_task(bot.start("fake-token"))
    server.watch(task)
    await server.wait_until(bot.is_ready, 5, what="the bot to be ready")
    try:
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)


@contextlib.asynccontextmanager
async def table(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscordServer, TableBot, Clock]]:
    """A fake Discord with the bot running on a fresh database."""
    clock = Clock()
    async with (
        fake_server(heartbeat_interval_ms=30_000) as server,
        bot_on(server, tmp_path / "t.sqlite3", clock) as bot,
    ):
        yield server, bot, clock


def ids_of(message: dict[str, Any] | None) -> list[str]:
    """Every custom id on a message."""
    return custom_ids(message["components"]) if message else []


def _walk(components: list[dict[str, Any]]):  # noqa: ANN202
    for c in components:
        yield c
        yield from _walk(c.get("components", []))


def target(message: dict[str, Any], kind: str, option: str, default: str | None = None) -> tuple[str, list[str] | None]:
    """The custom id (and select values) that answer ``kind`` with ``option`` on a message."""
    for c in _walk(message["components"]):
        cid = c.get("custom_id", "")
        parts = cid.split("|")
        if cid.startswith("pl|") and parts[3:5] == [kind, option]:
            return cid, None
        if cid.startswith("ps|") and parts[3] == kind and any(o["value"] == option for o in c.get("options", [])):
            return cid, [option]
    if default is None:
        raise AssertionError(f"no component answers {kind} {option}: {ids_of(message)}")
    return default, None


def step_menu(message: dict[str, Any], kind: str) -> str | None:
    """The custom id of the first step of a question of ``kind`` asked in two steps on a message, if any."""
    for c in _walk(message["components"]):
        cid = c.get("custom_id", "")
        if cid.startswith("pt|") and cid.split("|")[3] == kind:
            return cid
    return None


class Driver:
    """Players at one table."""

    def __init__(
        self,
        server: FakeDiscordServer,
        bot: TableBot,
        clock: Clock,
        users: list[dict[str, Any]],
        channel: int = CHANNEL,
    ) -> None:
        self.server, self.bot, self.clock, self.users = server, bot, clock, users
        #: where the host opens the table
        self.channel = channel
        self.gid = 0
        self.ts = 1_800_000_000_000
        #: where the table is posted (its thread, or the channel): set when the game is opened
        self.where = channel
        #: each seat's latest ephemeral reply to a click, with the board version it was made at
        self.replies: dict[int, tuple[dict[str, Any], int]] = {}
        #: every press of "My options" to answer a private question: (seat, whether in its own turn, kind)
        self.mine_presses: list[tuple[int, bool, str]] = []

    def user_of_seat(self, seat: int) -> dict[str, Any]:
        """The fake user in a seat (seats follow the join order)."""
        return self.users[seat]

    async def open_and_start(self, options: str = "", game: str = "omerta") -> int:
        """Host opens the table, the others join by button, the host starts."""
        host, *others = self.users
        if game == "omerta" and "pace=" not in options:
            # a new Omerta table plays by post (issue 24); the tests of live snap windows say nothing of the pace
            options = f"{options} pace=live".strip()
        opts = {"game": game} | ({"options": options} if options else {})
        rec = await self.server.slash(host, "game new", opts, channel_id=self.channel)
        await rec.wait_followups(1)

        def lobby_posted() -> bool:
            last = self.server.last_message(self.channel)
            return last is not None and any(i.startswith("lb|") for i in ids_of(last))

        await self.server.wait_until(lobby_posted, 5, what="the lobby message")
        lobby = self.server.last_message(self.channel)
        assert lobby is not None
        # the game's number from the lobby's buttons (its words may be in any language)
        self.gid = int(next(i for i in ids_of(lobby) if i.startswith("lb|")).split("|")[1])
        for user in others:
            join = await self.server.click(user, lobby["id"], f"lb|{self.gid}|join")
            await join.wait_followups(1)
        start = await self.server.click(host, lobby["id"], f"lb|{self.gid}|start")
        await start.wait_followups(1)
        await self.settle()
        self.where = (await self.load()).row.table_channel
        return self.gid

    async def load(self):  # noqa: ANN201
        """The game as the service has it."""
        return await self.bot.service.load(self.gid)

    async def board(self) -> dict[str, Any]:
        """The current board message."""
        row = await self.bot.service.store.get_message(self.gid, "board")
        assert row is not None
        return self.server.message(row.message_id)

    async def settle(self) -> None:
        """Wait until the board shows the current version and the last event and no delivery of the game is
        running (the bot finished posting)."""
        store = self.bot.service.store
        publisher = getattr(self.bot, "publisher", None)
        for _ in range(400):
            t = await self.load()
            row = await store.get_message(self.gid, "board")
            last = await store.last_event_id(self.gid)
            if (
                row is not None
                and row.message_id in self.server.messages
                and row.version >= t.version
                and row.upto >= last
                and not await store.outbox_due(1e18, self.gid)
                and not self.bot.service.bots_busy(self.gid)
                # a delivery still running may be about to edit the board (an ended game keeps its version);
                # a reader of other processes' games (tests/cogs/test_*_processes.py) has no publisher of its own
                and not (publisher is not None and publisher._locks.held(self.gid))
            ):
                return
            await asyncio.sleep(0.02)
        prompts = [(p.seat, p.kind, p.secret) for p in t.prompts()]
        errors = [r.getMessage() + str(r.exc_info) for r in self.server.take_error_logs()]
        raise AssertionError(f"the board never caught up with version {t.version}: {row}; prompts {prompts}; {errors}")

    async def done(self, rec, version: int):  # noqa: ANN001, ANN201
        """Wait until a click was handled: it got a private answer, or the game moved on (a quiet click)."""
        await rec.wait_callback()

        async def handled() -> bool:
            return bool(rec.followups) or (await self.load()).version != version

        for _ in range(300):
            if await handled():
                return rec
            await asyncio.sleep(0.02)
        raise AssertionError(f"the click {rec.payload.get('data')} got no answer and changed nothing")

    def next_ts(self, step: int = 10) -> int:
        """A Discord timestamp a little later than the last one."""
        self.ts += step
        return self.ts

    async def click_board(self, seat: int, kind: str, option: str, *, ts_ms: int | None = None):  # noqa: ANN201
        """Click an option on the board as the player in ``seat`` (a button, or the value in a select menu)."""
        board = await self.board()
        # a player clicks what the board shows, whatever version it was made for
        cid, values = target(board, kind, option, f"pl|{self.gid}|?|{kind}|{option}|")
        return await self.server.click(
            self.user_of_seat(seat), board["id"], cid, values=values, ts_ms=ts_ms or self.next_ts()
        )

    async def confirm(self, rec, seat: int):  # noqa: ANN001, ANN201
        """Press the confirm button of a risky step."""
        await rec.wait_callback()
        msg = rec.message
        cid = next(i for i in ids_of(msg) if i.endswith("|!"))
        return await self.server.click(self.user_of_seat(seat), msg["id"], cid, ts_ms=self.next_ts())

    async def reply_of(self, rec) -> dict[str, Any]:  # noqa: ANN001
        """The ephemeral reply an interaction showed its player: its followup, or (a click made in a reply) that
        reply itself, which becomes the answer (issue 24's chain)."""
        await rec.wait_callback()
        if rec.ephemeral and rec.callback_type == 6:
            await rec.wait_edits(1)
            return rec.message
        await rec.wait_followups(1)
        return rec.followups[-1]

    async def click_private(self, rec, seat: int, kind: str, option: str):  # noqa: ANN001, ANN201
        """Click an option on the ephemeral reply ``rec`` showed the player."""
        return await self.click_in(await self.reply_of(rec), seat, kind, option)

    async def click_in(self, msg: dict[str, Any], seat: int, kind: str, option: str):  # noqa: ANN201
        """Click an option on the player's ephemeral message ``msg``; a question asked in two steps first opens the
        part (its ``section``) that holds the option, in that message."""
        if not target(msg, kind, option, "")[0] and (step := step_menu(msg, kind)) is not None:
            prompt = next(pr for pr in (await self.load()).prompts_for(seat) if pr.kind == kind)
            section = next(o.section for o in prompt.options if o.id == option)
            part = next(s.id for s in prompt.steps if s.label == section)
            opened = await self.server.click(
                self.user_of_seat(seat), msg["id"], step, values=[part], ts_ms=self.next_ts()
            )
            msg = await self.reply_of(opened)
        cid, values = target(msg, kind, option)
        return await self.server.click(self.user_of_seat(seat), msg["id"], cid, values=values, ts_ms=self.next_ts())

    async def close_windows(self) -> None:
        """Let the snap window's time pass on the fake clock and let the table close it."""
        race = await self.bot.service.store.get_race(self.gid)
        if race is None:
            return
        if not race.armed:  # its board is still being posted: the window's time starts then
            await self.settle()
            race = await self.bot.service.store.get_race(self.gid)
            assert race is not None and race.armed, "the board was posted but the window never started"
        self.clock.now = max(self.clock.now, race.deadline)
        await self.bot.get_cog("Play").close_due_races()


async def answer(d: Driver, seat: int, kind: str, option: str, secret: bool):  # noqa: ANN201
    """Answer a prompt the way a player would: on the board, or through "My options" when it is secret; a risky
    step is confirmed on the confirmation the bot shows."""
    table = await d.load()
    version = table.version
    reply = d.replies.get(seat)
    if not secret:
        rec = await d.click_board(seat, kind, option)
    elif (
        reply is not None
        and reply[1] == version
        and (target(reply[0], kind, option, "")[0] or step_menu(reply[0], kind))
    ):
        # the answer to the player's last click already asks this question: answer it there
        rec = await d.click_in(reply[0], seat, kind, option)
    else:
        d.mine_presses.append((seat, own_turn(table, seat), kind))
        # the "My options" button the board shows, as a player clicks it: the bot may not have edited the board for
        # the last answer yet (under load), and the button opens the current questions whatever version it names
        board = await d.board()
        button = next((i for i in ids_of(board) if i.startswith(f"pm|{d.gid}|")), None)
        if button is None:  # a board without one: wait for the board of this version
            await d.settle()
            board = await d.board()
            button = f"pm|{d.gid}|{version}"
        mine = await d.server.click(d.user_of_seat(seat), board["id"], button, ts_ms=d.next_ts())
        rec = await d.click_private(mine, seat, kind, option)
    await rec.wait_callback()
    if rec.message is not None and any(i.endswith("|!") for i in ids_of(rec.message)):
        rec = await d.confirm(rec, seat)
    rec = await d.done(rec, version)
    after = await d.load()
    if rec.ephemeral and rec.callback_type == 6 and not rec.followups:
        # a click in the player's own reply: the reply itself becomes the answer (issue 24)
        await rec.wait_edits(1)
        d.replies[seat] = (rec.message, after.version)
        return rec
    if not rec.followups and any(pr.secret and not pr.optional for pr in after.prompts_for(seat)):
        await rec.wait_followups(1)  # the bot answers a click with the clicker's next private question
    if rec.followups:
        d.replies[seat] = (rec.followups[-1], after.version)
    return rec


def own_turn(table: Any, seat: int) -> bool:
    """Whether it is ``seat``'s own turn (Speakeasy: the seat in play whose turn it is; a Mob War defence or any
    question of the Lucky Luciano phase is out of turn)."""
    state = table.state
    if table.game.name != "speakeasy":
        return True
    return state.phase == "play" and bool(state.order) and state.order[state.turn] == seat


async def play_to_end(d: Driver, *, turns_per_round: int = 4, max_steps: int = 400) -> None:
    """Scripted players: draw and discard (or swap) a few turns a round, use the first option of any power,
    then the active player calls OMERTA (confirming the risky step)."""
    turns = 0
    round_seen = 1
    for _ in range(max_steps):
        await d.settle()
        t = await d.load()
        if t.row.status != "active":
            return
        view = t.view(None)
        if view["round"] != round_seen:
            round_seen, turns = view["round"], 0
        if await d.bot.service.store.get_race(d.gid):
            await d.close_windows()
            continue
        prompts = [p for p in t.prompts() if p.seat >= 0]
        first = prompts[0]
        if first.kind == "peek":
            for p in prompts:
                await answer(d, p.seat, "peek", p.options[0].id, p.secret)
        elif first.kind == "turn":
            turns += 1
            if turns > turns_per_round:
                rec = await d.click_board(first.seat, "turn", "omerta")
                await d.done(await d.confirm(rec, first.seat), t.version)
            else:
                rec = await d.click_board(first.seat, "turn", "draw")
                await rec.wait_followups(1)  # the drawn card is private: it comes with the question
                place_prompt = next(pr for pr in (await d.load()).prompts() if pr.kind == "place")
                option = "discard" if turns % 2 else place_prompt.options[0].id  # a swap into a free slot
                place = await d.click_private(rec, first.seat, "place", option)
                await d.done(place, t.version + 1)
        else:
            await answer(d, first.seat, first.kind, first.options[0].id, first.secret)
    raise AssertionError("the game did not end")


def quick_option(prompt) -> str:  # noqa: ANN001
    """A scripted player's quick answer: decline what may be declined (except placing a Capo), else the first."""
    if prompt.kind != "place" and prompt.option("skip") is not None:
        return "skip"
    return prompt.options[0].id


async def play_speakeasy(d: Driver, *, max_steps: int = 1500, until=None) -> None:  # noqa: ANN001
    """Scripted Speakeasy players answer through the board (or "My options" for secret questions) until the
    game ends, or until ``until(table)`` holds."""
    for _ in range(max_steps):
        await d.settle()
        t = await d.load()
        if t.row.status != "active" or (until is not None and until(t)):
            return
        prompt = next(p for p in t.prompts() if p.race is None)
        await answer(d, prompt.seat, prompt.kind, quick_option(prompt), prompt.secret)
    raise AssertionError("the game did not end")


def channel_texts(server: FakeDiscordServer, channel: int) -> list[str]:
    """Every text the channel ever showed: each message as posted and as each edit left it."""
    texts = []
    for req in server.requests:
        if req.status >= 300 or not isinstance(req.json, dict) or "content" not in req.json:
            continue
        if req.path.startswith(f"/channels/{channel}/messages") and req.method in ("POST", "PATCH"):
            texts.append(str(req.json.get("content") or ""))
    return texts


def told(events: list[Any]) -> list[Any]:
    """The public events the story tells: all of them but a line that repeats the one before it in other words
    (issue 24: the skip right after the La Mamma that caused it)."""
    from render import story

    public = [e for e in events if e.seats is None]
    kept = {id(e) for seg in story.segments(public) for e in seg.events}
    return [e for e in public if id(e) in kept]


def appears(text: str, names: list[str], shown: str) -> bool:
    """Whether an event's line was shown: as it is, or under its player's name (a turn's steps drop it)."""
    line = text.rstrip(".")
    forms = [line] + [
        line[len(n) + 1 :].lstrip(": ") for n in names if line.startswith(n + " ") or line.startswith(n + ":")
    ]
    forms += ["their " + line[len(n) + 3 :] for n in names if line.startswith(n + "'s ")]
    return any(f in shown for f in forms)
