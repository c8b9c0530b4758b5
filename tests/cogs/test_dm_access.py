"""A DM is not a back door (issue 22): through the fake Discord, a user who shares no server with the bot, a
member of another server and a seated player in a DM try every command and component on games by number. In a DM
only the user's own seats count, and only for what a seated player does there; in a server only its own games
count. Each refusal is checked by its words, and nothing is posted, edited, exported or joined."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from service.log import LOG_PAGE
from service.records import table_row
from store import Move
from tests.cogs.driver import Clock, Driver, bot_on, ids_of
from tests.fakediscord import payloads as p
from tests.fakediscord.fixtures import fake_server
from tests.fakediscord.server import FakeDiscordServer

TWIN = p.GUILD_ID + 1
NO_SEAT = "You have no seat in game #{game}; run this in the game's server."
NOT_HERE = "There is no game #{game} in this server."
SERVER_ONLY = "That works only in game #{game}'s own server, not in a DM; run it there."


@contextlib.asynccontextmanager
async def two_servers(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscordServer, Any, Clock, dict[str, int]]]:
    """The bot in the test server and in a second one (the same members, channels of its own)."""
    clock = Clock()
    async with fake_server(heartbeat_interval_ms=30_000) as server:
        twin = server.add_twin_guild(TWIN)
        async with bot_on(server, tmp_path / "t.sqlite3", clock) as bot:
            yield server, bot, clock, twin


async def said(rec: Any) -> dict[str, Any]:
    """The bot's answer to an interaction: its first follow-up after a defer, else its response."""
    await rec.wait_callback()
    if rec.callback_type in (5, 6):
        return (await rec.wait_followups(1))[-1]
    assert rec.message is not None, f"no answer to {rec.payload.get('data')}"
    return rec.message


def posts(server: FakeDiscordServer) -> list[tuple[str, str]]:
    """Every post or edit the bot made in a channel (not an answer to an interaction), as method and path."""
    return [
        (r.method, r.path)
        for r in server.requests
        if r.path.startswith("/channels/") and "/messages" in r.path and r.method in ("POST", "PATCH", "PUT")
    ]


async def anchor(server: FakeDiscordServer, user: Any, channel: int) -> dict[str, Any]:
    """A message of the bot in ``channel`` to send forged clicks from (the answer to ``/rules`` there)."""
    rec = await server.slash(user, "rules", {"topic": "omerta/the-snap"}, channel_id=channel)
    return await said(rec)


async def forged(server: FakeDiscordServer, user: Any, message: dict[str, Any], custom_id: str) -> dict[str, Any]:
    """A click on a component whose id names a game the clicker may not reach from there. Discord only sends
    clicks on components a message carries, so the bot's message is given the button first (as an old answer
    of the bot's, or one kept from when the clicker was seated, would carry it)."""
    stored = server.messages[int(message["id"])]
    button = {"type": p.ComponentType.BUTTON, "style": 2, "label": "x", "custom_id": custom_id}
    stored["components"] = [{"type": p.ComponentType.ACTION_ROW, "components": [button]}]
    return await said(await server.click(user, message["id"], custom_id))


async def three_games(server: FakeDiscordServer, bot: Any, clock: Clock) -> tuple[Driver, int, int]:
    """An Omerta game running (Anna hosts, Ben and Cleo), a lobby (Dan's) and an abandoned table (Eve's)."""
    d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
    await d.open_and_start()
    rec = await server.slash(p.DAN, "game new", {"game": "omerta"}, channel_id=p.GAMES_CHANNEL_ID)
    await said(rec)
    lobby_id = max(t.id for t in await bot.service.list_games(p.GUILD_ID))
    rec = await server.slash(p.EVE, "game new", {"game": "omerta"}, channel_id=p.LOBBY_CHANNEL_ID)
    await said(rec)
    gone = max(t.id for t in await bot.service.list_games(p.GUILD_ID))
    await said(await server.slash(p.EVE, "game abandon", {"game": gone}, channel_id=p.LOBBY_CHANNEL_ID))
    assert (await bot.service.load(gone)).row.status == "abandoned"
    return d, lobby_id, gone


