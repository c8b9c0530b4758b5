"""Speakeasy Table: the Discord bot's entry point.

    python bot.py            # on Discord
    python bot.py --local    # on this machine, in the browser, without Discord (also the fallback without a token)

Reads ``DISCORD_TOKEN`` (environment or ``.env``); every setting is listed in the README.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

from cogs.dynamic_items import DYNAMIC_ITEMS
from cogs.errors import report
from cogs.history import HistoryCog
from cogs.langs import Langs
from cogs.lobby import LobbyCog
from cogs.overview import OverviewCog
from cogs.people import PeopleCog
from cogs.pictures import Renderer
from cogs.play import PlayCog
from cogs.publish import Publisher
from cogs.replay import ReplayCog
from cogs.rules import RulesCog
from cogs.translator import CatalogueTranslator
from service import Settings, TableService
from service.core import new_seed
from store import Store

log = logging.getLogger("speakeasy")

NO_TOKEN = """\
No Discord bot token found.

Set DISCORD_TOKEN in the environment or in a .env file in this folder:

    DISCORD_TOKEN=your-bot-token

To get one: open https://discord.com/developers/applications, create an application, open "Bot",
press "Reset Token" and copy it. Then invite the bot with the "bot" and "applications.commands" scopes
(OAuth2 → URL Generator) and the Send Messages, Attach Files, Create Private Threads and
Send Messages in Threads permissions.
"""


class TableBot(commands.Bot):
    """The bot: one store, one service, the lobby and play cogs."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        seeds: Callable[[], int] = new_seed,
        **client_kwargs: Any,
    ) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **client_kwargs)
        self.settings = settings
        self.clock = clock
        #: how the bot waits for its clock (a pause between posts): tests pass one that moves their fake clock
        self.sleep = sleep
        #: each new game's seed (``TableService.seeds``): fresh randomness; tests pass a fixed sequence
        self.seeds = seeds
        self.publisher = Publisher(self)
        self.renderer = Renderer(settings.render_workers)
        #: each person's language, remembered from their interactions (for what is sent to them later)
        self.langs = Langs()
        self._store: Store | None = None
        self._service: TableService | None = None

    @property
    def service(self) -> TableService:
        """The table service (available once ``setup_hook`` ran)."""
        assert self._service is not None, "the bot has not been set up"
        return self._service

    async def setup_hook(self) -> None:
        """Open the database (migrating it), load the cogs, register persistent buttons, sync commands."""
        self._store = await Store.open(self.settings.database)
        self._service = TableService(self._store, self.settings, clock=self.clock, seeds=self.seeds)
        # bots play after the move that made them due, in a task of their own: the player is answered at once
        self._service.bots_later = self.publisher.deliver
        filled = await self._service.backfill_events()
        fixed = await self._service.recover()
        if filled or any(fixed.values()):
            log.info("start-up: logs written for %s games; re-derived %s", filled, fixed)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        # command names, descriptions and choices in every language of the catalogue (ids cmd.*)
        await self.tree.set_translator(CatalogueTranslator())
        await self.add_cog(LobbyCog(self))
        await self.add_cog(PlayCog(self))
        await self.add_cog(RulesCog(self))
        await self.add_cog(OverviewCog(self))
        await self.add_cog(PeopleCog(self))
        await self.add_cog(HistoryCog(self))
        await self.add_cog(ReplayCog(self))
        if self.syncs_commands:
            if self.settings.dev_guild_id:
                guild = discord.Object(self.settings.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        self.publisher.start()  # what a restart left unposted goes out once the bot is ready
        log.info("database %s (%s) at schema v%s", self._store.path, self._store.backend, self._store.schema_version)

    @property
    def syncs_commands(self) -> bool:
        """Whether this process registers the slash commands: only one process does, the one running shard 0
        (several processes syncing at once would race each other and Discord's rate limit for nothing)."""
        ids = self.settings.shard_ids
        return ids is None or 0 in ids

    async def on_ready(self) -> None:
        """Log that this process is connected and serving (every shard it runs has its servers)."""
        shards = getattr(self, "shard_ids", None) or [0]  # an unsharded bot is shard 0 of 1
        log.info("ready: shards %s of %s, %d servers", shards, self.shard_count or 1, len(self.guilds))

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """A slash command that failed gets an ephemeral answer saying what is true (``cogs.errors.report``); the
        failure goes to the log."""
        await report(interaction, "a command", getattr(error, "original", error))

    async def close(self) -> None:
        """Stop cogs and close the database after Discord."""
        if self._service is not None:
            await self._service.stop_bots()
        await self.publisher.stop()
        for name in list(self.cogs):
            await self.remove_cog(name)
        await super().close()
        self.renderer.close()
        if self._store is not None:
            await self._store.close()
            self._store = None


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """The bot on several gateway shards (``SPEAKEASY_SHARD_COUNT``): discord.py's own ``AutoShardedBot``
    running the shards ``SPEAKEASY_SHARD_IDS`` of this process; other processes run the other shards."""


def build_bot(settings: Settings, **client_kwargs: Any) -> TableBot:
    """The production bot, sharded when the settings say so (tests pass ``guild_ready_timeout`` and a fake
    clock)."""
    if settings.shard_count is None:
        return TableBot(settings, **client_kwargs)
    ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedTableBot(settings, shard_count=settings.shard_count, shard_ids=ids, **client_kwargs)


def main() -> int:
    """Run the bot until stopped."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if "--local" in sys.argv[1:]:
        from fakediscord import local

        return local.main(build_bot, sys.argv[1:])
    settings = Settings.from_env()
    if not settings.token:
        from fakediscord import local

        return local.run_without_token(build_bot, sys.argv[1:], NO_TOKEN)
    fake = os.environ.get("FAKE_DISCORD_URL")  # development only: a loopback fake Discord
    if fake:
        import yarl
        from discord.gateway import DiscordWebSocket
        from discord.http import Route

        Route.BASE = f"{fake}/api/v10"
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.replace("http", "ws", 1) + "/gateway")
    build_bot(settings).run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
