"""Issue 22, limits on spam, in the store (both backends): cooldowns claimed in the database, a lobby opened with its
host seated and its limits counted in one transaction, and the lobbies old enough to close."""

from __future__ import annotations

import asyncio

import pytest

from store import Store, TooManyOpen


async def _lobby(s: Store, host: int, *, guild: int = 10, channel: int = 20, now: float = 100.0, **limits: int) -> int:
    return await s.create_game(
        game="omerta",
        guild_id=guild,
        channel_id=channel,
        host_id=host,
        options_json="{}",
        seed=1,
        now=now,
        host_name=f"user {host}",
        **limits,
    )


async def test_a_cooldown_is_claimed_once_until_it_ends(store: Store) -> None:
    """Issue 22: the first claim starts it (None), a claim while it runs gets its end, one after its end starts a
    new one; kinds and keys are separate."""
    assert await store.claim_cooldown("status", 7, now=100.0, ends_at=160.0) is None
    assert await store.claim_cooldown("status", 7, now=159.9, ends_at=219.9) == 160.0
    assert await store.claim_cooldown("hint", 7, now=120.0, ends_at=150.0) is None  # another kind
    assert await store.claim_cooldown("status", 8, now=120.0, ends_at=180.0) is None  # another key
    assert await store.claim_cooldown("status", 7, now=160.0, ends_at=220.0) is None  # ended: a new one
    assert await store.claim_cooldown("status", 7, now=161.0, ends_at=221.0) == 220.0


async def test_ended_cooldowns_are_deleted_by_the_next_claim(store: Store) -> None:
    """Issue 22: the table holds only running cooldowns (and those ended since the last claim), however many users
    and games there were: 100 users a second apart with 10-second cooldowns leave 10 rows."""
    for user in range(1, 101):
        assert await store.claim_cooldown("board", user, now=float(user), ends_at=user + 10.0) is None
    assert await store.count_cooldowns() == 10
    assert await store.claim_cooldown("board", 1000, now=1000.0, ends_at=1010.0) is None
    assert await store.count_cooldowns() == 1


async def test_a_lobby_opens_with_its_host_seated(store: Store) -> None:
    """Issue 22 (small ones): the lobby and its host's seat are one transaction."""
    gid = await _lobby(store, 5)
    seats = await store.get_seats(gid)
    assert [(s.seat, s.user_id, s.name) for s in seats] == [(0, 5, "user 5")]
    assert (await store.get_game(gid)).host_id == 5  # type: ignore[union-attr]


async def test_a_lobby_over_a_limit_is_refused_and_nothing_is_written(store: Store) -> None:
    """Issue 22: at most ``max_hosted`` lobbies per host and server, ``max_in_channel`` open games per channel."""
    first = [await _lobby(store, 5, channel=20 + i, max_hosted=3) for i in range(3)]
    with pytest.raises(TooManyOpen) as refused:
        await _lobby(store, 5, channel=30, max_hosted=3)
    assert refused.value.what == "host" and refused.value.game_ids == first
    assert await store.list_games(10) == [await store.get_game(g) for g in first]
    assert await _lobby(store, 5, guild=11, max_hosted=3)  # another server: its own count
    assert await _lobby(store, 6, max_hosted=3)  # another host
    assert await store.start_game(first[0], "{}", 101.0)  # a started game is no longer an open lobby
    assert await _lobby(store, 5, channel=31, max_hosted=3)
    in_channel = [g.id for g in await store.list_games(10, ("lobby", "active"), 20)]
    with pytest.raises(TooManyOpen) as full:
        await _lobby(store, 9, channel=20, max_in_channel=len(in_channel))
    assert full.value.what == "channel" and full.value.game_ids == in_channel


async def test_two_stores_opening_lobbies_at_once_never_pass_the_limit(db_target: str) -> None:
    """Issue 22: the limit is counted inside the write transaction: two processes (two stores on one database),
    eight requests at once, and the host ends with exactly three lobbies."""
    a, b = await Store.open(db_target), await Store.open(db_target)
    try:

        async def one(s: Store, i: int) -> bool:
            try:
                await _lobby(s, 5, channel=20 + i, max_hosted=3)
            except TooManyOpen:
                return False
            return True

        made = await asyncio.gather(*(one(a if i % 2 else b, i) for i in range(8)))
        assert sum(made) == 3
        assert len(await a.list_games(10, ("lobby",))) == 3
    finally:
        await a.close()
        await b.close()


async def test_stale_lobbies_are_the_unstarted_ones_opened_before_a_time(store: Store) -> None:
    old = await _lobby(store, 1, now=100.0)
    started = await _lobby(store, 2, now=100.0)
    assert await store.start_game(started, "{}", 150.0)
    young = await _lobby(store, 3, now=200.0)
    assert [g.id for g in await store.stale_lobbies(150.0)] == [old]
    assert [g.id for g in await store.stale_lobbies(200.0)] == [old, young]
    assert [g.id for g in await store.stale_lobbies(200.0, limit=1)] == [old]
