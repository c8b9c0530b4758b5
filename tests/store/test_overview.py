"""Issue 23, "Where is it my turn?": the store's list of a user's seats in open games across servers, with when
each wait began and the message that asks (on SQLite and PostgreSQL)."""

from __future__ import annotations

from store import Move, Store

ANN, BOB = 1, 2


async def _game(store: Store, guild_id: int, now: float, *seated: int) -> int:
    gid = await store.create_game(
        game="omerta",
        guild_id=guild_id,
        channel_id=guild_id * 10,
        host_id=seated[0],
        options_json="{}",
        seed=7,
        now=now,
    )
    for user in seated:
        await store.add_seat(gid, user, f"user {user}")
    return gid


def _move(now: float, *, on: tuple[int, ...] = (), off: tuple[int, ...] = ()) -> Move:
    return Move(
        [("{}", None)],
        '"s"',
        now,
        reminders_on=[(u, "turn", now + 3600) for u in on],
        reminders_off=[(u, "turn") for u in off],
    )


async def test_a_users_open_seats_in_every_server_with_when_each_wait_began(store: Store) -> None:
    """Issue 23: every lobby and active game where the user sits, in any server, oldest first; finished and
    abandoned games and other people's games are left out. A wait begins at the move that made it (the version
    the seat's turn reminder names); a wait since the start counts from the first move (the start's own time is
    not recorded), or from the start while nobody moved; a game without the seat's reminder: its last move."""
    lobby = await _game(store, 10, 100.0, ANN, BOB)
    await store.set_message(lobby, "lobby", 100, 1001)

    turn = await _game(store, 11, 110.0, BOB, ANN)  # Ann's turn began at the second move
    assert await store.start_game(turn, '"s0"', 200.0)
    assert await store.commit_move(turn, 0, _move(300.0, on=(BOB,)))
    assert await store.commit_move(turn, 1, _move(400.0, on=(ANN,), off=(BOB,)))
    assert await store.commit_move(turn, 2, Move([("{}", None)], '"s"', 450.0))  # a step of hers: still her wait
    await store.set_message(turn, "board", 111, 2002, version=3)
    await store.set_message(turn, "lobby", 110, 2001)  # a started game links its board, not its old lobby

    start = await _game(store, 12, 120.0, ANN, BOB)  # waited for since the start; Bob moved since
    assert await store.start_game(start, '"s0"', 250.0, _move(250.0, on=(ANN, BOB)))
    assert await store.commit_move(start, 0, _move(500.0, off=(BOB,)))

    fresh = await _game(store, 12, 130.0, ANN)  # started, nobody moved yet
    assert await store.start_game(fresh, '"s0"', 260.0, _move(260.0, on=(ANN,)))

    others = await _game(store, 10, 140.0, BOB, ANN)  # waits for Bob only: Ann has no reminder there
    assert await store.start_game(others, '"s0"', 270.0)
    assert await store.commit_move(others, 0, _move(600.0, on=(BOB,)))

    done = await _game(store, 10, 150.0, ANN, BOB)
    assert await store.start_game(done, '"s0"', 280.0)
    assert await store.end_game(done, "finished", 700.0, ("active",))
    gone = await _game(store, 11, 160.0, ANN)
    assert await store.end_game(gone, "abandoned", 710.0, ("lobby",))
    await _game(store, 10, 170.0, BOB)  # not Ann's

    rows = await store.seated_games(ANN)
    assert [r.game.id for r in rows] == [lobby, turn, start, fresh, others]
    got = {r.game.id: (r.game.guild_id, r.game.status, r.seat, r.since, r.since_version) for r in rows}
    assert got == {
        lobby: (10, "lobby", 0, 100.0, -1),
        turn: (11, "active", 1, 400.0, 2),
        start: (12, "active", 0, 500.0, 0),
        fresh: (12, "active", 0, 260.0, 0),
        others: (10, "active", 1, 600.0, -1),
    }
    links = {r.game.id: (r.channel_id, r.message_id) for r in rows}
    assert links[lobby] == (100, 1001) and links[turn] == (111, 2002) and links[start] == (None, None)
    assert all(r.deadline is None for r in rows)
    assert [r.game.id for r in await store.seated_games(3)] == []
