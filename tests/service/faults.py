"""The scripted table of the database fault tests (issue 22, ``test_db_faults.py`` and ``test_commit_cuts.py``):
players make requests through the service, each request's reply is recorded (taken / not taken / not known /
the database unreachable / refused), and afterwards every reply is compared with the record.

Every request moves the service's clock by one second first, so every choice it writes carries its own time
(``created_at``), which finds it in the record.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from engine.core import TABLE, Choice, dump_choice
from engine.registry import GAMES
from service import MaybeTaken, Notice, NotTaken, ServiceError, Settings, TableService, User
from service.outcome import MAYBE_TAKEN, NOT_TAKEN
from service.records import effective_choices
from store import OutcomeUnknown, Store, StoreBusy, StoreUnavailable
from tests.pgfaults import CommitCutter

USERS = [User(1, "Anna"), User(2, "Ben"), User(3, "Cleo")]
T = TypeVar("T")


class Clock:
    """The service's clock: the test moves it one second before each request, so every choice a request writes
    carries that request's own time (``created_at``), which finds it in the record."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Request:
    """One request to the service and what it was told."""

    kind: str  # act, undo, claim, close
    game: int
    version: int
    user: int | None = None
    choice: str = ""  # a claim's choice
    at: float = 0.0  # the clock when it was made: the time its choices carry
    told: str = ""  # taken, not taken, unknown, unreachable, refused
    reply: object = ""  # a taken request's reply
    cut: str | None = None  # where the proxy cut its connection at COMMIT, if it did


@dataclass
class Run:
    """A scripted table's requests and the tallies of a run."""

    svc: TableService
    clock: Clock
    rng: random.Random
    requests: list[Request] = field(default_factory=list)
    #: reads and writes of the harness itself (not requests) that met the failing database and were repeated
    harness_retries: int = 0
    claimed: set[tuple[int, int]] = field(default_factory=set)
    #: the proxy, and the cut it makes at the next request's COMMIT
    cutter: CommitCutter | None = None
    next_cut: str | None = None

    def moves(self) -> int:
        """The players' requests (the timer's closes not counted)."""
        return sum(r.kind != "close" for r in self.requests)


async def patiently(run: Run, what: Callable[[], Awaitable[T]]) -> T:
    """A read or write of the harness itself, repeated until the database answers."""
    for _ in range(400):
        try:
            return await what()
        except (StoreUnavailable, StoreBusy):
            run.harness_retries += 1
            await asyncio.sleep(0.005)
    raise AssertionError("the database never answered the harness")


async def ask(run: Run, req: Request, call: Callable[[], Awaitable[Notice | None]]) -> None:
    """Make one request (the proxy armed for its COMMIT, if the run says so) and record what it was told."""
    run.clock.now += 1.0
    req.at = run.clock.now
    run.requests.append(req)
    cutter = run.cutter
    cuts = dict(cutter.cuts) if cutter is not None else {}
    if cutter is not None:
        cutter.armed = run.next_cut
    try:
        notice = await call()
    except NotTaken as exc:
        assert exc.msg == NOT_TAKEN, exc.msg
        req.told = "not taken"
    except MaybeTaken as exc:
        assert exc.msg == MAYBE_TAKEN, exc.msg
        req.told = "unknown"
    except OutcomeUnknown as exc:  # a lost commit the service did not look into: never
        raise AssertionError(f"{req}: a lost commit reached the caller raw") from exc
    except (StoreUnavailable, StoreBusy):  # a read before any write failed: "try again in a moment"
        req.told = "unreachable"
    except ServiceError:  # e.g. the board moved on (a move that had been taken, made again), an undo refused
        req.told = "refused"
    else:
        req.told = "taken" if notice is not None else "refused"  # None: a window that had closed already
        req.reply = notice.reply if notice is not None else ""
    if cutter is not None:
        cutter.armed = None
        req.cut = next((k for k, v in cutter.cuts.items() if v > cuts[k]), None)


async def step(run: Run, gid: int) -> bool:
    """One request at one game: a window closes (or, at random, a player claims in it first), else the
    waited-for player takes the default option; at Speakeasy, now and then that player takes it back. False if
    the game is over (no request made)."""
    svc = run.svc
    t = await patiently(run, lambda: svc.load(gid))
    if t.row.status != "active":
        return False
    race = await patiently(run, lambda: svc.store.get_race(gid))
    if race is not None and race.version == t.version:
        if not race.armed:  # the publisher's part: its board is posted
            await patiently(run, lambda: svc.arm_race(gid, race.version, run.clock.now + 5))
        claims = [p for p in t.prompts() if p.race is not None and p.seat != TABLE]
        if claims and (gid, t.version) not in run.claimed and run.rng.random() < 0.5:
            run.claimed.add((gid, t.version))  # one claim per window: the record then tells whether it counted
            p = run.rng.choice(claims)
            option, user = p.options[0].id, USERS[p.seat]
            req = Request("claim", gid, t.version, user.id, dump_choice(Choice(p.seat, p.kind, option)))
            ts = int(run.clock.now)
            await ask(run, req, lambda: svc.act(gid, user, t.version, p.kind, option, ts_ms=ts))
            return True
        await ask(run, Request("close", gid, t.version), lambda: svc.close_race(gid, t.version))
        return True
    last = next((r for r in reversed(run.requests) if r.game == gid), None)
    just_moved = last is not None and last.kind == "act" and last.told == "taken"
    if t.game.name == "speakeasy" and just_moved and run.rng.random() < 0.15:  # the player takes it back
        user = next(u for u in USERS if u.id == last.user)
        await ask(run, Request("undo", gid, t.version, user.id), lambda: svc.undo(gid, user, t.version))
        return True
    p = next(p for p in t.prompts() if p.seat != TABLE and p.race is None and not p.optional)
    user, option = USERS[p.seat], p.default_option()
    await ask(run, Request("act", gid, t.version, user.id), lambda: svc.act(gid, user, t.version, p.kind, option))
    return True


