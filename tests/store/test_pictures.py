"""Issue 26: the store remembers what each posted board picture outlined against, and keeps a bounded cache of a
replay's pictures (on SQLite and PostgreSQL)."""

from __future__ import annotations

from store import Store
from store.pictures import pack, unpack

from .conftest import make_game


def test_pictures_pack_into_one_row_and_back() -> None:
    pngs = [("city.png", b"\x89PNG a"), ("table.png", b""), ("changes.png", b"\x00" * 300)]
    assert unpack(*pack(pngs)) == pngs


async def test_the_first_drawing_of_a_version_is_kept(store: Store) -> None:
    gid = await make_game(store)
    await store.picture_drawn(gid, 1, None)
    await store.picture_drawn(gid, 4, 1)
    await store.picture_drawn(gid, 4, 4)  # /game status posted version 4 again, against itself: not what was seen
    await store.picture_drawn(gid, 6, 4)
    assert await store.drawn_bases(gid) == {1: None, 4: 1, 6: 4}
    assert await store.drawn_bases(gid + 1) == {}


async def test_the_replay_cache_keeps_the_steps_used_last(store: Store) -> None:
    gid = await make_game(store)
    for step in range(5):
        await store.keep_replay_pictures(gid, step, "en", [("city.png", bytes([step]) * 10)], now=10.0 + step, bound=3)
    # only steps 2, 3, 4 stay; reading step 2 marks it used, so the next one in pushes out step 3
    assert await store.replay_pictures(gid, 0, "en", now=20.0) is None
    assert await store.replay_pictures(gid, 2, "en", now=21.0) == [("city.png", bytes([2]) * 10)]
    await store.keep_replay_pictures(gid, 9, "de", [("a.png", b"x"), ("b.png", b"yz")], now=22.0, bound=3)
    assert await store.replay_pictures(gid, 3, "en", now=23.0) is None
    assert await store.replay_pictures(gid, 4, "en", now=24.0) is not None
    assert await store.replay_pictures(gid, 9, "de", now=25.0) == [("a.png", b"x"), ("b.png", b"yz")]
    assert await store.replay_pictures(gid, 9, "en", now=26.0) is None
