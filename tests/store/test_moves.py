"""A move and everything it changes are one transaction (issue "trust": crash-safe by construction): the
choices, snapshot, events, race window, claims, reminders and outbox are all written, or none is."""

from __future__ import annotations

import pytest

from store import Move, SimulatedCrash, Store

from .conftest import make_active_game


def _move(**kw) -> Move:
    base = {
        "choices": [('"c0"', 1)],
        "snapshot": '"s1"',
        "now": 200.0,
        "events": [(1, "turn", None, "Bob's turn.", "{}"), (1, "look", "[0]", "You drew X.", "{}")],
        "race_deadline": 205.0,
        "reminders_on": [(2, "turn", 900.0)],
        "reminders_off": [(1, "turn")],
        "outbox": [("private", 1, '{"lines": ["You drew X."]}')],
    }
    base.update(kw)
    return Move(**base)


async def _everything(store: Store, game_id: int) -> tuple:
    game = await store.get_game(game_id)
    return (
        game.version if game else None,
        await store.get_choices(game_id),
        await store.get_snapshot(game_id),
        [(e.pos, e.kind, e.seats, e.text) for e in await store.get_events(game_id)],
        (r.version, r.deadline) if (r := await store.get_race(game_id)) else None,
        [(r.user_id, r.kind, r.due_at) for r in await store.get_reminders(game_id)],
        [(o.kind, o.user_id, o.body) for o in await store.outbox_due(1e12, game_id)],
        [c.seat for c in await store.get_claims(game_id, 0)],
    )


async def test_a_move_writes_everything_together(store: Store) -> None:
    gid = await make_active_game(store)
    await store.set_reminder(gid, 1, "turn", 500.0)
    await store.open_race(gid, 0, 150.0)
    assert await store.add_claim(gid, 0, 1, '"claim"', 1, 140.0)
    assert await store.commit_move(gid, 0, _move())
    version, choices, snap, events, race, reminders, outbox, claims = await _everything(store, gid)
    assert (version, choices, snap) == (1, ['"c0"'], (1, '"s1"'))
    assert events == [(1, "turn", None, "Bob's turn."), (1, "look", "[0]", "You drew X.")]
    assert race == (1, 205.0)
    assert reminders == [(2, "turn", 900.0)]  # the old player's reminder is gone, the new one's armed
    assert outbox == [("private", 1, '{"lines": ["You drew X."]}')]
    assert claims == []  # the old window's claims went with it
    assert [e.text for e in await store.get_events(gid, public_only=True)] == ["Bob's turn."]


async def test_a_stale_move_writes_nothing(store: Store) -> None:
    gid = await make_active_game(store)
    before = await _everything(store, gid)
    assert not await store.commit_move(gid, 3, _move())
    assert await _everything(store, gid) == before


async def test_a_crash_at_any_write_boundary_leaves_all_or_nothing(store: Store) -> None:
    """The write hook simulates a crash at each statement of the move in turn, and just after its commit."""
    gid = await make_active_game(store)
    before = await _everything(store, gid)
    counted: list[str] = []
    store.write_hook = counted.append
    assert await store.commit_move(gid, 0, _move())
    store.write_hook = None
    after = await _everything(store, gid)
    assert counted[-1] == "commit" and len(counted) >= 8
    for at in range(1, len(counted) + 1):
        fresh = await make_active_game(store)
        seen = 0

        def crash(label: str, at: int = at) -> None:
            nonlocal seen
            seen += 1
            if seen == at:
                raise SimulatedCrash(label)

        store.write_hook = crash
        with pytest.raises(SimulatedCrash) as info:
            await store.commit_move(fresh, 0, _move())
        store.write_hook = None
        assert await _everything(store, fresh) == (after if str(info.value) == "commit" else before), at


async def test_a_claim_needs_its_window_in_the_same_transaction(store: Store) -> None:
    gid = await make_active_game(store)
    assert not await store.add_claim(gid, 0, 1, '"early"', 1, 1.0)  # no window open
    await store.open_race(gid, 0, 10.0)
    assert await store.add_claim(gid, 0, 1, '"in time"', 1, 2.0)
    assert await store.commit_move(gid, 0, _move(race_deadline=None))
    assert not await store.add_claim(gid, 0, 2, '"too late"', 2, 3.0)  # the move closed the window
    assert await store.get_claims(gid, 0) == []


async def test_the_log_pages_and_lagging_boards(store: Store) -> None:
    gid = await make_active_game(store)
    await store.commit_move(gid, 0, _move(race_deadline=None))
    assert [e.text for e in await store.get_events(gid, public_only=True)] == ["Bob's turn."]
    assert len(await store.get_events(gid)) == 2
    assert gid in await store.games_behind()
    last = await store.last_event_id(gid)
    await store.set_message(gid, "board", 20, 900, version=1, upto=last)
    assert gid not in await store.games_behind()
    assert not await store.set_message_shown(gid, "board", 0, last)  # never moves back
    assert (await store.get_message(gid, "board")).version == 1


async def test_ending_a_game_drops_its_bookkeeping_with_its_last_line(store: Store) -> None:
    gid = await make_active_game(store)
    await store.open_race(gid, 0, 10.0)
    await store.set_reminder(gid, 1, "turn", 10.0)
    move = Move([], "", 300.0, events=[(0, "table", None, "Anna abandoned game #1.", "{}")])
    assert await store.end_game(gid, "abandoned", 300.0, ("active",), move)
    assert not await store.end_game(gid, "abandoned", 301.0, ("active",))
    assert await store.get_race(gid) is None and await store.get_reminders(gid) == []
    assert [e.text for e in await store.get_events(gid)] == ["Anna abandoned game #1."]
