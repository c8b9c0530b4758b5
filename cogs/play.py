"""Playing by buttons: clicks, private options, the snap race timer, /hand and reminders. Thin: the service
decides, this only acknowledges in time and posts."""

from __future__ import annotations

import asyncio
import io
import logging
import math
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.board import clip_message, hint_text, legend, message_link, plan_menu, reminder_dm, reminder_text
from cogs.components import ActionButton, prompt_view
from cogs.contexts import in_servers_and_dm
from cogs.dynamic_items import forget, known_custom_id
from cogs.errors import UNKNOWN_BUTTON, answer, one_round
from cogs.langs import reader_lang, reader_words
from cogs.pictures import PICTURES
from cogs.publish import message_nonce
from cogs.replies import Replies
from cogs.steps import show_step
from engine.core import Option, Prompt
from engine.msg import M
from service import MaybeTaken, Notice, NotTaken, ServiceError, StaleClick, Table, User
from service.limits import BOARD
from service.plans import JOIN, plans
from service.public_table import in_lang
from store import StoreBusy, StoreUnavailable
from words import words

if TYPE_CHECKING:
    from bot import TableBot

log = logging.getLogger(__name__)

DISCORD_EPOCH_MS = 1420070400000
NO_GAME_HERE = M(
    "table.err.no_game_here_cmd", "You have no running game in this channel; name one with the game option."
)


def click_time_ms(interaction: discord.Interaction) -> int:
    """The moment Discord stamped the click, from the interaction's snowflake id (not our arrival time)."""
    return (interaction.id >> 22) + DISCORD_EPOCH_MS


