"""Bots at the table through the service: seating them, their turns taken at once, hints (issue 13)."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from bots.common import seat_salt
from bots.omerta import OmertaBot, remember_all
from bots.speakeasy import Budget
from bots.table import TableBots, bot_level
from engine.core import TABLE
from engine.msg import Msg
from service import ServiceError, Settings, TableService, User
from store import Store
from words import words

HOST = User(1, "Ann")
BOB = User(2, "Bob")


@pytest.fixture
async def service():
    store = await Store.open(":memory:")
    # hints are asked back to back here: no cooldown (the cooldown's own tests: test_limits.py)
    settings = Settings(reminder_first_s=3600, reminder_repeat_s=7200, hint_cooldown_s=0)
    svc = TableService(store, settings, bots=TableBots(Budget(80, 30)))
    yield svc
    await store.close()


async def _lobby(svc: TableService, game: str, options=None) -> int:
    notice = await svc.create(10, 20, HOST, game, ({"pace": "live"} if game == "omerta" else {}) | (options or {}))
    return notice.table.id


async def test_the_host_seats_bots_that_show_their_level(service):
    gid = await _lobby(service, "speakeasy")
    await service.add_bot(gid, HOST, "easy")
    notice = await service.add_bot(gid, HOST, "hard")
    names = [s.name for s in notice.table.seats]
    assert names == ["Ann", "Bot Nora (easy)", "Bot Vito (hard)"]
    assert [bot_level(s.user_id) for s in notice.table.seats] == [None, "easy", "hard"]


async def test_adding_a_bot_is_refused_clearly(service):
    gid = await _lobby(service, "speakeasy")
    await service.join(gid, BOB)
    with pytest.raises(ServiceError, match="Only the host"):
        await service.add_bot(gid, BOB, "easy")
    with pytest.raises(ServiceError, match="no bot level 'expert'"):
        await service.add_bot(gid, HOST, "expert")
    for level in ("easy", "standard"):
        await service.add_bot(gid, HOST, level)
    with pytest.raises(ServiceError, match="full"):
        await service.add_bot(gid, HOST, "easy")
    table = await service.load(gid)
    assert len(table.seats) == 4
    await service.start(gid, HOST)
    with pytest.raises(ServiceError, match="not open for seating"):
        await service.add_bot(gid, HOST, "easy")


async def test_bots_play_at_once_and_a_human_is_only_asked_on_their_turn(service):
    gid = await _lobby(service, "speakeasy")
    for level in ("easy", "standard", "hard"):
        await service.add_bot(gid, HOST, level)
    notice = await service.start(gid, HOST)
    table = notice.table
    human = 0
    while table.version - human < 8:  # the human answers its default; the bots answer everything else
        prompts = [p for p in table.prompts() if p.seat != TABLE]
        assert prompts and {p.seat for p in prompts} == {0}, "only the human is ever waited for"
        p = prompts[0]
        notice = await service.act(gid, HOST, table.version, p.kind, p.default_option())
        table, human = notice.table, human + 1
        assert human < 200
    log = await service.store.get_events(gid)
    assert any(e for e in log if "Bot Vito (standard)" in e.text)


class GatedBots(TableBots):
    """Bots that wait, before thinking, until the event loop opens a gate: if they ran on the loop, the loop
    could not open it and they would time out."""

    def __init__(self) -> None:
        super().__init__(Budget(40, 30))
        self.entered = threading.Event()
        self.gate = threading.Event()
        self.opened_by_loop: list[bool] = []

    def run(self, table, state):
        self.entered.set()
        self.opened_by_loop.append(self.gate.wait(5))
        self.gate.clear()
        return super().run(table, state)


async def test_bots_think_off_the_event_loop():
    """While bots decide, the event loop goes on serving other requests."""
    store = await Store.open(":memory:")
    bots = GatedBots()
    svc = TableService(store, Settings(), bots=bots)
    try:
        gid = (await svc.create(10, 20, HOST, "speakeasy", {})).table.id
        await svc.add_bot(gid, HOST, "standard")

        async def opener():
            while True:
                await asyncio.sleep(0.001)
                if bots.entered.is_set():
                    bots.entered.clear()
                    bots.gate.set()

        task = asyncio.create_task(opener())
        table = (await svc.start(gid, HOST)).table
        for _ in range(200):  # until the bots have had their turn twice (the seed decides who goes first)
            if len(bots.opened_by_loop) >= 2:
                break
            p = next(p for p in table.prompts() if p.seat == 0)
            table = (await svc.act(gid, HOST, table.version, p.kind, p.default_option())).table
        task.cancel()
        assert len(bots.opened_by_loop) >= 2 and all(bots.opened_by_loop)
    finally:
        await store.close()


async def test_a_hint_is_for_the_player_whose_turn_it_is(service):
    gid = await _lobby(service, "speakeasy")
    await service.join(gid, BOB)
    await service.start(gid, HOST)
    table = await service.load(gid)
    waiting = next(p.seat for p in table.prompts() if p.seat != TABLE)
    mover, other = (HOST, BOB) if table.user_of(waiting) == HOST.id else (BOB, HOST)
    hint = await service.hint(gid, mover)
    prompt = next(p for p in table.prompts() if p.seat == waiting)
    assert hint.unit == "margin" and any(o.label == hint.label for o in prompt.options)
    # issue 15: the hint names its option as a message, so /hint reads in the asker's language
    assert isinstance(hint.label, Msg) and words("de")(hint.label) != str(hint.label)
    with pytest.raises(ServiceError, match="not your turn"):
        await service.hint(gid, other)
    with pytest.raises(ServiceError, match="not seated"):
        await service.hint(gid, User(9, "Eve"))


async def test_a_table_may_forbid_hints(service):
    gid = await _lobby(service, "speakeasy", {"hints": "forbidden"})
    await service.join(gid, BOB)
    await service.start(gid, HOST)
    table = await service.load(gid)
    mover = HOST if table.user_of(next(p.seat for p in table.prompts())) == HOST.id else BOB
    with pytest.raises(ServiceError, match="forbidden"):
        await service.hint(gid, mover)


async def test_omerta_with_two_bots_runs_their_peeks_and_turns(service):
    gid = await _lobby(service, "omerta")
    await service.join(gid, BOB)
    await service.add_bot(gid, HOST, "standard")
    await service.add_bot(gid, HOST, "easy")
    table = (await service.start(gid, HOST)).table
    assert {p.seat for p in table.prompts()} <= {0, 1}, "the bots peeked at once"


async def test_the_host_hands_an_idle_seat_to_a_bot_and_the_player_takes_it_back(service):
    gid = await _lobby(service, "speakeasy")
    await service.join(gid, BOB)
    table = (await service.start(gid, HOST)).table
    with pytest.raises(ServiceError, match="Only the host"):
        await service.seat_to_bot(gid, BOB, BOB.id, "easy")
    with pytest.raises(ServiceError, match="host's own seat"):
        await service.seat_to_bot(gid, HOST, HOST.id, "easy")
    notice = await service.seat_to_bot(gid, HOST, BOB.id, "easy")
    table = notice.table
    bob_seat = next(s.seat for s in table.seats if s.name == "Bob")
    assert bot_level(table.user_of(bob_seat)) == "easy"
    assert all(p.seat != bob_seat for p in table.prompts()), "the bot plays Bob's turns at once"
    while table.version < 30:  # Ann plays on; the bot answers Bob's questions
        p = next(p for p in table.prompts() if p.seat != TABLE)
        table = (await service.act(gid, HOST, table.version, p.kind, p.default_option())).table
    with pytest.raises(ServiceError, match="No seat of yours"):
        await service.reclaim_seat(gid, User(7, "Cy"))
    notice = await service.reclaim_seat(gid, BOB)
    assert notice.table.user_of(bob_seat) == BOB.id
    log = [e.text for e in await service.store.get_events(gid, public_only=True)]
    assert any("now plays Bob's seat" in line for line in log) and any("takes Bob's seat back" in line for line in log)


async def test_an_omerta_hint_estimates_the_players_points(service):
    gid = await _lobby(service, "omerta")
    await service.join(gid, BOB)
    await service.join(gid, User(3, "Cy"))
    table = (await service.start(gid, HOST)).table
    for user in (HOST, BOB, User(3, "Cy")):  # everyone peeks (the bot's pick), then the first turn's hint
        seat = table.seat_of(user.id)
        prompt = next(p for p in table.prompts() if p.seat == seat)
        hint = await service.hint(gid, user)
        assert hint.unit == "points" and any(o.label == hint.label for o in prompt.options)
        table = (await service.act(gid, user, table.version, "peek", prompt.options[0].id)).table
    turn = next(p for p in table.prompts() if p.kind == "turn")
    mover = next(u for u in (HOST, BOB, User(3, "Cy")) if table.seat_of(u.id) == turn.seat)
    hint = await service.hint(gid, mover)
    assert hint.unit == "points" and hint.value > 0 and hint.label in {o.label for o in turn.options}


async def _post_table(svc: TableService) -> int:
    """An Omerta table in post pace: Ann, Bob and two bots."""
    gid = await _lobby(svc, "omerta", {"pace": "post"})
    await svc.join(gid, BOB)
    await svc.add_bot(gid, HOST, "standard")
    await svc.add_bot(gid, HOST, "easy")
    return gid


async def _wanted(svc: TableService, table) -> dict[int, dict[int, int]]:  # noqa: ANN001
    """Each bot seat's wanted standing orders, from its memory of the record."""
    levels = svc.bot_seats(table)
    bots = await svc.bot_table(table, levels)
    memories = remember_all(table.game, bots.names, dict(bots.options), bots.seed, bots.record, levels)
    return {
        s: OmertaBot(lv, seat_salt(table.row.seed, s)).wanted_orders(table.view(s), memories[s])
        for s, lv in levels.items()
    }