#: a channel for each table opened (a channel holds at most ten open tables)
CHANNELS = itertools.count(100)
#: the fault tests play live snap windows (a new Omerta table plays by post: issue 24)
LIVE = {"pace": "live"}


async def open_table(svc: TableService, name: str, players: int) -> int:
    """A table of ``name`` with the first ``players`` of ``USERS``, started (in a channel of its own)."""
    gid = (await svc.create(10, next(CHANNELS), USERS[0], name, LIVE if name == "omerta" else {})).table.id
    for u in USERS[1:players]:
        await svc.join(gid, u)
    await svc.start(gid, USERS[0])
    return gid


async def open_tables(svc: TableService) -> list[int]:
    """Two Omerta tables of three and two Speakeasy tables of two, opened before the faults begin."""
    return [
        await open_table(svc, "omerta", 3),
        await open_table(svc, "speakeasy", 2),
        await open_table(svc, "omerta", 3),
        await open_table(svc, "speakeasy", 2),
    ]


async def play(
    run: Run,
    games: list[int],
    moves: int,
    *,
    cuts: tuple[str | None, ...] = (None,),
    until: Callable[[], bool] = lambda: True,
) -> None:
    """Requests round the tables until ``moves`` players' requests were made (the proxy's cuts in turn) and
    ``until()`` holds (a fault count that depends on the machine's speed, say)."""
    live = list(games)
    i = 0
    while run.moves() < moves or not until():
        assert live, "every table finished before the moves were made"
        gid = live[i % len(live)]
        run.next_cut = cuts[i % len(cuts)]
        if not await step(run, gid):
            live.remove(gid)
        i += 1
    run.next_cut = None


async def finish(run: Run, games: list[int]) -> None:
    """After the faults the table keeps working: at each game a move goes in, and every window still open is
    closed (judging any claim acknowledged in it); each of these requests is taken."""
    for gid in games:
        for _ in range(6):
            n = len(run.requests)
            if not await step(run, gid):
                break
            assert run.requests[n].told == "taken", run.requests[n]
            if await run.svc.store.get_race(gid) is None:
                break
        assert await run.svc.store.get_race(gid) is None


async def check_replies(run: Run, svc: TableService, games: list[int]) -> Counter[str]:
    """Compare each reply with the record (read through another store, as a restarted bot would); return the
    replies by kind, the "not known" ones by what the record says. Each game's snapshot is what its record
    replays to."""
    told: Counter[str] = Counter()
    rows = {}
    for gid in games:
        rows[gid] = await svc.store.get_choice_rows(gid)
        t = await svc.load(gid)
        replayed = svc.replay(t, effective_choices(await svc.store.get_choices(gid)))
        assert t.game.dumps(replayed) == t.game.dumps(t.state), f"game {gid}: the snapshot is not its record's"
    for req in run.requests:
        record = rows[req.game]
        if req.kind == "claim":  # judged when its window closed: the choice at the window's index, by its player
            there = any(r.idx == req.version and r.choice == req.choice and r.actor_id == req.user for r in record)
        else:
            mine = [r for r in record if r.created_at == req.at]
            there = bool(mine)
            if there:
                assert mine[0].idx == req.version, (req, mine)
                assert req.kind == "close" or mine[0].actor_id == req.user, (req, mine)
        if req.told == "taken":
            assert there, f"acknowledged and lost: {req}"
        elif req.told == "unknown":
            req.told = "unknown, then found taken" if there else "unknown, then found not taken"
        else:
            assert not there, f"told {req.told!r} but it is in the record: {req}"
        told[req.told] += 1
    return told


def figures(name: str, run: Run, told: Counter[str], **more: object) -> str:
    """A run's figures, to print: the requests by kind, ``more``, and the replies by kind."""
    kinds = Counter(r.kind for r in run.requests)
    parts = " ".join(f"{k}={v}" for k, v in more.items())
    return (
        f"\n[{name}] moves={run.moves()} (act {kinds['act']}, claim {kinds['claim']}, undo {kinds['undo']})"
        f" closes={kinds['close']} {parts} harness_retries={run.harness_retries}\n"
        f"[{name}] replies: " + ", ".join(f"{k}: {v}" for k, v in sorted(told.items()))
    )


#: the service's log lines (``service.outcome``) and what each says
LOOKS = (
    ("it was committed", "answer lost, found committed"),
    ("it was not committed", "answer lost, found not committed"),
    ("cannot be asked yet", "answer lost, database not answering yet"),
    ("failed before its commit", "failed before its commit"),
)


class Looks(logging.Handler):
    """Counts what the service found when it looked into a commit whose answer was lost (its log lines)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.found: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        for end, kind in LOOKS:
            if end in text:
                self.found[kind] += 1
                return

    @contextlib.contextmanager
    def watching(self) -> Iterator[Looks]:
        """Count for the block."""
        logger = logging.getLogger("service.outcome")
        logger.addHandler(self)
        try:
            yield self
        finally:
            logger.removeHandler(self)


def make_service(store: Store, clock: Clock) -> TableService:
    """The table service on ``store`` with the test's clock and reminders out of the way."""
    return TableService(store, Settings(reminder_first_s=3600, reminder_repeat_s=7200), clock=clock, games=GAMES)
