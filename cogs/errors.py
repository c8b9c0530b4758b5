"""One way every failure reaches the person who clicked or typed: an ephemeral answer within Discord's 3
seconds, and the traceback in the log. What is true is the service's to say (``service.outcome.failure_reply``):
a failing database (unreachable, busy, or an outcome not known yet), or a failure after the request was
committed, is never answered with "nothing was changed"; any other failure changed nothing (the service commits
a move in one transaction, or not at all)."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from cogs.langs import reader_words
from engine.msg import M, Msg
from service.outcome import failure_reply
from store import StoreBusy, StoreUnavailable

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


def failure_text(exc: BaseException) -> Msg:
    """What the person is told about a request that failed with ``exc``."""
    return failure_reply(exc) or FAILED


async def report(interaction: discord.Interaction, what: str, exc: BaseException) -> None:
    """Log a failed request (a failing database in one line, anything else with its traceback) and tell the
    user what is true about it."""
    if isinstance(exc, (StoreUnavailable, StoreBusy)):  # the database is away: no traceback to read
        log.warning("%s failed (interaction %s): %s: %s", what, interaction.id, type(exc).__name__, exc)
    else:
        log.error("%s failed (interaction %s)", what, interaction.id, exc_info=exc)
    await answer(interaction, failure_text(exc))


def guarded(fn: F) -> F:
    """Wrap a component callback ``(self, interaction, ...)``: any exception is logged and answered."""

    @functools.wraps(fn)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any) -> Any:
        try:
            return await fn(self, interaction, *args, **kwargs)
        except Exception as exc:
            if interaction.client.is_closed():  # shutting down mid-request: the store keeps what was committed
                log.info("interaction %s cut short by the bot stopping", interaction.id, exc_info=True)
                return None
            await report(interaction, getattr(fn, "__qualname__", "a button"), exc)
            return None

    return wrapper  # type: ignore[return-value]


async def one_round(what: str, work: Callable[[], Awaitable[Any]], logger: logging.Logger = log) -> None:
    """One round of a background loop (a sweep, the reminders): a failing database is a warning, since the next
    round tries again; anything else is logged with its traceback. Neither stops the loop."""
    try:
        await work()
    except asyncio.CancelledError:
        raise
    except (StoreUnavailable, StoreBusy) as exc:
        logger.warning("%s failed (%s: %s); the next round tries again", what, type(exc).__name__, exc)
    except Exception:
        logger.exception("%s failed", what)
