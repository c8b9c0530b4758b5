"""Issue "trust" 3: a crash at any write boundary of a move, a claim or a race close (both games) leaves a game
that continues after a restart, with every acknowledged choice and claim present and applied.

The store's write hook raises ``SimulatedCrash`` at the n-th statement of the operation (or just after its
commit); the "restart" is a new store and service on the same database, which run the start-up recovery. Every
case runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from engine.core import TABLE, load_choice
from engine.registry import GAMES
from service import ServiceError, Settings, TableService, User
from store import SimulatedCrash, Store
from tests.backends import Targets

USERS = [User(1, "Anna"), User(2, "Ben"), User(3, "Cleo")]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def _service(path: Path | str, clock: Clock) -> TableService:
    store = await Store.open(path)
    return TableService(store, Settings(reminder_first_s=3600, reminder_repeat_s=7200), clock=clock, games=GAMES)


async def _step(svc: TableService, gid: int, clock: Clock) -> None:
    """One move of a scripted table: a due race window closes, else the waited-for player takes the
    default option (an Omerta draw is discarded, so bottles keep landing)."""
    t = await svc.load(gid)
    race = await svc.store.get_race(gid)
    if race is not None:
        clock.now = max(clock.now, race.deadline)
        assert await svc.close_race(gid, race.version) is not None
        return
    prompt = next(p for p in t.prompts() if p.seat != TABLE and p.race is None)
    user = USERS[prompt.seat] if prompt.seat < len(USERS) else None
    assert user is not None
    await svc.act(gid, user, t.version, prompt.kind, prompt.default_option())
    await _arm(svc, gid, clock)


async def _arm(svc: TableService, gid: int, clock: Clock) -> None:
    """Start the time of a window that opened, as the publisher does once the board showing it is posted."""
    race = await svc.store.get_race(gid)
    if race is not None and not race.armed:
        await svc.arm_race(gid, race.version, clock.now + 5)


async def _omerta_at_a_snap(svc: TableService, clock: Clock) -> int:
    gid = (await svc.create(10, 20, USERS[0], "omerta", {"pace": "live"})).table.id
    for u in USERS[1:]:
        await svc.join(gid, u)
    await svc.start(gid, USERS[0])
    for _ in range(200):
        if await svc.store.get_race(gid) is not None:
            return gid
        await _step(svc, gid, clock)
    raise AssertionError("no snap window opened")


async def _speakeasy_started(svc: TableService, clock: Clock) -> int:
    gid = (await svc.create(10, 20, USERS[0], "speakeasy", {})).table.id
    await svc.join(gid, USERS[1])
    await svc.start(gid, USERS[0])
    for _ in range(5):
        await _step(svc, gid, clock)
    return gid


async def _claim(svc: TableService, gid: int) -> str:
    t = await svc.load(gid)
    prompt = next(p for p in t.prompts() if p.race is not None and p.seat != TABLE)
    await svc.act(gid, USERS[prompt.seat], t.version, prompt.kind, prompt.options[0].id, ts_ms=5)
    return f"{prompt.seat}:{prompt.options[0].id}"


Op = Callable[[TableService, int, Clock], Awaitable[object]]


async def _op_move(svc: TableService, gid: int, clock: Clock) -> object:
    race = await svc.store.get_race(gid)
    if race is not None:  # Omerta at a snap: the move is the window closing
        clock.now = race.deadline
        return await svc.close_race(gid, race.version)
    return await _step(svc, gid, clock)


async def _op_claim(svc: TableService, gid: int, clock: Clock) -> object:
    return await _claim(svc, gid)


async def _op_close_with_a_claim(svc: TableService, gid: int, clock: Clock) -> object:
    await _claim(svc, gid)
    race = await svc.store.get_race(gid)
    clock.now = race.deadline
    return await svc.close_race(gid, race.version)


async def _boundaries(path: str, setup, op: Op, pre: Op | None) -> int:
    clock = Clock()
    svc = await _service(path, clock)
    gid = await setup(svc, clock)
    if pre is not None:
        await pre(svc, gid, clock)
    seen: list[str] = []
    svc.store.write_hook = seen.append
    await op(svc, gid, clock)
    await svc.store.close()
    return len(seen)


CASES = [
    ("omerta-close", _omerta_at_a_snap, _op_move, None),
    ("omerta-claim", _omerta_at_a_snap, _op_claim, None),
    ("omerta-claim-then-close", _omerta_at_a_snap, _op_close_with_a_claim, None),
    ("speakeasy-move", _speakeasy_started, _op_move, None),
]


@pytest.mark.parametrize(("name", "setup", "op", "pre"), CASES, ids=[c[0] for c in CASES])
async def test_a_crash_at_every_write_boundary_leaves_a_game_that_goes_on(targets: Targets, name, setup, op, pre):
    """On both backends (``targets``: SQLite files or PostgreSQL schemas)."""
    boundaries = await _boundaries(targets.new(), setup, op, pre)
    assert boundaries >= 2, name
    for at in range(1, boundaries + 1):
        path = targets.new()
        clock = Clock()
        svc = await _service(path, clock)
        gid = await setup(svc, clock)
        before = await svc.store.get_choices(gid)
        claims_before = await svc.store.get_claims(gid, (await svc.load(gid)).version)
        seen = 0

        def crash(label: str, at: int = at) -> None:
            nonlocal seen
            seen += 1
            if seen == at:
                raise SimulatedCrash(label)

        svc.store.write_hook = crash
        acknowledged = False
        try:
            await op(svc, gid, clock)
            acknowledged = True
        except SimulatedCrash:
            pass
        svc.store.write_hook = None
        await svc.store.close()
        # the restart: a new process on the same file
        svc = await _service(path, clock)
        await svc.recover()
        after = await svc.store.get_choices(gid)
        assert after[: len(before)] == before, f"{name} @{at}: a committed choice was lost"
        if acknowledged and "close" in name:
            assert len(after) > len(before), f"{name} @{at}: an acknowledged close was not applied"
        t = await svc.load(gid)
        claims = await svc.store.get_claims(gid, t.version)
        if "claim" in name and acknowledged and len(after) == len(before):
            assert claims, f"{name} @{at}: an acknowledged claim was lost"
        # the game goes on: a window still open can be claimed in and closed; every claim is applied
        pending = [load_choice(c.choice) for c in claims] or [load_choice(c.choice) for c in claims_before]
        for _ in range(6):
            await _step(svc, gid, clock)
        record = [load_choice(c) for c in await svc.store.get_choices(gid)]
        assert len(record) >= len(after) + 1, f"{name} @{at}: the game is stuck"
        if claims:
            assert any(c in record[len(after) :] for c in pending), f"{name} @{at}: a claim was never applied"
        with pytest.raises(ServiceError):
            await svc.act(gid, User(99, "Zed"), t.version, "x", "y")  # and refusals still answer
        await svc.store.close()


async def test_a_crash_while_a_lobby_opens_leaves_no_lobby_or_one_with_its_host(targets: Targets) -> None:
    """Issue 22 (small ones): opening a lobby and seating its host were two transactions, and a kill between them
    left a lobby without seats that counted against the channel's limit. Cut at every write boundary of ``create``
    (on both backends), the restarted table holds either no game or the lobby with its host in seat 0, and the host
    can open it (again)."""
    seen: list[str] = []
    clock = Clock()
    svc = await _service(targets.new(), clock)
    svc.store.write_hook = seen.append
    await svc.create(10, 20, USERS[0], "omerta", {"pace": "live"})
    await svc.store.close()
    assert seen[-1] == "commit" and len(seen) >= 3, seen  # the limits' counts, the game, the seat, the commit
    for at in range(1, len(seen) + 1):
        path = targets.new()
        svc = await _service(path, clock)
        count = 0

        def crash(label: str, at: int = at) -> None:
            nonlocal count
            count += 1
            if count == at:
                raise SimulatedCrash(label)

        svc.store.write_hook = crash
        with pytest.raises(SimulatedCrash):
            await svc.create(10, 20, USERS[0], "omerta", {"pace": "live"})
        await svc.store.close()
        svc = await _service(path, clock)  # the restart
        games = await svc.store.list_games(10)
        if at < len(seen):  # cut before the commit: nothing
            assert games == [], f"@{at}: a lobby was left by a cut transaction"
        else:  # cut just after it: the lobby with its host
            (game,) = games
            seats = await svc.store.get_seats(game.id)
            assert [(s.seat, s.user_id) for s in seats] == [(0, USERS[0].id)], f"@{at}: {seats}"
        notice = await svc.create(10, 20, USERS[0], "omerta", {"pace": "live"})
        assert [s.user_id for s in notice.table.seats] == [USERS[0].id]
        await svc.store.close()