def _standing(table, seat: int) -> dict[int, int]:  # noqa: ANN001
    live = {i for i, c in enumerate(table.state.players[seat].slots) if c is not None}
    return {o.slot: o.value for o in table.state.orders if o.seat == seat and o.slot in live}


async def _human_step(svc: TableService, table, turns: list[int]):  # noqa: ANN001, ANN202
    """Ann or Bob answers their question: draw (calling OMERTA after a few turns a round), discard or swap into
    the first slot in turn, any other question's default."""
    p = next(p for p in table.prompts() if p.seat in (0, 1) and not p.optional)
    user = HOST if table.user_of(p.seat) == HOST.id else BOB
    option = p.default_option()
    if p.kind == "turn":
        turns[0] += 1
        option = "omerta" if turns[0] % 8 == 0 else "draw"
    elif p.kind == "place":
        option = p.options[0].id if turns[0] % 2 else option
    return (await svc.act(table.id, user, table.version, p.kind, option)).table


@pytest.mark.parametrize("seed", [1, 2])
async def test_post_pace_bots_keep_their_standing_orders_up_to_date_and_snap_by_them(service, seed):
    """Inline bots (no bots_later): after every move each bot's standing orders are the ones its memory wants;
    they set orders, and their orders win pairs (seeded tables: which pairs appear is up to the deal)."""
    service.seeds = lambda: seed
    gid = await _post_table(service)
    table = (await service.start(gid, HOST)).table
    turns = [0]
    while table.row.status == "active" and table.version < 400:
        wanted = await _wanted(service, table)
        assert all(_standing(table, s) == want for s, want in wanted.items()), (wanted, table.state.orders)
        table = await _human_step(service, table, turns)
    choices = [json.loads(c) for c in await service.store.get_choices(gid)]
    assert any(c["kind"] == "order" and c["seat"] in (2, 3) for c in choices)
    public = [e.text for e in await service.store.get_events(gid, public_only=True)]
    assert any("Bot" in line and "standing order snaps" in line and "fewer" in line for line in public)
    assert not any(e.kind == "order" for e in await service.store.get_events(gid, public_only=True))


