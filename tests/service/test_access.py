"""Where a request may reach a game (issue 22, "A DM is not a back door"), and whose a seat a bot plays stays
(issue 22, "A seat changes hands only with its player's consent"), in the service itself: whatever the Discord
layer sends, a DM reaches only the user's own seats and a server only its own games."""

from __future__ import annotations

import pytest

from service import ServiceError, Settings, TableService, User
from service.access import SEAT, SERVER
from store import Store

GUILD = 10
ANNA, BEN, CLEO, DAN = (User(i, n, guild_id=GUILD) for i, n in ((1, "Anna"), (2, "Ben"), (3, "Cleo"), (4, "Dan")))


def in_dm(user: User) -> User:
    """The same person asking from their DM with the bot."""
    return User(user.id, user.name, dm=True)


@pytest.fixture
async def svc():
    store = await Store.open(":memory:")
    service = TableService(store, Settings(), clock=lambda: 1_000_000.0)
    yield service
    await store.close()


async def running(svc: TableService) -> int:
    """An Omerta game of Anna (host), Ben and Cleo in guild 10."""
    gid = (await svc.create(GUILD, 20, ANNA, "omerta", {})).table.id
    for u in (BEN, CLEO):
        await svc.join(gid, u)
    await svc.start(gid, ANNA)
    return gid


async def test_a_dm_reaches_only_the_users_own_seats_and_never_server_tools(svc):
    gid = await running(svc)
    assert (await svc.load_for(gid, in_dm(BEN), SEAT)).id == gid
    for user, scope, words in (
        (in_dm(DAN), SEAT, f"You have no seat in game #{gid}; run this in the game's server."),
        (in_dm(BEN), SERVER, f"That works only in game #{gid}'s own server, not in a DM; run it there."),
        (User(4, "Dan", guild_id=99), SEAT, f"There is no game #{gid} in this server."),
    ):
        with pytest.raises(ServiceError) as exc:
            await svc.load_for(gid, user, scope)
        assert str(exc.value).startswith(words)
    for missing in (gid + 1, 0, -3, 2**63, 10**40):  # a DM tells nothing about which numbers are games
        with pytest.raises(ServiceError, match=f"^You have no seat in game #{missing};"):
            await svc.load_for(missing, in_dm(BEN))


async def test_the_service_refuses_server_tools_from_a_dm_even_for_the_host(svc):
    gid = await running(svc)
    before = await svc.store.get_choices(gid)
    calls = (
        svc.skip(gid, in_dm(ANNA), 0, 0),
        svc.abandon(gid, in_dm(ANNA)),
        svc.offer_seat(gid, in_dm(ANNA), BEN.id, DAN),
        svc.seat_to_bot(gid, in_dm(ANNA), BEN.id, "easy"),
        svc.take_seat(gid, in_dm(DAN), 1),
    )
    for call in calls:
        with pytest.raises(ServiceError, match="works only in game|no seat in game"):
            await call
    assert await svc.store.get_choices(gid) == before
    assert (await svc.load(gid)).row.status == "active"


async def test_a_bot_held_seat_is_reclaimed_from_a_dm_and_offered_to_no_one(svc):
    gid = await running(svc)
    await svc.seat_to_bot(gid, ANNA, BEN.id, "easy")
    table = await svc.load(gid)
    assert await svc.seat_claims(table) == {1: BEN.id}
    for seat_user in (BEN.id, table.user_of(1)):  # naming the player, or the bot that plays for them
        with pytest.raises(ServiceError, match="it stays theirs"):
            await svc.offer_seat(gid, ANNA, seat_user, DAN)
    with pytest.raises(ServiceError, match="No seat of yours"):
        await svc.reclaim_seat(gid, DAN)
    notice = await svc.reclaim_seat(gid, in_dm(BEN))  # the claim counts as a seat in a DM
    assert notice.table.seat_of(BEN.id) == 1
    assert await svc.seat_claims(notice.table) == {}
