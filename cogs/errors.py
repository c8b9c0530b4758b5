"""One way every failure reaches the person who clicked or typed: an ephemeral answer within Discord's 3
seconds, and the traceback in the log. Nothing is changed by a request that fails this way (the service
commits a move in one transaction, or not at all)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from cogs.langs import reader_words
from engine.msg import M

log = logging.getLogger(__name__)

FAILED = M("table.err.failed", "Something went wrong; nothing was changed. The error was logged.")
UNKNOWN_BUTTON = M("table.err.unknown_button", "This button is no longer valid; use the latest board.")

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


async def answer(interaction: discord.Interaction, text: Any) -> None:
    """An ephemeral answer, whether or not the interaction was already acknowledged; a message is shown in the
    reader's language."""
    text = reader_words(interaction)(text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)


async def report(interaction: discord.Interaction, what: str) -> None:
    """Log the exception being handled and tell the user that nothing was changed."""
    log.exception("%s failed (interaction %s)", what, interaction.id)
    await answer(interaction, FAILED)


def guarded(fn: F) -> F:
    """Wrap a component callback ``(self, interaction, ...)``: any exception is logged and answered."""

    @functools.wraps(fn)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any) -> Any:
        try:
            return await fn(self, interaction, *args, **kwargs)
        except Exception:
            if interaction.client.is_closed():  # shutting down mid-request: the store keeps what was committed
                log.info("interaction %s cut short by the bot stopping", interaction.id, exc_info=True)
                return None
            await report(interaction, getattr(fn, "__qualname__", "a button"))
            return None

    return wrapper  # type: ignore[return-value]
