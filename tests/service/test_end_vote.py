"""Issue 23, "Ending well": ``/game end``, a vote of the human players to end a game by agreement with its standings
now, in the service on a fake clock, on SQLite and PostgreSQL (the record is the truth: a restart knows the vote
and the end)."""

from __future__ import annotations

import json
import math

import pytest

from service import ServiceError, Settings, TableService, User
from service.end_vote import END_VOTE_HOURS, opened_key
from store import Store
from tests.backends import Targets

GUILD = 10
ANNA, BEN, CLEO, DAN = (User(i, n, guild_id=GUILD) for i, n in ((1, "Anna"), (2, "Ben"), (3, "Cleo"), (4, "Dan")))


class Clock:
    """The service's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def db(backend: str, tmp_path, request):
    """A database target of each backend (a file, or a schema), opened again by a "restart"."""
    server = request.getfixturevalue("postgres_server") if backend == "postgres" else None
    targets = Targets(backend, tmp_path, server)
    yield targets.new()
    await targets.cleanup()


async def service(target: str, clock: Clock) -> TableService:
    return TableService(await Store.open(target), Settings(), clock=clock)


async def running(svc: TableService, game: str = "omerta") -> int:
    """A game of Anna (host), Ben and Cleo in guild 10."""
    gid = (await svc.create(GUILD, 20, ANNA, game, {})).table.id
    for u in (BEN, CLEO):
        await svc.join(gid, u)
    await svc.start(gid, ANNA)
    return gid


async def outbox(svc: TableService, gid: int) -> list[tuple[str, dict]]:
    return [(r.kind, json.loads(r.body)) for r in await svc.store.outbox_due(math.inf, gid)]


async def test_all_three_agree_and_the_game_ends_with_its_standings_even_after_a_restart(db):
    """Issue 23: a proposal and the agreements are public lines with the vote's buttons; the vote survives a
    restart; when all agree the game is 'ended' (not finished, not abandoned) with the standings now."""
    clock = Clock()
    svc = await service(db, clock)
    gid = await running(svc)
    notice = await svc.end_vote(gid, ANNA)
    assert str(notice.reply) == f"Your agreement to end game #{gid} is counted."
    [(kind, body)] = await outbox(svc, gid)
    assert kind == "endvote"
    assert body["text"].startswith(f"Anna proposes to end game #{gid} by agreement: 1 of 3 agree.")
    assert body["waiting"] == [BEN.id, CLEO.id]
    with pytest.raises(ServiceError, match="You already agreed to end game #.*; waiting for Ben and Cleo"):
        await svc.end_vote(gid, ANNA)
    await svc.store.close()

    clock.now += 3600  # a restart: the vote is in the store
    svc = await service(db, clock)
    table = await svc.load(gid)
    opened = opened_key(await svc.open_votes(table))
    await svc.end_vote(gid, BEN, opened)
    assert (await outbox(svc, gid))[-1][1]["text"].startswith(f"Ben agrees to end game #{gid} by agreement: 2 of 3")
    assert (await svc.load(gid)).row.status == "active"
    notice = await svc.end_vote(gid, CLEO, opened)
    assert notice.finished and notice.table.row.status == "ended"
    assert (
        str(notice.public[0])
        == f"Game #{gid} is ended by agreement of Anna, Ben and Cleo. The standings now are its result:"
    )
    assert str(notice.public[-1]) == "First: Anna, Ben and Cleo."  # Omerta: nothing scored yet, a shared place
    await svc.store.close()

    svc = await service(db, clock)
    table = await svc.load(gid)
    assert table.row.status == "ended" and table.prompts() == []
    assert json.loads(table.row.result or "") == {"scores": [0, 0, 0], "winners": [0, 1, 2], "ended": "agreement"}
    assert await svc.store.get_end_votes(gid) == {}
    log = [e.text for e in await svc.store.get_events(gid, public_only=True)]
    assert f"Game #{gid} is ended by agreement of Anna, Ben and Cleo. The standings now are its result:" in log
    assert (await svc.export(table))["status"] == "ended"
    assert gid not in [t.id for t in await svc.list_games(GUILD)]  # /game list shows open games only
    with pytest.raises(ServiceError, match="ended by agreement; there is nothing to end"):
        await svc.end_vote(gid, ANNA)
    await svc.store.close()


async def test_a_refusal_cancels_the_vote_and_the_game_goes_on(db):
    """Issue 23: any player's refusal ends the vote (a public line); an old vote's buttons answer no more."""
    clock = Clock()
    svc = await service(db, clock)
    gid = await running(svc)
    await svc.end_vote(gid, ANNA)
    opened = opened_key(await svc.open_votes(await svc.load(gid)))
    notice = await svc.refuse_end(gid, CLEO, opened)
    assert str(notice.reply) == f"You refused; game #{gid} goes on."
    assert (await outbox(svc, gid))[-1] == (
        "public",
        {
            "text": f"Cleo refuses to end game #{gid} by agreement; the vote is over and the game goes on.",
            "msg": (await outbox(svc, gid))[-1][1]["msg"],
        },
    )
    assert await svc.store.get_end_votes(gid) == {}
    for call in (svc.end_vote(gid, BEN, opened), svc.refuse_end(gid, BEN, opened), svc.refuse_end(gid, BEN)):
        with pytest.raises(ServiceError, match=f"There is no open vote to end game #{gid}"):
            await call
    assert (await svc.load(gid)).row.status == "active"
    await svc.store.close()


async def test_only_seated_humans_vote_and_only_in_the_games_server(db):
    """Issue 23: a non-player is refused; a DM is refused; a player whose seat a bot plays for them (issue 22:
    it stays theirs) votes, the bot does not."""
    clock = Clock()
    svc = await service(db, clock)
    gid = await running(svc)
    with pytest.raises(ServiceError, match=f"Only the players of game #{gid} can vote to end it"):
        await svc.end_vote(gid, DAN)
    with pytest.raises(ServiceError, match="works only in game .* own server, not in a DM"):
        await svc.end_vote(gid, User(BEN.id, "Ben", dm=True))
    with pytest.raises(ServiceError, match=f"There is no game #{gid} in this server"):
        await svc.end_vote(gid, User(BEN.id, "Ben", guild_id=99))
    assert await svc.store.get_end_votes(gid) == {}

    await svc.seat_to_bot(gid, ANNA, CLEO.id, "easy")
    assert await svc.voters(await svc.load(gid)) == {ANNA.id: "Anna", BEN.id: "Ben", CLEO.id: "Cleo"}
    await svc.end_vote(gid, ANNA)
    await svc.end_vote(gid, BEN)
    notice = await svc.end_vote(gid, CLEO)  # Cleo's seat is played by a bot, but it is hers: she votes
    assert notice.table.row.status == "ended"
    await svc.store.close()


async def test_a_vote_stays_open_across_moves_and_lapses_after_48_hours(db):
    """Issue 23 (decision): moves do not end a vote; END_VOTE_HOURS after the proposal it lapses, and /game end
    proposes anew."""
    clock = Clock()
    svc = await service(db, clock)
    gid = await running(svc)
    await svc.end_vote(gid, ANNA)
    await svc.act(gid, ANNA, (await svc.load(gid)).version, "peek", "0,1")  # the game goes on meanwhile
    clock.now += END_VOTE_HOURS * 3600 - 1
    await svc.end_vote(gid, BEN)  # still open
    clock.now += 1
    assert await svc.open_votes(await svc.load(gid)) == {}
    await svc.end_vote(gid, CLEO)  # a new proposal: the old agreements lapsed
    assert (await outbox(svc, gid))[-1][1]["text"].startswith(f"Cleo proposes to end game #{gid} by agreement: 1 of 3")
    assert list(await svc.store.get_end_votes(gid)) == [CLEO.id]
    assert (await svc.load(gid)).row.status == "active"
    await svc.store.close()


async def test_speakeasy_ends_with_the_final_scoring_of_the_position(db):
    """Issue 23: Speakeasy's standings mid-game are the final scoring of the position (money, protected buildings,
    bottles), ranked with the game's tie-breakers; the state stays at the position."""
    clock = Clock()
    svc = await service(db, clock)
    gid = await running(svc, "speakeasy")
    version = (await svc.load(gid)).version
    for u in (ANNA, BEN, CLEO):
        notice = await svc.end_vote(gid, u)
    assert notice.table.row.status == "ended" and notice.table.version == version
    lines = [str(x) for x in notice.public]
    assert lines[1].startswith("Anna: $") and " pocket + $" in lines[1]
    result = json.loads(notice.table.row.result or "")
    assert len(result["scores"]) == 3 and result["ended"] == "agreement"
    await svc.store.close()
