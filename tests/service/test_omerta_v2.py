"""Omerta's version 2 at the table service (decisions file, "## Version 2"): every claim of a window judged in
timestamp order within the transaction that closes it, a window's time that starts when its board is posted
(also after a crash), and standing orders that can be set from any board while the game waits for someone else."""

from __future__ import annotations

import pytest

from engine.core import TABLE, Choice, load_choice
from engine.omerta.cards import deck
from service import ServiceError, TableService
from tests.service.test_table import BEN, CLEO, HOST, peek_all, svc  # noqa: F401 (the fixture)

USERS = (HOST, BEN, CLEO)


async def _table(svc: TableService, options: dict) -> int:  # noqa: F811
    gid = (await svc.create(10, 20, HOST, "omerta", {"pace": "live"} | options)).table.id
    await svc.join(gid, BEN)
    await svc.join(gid, CLEO)
    await svc.start(gid, HOST)
    await peek_all(svc, gid)
    return gid


async def _to_snap_window(svc: TableService, gid: int) -> int:  # noqa: F811
    for _ in range(200):
        t = await svc.load(gid)
        if await svc.store.get_race(gid):
            return t.version
        p = next(p for p in t.prompts() if p.seat >= 0 and p.race is None and not p.optional)
        option = "draw" if p.kind == "turn" else "discard" if p.kind == "place" else p.default_option()
        notice = await svc.act(gid, USERS[p.seat], t.version, p.kind, option)
        if await svc.store.get_race(gid):
            assert notice.ping == []  # nobody is pinged for a window
    raise AssertionError("no snap window")


def _slots(t, seat: int, right: bool) -> list[int]:  # noqa: ANN001
    """``seat``'s slots whose card is (``right``) or is not the bottle the window is for."""
    cards = deck().cards
    value = t.state.snap_value
    out = []
    for i, c in enumerate(t.state.players[seat].slots):
        if c is None:
            continue
        ok = cards[c].kind == "bottle" and cards[c].value == value
        if ok == right:
            out.append(i)
    return out


async def test_v2_a_wrong_claim_and_then_the_next_claim_are_judged_when_the_window_closes(svc):  # noqa: F811
    gid = await _table(svc, {})
    assert (await svc.load(gid)).state.options["rules"] == 3  # a new table plays version 3 (with version 2's rules)
    version = await _to_snap_window(svc, gid)
    race = await svc.store.get_race(gid)
    assert race is not None and not race.armed  # its board is not posted: the time has not started
    assert await svc.arm_race(gid, version, svc.test_clock.now + 5)
    assert not await svc.arm_race(gid, version, svc.test_clock.now + 50)  # the first deadline stays
    t = await svc.load(gid)
    ben = _slots(t, 1, right=False)[0]
    cleo_right = _slots(t, 2, right=True)
    cleo = cleo_right[0] if cleo_right else _slots(t, 2, right=False)[0]
    await svc.act(gid, BEN, version, "snap", f"slot:{ben}", ts_ms=1_000)
    await svc.act(gid, CLEO, version, "snap", f"slot:{cleo}", ts_ms=2_000)
    notice = await svc.close_race(gid, version)
    assert notice is not None
    record = [load_choice(c) for c in await svc.store.get_choices(gid)][version:]
    expected = [Choice(1, "snap", f"slot:{ben}"), Choice(2, "snap", f"slot:{cleo}")]
    if not cleo_right:
        expected.append(Choice(TABLE, "snap", "close"))  # both wrong: the table closes the window
    assert record == expected
    assert (await svc.load(gid)).version == version + len(expected)  # one move: one transaction
    assert any("Ben" in line and "wrong" in line for line in notice.public)
    assert await svc.store.get_race(gid) is None


