"""Issue 26: ratings written with a game's result, in its transaction; leaderboards; the rebuild gives the live
numbers (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
import random

from store import Move, RatedGame, Store
from store.ratings import GLOBAL, MODEL, main, new_ratings, ordinal
from tests.store.conftest import make_game


async def finish(s: Store, guild: int, places: list[tuple[str, int]], counted: bool = True, now: float = 200.0) -> int:
    """A game played to its end: one choice that finishes it, with its places for the ratings."""
    gid = await make_game(s, guild_id=guild)
    for k, (identity, _) in enumerate(places):
        await s.add_seat(gid, 1000 + k, identity)
    assert await s.start_game(gid, '"s0"', now)
    why = None if counted else json.dumps({"m": "x", "t": "a bot played"})
    rated = RatedGame("omerta", guild, tuple(places), counted, why)
    move = Move([('{"c": 1}', 1000)], '"s1"', now, status="finished", result_json="{}", rating=rated)
    assert await s.commit_move(gid, 0, move)
    return gid


async def test_a_finished_game_rates_its_seats_in_its_server_and_across_servers(store: Store) -> None:
    gid = await finish(store, 10, [("u:1", 1), ("u:2", 2), ("bot:easy", 3)])
    row = await store.rated_game(gid)
    assert row is not None and row.counted and row.ladder == "omerta"
    expected = new_ratings({}, [("u:1", 1), ("u:2", 2), ("bot:easy", 3)])
    for scope in (10, GLOBAL):
        board = await store.leaderboard("omerta", scope)
        assert [r.identity for r in board] == ["u:1", "u:2", "bot:easy"]
        for r in board:
            assert (r.mu, r.sigma) == expected[r.identity] and r.ordinal == ordinal(r.mu, r.sigma)
            assert r.games == 1 and r.wins == (r.identity == "u:1")
    assert (await store.leaderboard("omerta", 99)) == []
    assert expected["u:1"][0] > MODEL.mu > expected["bot:easy"][0]


async def test_an_unrated_game_is_kept_with_why_and_changes_no_rating(store: Store) -> None:
    gid = await finish(store, 10, [("u:1", 1), ("u:2", 2)], counted=False)
    row = await store.rated_game(gid)
    assert row is not None and not row.counted and "a bot played" in str(row.why)
    assert await store.leaderboard("omerta", GLOBAL) == []


async def test_ties_are_ties_and_two_seats_of_one_bot_level_share_its_rating(store: Store) -> None:
    await finish(store, 10, [("u:1", 1), ("bot:standard", 2), ("bot:standard", 2)])
    board = {r.identity: r for r in await store.leaderboard("omerta", 10)}
    assert board["bot:standard"].games == 1
    alone = new_ratings({}, [("u:1", 1), ("a", 2), ("b", 2)])
    assert alone["a"] == alone["b"]  # tied seats move alike
    assert (board["bot:standard"].mu, board["bot:standard"].sigma) == alone["a"]


async def test_the_rebuild_gives_the_live_ratings(store: Store) -> None:
    """Thirty games of five people on two servers, some unrated: the rebuild from the rated games, in their
    order, gives every rating the live updates gave, to the last bit."""
    rng = random.Random(5)
    people = [f"u:{k}" for k in range(1, 6)]
    for n in range(30):
        seats = rng.sample(people, rng.choice((2, 3, 4)))
        places = [(p, rng.randint(1, len(seats))) for p in seats]
        await finish(store, rng.choice((10, 11)), places, counted=n % 7 != 3, now=200.0 + n)
    live = {(r.scope, r.identity): r for s in (10, 11, GLOBAL) for r in await store.leaderboard("omerta", s, 100)}
    assert await store.rebuild_ratings() == 26
    again = {(r.scope, r.identity): r for s in (10, 11, GLOBAL) for r in await store.leaderboard("omerta", s, 100)}
    assert again == live and len(live) > 10


async def test_games_finishing_at_once_each_update_the_ratings(db_target: str) -> None:
    """Two stores (two processes) finish games with the same players at once: no update is lost, and the
    rebuild agrees (PostgreSQL takes a lock per ladder; SQLite has one writer)."""
    a, b = await Store.open(db_target), await Store.open(db_target)
    try:
        await asyncio.gather(
            *(finish(s, 10, [("u:1", 1 + k % 2), ("u:2", 2 - k % 2)]) for k in range(6) for s in (a, b))
        )
        board = {r.identity: r for r in await a.leaderboard("omerta", GLOBAL)}
        assert board["u:1"].games == 12 and board["u:2"].games == 12
        live = await a.leaderboard("omerta", GLOBAL)
        await a.rebuild_ratings()
        assert await a.leaderboard("omerta", GLOBAL) == live
    finally:
        await a.close()
        await b.close()


async def test_the_rebuild_command_gives_the_live_ratings(db_target: str, capsys) -> None:  # noqa: ANN001
    """``python -m store.ratings --rebuild --db TARGET`` (run in a thread: it has its own event loop)."""
    async with await Store.open(db_target) as s:
        for n in range(5):
            await finish(s, 10, [("u:1", 1 + n % 2), ("u:2", 2 - n % 2), ("bot:hard", 3)], now=300.0 + n)
        live = await s.ratings_of_any()
    assert await asyncio.to_thread(main, ["--rebuild", "--db", db_target]) == 0
    assert "rebuilt 6 ratings from 5 rated games (omerta)" in capsys.readouterr().out
    async with await Store.open(db_target) as s:
        assert await s.ratings_of_any() == live
    assert await asyncio.to_thread(main, []) == 2  # nothing asked: the help, and a failing status
