"""The fake Discord server: its state and lifecycle, with each concern's methods from a mixin."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .. import guard
from .. import payloads as p
from .callbacks import CallbacksMixin
from .channels import ChannelsMixin
from .commands import CommandsMixin
from .faults import Fault, FaultsMixin
from .gateway import GatewayMixin, GatewaySession
from .guilds import GuildsMixin
from .interactions import InteractionsMixin
from .messages import MessagesMixin
from .records import JSON, InteractionRecord, RecordedRequest
from .rest import RestMixin, _Handler
from .waiting import WaitingMixin, _ErrorLogCollector


class FakeDiscordServer(
    GuildsMixin,
    ChannelsMixin,
    MessagesMixin,
    InteractionsMixin,
    CommandsMixin,
    CallbacksMixin,
    GatewayMixin,
    FaultsMixin,
    WaitingMixin,
    RestMixin,
):
    """Fake Discord: REST under ``/api/v10`` and a JSON gateway at ``/gateway``.

    Use ``async with FakeDiscordServer() as server`` (or ``await server.start()`` /
    ``await server.stop()``), then :func:`point_discord_at` ``(server.base_url)``.
    The guild is :data:`payloads.GUILD_ID` with the cast from :mod:`payloads`.
    """

    def __init__(
        self,
        *,
        heartbeat_interval_ms: int = 41250,
        default_timeout: float = 3.0,
        shards: int = 1,
        ack_deadline_s: float | None = None,
        raise_on_error_logs: bool = True,
        enforce_limits: bool = True,
    ) -> None:
        """Create (not start) the server.

        ``ack_deadline_s``: when set, callbacks arriving later than that after dispatch get
        Discord's 404 "Unknown interaction" (real Discord allows 3 s).
        ``raise_on_error_logs``: waits raise :class:`BotLoggedError` when anything logs at
        ERROR level (exceptions in commands and views are only logged by discord.py).
        ``enforce_limits``: a message over Discord's limits (2,000 characters, 5 rows, 25 options...) gets
        Discord's 400 Invalid Form Body, as on Discord.
        ``shards``: the shard count ``GET /gateway/bot`` recommends. Clients may identify on any shards
        ``[shard_id, shard_count]``: guild events go to shard ``(guild_id >> 22) % shard_count``, DMs to shard 0.
        """
        self.enforce_limits = enforce_limits
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.default_timeout = default_timeout
        self.ack_deadline_s = ack_deadline_s
        self.raise_on_error_logs = raise_on_error_logs

        self.requests: list[RecordedRequest] = []
        #: the time each request is recorded at (``RecordedRequest.at``): a test may set its fake clock here
        self.clock: Callable[[], float] = time.time
        self.unhandled: list[RecordedRequest] = []
        self.faults: list[Fault] = []
        self.gateway_log: list[JSON] = []
        self.recommended_shards = shards
        #: the guilds the bot is in: the default one, and twins made by ``add_twin_guild``
        self.guild_ids: list[int] = [p.GUILD_ID]
        #: a twin's own name (``add_twin_guild``; default: the test server's name)
        self.guild_names: dict[int, str] = {}
        self.identify_payload: JSON | None = None
        #: every IDENTIFY's ``shard`` field, in order
        self.identified_shards: list[tuple[int, int]] = []
        self.identifies = 0
        self.resumes = 0
        self.error_logs: list[logging.LogRecord] = []
        self._reported_errors = 0

        self.users: dict[int, JSON] = {p.APP_ID: dict(p.BOT_USER)}
        self.member_roles: dict[int, list[int]] = {}
        self.roles: list[JSON] = p.default_roles()
        self.channels: dict[int, JSON] = {int(c["id"]): c for c in p.default_channels()}
        self.dm_channels: dict[int, int] = {}
        self.thread_members: dict[int, set[int]] = {}
        self.messages: dict[int, JSON] = {}
        self.deleted_messages: dict[int, JSON] = {}
        self._nonces: dict[tuple[int, str], int] = {}
        self.attachment_data: dict[int, bytes] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, dict[str, JSON]] = {}
        #: each user's client language (Discord sends it as ``locale`` with every interaction; default en-US)
        self.locales: dict[int, str] = {}
        #: each guild's preferred language (``guild_locale`` of its interactions, ``preferred_locale``)
        self.guild_locales: dict[int, str] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        for u in p.PLAYERS:
            self.users[p.uid(u)] = dict(u)
        self.users[p.uid(p.OWNER)] = dict(p.OWNER)
        self.users[p.uid(p.OUTSIDER)] = dict(p.OUTSIDER)
        self.member_roles = p.default_member_roles()

        self._id_counter = itertools.count()
        self._session_counter = itertools.count(1)
        self._routes: list[tuple[str, re.Pattern[str], _Handler]] = []
        self._register_routes()

        self._runner: web.AppRunner | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._log_handler: _ErrorLogCollector | None = None
        self._watched: asyncio.Task[Any] | None = None
        self._changed = asyncio.Event()
        #: the gateway sessions by shard id (an unsharded client is shard 0 of 1)
        self.sessions: dict[int, GatewaySession] = {}
        self._sockets: set[web.WebSocketResponse] = set()
        self._send_lock = asyncio.Lock()
        self.port = 0

    async def start(self) -> FakeDiscordServer:
        """Listen on 127.0.0.1 (ephemeral port); return self.

        Only the bot may talk to it: a request for another host, or one a browser sent, is refused (issue 22)."""
        self._loop = asyncio.get_running_loop()
        app = web.Application(middlewares=[guard.no_browser_guard(self._served_hosts, lambda: self.base_url)])
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self._log_handler = _ErrorLogCollector(self)
        logging.getLogger().addHandler(self._log_handler)
        return self

    async def stop(self) -> None:
        """Close the gateway socket and the HTTP server; detach the log collector."""
        if self._log_handler is not None:
            logging.getLogger().removeHandler(self._log_handler)
            self._log_handler = None
        for ws in list(self._sockets):
            if not ws.closed:
                with contextlib.suppress(Exception):
                    await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscordServer:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``: pass this to :func:`point_discord_at`."""
        return f"http://127.0.0.1:{self.port}"

    def _served_hosts(self) -> frozenset[str]:
        """The one ``Host`` it answers for: ``127.0.0.1:PORT`` (the bot's own address for it)."""
        return guard.served_hosts("127.0.0.1", self.port, with_localhost=False)

    @property
    def gateway_url(self) -> str:
        """``ws://127.0.0.1:PORT/gateway``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def watch(self, task: asyncio.Task[Any] | None) -> None:
        """Race every wait against ``task`` (the ``bot.start()`` task) so a crash surfaces."""
        self._watched = task

    def new_id(self, ms: int | None = None) -> int:
        """A fresh snowflake at ``ms`` (Unix ms; default: now); unique within this server."""
        n = next(self._id_counter)
        stamp = int(time.time() * 1000) if ms is None else ms
        return p.snowflake(stamp, n % 4096, worker=(n // 4096) % 32)