def commands_on(running: int, lobby: int, gone: int) -> list[tuple[str, dict[str, Any]]]:
    """Every command that names a game, each on the game it would act on."""
    return [
        ("game log", {"game": running}),
        ("game status", {"game": running}),
        ("game export", {"game": gone}),
        ("game join", {"game": lobby}),
        ("game leave", {"game": lobby}),
        ("game start", {"game": lobby}),
        ("game abandon", {"game": lobby}),
        ("game end", {"game": running}),
        ("game addbot", {"game": lobby}),
        ("game skip", {"game": running}),
        ("game undo", {"game": running}),
        ("game reclaim", {"game": running}),
        ("game substitute", {"game": running, "player": p.uid(p.BEN), "substitute": p.uid(p.FINN)}),
        ("game botseat", {"game": running, "player": p.uid(p.BEN)}),
        ("hand", {"game": running}),
        ("hint", {"game": running}),
        ("board", {"game": running}),
        ("log", {"game": running}),
    ]


def components_on(running: int, version: int, lobby: int) -> list[tuple[str, int]]:
    """Every kind of component id, forged for a game, with the game it names."""
    return [
        (f"lg|{running}|0", running),
        (f"lb|{lobby}|join", lobby),
        (f"pm|{running}|{version}", running),
        (f"pl|{running}|{version}|peek|0|", running),
        (f"ps|{running}|{version}|peek|0", running),
        (f"un|{running}|{version}", running),
        (f"of|{running}|1|take", running),
        (f"sk|{running}|{version}|1", running),
        (f"ev|{running}|1|agree", running),
        (f"ev|{running}|1|refuse", running),
    ]


async def test_a_user_who_shares_no_server_reads_posts_exports_and_joins_nothing_from_a_dm(tmp_path):
    """Issue 22: the outsider (in no server of the bot) in a DM: every command and every forged component on any
    game number is refused with the same words (a game that does not exist too: a DM tells nothing about other
    servers' games), and nothing is posted, edited, exported or joined."""
    async with two_servers(tmp_path) as (server, bot, clock, _):
        d, lobby, gone = await three_games(server, bot, clock)
        running = d.gid
        await d.settle()
        dm = server.dm_channel_id(p.OUTSIDER)
        seats = {g: [(s.seat, s.user_id) for s in (await bot.service.load(g)).seats] for g in (running, lobby, gone)}
        before = posts(server)
        for command, options in [*commands_on(running, lobby, gone), ("game log", {"game": 999})]:
            reply = await said(await server.slash(p.OUTSIDER, command, options, channel_id=dm))
            assert reply["content"] == NO_SEAT.format(game=options["game"]), (command, reply["content"])
            assert reply["ephemeral"] and not reply["files"] and not ids_of(reply), command
        new = await said(await server.slash(p.OUTSIDER, "game new", {"game": "omerta"}, channel_id=dm))
        assert new["content"] == "Open tables in a server channel, not in DMs."
        here = await anchor(server, p.OUTSIDER, dm)
        version = (await d.load()).version
        for custom_id, game in components_on(running, version, lobby):
            reply = await forged(server, p.OUTSIDER, here, custom_id)
            assert reply["content"] == NO_SEAT.format(game=game), (custom_id, reply["content"])
        assert posts(server) == before, "something was posted or edited for the outsider"
        for g, rows in seats.items():
            assert [(s.seat, s.user_id) for s in (await bot.service.load(g)).seats] == rows
        assert not server.take_error_logs()


async def test_a_member_of_another_server_is_told_there_is_no_such_game_there(tmp_path):
    """Issue 22: from the other server (even its admin), a game number of this server names no game there:
    every command and every forged component answers "There is no game #N in this server", and nothing changes."""
    async with two_servers(tmp_path) as (server, bot, clock, twin):
        d, lobby, gone = await three_games(server, bot, clock)
        running = d.gid
        await d.settle()
        before = posts(server)
        for who in (p.FINN, p.OWNER):
            for command, options in commands_on(running, lobby, gone):
                reply = await said(await server.slash(who, command, options, channel_id=twin["general"]))
                assert reply["content"].startswith(NOT_HERE.format(game=options["game"])), (command, reply["content"])
                assert not reply["files"], command
        here = await anchor(server, p.FINN, twin["general"])
        version = (await d.load()).version
        for custom_id, game in components_on(running, version, lobby):
            reply = await forged(server, p.FINN, here, custom_id)
            assert reply["content"].startswith(NOT_HERE.format(game=game)), (custom_id, reply["content"])
        assert posts(server) == before
        assert [s.user_id for s in (await bot.service.load(lobby)).seats] == [p.uid(p.DAN)]
        assert (await bot.service.load(running)).row.status == "active"
        assert not server.take_error_logs()


