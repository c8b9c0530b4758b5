"""Questions asked in two steps (``Prompt.steps``, e.g. Omerta's standing orders: which slot, then which Bottle):
choosing a part, or going back from it, answers nothing; the clicker's reply shows the part's options in place of
the first step's menu."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from cogs.board import clip_message
from cogs.langs import reader_words
from engine.msg import M
from service import ServiceError, User

if TYPE_CHECKING:
    from cogs.play import PlayCog

#: a two-step question's part, or the question, is no longer open (the table moved on)
CHOICE_GONE = M(
    "table.err.choice_gone",
    "That choice is no longer open; open **My options** again to see the current ones.",
)


def _custom_ids(message: discord.Message | None) -> list[str]:
    """Every custom id of a message's components."""
    out: list[str] = []
    stack = list(message.components) if message is not None else []
    while stack:
        c = stack.pop()
        if cid := getattr(c, "custom_id", None):
            out.append(cid)
        stack += getattr(c, "children", [])
    return out


async def show_step(
    play: PlayCog,
    interaction: discord.Interaction,
    user: User,
    in_reply: bool,
    gid: int,
    kind: str,
    step: str | None,
) -> None:
    """A step of a question asked in two steps (``Prompt.steps``): ``step`` chosen (``None``: back to the
    first step). Nothing is answered: the clicker's reply shows that step's options in place of the first
    step's menu (``in_reply``: the click came from that reply; a menu on a board opens a reply of its own). Built
    from the table as it is now, so the second step offers only what is open now."""
    await interaction.response.defer(ephemeral=True, thinking=not in_reply)
    w = reader_words(interaction)
    try:
        table = await play.bot.service.load_for(gid, user)
    except ServiceError as exc:
        await interaction.followup.send(w(exc.msg), ephemeral=True)
        return
    w = reader_words(interaction, table)
    seat = table.seat_of(interaction.user.id)
    mine = table.prompts_for(seat) if seat is not None and table.state is not None else []
    prompt = next((p for p in mine if p.kind == kind and p.steps), None)
    if prompt is None or (step is not None and not prompt.step_options(step)):
        await interaction.followup.send(w(CHOICE_GONE), ephemeral=True)
        return
    opened = {kind: step} if step is not None else None
    if not in_reply:
        view = play._private_components(table, seat, [prompt], w.lang, opened=opened)
        await play.replies.send(interaction, gid, clip_message(w.field(prompt, "text")), view)
        return
    # the reply keeps its words and its other questions (those it showed that are still open)
    shown = {cid.split("|")[3] for cid in _custom_ids(interaction.message) if cid[:3] in ("pl|", "ps|", "pt|")}
    undo = any(cid.startswith("un|") for cid in _custom_ids(interaction.message))
    undo = undo and await play.bot.service.can_undo(table, seat)
    view = play._private_components(table, seat, [p for p in mine if p.kind in shown | {kind}], w.lang, undo, opened)
    await play.replies.settle(interaction, gid, None, view)
