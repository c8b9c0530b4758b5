"""Issue 23, "Where is it my turn?": ``/games`` through the fake Discord. Anna sits in 12 open games over 3 servers:
the list (in her DM and in a server alike, privately) holds exactly those, the ones waiting for her first, each
named, with its server and a link to the message that asks (the board, or the lobby message); finished, abandoned
and other people's games are not listed. Someone seated nowhere is told how to start. A long list stays within
Discord's limits, the waiting games first."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from cogs.overview import DESCRIPTION_MAX, games_text
from fakediscord.limits import problems
from service import User
from service.overview import LOBBY, OTHERS, YOURS, SeatedGame
from tests.cogs.driver import Clock, Driver, answer, bot_on
from tests.cogs.test_dm_access import said
from tests.fakediscord import payloads as p
from tests.fakediscord.fixtures import fake_server
from tests.fakediscord.server import FakeDiscordServer

BACK, CELLAR = p.GUILD_ID + 1, p.GUILD_ID + 2
NAMES = {p.GUILD_ID: p.GUILD_NAME, BACK: "Back Room", CELLAR: "Cellar"}
LINK = re.compile(r"\[Game #(\d+) · (\w+)\]\(https://discord\.com/channels/(\d+)/(\d+)/(\d+)\)")


@contextlib.asynccontextmanager
async def three_servers(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscordServer, Any, Clock, dict[int, dict]]]:
    """The bot in the test server and two more, each with its own name and channels."""
    clock = Clock()
    async with fake_server(heartbeat_interval_ms=30_000) as server:
        channels = {
            p.GUILD_ID: {"general": p.GENERAL_CHANNEL_ID, "games": p.GAMES_CHANNEL_ID, "lobby": p.LOBBY_CHANNEL_ID},
            BACK: server.add_twin_guild(BACK, NAMES[BACK]),
            CELLAR: server.add_twin_guild(CELLAR, NAMES[CELLAR]),
        }
        async with bot_on(server, tmp_path / "t.sqlite3", clock) as bot:
            yield server, bot, clock, channels


async def started(server: FakeDiscordServer, bot: Any, clock: Clock, users: list, channel: int, game: str) -> Driver:
    """A game opened, joined and started through Discord (a minute after the last one), its board posted."""
    clock.now += 60
    d = Driver(server, bot, clock, users, channel=channel)
    await d.open_and_start(game=game)
    await d.settle()
    return d


async def peeked(d: Driver, user: dict) -> None:
    """``user`` answers their Omerta peek on the board: the game then waits for the others."""
    d.clock.now += 60
    table = await d.load()
    seat = table.seat_of(p.uid(user))
    prompt = table.prompts_for(seat)[0]
    await answer(d, seat, prompt.kind, prompt.options[0].id, prompt.secret)
    await d.settle()


async def lobby(server: FakeDiscordServer, bot: Any, clock: Clock, host: dict, channel: int, game: str) -> int:
    """A lobby opened by ``host`` through Discord; its number."""
    clock.now += 60
    await said(await server.slash(host, "game new", {"game": game}, channel_id=channel))
    return max(t.id for t in await bot.service.games_of_user(p.uid(host)) if t.row.status == "lobby")


def entries(description: str) -> list[tuple[int, str, int, int, int]]:
    """Each listed game's link: (game, title, server, channel, message), in the order shown."""
    return [(int(g), t, int(s), int(c), int(m)) for g, t, s, c, m in LINK.findall(description)]