async def test_v1_table_judges_only_the_earliest_claim(svc):  # noqa: F811
    gid = await _table(svc, {"rules": 1})
    version = await _to_snap_window(svc, gid)
    await svc.arm_race(gid, version, svc.test_clock.now + 5)
    t = await svc.load(gid)
    await svc.act(gid, BEN, version, "snap", f"slot:{_slots(t, 1, right=False)[0]}", ts_ms=1_000)
    await svc.act(gid, CLEO, version, "snap", "slot:0", ts_ms=2_000)
    notice = await svc.close_race(gid, version)
    assert notice is not None
    record = [load_choice(c) for c in await svc.store.get_choices(gid)][version:]
    assert [c.seat for c in record] == [1]
    assert "Claim by Cleo (+1000 ms, not judged)." in notice.public


async def test_recovery_starts_a_window_whose_board_was_posted_and_leaves_one_whose_board_was_not(svc):  # noqa: F811
    gid = await _table(svc, {})
    version = await _to_snap_window(svc, gid)
    fixed = await svc.recover()
    assert fixed["races_armed"] == 0 and not (await svc.store.get_race(gid)).armed  # the board will post it
    await svc.store.set_message(gid, "board", 20, 777, version=version)  # posted; the crash came before the arm
    fixed = await svc.recover()
    race = await svc.store.get_race(gid)
    assert fixed["races_armed"] == 1 and race.deadline == svc.test_clock.now + 5


async def test_post_pace_orders_can_be_set_from_an_older_board_and_the_turn_goes_on(svc):  # noqa: F811
    gid = await _table(svc, {"pace": "post"})
    t = await svc.load(gid)
    active = next(p.seat for p in t.prompts() if p.kind == "turn")
    other = (active + 1) % 3
    notice = await svc.act(gid, USERS[other], 0, "order", "set:0:7")  # a board of the first version
    assert notice.private.get(USERS[other].id) == ["Standing order: you snap slot 1 when a Bottle 7 lands."]
    assert notice.ping == [] and notice.public == []
    # the active player's board, made before the order was set, still works
    await svc.act(gid, USERS[active], t.version, "turn", "draw")
    assert (await svc.load(gid)).state.phase == "drawn"
    reminders = {r.user_id for r in await svc.store.get_reminders(gid)}
    assert reminders == {USERS[active].id}  # nobody is reminded of an optional question


async def test_post_pace_an_order_that_is_no_longer_open_is_refused_and_changes_nothing(svc):  # noqa: F811
    gid = await _table(svc, {"pace": "post"})
    await svc.act(gid, BEN, 0, "order", "set:1:4")
    await svc.act(gid, BEN, 0, "order", "cancel:1")
    version = (await svc.load(gid)).version
    with pytest.raises(ServiceError, match="no longer open.*My options"):
        await svc.act(gid, BEN, 0, "order", "cancel:1")
    assert (await svc.load(gid)).version == version


async def test_rules_3_a_swap_withdraws_the_players_order_and_tells_them_alone(svc):  # noqa: F811
    """Decisions 2.1 (issue 22) at the table: a new post table plays rules 3; the active player's order on the slot
    they swap into is withdrawn, and the withdrawal is a private line to them only (no public line, nothing for
    anyone else)."""
    gid = await _table(svc, {"pace": "post"})
    t = await svc.load(gid)
    assert t.state.options["rules"] == 3
    active = next(p.seat for p in t.prompts() if p.kind == "turn")
    me = USERS[active]
    await svc.act(gid, me, t.version, "order", "set:0:7")
    t = await svc.load(gid)
    await svc.act(gid, me, t.version, "turn", "draw")
    t = await svc.load(gid)
    notice = await svc.act(gid, me, t.version, "place", "swap:0")
    withdrawn = "Your standing order for slot 1 (a Bottle 7) is withdrawn: the card in that slot was moved."
    assert withdrawn in [str(line) for line in notice.private.get(me.id, [])]
    assert all(withdrawn not in str(line) for line in notice.public)
    assert all(withdrawn not in str(line) for u, lines in notice.private.items() if u != me.id for line in lines)
    assert [o for o in (await svc.load(gid)).state.orders if o.seat == active] == []
