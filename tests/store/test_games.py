"""Games and seats."""

from __future__ import annotations

import pytest

from store import AlreadySeated, GameNotFound, InvalidStatus, NotInLobby, SeatNotFound, SeatRow, Store

from .conftest import make_active_game, make_game


async def test_create_and_get_game(store: Store) -> None:
    game_id = await make_game(store, now=5.0)
    game = await store.get_game(game_id)
    assert game is not None
    assert (game.id, game.game, game.guild_id, game.channel_id, game.host_id) == (game_id, "omerta", 10, 20, 1)
    assert (game.status, game.options, game.seed, game.version) == ("lobby", '{"players": 4}', 42, 0)
    assert (game.created_at, game.updated_at, game.last_move_at, game.result) == (5.0, 5.0, None, None)
    assert await store.get_game(999) is None


async def test_list_games_filters(store: Store) -> None:
    a = await make_game(store, guild_id=1, channel_id=100)
    b = await make_game(store, guild_id=1, channel_id=200)
    c = await make_game(store, guild_id=2, channel_id=100)
    await store.set_status(b, "active", 6.0)
    assert [g.id for g in await store.list_games(1)] == [a, b]
    assert [g.id for g in await store.list_games(1, statuses={"active"})] == [b]
    assert [g.id for g in await store.list_games(1, statuses=["lobby", "active"], channel_id=100)] == [a]
    assert await store.list_games(1, statuses=[]) == []
    assert [g.id for g in await store.list_games(2)] == [c]
    assert [g.id for g in await store.list_active_games()] == [b]


async def test_set_status_and_result(store: Store) -> None:
    game_id = await make_game(store)
    await store.set_status(game_id, "finished", 9.0, result_json='{"winner": 0}')
    game = await store.get_game(game_id)
    assert game is not None
    assert (game.status, game.result, game.updated_at) == ("finished", '{"winner": 0}', 9.0)
    await store.set_status(game_id, "abandoned", 10.0)
    game = await store.get_game(game_id)
    assert game is not None and (game.status, game.result) == ("abandoned", '{"winner": 0}')
    with pytest.raises(InvalidStatus):
        await store.set_status(game_id, "paused", 11.0)
    with pytest.raises(GameNotFound):
        await store.set_status(999, "active", 11.0)


async def test_set_options_only_in_lobby(store: Store) -> None:
    game_id = await make_game(store)
    await store.set_options(game_id, '{"players": 5}', 7.0)
    game = await store.get_game(game_id)
    assert game is not None and (game.options, game.updated_at) == ('{"players": 5}', 7.0)
    assert await store.start_game(game_id, "{}", 8.0)
    with pytest.raises(NotInLobby):
        await store.set_options(game_id, "{}", 9.0)
    with pytest.raises(GameNotFound):
        await store.set_options(999, "{}", 9.0)


async def test_seats_add_and_duplicate(store: Store) -> None:
    game_id = await make_game(store)
    assert await store.add_seat(game_id, 11, "Ann") == 0
    assert await store.add_seat(game_id, 12, "Ben") == 1
    with pytest.raises(AlreadySeated):
        await store.add_seat(game_id, 11, "Ann again")
    with pytest.raises(GameNotFound):
        await store.add_seat(999, 11, "Ann")
    assert await store.get_seats(game_id) == [
        SeatRow(game_id, 0, 11, "Ann", False, None),
        SeatRow(game_id, 1, 12, "Ben", False, None),
    ]


async def test_remove_seat_renumbers_in_join_order(store: Store) -> None:
    game_id = await make_game(store)
    for user in (1, 2, 3, 4):
        await store.add_seat(game_id, user, f"p{user}")
    assert await store.remove_seat(game_id, 2)
    assert not await store.remove_seat(game_id, 2)
    assert [(s.seat, s.user_id) for s in await store.get_seats(game_id)] == [(0, 1), (1, 3), (2, 4)]
    assert await store.add_seat(game_id, 5, "p5") == 3
    assert await store.remove_seat(game_id, 1)
    assert [(s.seat, s.user_id) for s in await store.get_seats(game_id)] == [(0, 3), (1, 4), (2, 5)]


async def test_seat_flags_thread_and_substitution(store: Store) -> None:
    game_id = await make_game(store)
    await store.add_seat(game_id, 1, "Ann")
    await store.add_seat(game_id, 2, "Ben")
    await store.set_seat_dm_blocked(game_id, 1, True)
    await store.set_seat_thread(game_id, 1, 555)
    seat = (await store.get_seats(game_id))[0]
    assert (seat.dm_blocked, seat.private_thread_id) == (True, 555)
    await store.replace_seat_user(game_id, 0, 1, "Ann renamed")
    seat = (await store.get_seats(game_id))[0]
    assert (seat.name, seat.dm_blocked, seat.private_thread_id) == ("Ann renamed", True, 555)
    await store.replace_seat_user(game_id, 0, 3, "Cat")
    assert (await store.get_seats(game_id))[0] == SeatRow(game_id, 0, 3, "Cat", False, None)
    with pytest.raises(AlreadySeated):
        await store.replace_seat_user(game_id, 0, 2, "Ben twice")
    with pytest.raises(SeatNotFound):
        await store.replace_seat_user(game_id, 7, 9, "Nobody")
    with pytest.raises(SeatNotFound):
        await store.set_seat_dm_blocked(game_id, 99, True)
    with pytest.raises(SeatNotFound):
        await store.set_seat_thread(game_id, 99, 1)


async def test_games_for_user(store: Store) -> None:
    a = await make_active_game(store)
    b = await make_game(store)
    await store.add_seat(b, 1, "Alice")
    assert [g.id for g in await store.games_for_user(1)] == [a, b]
    assert [g.id for g in await store.games_for_user(1, statuses=["active"])] == [a]
    assert [g.id for g in await store.games_for_user(2, statuses=("lobby",))] == []
    assert await store.games_for_user(3) == []
