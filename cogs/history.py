"""Every game remembered (issue 26): ``/game history`` (its words; the command is in the lobby cog's ``/game``
group) and ``/leaderboard``. Both answer privately.

A history line names the game with a link to its thread, when it ended (a Discord timestamp, in the reader's own
words and zone), how long it took and how it ended; under it each seat's place and score (bots marked by their
names, which show their level) and, for a game that finished but does not count for the ratings, why. People are
named as they sat at the table. A leaderboard names people by mention, which Discord shows as their name without
pinging anyone (no mention is allowed in the reply).
"""

from __future__ import annotations

import asyncio
import io
import json
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from cogs.board import clip_message, message_link
from cogs.contexts import in_servers_and_dm
from cogs.langs import reader_words
from engine.msg import M, Msg, P
from render.profile import render_rating_chart
from render.speakeasy_final_text import SOURCE_WORDS
from service import ServiceError
from service.history import LADDERS, SETTLED, Board, HistoryPage, PastGame
from service.profile import Profile
from service.ratings import places_of
from store import RatingRow
from store.rated import ordinal
from words import Words

if TYPE_CHECKING:
    from bot import TableBot

ENDINGS: dict[str, Msg] = {
    "finished": M("table.history.finished", "finished"),
    "ended": M("table.history.ended", "ended by agreement"),
    "abandoned": M("table.history.abandoned", "abandoned"),
}
LADDER_NAMES: dict[str, Msg] = {
    "speakeasy": M("table.history.ladder", "Speakeasy"),
    "omerta": M("table.history.ladder", "Omerta"),
    "speakeasy_solo": M("table.history.ladder", "Speakeasy solo (against Jo)"),
}
NO_GAMES = M("table.history.none", "No game has ended here yet.")
NO_RATINGS = M("table.history.no_ratings", "No rated game yet on this leaderboard.")
DM_ONLY_OWN = M(
    "table.err.history_dm",
    "In a DM, /game history shows only your own games; ask for someone else's in a server you share.",
)


