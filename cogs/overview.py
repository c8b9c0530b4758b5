"""``/games`` (issue 23, "Where is it my turn?"): the user's open games in every server, privately, in a server or
the bot's DM: the games waiting for them first, each named and linked to the message that asks.

The list is one embed: its description holds up to 4,096 characters, about twice a message's 2,000, so a player
in a dozen games sees each with its link. A longer list keeps the games waiting for the user (they come first) and
ends with how many more there are.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from cogs.board import message_link
from cogs.contexts import in_servers_and_dm
from cogs.langs import reader_lang
from engine.msg import Join, M, Msg, P
from service.overview import KINDS, LOBBY, OTHERS, YOURS, SeatedGame
from words import Words, words

if TYPE_CHECKING:
    from bot import TableBot

#: Discord's limit for an embed's description
DESCRIPTION_MAX = 4096
#: room kept at the end of a cut list for the line that says how many more there are
MORE_ROOM = 200
#: how many servers' names a process keeps that it asked Discord for (servers another process's shards run): the
#: project's own value, so memory stays flat however many servers there are
KNOWN_SERVERS = 1000
#: how long such a name is trusted (a server may be renamed; the project's own value)
NAME_TTL_S = 3600.0
#: how many servers one ``/games`` asks Discord for at most (the rest are named by their ids): the answer stays
#: quick for a player in games all over
FETCH_MAX = 10

TITLE = M("table.games.title", "Your games")
NONE = M(
    "table.games.none",
    "You have no seat in an open game. Open a table with /game new in a server channel, or join one there with "
    "/game join.",
)
HEADS: dict[str, Callable[[int], Msg]] = {
    YOURS: lambda n: M("table.games.head.yours", "**Waiting for you ({n})**", n=n),
    LOBBY: lambda n: M("table.games.head.lobby", "**Lobbies ({n})**", n=n),
    OTHERS: lambda n: M("table.games.head.others", "**Waiting for others ({n})**", n=n),
}


def when(unix: float) -> str:
    """A time as Discord shows it in the reader's own words and zone, relative (``in 2 hours``, ``3 days ago``)."""
    return f"<t:{int(unix)}:R>"


def entry(game: SeatedGame, server: str | None, w: Words) -> str:
    """One game's line: its name and number linked to the message that asks, its server (its id when the bot
    is no longer in it), and how long it has waited (a deadline, when the table has one)."""
    label = w(M("table.games.game", "Game #{game} · {title}", game=game.id, title=game.title))
    link = f"[{label}]({message_link(game.guild_id, game.channel_id, game.message_id)})"
    where = escape_markdown(server) if server else w(M("table.games.server_id", "server {id}", id=game.guild_id))
    args = {"game": link, "server": where, "since": when(game.since)}
    if game.kind == YOURS and game.deadline is not None:
        text = M(
            "table.games.yours_deadline",
            "{game} · {server} · your move, asked {since}, due {deadline}",
            **args,
            deadline=when(game.deadline),
        )
    elif game.kind == YOURS:
        text = M("table.games.yours", "{game} · {server} · your move, asked {since}", **args)
    elif game.kind == LOBBY:
        seats = {"n": game.seated, "low": game.low, "high": game.high}
        if game.ready and game.host:
            text = M(
                "table.games.lobby_start",
                "{game} · {server} · lobby: {n} of {low}-{high} players, start it with /game start",
                **args,
                **seats,
            )
        elif game.ready:
            text = M(
                "table.games.lobby_ready",
                "{game} · {server} · lobby: {n} of {low}-{high} players, waiting for the host to start",
                **args,
                **seats,
            )
        else:
            text = M(
                "table.games.lobby_open",
                "{game} · {server} · lobby: {n} of {low}-{high} players, opened {since}",
                **args,
                **seats,
            )
    elif game.waiting_for:
        names = Join([escape_markdown(n) for n in game.waiting_for])
        text = M(
            "table.games.others", "{game} · {server} · waiting for {names}, last move {since}", **args, names=names
        )
    else:  # a snap window or the table's own timer: nobody is waited for
        text = M("table.games.others_table", "{game} · {server} · the table's move, last move {since}", **args)
    return w(text)