async def test_games_lists_a_players_twelve_games_over_three_servers_waiting_first_with_links(tmp_path):
    """Issue 23: "/games lists the right games for a user seated in 12 games over 3 servers, the ones waiting
    first, with working links; from a DM too." Five games wait for Anna (the longest wait first), three lobbies
    (the one she may start first), four games wait for others (named); her abandoned table and Ben's lobby are not
    listed. Every link opens the message that asks in the game's own server: the board now, or the lobby."""
    async with three_servers(tmp_path) as (server, bot, clock, ch):
        anna, ben, cleo, dan, eve, finn = p.ANNA, p.BEN, p.CLEO, p.DAN, p.EVE, p.FINN
        g, back, cellar = ch[p.GUILD_ID], ch[BACK], ch[CELLAR]
        yours = [
            await started(server, bot, clock, [anna, ben, cleo], g["general"], "omerta"),
            await started(server, bot, clock, [anna], g["games"], "speakeasy"),
            await started(server, bot, clock, [eve, anna, finn], back["general"], "omerta"),
            await started(server, bot, clock, [finn, anna, ben], back["games"], "omerta"),
            await started(server, bot, clock, [cleo, anna, dan], cellar["general"], "omerta"),
        ]
        others = [
            await started(server, bot, clock, [ben, anna, cleo], g["games"], "omerta"),
            await started(server, bot, clock, [anna, dan, eve], back["general"], "omerta"),
            await started(server, bot, clock, [dan, anna, ben], cellar["games"], "omerta"),
            await started(server, bot, clock, [ben, cleo, anna], cellar["general"], "omerta"),
        ]
        for d in others:
            await peeked(d, anna)
        dans = await lobby(server, bot, clock, dan, g["lobby"], "omerta")
        await said(await server.slash(anna, "game join", {"game": dans}, channel_id=g["lobby"]))
        solo = await lobby(server, bot, clock, anna, back["lobby"], "speakeasy")  # one player may start it
        alone = await lobby(server, bot, clock, anna, cellar["lobby"], "omerta")  # needs two more
        gone = await lobby(server, bot, clock, anna, cellar["games"], "omerta")
        await said(await server.slash(anna, "game abandon", {"game": gone}, channel_id=cellar["games"]))
        await lobby(server, bot, clock, ben, g["lobby"], "omerta")

        # the games waiting for her by the soonest deadline (issue 23: a new Omerta table 24h, Speakeasy 48h)
        due = {d.gid: await bot.service.deadline_of(await d.load(), p.uid(anna)) for d in yours}
        assert all(due.values())
        want = sorted(due, key=lambda gid: due[gid]) + [solo, dans, alone] + [d.gid for d in others]
        where = {t.id: t.row.guild_id for t in await bot.service.games_of_user(p.uid(anna))}
        assert len(want) == 12 and set(want) == set(where) and len(set(where.values())) == 3
        asks = {d.gid: await bot.service.store.get_message(d.gid, "board") for d in yours + others}
        asks |= {gid: await bot.service.store.get_message(gid, "lobby") for gid in (solo, dans, alone)}

        shown = []
        for channel in (server.dm_channel_id(anna), back["general"]):
            reply = await said(await server.slash(anna, "games", {}, channel_id=channel))
            assert reply["ephemeral"] and not reply["content"]
            (embed,) = reply["embeds"]
            assert embed["title"] == "Your games"
            text = embed["description"]
            shown.append(text)
            found = entries(text)
            assert [e[0] for e in found] == want, text
            for gid, title, guild, channel_id, message_id in found:
                assert guild == where[gid]
                assert (channel_id, message_id) == (asks[gid].channel_id, asks[gid].message_id), gid
                assert int(server.messages[message_id]["channel_id"]) == channel_id  # the message is there
                assert server.guild_of_channel(channel_id) == guild
                assert title == ("Speakeasy" if gid in (yours[1].gid, solo) else "Omerta")
            lines = text.splitlines()
            heads = [line for line in lines if line.startswith("**")]
            assert heads == ["**Waiting for you (5)**", "**Lobbies (3)**", "**Waiting for others (4)**"]
            for line in lines:
                if (m := LINK.search(line)) is not None:
                    assert f"· {NAMES[int(m.group(3))]} ·" in line, line
            first = next(line for line in lines if f"#{yours[0].gid} " in line)
            asked = int((await yours[0].load()).row.updated_at)
            assert first.endswith(f"your move, asked <t:{asked}:R>, due <t:{int(due[yours[0].gid])}:R>")
            assert "start it with /game start" in next(line for line in lines if f"#{solo} " in line)
            waits = next(line for line in lines if f"#{others[0].gid} " in line)
            assert "waiting for Ben and Cleo, last move <t:" in waits
        assert shown[0] == shown[1]  # from a DM and from a server alike
        assert not server.take_error_logs()


