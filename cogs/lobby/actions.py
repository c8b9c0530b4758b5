"""The lobby's work behind ``/game`` and its buttons: the lobby message and the table's thread, which game a
command means, running a service call and answering it, the buttons' handlers, and the log's pages."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

import discord

from cogs.board import clip_message, message_link, thread_name
from cogs.dynamic_items import forget
from cogs.langs import reader_lang, reader_words
from cogs.play import user_of
from cogs.table_buttons import LogButton, lobby_view
from engine.msg import M
from service import Notice, ServiceError, Table, TableService, User
from service.access import SEAT, check_id
from words import words

# the package's logger: records keep the name they had before the package was split
log = logging.getLogger("cogs.lobby")
#: Discord's longest auto-archive (7 days): a game by post may rest for days.
THREAD_ARCHIVE_MINUTES = 10080


#: The refusal when a command names no game and the channel has several (or none).
WHICH_GAME = M(
    "table.err.which_game", "Which game? Several (or no) games are open here; name one with the game option."
)

#: The lobby's seat actions, by button and command name.
LOBBY_ACTIONS: dict[str, Callable[[TableService, int, User], Awaitable[Notice]]] = {
    "join": TableService.join,
    "leave": TableService.leave,
    "start": TableService.start,
    "abandon": TableService.abandon,
    # the lobby's button seats a standard bot; /game addbot chooses the level
    "addbot": lambda service, gid, user: service.add_bot(gid, user, "standard"),
}


class LobbyActions:
    """What :class:`~cogs.lobby.LobbyCog` does for its commands and buttons, a mixin of it: it uses the cog's
    ``bot`` (set up by its ``__init__``).
    """

    def lobby_text(self, table: Table, lang: str | None = None, *, result: str | None = None) -> str:
        """The lobby message, in ``lang`` (default: the table's language); ``result``: the link to a finished
        game's final message (issue 24: the lobby says the game ended and links its result)."""
        w = words(lang or table.lang)
        g = table.game
        seated = "\n".join(f"{s.seat + 1}. {s.name}" for s in table.seats) or w(M("table.lobby.nobody", "nobody yet"))
        options = json.loads(table.row.options)
        # options are what the host typed (code, the same in every language)
        shown = ", ".join(f"`{k}={v}`" for k, v in options.items()) or w(M("table.lobby.defaults", "defaults"))
        status = {
            "lobby": M("table.lobby.status.lobby", "open for players"),
            "active": M("table.lobby.status.active", "started"),
            "abandoned": M("table.lobby.status.abandoned", "abandoned"),
            "finished": M("table.lobby.status.finished", "over"),
            "ended": M("table.lobby.status.ended", "ended by agreement"),
        }
        text = M(
            "table.lobby.text",
            "**Game #{game} · {title}** ({status})\nHost: <@{host}> · {low}-{high} players · options: {options}\n"
            "Seated:\n{seated}",
            game=table.id,
            title=g.title,
            status=status.get(table.row.status, table.row.status),
            host=table.row.host_id,
            low=g.min_players,
            high=g.max_players,
            options=shown,
            seated=seated,
        )
        if result:
            text = M("table.lobby.with_result", "{lobby}\nThe result: {link}", lobby=text, link=result)
        return clip_message(w(text))

    async def update_lobby(self, table: Table, interaction: discord.Interaction | None = None) -> None:
        """Post or edit the lobby message."""
        store = self.bot.service.store
        row = await store.get_message(table.id, "lobby")
        view = lobby_view(table.id, table.lang) if table.row.status == "lobby" else None
        text = self.lobby_text(table)
        none = discord.AllowedMentions.none()
        if row is not None:
            channel = await self.bot.publisher.channel(row.channel_id)
            await channel.get_partial_message(row.message_id).edit(  # type: ignore[attr-defined]
                content=text, view=view, allowed_mentions=none
            )
            return
        channel = await self.bot.publisher.channel(table.row.channel_id)
        message = await channel.send(text, view=view, allowed_mentions=none)
        await store.set_message(table.id, "lobby", message.channel.id, message.id)
        await self._open_thread(table, message)

    async def _open_thread(self, table: Table, lobby: discord.Message) -> None:
        """The table's own public thread, started from the lobby message, kept open as long as Discord allows
        (a post re-opens it when it was archived). Without the right to make threads, or when the server turned
        threads off, the game is played in the channel."""
        service = self.bot.service
        if not await service.threads_wanted(table.row.guild_id):
            return
        names = [s.name for s in table.seats]
        try:
            thread = await lobby.create_thread(
                name=thread_name(table.game.title, table.id, names, table.lang),
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as exc:  # Forbidden, or a channel type without threads
            log.info("game %s plays in its channel: no thread (%s)", table.id, exc)
            return
        await service.set_thread(table.id, thread.id)

    async def rename_thread(self, table: Table) -> None:
        """The thread's name once the players are known (at the start)."""
        if not table.row.thread_id:
            return
        name = thread_name(table.game.title, table.id, [s.name for s in table.seats], table.lang)
        with contextlib.suppress(discord.HTTPException):
            thread = self.bot.get_channel(table.row.thread_id) or await self.bot.fetch_channel(table.row.thread_id)
            if getattr(thread, "name", name) != name:
                await thread.edit(name=name)  # type: ignore[union-attr]

    async def my_game_here(self, interaction: discord.Interaction) -> int | None:
        """The user's single open game in this channel, if there is exactly one; in a DM, the user's single
        running game (a DM acts only on the user's own seats)."""
        if interaction.guild_id is None:
            mine = [t for t in await self.bot.service.games_of_user(interaction.user.id) if t.row.status == "active"]
            return mine[0].id if len(mine) == 1 else None
        tables = await self.bot.service.list_games(interaction.guild_id, interaction.channel_id)
        mine = [t for t in tables if t.seat_of(interaction.user.id) is not None]
        if len(mine) == 1:
            return mine[0].id
        if not mine and len(tables) == 1:
            return tables[0].id
        if not tables:  # issue 24: in a finished (or ended) game's own thread, that game
            done = await self.bot.service.list_games(interaction.guild_id, interaction.channel_id, open_only=False)
            own = [t for t in done if t.row.thread_id == interaction.channel_id]
            if len(own) == 1:
                return own[0].id
        return None

    async def _resolve(self, interaction: discord.Interaction, game_id: int | None) -> int:
        """The game a command names, else the user's game here; the service checks where it may be asked
        (``Core.load_for``: this server's games, or in a DM the user's own seats)."""
        gid = check_id(game_id) if game_id is not None else await self.my_game_here(interaction)
        if gid is None:
            raise ServiceError(WHICH_GAME)
        return gid

    async def _run(self, interaction: discord.Interaction, work: Callable[[], Awaitable[Notice]]) -> None:
        """Acknowledge at once, run the service call, answer privately, post publicly."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            notice: Notice = await work()
        except ServiceError as exc:
            await interaction.followup.send(reader_words(interaction)(exc.msg), ephemeral=True)
            return
        w = reader_words(interaction, notice.table)
        await interaction.followup.send(w(notice.reply or M("table.reply.done", "Done.")), ephemeral=True)
        await self.update_lobby(notice.table)
        if notice.table.row.status != "lobby":
            await self.bot.publisher.deliver(notice.table.id)

    async def on_rematch(self, interaction: discord.Interaction, gid: int) -> None:
        """**Rematch** (issue 26): open the rematch (or join it); the other players are named in its thread, where
        the lobby's Join button is."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            notice = await self.bot.service.rematch(gid, user_of(interaction))
        except ServiceError as exc:
            await interaction.followup.send(reader_words(interaction)(exc.msg), ephemeral=True)
            return
        w = reader_words(interaction, notice.table)
        await interaction.followup.send(w(notice.reply or M("table.reply.done", "Done.")), ephemeral=True)
        await self.update_lobby(notice.table)
        if not notice.ping:
            return
        table = await self.bot.service.load(notice.table.id)  # its thread, if the lobby opened one
        row = await self.bot.service.store.get_message(table.id, "lobby")
        link = message_link(table.row.guild_id, row.channel_id, row.message_id) if row else ""
        said = words(table.lang)(
            M(
                "table.lobby.rematch_invite",
                "Rematch of game #{old}: {names}, your seats are waiting; join with the button: {link}",
                old=gid,
                names=" ".join(f"<@{u}>" for u in notice.ping),
                link=link,
            )
        )
        channel = await self.bot.publisher.channel(table.row.table_channel)
        await channel.send(
            said, allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in notice.ping])
        )

    async def on_offer(self, interaction: discord.Interaction, gid: int, seat: int, action: str) -> None:
        """A seat offer's buttons: the invited player takes the seat, its player gives it up or keeps it."""
        user = user_of(interaction)
        service = self.bot.service

        async def work() -> Notice:
            if action == "take":
                return await service.take_seat(gid, user, seat)
            if action == "give":
                return await service.give_seat(gid, user, seat)
            return await service.refuse_seat(gid, user, seat)

        await self._run(interaction, work)

    async def on_end_vote(self, interaction: discord.Interaction, gid: int, opened: int, action: str) -> None:
        """A vote to end the game by agreement: its Agree and Refuse buttons (issue 23)."""
        user = user_of(interaction)
        service = self.bot.service

        async def work() -> Notice:
            if action == "agree":
                return await service.end_vote(gid, user, opened)
            return await service.refuse_end(gid, user, opened)

        await self._run(interaction, work)

    async def on_skip(self, interaction: discord.Interaction, gid: int, version: int, seat: int) -> None:
        """The confirmed skip: only the turn of the player the board waited for at ``version``."""
        user = user_of(interaction)
        await self._run(interaction, lambda: self.bot.service.skip(gid, user, version, seat))

    async def on_lobby_button(self, interaction: discord.Interaction, gid: int, action: str) -> None:
        """Join / leave / start / abandon from the lobby message."""
        if action not in LOBBY_ACTIONS:
            text = reader_words(interaction)(M("table.err.button_unused", "That button is no longer in use."))
            await interaction.response.send_message(text, ephemeral=True)
            return
        await self._lobby_action(interaction, gid, action)

    async def _lobby_action(self, interaction: discord.Interaction, game: int | None, action: str) -> None:
        """One of the lobby's seat actions, from a button or a command."""
        user = user_of(interaction)

        async def work() -> Notice:
            return await LOBBY_ACTIONS[action](self.bot.service, await self._resolve(interaction, game), user)

        await self._run(interaction, work)
        if action == "start" and (gid := game or await self.my_game_here(interaction)) is not None:
            with contextlib.suppress(ServiceError):
                await self.rename_thread(await self.bot.service.load(gid))

    async def _load(self, interaction: discord.Interaction, game: int | None, scope: str = SEAT) -> Table | None:
        """Defer, then the named (or only) game here, if it may be asked about from here (``scope``: what a
        seated player may do from a DM too, or only the game's own server); answers the error itself and
        returns ``None``."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            return await self.bot.service.load_for(await self._resolve(interaction, game), user_of(interaction), scope)
        except ServiceError as exc:
            await interaction.followup.send(reader_words(interaction)(exc.msg), ephemeral=True)
            return None

    async def log_message(
        self, table: Table, page: int | None, lang: str | None = None
    ) -> tuple[str, discord.ui.View | None]:
        """One page of the log in ``lang`` (the reader's), with buttons to the older and newer pages."""
        w = words(lang)
        lines, shown, pages = await self.bot.service.log_page(table, page, lang=w.lang)
        head = w(
            M(
                "table.log.head",
                "**Game #{game} · {title}** · log, page {page} of {pages}",
                game=table.id,
                title=table.game.title,
                page=shown + 1,
                pages=pages,
            )
        )
        text = clip_message(head + "\n" + ("\n".join(lines) or w(M("table.log.empty", "No moves yet."))))
        view = discord.ui.View(timeout=None)
        if shown > 0:
            view.add_item(LogButton(table.id, shown - 1, w(M("table.button.older", "Older"))))
        if shown < pages - 1:
            view.add_item(LogButton(table.id, shown + 1, w(M("table.button.newer", "Newer"))))
        return text, view if view.children else None

    async def on_log_page(self, interaction: discord.Interaction, gid: int, page: int) -> None:
        """A log page's Older / Newer button: the same ephemeral message shows the other page."""
        try:
            table = await self.bot.service.load_for(gid, user_of(interaction))
        except ServiceError as exc:
            await interaction.response.send_message(reader_words(interaction)(exc.msg), ephemeral=True)
            return
        text, view = await self.log_message(table, page, reader_lang(interaction, table))
        await interaction.response.edit_message(content=text, view=view)
        forget(view)