def games_text(games: Sequence[SeatedGame], server_of: Callable[[int], str | None], lang: str | None = None) -> str:
    """The list in words, in the order given (``TableService.my_games``'s: waiting for the user first), under a
    heading per part; within Discord's limit for an embed's description: a longer list is cut at its end, and its
    last line says how many more games there are and how many of them wait for the user."""
    w = words(lang)
    parts = {kind: [g for g in games if g.kind == kind] for kind in KINDS}
    ordered = [g for kind in KINDS for g in parts[kind]]
    lines: list[str] = []
    shown = 0
    for game in ordered:
        first = parts[game.kind][0] is game
        add = ([w(HEADS[game.kind](len(parts[game.kind])))] if first else []) + [
            entry(game, server_of(game.guild_id), w)
        ]
        if len("\n".join(lines + add)) > DESCRIPTION_MAX - MORE_ROOM:
            break
        lines += add
        shown += 1
    rest = ordered[shown:]
    if rest:
        waiting = sum(1 for g in rest if g.kind == YOURS)
        if waiting:
            more = P(
                "table.games.more_yours",
                "…and {n} more game, waiting for you.",
                "…and {n} more games, {waiting} of them waiting for you.",
                len(rest),
                waiting=waiting,
            )
        else:
            more = P("table.games.more", "…and {n} more game.", "…and {n} more games.", len(rest))
        lines.append(w(more))
    return "\n".join(lines)


class OverviewCog(commands.Cog, name="Overview"):
    """A person's games across servers."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        #: the names this process asked Discord for, with when (``None``: the bot is not in that server)
        self._names: OrderedDict[int, tuple[str | None, float]] = OrderedDict()

    async def server_names(self, guild_ids: Iterable[int]) -> dict[int, str | None]:
        """Each server's name (``None``: the bot is no longer in it). A server of this process's shards is in its
        cache; another process's is asked of Discord (kept for ``NAME_TTL_S``, at most ``FETCH_MAX`` asked per
        call); a failure to ask leaves the server named by its id rather than failing the list."""
        now = self.bot.service.clock()
        names: dict[int, str | None] = {}
        asked = 0
        for gid in dict.fromkeys(guild_ids):
            guild = self.bot.get_guild(gid)
            kept = self._names.get(gid)
            if guild is not None:
                names[gid] = guild.name
            elif kept is not None and now - kept[1] < NAME_TTL_S:
                names[gid] = kept[0]
            elif asked >= FETCH_MAX:
                names[gid] = None
            else:
                asked += 1
                try:
                    names[gid] = (await self.bot.fetch_guild(gid, with_counts=False)).name
                except discord.HTTPException:  # not in it any more (404, 403), or Discord failed: its id
                    names[gid] = None
                self._names[gid] = (names[gid], now)
                self._names.move_to_end(gid)
                while len(self._names) > KNOWN_SERVERS:
                    self._names.popitem(last=False)
        return names

    @in_servers_and_dm()
    @app_commands.command(name="games", description="Your games in every server, the ones waiting for you first")
    async def games(self, interaction: discord.Interaction) -> None:
        """``/games``: privately, in a server or the bot's DM; only the user's own seats are listed (so a DM tells
        nothing about anyone else's games)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = reader_lang(interaction)
        w = words(lang)
        listed = await self.bot.service.my_games(interaction.user.id)
        if not listed:
            await interaction.followup.send(w(NONE), ephemeral=True)
            return
        names = await self.server_names(g.guild_id for g in listed)
        text = games_text(listed, names.get, lang)
        embed = discord.Embed(title=w(TITLE), description=text)
        await interaction.followup.send(embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