async def test_someone_seated_nowhere_is_told_how_to_start_and_german_readers_get_german(tmp_path, monkeypatch):
    """Issue 23: a user without a seat in an open game gets one clear sentence with how to start, in a DM or a
    server; a German reader gets the list in German. A server another process runs (not in this process's cache)
    is named as Discord tells (asked once, then kept); one the bot has left, by its id."""
    async with three_servers(tmp_path) as (server, bot, clock, ch):
        for who, channel in ((p.OUTSIDER, server.dm_channel_id(p.OUTSIDER)), (p.FINN, ch[BACK]["general"])):
            reply = await said(await server.slash(who, "games", {}, channel_id=channel))
            assert reply["content"] == (
                "You have no seat in an open game. Open a table with /game new in a server channel, or join one there "
                "with /game join."
            )
            assert reply["ephemeral"] and not reply["embeds"]
        gid = await lobby(server, bot, clock, p.CLEO, ch[CELLAR]["lobby"], "omerta")
        left = 123_456_789_012_345_678  # a server the bot is no longer in
        clock.now += 60
        await bot.service.create(left, left + 1, User(p.uid(p.CLEO), "Cleo"), "omerta", {})
        cached = type(bot).get_guild
        monkeypatch.setattr(bot, "get_guild", lambda guild_id: None if guild_id == CELLAR else cached(bot, guild_id))
        server.set_locale(p.CLEO, "de")
        for _ in range(2):
            reply = await said(await server.slash(p.CLEO, "games", {}, channel_id=server.dm_channel_id(p.CLEO)))
            (embed,) = reply["embeds"]
            assert embed["title"] == "Deine Spiele"
            lines = embed["description"].splitlines()
            assert lines[0] == "**Lobbys (2)**" and lines[1].startswith(f"[Spiel #{gid} · Omerta](")
            assert "· Cellar · Lobby: 1 von 3-5 Spielern, eröffnet <t:" in lines[1]
            assert f"· Server {left} · Lobby: 1 von 3-5 Spielern" in lines[2]
        asked = [r for r in server.requests if r.method == "GET" and r.path in (f"/guilds/{CELLAR}", f"/guilds/{left}")]
        assert len(asked) == 2  # each once: the second list used what the first was told


def _many(kind: str, n: int, first: int) -> list[SeatedGame]:
    return [
        SeatedGame(
            id=first + i,
            title="Speakeasy",
            guild_id=10**18 + i,
            kind=kind,
            since=1.8e9 - i,
            deadline=None,
            channel_id=10**18 + 1,
            message_id=10**18 + 2,
            waiting_for=("A" * 32, "B" * 32),
            seated=3,
            low=3,
            high=5,
        )
        for i in range(n)
    ]


def test_a_long_list_keeps_within_discords_limits_waiting_games_first() -> None:
    """Issue 23: a player in 90 games (names of 100 characters for their servers): the list keeps within an embed's
    4,096 characters, shows the games waiting for them first and says how many more there are, and how many of
    them wait for the player; a server the bot is no longer in is named by its id."""
    games = _many(YOURS, 30, 1) + _many(LOBBY, 30, 100) + _many(OTHERS, 30, 200)
    text = games_text(games, lambda guild: None if guild % 2 else "S" * 100)
    assert len(text) <= DESCRIPTION_MAX
    assert not problems({"embeds": [{"title": "Your games", "description": text}]})
    listed = [int(m.group(1)) for m in LINK.finditer(text)]
    assert listed == list(range(1, len(listed) + 1)) and 10 < len(listed) < 30  # waiting ones, in order
    assert text.splitlines()[0] == "**Waiting for you (30)**"
    more = 90 - len(listed)
    assert text.endswith(f"…and {more} more games, {30 - len(listed)} of them waiting for you.")
    assert f"· server {10**18 + 1} ·" in text
    few = games_text(_many(OTHERS, 2, 1), lambda guild: "Club")
    assert "…and" not in few and few.count("waiting for " + "A" * 32 + " and " + "B" * 32) == 2