def from_reply(interaction: discord.Interaction) -> bool:
    """Whether a click came from an ephemeral reply of the bot's (the clicker's own), not from a board."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _chained(prompt: Prompt, kind: str) -> bool:
    """Whether a reply to a click of ``kind`` carries this question of the clicker's: not a race (the board holds
    it, for everyone at once); an optional question only when it was just answered (it stays in My options)."""
    return not prompt.race and (not prompt.optional or (prompt.secret and prompt.kind == kind))


def user_of(interaction: discord.Interaction) -> User:
    """The clicking user, with admin rights if they manage the server, and where they asked: a server, or a DM
    (where only their own seats count: ``Core.load_for``)."""
    perms = getattr(interaction.user, "guild_permissions", None)
    admin = bool(perms and (perms.administrator or perms.manage_guild))
    dm = interaction.guild_id is None
    return User(interaction.user.id, interaction.user.display_name, admin and not dm, interaction.guild_id, dm)


class PlayCog(commands.Cog, name="Play"):
    """Buttons, select menus and private views of running games."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.races: dict[tuple[int, int], asyncio.Task[None]] = {}
        self.reminder_task: asyncio.Task[None] | None = None
        self.race_sweep_task: asyncio.Task[None] | None = None
        #: each player's newest reply with buttons per game (issue 24: the chain)
        self.replies = Replies(bot.service.clock)

    async def cog_load(self) -> None:
        """Re-arm race timers left open by a restart (the service has re-derived them from the games); start
        the reminder loop."""
        for race in await self.bot.service.store.open_races():
            self.schedule_race(race.game_id, race.version, race.deadline)
        self.reminder_task = asyncio.create_task(self._reminder_loop())
        self.race_sweep_task = asyncio.create_task(self._race_sweep_loop())

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click on a component none of the bot's items answers (an old or foreign button) gets a polite
        ephemeral no instead of Discord's "This interaction failed"."""
        try:  # what is sent to this person later (DMs, the safe screen) is written in their language
            await self.bot.langs.remember(self.bot.service.store, interaction, self.bot.service.clock())
        except Exception:  # a language not remembered must not cost the click its answer
            log.warning("could not remember the language of user %s", interaction.user.id, exc_info=True)
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not known_custom_id(custom_id):
            await answer(interaction, UNKNOWN_BUTTON)

    async def cog_unload(self) -> None:
        """Stop timers."""
        for task in self.races.values():
            task.cancel()
        for loop in (self.reminder_task, self.race_sweep_task):
            if loop:
                loop.cancel()

    # --- clicks --------------------------------------------------------------------------------------------

    async def on_action(self, interaction: discord.Interaction, item: ActionButton) -> None:
        """A click on an option: confirm risky steps, then let the service decide, then post. A click in one of
        the clicker's own replies (issue 24) answers in that reply: its buttons give way to the next question."""
        if getattr(item, "from_select", False) and item.flag != "!":
            # a select menu's options carry no style: look it up
            item.risky = await self._is_risky(item, interaction)
        w = reader_words(interaction)
        in_reply = from_reply(interaction)
        if item.risky and item.flag != "!":
            confirm = discord.ui.View(timeout=None)
            label = item.item.label or ""
            yes = Option(item.option, M("table.button.yes", "Yes: {label}", label=label), style="danger")
            confirm.add_item(ActionButton(item.gid, item.version, item.kind, yes, "!", lang=w.lang))
            text = w(M("table.confirm", "{label}? This cannot be undone.", label=label))
            if in_reply:  # the chain goes on in the same reply
                await interaction.response.edit_message(content=text, view=confirm, attachments=[])
            else:
                await interaction.response.send_message(text, view=confirm, ephemeral=True)
            forget(confirm)
            return
        await interaction.response.defer()  # a quiet click: the board shows what it did
        service = self.bot.service
        try:
            notice = await service.act(
                item.gid, user_of(interaction), item.version, item.kind, item.option, click_time_ms(interaction)
            )
        except ServiceError as exc:
            if in_reply and isinstance(exc, StaleClick):  # an old question: its buttons cannot be used again
                await self.replies.settle(interaction, item.gid, None, None)
            await interaction.followup.send(w(exc.msg), ephemeral=True)
            return
        await self._reply(interaction, notice, item.kind, in_reply=in_reply)
        await self.bot.publisher.deliver(notice.table.id)

    async def _is_risky(self, item: ActionButton, interaction: discord.Interaction) -> bool:
        """Whether the option chosen in a select menu is a risky (irreversible) step (its label, for the
        confirmation, in the clicker's words)."""
        user_id = interaction.user.id
        try:
            table = await self.bot.service.load_for(item.gid, user_of(interaction))
        except ServiceError:
            return False  # the service refuses the click itself, with its reason
        seat = table.seat_of(user_id)
        w = reader_words(interaction, table)
        if JOIN in item.option and seat is not None:  # a plan: risky if an answer of it is
            menu = plan_menu(plans(table, seat), w.lang)
            for opt in menu[1] if menu is not None else []:
                if opt.id == item.option and opt.style == "danger":
                    item.item.label = opt.label[:80]
                    return True
            return False
        for prompt in table.prompts():
            if prompt.secret and prompt.seat != seat:
                continue  # another player's private question: its options are theirs alone
            opt = prompt.option(item.option) if prompt.kind == item.kind else None
            if opt is not None and opt.style == "danger":
                item.item.label = w.field(opt, "label")[:80]
                return True
        return False

    async def _reply(
        self, interaction: discord.Interaction, notice: Notice, kind: str = "", *, in_reply: bool = False
    ) -> None:
        """The clicker's private answer: what they may now see, and their next question if it is theirs (issue
        24: the question goes where the thumb is, so a turn of several steps is played in the newest reply; an
        optional private question, such as standing orders, only after answering it: it is always in My
        options). ``in_reply``: the click came from the clicker's own reply, which becomes this answer."""
        table = notice.table
        w = reader_words(interaction, table)
        uid = interaction.user.id
        lines = [w(notice.reply)] if notice.reply else []
        lines += [w(line) for line in notice.private.get(uid, [])]
        seat = table.seat_of(uid)
        mine = [p for p in table.prompts_for(seat) if _chained(p, kind)]
        mine = [p for p in mine if not p.optional] or mine
        undo = bool(mine) and await self.bot.service.can_undo(table, seat)
        view = self._private_components(table, seat, mine, w.lang, undo=undo) if mine else None
        for prompt in mine[:1]:
            lines += [w.field(prompt, "text"), *legend(prompt.options, w)]
        if in_reply:
            await self.replies.settle(interaction, table.id, clip_message("\n".join(lines)) if lines else None, view)
        elif lines:
            await self.replies.send(interaction, table.id, clip_message("\n".join(lines)), view)
        else:  # nothing private to say (no "Done." clutter); the move made an older reply's buttons old
            await self.replies.drop(table.id, uid)

    async def on_undo(self, interaction: discord.Interaction, gid: int, version: int) -> None:
        """ "Undo my last step": the service checks it is the clicker's own step of this turn (quiet: the board
        shows the undo)."""
        await interaction.response.defer()
        in_reply = from_reply(interaction)
        try:
            notice = await self.bot.service.undo(gid, user_of(interaction), version)
        except ServiceError as exc:
            if in_reply and isinstance(exc, StaleClick):
                await self.replies.settle(interaction, gid, None, None)
            await interaction.followup.send(reader_words(interaction)(exc.msg), ephemeral=True)
            return
        await self._reply(interaction, notice, in_reply=in_reply)
        await self.bot.publisher.deliver(notice.table.id)

    @staticmethod
    def _private_components(
        table: Table,
        seat: int | None,
        mine: list[Prompt],
        lang: str | None = None,
        undo: bool = False,
        opened: dict[str, str] | None = None,
    ) -> discord.ui.View | None:
        """The clicker's questions as components (in their language); a group of questions (a Mob War district)
        also as one menu of plans that decides them all at once; ``undo``: with "Undo my last step"; ``opened``:
        the step opened of a question asked in two steps, by its kind."""
        menu = plan_menu(plans(table, seat), lang) if seat is not None else None
        return prompt_view(
            table.id, table.version, mine, mine_button=False, undo_button=undo, plans=menu, lang=lang, opened=opened
        )

    async def on_step(self, interaction: discord.Interaction, gid: int, kind: str, step: str | None) -> None:
        """A step of a question asked in two steps (``cogs.steps``)."""
        await show_step(self, interaction, user_of(interaction), from_reply(interaction), gid, kind, step)

    async def on_mine(self, interaction: discord.Interaction, gid: int) -> None:
        """The clicker's own questions and private note, ephemerally."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._send_private_view(interaction, gid)

    async def _send_private_view(self, interaction: discord.Interaction, gid: int) -> None:
        try:
            # issue 23: a player whose seat a bot plays for them is back with this click
            table, back = await self.bot.service.come_back(gid, user_of(interaction))
        except ServiceError as exc:
            await interaction.followup.send(reader_words(interaction)(exc.msg), ephemeral=True)
            return
        if back is not None:
            await self.bot.publisher.deliver(gid)
        w = reader_words(interaction, table)
        seat = table.seat_of(interaction.user.id)
        if table.state is None:
            await interaction.followup.send(
                w(M("table.reply.not_started", "Game #{game} has not started yet.", game=gid)), ephemeral=True
            )
            return
        if seat is None:
            text = M("table.reply.watch", "You are not seated in game #{game}; you can watch the board.", game=gid)
            await interaction.followup.send(w(text), ephemeral=True)
            return
        view = in_lang(table.view(seat), w.lang)  # a private note is in its reader's language
        assert view is not None
        mine = table.prompts_for(seat)
        lines = [PICTURES[table.game.name].private_note(view)]
        if back is not None:
            lines.insert(0, w(back.reply))
        for p in mine:
            lines += [w.field(p, "text"), *legend(p.options, w)]
        if not mine:
            lines.append(w(M("table.reply.nothing", "Nothing to decide for you right now.")))
        elif (at := await self.bot.service.deadline_of(table, interaction.user.id)) is not None:
            # issue 23: every message that asks a player to act says when their time runs out
            lines.append(w(M("table.remind.deadline", "-# Your time runs out <t:{at}:R>.", at=math.ceil(at))))
        components = self._private_components(table, seat, mine, w.lang) if mine else None
        await self.replies.send(interaction, gid, clip_message("\n".join(lines)), components)

    async def _game_named_or_here(self, interaction: discord.Interaction, game: int | None) -> int | None:
        """The game a command names, else the clicker's game in this channel (``None``: none)."""
        return game or await self.bot.get_cog("Lobby").my_game_here(interaction)  # type: ignore[union-attr]

    @in_servers_and_dm()
    @app_commands.command(name="hand", description="See privately what you may see in a game, and your options")
    @app_commands.describe(game="The game (leave empty for your game in this channel)")
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/hand``: the private view on demand."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        gid = await self._game_named_or_here(interaction, game)
        if gid is None:
            await interaction.followup.send(reader_words(interaction)(NO_GAME_HERE), ephemeral=True)
            return
        await self._send_private_view(interaction, gid)

    @in_servers_and_dm()
    @app_commands.command(name="hint", description="Privately: what the standard bot would do in your place now")
    @app_commands.describe(game="The game (leave empty for your game in this channel)")
    async def hint(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/hint``: one private line, only for the player whose turn it is (and only if the table allows)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        gid = await self._game_named_or_here(interaction, game)
        w = reader_words(interaction)
        if gid is None:
            await interaction.followup.send(w(NO_GAME_HERE), ephemeral=True)
            return
        try:
            table = await self.bot.service.load_for(gid, user_of(interaction))
            lang = reader_lang(interaction, table)
            line = hint_text(await self.bot.service.hint(gid, user_of(interaction)), lang, board_lang=table.lang)
            board = await self.bot.service.store.get_message(gid, "board")
            if board is not None:  # issue 24: the hint links the live question (its buttons are there)
                link = message_link(table.row.guild_id, board.channel_id, board.message_id)
                line += "\n" + words(lang)(M("table.hint.question", "-# The question: {link}", link=link))
        except ServiceError as exc:
            line = w(exc.msg)
        await interaction.followup.send(clip_message(line), ephemeral=True)

    @in_servers_and_dm()
    @app_commands.command(name="board", description="See one player's board privately (yours shows your secrets)")
    @app_commands.describe(player="Whose board (leave empty for yours)", game="The game (empty: yours here)")
    async def board(
        self, interaction: discord.Interaction, player: discord.User | None = None, game: int | None = None
    ) -> None:
        """``/board``: a player's board as a picture, ephemerally; only your own board shows your safe and hand."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        gid = await self._game_named_or_here(interaction, game)
        try:
            if gid is None:
                raise ServiceError(NO_GAME_HERE)
            table = await self.bot.service.load_for(gid, user_of(interaction))
        except ServiceError as exc:
            await interaction.followup.send(reader_words(interaction)(exc.msg), ephemeral=True)
            return
        w = reader_words(interaction, table)
        pics = PICTURES[table.game.name]
        target = (player or interaction.user).id
        seat = table.seat_of(target)
        if pics.player_board is None or table.state is None or seat is None:
            text = M(
                "table.reply.no_board",
                "There is no player board to show: the game has not started, has none, or that player is not seated.",
            )
            await interaction.followup.send(w(text), ephemeral=True)
            return
        try:  # a picture per user per cooldown (issue 22), after every other check
            await self.bot.service.user_cooldown(BOARD, user_of(interaction))
        except ServiceError as exc:
            await interaction.followup.send(w(exc.msg), ephemeral=True)
            return
        mine = table.seat_of(interaction.user.id)
        view = in_lang(table.view(seat if mine == seat else None), w.lang)  # an ephemeral picture: the reader's
        png = await self.bot.renderer.render(pics.player_board, view, seat)  # type: ignore[arg-type]
        await interaction.followup.send(
            w(M("table.reply.board", "{name}'s board (game #{game})", name=table.name_of(seat), game=table.id)),
            file=discord.File(io.BytesIO(png), filename="player.png"),
            ephemeral=True,
        )

    # --- races ---------------------------------------------------------------------------------------------

    def schedule_race(self, gid: int, version: int, deadline: float) -> None:
        """Close a race window at its deadline (at once if it is already past, e.g. after a restart). A window
        whose time has not started (its board is being posted) gets its timer when the publisher starts it."""
        if math.isinf(deadline):
            return
        key = (gid, version)
        if key not in self.races or self.races[key].done():
            self.races[key] = asyncio.create_task(self._close_race_later(gid, version, deadline))

    async def close_due_races(self, grace: float = 0.0) -> int:
        """Close every race whose window passed more than ``grace`` seconds ago on the service's clock; returns
        how many this process closed."""
        closed = 0
        for race in await self.bot.service.store.open_races():
            if race.deadline + grace <= self.bot.service.clock():
                closed += await self._close_race(race.game_id, race.version)
        return closed

    async def _race_sweep_loop(self) -> None:
        """Close windows that no timer of this process closes: those armed by a process that died (or by one
        running other shards). Several processes sweeping is safe: each window closes once (the game lock and
        the version check in the store), and the process that armed a window closes it on time before this
        sweep's grace runs out."""
        await self.bot.wait_until_ready()
        grace = self.bot.settings.race_sweep_s
        while True:
            await one_round("closing overdue race windows", lambda: self.close_due_races(grace=grace), log)
            await asyncio.sleep(grace)

    async def _close_race(self, gid: int, version: int) -> int:
        try:
            notice = await self.bot.service.close_race(gid, version)
        except StaleClick:
            return 0  # another process closed it (or moved the game) first
        except (StoreUnavailable, StoreBusy, NotTaken, MaybeTaken) as exc:
            # the database failed: a window still open is closed by the race sweep once it answers again
            log.warning(
                "closing the race of game %s at version %s failed (%s: %s)", gid, version, type(exc).__name__, exc
            )
            return 0
        if notice is None:
            return 0
        await self.bot.publisher.deliver(gid)
        return 1

    async def _close_race_later(self, gid: int, version: int, deadline: float) -> None:
        try:
            await asyncio.sleep(max(0.0, deadline - self.bot.service.clock()))
            await self._close_race(gid, version)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("closing the race of game %s at version %s failed", gid, version)
        finally:
            self.races.pop((gid, version), None)

    # --- reminders -----------------------------------------------------------------------------------------

    async def _reminder_loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            await one_round("acting on deadlines", self.fire_deadlines, log)
            await one_round("sending reminders", self.send_reminders, log)
            await one_round("closing old lobbies", self.expire_lobbies, log)
            await asyncio.sleep(self.bot.settings.reminder_poll_s)

    async def fire_deadlines(self) -> int:
        """Act on the due deadlines (issue 23: the table's ``on_timeout``; the service claims each in the
        database, so with several processes each fires once) and deliver what changed; returns how many games
        changed."""
        changed = await self.bot.service.fire_deadlines()
        for gid in changed:
            await self.bot.publisher.deliver(gid)
        return len(changed)

    async def expire_lobbies(self) -> int:
        """Close the lobbies that were never started in time (the service decides, in the database, so with
        several processes each closes once) and post why in each one's thread; returns how many this process
        closed."""
        closed = await self.bot.service.expire_lobbies()
        for gid in closed:
            await self.bot.publisher.deliver(gid)
        return len(closed)

    async def send_reminders(self) -> int:
        """Ping every player whose reminder is due; returns how many were sent. A reminder is counted only
        once it was posted (its nonce keeps a retry after a crash from posting it twice)."""
        sent = 0
        service = self.bot.service
        for table, user_id, count, since in await service.due_reminders():
            channel = await self.bot.publisher.channel(table.row.table_channel)
            board = await service.store.get_message(table.id, "board")
            link = message_link(table.row.guild_id, board.channel_id, board.message_id) if board else ""
            idle = (service.clock() - (table.row.last_move_at or table.row.updated_at)) / 3600
            pt = await service.public(table)
            told = (await service.told_by([user_id]))[user_id]  # issue 23: ping, dm or both
            if told != "dm":
                await self.bot.publisher.post(  # at the thread's pace, as every post of the table
                    channel,
                    reminder_text(pt, user_id, count, idle, link),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
                    # this wait's reminder number ``count``: a retry after a crash is refused by Discord, a later
                    # wait of the same player (another ``since``) is a message of its own
                    nonce=message_nonce("r", table.id, user_id, since, count),
                )
            if told != "ping":
                lines = [reminder_dm(pt, user_id, count, link)]
                await self.bot.publisher.tell(
                    table, user_id, lines, nonce=message_nonce("rd", table.id, user_id, since, count)
                )
            await service.reminder_sent(table, user_id)
            sent += 1
        return sent
