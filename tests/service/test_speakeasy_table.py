"""Speakeasy through the table service (no Discord): solo against Jo, undo, the host's skip and substitute."""

from __future__ import annotations

import pytest

from engine.registry import GAMES
from service import ServiceError, Settings, TableService, User
from store import Store

ANNA = User(1, "Anna")
BEN = User(2, "Ben")
CLEO = User(3, "Cleo")
DAN = User(4, "Dan")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def svc():
    store = await Store.open(":memory:")
    service = TableService(store, Settings(reminder_first_s=3600, reminder_repeat_s=7200), clock=Clock(), games=GAMES)
    yield service
    await store.close()


async def _game(svc: TableService, users: list[User], options: dict | None = None) -> int:
    gid = (await svc.create(10, 20, users[0], "speakeasy", options or {})).table.id
    for u in users[1:]:
        await svc.join(gid, u)
    await svc.start(gid, users[0])
    return gid


async def _act_first(svc: TableService, gid: int, users: dict[int, User]):
    """The waited-for player answers with the first option offered."""
    t = await svc.load(gid)
    p = next(p for p in t.prompts() if p.race is None)
    return await svc.act(gid, users[p.seat], t.version, p.kind, p.options[0].id)


async def test_solo_against_jo_plays_to_the_end_with_only_the_players_prompts(svc):
    gid = await _game(svc, [ANNA], {"difficulty": 3})
    t = await svc.load(gid)
    assert [p.name for p in t.state.players] == ["Anna", "Jo"] and t.state.jo.difficulty == 3
    for _ in range(2000):
        t = await svc.load(gid)
        if t.row.status != "active":
            break
        assert {p.seat for p in t.prompts()} == {0}  # Jo never waits for anyone
        notice = await _act_first(svc, gid, {0: ANNA})
    assert t.row.status == "finished"
    result = t.result()
    assert result is not None and any(d.startswith("Rank: ") for d in result.details)
    assert any(line.startswith("Rank: ") for line in notice.public)
    assert any("Jo's turn" in line for line in await svc.public_log(t))


async def test_undo_takes_back_my_own_step_logged_and_not_past_a_reveal(svc):
    gid = await _game(svc, [ANNA, BEN])
    users = {0: ANNA, 1: BEN}
    # Play into the first player's turn of Act 1.
    t = await svc.load(gid)
    while t.state.phase == "setup":
        await _act_first(svc, gid, users)
        t = await svc.load(gid)
    seat = next(p.seat for p in t.prompts())
    me, other = users[seat], users[1 - seat]
    with pytest.raises(ServiceError, match="nothing|revealed|earlier turn|last step"):
        await svc.undo(gid, me)  # the turn has just begun: nothing of it to take back
    while (await svc.load(gid)).prompts()[0].kind != "place":
        await _act_first(svc, gid, users)
    t = await svc.load(gid)
    before = t.game.dumps(t.state)
    await svc.act(gid, me, t.version, "place", "first")  # Lucky's table: first place, then Sell or Party
    t = await svc.load(gid)
    with pytest.raises(ServiceError, match="Only your own steps"):
        await svc.undo(gid, other)
    notice = await svc.undo(gid, me)
    assert any("takes back" in line for line in notice.public)
    t = await svc.load(gid)
    assert t.state.track == t.game.loads(before).track  # the marker move was taken back
    assert t.prompts()[0].kind == "place"
    assert any("takes back" in line for line in await svc.public_log(t))
    # Play to the end of the turn: the draw reveals a card, so nothing before it can be taken back.
    while (await svc.load(gid)).prompts()[0].seat == seat:
        await _act_first(svc, gid, users)
    with pytest.raises(ServiceError):
        await svc.undo(gid, me)


async def _skip(svc: TableService, gid: int, user: User):
    """The host's skip of the player the board waits for now (as the confirmation button carries it)."""
    t = await svc.load(gid)
    waiting = next(p.seat for p in t.prompts() if p.race is None)
    return await svc.skip(gid, user, t.version, waiting)


