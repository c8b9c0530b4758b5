"""Issue 26, every game remembered: Omerta games played to their end through the fake Discord (scripted people and a
seat bot), then ``/game history`` and ``/leaderboard`` as a player reads them; the ratings the games gave live equal
a rebuild from the history; a game whose player's seat a bot played is unrated and says why."""

from __future__ import annotations

import json

import pytest

from service.history import SETTLED
from service.ratings import identity_of
from store.rated import GLOBAL, ordinal
from tests.cogs.driver import CHANNEL, Driver, ids_of, play_to_end, table
from tests.fakediscord import payloads as p

pytestmark = pytest.mark.slow


async def _said(rec) -> str:  # noqa: ANN001
    """The bot's answer: its follow-up after a defer, else its response (``/me`` answers at once)."""
    await rec.wait_callback()
    if rec.callback_type in (5, 6):
        return (await rec.wait_followups(1, timeout=30))[-1]["content"]
    return rec.message["content"]


async def _open_with_bot(d: Driver, seen: set[int]) -> int:
    """Anna opens an Omerta table (live snap windows), Ben joins, Anna seats a standard bot and starts."""
    rec = await d.server.slash(p.ANNA, "game new", {"game": "omerta", "options": "pace=live"}, channel_id=CHANNEL)
    await rec.wait_followups(1)

    def lobby() -> dict | None:
        last = d.server.last_message(CHANNEL)
        ids = [i for i in ids_of(last) if i.startswith("lb|")]
        return last if ids and int(ids[0].split("|")[1]) not in seen else None

    await d.server.wait_until(lambda: lobby() is not None, 5, what="the new lobby")
    message = lobby()
    assert message is not None
    d.gid = int(next(i for i in ids_of(message) if i.startswith("lb|")).split("|")[1])
    seen.add(d.gid)
    await (await d.server.click(p.BEN, message["id"], f"lb|{d.gid}|join")).wait_followups(1)
    said = await _said(await d.server.slash(p.ANNA, "game addbot", {"game": d.gid}, channel_id=CHANNEL))
    assert "is seated" in said, said
    await (await d.server.click(p.ANNA, message["id"], f"lb|{d.gid}|start")).wait_followups(1, timeout=60)
    await d.settle()
    d.where = (await d.load()).row.table_channel
    return d.gid


