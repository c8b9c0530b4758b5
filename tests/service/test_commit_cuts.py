"""Issue 22, "Honest replies when PostgreSQL fails", one write at a time: each way the table writes a game, cut by
a proxy exactly at its COMMIT (before the server got it, or after the server committed it but before its answer
came back), is answered as the record has it; a database still away when the bot looks is answered as not known
yet; and the service's look after a lost COMMIT answer works on SQLite as on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from engine.core import TABLE
from service import MaybeTaken, Notice, NotTaken, TableService, User
from service.outcome import MAYBE_TAKEN, NOT_DONE, NOT_TAKEN, TAKEN
from store import OutcomeUnknown, Store
from tests.backends import Targets
from tests.pgfaults import CommitCutter, named
from tests.service.faults import CHANNELS, USERS, Clock, make_service, open_table

# --- every kind of write, cut at its COMMIT --------------------------------------------------------------------

HOST, OTHER, NEW = USERS[0], USERS[1], User(4, "Dan")


async def _waited(svc: TableService, gid: int) -> tuple[int, User, str, str]:
    """The version, and the waited-for player with their question and its default answer."""
    t = await svc.load(gid)
    p = next(p for p in t.prompts() if p.seat != TABLE and p.race is None and not p.optional)
    return t.version, USERS[p.seat], p.kind, p.default_option()


async def _move(svc: TableService, gid: int) -> None:
    version, user, kind, option = await _waited(svc, gid)
    await svc.act(gid, user, version, kind, option)


async def _at_snap(svc: TableService, clock: Clock) -> int:
    """An Omerta table with a snap window open (and its time started)."""
    gid = await open_table(svc, "omerta", 3)
    for _ in range(200):
        race = await svc.store.get_race(gid)
        if race is not None:
            await svc.arm_race(gid, race.version, clock.now + 5)
            return gid
        clock.now += 1
        await _move(svc, gid)
    raise AssertionError("no snap window opened")


async def _undoable(svc: TableService, clock: Clock) -> int:
    """A Speakeasy table whose last step its player may take back."""
    gid = await open_table(svc, "speakeasy", 2)
    for _ in range(60):
        clock.now += 1
        version, user, kind, option = await _waited(svc, gid)
        await svc.act(gid, user, version, kind, option)
        t = await svc.load(gid)
        if await svc.can_undo(t, t.seat_of(user.id)):
            return gid
    raise AssertionError("no step could be taken back")


async def _version(svc: TableService, gid: int) -> int:
    return (await svc.store.get_game(gid)).version


async def _seat_user(svc: TableService, gid: int, seat: int) -> int:
    return next(s.user_id for s in await svc.store.get_seats(gid) if s.seat == seat)


@dataclass
class Case:
    """A request of one kind: how to set it up, make it, and see in the store whether it was carried out."""

    name: str
    setup: Callable[[TableService, Clock], Awaitable[Any]]  # -> the context the other two take
    request: Callable[[TableService, Any], Awaitable[Notice | None]]
    done: Callable[[TableService, Any], Awaitable[object]]  # what the request changes, read from the store
    at: int = 1  # its COMMIT to cut (the first, or a later one of a request that writes twice)
    move: bool = True  # answered as a move ("Your move was not taken") or as a request


async def _act_setup(svc: TableService, clock: Clock) -> tuple[int, tuple[int, User, str, str]]:
    gid = await open_table(svc, "omerta", 3)
    return gid, await _waited(svc, gid)


async def _claim_setup(svc: TableService, clock: Clock) -> tuple[int, int, User, str, str]:
    gid = await _at_snap(svc, clock)
    t = await svc.load(gid)
    p = next(p for p in t.prompts() if p.race is not None and p.seat != TABLE)
    return gid, t.version, USERS[p.seat], p.kind, p.options[0].id


async def _offered(svc: TableService, clock: Clock) -> int:
    gid = await open_table(svc, "omerta", 3)
    await svc.offer_seat(gid, HOST, OTHER.id, NEW)
    await svc.give_seat(gid, OTHER, 1)  # the seat's player agrees: it changes hands when NEW takes it
    return gid


async def _bot_seated(svc: TableService, clock: Clock) -> int:
    gid = await open_table(svc, "omerta", 3)
    await svc.seat_to_bot(gid, HOST, OTHER.id, "easy")
    return gid


async def _lobby(svc: TableService, clock: Clock) -> int:
    gid = (await svc.create(10, next(CHANNELS), HOST, "omerta", {"pace": "live"})).table.id
    for u in USERS[1:]:
        await svc.join(gid, u)
    return gid


async def _has_offer(svc: TableService, gid: int) -> bool:
    return await svc.store.get_offer(gid, 1) is not None


async def _announced(svc: TableService, gid: int) -> bool:
    return any(r.kind == "offer" for r in await svc.store.outbox_due(1e18, gid))


async def _close(svc: TableService, gid: int) -> Notice | None:
    race = await svc.store.get_race(gid)
    return await svc.close_race(gid, race.version)


async def _undo_last(svc: TableService, gid: int) -> Notice:
    t = await svc.load(gid)
    last = (await svc.store.get_choice_rows(gid))[-1]
    return await svc.undo(gid, next(u for u in USERS if u.id == last.actor_id), t.version)


async def _skip(svc: TableService, gid: int) -> Notice:
    version, user, _, _ = await _waited(svc, gid)
    t = await svc.load(gid)
    return await svc.skip(gid, HOST, version, t.seat_of(user.id))


async def _status(svc: TableService, gid: int) -> str:
    return (await svc.store.get_game(gid)).status


CASES = [
    Case(
        "act",
        _act_setup,
        lambda svc, c: svc.act(c[0], c[1][1], c[1][0], c[1][2], c[1][3]),
        lambda svc, c: _version(svc, c[0]),
    ),
    Case(
        "claim",
        _claim_setup,
        lambda svc, c: svc.act(c[0], c[2], c[1], c[3], c[4], ts_ms=7),
        lambda svc, c: svc.store.get_claims(c[0], c[1]),
    ),
    Case(
        "close",
        lambda svc, clock: _at_snap(svc, clock),
        lambda svc, gid: _close(svc, gid),
        lambda svc, gid: _version(svc, gid),
    ),
    Case(
        "undo",
        _undoable,
        lambda svc, gid: _undo_last(svc, gid),
        lambda svc, gid: _version(svc, gid),
    ),
    Case(
        "skip",
        lambda svc, clock: open_table(svc, "speakeasy", 2),
        lambda svc, gid: _skip(svc, gid),
        lambda svc, gid: _version(svc, gid),
        move=False,
    ),
    Case("start", _lobby, lambda svc, gid: svc.start(gid, HOST), lambda svc, gid: _status(svc, gid), move=False),
    Case(
        "abandon",
        lambda svc, clock: open_table(svc, "omerta", 3),
        lambda svc, gid: svc.abandon(gid, HOST),
        lambda svc, gid: _status(svc, gid),
        move=False,
    ),
    Case(
        "offer",
        lambda svc, clock: open_table(svc, "omerta", 3),
        lambda svc, gid: svc.offer_seat(gid, HOST, OTHER.id, NEW),
        _has_offer,
        move=False,
    ),
    Case(
        "offer, its announcement",
        lambda svc, clock: open_table(svc, "omerta", 3),
        lambda svc, gid: svc.offer_seat(gid, HOST, OTHER.id, NEW),
        _announced,
        at=2,
        move=False,
    ),
    Case(
        "take the seat",
        _offered,
        lambda svc, gid: svc.take_seat(gid, NEW, 1),
        lambda svc, gid: _seat_user(svc, gid, 1),
        move=False,
    ),
    Case(
        "seat to a bot",
        lambda svc, clock: open_table(svc, "omerta", 3),
        lambda svc, gid: svc.seat_to_bot(gid, HOST, OTHER.id, "easy"),
        lambda svc, gid: _seat_user(svc, gid, 1),
        at=2,
        move=False,
    ),
    Case(
        "reclaim",
        _bot_seated,
        lambda svc, gid: svc.reclaim_seat(gid, OTHER),
        lambda svc, gid: _seat_user(svc, gid, 1),
        at=2,
        move=False,
    ),
]


async def test_every_kind_of_write_cut_exactly_at_its_commit_is_answered_truthfully(postgres_server: str, tmp_path):
    """Issue 22: each way the table writes a game (a move, a claim, a window closing, an undo, the host's skip,
    a start, an abandon, a seat offered, taken, handed to a bot and taken back) cut at its COMMIT: before the
    server got it, the request is answered "not taken" (or "not done") and nothing changed; after the server
    committed it, the request succeeds as if nothing had happened (a quiet move: "Your move was taken."). Then
    the same request, or the next one, works."""
    cutter = CommitCutter(postgres_server)
    async with cutter.running():
        targets = Targets("postgres", tmp_path, named(cutter.url(), f"kinds_{uuid.uuid4().hex[:10]}"))
        try:
            clock = Clock()
            svc = make_service(await Store.open(targets.new()), clock)
            try:
                results = []
                for case in CASES:
                    for mode in ("before", "after"):
                        context = await case.setup(svc, clock)
                        gid = context if isinstance(context, int) else context[0]
                        before = await case.done(svc, context)
                        clock.now += 1
                        cutter.arm(mode, at=case.at)
                        try:
                            notice = await case.request(svc, context)
                        except NotTaken as exc:
                            told = "not taken"
                            assert exc.msg == (NOT_TAKEN if case.move else NOT_DONE), (case.name, exc.msg)
                        else:
                            told = "taken"
                            if case.name in ("act", "undo", "close"):
                                assert notice.reply == TAKEN, (case.name, mode, notice.reply)
                        finally:
                            cutter.arm(None)
                        assert cutter.cuts[mode] > 0
                        changed = await case.done(svc, context) != before
                        expected = "not taken" if mode == "before" else "taken"
                        assert (told, changed) == (expected, mode == "after"), (case.name, mode, told, changed)
                        results.append(f"{case.name}/{mode}: {told}")
                        if mode == "before":  # made again, it goes in
                            clock.now += 1
                            await case.request(svc, context)
                            assert await case.done(svc, context) != before, (case.name, "again")
                        active = (await svc.store.get_game(gid)).status == "active"
                        if active and await svc.store.get_race(gid) is None:  # and the table goes on
                            await _move(svc, gid)
                print("\n[every write cut at commit] " + "; ".join(results))
                print(f"[every write cut at commit] cuts: {cutter.cuts}")
            finally:
                await svc.store.close()
        finally:
            await targets.cleanup()


async def test_a_database_still_away_when_the_bot_looks_is_answered_as_not_known(postgres_server: str, tmp_path):
    """Issue 22: the connection is cut at a move's COMMIT and the server stays away while the bot looks (every
    new connection refused for two seconds): the player is told the truth, that it is not known yet whether
    their move was taken and that the board will show it; once the server is back, the record has the move (cut
    after the COMMIT) or not (cut before it), and the next move goes in."""
    cutter = CommitCutter(postgres_server)
    async with cutter.running():
        targets = Targets("postgres", tmp_path, named(cutter.url(), f"away_{uuid.uuid4().hex[:10]}"))
        try:
            clock = Clock()
            svc = make_service(await Store.open(targets.new()), clock)
            try:
                for mode in ("after", "before"):
                    gid = await open_table(svc, "omerta", 3)
                    version, user, kind, option = await _waited(svc, gid)
                    clock.now += 1
                    cutter.arm(mode, down_s=2.0)
                    with pytest.raises(MaybeTaken) as caught:
                        await svc.act(gid, user, version, kind, option)
                    assert caught.value.msg == MAYBE_TAKEN
                    assert str(caught.value.msg) == (
                        "The database did not answer; your move may or may not have been taken. "
                        "The board will show it once the database is back."
                    )
                    while cutter.down:
                        await asyncio.sleep(0.05)
                    rows = await svc.store.get_choice_rows(gid)
                    assert [r.created_at for r in rows[version:]] == ([clock.now] if mode == "after" else [])
                    await _move(svc, gid)
                    assert await _version(svc, gid) == version + (2 if mode == "after" else 1)
            finally:
                await svc.store.close()
        finally:
            await targets.cleanup()


class _LosesAnswer:
    """A transaction whose COMMIT is carried out (``"after"``) or not (``"before"``), then reported lost."""

    def __init__(self, tx: Any, mode: str) -> None:
        self._tx, self._mode = tx, mode

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tx, name)

    async def commit(self) -> None:
        if self._mode == "after":
            await self._tx.commit()
        else:
            await self._tx.rollback()
        raise OutcomeUnknown(f"the test lost the COMMIT's answer ({self._mode})")


async def test_a_lost_commit_answer_is_looked_into_on_either_backend(targets: Targets) -> None:
    """The service's look after a lost COMMIT answer, on SQLite and on PostgreSQL (the backend's commit carried
    out or not, then reported lost): "Your move was taken." or "Your move was not taken; try again.", as the
    record has it."""
    clock = Clock()
    svc = make_service(await Store.open(targets.new()), clock)
    backend = svc.store._backend
    begin = backend.begin
    try:
        gid = await open_table(svc, "omerta", 3)
        for mode in ("before", "after", "before", "after"):
            version, user, kind, option = await _waited(svc, gid)
            clock.now += 1

            async def losing(mode: str = mode) -> Any:
                backend.begin = begin  # only this write's
                return _LosesAnswer(await begin(), mode)

            backend.begin = losing
            if mode == "before":
                with pytest.raises(NotTaken) as caught:
                    await svc.act(gid, user, version, kind, option)
                assert caught.value.msg == NOT_TAKEN
                assert await _version(svc, gid) == version
            else:
                notice = await svc.act(gid, user, version, kind, option)
                assert notice.reply == TAKEN and notice.table.version == version + 1
                assert [r.created_at for r in await svc.store.get_choice_rows(gid, since=version)] == [clock.now]
    finally:
        backend.begin = begin
        await svc.store.close()