async def test_host_skips_an_idle_players_turn_with_default_choices(svc):
    gid = await _game(svc, [ANNA, BEN, CLEO])
    t = await svc.load(gid)
    waiting = t.prompts()[0].seat
    notice = await _skip(svc, gid, ANNA)
    assert "skips" in notice.public[0]
    t = await svc.load(gid)
    assert t.prompts()[0].seat != waiting
    with pytest.raises(ServiceError, match="Only the host"):
        await _skip(svc, gid, BEN)


async def test_host_substitutes_a_player_who_keeps_the_seat_name(svc):
    """Issue "trust" 9 and issue 22: the seat changes hands only when the new player accepts and the seat's player
    agrees."""
    gid = await _game(svc, [ANNA, BEN])
    notice = await svc.offer_seat(gid, ANNA, BEN.id, DAN)
    t = await svc.load(gid)
    assert t.seat_of(BEN.id) == 1 and t.seat_of(DAN.id) is None  # nothing changed yet
    with pytest.raises(ServiceError, match="no open offer"):
        await svc.take_seat(gid, CLEO, 1)
    notice = await svc.take_seat(gid, DAN, 1)
    assert notice.public == [] and (await svc.load(gid)).seat_of(BEN.id) == 1  # Ben has not agreed yet
    notice = await svc.give_seat(gid, BEN, 1)
    assert notice.public == ["Dan now plays Ben's seat."]
    t = await svc.load(gid)
    assert t.seat_of(DAN.id) == 1 and t.seat_of(BEN.id) is None and t.name_of(1) == "Ben"
    with pytest.raises(ServiceError):
        await svc.offer_seat(gid, BEN, ANNA.id, BEN)


async def test_skip_stops_at_the_end_of_the_skipped_turn_even_against_jo(svc):
    gid = await _game(svc, [ANNA])
    t = await svc.load(gid)
    while t.state.phase == "setup":
        await _act_first(svc, gid, {0: ANNA})
        t = await svc.load(gid)
    year = t.state.year
    await _skip(svc, gid, ANNA)
    t = await svc.load(gid)
    assert t.row.status == "active" and t.state.year <= year + 1  # one turn (and Jo's), not the whole game


async def test_an_admin_of_another_server_has_no_host_rights(svc):
    gid = await _game(svc, [ANNA, BEN])  # created in guild 10
    stranger = User(77, "Olga", admin=True, guild_id=999)
    with pytest.raises(ServiceError, match="no game #.* in this server"):
        await _skip(svc, gid, stranger)
    with pytest.raises(ServiceError, match="no game #.* in this server"):
        await svc.offer_seat(gid, stranger, BEN.id, stranger)
    local = User(78, "Mod", admin=True, guild_id=10)
    assert (await _skip(svc, gid, local)).reply.startswith("Skipped")
    with pytest.raises(ServiceError, match="no game"):
        await svc.load_in(gid, 999)


async def test_substituting_the_host_hands_over_the_host_role(svc):
    gid = await _game(svc, [ANNA, BEN])
    await svc.offer_seat(gid, ANNA, ANNA.id, DAN)
    await svc.give_seat(gid, ANNA, 0)
    await svc.take_seat(gid, DAN, 0)
    t = await svc.load(gid)
    assert t.row.host_id == DAN.id
    with pytest.raises(ServiceError, match="Only the host"):
        await _skip(svc, gid, ANNA)


async def test_undo_is_not_a_new_turn_and_pings_nobody(svc):
    gid = await _game(svc, [ANNA, BEN])
    users = {0: ANNA, 1: BEN}
    t = await svc.load(gid)
    while t.state.phase == "setup" or t.prompts()[0].kind != "place":
        await _act_first(svc, gid, users)
        t = await svc.load(gid)
    seat = t.prompts()[0].seat
    await svc.act(gid, users[seat], t.version, "place", "first")
    notice = await svc.undo(gid, users[seat])
    assert not notice.new_turn and notice.ping == []
