"""Issue "trust" 5: the host's skip carries the board's version like a click. Racing the waited-for player's own
move, exactly one applies; a skip never takes the turn of a player who was not being waited for; an Omerta
skip declines every power (the engine marks each question's default)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.core import TABLE, load_choice
from engine.registry import GAMES
from service import ServiceError, Settings, StaleClick, TableService, User
from store import Store

USERS = [User(1, "Anna", guild_id=10), User(2, "Ben", guild_id=10), User(3, "Cleo", guild_id=10)]
HOST = USERS[0]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def _omerta(svc: TableService) -> int:
    gid = (await svc.create(10, 20, HOST, "omerta", {})).table.id
    for u in USERS[1:]:
        await svc.join(gid, u)
    await svc.start(gid, HOST)
    return gid


async def _close_windows(svc: TableService, gid: int, clock: Clock) -> None:
    while (race := await svc.store.get_race(gid)) is not None:
        if not race.armed:  # as the publisher does once the board showing the window is posted
            await svc.arm_race(gid, race.version, clock.now + 5)
            continue
        clock.now = max(clock.now, race.deadline)
        await svc.close_race(gid, race.version)


async def _race_once(mover: TableService, skipper: TableService, gid: int, clock: Clock) -> None:
    await _close_windows(mover, gid, clock)
    t = await mover.load(gid)
    if t.row.status != "active":
        return
    prompt = next(p for p in t.prompts() if p.seat != TABLE and p.race is None)
    seat, before = prompt.seat, len(await mover.store.get_choices(gid))
    move = mover.act(gid, USERS[seat], t.version, prompt.kind, prompt.options[-1].id)
    skip = skipper.skip(gid, HOST, t.version, seat)
    results = await asyncio.gather(move, skip, return_exceptions=True)
    ok = [r for r in results if not isinstance(r, BaseException)]
    failed = [r for r in results if isinstance(r, BaseException)]
    assert len(ok) == 1 and len(failed) == 1, results
    assert isinstance(failed[0], StaleClick | ServiceError), failed[0]
    new = [load_choice(c) for c in (await mover.store.get_choices(gid))[before:]]
    assert new and all(c.seat == seat for c in new), "a skip took a turn nobody was waiting for"


@pytest.mark.parametrize("processes", [1, 2])
async def test_a_skip_racing_the_players_own_move_exactly_one_applies(tmp_path: Path, processes: int):
    """500 races in one process (the per-game lock) and 500 between two processes on one database file (the
    store's compare-and-set on the version): 1,000 in all."""
    clock = Clock()
    first = await Store.open(tmp_path / "race.sqlite3")
    second = await Store.open(tmp_path / "race.sqlite3") if processes == 2 else first
    a = TableService(first, Settings(), clock=clock, games=GAMES)
    b = TableService(second, Settings(), clock=clock, games=GAMES) if processes == 2 else a
    gid = await _omerta(a)
    races = 0
    while races < 500:
        if (await a.load(gid)).row.status != "active":
            gid = await _omerta(a)
        await _race_once(a, b, gid, clock)
        races += 1
    await first.close()
    if second is not first:
        await second.close()


async def test_a_skip_of_a_board_that_moved_on_is_refused_and_changes_nothing():
    store = await Store.open(":memory:")
    svc = TableService(store, Settings(), games=GAMES)
    gid = await _omerta(svc)
    t = await svc.load(gid)
    waiting = [p.seat for p in t.prompts() if p.race is None]
    await svc.act(gid, USERS[waiting[0]], t.version, "peek", "0,1")
    before = await store.get_choices(gid)
    with pytest.raises(StaleClick, match="moved on"):
        await svc.skip(gid, HOST, t.version, waiting[0])
    t = await svc.load(gid)
    with pytest.raises(ServiceError, match="not being waited for"):
        await svc.skip(gid, HOST, t.version, waiting[0])  # that player already peeked
    assert await store.get_choices(gid) == before
    await store.close()


async def test_an_omerta_skip_declines_every_power():
    """The skipped player draws, discards and declines any power the discard fires (design: powers are
    optional), never shuffling, giving cards or swapping with the Safe."""
    clock = Clock()
    store = await Store.open(":memory:")
    svc = TableService(store, Settings(), clock=clock, games=GAMES)
    powers_skipped = 0
    for _ in range(40):
        gid = await _omerta(svc)
        for _ in range(60):
            await _close_windows(svc, gid, clock)
            t = await svc.load(gid)
            if t.row.status != "active":
                break
            prompt = next(p for p in t.prompts() if p.seat != TABLE and p.race is None)
            before = len(await store.get_choices(gid))
            await svc.skip(gid, HOST, t.version, prompt.seat)
            for c in [load_choice(c) for c in (await store.get_choices(gid))[before:]]:
                if c.kind not in ("peek", "turn", "place"):
                    assert c.option in ("decline", "keep"), c
                    powers_skipped += 1
                elif c.kind == "turn":
                    assert c.option == "draw", c
                elif c.kind == "place":
                    assert c.option == "discard", c
        if powers_skipped >= 20:
            break
    assert powers_skipped >= 20
    await store.close()
