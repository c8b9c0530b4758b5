"""Owned messages, reminders, real-time claims and races, guild settings."""

from __future__ import annotations

import asyncio

from store import ClaimRow, MessageRow, RaceRow, ReminderRow, Store

from .conftest import make_active_game, make_game


async def test_messages_crud(store: Store) -> None:
    game_id = await make_game(store)
    await store.set_message(game_id, "board", 20, 1000)
    await store.set_message(game_id, "private", 30, 2000, key="0")
    await store.set_message(game_id, "private", 31, 2001, key="1")
    assert await store.get_message(game_id, "board") == MessageRow(game_id, "board", "", 20, 1000)
    await store.set_message(game_id, "board", 21, 1001)
    assert await store.get_message(game_id, "board") == MessageRow(game_id, "board", "", 21, 1001)
    assert await store.get_message(game_id, "private", key="1") == MessageRow(game_id, "private", "1", 31, 2001)
    assert await store.get_message(game_id, "lobby") is None
    assert [(m.kind, m.key) for m in await store.list_messages(game_id)] == [
        ("board", ""),
        ("private", "0"),
        ("private", "1"),
    ]
    assert await store.find_message(2000) == MessageRow(game_id, "private", "0", 30, 2000)
    assert await store.find_message(1000) is None
    assert await store.delete_message(game_id, "private", key="0")
    assert not await store.delete_message(game_id, "private", key="0")
    assert len(await store.list_messages(game_id)) == 2


async def test_reminders_due_bump_and_clear(store: Store) -> None:
    game_id = await make_active_game(store)
    await store.set_reminder(game_id, 1, "turn", 200.0)
    await store.set_reminder(game_id, 2, "turn", 100.0)
    await store.set_reminder(game_id, 2, "race", 300.0)
    assert await store.due_reminders(99.0) == []
    assert await store.due_reminders(200.0) == [
        ReminderRow(game_id, 2, "turn", 100.0, 0),
        ReminderRow(game_id, 1, "turn", 200.0, 0),
    ]
    assert await store.bump_reminder(game_id, 2, "turn", 400.0)
    assert await store.bump_reminder(game_id, 2, "turn", 500.0)
    assert not await store.bump_reminder(game_id, 9, "turn", 500.0)
    assert await store.due_reminders(450.0) == [
        ReminderRow(game_id, 1, "turn", 200.0, 0),
        ReminderRow(game_id, 2, "race", 300.0, 0),
    ]
    assert (await store.due_reminders(500.0))[-1] == ReminderRow(game_id, 2, "turn", 500.0, 2)
    await store.set_reminder(game_id, 2, "turn", 600.0)
    assert (await store.due_reminders(600.0))[-1] == ReminderRow(game_id, 2, "turn", 600.0, 0)
    assert await store.clear_reminders(game_id, user_id=2, kind="race") == 1
    assert await store.clear_reminders(game_id, kind="turn") == 2
    await store.set_reminder(game_id, 1, "turn", 1.0)
    await store.set_reminder(game_id, 2, "turn", 1.0)
    assert await store.clear_reminders(game_id, user_id=1) == 1
    assert await store.clear_reminders(game_id) == 1
    assert await store.due_reminders(1e9) == []


async def test_due_reminders_of_one_kind(store: Store) -> None:
    """Issue 23: the deadline sweep asks for the due ``deadline`` rows only, the reminder loop for ``turn``."""
    game_id = await make_active_game(store)
    await store.set_reminder(game_id, 1, "turn", 100.0)
    await store.set_reminder(game_id, 1, "deadline", 150.0)
    await store.set_reminder(game_id, 2, "deadline", 300.0)
    assert await store.due_reminders(200.0, "deadline") == [ReminderRow(game_id, 1, "deadline", 150.0, 0)]
    assert await store.due_reminders(200.0, "turn") == [ReminderRow(game_id, 1, "turn", 100.0, 0)]
    assert [r.kind for r in await store.due_reminders(400.0)] == ["turn", "deadline", "deadline"]


async def test_claims_order_and_duplicates(store: Store) -> None:
    game_id = await make_active_game(store)
    await store.open_race(game_id, 3, 60.0)
    assert await store.add_claim(game_id, 3, 1, '"snap b"', 5000, 10.0)
    assert await store.add_claim(game_id, 3, 0, '"snap a"', 4000, 11.0)
    assert await store.add_claim(game_id, 3, 2, '"snap c"', 4000, 10.5)
    assert not await store.add_claim(game_id, 3, 0, '"again"', 1, 12.0)
    assert not await store.add_claim(game_id, 4, 0, '"no window at 4"', 1, 13.0)
    await store.open_race(game_id, 4, 70.0)
    assert await store.add_claim(game_id, 4, 0, '"next race"', 1, 13.0)
    assert not await store.add_claim(game_id, 3, 1, '"window 3 is closed"', 1, 14.0)
    assert await store.get_claims(game_id, 3) == [
        ClaimRow(game_id, 3, 2, '"snap c"', 4000, 10.5),
        ClaimRow(game_id, 3, 0, '"snap a"', 4000, 11.0),
        ClaimRow(game_id, 3, 1, '"snap b"', 5000, 10.0),
    ]
    assert await store.clear_claims(game_id, 3) == 3
    assert await store.get_claims(game_id, 3) == []
    assert len(await store.get_claims(game_id, 4)) == 1
    assert await store.clear_claims(game_id) == 1


async def test_concurrent_duplicate_claims(store: Store) -> None:
    game_id = await make_active_game(store)
    await store.open_race(game_id, 0, 60.0)
    results = await asyncio.gather(*(store.add_claim(game_id, 0, 1, f'"{i}"', i, 1.0) for i in range(5)))
    assert results.count(True) == 1
    assert len(await store.get_claims(game_id, 0)) == 1


async def test_races(store: Store) -> None:
    a = await make_active_game(store)
    b = await make_active_game(store)
    assert await store.get_race(a) is None
    await store.open_race(a, 3, 60.0)
    await store.open_race(b, 1, 30.0)
    assert await store.get_race(a) == RaceRow(a, 3, 60.0)
    assert await store.open_races() == [RaceRow(b, 1, 30.0), RaceRow(a, 3, 60.0)]
    await store.open_race(a, 4, 20.0)
    assert await store.open_races() == [RaceRow(a, 4, 20.0), RaceRow(b, 1, 30.0)]
    assert await store.close_race(a)
    assert not await store.close_race(a)
    assert await store.open_races() == [RaceRow(b, 1, 30.0)]


async def test_user_langs_are_remembered_and_replaced(store: Store) -> None:
    assert await store.get_user_lang(5) is None
    await store.set_user_lang(5, "de", 1.0)
    await store.set_user_lang(6, "en", 1.0)
    assert await store.get_user_lang(5) == "de"
    await store.set_user_lang(5, "en", 2.0)
    assert (await store.get_user_lang(5), await store.get_user_lang(6)) == ("en", "en")


async def test_guild_settings(store: Store) -> None:
    assert await store.get_guild_settings(7) == {}
    await store.set_guild_settings(7, {"reminder_hours": 12, "channels": [1, 2]})
    assert await store.get_guild_settings(7) == {"reminder_hours": 12, "channels": [1, 2]}
    await store.set_guild_settings(7, {"reminder_hours": 6})
    assert await store.get_guild_settings(7) == {"reminder_hours": 6}
    assert await store.get_guild_settings(8) == {}
