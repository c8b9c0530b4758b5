"""Issue 23, "Ending well": ``/game end`` through the fake Discord. The proposal and each agreement are public lines
in the game's thread with Agree / Refuse buttons; when all three players agree the game ends with its standings,
posted as a finished game's end is; a refusal cancels the vote; a non-player and a DM are refused privately."""

from __future__ import annotations

from typing import Any

from tests.cogs.driver import Driver, channel_texts, ids_of, table
from tests.fakediscord import payloads as p
from tests.fakediscord.server import FakeDiscordServer


async def said(rec: Any) -> dict[str, Any]:
    """The bot's private answer to an interaction (its follow-up after the defer)."""
    await rec.wait_callback()
    return (await rec.wait_followups(1))[-1]


def vote_message(server: FakeDiscordServer, where: int) -> dict[str, Any]:
    """The latest message in the game's thread that carries a vote's buttons."""
    for mid in sorted(server.messages, reverse=True):
        m = server.messages[mid]
        if int(m.get("channel_id", 0)) == where and any(i.startswith("ev|") for i in ids_of(m)):
            return m
    raise AssertionError("no vote message")


def button(message: dict[str, Any], action: str) -> str:
    return next(i for i in ids_of(message) if i.startswith("ev|") and i.endswith(f"|{action}"))


async def test_three_players_agree_and_the_game_ends_by_agreement(tmp_path):
    """Issue 23: Anna proposes with /game end, Ben agrees on the button, Cleo with /game end: the game is 'ended',
    the thread says so with the standings, everyone is pinged as at a finish, and /game status shows it ended."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        reply = await said(await server.slash(p.ANNA, "game end", {"game": gid}, channel_id=d.where))
        assert reply["ephemeral"] and reply["content"] == f"Your agreement to end game #{gid} is counted."
        await d.settle()
        vote = vote_message(server, d.where)
        assert vote["content"].startswith(f"Anna proposes to end game #{gid} by agreement: 1 of 3 agree.")
        assert f"<@{p.uid(p.BEN)}> and <@{p.uid(p.CLEO)}>" in vote["content"]
        reply = await said(await server.click(p.BEN, vote["id"], button(vote, "agree")))
        assert reply["content"] == f"Your agreement to end game #{gid} is counted."
        await d.settle()
        vote = vote_message(server, d.where)
        assert vote["content"].startswith(f"Ben agrees to end game #{gid} by agreement: 2 of 3 agree.")
        again = await said(await server.click(p.BEN, vote["id"], button(vote, "agree")))
        assert again["content"] == f"You already agreed to end game #{gid}; waiting for Cleo."
        reply = await said(await server.slash(p.CLEO, "game end", {"game": gid}, channel_id=d.where))
        assert reply["content"] == f"Everyone agreed: game #{gid} is over."
        await d.settle()
        t = await d.load()
        assert t.row.status == "ended"
        texts = "\n".join(channel_texts(server, d.where))
        # the table's words join a list as its catalogue says ("Anna, Ben, and Cleo" in English)
        assert f"Game #{gid} is ended by agreement of Anna, Ben, and Cleo. The standings now are its result:" in texts
        assert "Anna: 0 = 0" in texts and "First: Anna, Ben, and Cleo" in texts
        assert "ended by agreement**" in (await d.board())["content"]
        board = await d.board()
        assert all(f"<@{p.uid(u)}>" in board["content"] for u in (p.ANNA, p.BEN, p.CLEO))  # all pinged, as at a finish
        assert not [i for i in ids_of(board) if i.startswith("pl|")]  # no move buttons on an ended game
        # issue 24: the final message is the thread's last post, asks nobody to move, and the lobby links it
        assert server.last_message(d.where)["id"] == board["id"] and "Your move" not in board["content"]
        assert "Game over by agreement: " in board["content"]
        lobby = server.message((await bot.service.store.get_message(gid, "lobby")).message_id)
        assert "(ended by agreement)" in lobby["content"] and f"/{d.where}/{board['id']}" in lobby["content"]
        late = await said(await server.click(p.CLEO, vote["id"], button(vote, "refuse")))
        assert late["content"] == f"Game #{gid} is ended by agreement; there is nothing to end by agreement."
        listed = await server.slash(p.ANNA, "game list", {}, channel_id=d.where)
        await listed.wait_callback()
        assert f"#{gid} " not in (listed.message or {}).get("content", "")
        assert not server.take_error_logs()


async def test_a_refusal_cancels_the_vote_and_others_are_refused_privately(tmp_path):
    """Issue 23: Cleo's Refuse ends the vote with a public line and the game goes on; an old vote's Agree then
    answers that there is no open vote; a non-player's /game end and a player's /game end in a DM are refused
    privately and change nothing."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        outsider = await said(await server.slash(p.DAN, "game end", {"game": gid}, channel_id=d.where))
        assert outsider["ephemeral"]
        assert outsider["content"] == f"Only the players of game #{gid} can vote to end it; you play no seat there."
        dm = await said(await server.slash(p.BEN, "game end", {"game": gid}, channel_id=server.dm_channel_id(p.BEN)))
        assert dm["content"] == f"That works only in game #{gid}'s own server, not in a DM; run it there."
        assert await bot.service.store.get_end_votes(gid) == {}

        await said(await server.slash(p.ANNA, "game end", {"game": gid}, channel_id=d.where))
        await d.settle()
        vote = vote_message(server, d.where)
        reply = await said(await server.click(p.CLEO, vote["id"], button(vote, "refuse")))
        assert reply["content"] == f"You refused; game #{gid} goes on."
        await d.settle()
        texts = channel_texts(server, d.where)
        line = f"Cleo refuses to end game #{gid} by agreement; the vote is over and the game goes on."
        assert line in texts
        late = await said(await server.click(p.BEN, vote["id"], button(vote, "agree")))
        assert late["content"].startswith(f"There is no open vote to end game #{gid}")
        assert (await d.load()).row.status == "active"
        assert await bot.service.store.get_end_votes(gid) == {}
        assert not server.take_error_logs()