@pytest.mark.slow
async def test_history_leaderboard_and_ratings_after_games_through_discord(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        store = bot.service.store
        games: list[int] = []
        seen: set[int] = set()
        for n in range(3):
            d = Driver(server, bot, clock, [p.ANNA, p.BEN])
            await _open_with_bot(d, seen)
            await play_to_end(d)
            assert (await d.load()).row.status == "finished"
            games.append(d.gid)
            clock.now += 3600 * (n + 1)
        # a fourth game where Ben's seat is handed to a bot early: it finishes, but is not rated
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await _open_with_bot(d, seen)
        rec = await server.slash(p.ANNA, "game botseat", {"player": p.BEN, "level": "easy"}, channel_id=d.where)
        assert "plays Ben's seat now" in await _said(rec)
        await play_to_end(d)
        assert (await d.load()).row.status == "finished"
        unrated = d.gid

        rated = await store.rated_games([*games, unrated])
        assert all(rated[g].counted for g in games) and not rated[unrated].counted
        anna, ben = identity_of(int(p.ANNA["id"])), identity_of(int(p.BEN["id"]))
        for g in games:
            assert {i for i, _ in json.loads(rated[g].places)} == {anna, ben, "bot:standard"}

        # /game history in the server: newest first, each with its places and scores; the unrated one says why
        text = await _said(await server.slash(p.CLEO, "game history", {}, channel_id=CHANNEL))
        assert "page 1 of 1 (4 games)" in text, text
        order = [int(line.split("#")[1].split(" ")[0]) for line in text.splitlines() if line.startswith("**[#")]
        assert order == [unrated, *reversed(games)], text
        assert "finished" in text and "Bot Nora (standard)" in text
        assert "unrated: Ben's decisions were made by the bot or the table" in text, text
        assert text.count("1. ") >= 4

        # a player's own history from a DM; someone else's from a DM is refused with where to ask
        mine = await _said(await server.slash(p.BEN, "game history", {}, channel_id=server.dm_channel_id(p.BEN)))
        assert "(4 games)" in mine
        other = await server.slash(p.BEN, "game history", {"user": p.ANNA}, channel_id=server.dm_channel_id(p.BEN))
        assert "only your own games" in await _said(other)
        past = await _said(await server.slash(p.CLEO, "game history", {"page": 3}, channel_id=CHANNEL))
        assert "There is no page 3; pages 1 to 1." in past

        # /leaderboard: three rated games are fewer than SETTLED, so everyone is listed apart, with their rating
        board = await _said(await server.slash(p.CLEO, "leaderboard", {"game": "omerta"}, channel_id=CHANNEL))
        assert SETTLED > 3 and f"Fewer than {SETTLED} rated games" in board, board
        rows = {r.identity: r for r in await store.leaderboard("omerta", GLOBAL)}
        assert rows[anna].games == rows[ben].games == 3 and rows["bot:standard"].games == 3
        for identity, r in rows.items():
            assert f"{ordinal(r.mu, r.sigma):.1f}" in board, identity
        assert f"<@{p.ANNA['id']}>" in board and "Bot (standard)" in board
        assert "No rated game yet" in await _said(
            await server.slash(p.CLEO, "leaderboard", {"game": "speakeasy"}, channel_id=CHANNEL)
        )

        # /profile: Anna's games here, her rating with its chart, her move time, whom she met; then she hides it
        rec = await server.slash(p.ANNA, "profile", {}, channel_id=CHANNEL)
        shown = (await rec.wait_followups(1, timeout=30))[-1]
        text = shown["content"]
        assert f"**Profile of <@{p.ANNA['id']}>** · this server" in text, text
        assert "4 rated games (3 counted)" in text and "a move on average" in text
        assert f"{ordinal(rows[anna].mu, rows[anna].sigma):.1f}" in text
        assert f"<@{p.BEN['id']}>: 4 games" in text and "Bot (standard): 4 games" in text
        assert [a["filename"] for a in shown["attachments"]] == ["rating.png"]
        # the per-game figures: Anna's OMERTA calls, as the games' records have them
        calls = made = 0
        for g in [*games, unrated]:
            t = await bot.service.load(g)
            seat = t.seat_of(int(p.ANNA["id"]))
            calls += sum(r.caller == seat for r in t.state.history)
            made += sum(r.caller == seat and r.caller_made_it for r in t.state.history)
        assert f"**Omerta**: OMERTA called {calls} times, {made} made it · snaps " in text, text
        await _said(await server.slash(p.ANNA, "me", {"hide_profile": True}, channel_id=CHANNEL))
        refused = await _said(await server.slash(p.BEN, "profile", {"user": p.ANNA}, channel_id=CHANNEL))
        assert "keeps their profile to themselves" in refused
        assert "**Profile of" in await _said(await server.slash(p.ANNA, "profile", {}, channel_id=CHANNEL))
        board = await _said(await server.slash(p.CLEO, "leaderboard", {"game": "omerta"}, channel_id=CHANNEL))
        assert f"<@{p.ANNA['id']}>" not in board and f"<@{p.BEN['id']}>" in board
        await _said(await server.slash(p.ANNA, "me", {"hide_profile": False}, channel_id=CHANNEL))

        # the rebuild from the history gives the ratings the games gave as they finished
        live = {s: await store.leaderboard("omerta", s, 100) for s in (GLOBAL, rated[games[0]].guild_id)}
        assert await store.rebuild_ratings() == 3
        assert {s: await store.leaderboard("omerta", s, 100) for s in live} == live


async def test_rematch_opens_the_same_table_for_the_same_players(tmp_path):
    """The final message's Rematch: the first player to press it hosts a new table of the same game and options
    with the bot seated again; the other player is named in its thread and joins by pressing Rematch too (or the
    lobby's Join); someone who did not play is refused; once started, a press says which game it is."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        old = await _open_with_bot(d, set())
        await play_to_end(d)
        final = await bot.service.store.get_message(old, "board")
        assert final is not None and ids_of(server.message(final.message_id)) == [f"rm|{old}", f"ro|{old}"]

        outsider = await server.click(p.CLEO, final.message_id, f"rm|{old}")
        assert "Only the players of game" in (await outsider.wait_followups(1))[-1]["content"]
        rec = await server.click(p.BEN, final.message_id, f"rm|{old}")
        said = (await rec.wait_followups(1))[-1]["content"]
        new = await bot.service.store.rematch_of(old)
        assert new is not None and f"Game #{new.id} is the rematch of game #{old}" in said, said
        t = await bot.service.load(new.id)
        was = await bot.service.load(old)
        assert t.row.status == "lobby" and t.row.host_id == int(p.BEN["id"]) and t.row.options == was.row.options
        assert [s.name for s in t.seats] == ["Ben", "Bot Nora (standard)"]

        def invited() -> dict | None:  # in the new table's thread (opened with its lobby message)
            return next((m for m in server.messages.values() if "Rematch of game" in m.get("content", "")), None)

        await server.wait_until(lambda: invited() is not None, 5, what="the invitation")
        invite = invited()
        assert invite is not None and f"<@{p.ANNA['id']}>" in invite["content"]
        assert int(invite["channel_id"]) == (await bot.service.load(new.id)).row.table_channel
        assert f"<@{p.BEN['id']}>" not in invite["content"]

        again = await server.click(p.ANNA, final.message_id, f"rm|{old}")
        assert "You're in" in (await again.wait_followups(1))[-1]["content"]
        assert [s.name for s in (await bot.service.load(new.id)).seats] == ["Ben", "Bot Nora (standard)", "Anna"]
        twice = await server.click(p.ANNA, final.message_id, f"rm|{old}")
        assert f"You sit at the rematch, game #{new.id}" in (await twice.wait_followups(1))[-1]["content"]
        lobby = await bot.service.store.get_message(new.id, "lobby")
        assert lobby is not None
        await (await server.click(p.BEN, lobby.message_id, f"lb|{new.id}|start")).wait_followups(1, timeout=60)
        late = await server.click(p.ANNA, final.message_id, f"rm|{old}")
        assert f"is game #{new.id}, and it has started" in (await late.wait_followups(1))[-1]["content"]
