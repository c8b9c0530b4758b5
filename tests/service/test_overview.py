"""Issue 23, "Where is it my turn?": the service's list of a person's open games across servers (``/games``), on a
fake clock: the games waiting for them first (the longest wait first), then the lobbies they sit in, then the
games waiting for someone else; finished, abandoned and other people's games are not listed."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.core import waits_for
from engine.registry import GAMES
from service import Settings, TableService, User
from service.overview import LOBBY, OTHERS, YOURS, SeatedGame, _order
from store import Store

ANN, BOB, CY = User(1, "Ann"), User(2, "Bob"), User(3, "Cy")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def svc(clock: Clock) -> AsyncIterator[TableService]:
    store = await Store.open(":memory:")
    yield TableService(store, Settings(), clock=clock, games=GAMES)
    await store.close()


async def _skip_until(svc: TableService, clock: Clock, gid: int, host: User, user: User, began: float) -> float:
    """The host skips turns until the game waits for ``user`` (a game's first player is dealt at random); the
    time the wait for ``user`` began (``began``, the start, if the game waited for them from its start)."""
    for _ in range(40):
        table = await svc.load(gid)
        waiting = [p.seat for p in table.prompts() if waits_for(p)]
        if table.seat_of(user.id) in waiting:
            return began
        clock.now += 60
        began = clock.now
        await svc.skip(gid, host, table.version, waiting[0])
    raise AssertionError("the game never waited for the player")


async def test_a_players_games_across_servers_the_ones_waiting_for_them_first(svc: TableService, clock: Clock) -> None:
    """Issue 23: Ann sits in six open games over three servers. Her Omerta (nobody moved: waiting since its start)
    and a Speakeasy whose turn came to her are listed first, the longest wait first, each with its board; then her
    lobbies (the one she may start herself first); then the game waiting for Bob, named. Her abandoned table and
    Cy's lobby are not listed."""
    t0 = clock.now
    bobs_lobby = (await svc.create(10, 20, BOB, "omerta", {})).table.id
    await svc.join(bobs_lobby, ANN)

    clock.now = t0 + 100
    omerta = (await svc.create(10, 21, ANN, "omerta", {})).table.id
    for u in (BOB, CY):
        await svc.join(omerta, u)
    await svc.start(omerta, ANN)
    await svc.store.set_message(omerta, "board", 21, 9001)

    clock.now = t0 + 200
    turn = (await svc.create(11, 30, BOB, "speakeasy", {})).table.id
    await svc.join(turn, ANN)
    await svc.start(turn, BOB)
    clock.now = t0 + 1000
    turn_since = await _skip_until(svc, clock, turn, BOB, ANN, t0 + 200)
    await svc.store.set_message(turn, "board", 31, 9002)

    clock.now = t0 + 2000
    others = (await svc.create(12, 40, ANN, "speakeasy", {})).table.id
    await svc.join(others, BOB)
    await svc.start(others, ANN)
    await _skip_until(svc, clock, others, ANN, BOB, t0 + 2000)
    quiet = (await svc.load(others)).row.last_move_at or (await svc.load(others)).row.updated_at

    clock.now = t0 + 3000
    solo = (await svc.create(12, 41, ANN, "speakeasy", {})).table.id  # Speakeasy starts with one player
    await svc.store.set_message(solo, "lobby", 41, 9003)

    gone = (await svc.create(11, 32, ANN, "omerta", {})).table.id
    await svc.abandon(gone, ANN)
    await svc.create(10, 22, CY, "omerta", {})

    listed = await svc.my_games(ANN.id)
    assert [(g.id, g.kind) for g in listed] == [
        (omerta, YOURS),
        (turn, YOURS),
        (solo, LOBBY),
        (bobs_lobby, LOBBY),
        (others, OTHERS),
    ]
    by_id = {g.id: g for g in listed}
    assert by_id[omerta].since == t0 + 100 and by_id[turn].since == turn_since
    assert (by_id[omerta].guild_id, by_id[omerta].channel_id, by_id[omerta].message_id) == (10, 21, 9001)
    assert (by_id[turn].guild_id, by_id[turn].title, by_id[turn].message_id) == (11, "Speakeasy", 9002)
    assert by_id[solo].ready and by_id[solo].host and by_id[solo].message_id == 9003
    assert (by_id[solo].seated, by_id[solo].low, by_id[solo].high, by_id[solo].since) == (1, 1, 4, t0 + 3000)
    lobby = by_id[bobs_lobby]
    assert not lobby.ready and not lobby.host and (lobby.seated, lobby.low, lobby.since) == (2, 3, t0)
    assert (lobby.channel_id, lobby.message_id) == (20, None)  # no lobby message recorded: its channel
    assert by_id[others].waiting_for == ("Bob",) and by_id[others].since == quiet
    # a new table has a deadline (issue 23): it runs for the seats the game waits for
    assert all((g.deadline is not None) == (g.kind == YOURS) for g in listed)
    # Bob's list holds his side of the same games: Ann's Speakeasy waits for him now
    assert {g.id: g.kind for g in await svc.my_games(BOB.id)}[others] == YOURS
    assert await svc.my_games(99) == []


def _game(kind: str, since: float, deadline: float | None = None, **kw: object) -> SeatedGame:
    return SeatedGame(
        id=int(since),
        title="Omerta",
        guild_id=1,
        kind=kind,
        since=since,
        deadline=deadline,
        channel_id=2,
        message_id=None,
        **kw,  # type: ignore[arg-type]
    )


def test_a_deadline_comes_before_the_longest_wait() -> None:
    """Issue 23: once tables have deadlines (a column of ``Store.seated_games``), the games waiting for the user are
    ordered by the soonest deadline, those without one after them by the longest wait; lobbies and the rest after."""
    games = [
        _game(OTHERS, 1),
        _game(LOBBY, 2, seated=3, low=3, high=5),
        _game(LOBBY, 3, seated=3, low=3, high=5, host=True),
        _game(YOURS, 4),
        _game(YOURS, 5, deadline=900),
        _game(YOURS, 6, deadline=800),
    ]
    assert [g.id for g in sorted(games, key=_order)] == [6, 5, 4, 3, 2, 1]
