"""Each player's reply chain (issue 24, the question is where the thumb is): the bot's private answer to a click
carries the clicker's next question; a click in that reply turns it into the next answer; and a player has at most
one reply with buttons per game, the newest: an older one loses its buttons once a move made them old."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import discord

from cogs.dynamic_items import forget

log = logging.getLogger(__name__)

#: Discord lets an interaction's token edit its replies for 15 minutes; a little less, to stay clear of the edge
TOKEN_LIFE_S = 15 * 60 - 30


@dataclass(frozen=True)
class _Reply:
    webhook: discord.Webhook  # the interaction webhook that may edit the reply
    message_id: int
    until: float  # the service clock's time after which the token is dead


class Replies:
    """The newest reply with buttons of each (game, player), kept in memory for the life of its token (after a
    restart an older reply's buttons are refused politely as old: the service checks every click's version)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._newest: dict[tuple[int, int], _Reply] = {}

    def __len__(self) -> int:
        return len(self._newest)

    async def send(self, interaction: discord.Interaction, gid: int, text: str, view: discord.ui.View | None) -> None:
        """A new private reply to the clicker about game ``gid``; with buttons, it is their chain from now on."""
        uid = interaction.user.id
        await self.drop(gid, uid)
        if view is None:
            await interaction.followup.send(text, ephemeral=True)
            return
        message = await interaction.followup.send(text, ephemeral=True, view=view, wait=True)
        forget(view)
        self._keep(gid, uid, interaction.followup, message.id)

    async def settle(
        self, interaction: discord.Interaction, gid: int, text: str | None, view: discord.ui.View | None
    ) -> None:
        """The reply that was clicked becomes the answer: new words (``None``: its words kept) and the next
        question's buttons, or none (a used reply keeps no buttons that could be pressed again)."""
        uid = interaction.user.id
        message_id = interaction.message.id if interaction.message is not None else 0
        await self.drop(gid, uid, keep=message_id)
        try:
            if text is None:
                await interaction.edit_original_response(view=view)
            else:
                await interaction.edit_original_response(content=text, view=view, attachments=[])
        except discord.HTTPException as exc:  # the reply's token is dead: its buttons are refused as old
            log.info("could not update the reply of game click %s: %s", interaction.id, exc)
            return
        forget(view)
        if view is not None:
            self._keep(gid, uid, interaction.followup, message_id)
        elif (kept := self._newest.get((gid, uid))) is not None and kept.message_id == message_id:
            del self._newest[(gid, uid)]

    async def drop(self, gid: int, uid: int, keep: int | None = None) -> None:
        """The player's newest reply in game ``gid`` (unless it is message ``keep``) loses its buttons: a move
        made them old."""
        old = self._newest.pop((gid, uid), None)
        if old is None or old.message_id == keep or old.until < self._clock():
            return
        try:
            await old.webhook.edit_message(old.message_id, view=None)
        except discord.HTTPException as exc:  # gone or its token dead: its buttons are refused as old anyway
            log.info("could not take the buttons off an older reply in game %s: %s", gid, exc)

    def _keep(self, gid: int, uid: int, webhook: discord.Webhook, message_id: int) -> None:
        now = self._clock()
        for key in [k for k, r in self._newest.items() if r.until < now]:  # dead tokens: nothing to edit with
            del self._newest[key]
        self._newest[(gid, uid)] = _Reply(webhook, message_id, now + TOKEN_LIFE_S)
