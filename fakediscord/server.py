"""A loopback fake of Discord (REST API v10 + gateway) for running the real bot offline.

The unpatched discord.py client talks to :class:`FakeDiscordServer` over real sockets on
127.0.0.1 once :func:`point_discord_at` has redirected ``Route.BASE`` and
``DiscordWebSocket.DEFAULT_GATEWAY``.  Tests drive it as users would: ``slash``, ``click``,
``submit_modal`` and ``autocomplete`` dispatch INTERACTION_CREATE over the gateway and
wait for the bot's callback.  Every REST request is recorded, every message the bot
creates is kept (so clicks carry the same message id), and faults can be injected.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from . import limits
from . import payloads as p

JSON = dict[str, Any]
UserRef = Mapping[str, Any] | int | str
T = TypeVar("T")

_log = logging.getLogger(__name__)

#: Keys the harness adds to stored messages; stripped before anything is sent to the bot.
HARNESS_KEYS = ("ephemeral", "files", "interaction_id", "interaction_user")


class FakeDiscordError(AssertionError):
    """Base class for harness failures (an AssertionError, so pytest shows it as a failure)."""


class BotCrashed(FakeDiscordError):
    """The watched bot task ended (usually a gateway parse error) while a test was waiting."""


class BotLoggedError(FakeDiscordError):
    """Something logged at ERROR level (e.g. an exception in a command or view callback)."""


class FakeDiscordTimeout(FakeDiscordError, TimeoutError):
    """A wait ran out of time; the message lists the latest requests to help debugging."""


@dataclass
class RecordedRequest:
    """One REST request the bot made (``path`` is relative to ``/api/v10``)."""

    method: str
    path: str
    json: Any
    files: dict[str, bytes]
    query: dict[str, str]
    headers: dict[str, str] = field(repr=False)
    index: int = 0
    status: int = 0
    response: Any = field(default=None, repr=False)
    handled: bool = True


@dataclass
class Upload:
    """One file part of a multipart request (``index`` is n of ``files[n]``)."""

    index: int
    filename: str
    content_type: str | None
    data: bytes


@dataclass
class Fault:
    """An injected failure; ``times`` is how many more requests it hits (None: forever)."""

    method: str
    pattern: re.Pattern[str]
    status: int
    body: Any
    times: int | None = None
    hits: int = 0
    #: fail only every n-th matching request (1: every one); statuses cycle through ``cycle`` if given
    every: int = 1
    seen: int = 0
    cycle: tuple[int, ...] = ()


class _DiscordError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.body = p.error_body(code, message)


def _json_response(body: Any, status: int = 200) -> web.Response:
    # discord.py compares Content-Type with ``==``: anything but exactly application/json
    # (web.json_response adds "; charset=utf-8") makes it treat the body as text.
    headers = {"Content-Type": "application/json"}
    if status == 429:
        headers["Via"] = "1.1 google"  # discord.py retries a 429 only when it came through Discord's proxy
    return web.Response(body=json.dumps(body).encode(), status=status, headers=headers)


def find_component(components: Iterable[Mapping[str, Any]], custom_id: str) -> JSON | None:
    """Find a component by ``custom_id`` in a (possibly nested) component tree."""
    for comp in components:
        if comp.get("custom_id") == custom_id:
            return dict(comp)
        children: list[Mapping[str, Any]] = list(comp.get("components", []) or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), Mapping):
                children.append(comp[key])
        found = find_component(children, custom_id)
        if found is not None:
            return found
    return None


def custom_ids(components: Iterable[Mapping[str, Any]]) -> list[str]:
    """All ``custom_id`` values in a component tree, depth first."""
    out: list[str] = []
    for comp in components:
        if "custom_id" in comp:
            out.append(comp["custom_id"])
        children: list[Mapping[str, Any]] = list(comp.get("components", []) or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), Mapping):
                children.append(comp[key])
        out.extend(custom_ids(children))
    return out


def public_message(stored: Mapping[str, Any]) -> JSON:
    """A stored message without the harness-only keys: what Discord would send."""
    return {k: v for k, v in stored.items() if k not in HARNESS_KEYS}


@dataclass(eq=False)
class InteractionRecord:
    """An interaction the test sent, and everything the bot did with it.

    ``message`` is the *current* state of the interaction's original response message
    (the clicked message for callback types 6/7), so edits made later are visible.
    """

    server: FakeDiscordServer = field(repr=False)
    id: int
    token: str
    type: int
    user: JSON = field(repr=False)
    channel_id: int
    guild_id: int | None
    payload: JSON = field(repr=False)
    message_id: int | None = None
    callback: RecordedRequest | None = None
    callback_at: float | None = field(default=None, repr=False)
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    edits: list[RecordedRequest] = field(default_factory=list, repr=False)
    choices: list[JSON] | None = None
    modal: JSON | None = field(default=None, repr=False)
    dispatched_at: float = field(default_factory=time.monotonic, repr=False)

    @property
    def callback_type(self) -> int | None:
        """The callback type the bot answered with (4, 5, 6, 7, 8 or 9), or None."""
        return None if self.callback is None else int((self.callback.json or {}).get("type", 0))

    @property
    def callback_data(self) -> JSON:
        """The ``data`` of the callback body (empty for defers)."""
        if self.callback is None:
            return {}
        return dict((self.callback.json or {}).get("data") or {})

    @property
    def timestamp_ms(self) -> int:
        """Unix milliseconds encoded in the interaction id."""
        return p.snowflake_ms(self.id)

    @property
    def message(self) -> JSON | None:
        """Current original response message (harness keys included), or None."""
        if self.original_message_id is None:
            return None
        return self.server.messages.get(self.original_message_id)

    @property
    def content(self) -> str | None:
        """Content of :attr:`message`."""
        msg = self.message
        return None if msg is None else msg["content"]

    @property
    def embeds(self) -> list[JSON]:
        """Embeds of :attr:`message` (empty when there is none)."""
        msg = self.message
        return [] if msg is None else list(msg["embeds"])

    @property
    def components(self) -> list[JSON]:
        """Components of :attr:`message` (empty when there is none)."""
        msg = self.message
        return [] if msg is None else list(msg["components"])

    @property
    def files(self) -> dict[str, bytes]:
        """Attachment bytes of :attr:`message` by filename."""
        msg = self.message
        return {} if msg is None else dict(msg["files"])

    @property
    def ephemeral(self) -> bool:
        """Whether the original response is ephemeral."""
        msg = self.message
        return bool(msg and msg["ephemeral"])

    @property
    def followups(self) -> list[JSON]:
        """Followup messages in order (current state; deleted ones are left out).

        After a type 5 defer the first followup *is* the original response (Discord edits
        the "thinking" message), so it appears both here and as :attr:`message`.
        """
        return [self.server.messages[i] for i in self.followup_ids if i in self.server.messages]

    async def wait_callback(self, timeout: float | None = None) -> InteractionRecord:
        """Wait until the bot has answered the interaction callback; return self."""
        await self.server.wait_until(
            lambda: self.callback is not None, timeout, what=f"the callback for interaction {self.id}"
        )
        return self

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> list[JSON]:
        """Wait until at least ``count`` followups were sent; return all followups."""
        await self.server.wait_until(
            lambda: len(self.followup_ids) >= count, timeout, what=f"{count} followup(s) to {self.id}"
        )
        return self.followups

    async def wait_edits(self, count: int = 1, timeout: float | None = None) -> JSON | None:
        """Wait until the original response was edited ``count`` times (PATCH @original)."""
        await self.server.wait_until(
            lambda: len(self.edits) >= count, timeout, what=f"{count} edit(s) of {self.id}'s response"
        )
        return self.message


class _ErrorLogCollector(logging.Handler):
    def __init__(self, server: FakeDiscordServer) -> None:
        super().__init__(logging.ERROR)
        self._server = server

    def emit(self, record: logging.LogRecord) -> None:
        self._server._on_error_log(record)


_Handler = Callable[[RecordedRequest, list[Upload], dict[str, str]], Awaitable[tuple[int, Any]]]


@dataclass
class GatewaySession:
    """One gateway session: a shard ``[shard_id, shard_count]`` identified on a socket (the socket changes on a
    RESUME; the session and its sequence of dispatches stay)."""

    shard: tuple[int, int]
    session_id: str
    ws: web.WebSocketResponse | None
    seq: int = 0
    sent: list[JSON] = field(default_factory=list)
    #: READY and GUILD_CREATE (or RESUMED) have been sent on the current socket
    ready: bool = False

    @property
    def connected(self) -> bool:
        """Whether a client is identified/resumed on this session right now."""
        return self.ready and self.ws is not None and not self.ws.closed


#: Discord's rule for a chat-input command or option name, in any language: lower case (where the script has
#: case), letters, digits, ``-`` or ``_``, 1 to 32 characters.
_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _localization_problems(item: Mapping[str, Any], where: str) -> list[str]:
    """What Discord refuses in a command's (or option's, or choice's) localised names and descriptions."""
    out = []
    is_choice = "value" in item and "type" not in item
    for locale, name in (item.get("name_localizations") or {}).items():
        if is_choice:
            if not 1 <= len(name) <= 100:
                out.append(f"{where}: choice name_localizations.{locale} must be 1-100 characters")
        elif not _COMMAND_NAME.fullmatch(name) or name != name.lower():
            out.append(f"{where}: name_localizations.{locale} {name!r} is not a valid command name")
    for locale, text in (item.get("description_localizations") or {}).items():
        if not 1 <= len(text) <= 100:
            out.append(f"{where}: description_localizations.{locale} must be 1-100 characters")
    for child in item.get("options") or []:
        out += _localization_problems(child, f"{where} {child.get('name', '?')}")
    for choice in item.get("choices") or []:
        out += _localization_problems(choice, f"{where} choice {choice.get('name', '?')}")
    return out