async def test_a_seated_player_in_a_dm_sees_their_own_game_and_nothing_more(tmp_path):
    """Issue 22: Anna (host of the running game, seated nowhere else) in her DM: her game's log (with its page
    buttons), status (words and a link: the board is posted only when asked in its server), hand and log work;
    exporting, skipping, abandoning, substituting and handing a seat to a bot work only in the game's server;
    another game's number is refused as for anyone without a seat there."""
    async with two_servers(tmp_path) as (server, bot, clock, _):
        d, lobby, gone = await three_games(server, bot, clock)
        running = d.gid
        await d.settle()
        dm = server.dm_channel_id(p.ANNA)
        before = posts(server)
        page = await said(await server.slash(p.ANNA, "game log", {"game": running, "page": 1}, channel_id=dm))
        assert f"**Game #{running} · Omerta** · log, page 1 of" in page["content"]
        status = await said(await server.slash(p.ANNA, "game status", {"game": running}, channel_id=dm))
        board = await bot.service.store.get_message(running, "board")
        link = f"https://discord.com/channels/{p.GUILD_ID}/{board.channel_id}/{board.message_id}"
        assert status["content"].startswith(f"Game #{running} (Omerta): waiting for ") and link in status["content"]
        hand = await said(await server.slash(p.ANNA, "hand", {"game": running}, channel_id=dm))
        assert "not seated" not in hand["content"] and "no seat" not in hand["content"]
        short = await said(await server.slash(p.ANNA, "log", {}, channel_id=dm))  # her only running game
        assert f"**Game #{running} · Omerta**" in short["content"]
        for command, options in (
            ("game export", {"game": running}),
            ("game skip", {"game": running}),
            ("game abandon", {"game": running}),
            ("game end", {"game": running}),
            ("game substitute", {"game": running, "player": p.uid(p.BEN), "substitute": p.uid(p.FINN)}),
            ("game botseat", {"game": running, "player": p.uid(p.BEN)}),
        ):
            reply = await said(await server.slash(p.ANNA, command, options, channel_id=dm))
            assert reply["content"] == SERVER_ONLY.format(game=running), (command, reply["content"])
            assert not reply["files"] and not ids_of(reply)
        for command, options in (("game join", {"game": lobby}), ("game export", {"game": gone})):
            reply = await said(await server.slash(p.ANNA, command, options, channel_id=dm))
            assert reply["content"] == NO_SEAT.format(game=options["game"]), (command, reply["content"])
        here = await anchor(server, p.ANNA, dm)
        reply = await forged(server, p.ANNA, here, f"lb|{lobby}|join")
        assert reply["content"] == NO_SEAT.format(game=lobby)
        assert posts(server) == before, "a DM made the bot post or edit in a channel"
        assert (await bot.service.load(running)).row.status == "active"
        assert [s.user_id for s in (await bot.service.load(lobby)).seats] == [p.uid(p.DAN)]
        assert not server.take_error_logs()


async def test_the_log_pages_turn_in_a_dm_for_the_games_player_only(tmp_path):
    """Issue 22: the log's Older / Newer buttons in a DM work for the game's player; the same button's id sent
    by someone without a seat is refused."""
    async with two_servers(tmp_path) as (server, bot, clock, _):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        await d.settle()
        version = (await d.load()).version
        lines = [table_row(version, f"line {n}") for n in range(LOG_PAGE + 1)]  # enough for two pages
        assert await bot.service.store.table_event(gid, version, Move([], "", clock.now, events=lines))
        dm = server.dm_channel_id(p.BEN)
        first = await said(await server.slash(p.BEN, "game log", {"game": gid, "page": 1}, channel_id=dm))
        newer = next(i for i in ids_of(first) if i.startswith("lg|"))
        click = await server.click(p.BEN, first["id"], newer)
        await click.wait_callback()
        assert "page 2 of 2" in server.message(first["id"])["content"]
        here = await anchor(server, p.OUTSIDER, server.dm_channel_id(p.OUTSIDER))
        reply = await forged(server, p.OUTSIDER, here, newer)
        assert reply["content"] == NO_SEAT.format(game=gid)


async def test_commands_are_synced_for_servers_and_the_bots_dm_only(tmp_path):
    """Issue 22: each command's contexts as synced (docs/table.md, "Where commands work"): a server and the bot's
    DM, never a group DM or another user's DM, and only for a server's install; the fake Discord offers a command
    only where it was synced for."""
    async with two_servers(tmp_path) as (server, bot, clock, _):
        synced = server.commands[None]
        assert set(synced) == {
            "game",
            "games",
            "hand",
            "hint",
            "board",
            "log",
            "rules",
            "me",
            "away",
            "leaderboard",
            "profile",
        }
        for name, command in synced.items():
            assert sorted(command["contexts"]) == [0, 1], name
            assert command["integration_types"] == [0], name
