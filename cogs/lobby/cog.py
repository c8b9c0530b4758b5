"""``/game``: open a table, join, leave, start, status, list, log, abandon, end. Works for every game."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bots.common import LEVELS
from cogs.board import clip_message, message_link
from cogs.contexts import SERVER_INSTALL, SERVERS_AND_DM
from cogs.dynamic_items import forget
from cogs.history import DM_ONLY_OWN, history_text
from cogs.langs import guild_lang, reader_lang, reader_words
from cogs.lobby.actions import LobbyActions
from cogs.option_help import suggestions
from cogs.play import user_of
from cogs.table_buttons import SkipButton
from engine.core import waits_for
from engine.msg import M
from service import Notice, ServiceError, User
from service.access import SERVER
from service.core import status_word
from service.host import NO_TURN_TO_SKIP
from service.options import parse_options
from words import words

if TYPE_CHECKING:
    from bot import TableBot

IN_A_SERVER = M("table.err.in_a_server", "Use this in a server.")


class LobbyCog(LobbyActions, commands.Cog, name="Lobby"):
    """The lobby, for every game."""

    game = app_commands.Group(
        name="game",
        description="Open, join and manage game tables",
        # in a DM only status, log, undo and reclaim act, on the user's own seats (docs/table.md)
        allowed_contexts=SERVERS_AND_DM,
        allowed_installs=SERVER_INSTALL,
    )

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    # --- autocomplete --------------------------------------------------------------------------------------

    async def game_name_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The games this table hosts."""
        games = self.bot.service.games.values()
        w = reader_words(interaction)
        return [
            app_commands.Choice(
                name=w(
                    M(
                        "table.auto.game",
                        "{title} ({low}-{high} players)",
                        title=g.title,
                        low=g.min_players,
                        high=g.max_players,
                    )
                ),
                value=g.name,
            )
            for g in games
            if current.lower() in g.name or current.lower() in g.title.lower()
        ][:25]

    async def game_id_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """Open games in this server, this channel's first; in a DM, the user's own open games (a DM acts only on
        the user's seats)."""
        if interaction.guild_id is None:
            tables = await self.bot.service.games_of_user(interaction.user.id)
        else:
            tables = await self.bot.service.list_games(interaction.guild_id)
        tables.sort(key=lambda t: (t.row.channel_id != interaction.channel_id, -t.id))
        w = reader_words(interaction)
        out = []
        for t in tables:
            label = w(
                M(
                    "table.auto.table",
                    "#{game} {title} ({status}, {n} players)",
                    game=t.id,
                    title=t.game.title,
                    status=status_word(t.row.status),
                    n=len(t.seats),
                )
            )
            if current in str(t.id) or current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=t.id))
        return out[:25]

    # --- commands ------------------------------------------------------------------------------------------

    @game.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(game="Which game", options="Table options as name=value, e.g. snap_window=3")
    async def new(self, interaction: discord.Interaction, game: str, options: str = "") -> None:
        """``/game new``: a table without the option ``lang`` speaks the server's preferred language (German or
        English, else English)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            text = M("table.err.dm_table", "Open tables in a server channel, not in DMs.")
            await interaction.response.send_message(reader_words(interaction)(text), ephemeral=True)
            return
        user = user_of(interaction)
        gid, cid = interaction.guild_id, interaction.channel_id
        if isinstance(interaction.channel, discord.Thread) and interaction.channel.parent_id:
            cid = interaction.channel.parent_id  # opened from a game's thread: the new table goes in the channel

        async def work() -> Notice:
            given = parse_options(options)
            return await self.bot.service.create(gid, cid, user, game, {"lang": guild_lang(interaction), **given})

        await self._run(interaction, work)

    @game.command(name="settings", description="Server settings for new tables (admin)")
    @app_commands.describe(threads="Open each new table in a thread of its own (default on)")
    async def settings(self, interaction: discord.Interaction, threads: bool) -> None:
        """``/game settings threads:``."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        w = reader_words(interaction)
        if interaction.guild_id is None:
            await interaction.followup.send(w(IN_A_SERVER), ephemeral=True)
            return
        try:
            text = await self.bot.service.set_threads_wanted(interaction.guild_id, user_of(interaction), threads)
        except ServiceError as exc:
            text = exc.msg
        await interaction.followup.send(w(text), ephemeral=True)

    new.autocomplete("game")(game_name_autocomplete)

    @new.autocomplete("options")
    async def options_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen game's table options with their help, in the typer's language, as the host types."""
        game = getattr(interaction.namespace, "game", None)
        found = suggestions(
            self.bot.service.games, game if isinstance(game, str) else None, current, reader_lang(interaction)
        )
        return [app_commands.Choice(name=shown, value=value) for shown, value in found]

    @game.command(name="join", description="Take a seat at an open table")
    async def join(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/game join``."""
        await self._lobby_action(interaction, game, "join")

    @game.command(name="leave", description="Leave a table before it starts")
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/game leave``."""
        await self._lobby_action(interaction, game, "leave")

    @game.command(name="start", description="Deal the game (host or admin)")
    async def start(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/game start``."""
        await self._lobby_action(interaction, game, "start")

    @game.command(name="abandon", description="End a game without a result (host or admin)")
    async def abandon(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/game abandon``."""
        await self._lobby_action(interaction, game, "abandon")

    @game.command(name="end", description="Propose or agree to end a game by agreement, with the standings now")
    async def end(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/game end``: a player proposes to end the game by agreement, or agrees to the open proposal; the
        game ends with its standings now when every human player agrees (issue 23)."""
        user = user_of(interaction)

        async def work() -> Notice:
            return await self.bot.service.end_vote(await self._resolve(interaction, game), user)

        await self._run(interaction, work)

    @game.command(name="status", description="Show a game's table and whose move it is")
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/game status``: the board again, posted in the channel."""
        table = await self._load(interaction, game)
        if table is None:
            return
        lang = reader_lang(interaction, table)
        w = words(lang)
        if table.state is None:
            await interaction.followup.send(self.lobby_text(table, lang), ephemeral=True)
            return
        waiting = sorted({p.seat for p in table.prompts() if p.seat >= 0})
        names = ", ".join(table.name_of(s) for s in waiting) or w(M("table.reply.nobody", "nobody"))
        if interaction.guild_id is None:
            # a DM (a seated player's): the board is posted only in its own server, when asked there (issue 22)
            board = await self.bot.service.store.get_message(table.id, "board")
            link = (
                message_link(table.row.guild_id, board.channel_id, board.message_id)
                if board
                else w(M("table.reply.board_not_yet", "not posted yet; it follows in a moment"))
            )
            text = M(
                "table.reply.status_dm",
                "Game #{game} ({title}): waiting for {names}. The board: {link}",
                game=table.id,
                title=table.game.title,
                names=names,
                link=link,
            )
            await interaction.followup.send(w(text), ephemeral=True)
            return
        again = await self.bot.service.claim_repost(table)  # at most once a minute per game (issue 22)
        if again is not None:
            board = await self.bot.service.store.get_message(table.id, "board")
            gid = table.row.guild_id
            link = (
                message_link(gid, board.channel_id, board.message_id)
                if board
                else message_link(gid, table.row.table_channel)
            )
            await interaction.followup.send(w(self.bot.service.board_recent(table, link, again)), ephemeral=True)
            return
        await self.bot.publisher.repost(table.id)  # status never pings
        text = M("table.reply.board_posted", "Board posted. Waiting for: {names}.", names=names)
        await interaction.followup.send(w(text), ephemeral=True)

    @game.command(name="list", description="List the open games in this server")
    async def list_games(self, interaction: discord.Interaction) -> None:
        """``/game list``."""
        w = reader_words(interaction)
        if interaction.guild_id is None:
            await interaction.response.send_message(w(IN_A_SERVER), ephemeral=True)
            return
        tables = await self.bot.service.list_games(interaction.guild_id)
        lines = [
            f"#{t.id} · {t.game.title} · {w(status_word(t.row.status))} · <#{t.row.channel_id}> · "
            + ", ".join(s.name for s in t.seats)
            for t in tables
        ]
        none = M("table.reply.no_games", "No open games here. Start one with /game new.")
        await interaction.response.send_message(clip_message("\n".join(lines) or w(none)), ephemeral=True)

    @game.command(name="log", description="The moves of a game, a page at a time (the latest first)")
    @app_commands.describe(page="Which page (1 is the start of the game; empty: the latest moves)")
    async def show_log(
        self, interaction: discord.Interaction, game: int | None = None, page: int | None = None
    ) -> None:
        """``/game log``: the public log, read from the store, a page at a time."""
        table = await self._load(interaction, game)
        if table is None:
            return
        lang = reader_lang(interaction, table)
        text, view = await self.log_message(table, None if page is None else page - 1, lang)
        await interaction.followup.send(text, view=view or discord.utils.MISSING, ephemeral=True)
        forget(view)

    @game.command(name="history", description="The games that ended, newest first: here, or of a player")
    @app_commands.describe(user="Only this player's games (in a DM: only yours)", page="Which page (1: the newest)")
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None, page: int = 1) -> None:
        """``/game history`` (issue 26): privately; in a server its games (or a player's there), in a DM the
        user's own games in every server."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        w = reader_words(interaction)
        guild = interaction.guild_id
        if guild is None and user is not None and user.id != interaction.user.id:
            await interaction.followup.send(w(DM_ONLY_OWN), ephemeral=True)
            return
        who = user.id if user is not None else (interaction.user.id if guild is None else None)
        try:
            shown = await self.bot.service.history(guild, who, page)
        except ServiceError as exc:
            await interaction.followup.send(w(exc.msg), ephemeral=True)
            return
        whose = f" · {user.mention}" if user is not None else ""
        text = history_text(shown, w, whose)
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @game.command(name="replay", description="Step through a game as it was played (the board after each step)")
    @app_commands.describe(
        step="Which step (0: the board dealt; empty: the last)", public="Share it in the channel (default: only you)"
    )
    async def replay(
        self, interaction: discord.Interaction, game: int | None = None, step: int | None = None, public: bool = False
    ) -> None:
        """``/game replay`` (issue 26): in the game's own thread, that game."""
        try:
            gid = await self._resolve(interaction, game)
        except ServiceError as exc:
            await interaction.response.send_message(reader_words(interaction)(exc.msg), ephemeral=True)
            return
        await self.bot.get_cog("Replay").show(interaction, gid, step, public)  # type: ignore[union-attr]

    @game.command(name="export", description="The record of a finished game as a file (replay it offline)")
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/game export``: seed, options, seats and choices as JSON; ``python -m engine.replay FILE`` rebuilds it.
        Only in the game's own server (its seed reveals every hidden card of the game)."""
        table = await self._load(interaction, game, SERVER)
        if table is None:
            return
        w = reader_words(interaction, table)
        try:
            record = await self.bot.service.export(table)
        except ServiceError as exc:
            await interaction.followup.send(w(exc.msg), ephemeral=True)
            return
        data = json.dumps(record, indent=1).encode()
        await interaction.followup.send(
            w(
                M(
                    "table.reply.export",
                    "Game #{game}: replay it with `python -m engine.replay game-{game}.json`.",
                    game=table.id,
                )
            ),
            file=discord.File(io.BytesIO(data), filename=f"game-{table.id}.json"),
            ephemeral=True,
        )

    @game.command(name="skip", description="Skip an idle player's turn: the table takes the default choices (host)")
    async def skip(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/game skip``: asks the host to confirm, on a button that names the board's version and the player
        it waits for, so a skip never takes a turn that was played in the meantime."""
        table = await self._load(interaction, game, SERVER)
        if table is None:
            return
        w = reader_words(interaction, table)
        try:
            self.bot.service.need_host(table, user_of(interaction), "skip")
            self.bot.service.need_active(table, NO_TURN_TO_SKIP)
        except ServiceError as exc:
            await interaction.followup.send(w(exc.msg), ephemeral=True)
            return
        waiting = next((p.seat for p in table.prompts() if waits_for(p)), None)
        if waiting is None:
            await interaction.followup.send(
                w(M("table.reply.nobody_waited", "Nobody is being waited for right now.")), ephemeral=True
            )
            return
        name = table.name_of(waiting)
        view = discord.ui.View(timeout=None)
        view.add_item(SkipButton(table.id, table.version, waiting, name, w.lang))
        text = M(
            "table.reply.skip_confirm",
            "Skip {name}'s turn in game #{game}? The table takes the default choice for each of their questions.",
            name=name,
            game=table.id,
        )
        await interaction.followup.send(w(text), view=view or discord.utils.MISSING, ephemeral=True)
        forget(view)

    @game.command(name="substitute", description="Offer a player's seat to someone else (host); they must accept")
    @app_commands.describe(player="The seated player to replace", substitute="Who takes the seat")
    async def substitute(
        self, interaction: discord.Interaction, player: discord.User, substitute: discord.User, game: int | None = None
    ) -> None:
        """``/game substitute``: offers the seat; it changes hands only when the new player accepts (the seat
        keeps its name in the game; the new player gets its buttons and DMs)."""
        user = user_of(interaction)
        new = User(substitute.id, substitute.display_name) if not substitute.bot else User(0, substitute.display_name)

        async def work() -> Notice:
            return await self.bot.service.offer_seat(await self._resolve(interaction, game), user, player.id, new)

        await self._run(interaction, work)

    @game.command(name="addbot", description="Seat a bot at an open table (host); it plays its turns at once")
    @app_commands.describe(level="How well it plays: easy, standard or hard", game="The table (empty: yours here)")
    @app_commands.choices(level=[app_commands.Choice(name=lv, value=lv) for lv in LEVELS])
    async def addbot(self, interaction: discord.Interaction, level: str = "standard", game: int | None = None) -> None:
        """``/game addbot``: the host seats a bot that shows its level in its name."""
        user = user_of(interaction)

        async def work() -> Notice:
            return await self.bot.service.add_bot(await self._resolve(interaction, game), user, level)

        await self._run(interaction, work)

    @game.command(name="botseat", description="Hand an idle player's seat to a bot (host); they can take it back")
    @app_commands.describe(player="The seated player", level="How well the bot plays", game="The table")
    @app_commands.choices(level=[app_commands.Choice(name=lv, value=lv) for lv in LEVELS])
    async def botseat(
        self, interaction: discord.Interaction, player: discord.User, level: str = "standard", game: int | None = None
    ) -> None:
        """``/game botseat``: a bot plays the seat until its player uses ``/game reclaim``."""
        user = user_of(interaction)

        async def work() -> Notice:
            return await self.bot.service.seat_to_bot(await self._resolve(interaction, game), user, player.id, level)

        await self._run(interaction, work)

    @game.command(name="reclaim", description="Take back your seat from the bot that plays it")
    async def reclaim(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/game reclaim``: the player's seat comes back from its bot."""
        user = user_of(interaction)

        async def work() -> Notice:
            return await self.bot.service.reclaim_seat(await self._resolve(interaction, game), user)

        await self._run(interaction, work)

    @game.command(name="undo", description="Take back your own last step of this turn")
    async def undo(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/game undo``: the same as the board's Undo button."""
        user = user_of(interaction)

        async def work() -> Notice:
            return await self.bot.service.undo(await self._resolve(interaction, game), user)

        await self._run(interaction, work)

    skip.autocomplete("game")(game_id_autocomplete)
    substitute.autocomplete("game")(game_id_autocomplete)
    undo.autocomplete("game")(game_id_autocomplete)
    addbot.autocomplete("game")(game_id_autocomplete)
    botseat.autocomplete("game")(game_id_autocomplete)
    reclaim.autocomplete("game")(game_id_autocomplete)
    join.autocomplete("game")(game_id_autocomplete)
    leave.autocomplete("game")(game_id_autocomplete)
    start.autocomplete("game")(game_id_autocomplete)
    abandon.autocomplete("game")(game_id_autocomplete)
    end.autocomplete("game")(game_id_autocomplete)
    status.autocomplete("game")(game_id_autocomplete)
    show_log.autocomplete("game")(game_id_autocomplete)
    export.autocomplete("game")(game_id_autocomplete)
