"""Several bot processes on one PostgreSQL database (issue 14): what must happen once happens once. Two
services with stores of their own stand for two processes; the store's work locks and claims decide."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from engine.core import TABLE, load_choice
from engine.registry import GAMES
from service import ServiceError, Settings, TableService, User
from store import Store
from tests.backends import Targets

USERS = [User(1, "Anna", guild_id=10), User(2, "Ben", guild_id=10), User(3, "Cleo", guild_id=10)]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def two(backend: str, targets: Targets) -> AsyncIterator[tuple[TableService, TableService, Clock]]:
    """Two "processes" (a service and a store each) on one database: PostgreSQL only (on SQLite one process
    is the only supported setup)."""
    if backend == "sqlite":
        pytest.skip("several processes on one database is a PostgreSQL setup (docs/deploy.md)")
    target, clock = targets.new(), Clock()
    first = await Store.open(target)
    second = await Store.open(target)
    settings = Settings()
    yield (
        TableService(first, settings, clock=clock, games=GAMES),
        TableService(second, settings, clock=clock, games=GAMES),
        clock,
    )
    await first.close()
    await second.close()


async def _omerta(svc: TableService) -> int:
    gid = (await svc.create(10, 20, USERS[0], "omerta", {"pace": "live"})).table.id
    for u in USERS[1:]:
        await svc.join(gid, u)
    await svc.start(gid, USERS[0])
    return gid


async def _to_a_snap_window(svc: TableService, gid: int) -> bool:
    """Play the player waited for (the first option: draw, never an OMERTA call) until a snap window opens;
    False if the game ended first."""
    for _ in range(200):
        t = await svc.load(gid)
        if t.row.status != "active":
            return False
        if any(p.race for p in t.prompts()):
            return True
        prompt = next(p for p in t.prompts() if p.seat != TABLE)
        await svc.act(gid, USERS[prompt.seat], t.version, prompt.kind, prompt.options[0].id)
    return False


async def test_a_window_closes_once_and_judges_every_acknowledged_claim(two) -> None:  # noqa: ANN001
    """One process closes a snap window while the other takes a claim in it, 40 times: the window closes
    exactly once, and a claim that was acknowledged ("Claim in") is always the one applied, never lost."""
    a, b, clock = two
    windows = acknowledged = 0
    gid, games = await _omerta(a), 1
    while windows < 40:
        if not await _to_a_snap_window(a, gid):
            assert games < 10, "the games end before their snap windows"
            gid, games = await _omerta(a), games + 1
            continue
        t = await a.load(gid)
        race = await a.store.get_race(gid)
        assert race is not None and race.version == t.version
        snap = next(p for p in t.prompts() if p.race and p.seat != TABLE)
        before = len(await a.store.get_choices(gid))
        clock.now = max(clock.now, race.deadline)
        claim = b.act(gid, USERS[snap.seat], t.version, "snap", snap.options[0].id, ts_ms=1)
        closers = [a.close_race(gid, t.version), b.close_race(gid, t.version)]
        # the claim goes first, between or last: every interleaving across the two processes
        tasks = [*closers[: windows % 3], claim, *closers[windows % 3 :]]
        results = await asyncio.gather(*tasks, return_exceptions=True)
        claimed = results.pop(windows % 3)
        close_a, close_b = results
        closes = [c for c in (close_a, close_b) if c is not None and not isinstance(c, BaseException)]
        assert len(closes) == 1, (close_a, close_b)  # exactly once
        assert all(c is None or isinstance(c, ServiceError) for c in (close_a, close_b) if c not in closes)
        first_new = (await a.store.get_choices(gid))[before]
        if isinstance(claimed, BaseException):
            assert isinstance(claimed, ServiceError), claimed  # "That window has closed."
        else:
            acknowledged += 1
            applied = load_choice(first_new)
            assert (applied.seat, applied.kind) == (snap.seat, "snap"), "an acknowledged claim was not judged"
        windows += 1
    assert acknowledged  # the interleaving really let claims in


async def test_a_due_reminder_goes_to_one_process(two) -> None:  # noqa: ANN001
    a, b, clock = two
    gids = [await _omerta(a) for _ in range(5)]
    clock.now += 13 * 3600
    got_a, got_b = await asyncio.gather(a.due_reminders(), b.due_reminders())
    taken = [(t.id, u) for t, u, *_ in got_a] + [(t.id, u) for t, u, *_ in got_b]
    assert sorted(taken) == sorted(set(taken)) and {g for g, _ in taken} == set(gids)
    assert await a.due_reminders() == [] and await b.due_reminders() == []
    # the process that took one died before sending it: after the claim lapses the other sends it
    clock.now += Settings().reminder_claim_s
    again = await b.due_reminders()
    assert sorted((t.id, u) for t, u, *_ in again) == sorted(taken)
    for t, u, *_ in again:
        await b.reminder_sent(t, u)
    assert await a.due_reminders() == []