class FakeDiscordServer:
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
        self.unhandled: list[RecordedRequest] = []
        self.faults: list[Fault] = []
        self.gateway_log: list[JSON] = []
        self.recommended_shards = shards
        #: the guilds the bot is in: the default one, and twins made by ``add_twin_guild``
        self.guild_ids: list[int] = [p.GUILD_ID]
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

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscordServer:
        """Listen on 127.0.0.1 (ephemeral port); return self."""
        self._loop = asyncio.get_running_loop()
        app = web.Application()
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

    @property
    def gateway_url(self) -> str:
        """``ws://127.0.0.1:PORT/gateway``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def watch(self, task: asyncio.Task[Any] | None) -> None:
        """Race every wait against ``task`` (the ``bot.start()`` task) so a crash surfaces."""
        self._watched = task

    # ------------------------------------------------------------------ ids, users, channels

    def new_id(self, ms: int | None = None) -> int:
        """A fresh snowflake at ``ms`` (Unix ms; default: now); unique within this server."""
        n = next(self._id_counter)
        stamp = int(time.time() * 1000) if ms is None else ms
        return p.snowflake(stamp, n % 4096, worker=(n // 4096) % 32)

    def user(self, ref: UserRef) -> JSON:
        """Resolve a user object or id to the stored user object."""
        user_id = p.uid(ref)
        if user_id not in self.users:
            if isinstance(ref, Mapping):
                self.users[user_id] = dict(ref)
            else:
                raise KeyError(f"unknown user id {user_id}")
        return self.users[user_id]

    def add_user(self, user_obj: Mapping[str, Any], *, member: bool = True, roles: Sequence[int] = ()) -> None:
        """Add a user (and by default a guild member).  Call before the bot connects."""
        self.users[p.uid(user_obj)] = dict(user_obj)
        if member:
            self.member_roles[p.uid(user_obj)] = [int(r) for r in roles]

    def is_member(self, ref: UserRef) -> bool:
        """Whether the user is in the guild."""
        return p.uid(ref) in self.member_roles

    def permissions_of(self, ref: UserRef) -> int:
        """Guild-level computed permissions of a member (owner and admins get everything)."""
        user_id = p.uid(ref)
        if user_id == p.uid(p.OWNER):
            return p.Perm.ALL
        by_id = {int(r["id"]): int(r["permissions"]) for r in self.roles}
        perms = by_id[p.GUILD_ID]
        for role_id in self.member_roles.get(user_id, []):
            perms |= by_id.get(role_id, 0)
        return p.Perm.ALL if perms & p.Perm.ADMINISTRATOR else perms

    def member_payload(self, ref: UserRef, *, with_permissions: bool = True, include_user: bool = True) -> JSON:
        """The member object of a guild member (as in GUILD_CREATE or an interaction)."""
        user_id = p.uid(ref)
        return p.member(
            self.user(user_id),
            roles=self.member_roles[user_id],
            permissions=self.permissions_of(user_id) if with_permissions else None,
            include_user=include_user,
        )

    def add_twin_guild(self, guild_id: int) -> dict[str, int]:
        """Another guild with the same members and roles and channels of its own (a category, #general, #games
        and #lobby with new ids); returns their ids by name. Call before the bot connects. With shards, pick
        ``guild_id`` by the shard that should get it (see ``shard_of``)."""
        if guild_id in self.guild_ids:
            raise ValueError(f"guild {guild_id} exists already")
        self.guild_ids.append(guild_id)
        out: dict[str, int] = {}
        category = self.new_id()
        for c in p.default_channels():
            cid = category if c["id"] == str(p.CATEGORY_ID) else self.new_id()
            twin = {**c, "id": str(cid), "guild_id": str(guild_id)}
            if c.get("parent_id"):
                twin["parent_id"] = str(category)
            self.channels[cid] = twin
            out[str(c["name"])] = cid
        return out

    def guild_of_channel(self, channel_id: int | str) -> int:
        """The guild a guild channel or thread belongs to."""
        return int(self.channels[int(channel_id)].get("guild_id") or p.GUILD_ID)

    def guild_create(self, guild_id: int = p.GUILD_ID) -> JSON:
        """The GUILD_CREATE payload for the current state of one guild."""
        mine = [c for c in self.channels.values() if int(c.get("guild_id") or p.GUILD_ID) == guild_id]
        guild_channels = [c for c in mine if c.get("type") in (0, 2, 4, 5, 13, 15)]
        threads = [c for c in mine if c.get("type") in (10, 11, 12)]
        members = [self.member_payload(u, with_permissions=False) for u in self.member_roles]
        # a twin's @everyone role has the twin's id, as every guild's does
        roles = [{**r, "id": str(guild_id)} if r["id"] == str(p.GUILD_ID) else r for r in self.roles]
        return p.guild_create(
            guild_id,
            p.GUILD_NAME,
            owner_id=p.uid(p.OWNER),
            roles=roles,
            channels=guild_channels,
            members=members,
            threads=threads,
            preferred_locale=self.guild_locales.get(guild_id, "en-US"),
        )

    def set_locale(self, ref: UserRef, locale: str) -> None:
        """The language of a user's Discord client (e.g. ``"de"``, ``"en-US"``), sent with their interactions."""
        self.locales[p.uid(ref)] = locale

    def set_guild_locale(self, locale: str, guild_id: int = p.GUILD_ID) -> None:
        """A guild's preferred language (sent as ``guild_locale`` with its interactions)."""
        self.guild_locales[guild_id] = locale

    def dm_channel_id(self, ref: UserRef) -> int:
        """The (stable) id of the DM channel between the bot and a user, creating it if needed."""
        user_id = p.uid(ref)
        if user_id not in self.dm_channels:
            channel_id = self.new_id()
            self.dm_channels[user_id] = channel_id
            self.channels[channel_id] = p.dm_channel(channel_id, self.user(user_id))
        return self.dm_channels[user_id]

    def channel(self, channel_id: int | str) -> JSON:
        """A stored channel object (guild channel, thread or DM); KeyError if unknown."""
        return self.channels[int(channel_id)]

    async def archive_thread(self, thread_id: int | str) -> None:
        """Archive a thread, as Discord does after its auto-archive duration without activity."""
        channel = self._channel_or_404(thread_id)
        channel["thread_metadata"]["archived"] = True
        await self._dispatch_if_connected("THREAD_UPDATE", channel)

    def threads(self) -> list[JSON]:
        """All threads created so far."""
        return [c for c in self.channels.values() if c.get("type") in (11, 12)]

    # ------------------------------------------------------------------ message registry

    def message(self, message_id: int | str) -> JSON:
        """A stored message by id (KeyError if unknown or deleted)."""
        return self.messages[int(message_id)]

    def messages_in(self, channel_id: int | str, *, include_ephemeral: bool = False) -> list[JSON]:
        """Messages in a channel, oldest first (ephemeral ones only on request)."""
        cid = str(channel_id)
        return [
            m
            for _, m in sorted(self.messages.items())
            if m["channel_id"] == cid and (include_ephemeral or not m["ephemeral"])
        ]

    def last_message(self, channel_id: int | str, *, include_ephemeral: bool = False) -> JSON | None:
        """The newest message in a channel, or None."""
        msgs = self.messages_in(channel_id, include_ephemeral=include_ephemeral)
        return msgs[-1] if msgs else None

    def ephemeral_for(self, ref: UserRef) -> list[JSON]:
        """Ephemeral responses/followups created by interactions of this user, oldest first."""
        user_id = str(p.uid(ref))
        return [
            m
            for _, m in sorted(self.messages.items())
            if m["ephemeral"] and m["interaction_user"] and m["interaction_user"]["id"] == user_id
        ]

    def dm_messages(self, ref: UserRef) -> list[JSON]:
        """Messages the bot sent to a user's DM channel, oldest first."""
        channel_id = self.dm_channels.get(p.uid(ref))
        return [] if channel_id is None else self.messages_in(channel_id)

    def interactions_of(self, ref: UserRef) -> list[InteractionRecord]:
        """Interactions sent on behalf of a user, oldest first."""
        user_id = str(p.uid(ref))
        return [r for r in self.interactions.values() if r.user["id"] == user_id]

    # ------------------------------------------------------------------ requests, faults, waiting

    def mark(self) -> int:
        """Index of the next request; pass as ``since`` to only match later requests."""
        return len(self.requests)

    def requests_matching(self, method: str, path_regex: str, *, since: int = 0) -> list[RecordedRequest]:
        """Recorded requests with this method whose path fully matches the regex."""
        rx = re.compile(path_regex)
        return [r for r in self.requests[since:] if r.method == method.upper() and rx.fullmatch(r.path)]

    async def wait_for_request(
        self, method: str, path_regex: str, timeout: float | None = None, *, since: int = 0
    ) -> RecordedRequest:
        """First request (index >= ``since``) matching method + full-path regex, waiting if needed."""

        def find() -> RecordedRequest | None:
            found = self.requests_matching(method, path_regex, since=since)
            return found[0] if found else None

        result = await self.wait_until(find, timeout, what=f"{method} {path_regex}")
        assert result is not None
        return result

    def fail(
        self, method: str, path_regex: str, status: int, json_body: Any = None, *, times: int | None = None
    ) -> Fault:
        """Answer matching requests with ``status`` and ``json_body`` instead of handling them.

        Example: ``server.fail("POST", rf"/channels/{dm}/messages", 403,
        {"code": 50007, "message": "Cannot send messages to this user"})``.  Avoid 5xx
        statuses: discord.py retries those with multi-second sleeps.
        """
        if json_body is None:
            json_body = p.error_body(0, f"{status}: injected failure")
        fault = Fault(method.upper(), re.compile(path_regex), status, json_body, times)
        self.faults.append(fault)
        return fault

    def fail_dm(self, ref: UserRef, *, times: int | None = None) -> int:
        """Make DMs to a user fail with 403 / 50007 (DMs closed); returns the DM channel id."""
        channel_id = self.dm_channel_id(ref)
        self.fail(
            "POST",
            rf"/channels/{channel_id}/messages",
            403,
            p.error_body(50007, "Cannot send messages to this user"),
            times=times,
        )
        return channel_id

    def clear_faults(self) -> None:
        """Remove every injected fault."""
        self.faults.clear()

    def take_error_logs(self) -> list[logging.LogRecord]:
        """Return ERROR records logged so far and stop them from failing later waits."""
        self._reported_errors = len(self.error_logs)
        return list(self.error_logs)

    def check_health(self) -> None:
        """Raise if the watched bot task ended or an unreported ERROR was logged."""
        task = self._watched
        if task is not None and task.done():
            exc = None if task.cancelled() else task.exception()
            raise BotCrashed(f"the bot task ended while waiting: {exc!r}") from exc
        self.raise_pending_error_logs()

    def raise_pending_error_logs(self) -> None:
        """Raise :class:`BotLoggedError` for ERROR records not yet raised or taken."""
        if self.raise_on_error_logs and len(self.error_logs) > self._reported_errors:
            new = self.error_logs[self._reported_errors :]
            self._reported_errors = len(self.error_logs)
            lines = []
            for rec in new:
                line = f"{rec.name}: {rec.getMessage()}"
                if rec.exc_info and rec.exc_info[1] is not None:
                    line += f" -> {rec.exc_info[1]!r}"
                lines.append(line)
            first = new[0].exc_info[1] if new[0].exc_info else None
            raise BotLoggedError("ERROR logged during the test:\n  " + "\n  ".join(lines)) from first

    async def wait_until(
        self, predicate: Callable[[], T], timeout: float | None = None, *, what: str = "condition"
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value.

        Re-checked on every recorded request/gateway frame and at least every 50 ms.
        Raises :class:`BotCrashed` / :class:`BotLoggedError` as soon as those happen, and
        :class:`FakeDiscordTimeout` after ``timeout`` (default ``self.default_timeout``).
        """
        loop = asyncio.get_running_loop()
        limit = self.default_timeout if timeout is None else timeout
        deadline = loop.time() + limit
        while True:
            event = self._changed
            self.check_health()
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FakeDiscordTimeout(f"timed out after {limit}s waiting for {what}.{self._diagnostics()}")
            waiter = asyncio.ensure_future(event.wait())
            aws: set[asyncio.Future[Any]] = {waiter}
            if self._watched is not None:
                aws.add(self._watched)
            try:
                await asyncio.wait(aws, timeout=min(remaining, 0.05), return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiter.cancel()

    def _diagnostics(self) -> str:
        tail = self.requests[-8:]
        lines = [f"  {r.method} {r.path} -> {r.status}" for r in tail]
        out = "\nlast requests:\n" + ("\n".join(lines) if lines else "  (none)")
        if self.unhandled:
            out += "\nunhandled routes: " + ", ".join(f"{r.method} {r.path}" for r in self.unhandled)
        if not self.connected:
            out += "\ngateway: not connected/identified"
        return out

    async def changed(self, timeout: float) -> bool:
        """Wait until anything happens (a REST request, a gateway frame), at most ``timeout`` seconds;
        return whether it did (the local table's live updates wait on this)."""
        event = self._changed
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _on_error_log(self, record: logging.LogRecord) -> None:
        self.error_logs.append(record)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._notify)

    # ------------------------------------------------------------------ gateway

    @property
    def shard_count(self) -> int:
        """The shard count the connected clients identified with (1 when unsharded or none is connected)."""
        return max((sess.shard[1] for sess in self.sessions.values()), default=1)

    def shard_of(self, guild_id: int | str | None) -> int:
        """The shard that receives a guild's events (Discord's rule), or shard 0 for DMs (``None``)."""
        return 0 if guild_id is None else (int(guild_id) >> 22) % self.shard_count

    def _session(self, shard: int) -> GatewaySession | None:
        sess = self.sessions.get(shard)
        return sess if sess is not None and sess.connected else None

    async def wait_ready(self, timeout: float | None = None, *, shard: int = 0) -> None:
        """Wait until a client has identified (or resumed) on the gateway for ``shard``."""
        await self.wait_until(
            lambda: self._session(shard) is not None, timeout, what=f"IDENTIFY/RESUME of shard {shard}"
        )

    @property
    def connected(self) -> bool:
        """Whether a client is identified/resumed on the gateway right now (on shard 0)."""
        return self._session(0) is not None

    async def dispatch(self, event: str, data: Mapping[str, Any], timeout: float | None = None) -> None:
        """Send a DISPATCH (op 0) event to the shard of its ``guild_id`` (shard 0 without one), waiting for that
        shard to be ready first."""
        shard = self.shard_of(data.get("guild_id"))
        await self.wait_ready(timeout, shard=shard)
        await self._send_dispatch(event, data, self.sessions[shard])

    async def drop_connection(
        self, *, code: int = 4000, wait_resumed: bool = True, timeout: float | None = None, shard: int = 0
    ) -> None:
        """Close a shard's gateway socket abnormally (4000), so the bot reconnects with RESUME.

        With ``wait_resumed`` return only after the bot has resumed (op 6 -> RESUMED).
        """
        sess = self._session(shard)
        if sess is None or sess.ws is None:
            raise FakeDiscordError(f"no gateway connection of shard {shard} to drop")
        resumes, ws = self.resumes, sess.ws
        sess.ws, sess.ready = None, False
        await ws.close(code=code, message=b"fake drop")
        if wait_resumed:
            await self.wait_until(lambda: self.resumes > resumes, timeout, what="the bot to RESUME")

    async def kill_connections(self, shards: Iterable[int]) -> None:
        """A bot process died: its shards' sockets close at once and their sessions are forgotten (a new
        process IDENTIFYs afresh; nothing is replayed to it)."""
        for shard in list(shards):
            sess = self.sessions.pop(shard, None)
            if sess is not None and sess.ws is not None and not sess.ws.closed:
                with contextlib.suppress(Exception):
                    await sess.ws.close(code=1006, message=b"process killed")
        self._notify()

    async def request_reconnect(self, *, wait_resumed: bool = True, timeout: float | None = None) -> None:
        """Send op 7 RECONNECT, like Discord does before moving a session."""
        resumes = self.resumes
        await self._send({"op": 7, "d": None, "s": None, "t": None})
        if wait_resumed:
            await self.wait_until(lambda: self.resumes > resumes, timeout, what="the bot to RESUME")

    async def _send(self, frame: JSON, ws: web.WebSocketResponse | None = None) -> None:
        if ws is None:
            sess = self._session(0)
            ws = sess.ws if sess is not None else None
        if ws is None or ws.closed:
            raise FakeDiscordError(f"gateway not connected; cannot send {frame.get('t') or frame.get('op')}")
        async with self._send_lock:
            await ws.send_str(json.dumps(frame))

    async def _send_dispatch(self, event: str, data: Mapping[str, Any], sess: GatewaySession | None = None) -> None:
        sess = sess or self.sessions.get(self.shard_of(data.get("guild_id")))
        if sess is None:
            raise FakeDiscordError(f"gateway not connected; cannot send {event}")
        sess.seq += 1
        frame = {"op": 0, "t": event, "s": sess.seq, "d": data}
        sess.sent.append(frame)
        await self._send(frame, sess.ws)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.add(ws)
        await self._send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None}, ws)
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self.gateway_log.append(frame)
                await self._on_gateway_frame(ws, frame)
                self._notify()
        finally:
            self._sockets.discard(ws)
            for sess in self.sessions.values():
                if sess.ws is ws:
                    sess.ws, sess.ready = None, False
            self._notify()
        return ws

    async def _on_gateway_frame(self, ws: web.WebSocketResponse, frame: JSON) -> None:
        op = frame.get("op")
        if op == 1:  # HEARTBEAT
            await self._send({"op": 11, "d": None, "s": None, "t": None}, ws)
        elif op == 2:  # IDENTIFY
            self.identify_payload = frame["d"]
            self.identifies += 1
            shard_id, count = (int(x) for x in frame["d"].get("shard") or (0, 1))
            if not 0 <= shard_id < count:
                await ws.close(code=4010, message=b"Invalid shard")
                return
            self.identified_shards.append((shard_id, count))
            sess = GatewaySession((shard_id, count), f"fake-session-{next(self._session_counter)}", ws)
            self.sessions[shard_id] = sess
            guilds = [g for g in self.guild_ids if (g >> 22) % count == shard_id]
            ready = p.ready(sess.session_id, self.gateway_url, guilds)
            ready["shard"] = [shard_id, count]
            await self._send_dispatch("READY", ready, sess)
            for guild in guilds:
                await self._send_dispatch("GUILD_CREATE", self.guild_create(guild), sess)
            sess.ready = True
        elif op == 6:  # RESUME
            d = frame["d"]
            found = next((x for x in self.sessions.values() if x.session_id == d.get("session_id")), None)
            if found is None:
                await self._send({"op": 9, "d": False, "s": None, "t": None}, ws)
                return
            found.ws = ws
            last = int(d.get("seq") or 0)
            for missed in [f for f in found.sent if f["s"] > last]:
                await self._send(missed, ws)
            await self._send_dispatch("RESUMED", {"_trace": ["fake-discord"]}, found)
            found.ready = True
            self.resumes += 1
        elif op == 8:  # REQUEST_GUILD_MEMBERS (only with the members intent)
            members = [self.member_payload(u, with_permissions=False) for u in self.member_roles]
            chunk: JSON = {
                "guild_id": str(p.GUILD_ID),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if frame["d"].get("nonce") is not None:
                chunk["nonce"] = frame["d"]["nonce"]
            await self._send_dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def _dispatch_if_connected(self, event: str, data: Mapping[str, Any]) -> None:
        sess = self._session(self.shard_of(data.get("guild_id")))
        if sess is not None:
            with contextlib.suppress(ConnectionError, FakeDiscordError):
                await self._send_dispatch(event, data, sess)

    # ------------------------------------------------------------------ driving interactions

    def _interaction_context(self, user_obj: JSON, channel_id: int | str | None) -> JSON:
        """Keyword arguments for payloads.interaction(): channel, guild/member or DM user."""
        cid = p.GENERAL_CHANNEL_ID if channel_id is None else int(channel_id)
        if cid not in self.channels:
            raise KeyError(f"unknown channel {cid}")
        channel = dict(self.channels[cid])
        user_id = p.uid(user_obj)
        locale = self.locales.get(user_id, "en-US")
        if channel["type"] == p.ChannelType.DM:
            recipient = int(channel["recipients"][0]["id"])
            if recipient != user_id:
                raise ValueError(f"channel {cid} is the DM of user {recipient}, not of {user_id}")
            return {"user_obj": user_obj, "channel": channel, "locale": locale}
        if not self.is_member(user_id):
            raise ValueError(f"user {user_obj['username']} is not a member of the guild")
        is_private_thread = channel["type"] == p.ChannelType.PRIVATE_THREAD
        can_see_all = self.permissions_of(user_id) & p.Perm.ADMINISTRATOR
        if is_private_thread and user_id not in self.thread_members.get(cid, set()) and not can_see_all:
            raise ValueError(f"user {user_obj['username']} cannot see private thread {cid}")
        guild_id = self.guild_of_channel(cid)
        channel["guild_id"] = str(guild_id)
        channel["permissions"] = str(self.permissions_of(user_id))
        return {
            "user_obj": user_obj,
            "channel": channel,
            "guild_id": guild_id,
            "member_obj": self.member_payload(user_id),
            "locale": locale,
            "guild_locale": self.guild_locales.get(guild_id, "en-US"),
        }

    async def send_interaction(
        self, payload: Mapping[str, Any], *, wait: bool = True, timeout: float | None = None
    ) -> InteractionRecord:
        """Dispatch a raw INTERACTION_CREATE payload (see :mod:`payloads`) and track it.

        With ``wait`` (default) return once the bot has answered the callback.
        """
        data = dict(payload)
        user_obj = data.get("member", {}).get("user") or data.get("user")
        message_obj = data.get("message")
        rec = InteractionRecord(
            server=self,
            id=int(data["id"]),
            token=str(data["token"]),
            type=int(data["type"]),
            user=dict(user_obj or {}),
            channel_id=int(data["channel_id"]),
            guild_id=int(data["guild_id"]) if data.get("guild_id") else None,
            payload=data,
            message_id=int(message_obj["id"]) if message_obj else None,
        )
        self.interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        shard = self.shard_of(rec.guild_id)  # a DM's interaction goes to shard 0
        await self.wait_ready(timeout, shard=shard)
        rec.dispatched_at = time.monotonic()
        await self._send_dispatch("INTERACTION_CREATE", data, self.sessions[shard])
        if wait:
            await rec.wait_callback(timeout)
        return rec

    def _interaction_id(self, ts_ms: int | None) -> int:
        return self.new_id(ts_ms)

    async def slash(
        self,
        user: UserRef,
        command: str,
        options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
        *,
        channel_id: int | str | None = None,
        ts_ms: int | None = None,
        validate: bool = True,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Run ``/command`` as ``user`` and return the interaction record after the callback.

        ``command`` may contain a subcommand (group) path: ``"game new"``, ``"game admin kick"``.
        ``options`` is either ``{name: value}`` (types come from the synced command; users
        as user objects or ids, channels/roles as ids) or raw leaf option dicts.  With
        ``validate`` the options are checked against the synced schema like the Discord
        client would (unknown names, required, choices, min/max).  ``channel_id`` defaults
        to #general; a DM channel id (``dm_channel_id(user)``) makes it a DM interaction.
        ``ts_ms`` sets the timestamp encoded in the interaction id.
        """
        user_obj = self.user(user)
        ctx = self._interaction_context(user_obj, channel_id)
        path = command.split()
        schema, command_guild_id = self._command_schema(path[0], ctx.get("guild_id"))
        leaf, resolved = self._build_options(path, schema, options, ctx, focused=None, validate=validate)
        iid = self._interaction_id(ts_ms)
        payload = p.slash_interaction(
            iid,
            path[0],
            p.nest_options(path, leaf),
            command_id=schema["id"] if schema else self._fallback_command_id(path[0]),
            command_guild_id=command_guild_id,
            resolved=resolved,
            **ctx,
        )
        return await self.send_interaction(payload, wait=wait, timeout=timeout)

    async def autocomplete(
        self,
        user: UserRef,
        command: str,
        options: Mapping[str, Any] | Sequence[Mapping[str, Any]],
        *,
        focused: str | None = None,
        channel_id: int | str | None = None,
        ts_ms: int | None = None,
        timeout: float | None = None,
    ) -> list[JSON]:
        """Send an autocomplete (type 4) request and return the bot's choices.

        ``options`` as in :meth:`slash`; ``focused`` names the option being typed (its value
        is sent as the partial string).  With raw option dicts mark one ``focused: True``.
        """
        user_obj = self.user(user)
        ctx = self._interaction_context(user_obj, channel_id)
        path = command.split()
        schema, command_guild_id = self._command_schema(path[0], ctx.get("guild_id"))
        leaf, _ = self._build_options(path, schema, options, ctx, focused=focused, validate=True)
        if not any(o.get("focused") for o in leaf):
            raise ValueError("autocomplete needs a focused option (pass focused=<option name>)")
        payload = p.autocomplete_interaction(
            self._interaction_id(ts_ms),
            path[0],
            p.nest_options(path, leaf),
            command_id=schema["id"] if schema else self._fallback_command_id(path[0]),
            command_guild_id=command_guild_id,
            **ctx,
        )
        rec = await self.send_interaction(payload, timeout=timeout)
        return list(rec.choices or [])

    async def click(
        self,
        user: UserRef,
        message_id: int | str,
        custom_id: str,
        values: Sequence[str] | None = None,
        ts_ms: int | None = None,
        *,
        component_type: int | None = None,
        check: bool = True,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Click a button (or choose ``values`` in a select) on a stored message as ``user``.

        The message must be one the bot created (so the id matches).  With ``check`` the
        component must exist and be enabled, select values must be valid options, and an
        ephemeral message can only be used by the user it was shown to.
        """
        mid = int(message_id)
        if mid not in self.messages:
            raise KeyError(f"unknown message {mid} (deleted or never sent by the bot)")
        stored = self.messages[mid]
        user_obj = self.user(user)
        comp = find_component(stored["components"], custom_id)
        if check:
            if comp is None:
                raise ValueError(
                    f"message {mid} has no component {custom_id!r}; it has {custom_ids(stored['components'])}"
                )
            if comp.get("disabled"):
                raise ValueError(f"component {custom_id!r} on message {mid} is disabled")
            owner = stored["interaction_user"]
            if stored["ephemeral"] and owner is not None and owner["id"] != user_obj["id"]:
                raise ValueError(f"message {mid} is ephemeral for {owner['username']}, not {user_obj['username']}")
        ctype = component_type or (
            int(comp["type"]) if comp else (p.ComponentType.STRING_SELECT if values else p.ComponentType.BUTTON)
        )
        if check and comp is not None and ctype == p.ComponentType.STRING_SELECT:
            self._check_select(comp, values or [])
        if ctype != p.ComponentType.BUTTON and values is None:
            values = []
        resolved = self._resolve_select_values(ctype, values or [])
        ctx = self._interaction_context(user_obj, stored["channel_id"])
        payload = p.component_interaction(
            self._interaction_id(ts_ms),
            custom_id,
            public_message(stored),
            component_type=ctype,
            values=values if ctype != p.ComponentType.BUTTON else None,
            resolved=resolved,
            **ctx,
        )
        return await self.send_interaction(payload, wait=wait, timeout=timeout)

    async def submit_modal(
        self,
        user: UserRef,
        values: Mapping[str, str | Sequence[str]] | None = None,
        *,
        custom_id: str | None = None,
        opened_by: InteractionRecord | None = None,
        ts_ms: int | None = None,
        check: bool = True,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Submit the modal the bot showed to ``user`` (latest one, or ``opened_by``'s).

        ``values`` maps input ``custom_id`` to text (or a list for selects in a modal).
        With ``check`` unknown ids and empty required text inputs raise ValueError.
        """
        user_obj = self.user(user)
        source = opened_by
        if source is None:
            candidates = [
                r
                for r in self.interactions_of(user_obj)
                if r.modal is not None and (custom_id is None or r.modal.get("custom_id") == custom_id)
            ]
            if not candidates:
                raise LookupError(f"no modal was shown to {user_obj['username']}")
            source = candidates[-1]
        if source.modal is None:
            raise LookupError(f"interaction {source.id} did not open a modal")
        modal = source.modal
        given = dict(values or {})
        if check:
            known = custom_ids(modal.get("components", []))
            unknown = set(given) - set(known)
            if unknown:
                raise ValueError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}; it has {known}")
            for cid in known:
                comp = find_component(modal.get("components", []), cid) or {}
                is_required_text = comp.get("type") == p.ComponentType.TEXT_INPUT and comp.get("required", True)
                if is_required_text and not given.get(cid):
                    raise ValueError(f"required input {cid!r} of modal {modal.get('custom_id')!r} is empty")
        components = p.modal_submit_components(modal.get("components", []), given)
        ctx = self._interaction_context(user_obj, source.channel_id)
        message_obj = None
        if source.message_id is not None and source.message_id in self.messages:
            message_obj = public_message(self.messages[source.message_id])
        payload = p.modal_submit_interaction(
            self._interaction_id(ts_ms), str(modal["custom_id"]), components, message_obj=message_obj, **ctx
        )
        return await self.send_interaction(payload, wait=wait, timeout=timeout)

    # ------------------------------------------------------------------ option building

    def _command_schema(self, name: str, guild_id: int | None) -> tuple[JSON | None, int | None]:
        if guild_id is not None and name in self.commands.get(guild_id, {}):
            return self.commands[guild_id][name], guild_id
        if name in self.commands.get(None, {}):
            return self.commands[None][name], None
        return None, None

    def _fallback_command_id(self, name: str) -> int:
        key = (None, name, 1)
        if key not in self._command_ids:
            self._command_ids[key] = self.new_id()
        return self._command_ids[key]

    def _build_options(
        self,
        path: list[str],
        schema: JSON | None,
        options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
        ctx: JSON,
        *,
        focused: str | None,
        validate: bool,
    ) -> tuple[list[JSON], JSON]:
        where = "/" + " ".join(path)
        specs: list[JSON] | None = list(schema.get("options", [])) if schema else None
        for part in path[1:]:
            if specs is None:
                break
            sub = next((o for o in specs if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                if validate:
                    names = [o["name"] for o in specs if o["type"] in (1, 2)]
                    raise ValueError(f"{where}: no subcommand {part!r}; known: {names}")
                specs = None
                break
            specs = list(sub.get("options", []))
        if validate and specs is not None and any(o["type"] in (1, 2) for o in specs):
            names = [o["name"] for o in specs if o["type"] in (1, 2)]
            raise ValueError(f"{where} needs a subcommand: {names}")

        resolved: JSON = {}
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            leaf = [dict(o) for o in options]
        else:
            leaf = []
            for name, value in options.items():
                spec = None
                if specs is not None:
                    spec = next((o for o in specs if o["name"] == name), None)
                    if spec is None and validate:
                        raise ValueError(f"{where}: unknown option {name!r}; known: {[o['name'] for o in specs]}")
                otype = int(spec["type"]) if spec else _guess_option_type(value)
                if name == focused:
                    leaf.append(p.option(name, str(value), otype, focused=True))
                    continue
                wire = self._option_value(otype, value, resolved, ctx)
                if validate and spec is not None and focused is None:
                    _check_option_value(where, spec, wire)
                leaf.append(p.option(name, wire, otype))
        if validate and specs is not None and focused is None:
            given = {o["name"] for o in leaf}
            missing = [o["name"] for o in specs if o.get("required") and o["name"] not in given]
            if missing:
                raise ValueError(f"{where}: missing required option(s) {missing}")
        return leaf, resolved

    def _option_value(self, otype: int, value: Any, resolved: JSON, ctx: JSON) -> Any:
        if otype in (p.OptionType.USER, p.OptionType.MENTIONABLE):
            user_id = p.uid(value)
            if user_id in self.users:
                resolved.setdefault("users", {})[str(user_id)] = dict(self.users[user_id])
                if ctx.get("guild_id") is not None and self.is_member(user_id):
                    resolved.setdefault("members", {})[str(user_id)] = self.member_payload(user_id, include_user=False)
                return str(user_id)
            role = next((r for r in self.roles if int(r["id"]) == user_id), None)
            if role is not None:
                resolved.setdefault("roles", {})[str(user_id)] = dict(role)
                return str(user_id)
            raise KeyError(f"unknown user {user_id}")
        if otype == p.OptionType.CHANNEL:
            channel_id = int(value["id"]) if isinstance(value, Mapping) else int(value)
            channel = dict(self.channels[channel_id])
            channel["permissions"] = str(p.Perm.ALL)
            resolved.setdefault("channels", {})[str(channel_id)] = channel
            return str(channel_id)
        if otype == p.OptionType.ROLE:
            role_id = int(value["id"]) if isinstance(value, Mapping) else int(value)
            role = next(r for r in self.roles if int(r["id"]) == role_id)
            resolved.setdefault("roles", {})[str(role_id)] = dict(role)
            return str(role_id)
        if otype == p.OptionType.INTEGER:
            return int(value)
        if otype == p.OptionType.NUMBER:
            return float(value)
        if otype == p.OptionType.BOOLEAN:
            return bool(value)
        if otype == p.OptionType.ATTACHMENT:
            raise NotImplementedError("attachment options are not modelled by the fake")
        return str(value)

    def _check_select(self, comp: Mapping[str, Any], values: Sequence[str]) -> None:
        allowed = [o["value"] for o in comp.get("options", [])]
        bad = [v for v in values if v not in allowed]
        if bad:
            raise ValueError(f"select {comp.get('custom_id')!r} has no option(s) {bad}; options: {allowed}")
        low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not low <= len(values) <= high:
            raise ValueError(f"select {comp.get('custom_id')!r} needs {low}..{high} values, got {len(values)}")

    def _resolve_select_values(self, ctype: int, values: Sequence[str]) -> JSON:
        resolved: JSON = {}
        ctx = {"guild_id": p.GUILD_ID}
        if ctype in (p.ComponentType.USER_SELECT, p.ComponentType.MENTIONABLE_SELECT):
            for v in values:
                self._option_value(p.OptionType.MENTIONABLE, v, resolved, ctx)
        elif ctype == p.ComponentType.ROLE_SELECT:
            for v in values:
                self._option_value(p.OptionType.ROLE, v, resolved, ctx)
        elif ctype == p.ComponentType.CHANNEL_SELECT:
            for v in values:
                self._option_value(p.OptionType.CHANNEL, v, resolved, ctx)
        return resolved

    # ------------------------------------------------------------------ REST plumbing

    def _register_routes(self) -> None:
        snow = r"(?P<{}>\d+)"
        app = snow.format("app")
        guild = snow.format("guild")
        cid = snow.format("cid")
        mid = snow.format("mid")
        tok = r"(?P<token>[^/]+)"
        routes: list[tuple[str, str, _Handler]] = [
            ("GET", r"/gateway", self._r_gateway),
            ("GET", r"/gateway/bot", self._r_gateway),
            ("GET", r"/users/@me", self._r_me),
            ("GET", r"/users/" + snow.format("uid"), self._r_get_user),
            ("GET", r"/oauth2/applications/@me", self._r_app_info),
            ("GET", r"/applications/@me", self._r_app_info),
            ("PUT", rf"/applications/{app}/commands", self._r_put_commands),
            ("PUT", rf"/applications/{app}/guilds/{guild}/commands", self._r_put_commands),
            ("GET", rf"/applications/{app}/commands", self._r_get_commands),
            ("GET", rf"/applications/{app}/guilds/{guild}/commands", self._r_get_commands),
            ("POST", rf"/interactions/(?P<iid>\d+)/{tok}/callback", self._r_callback),
            ("POST", rf"/webhooks/{app}/{tok}", self._r_followup),
            ("GET", rf"/webhooks/{app}/{tok}/messages/(?P<mid>@original|\d+)", self._r_webhook_get),
            ("PATCH", rf"/webhooks/{app}/{tok}/messages/(?P<mid>@original|\d+)", self._r_webhook_edit),
            ("DELETE", rf"/webhooks/{app}/{tok}/messages/(?P<mid>@original|\d+)", self._r_webhook_delete),
            ("GET", rf"/channels/{cid}", self._r_get_channel),
            ("PATCH", rf"/channels/{cid}", self._r_edit_channel),
            ("DELETE", rf"/channels/{cid}", self._r_delete_channel),
            ("POST", rf"/channels/{cid}/typing", self._r_no_content),
            ("GET", rf"/channels/{cid}/messages", self._r_history),
            ("POST", rf"/channels/{cid}/messages", self._r_send),
            ("GET", rf"/channels/{cid}/messages/{mid}", self._r_get_message),
            ("PATCH", rf"/channels/{cid}/messages/{mid}", self._r_edit_message),
            ("DELETE", rf"/channels/{cid}/messages/{mid}", self._r_delete_message),
            ("PUT", rf"/channels/{cid}/messages/{mid}/reactions/[^/]+/@me", self._r_no_content),
            ("DELETE", rf"/channels/{cid}/messages/{mid}/reactions/[^/]+/@me", self._r_no_content),
            ("POST", rf"/channels/{cid}/threads", self._r_create_thread),
            ("POST", rf"/channels/{cid}/messages/{mid}/threads", self._r_create_thread),
            ("GET", rf"/channels/{cid}/thread-members", self._r_thread_members),
            ("PUT", rf"/channels/{cid}/thread-members/(?P<uid>\d+|@me)", self._r_add_thread_member),
            ("DELETE", rf"/channels/{cid}/thread-members/(?P<uid>\d+|@me)", self._r_remove_thread_member),
            ("POST", r"/users/@me/channels", self._r_create_dm),
            ("GET", rf"/guilds/{guild}", self._r_get_guild),
            ("GET", rf"/guilds/{guild}/channels", self._r_guild_channels),
            ("GET", rf"/guilds/{guild}/members", self._r_guild_members),
            ("GET", rf"/guilds/{guild}/members/(?P<uid>\d+)", self._r_guild_member),
        ]
        self._routes = [(m, re.compile(rx), h) for m, rx, h in routes]

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body: Any = None
        uploads: list[Upload] = []
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part is None or not hasattr(part, "filename"):
                    continue
                name = part.name or ""
                if name == "payload_json":
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    data = bytes(await part.read(decode=False))  # type: ignore[union-attr]
                    match = re.fullmatch(r"files\[(\d+)\]", name)
                    index = int(match.group(1)) if match else len(uploads)
                    filename = part.filename or name
                    uploads.append(Upload(index, filename, part.headers.get("Content-Type"), data))
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                body = json.loads(raw)
        req = RecordedRequest(
            method=request.method,
            path=path,
            json=body,
            files={u.filename: u.data for u in uploads},
            query=dict(request.query),
            headers=dict(request.headers),
            index=len(self.requests),
        )
        self.requests.append(req)
        try:
            status, out = self._apply_fault(req)
            if status == 0:
                status, out = await self._route(req, uploads)
        except _DiscordError as err:
            status, out = err.status, err.body
        req.status, req.response = status, out
        self._notify()
        if out is None and status == 204:
            return web.Response(status=204)
        return _json_response(out, status)

    def _apply_fault(self, req: RecordedRequest) -> tuple[int, Any]:
        for fault in self.faults:
            if fault.method == req.method and fault.pattern.fullmatch(req.path):
                if fault.times is not None and fault.hits >= fault.times:
                    continue
                fault.seen += 1
                if fault.seen % fault.every:
                    continue
                fault.hits += 1
                if fault.cycle:
                    status = fault.cycle[(fault.hits - 1) % len(fault.cycle)]
                    if status == 429:
                        return 429, {"message": "You are being rate limited.", "retry_after": 0.01, "global": False}
                    return status, p.error_body(0, f"{status}: injected failure")
                return fault.status, fault.body
        return 0, None

    def flaky(self, method: str, path_regex: str, *, every: int, statuses: Sequence[int] = (503, 429)) -> Fault:
        """Fail every ``every``-th matching request, cycling through ``statuses`` (a 429 carries a short
        ``retry_after``, which discord.py waits out and retries; a 503 reaches the bot as an error)."""
        fault = Fault(method.upper(), re.compile(path_regex), 0, None, every=every, cycle=tuple(statuses))
        self.faults.append(fault)
        return fault

    async def _route(self, req: RecordedRequest, uploads: list[Upload]) -> tuple[int, Any]:
        for method, rx, handler in self._routes:
            if method != req.method:
                continue
            match = rx.fullmatch(req.path)
            if match:
                return await handler(req, uploads, match.groupdict())
        req.handled = False
        self.unhandled.append(req)
        _log.warning("fake discord: unhandled %s %s", req.method, req.path)
        return 404, p.error_body(0, "404: Not Found")

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.attachment_data.get(int(request.match_info["attachment_id"]))
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data, content_type="application/octet-stream")

    # ------------------------------------------------------------------ message helpers

    def _make_attachments(
        self, channel_id: int | str, body: Mapping[str, Any], uploads: list[Upload], existing: Sequence[JSON]
    ) -> tuple[list[JSON], dict[str, bytes]]:
        by_index = {u.index: u for u in uploads}
        used: set[int] = set()
        result: list[JSON] = []

        def new_attachment(upload: Upload, meta: Mapping[str, Any]) -> JSON:
            aid = self.new_id()
            filename = str(meta.get("filename") or upload.filename)
            self.attachment_data[aid] = upload.data
            return p.attachment(
                aid,
                filename,
                size=len(upload.data),
                url=f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}",
                content_type=upload.content_type,
                description=meta.get("description"),
            )

        if "attachments" in body and body["attachments"] is not None:
            for meta in body["attachments"]:
                old = next((a for a in existing if a["id"] == str(meta.get("id"))), None)
                if old is not None:
                    result.append(old)
                    continue
                index = int(meta["id"])
                if index not in by_index:
                    raise _DiscordError(400, 50035, f"Invalid Form Body: attachment {index} has no files[{index}]")
                used.add(index)
                result.append(new_attachment(by_index[index], meta))
        else:
            result.extend(existing)
        for upload in uploads:
            if upload.index not in used:
                result.append(new_attachment(upload, {}))
        files = {a["filename"]: self.attachment_data[int(a["id"])] for a in result}
        return result, files

    def _store_message(
        self,
        channel_id: int | str,
        body: Mapping[str, Any],
        uploads: list[Upload],
        *,
        rec: InteractionRecord | None = None,
        force_flags: int | None = None,
    ) -> JSON:
        self._check_limits(body, uploads)
        mid = self.new_id()
        attachments, files = self._make_attachments(channel_id, body, uploads, [])
        flags = int(body.get("flags") or 0) if force_flags is None else force_flags
        if rec is None:
            flags &= ~p.MessageFlag.EPHEMERAL
        metadata = None
        if rec is not None:
            metadata = p.interaction_metadata(
                rec.id,
                rec.type,
                rec.user,
                guild_id=rec.guild_id,
                interacted_message_id=rec.message_id,
                name=rec.payload.get("data", {}).get("name") if rec.type == 2 else None,
            )
        content = body.get("content") or ""
        msg = p.message(
            mid,
            channel_id,
            p.BOT_USER,
            content,
            embeds=[p.normalize_embed(e) for e in body.get("embeds") or []],
            components=body.get("components") or [],
            attachments=attachments,
            flags=flags,
            message_type=20 if rec is not None and rec.type == 2 else 0,
            webhook_id=p.APP_ID if rec is not None else None,
            application_id=p.APP_ID if rec is not None else None,
            metadata=metadata,
            mentions=self._mentions(content, body.get("allowed_mentions")),
        )
        msg["mention_everyone"] = self._mentions_everyone(content, body.get("allowed_mentions"))
        stored: JSON = {
            **msg,
            "ephemeral": bool(flags & p.MessageFlag.EPHEMERAL),
            "files": files,
            "interaction_id": rec.id if rec is not None else None,
            "interaction_user": dict(rec.user) if rec is not None else None,
        }
        self.messages[mid] = stored
        channel = self.channels.get(int(channel_id))
        if channel is not None and not stored["ephemeral"]:
            channel["last_message_id"] = str(mid)
        return stored

    def _mentions(self, content: str, allowed: Mapping[str, Any] | None) -> list[JSON]:
        """Users Discord would mark as mentioned (and ping), honouring ``allowed_mentions``."""
        ids = list(dict.fromkeys(int(x) for x in re.findall(r"<@!?(\d+)>", content)))
        if allowed is not None:
            if allowed.get("users") is not None:
                permitted = {int(u) for u in allowed["users"]}
                ids = [i for i in ids if i in permitted]
            elif "users" not in (allowed.get("parse") or []):
                ids = []
        return [dict(self.users[i]) for i in ids if i in self.users]

    @staticmethod
    def _mentions_everyone(content: str, allowed: Mapping[str, Any] | None) -> bool:
        if "@everyone" not in content and "@here" not in content:
            return False
        return allowed is None or "everyone" in (allowed.get("parse") or [])

    def _check_limits(self, body: Mapping[str, Any], uploads: list[Upload]) -> None:
        """Refuse, as Discord does, a message over Discord's limits (see :mod:`.limits`)."""
        if self.enforce_limits:
            found = limits.problems(body, len(uploads))
            if found:
                raise _DiscordError(400, 50035, "Invalid Form Body: " + "; ".join(found))

    def _edit_stored(self, stored: JSON, body: Mapping[str, Any], uploads: list[Upload]) -> JSON:
        self._check_limits({**body, "flags": stored["flags"]} if "flags" not in body else body, uploads)
        was_loading = bool(stored["flags"] & p.MessageFlag.LOADING)
        if "content" in body:
            stored["content"] = body["content"] or ""
            stored["mentions"] = self._mentions(stored["content"], body.get("allowed_mentions"))
            stored["mention_everyone"] = self._mentions_everyone(stored["content"], body.get("allowed_mentions"))
        if "embeds" in body:
            stored["embeds"] = [p.normalize_embed(e) for e in body["embeds"] or []]
        if "components" in body:
            stored["components"] = list(body["components"] or [])
        if "attachments" in body or uploads:
            stored["attachments"], stored["files"] = self._make_attachments(
                stored["channel_id"], body, uploads, stored["attachments"]
            )
        keep = p.MessageFlag.EPHEMERAL
        if "flags" in body and body["flags"] is not None:
            changeable = p.MessageFlag.SUPPRESS_EMBEDS | p.MessageFlag.IS_COMPONENTS_V2
            stored["flags"] = (stored["flags"] & keep) | (int(body["flags"]) & changeable)
        stored["flags"] &= ~p.MessageFlag.LOADING
        if not was_loading:
            stored["edited_timestamp"] = p.iso_timestamp(int(time.time() * 1000))
        return stored

    def _delete_stored(self, message_id: int) -> None:
        stored = self.messages.pop(message_id, None)
        if stored is not None:
            self.deleted_messages[message_id] = stored

    def _channel_or_404(self, channel_id: int | str) -> JSON:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise _DiscordError(404, 10003, "Unknown Channel")
        return channel

    def _message_in(self, channel_id: int | str, message_id: int | str) -> JSON:
        stored = self.messages.get(int(message_id))
        if stored is None or stored["channel_id"] != str(channel_id):
            raise _DiscordError(404, 10008, "Unknown Message")
        return stored

    def _rec_for_token(self, app: str, token: str) -> InteractionRecord:
        rec = self._by_token.get(token)
        if rec is None or int(app) != p.APP_ID:
            raise _DiscordError(404, 10015, "Unknown Webhook")
        return rec

    def _webhook_message(self, rec: InteractionRecord, mid: str) -> JSON:
        if mid == "@original":
            target = rec.original_message_id
        else:
            target = int(mid)
            if target != rec.original_message_id and target not in rec.followup_ids:
                target = None
        if target is None or target not in self.messages:
            raise _DiscordError(404, 10008, "Unknown Message")
        return self.messages[target]

    # ------------------------------------------------------------------ REST handlers

    async def _r_no_content(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        return 204, None

    async def _r_gateway(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        body: JSON = {"url": f"ws://127.0.0.1:{self.port}/gateway"}
        if req.path.endswith("/bot"):
            body["shards"] = self.recommended_shards
            body["session_start_limit"] = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return 200, body

    async def _r_me(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        return 200, dict(p.BOT_USER)

    async def _r_get_user(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        found = self.users.get(int(m["uid"]))
        if found is None:
            raise _DiscordError(404, 10013, "Unknown User")
        return 200, dict(found)

    async def _r_app_info(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        return 200, p.app_info()

    async def _r_put_commands(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        guild_id = int(m["guild"]) if m.get("guild") else None
        echoed: dict[str, JSON] = {}
        found = [problem for cmd in req.json or [] for problem in _localization_problems(cmd, cmd.get("name", "?"))]
        if found:
            raise _DiscordError(400, 50035, "Invalid Form Body: " + "; ".join(found[:10]))
        for cmd in req.json or []:
            key = (guild_id, cmd["name"], int(cmd.get("type", 1)))
            if key not in self._command_ids:
                self._command_ids[key] = self.new_id()
            echoed[cmd["name"]] = p.app_command(cmd, self._command_ids[key], guild_id=guild_id)
        self.commands[guild_id] = echoed
        return 200, list(echoed.values())

    async def _r_get_commands(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        guild_id = int(m["guild"]) if m.get("guild") else None
        return 200, list(self.commands.get(guild_id, {}).values())

    async def _r_callback(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        rec = self.interactions.get(int(m["iid"]))
        if rec is None or rec.token != m["token"]:
            raise _DiscordError(404, 10062, "Unknown interaction")
        if rec.callback is not None:
            raise _DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if self.ack_deadline_s is not None and time.monotonic() - rec.dispatched_at > self.ack_deadline_s:
            raise _DiscordError(404, 10062, "Unknown interaction")
        body = req.json or {}
        ctype = int(body.get("type", 0))
        data = dict(body.get("data") or {})
        allowed = {
            p.InteractionType.APPLICATION_COMMAND: {4, 5, 9},
            p.InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
            p.InteractionType.AUTOCOMPLETE: {8},
            p.InteractionType.MODAL_SUBMIT: {4, 5, 6, 7} if rec.message_id is not None else {4, 5},
        }.get(rec.type, {1})
        if ctype not in allowed:
            raise _DiscordError(400, 50035, f"Invalid Form Body: callback type {ctype} not valid here")

        message_obj: JSON | None = None
        loading = False
        if ctype == p.CallbackType.CHANNEL_MESSAGE:
            stored = self._store_message(rec.channel_id, data, uploads, rec=rec)
            rec.original_message_id = int(stored["id"])
            message_obj = public_message(stored)
        elif ctype == p.CallbackType.DEFERRED_CHANNEL_MESSAGE:
            flags = (int(data.get("flags") or 0) & p.MessageFlag.EPHEMERAL) | p.MessageFlag.LOADING
            stored = self._store_message(rec.channel_id, {}, [], rec=rec, force_flags=flags)
            rec.original_message_id = int(stored["id"])
            message_obj = public_message(stored)
            loading = True
        elif ctype in (p.CallbackType.DEFERRED_UPDATE_MESSAGE, p.CallbackType.UPDATE_MESSAGE):
            if rec.message_id is None or rec.message_id not in self.messages:
                raise _DiscordError(404, 10008, "Unknown Message")
            rec.original_message_id = rec.message_id
            if ctype == p.CallbackType.UPDATE_MESSAGE:
                stored = self._edit_stored(self.messages[rec.message_id], data, uploads)
                message_obj = public_message(stored)
        elif ctype == p.CallbackType.AUTOCOMPLETE_RESULT:
            rec.choices = list(data.get("choices") or [])
        elif ctype == p.CallbackType.MODAL:
            rec.modal = data
        rec.callback = req
        rec.callback_at = time.monotonic()
        ephemeral = bool(message_obj and message_obj["flags"] & p.MessageFlag.EPHEMERAL)
        return 200, p.callback_response(
            rec.id, rec.type, ctype, message_obj=message_obj, loading=loading, ephemeral=ephemeral
        )

    async def _r_followup(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        rec = self._rec_for_token(m["app"], m["token"])
        if rec.callback is None:
            raise _DiscordError(404, 10015, "Unknown Webhook")
        body = req.json or {}
        original = rec.message
        if (
            rec.callback_type == p.CallbackType.DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original["flags"] & p.MessageFlag.LOADING
        ):
            # Discord: the first followup after a type 5 defer edits the "thinking" message,
            # keeping the ephemeral state chosen when deferring.
            stored = self._edit_stored(original, {k: v for k, v in body.items() if k != "flags"}, uploads)
        else:
            stored = self._store_message(rec.channel_id, body, uploads, rec=rec)
        rec.followup_ids.append(int(stored["id"]))
        if req.query.get("wait", "false").lower() not in ("true", "1"):
            return 204, None
        return 200, public_message(stored)

    async def _r_webhook_get(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        rec = self._rec_for_token(m["app"], m["token"])
        return 200, public_message(self._webhook_message(rec, m["mid"]))

    async def _r_webhook_edit(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        rec = self._rec_for_token(m["app"], m["token"])
        stored = self._webhook_message(rec, m["mid"])
        self._edit_stored(stored, req.json or {}, uploads)
        if m["mid"] == "@original" or int(m["mid"]) == rec.original_message_id:
            rec.edits.append(req)
        return 200, public_message(stored)

    async def _r_webhook_delete(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        rec = self._rec_for_token(m["app"], m["token"])
        stored = self._webhook_message(rec, m["mid"])
        self._delete_stored(int(stored["id"]))
        return 204, None

    async def _r_get_channel(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        return 200, dict(self._channel_or_404(m["cid"]))

    async def _r_edit_channel(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        channel = self._channel_or_404(m["cid"])
        body = req.json or {}
        for key in ("name", "topic", "rate_limit_per_user"):
            if key in body:
                channel[key] = body[key]
        if "thread_metadata" in channel:
            for key in ("archived", "locked", "invitable", "auto_archive_duration"):
                if key in body:
                    channel["thread_metadata"][key] = body[key]
        await self._dispatch_if_connected(
            "THREAD_UPDATE" if "thread_metadata" in channel else "CHANNEL_UPDATE", channel
        )
        return 200, dict(channel)

    async def _r_delete_channel(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        channel = self._channel_or_404(m["cid"])
        del self.channels[int(m["cid"])]
        return 200, dict(channel)

    async def _r_history(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        self._channel_or_404(m["cid"])
        msgs = self.messages_in(m["cid"])
        if "before" in req.query:
            msgs = [x for x in msgs if int(x["id"]) < int(req.query["before"])]
        if "after" in req.query:
            msgs = [x for x in msgs if int(x["id"]) > int(req.query["after"])]
        limit = int(req.query.get("limit", 50))
        newest_first = list(reversed(msgs))[:limit]
        return 200, [public_message(x) for x in newest_first]

    async def _r_send(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        channel = self._channel_or_404(m["cid"])
        meta = channel.get("thread_metadata")
        if meta is not None and meta.get("archived"):
            if meta.get("locked"):
                raise _DiscordError(400, 50083, "Thread is archived")
            meta["archived"] = False  # Discord: a message to an archived, unlocked thread reopens it
            await self._dispatch_if_connected("THREAD_UPDATE", channel)
        body = req.json or {}
        if not (body.get("content") or body.get("embeds") or body.get("components") or uploads or body.get("poll")):
            raise _DiscordError(400, 50006, "Cannot send an empty message")
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        if nonce is not None:
            # Discord: "If another message was created by the same author with the same nonce, that message
            # will be returned and no new message will be created" (within a few minutes; here: always)
            seen = self._nonces.get((int(m["cid"]), str(nonce)))
            if seen is not None and seen in self.messages:
                return 200, public_message(self.messages[seen])
        stored = self._store_message(m["cid"], body, uploads)
        if nonce is not None:
            self._nonces[(int(m["cid"]), str(nonce))] = int(stored["id"])
            stored["nonce"] = str(nonce)
        return 200, public_message(stored)

    async def _r_get_message(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        return 200, public_message(self._message_in(m["cid"], m["mid"]))

    async def _r_edit_message(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        stored = self._message_in(m["cid"], m["mid"])
        if stored["author"]["id"] != str(p.APP_ID):
            raise _DiscordError(403, 50005, "Cannot edit a message authored by another user")
        meta = self._channel_or_404(m["cid"]).get("thread_metadata")
        if meta is not None and meta.get("archived"):
            raise _DiscordError(400, 50083, "Thread is archived")  # only a new message re-opens it
        return 200, public_message(self._edit_stored(stored, req.json or {}, uploads))

    async def _r_delete_message(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        stored = self._message_in(m["cid"], m["mid"])
        self._delete_stored(int(stored["id"]))
        return 204, None

    async def _r_create_thread(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        parent = self._channel_or_404(m["cid"])
        if parent["type"] != p.ChannelType.GUILD_TEXT:
            raise _DiscordError(400, 50024, "Cannot execute action on this channel type")
        body = req.json or {}
        if m.get("mid"):
            self._message_in(m["cid"], m["mid"])
            thread_id = int(m["mid"])  # a thread started from a message shares its id
            thread_type = p.ChannelType.PUBLIC_THREAD
        else:
            thread_id = self.new_id()
            thread_type = int(body.get("type") or p.ChannelType.PRIVATE_THREAD)
        thread = p.thread_channel(
            thread_id,
            self.guild_of_channel(m["cid"]),
            m["cid"],
            p.APP_ID,
            str(body.get("name", "thread")),
            thread_type=thread_type,
            invitable=bool(body.get("invitable", True)),
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        self.channels[thread_id] = thread
        self.thread_members[thread_id] = {p.APP_ID}
        await self._dispatch_if_connected("THREAD_CREATE", {**thread, "newly_created": True})
        return 201, dict(thread)

    async def _r_thread_members(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        self._channel_or_404(m["cid"])
        members = self.thread_members.get(int(m["cid"]), set())
        return 200, [
            {"id": m["cid"], "user_id": str(u), "join_timestamp": p.iso_timestamp(p.snowflake_ms(m["cid"])), "flags": 0}
            for u in sorted(members)
        ]

    async def _r_add_thread_member(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        channel = self._channel_or_404(m["cid"])
        if int(m["cid"]) not in self.thread_members:
            raise _DiscordError(400, 50024, "Cannot execute action on this channel type")
        user_id = p.APP_ID if m["uid"] == "@me" else int(m["uid"])
        if not self.is_member(user_id) and user_id != p.APP_ID:
            raise _DiscordError(404, 10007, "Unknown Member")
        self.thread_members[int(m["cid"])].add(user_id)
        channel["member_count"] = len(self.thread_members[int(m["cid"])])
        return 204, None

    async def _r_remove_thread_member(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        channel = self._channel_or_404(m["cid"])
        members = self.thread_members.get(int(m["cid"]), set())
        members.discard(p.APP_ID if m["uid"] == "@me" else int(m["uid"]))
        channel["member_count"] = len(members)
        return 204, None

    async def _r_create_dm(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        recipient = int((req.json or {}).get("recipient_id", 0))
        if recipient not in self.users or recipient == p.APP_ID:
            raise _DiscordError(400, 50033, "Invalid Recipient(s)")
        return 200, dict(self.channels[self.dm_channel_id(recipient)])

    async def _r_get_guild(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        if int(m["guild"]) not in self.guild_ids:
            raise _DiscordError(404, 10004, "Unknown Guild")
        full = self.guild_create(int(m["guild"]))
        gateway_only = ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large")
        return 200, {k: v for k, v in full.items() if k not in gateway_only}

    async def _r_guild_channels(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        if int(m["guild"]) not in self.guild_ids:
            raise _DiscordError(404, 10004, "Unknown Guild")
        wanted = int(m["guild"])
        return 200, [
            dict(c)
            for c in self.channels.values()
            if c.get("type") in (0, 2, 4, 5, 13, 15) and int(c.get("guild_id") or p.GUILD_ID) == wanted
        ]

    async def _r_guild_members(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        if int(m["guild"]) not in self.guild_ids:
            raise _DiscordError(404, 10004, "Unknown Guild")
        limit = int(req.query.get("limit", 1))
        after = int(req.query.get("after", 0))
        ids = sorted(u for u in self.member_roles if u > after)[:limit]
        return 200, [self.member_payload(u, with_permissions=False) for u in ids]

    async def _r_guild_member(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        user_id = int(m["uid"])
        if int(m["guild"]) not in self.guild_ids:
            raise _DiscordError(404, 10004, "Unknown Guild")
        if not self.is_member(user_id):
            raise _DiscordError(404, 10007, "Unknown Member")
        return 200, self.member_payload(user_id, with_permissions=False)


def _guess_option_type(value: Any) -> int:
    if isinstance(value, bool):
        return p.OptionType.BOOLEAN
    if isinstance(value, int):
        return p.OptionType.INTEGER
    if isinstance(value, float):
        return p.OptionType.NUMBER
    if isinstance(value, Mapping) and "username" in value:
        return p.OptionType.USER
    return p.OptionType.STRING


def _check_option_value(where: str, spec: Mapping[str, Any], value: Any) -> None:
    name = spec["name"]
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"{where}: {name}={value!r} is not one of {[c['value'] for c in choices]}")
    if "min_value" in spec and spec["min_value"] is not None and value < spec["min_value"]:
        raise ValueError(f"{where}: {name}={value!r} is below min_value {spec['min_value']}")
    if "max_value" in spec and spec["max_value"] is not None and value > spec["max_value"]:
        raise ValueError(f"{where}: {name}={value!r} is above max_value {spec['max_value']}")
    if isinstance(value, str):
        if spec.get("min_length") is not None and len(value) < spec["min_length"]:
            raise ValueError(f"{where}: {name} is shorter than {spec['min_length']}")
        if spec.get("max_length") is not None and len(value) > spec["max_length"]:
            raise ValueError(f"{where}: {name} is longer than {spec['max_length']}")


def point_discord_at(base_url: str) -> Callable[[], None]:
    """Redirect discord.py's REST base and gateway URL to ``base_url``; return an undo function.

    Call before ``bot.start()``.  This patches two class attributes, so it is process-wide:
    run one fake per process (pytest-xdist workers are separate processes).
    """
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    base = base_url.rstrip("/")
    Route.BASE = f"{base}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http", "ws", 1) + "/gateway")

    def undo() -> None:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return undo