async def test_post_pace_a_move_that_changes_nothing_for_the_bots_makes_no_bot_move(service):
    """With bots_later (as at the Discord table): a bot move is committed (and posted) only when a bot has
    something to do; a human move that changes nothing for the bots is followed by none; the bots still set their
    orders. Whether they have something to do is asked in the bots' task, after the human's move is answered."""
    posted: list[int] = []

    async def later(game_id: int) -> None:
        posted.append(game_id)

    service.bots_later = later
    service.seeds = lambda: 7
    gid = await _post_table(service)
    await service.start(gid, HOST)
    turns, moves, quiet = [0], 0, 0
    table = await service.load(gid)
    while table.row.status == "active" and moves < 120:
        while service.bots_busy(gid):
            await asyncio.sleep(0.005)
        table = await service.load(gid)
        if table.row.status != "active":
            break
        before, count = table.version, len(posted)
        table = await _human_step(service, table, turns)
        moves += 1
        while service.bots_busy(gid):
            await asyncio.sleep(0.005)
        after = await service.load(gid)
        if len(posted) > count:
            assert after.version > before + 1, "a bot move was posted that answered nothing"
        else:
            quiet += 1
            assert after.version == before + 1
        table = after
    assert quiet > 10 and len(posted) > 0
    choices = [json.loads(c) for c in await service.store.get_choices(gid)]
    assert any(c["kind"] == "order" and c["seat"] in (2, 3) for c in choices)


async def test_post_pace_a_hint_is_not_for_the_standing_orders(service):
    """The standing-order question is open to everyone all the time in post pace: it does not make it anyone's
    turn for /hint."""
    gid = await _lobby(service, "omerta", {"pace": "post"})
    for user in (BOB, User(3, "Cy")):
        await service.join(gid, user)
    table = (await service.start(gid, HOST)).table
    users = (HOST, BOB, User(3, "Cy"))
    for user in users:
        seat = table.seat_of(user.id)
        prompt = next(p for p in table.prompts() if p.seat == seat and not p.optional)
        table = (await service.act(gid, user, table.version, "peek", prompt.options[0].id)).table
    turn = next(p for p in table.prompts() if p.kind == "turn")
    idle = next(u for u in users if table.seat_of(u.id) != turn.seat)
    assert any(p.optional for p in table.prompts_for(table.seat_of(idle.id)))
    with pytest.raises(ServiceError, match="not your turn"):
        await service.hint(gid, idle)
    mover = next(u for u in users if table.seat_of(u.id) == turn.seat)
    assert (await service.hint(gid, mover)).label in {o.label for o in turn.options}