def took(seconds: float) -> Msg:
    """How long a game took, in its largest whole unit (days, hours, or minutes)."""
    if seconds >= 86400:
        n = int(seconds // 86400)
        return P("table.history.days", "{n} day", "{n} days", n)
    if seconds >= 3600:
        n = int(seconds // 3600)
        return P("table.history.hours", "{n} hour", "{n} hours", n)
    n = max(1, int(seconds // 60))
    return P("table.history.minutes", "{n} minute", "{n} minutes", n)


def _places(game: PastGame) -> tuple[list[int], list[float]]:
    """Each seat's place and score: the rated places of a game that finished; for a game ended by agreement, its
    standings then (the winners first)."""
    if not game.table.row.result:
        return [], []
    result = json.loads(game.table.row.result)
    scores = [float(s) for s in result.get("scores", [])]
    if game.places:
        return game.places, scores
    winners = [int(w) for w in result.get("winners", [])]
    # the record keeps no "lower is better": the winners' score says which way the scores count
    lower = bool(winners and scores and all(scores[w] == min(scores) for w in winners) and min(scores) < max(scores))
    return places_of(scores, winners, lower), scores


def _score(value: float, game: str) -> str:
    number = int(value) if value == int(value) else value
    return f"${number}" if game == "speakeasy" else str(number)


def game_lines(game: PastGame, w: Words) -> list[str]:
    """One game of the history: its head line and its standings (and why it is unrated)."""
    row = game.table.row
    label = w(M("table.history.game", "#{game} {title}", game=row.id, title=game.table.game.title))
    link = f"[{label}]({message_link(row.guild_id, row.table_channel)})"
    ended_at = f"<t:{int(row.updated_at)}:d>"  # a Discord timestamp: the reader's own date format and zone
    head = w(
        M(
            "table.history.head",
            "**{game}** · {when} · {took} · {ending}",
            game=link,
            when=ended_at,
            took=took(row.updated_at - row.created_at),
            ending=ENDINGS.get(row.status, M("table.history.other", "{status}", status=row.status)),
        )
    )
    places, scores = _places(game)
    names = {s.seat: s.name for s in game.table.seats}
    order = sorted(range(len(places)), key=lambda s: (places[s], s))
    standing = [
        f"{places[s]}. {escape_markdown(names.get(s, 'Jo'))} {_score(scores[s], row.game)}"
        for s in order
        if s < len(scores)
    ]
    if not standing:
        standing = [escape_markdown(", ".join(s.name for s in game.table.seats))]
    lines = [head, "-# " + " · ".join(standing)]
    why = game.why_unrated
    if why is not None:
        lines.append("-# " + w(why))
    return lines


def history_text(page: HistoryPage, w: Words, whose: str) -> str:
    """A page of the history as one message."""
    if not page.games:
        return w(NO_GAMES)
    title = M(
        "table.history.title",
        "**Games that ended{whose}** · page {page} of {pages} ({total} games)",
        whose=whose,
        page=page.page,
        pages=page.pages,
        total=page.total,
    )
    lines = [w(title)]
    for game in page.games:
        lines += game_lines(game, w)
    if page.page < page.pages:
        lines.append(w(M("table.history.next", "-# Next page: /game history page:{page}", page=page.page + 1)))
    return clip_message("\n".join(lines))


def identity_name(identity: str, w: Words) -> str:
    """How a rating identity is named: a person by mention, a bot level and Jo in words."""
    kind, _, rest = identity.partition(":")
    if kind == "u":
        return f"<@{rest}>"
    if kind == "bot":
        return w(M("table.history.bot", "Bot ({level})", level=rest))
    return w(M("table.history.jo", "Jo (difficulty {n})", n=rest))


def board_text(board: Board, w: Words) -> str:
    """A leaderboard as one message: rank, name, conservative rating (mu - 3 sigma), games and wins."""
    where = M("table.history.global", "all servers") if board.scope == 0 else M("table.history.server", "this server")
    title = M("table.history.board", "**{ladder} · {where}**", ladder=LADDER_NAMES[board.ladder], where=where)
    lines = [w(title)]
    if not board.ranked and not board.newcomers:
        return "\n".join([*lines, w(NO_RATINGS)])
    for k, r in enumerate(board.ranked, start=1):
        rating = f"{ordinal(r.mu, r.sigma):.1f}"
        lines.append(
            w(
                M(
                    "table.history.rank",
                    "{rank}. {name} · {rating} · {games} games, {wins} won",
                    rank=k,
                    name=identity_name(r.identity, w),
                    rating=rating,
                    games=r.games,
                    wins=r.wins,
                )
            )
        )
    if board.newcomers:
        lines.append(
            w(P("table.history.newcomers", "-# Fewer than {n} rated game:", "-# Fewer than {n} rated games:", SETTLED))
        )
        for r in board.newcomers:
            rating = f"{ordinal(r.mu, r.sigma):.1f}"
            name = identity_name(r.identity, w)
            lines.append(
                w(
                    M(
                        "table.history.newcomer",
                        "-# {name} · {rating} · {games} games",
                        name=name,
                        rating=rating,
                        games=r.games,
                    )
                )
            )
    lines.append(
        w(M("table.history.how", "-# The rating is OpenSkill's mu - 3 sigma: it grows as results confirm it."))
    )
    return clip_message("\n".join(lines))


def _rating(row: RatingRow) -> str:
    """A rating as the leaderboards rank it, with the mean and uncertainty it comes from."""
    return f"{ordinal(row.mu, row.sigma):.1f} (mu {row.mu:.1f} ± {row.sigma:.1f})"


def profile_text(profile: Profile, w: Words) -> str:
    """A profile in words: games, wins and places per ladder with the rating, move time, the players met most."""
    where = M("table.history.global", "all servers") if profile.scope == 0 else M("table.history.server", "this server")
    lines = [w(M("table.profile.title", "**Profile of <@{user}>** · {where}", user=profile.user_id, where=where))]
    moves = M("table.profile.no_moves", "no moves yet")
    if profile.moves:
        moves = M(
            "table.profile.moves", "{took} a move on average ({n} moves)", took=took(profile.move_s), n=profile.moves
        )
    lines.append(w(M("table.profile.games", "Games that ended: {n} · {moves}", n=profile.ended_games, moves=moves)))
    for stats in profile.ladders:
        places = " · ".join(f"{p}.: {n}" for p, n in sorted(stats.places.items()))
        said = M(
            "table.profile.ladder",
            "**{ladder}**: {games} rated games ({counted} counted), {wins} won · places {places}",
            ladder=LADDER_NAMES.get(stats.ladder, M("table.history.other", "{status}", status=stats.ladder)),
            games=stats.games,
            counted=stats.counted,
            wins=stats.wins,
            places=places or "-",
        )
        lines.append(w(said))
        if stats.here is not None:
            lines.append(w(M("table.profile.rating", "-# Rating {rating}", rating=_rating(stats.here))))
        if stats.everywhere is not None and profile.scope != 0:
            said = M("table.profile.rating_all", "-# On all servers: {rating}", rating=_rating(stats.everywhere))
            lines.append(w(said))
    if profile.source_games:  # Speakeasy: where their money came from, the biggest sources first
        top = sorted(((d, k) for k, d in profile.sources.items() if d > 0), reverse=True)[:5]
        parts = [f"{w(SOURCE_WORDS.get(k, M('table.history.other', '{status}', status=k)))} ${d}" for d, k in top]
        said = M(
            "table.profile.sources",
            "**Speakeasy money by source** ({n} games): {parts}",
            n=profile.source_games,
            parts=" · ".join(parts) or "-",
        )
        lines.append(w(said))
    if profile.calls or profile.snaps_right or profile.snaps_wrong:
        said = M(
            "table.profile.omerta",
            "**Omerta**: OMERTA called {calls} times, {made} made it · snaps {right} right, {wrong} wrong",
            calls=profile.calls,
            made=profile.calls_made,
            right=profile.snaps_right,
            wrong=profile.snaps_wrong,
        )
        lines.append(w(said))
    if profile.rivals:
        lines.append(w(M("table.profile.rivals", "**Met most**")))
        for r in profile.rivals:
            said = M(
                "table.profile.rival",
                "-# {name}: {games} games, ahead {ahead}, behind {behind}",
                name=identity_name(r.identity, w),
                games=r.games,
                ahead=r.ahead,
                behind=r.behind,
            )
            lines.append(w(said))
    if not profile.ladders:
        lines.append(w(M("table.profile.none", "No rated game yet.")))
    return clip_message("\n".join(lines))


def profile_chart(profile: Profile, w: Words) -> bytes | None:
    """The rating chart of a profile (None: no rated game counted yet)."""
    series: dict[str, list[tuple[float, float]]] = {}
    for ladder, _, mu, sigma in profile.steps:
        series.setdefault(w(LADDER_NAMES.get(ladder, M("table.history.other", "{status}", status=ladder))), []).append(
            (mu, sigma)
        )
    if not series:
        return None
    title = w(M("table.profile.chart", "Rating after each rated game (thick: mu - 3 sigma; thin: mu)"))
    return render_rating_chart(title, series, w(M("table.profile.axis", "rated games, oldest first")))


class HistoryCog(commands.Cog, name="History"):
    """``/leaderboard`` and ``/profile``."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @in_servers_and_dm()
    @app_commands.command(name="leaderboard", description="The best rated players of a game, here or everywhere")
    @app_commands.describe(game="Which leaderboard", scope="This server (default) or all servers")
    @app_commands.choices(
        game=[app_commands.Choice(name=name, value=name) for name in LADDERS],
        scope=[app_commands.Choice(name=s, value=s) for s in ("server", "global")],
    )
    async def leaderboard(self, interaction: discord.Interaction, game: str, scope: str = "server") -> None:
        """``/leaderboard``: in a DM, the one across all servers."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        w = reader_words(interaction)
        guild = interaction.guild_id if scope == "server" else None
        try:
            board = await self.bot.service.leaderboard(game, guild)
        except ServiceError as exc:
            await interaction.followup.send(w(exc.msg), ephemeral=True)
            return
        await interaction.followup.send(
            board_text(board, w), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @in_servers_and_dm()
    @app_commands.command(name="profile", description="A player's games, places, rating and rivals (private)")
    @app_commands.describe(user="Whose profile (empty: yours)")
    async def profile(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """``/profile``: this server's games and ratings (in a DM: every server's); someone's hidden profile is
        refused."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        w = reader_words(interaction)
        target = user.id if user is not None else interaction.user.id
        try:
            shown = await self.bot.service.profile(interaction.user.id, target, interaction.guild_id)
        except ServiceError as exc:
            await interaction.followup.send(w(exc.msg), ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
            return
        chart = await asyncio.to_thread(profile_chart, shown, w)
        files = [discord.File(io.BytesIO(chart), filename="rating.png")] if chart else []
        await interaction.followup.send(
            profile_text(shown, w), files=files, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )
