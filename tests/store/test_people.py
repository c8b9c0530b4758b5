"""Issue 23, away and quiet hours: each person's settings and away time, kept on SQLite and PostgreSQL alike."""

from __future__ import annotations

import dataclasses

from store import PersonRow, ReminderRow, Store
from tests.store.conftest import make_active_game, make_game


async def test_a_persons_settings_default_then_are_stored_and_replaced(store: Store) -> None:
    """Issue 23: /me's settings: a person who set none has the defaults; what is stored is read back whole."""
    assert await store.get_person(5) == PersonRow(5)
    anna = PersonRow(5, "Europe/Berlin", 22 * 60, 8 * 60, "both", True, None, 1000.0, True, 1.0)
    await store.put_person(anna)
    await store.put_person(PersonRow(6, updated_at=1.0))
    assert await store.get_person(5) == anna
    changed = dataclasses.replace(anna, quiet_start=None, quiet_end=None, notify="dm", away_until=None)
    await store.put_person(changed)
    assert await store.get_people([5, 6, 7]) == {5: changed, 6: PersonRow(6, updated_at=1.0)}
    assert await store.get_people([]) == {}


async def test_digests_are_due_once_a_day_and_marked_once(store: Store) -> None:
    """Issue 23: the daily digest: due for those who asked for it, marked sent by one process only."""
    await store.put_person(PersonRow(5, digest=True, updated_at=1.0))
    await store.put_person(PersonRow(6, digest=False, updated_at=1.0))
    assert [p.user_id for p in await store.digests_due(0.0)] == [5]
    assert await store.digest_sent(5, 100.0, 0.0)
    assert not await store.digest_sent(5, 100.0, 0.0)
    assert await store.digests_due(50.0) == []
    assert [p.user_id for p in await store.digests_due(100.0)] == [5]


async def test_away_players_deadlines_are_listed_claimed_early_and_paused(store: Store) -> None:
    """Issue 23, /away: the deadlines not yet due of players who are away, with their game's options; one is
    claimed early exactly once; a paused one moves and counts against the game's allowance."""
    gid = await make_active_game(store)
    await store.set_reminder(gid, 5, "deadline", 500.0)
    await store.set_reminder(gid, 6, "deadline", 600.0)
    await store.put_person(PersonRow(5, away_until=1000.0, updated_at=1.0))
    await store.put_person(PersonRow(6, updated_at=1.0))
    (row,) = await store.away_deadlines(100.0)
    r, options, back = row
    assert (r.game_id, r.user_id, r.kind, r.due_at, back) == (gid, 5, "deadline", 500.0, 1000.0)
    assert options == '{"players": 4}'
    assert await store.away_deadlines(1000.0) == []  # back by then
    assert await store.claim_deadline_early(r, 130.0)
    assert not await store.claim_deadline_early(r, 130.0)  # taken: it is no longer the one read
    moved = ReminderRow(gid, 5, "deadline", 130.0, r.count, r.since)
    assert await store.paused_s(gid, 5) == 0.0
    assert await store.pause_deadline(moved, 1100.0, 970.0)
    assert not await store.pause_deadline(moved, 1100.0, 970.0)
    assert await store.paused_s(gid, 5) == 970.0
    again = ReminderRow(gid, 5, "deadline", 1100.0, r.count, r.since)
    assert await store.pause_deadline(again, 1200.0, 100.0)
    assert await store.paused_s(gid, 5) == 1070.0


async def test_a_held_ping_moves_the_turn_reminder_only_later_to_sooner(store: Store) -> None:
    """Issue 23, quiet hours: a ping held through them moves the player's turn reminder to their end, only if it
    was due later."""
    gid = await make_game(store)
    await store.set_reminder(gid, 5, "turn", 1000.0)
    assert await store.hold_reminder(gid, 5, 400.0)
    assert not await store.hold_reminder(gid, 5, 800.0)
    assert not await store.hold_reminder(gid, 6, 400.0)
    (r,) = await store.get_reminders(gid)
    assert r.due_at == 400.0
