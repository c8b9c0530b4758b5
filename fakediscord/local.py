"""``python bot.py --local``: the real bot, a fake Discord and a web page to play in, all on this machine.

The fake Discord (:class:`~fakediscord.server.FakeDiscordServer`) and the page (:class:`~fakediscord.web.
LocalClient`) listen on 127.0.0.1 only; the bot is the production one, unpatched, pointed at the fake. The
fake keeps its channels and messages in memory, so each run starts with a fresh SQLite file of its own (a
game kept from an earlier run would point at threads that no longer exist); the production database
(``SPEAKEASY_DB``) is never opened.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import os
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import discord

from service import Settings

from .server import FakeDiscordServer, point_discord_at
from .web import LocalClient

log = logging.getLogger("speakeasy.local")

#: the address everything listens on: this machine only
HOST = "127.0.0.1"
DEFAULT_PORT = 8080
PORT_SETTING = "SPEAKEASY_LOCAL_PORT"
#: the token the bot logs in with; the fake accepts any
LOCAL_TOKEN = "local-table"


@dataclass
class LocalTable:
    """A running local table: the fake, the bot, the page."""

    server: FakeDiscordServer
    bot: discord.Client
    client: LocalClient
    database: Path
    #: the bot's ``start()`` task: done when the bot stops
    task: asyncio.Task[None]

    @property
    def url(self) -> str:
        """The page's address."""
        return f"http://{HOST}:{self.client.port}"


@contextlib.asynccontextmanager
async def local_table(
    build_bot: Callable[..., discord.Client], *, port: int = DEFAULT_PORT, folder: Path | None = None
) -> AsyncIterator[LocalTable]:
    """Start the fake Discord, the bot (``build_bot(settings)``) on a fresh SQLite file in ``folder`` (a
    temporary folder by default, removed afterwards) and the page on ``port``; stop all three on exit."""
    with contextlib.ExitStack() as stack:
        if folder is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="speakeasy-local-")))
        database = folder / "local-table.sqlite3"
        database.unlink(missing_ok=True)
        # errors are logged for the developer watching; they do not stop the table as they fail a test
        server = FakeDiscordServer(raise_on_error_logs=False, default_timeout=10.0)
        await server.start()
        undo = point_discord_at(server.base_url)
        client = LocalClient(server)
        task: asyncio.Task[None] | None = None
        bot: discord.Client | None = None
        try:
            # the page's port first (issue 24): a port that is taken is said before the bot starts and says "ready"
            await client.start(port, HOST)
            settings = dataclasses.replace(Settings.from_env(), token=LOCAL_TOKEN, database=str(database))
            bot = build_bot(settings)
            bot._connection.guild_ready_timeout = 0.05  # the fake sends the guild at once: no need to wait 2 s
            task = asyncio.create_task(bot.start(LOCAL_TOKEN), name="local-table-bot")
            server.watch(task)
            await server.wait_until(bot.is_ready, 30.0, what="the bot to become ready")
            yield LocalTable(server, bot, client, database, task)
        finally:
            await client.stop()
            if bot is not None:
                await bot.close()
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(task, 5.0)
            undo()
            await server.stop()


def parse_port(argv: Sequence[str], env: dict[str, str] | None = None) -> int:
    """The page's port: ``--port N``, else ``SPEAKEASY_LOCAL_PORT``, else 8080 (0: any free port)."""
    parser = argparse.ArgumentParser(prog="bot.py --local", description="Play on this machine, without Discord.")
    parser.add_argument("--local", action="store_true", help="run the local table (this mode)")
    parser.add_argument("--port", help=f"the web page's port (default: {PORT_SETTING}, else {DEFAULT_PORT})")
    args = parser.parse_args(list(argv))
    raw = args.port if args.port is not None else (os.environ if env is None else env).get(PORT_SETTING, "")
    if raw in ("", None):
        return DEFAULT_PORT
    if not str(raw).isdigit() or not 0 <= int(raw) <= 65535:
        raise SystemExit(f"the port must be a number from 0 to 65535, not {raw!r}.")
    return int(raw)


async def _serve(build_bot: Callable[..., discord.Client], port: int) -> None:
    # Ctrl+C and a plain `kill` both stop the table cleanly: the bot closes, the temporary folder goes
    me = asyncio.current_task()
    assert me is not None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows: Ctrl+C stays a KeyboardInterrupt
            loop.add_signal_handler(sig, me.cancel)
    try:
        async with local_table(build_bot, port=port) as table:
            print(f"Local table ready: open {table.url} in your browser.", flush=True)
            print(
                f"It listens on {HOST} only (this machine; nothing here reaches the internet). "
                "Games are kept for this run only. Press Ctrl+C to stop.",
                flush=True,
            )
            await table.task  # until the bot stops (or Ctrl+C cancels this)
    except OSError as err:
        if err.errno in (98, 48, 10048):  # address in use (Linux, macOS, Windows)
            taken = f"port {port} on {HOST} is taken: choose another with --port N or {PORT_SETTING}."
            raise SystemExit(taken) from None
        raise


def main(build_bot: Callable[..., discord.Client], argv: Sequence[str]) -> int:
    """Run the local table until Ctrl+C; the exit status."""
    port = parse_port(argv)
    with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
        asyncio.run(_serve(build_bot, port))
    print("Local table stopped.", flush=True)
    return 0


def run_without_token(build_bot: Callable[..., discord.Client], argv: Sequence[str], notice: str) -> int:
    """The bot was started without a token: say so and how to get one, then run the local table."""
    print(notice, file=sys.stderr)
    print("Starting the local table instead (the same as `python bot.py --local`).\n", file=sys.stderr, flush=True)
    return main(build_bot, [a for a in argv if a != "--local"])
