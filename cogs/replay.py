"""``/game replay`` (issue 26): one message with the board's pictures at a step, that step's story lines, buttons
⏮ ◀ ▶ ⏭ and a menu of rounds (and Acts); a click edits the same message. Ephemeral by default; ``public:true``
posts it in the game's thread to share it (anyone's click then moves it).

The steps are rebuilt by the service from the record (``service.replay``); the pictures are drawn off the event
loop and kept in the store's cache, the steps used last (a step's pictures never change once the table posted
it: the record only grows). A step's pictures outline what changed as the table's did when it posted that step.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs.board import clip_message
from cogs.langs import reader_lang
from cogs.pictures import PICTURES
from cogs.play import user_of
from cogs.replay_buttons import replay_view
from engine.msg import M
from render import story
from service import ServiceError
from service.replay import ReplayStep
from words import words

if TYPE_CHECKING:
    from bot import TableBot

#: Story lines shown under a step (a Mob War's step can tell many).
LINES_SHOWN = 14


def replay_text(r: ReplayStep, lang: str) -> str:
    """A step's words: the game, the step of how many, and the story lines that step made."""
    w = words(lang)
    head = M(
        "table.replay.head",
        "**Replay · game #{game} {title}** · step {step} of {last}",
        game=r.table.id,
        title=r.table.game.title,
        step=r.step,
        last=r.last,
    )
    lines = [w(head)]
    said = [story.said(e, lang) for e in r.events]
    if r.step == 0:
        said = [w(M("table.replay.dealt", "The board as it was dealt."))]
    elif not said:
        said = [w(M("table.replay.quiet", "A step the log does not tell (a private choice)."))]
    lines += [f"-# {line}" for line in said[:LINES_SHOWN]]
    if len(said) > LINES_SHOWN:
        lines.append(w(M("table.replay.more", "-# … and {n} more lines (/game log)", n=len(said) - LINES_SHOWN)))
    if r.revealed:  # the game is over and its table shows what was hidden (reveal_after)
        lines.append(w(M("table.replay.revealed", "**Hidden then, shown now the game is over:**")))
        lines += [f"-# {w(line)}" for line in r.revealed]
    return clip_message("\n".join(lines))


class ReplayCog(commands.Cog, name="Replay"):
    """The replay's message, pictures and clicks."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def pictures(self, r: ReplayStep, lang: str) -> list[tuple[str, bytes]]:
        """A step's public pictures, outlined as the table outlined them when it posted that step; drawn once and
        then kept in the store's cache (``service.replay.REPLAY_STORED`` steps)."""
        service = self.bot.service
        cached = await service.cached_replay_pictures(r.table.id, r.step, lang)
        if cached is not None:
            return cached
        pics = PICTURES[r.table.game.name]
        view = {**r.view, "lang": lang}  # the reader's language (a shared replay: the table's)
        if pics.pictures is not None and pics.marks is not None:
            before = pics.marks(r.before) if r.before is not None else None
            pngs = await self.bot.renderer.render(pics.pictures, view, before)
        else:
            pngs = [("table.png", await self.bot.renderer.render(pics.table, view))]
        await service.keep_replay_pictures(r, lang, pngs)
        return pngs

    async def message(
        self, interaction: discord.Interaction, gid: int, step: int | None, public: bool = False
    ) -> dict[str, Any]:
        """The replay message's fields at ``step``, in the reader's language (``public``: the table's); raises
        ``ServiceError``."""
        r = await self.bot.service.replay_step(gid, user_of(interaction), step)
        lang = r.table.lang if public else reader_lang(interaction, r.table)
        files = [discord.File(io.BytesIO(png), filename=name) for name, png in await self.pictures(r, lang)]
        return {"content": replay_text(r, lang), "attachments": files, "view": replay_view(r, lang)}

    async def show(self, interaction: discord.Interaction, gid: int, step: int | None, public: bool) -> None:
        """``/game replay``: a new message, ephemeral unless ``public``."""
        await interaction.response.defer(ephemeral=not public, thinking=True)
        try:
            fields = await self.message(interaction, gid, step, public)
        except ServiceError as exc:
            text = words(reader_lang(interaction))(exc.msg)
            await interaction.followup.send(text, ephemeral=True)
            return
        await interaction.followup.send(
            fields["content"],
            files=fields["attachments"],
            view=fields["view"],
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def on_step(self, interaction: discord.Interaction, gid: int, step: int) -> None:
        """A button or the menu: the same message shows the step."""
        await interaction.response.defer()
        shared = not (interaction.message is not None and interaction.message.flags.ephemeral)
        try:
            fields = await self.message(interaction, gid, step, shared)
        except ServiceError as exc:
            await interaction.followup.send(words(reader_lang(interaction))(exc.msg), ephemeral=True)
            return
        await interaction.edit_original_response(**fields, allowed_mentions=discord.AllowedMentions.none())
