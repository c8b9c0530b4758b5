"""Async context managers that run a discord.py bot against the fake.

Typical e2e test::

    from fakediscord.fixtures import running_bot

    async def test_something():
        async with running_bot(build_bot) as (bot, server):
            rec = await server.slash(ANNA, "ping")
            assert rec.content == "pong"

The pytest fixture ``fake_discord`` lives in ``tests/fakediscord/fixtures.py`` (this package is a product
component and does not depend on pytest).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import discord

from .server import BotCrashed, FakeDiscordError, FakeDiscordServer, point_discord_at

ClientT = TypeVar("ClientT", bound=discord.Client)

_log = logging.getLogger(__name__)


@contextlib.asynccontextmanager
async def fake_server(**server_options: Any) -> AsyncIterator[FakeDiscordServer]:
    """Start a :class:`FakeDiscordServer` and point discord.py at it; undo both on exit."""
    server = FakeDiscordServer(**server_options)
    await server.start()
    undo = point_discord_at(server.base_url)
    try:
        yield server
    finally:
        undo()
        await server.stop()


@contextlib.asynccontextmanager
async def running_bot(
    build_bot: Callable[..., ClientT | Awaitable[ClientT]],
    /,
    *bot_args: Any,
    token: str = "fake-token",
    guild_ready_timeout: float = 0.05,
    ready_timeout: float = 5.0,
    server_options: dict[str, Any] | None = None,
    check_errors: bool = True,
    check_unhandled: bool = True,
    **bot_kwargs: Any,
) -> AsyncIterator[tuple[ClientT, FakeDiscordServer]]:
    """Run ``build_bot(*bot_args, **bot_kwargs)`` against a fresh fake Discord; yield ``(bot, server)``.

    Starts the server, points discord.py at it, builds the bot (the factory may be async),
    sets ``guild_ready_timeout`` (default 2 s in discord.py) on the bot's connection state,
    runs ``bot.start(token)`` as a watched task and waits until the bot is ready (login,
    ``setup_hook``/sync, IDENTIFY, READY, GUILD_CREATE).  On exit it closes the bot (no
    unclosed-session warnings), awaits its task and stops the server.

    When the body succeeds, exit also fails the test if the bot task crashed, if an ERROR
    was logged and not taken with ``server.take_error_logs()`` (``check_errors``), or if
    the bot called a route the fake does not model (``check_unhandled``).
    """
    async with fake_server(**(server_options or {})) as server:
        built = build_bot(*bot_args, **bot_kwargs)
        bot: ClientT = await built if inspect.isawaitable(built) else built  # type: ignore[assignment]
        # A documented Client kwarg, but the production factory need not forward it.
        bot._connection.guild_ready_timeout = guild_ready_timeout
        task = asyncio.create_task(bot.start(token), name="fake-discord-bot")
        server.watch(task)
        body_ok = False
        try:
            await server.wait_until(bot.is_ready, ready_timeout, what="the bot to become ready")
            yield bot, server
            body_ok = True
        finally:
            crash = await _shutdown(bot, task)
            server.watch(None)
        if body_ok:
            if crash is not None:
                raise BotCrashed(f"the bot task failed: {crash!r}") from crash
            if check_errors:
                server.raise_pending_error_logs()
            if check_unhandled and server.unhandled:
                calls = ", ".join(f"{r.method} {r.path}" for r in server.unhandled)
                raise FakeDiscordError(f"the bot called routes the fake does not model: {calls}")


async def _shutdown(bot: discord.Client, task: asyncio.Task[None]) -> BaseException | None:
    """Close the bot and collect its task's exception (if it crashed before closing)."""
    crashed = task.done() and not task.cancelled() and task.exception() is not None
    early = task.exception() if crashed else None
    try:
        await bot.close()
    except Exception:  # pragma: no cover - closing should not fail
        _log.exception("bot.close() failed")
    try:
        await asyncio.wait_for(task, 5.0)
    except asyncio.CancelledError:
        if not task.cancelled():
            raise
    except Exception as exc:
        return early or exc
    return early
