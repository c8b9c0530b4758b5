"""Honest answers when the database fails while a request is written (issue 22).

A write that fails before its commit changed nothing (the store raises ``StoreUnavailable``): the player is told
their move was not taken. One that fails during its commit (``OutcomeUnknown``: e.g. the connection broke before
the COMMIT's answer came) may or may not have been committed: the service waits until that transaction has
ended (``Store.settle``), reads what the database holds (for a move: the choices at the indexes it wrote, which
are append-only and carry their actor and time) and answers what is true: taken, or not taken. If the database
cannot be asked even then, the answer says that the outcome is not known yet and that the board will show it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import logging
import math
from collections.abc import Awaitable, Callable
from contextvars import ContextVar

from engine.msg import M, Msg
from service.notice import MaybeTaken, NotTaken, Table
from store import Move, OfferRow, OutcomeUnknown, Store, StoreBusy, StoreUnavailable

log = logging.getLogger(__name__)

#: The quiet click's answer when its move was found committed after the database failed.
TAKEN = M("table.reply.taken", "Your move was taken.")
#: What the player is told when the database failed and their move was not recorded.
NOT_TAKEN = M("table.err.not_taken", "Your move was not taken; try again.")
#: ... and when the database could not be asked whether it was.
MAYBE_TAKEN = M(
    "table.err.maybe_taken",
    "The database did not answer; your move may or may not have been taken. "
    "The board will show it once the database is back.",
)
#: The same two for a request that is not a move (a seat handed over, a game started or abandoned, a skip).
NOT_DONE = M("table.err.not_done", "The database failed, so that was not done; try again.")
MAYBE_DONE = M(
    "table.err.maybe_done",
    "The database did not answer; that may or may not have been done. "
    "The board will show it once the database is back.",
)
#: What a request is told when the database fails where the service did not look into it: a read (nothing was
#: written) or a write that is not part of a game's record.
UNREACHABLE = M("table.err.unreachable", "The database cannot be reached right now; try again in a moment.")
BUSY = M("table.err.busy", "The database is busy right now; try again in a moment.")
#: What a request is told when something failed after it had been committed (e.g. its reply could not be sent).
RECORDED = M(
    "table.err.failed_after",
    "Your request was recorded, but something went wrong afterwards; the board shows what was done. "
    "The error was logged.",
)
#: Whether the request running in this task has committed a write of a game (set by ``written``): a failure
#: after it must not be answered as if nothing had changed. (Each interaction runs in a task of its own.)
_COMMITTED: ContextVar[bool] = ContextVar("speakeasy_committed", default=False)
#: Pauses (seconds) before each look at the database after a write's outcome was lost: the first at once (a
#: connection the server ended is replaced at once), the later ones for a server that is restarting. The
#: project's own values: about a second in all, so the player is answered quickly either way.
LOOK_PAUSES = (0.0, 0.25, 1.0)

#: Whether a write is in the store: True, False, or None when the database cannot tell (e.g. a claim whose race
#: has closed since, its claims dropped).
Check = Callable[[], Awaitable[bool | None]]


class Written(enum.Enum):
    """How a write of the record ended."""

    #: committed, and its answer came
    DONE = "done"
    #: refused by the store (e.g. the board moved on): nothing written
    REFUSED = "refused"
    #: its answer was lost, and a look afterwards found it committed
    FOUND = "found"


async def written(
    store: Store, write: Awaitable[bool | None], landed: Check, what: str, *, move: bool = True
) -> Written:
    """Run ``write`` (a store write; False: it refused) and tell how it ended. A failure before
    its commit raises ``NotTaken``; a failure during its commit is looked into with ``landed`` once every write
    begun before has ended: ``Written.FOUND``, or ``NotTaken``, or ``MaybeTaken`` if the database cannot tell.
    ``what`` names the write in the log; ``move``: whether the messages speak of a move or of a request."""
    try:
        result = await write
        if result is False:
            return Written.REFUSED
        _COMMITTED.set(True)
        return Written.DONE
    except OutcomeUnknown as exc:
        lost: StoreUnavailable = exc
    except StoreUnavailable as exc:
        log.warning("%s failed before its commit (nothing written): %s", what, exc)
        raise NotTaken(NOT_TAKEN if move else NOT_DONE) from exc
    for pause in LOOK_PAUSES:
        await asyncio.sleep(pause)
        try:
            await store.settle()  # the lost transaction has ended, committed or not
            found = await landed()
        except (StoreUnavailable, StoreBusy) as exc:
            log.warning("%s lost its commit's answer, and the database cannot be asked yet: %s", what, exc)
            continue
        if found is None:
            break
        log.warning("%s lost its commit's answer (%s); it was %scommitted", what, lost, "" if found else "not ")
        if found:
            _COMMITTED.set(True)
            return Written.FOUND
        raise NotTaken(NOT_TAKEN if move else NOT_DONE) from lost
    raise MaybeTaken(MAYBE_TAKEN if move else MAYBE_DONE) from lost


def failure_reply(exc: BaseException) -> Msg | None:
    """What a person is told when their request ended with ``exc`` where nothing answered it on purpose: a
    failing database (unreachable, busy, or a write whose commit lost its answer), or any failure after the
    request had committed a write of its game. None: none of these (nothing was changed, then)."""
    if isinstance(exc, OutcomeUnknown):
        return MAYBE_DONE
    if _COMMITTED.get():
        return RECORDED
    if isinstance(exc, StoreUnavailable):
        return UNREACHABLE
    if isinstance(exc, StoreBusy):
        return BUSY
    return None


def taken_reply(outcome: Written, reply: Msg | str) -> Msg | str:
    """The reply of a request whose write ended so: a quiet move (no reply of its own: the board shows it) that
    was found committed after a failure says so, since the player waited for an answer."""
    return TAKEN if outcome is Written.FOUND and not reply else reply


# --- the store's writes of a game, each answered truthfully --------------------------------------------------


async def commit_move(store: Store, game_id: int, v0: int, move: Move) -> Written:
    """``store.commit_move``: a move whose commit lost its answer was committed if the choices at its indexes are
    exactly the ones it wrote (the record is append-only; each choice carries its actor and its time)."""

    async def landed() -> bool:
        rows = await store.get_choice_rows(game_id, since=v0)
        wrote = [(v0 + i, choice, actor, move.now) for i, (choice, actor) in enumerate(move.choices)]
        return [(r.idx, r.choice, r.actor_id, r.created_at) for r in rows[: len(wrote)]] == wrote

    return await written(store, store.commit_move(game_id, v0, move), landed, f"the move of game {game_id} at {v0}")


async def add_claim(
    store: Store, game_id: int, version: int, seat: int, choice_json: str, ts_ms: int, now: float
) -> Written:
    """``store.add_claim``: it was committed if the window holds this claim; it was not if the window is still
    open without it (a window's claims stay until a move closes it); the database cannot tell once the window
    has closed since (its claims are dropped then)."""

    async def landed() -> bool | None:
        for c in await store.get_claims(game_id, version):
            if (c.seat, c.choice, c.ts_ms, c.received_at) == (seat, choice_json, ts_ms, now):
                return True
        race = await store.get_race(game_id)
        return False if race is not None and race.version == version else None

    write = store.add_claim(game_id, version, seat, choice_json, ts_ms, now)
    return await written(store, write, landed, f"a claim in game {game_id} at {version}")


async def start_game(store: Store, game_id: int, move: Move) -> Written:
    """``store.start_game`` (``move``: the set-up's snapshot, events, reminders and outbox): it was committed if
    the game has a snapshot (only the start writes one to a game in the lobby)."""

    async def landed() -> bool:
        return await store.get_snapshot(game_id) is not None

    write = store.start_game(game_id, move.snapshot, move.now, move)
    return await written(store, write, landed, f"the start of game {game_id}", move=False)


async def end_game(store: Store, game_id: int, status: str, statuses: tuple[str, ...], move: Move) -> Written:
    """``store.end_game``: it was committed if the game has that final status now."""

    async def landed() -> bool:
        row = await store.get_game(game_id)
        return row is not None and row.status == status

    write = store.end_game(game_id, status, move.now, statuses, move)
    return await written(store, write, landed, f"game {game_id} ending as {status}", move=False)


async def put_offer(store: Store, offer: OfferRow) -> None:
    """``store.put_offer``: it was written if the seat's offer is this one."""

    async def landed() -> bool:
        return await store.get_offer(offer.game_id, offer.seat) == offer

    what = f"the offer of seat {offer.seat} of game {offer.game_id}"
    await written(store, store.put_offer(offer), landed, what, move=False)


async def take_offer(store: Store, game_id: int, seat: int, to_user: int, now: float, name: str, move: Move) -> Written:
    """``store.take_offer``: it was committed if the seat is now ``to_user``'s."""

    async def landed() -> bool:
        return any(s.seat == seat and s.user_id == to_user for s in await store.get_seats(game_id))

    write = store.take_offer(game_id, seat, to_user, now, name, move)
    return await written(store, write, landed, f"seat {seat} of game {game_id} changing hands", move=False)


async def announce(store: Store, game_id: int, version: int, move: Move) -> Written:
    """``store.table_event`` of a seat offer's announcement: it was committed if its entry is in the outbox
    (where it waits until the offer is posted, right after this request)."""

    async def landed() -> bool:
        entries = await store.outbox_due(math.inf, game_id)
        return any((r.kind, r.user_id, r.body) in move.outbox for r in entries)

    write = store.table_event(game_id, version, move)
    return await written(store, write, landed, f"a seat offer of game {game_id}", move=False)


def seated(table: Table, seat: int, user_id: int, name: str) -> Table:
    """``table`` after its seat ``seat`` went to ``user_id`` (what ``load`` would read, as ``take_offer`` wrote it)."""
    seats = [
        dataclasses.replace(s, user_id=user_id, name=name, dm_blocked=False, private_thread_id=None)
        if s.seat == seat
        else s
        for s in table.seats
    ]
    old = table.user_of(seat)
    row = dataclasses.replace(table.row, host_id=user_id) if old == table.row.host_id else table.row
    return Table(row, seats, table.game, table.state)


async def agree_offer(store: Store, game_id: int, seat: int, user_id: int, now: float) -> OfferRow | None:
    """``store.agree_offer`` (one side's consent to a seat offer): it was written if the offer carries that
    person's consent; the offer as it stands, or None if there was none to agree to."""

    def agreed(offer: OfferRow | None) -> bool:
        return offer is not None and (
            (offer.to_user == user_id and offer.to_agreed) or (offer.from_user == user_id and offer.from_agreed)
        )

    async def landed() -> bool:
        return agreed(await store.get_offer(game_id, seat))

    write = store.agree_offer(game_id, seat, user_id, now)
    what = f"a consent to the offer of seat {seat} of game {game_id}"
    if await written(store, write, landed, what, move=False) is Written.REFUSED:
        return None
    return await store.get_offer(game_id, seat)
