"""The local table's web page: a minimal Discord client for the fake Discord, served by aiohttp.

The page (``static/``: plain HTML, CSS and a little JavaScript, nothing fetched from elsewhere) reads the
fake's channels and messages as one of the local players sees them, and acts only through the fake's own
``slash`` / ``click`` / ``autocomplete``: each becomes a real INTERACTION_CREATE that discord.py handles, with
the fake's checks (a disabled button, an ephemeral message of someone else, a value not in a menu, an option
the command does not have) refusing what Discord would refuse.

Only that page may use the API (:mod:`.guard`, issue 22): each run has a secret token, written into the page when
it is served and sent back by ``app.js`` with every request; a request for another host, a POST from another
origin or without a JSON body is refused before it reaches the fake.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import mimetypes
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from aiohttp import web

from . import guard
from . import payloads as p
from .server import FakeDiscordError, FakeDiscordServer

JSON = dict[str, Any]

#: the players one person (or several people at one machine) can switch between
LOCAL_PLAYERS: tuple[JSON, ...] = (p.ANNA, p.BEN, p.CLEO, p.DAN)

#: how long a click or command may wait for the bot's answer (Discord gives a bot 3 s; the fake is patient)
ANSWER_TIMEOUT_S = 10.0

#: The Discord client languages a local player may choose (the bot speaks English and German; others answer in
#: English, as they would on Discord).
LOCALES = ("en-US", "en-GB", "de", "fr")
#: the files under /static/ (index.html is served at / only, with the run's token in it)
_STATIC = ("app.js", "style.css")
#: where index.html receives the run's token (app.js reads it from there)
_TOKEN_SLOT = '<meta name="local-table-token" content="">'


class BadRequest(web.HTTPBadRequest):
    """A request the page should not have made, or that Discord would refuse; its text says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(text=json.dumps({"error": reason}), content_type="application/json")


def display_name(user: Mapping[str, Any]) -> str:
    """The name Discord shows for a user."""
    return str(user.get("global_name") or user.get("username") or user.get("id"))


class LocalClient:
    """The web page and its JSON API over one :class:`FakeDiscordServer`."""

    def __init__(self, server: FakeDiscordServer, players: Sequence[Mapping[str, Any]] = LOCAL_PLAYERS) -> None:
        self.server = server
        self.players = [dict(u) for u in players]
        self._runner: web.AppRunner | None = None
        self.host = "127.0.0.1"
        self.port = 0
        #: this run's secret: only the page served here holds it, and every API request must carry it
        self.token = guard.new_token()

    @property
    def url(self) -> str:
        """The page's address (once started)."""
        host = f"[{self.host}]" if ":" in self.host else self.host  # an IPv6 address is bracketed in a URL
        return f"http://{host}:{self.port}"

    def hosts(self) -> frozenset[str]:
        """The ``Host`` values the page answers for: its address, and ``localhost`` with the same port."""
        return guard.served_hosts(self.host, self.port, with_localhost=True)

    # ------------------------------------------------------------------ lifecycle

    def app(self) -> web.Application:
        """The aiohttp application (routes only; :meth:`start` serves it)."""
        app = web.Application(middlewares=[guard.page_guard(self.token, self.hosts, lambda: self.url)])
        app.on_response_prepare.append(guard.add_page_headers)
        app.router.add_get("/", self._index)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/favicon.ico", self._no_icon)
        app.router.add_get("/api/players", self._players)
        app.router.add_get("/api/channels", self._channels)
        app.router.add_get("/api/messages", self._messages)
        app.router.add_get("/api/commands", self._commands)
        app.router.add_get("/api/events", self._events)
        app.router.add_get("/attachments/{aid}/{filename}", self._attachment)
        app.router.add_post("/api/slash", self._slash)
        app.router.add_post("/api/autocomplete", self._autocomplete)
        app.router.add_post("/api/click", self._click)
        app.router.add_post("/api/locale", self._locale)
        return app

    async def start(self, port: int = 8080, host: str = "127.0.0.1") -> LocalClient:
        """Serve the page on ``host:port`` (port 0: any free one, see :attr:`port`); return self."""
        self.host = host
        self._runner = web.AppRunner(self.app(), shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        """Stop serving (open event streams are closed)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ reading

    def _player(self, raw: str | None) -> JSON:
        """The local player a request is made as (by id or name); only the local players may be used."""
        for user in self.players:
            if raw in (str(user["id"]), user["username"], display_name(user)):
                return user
        raise BadRequest(f"unknown player {raw!r}; the local players are {[display_name(u) for u in self.players]}")

    def _visible(self, user: Mapping[str, Any], channel: Mapping[str, Any]) -> bool:
        """Whether ``user`` sees ``channel`` in their channel list (as the Discord client would)."""
        ctype = channel.get("type")
        user_id = p.uid(user)
        if ctype == p.ChannelType.DM:
            return int(channel["recipients"][0]["id"]) == user_id
        if ctype == p.ChannelType.PRIVATE_THREAD:
            return user_id in self.server.thread_members.get(int(channel["id"]), set())
        return ctype in (p.ChannelType.GUILD_TEXT, p.ChannelType.PUBLIC_THREAD)

    def _channel_for(self, user: Mapping[str, Any], raw: str | None) -> JSON:
        try:
            channel = self.server.channel(int(raw or ""))
        except (KeyError, ValueError):
            raise BadRequest(f"unknown channel {raw!r}") from None
        if not self._visible(user, channel):
            raise BadRequest(f"{display_name(user)} cannot see channel {raw}")
        return channel

    async def _index(self, request: web.Request) -> web.StreamResponse:
        page = await self._static_file("index.html")
        if page.text is None or _TOKEN_SLOT not in page.text:
            raise RuntimeError(f"fakediscord/static/index.html has no {_TOKEN_SLOT}: app.js could not act")
        page.text = page.text.replace(_TOKEN_SLOT, f'<meta name="local-table-token" content="{self.token}">')
        return page

    async def _no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in _STATIC:
            raise web.HTTPNotFound()
        return await self._static_file(name)

    async def _static_file(self, name: str) -> web.Response:
        text = resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")
        ctype = {"html": "text/html", "js": "text/javascript", "css": "text/css"}[name.rsplit(".", 1)[1]]
        return web.Response(text=text, content_type=ctype, headers={"Cache-Control": "no-store"})

    async def _players(self, request: web.Request) -> web.Response:
        out = [
            {
                "id": str(u["id"]),
                "name": display_name(u),
                "username": u["username"],
                "locale": self.server.locales.get(p.uid(u), "en-US"),
            }
            for u in self.players
        ]
        return web.json_response(out)

    async def _locale(self, request: web.Request) -> web.Response:
        """A local player's Discord language (issue 24): what their Discord client would send with each of their
        interactions as ``locale``, so a host can see the table as an English and a German player do."""
        body, user = await self._body(request)
        locale = str(body.get("locale") or "")
        if locale not in LOCALES:
            raise BadRequest(f"unknown language {locale!r}; choose one of {', '.join(LOCALES)}")
        self.server.set_locale(user, locale)
        return web.json_response({"player": user["username"], "locale": locale})

    async def _channels(self, request: web.Request) -> web.Response:
        user = self._player(request.query.get("user"))
        self.server.dm_channel_id(user)  # the DM channel is always in the list, like Discord's own
        out = []
        for channel in self.server.channels.values():
            if not self._visible(user, channel):
                continue
            kind = {p.ChannelType.DM: "dm", p.ChannelType.GUILD_TEXT: "channel"}.get(channel["type"], "thread")
            name = "Direct messages" if kind == "dm" else str(channel.get("name", channel["id"]))
            archived = bool(channel.get("thread_metadata", {}).get("archived"))
            out.append(
                {
                    "id": str(channel["id"]),
                    "name": name,
                    "kind": kind,
                    "parent": channel.get("parent_id"),
                    "archived": archived,
                    "last": channel.get("last_message_id"),
                }
            )
        order = {"channel": 0, "thread": 1, "dm": 2}
        out.sort(key=lambda c: (order[c["kind"]], int(c["id"])))
        return web.json_response(out)

    async def _messages(self, request: web.Request) -> web.Response:
        user = self._player(request.query.get("user"))
        channel = self._channel_for(user, request.query.get("channel"))
        mine = str(user["id"])
        shown = [
            m
            for m in self.server.messages_in(channel["id"], include_ephemeral=True)
            # an ephemeral reply is shown only to the player whose click or command caused it
            if not m["ephemeral"] or (m["interaction_user"] or {}).get("id") == mine
        ]
        return web.json_response([self._client_message(m) for m in shown])

    def _client_message(self, m: Mapping[str, Any]) -> JSON:
        """What the page needs of a stored message (no bytes; pictures by URL)."""
        meta = m.get("interaction_metadata") or {}
        via = None
        if meta:
            via = {"user": display_name(meta.get("user") or {}), "command": self._command_path(m)}
        return {
            "id": m["id"],
            "content": m["content"],
            "embeds": m["embeds"],
            "components": m["components"],
            "attachments": [
                {
                    "filename": a["filename"],
                    # an <img> cannot send a header: its address carries the token (the page's answers only)
                    "url": f"/attachments/{a['id']}/{a['filename']}?{guard.TOKEN_QUERY}={self.token}",
                    "content_type": a.get("content_type"),
                    "description": a.get("description"),  # the alt text: the board in words
                }
                for a in m["attachments"]
            ],
            "ephemeral": m["ephemeral"],
            "loading": bool(m["flags"] & p.MessageFlag.LOADING),
            "edited": bool(m.get("edited_timestamp")),
            "timestamp": m["timestamp"],
            "via": via,
            "mentions": {str(u["id"]): display_name(u) for u in m.get("mentions", [])},
        }

    def _command_path(self, m: Mapping[str, Any]) -> str | None:
        """``game new`` for a reply to ``/game new`` (Discord's metadata names only ``game``); None for a click."""
        rec = self.server.interactions.get(int(m.get("interaction_id") or 0))
        if rec is None or rec.type != 2:
            return None
        data = rec.payload.get("data") or {}
        path = [str(data.get("name"))]
        options = data.get("options") or []
        while options and int(options[0].get("type", 0)) in (p.OptionType.SUB_COMMAND, p.OptionType.SUB_COMMAND_GROUP):
            path.append(str(options[0]["name"]))
            options = options[0].get("options") or []
        return " ".join(path)

    async def _commands(self, request: web.Request) -> web.Response:
        commands: dict[str, JSON] = {}
        for scope in (None, p.GUILD_ID):  # a guild's own commands win over global ones of the same name
            commands.update(self.server.commands.get(scope, {}))
        out: list[JSON] = []
        for cmd in sorted(commands.values(), key=lambda c: c["name"]):
            if int(cmd.get("type", 1)) == 1:
                _flatten(cmd["name"], cmd, out)
        users = [{"id": str(u["id"]), "name": display_name(u)} for u in self.server.users.values() if not u.get("bot")]
        return web.json_response({"commands": out, "users": users})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: one ``change`` each time anything happened on the fake (the page re-reads)."""
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        await resp.prepare(request)
        count = 0
        with contextlib.suppress(ConnectionError, asyncio.CancelledError):
            await resp.write(b"retry: 1000\n\n")
            while True:
                if await self.server.changed(15.0):
                    count += 1
                    await resp.write(f"data: {count}\n\n".encode())
                else:
                    await resp.write(b": still here\n\n")  # keeps proxies and the browser from giving up
        return resp

    async def _attachment(self, request: web.Request) -> web.Response:
        try:
            data = self.server.attachment_data[int(request.match_info["aid"])]
        except (KeyError, ValueError):
            raise web.HTTPNotFound() from None
        ctype = mimetypes.guess_type(request.match_info["filename"])[0] or "application/octet-stream"
        return web.Response(body=data, content_type=ctype)

    # ------------------------------------------------------------------ acting

    async def _body(self, request: web.Request) -> tuple[JSON, JSON]:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise BadRequest("the request body must be JSON") from None
        if not isinstance(body, dict):
            raise BadRequest("the request body must be a JSON object")
        return body, self._player(body.get("user"))

    async def _act(self, action: Any) -> JSON:
        """Run one interaction; what the fake (so Discord) refuses comes back as a 400 with its reason."""
        try:
            rec = await action
        except (ValueError, KeyError, LookupError, TypeError) as err:
            raise BadRequest(str(err).strip("'\"")) from None
        except FakeDiscordError as err:
            raise BadRequest(f"the bot did not answer: {str(err).splitlines()[0]}") from None
        return {"ok": True, "interaction": str(rec.id), "callback": rec.callback_type}

    async def _slash(self, request: web.Request) -> web.Response:
        body, user = await self._body(request)
        channel = self._channel_for(user, body.get("channel"))
        command = str(body.get("command") or "").strip().lstrip("/")
        if not command:
            raise BadRequest("choose a command")
        options = self._typed_options(command, body.get("options") or {})
        slash = self.server.slash(user, command, options, channel_id=channel["id"], timeout=ANSWER_TIMEOUT_S)
        return web.json_response(await self._act(slash))

    async def _autocomplete(self, request: web.Request) -> web.Response:
        body, user = await self._body(request)
        channel = self._channel_for(user, body.get("channel"))
        command = str(body.get("command") or "").strip().lstrip("/")
        focused = str(body.get("focused") or "")
        raw = dict(body.get("options") or {})
        typed = {k: v for k, v in raw.items() if k != focused and v not in ("", None)}
        options = self._typed_options(command, typed) | {focused: str(raw.get(focused) or "")}
        try:
            choices = await self.server.autocomplete(
                user, command, options, focused=focused, channel_id=channel["id"], timeout=ANSWER_TIMEOUT_S
            )
        except (ValueError, KeyError) as err:
            raise BadRequest(str(err).strip("'\"")) from None
        return web.json_response({"choices": choices})

    async def _click(self, request: web.Request) -> web.Response:
        body, user = await self._body(request)
        try:
            stored = self.server.message(str(body.get("message")))
        except (KeyError, ValueError):
            raise BadRequest(f"unknown message {body.get('message')!r}") from None
        self._channel_for(user, stored["channel_id"])
        values = body.get("values")
        if values is not None and not (isinstance(values, list) and all(isinstance(v, str) for v in values)):
            raise BadRequest("values must be a list of strings")
        click = self.server.click(
            user, stored["id"], str(body.get("custom_id") or ""), values=values, timeout=ANSWER_TIMEOUT_S
        )
        return web.json_response(await self._act(click))

    def _typed_options(self, command: str, raw: Mapping[str, Any]) -> JSON:
        """The page's option texts as the command's option types (a number, a yes/no, a user id)."""
        specs = {o["name"]: o for o in _leaf_options(self.server, command)}
        out: JSON = {}
        for name, value in raw.items():
            if value in ("", None):
                continue  # an empty field is an option not given
            otype = int(specs.get(name, {}).get("type", p.OptionType.STRING))
            try:
                if otype == p.OptionType.INTEGER:
                    out[name] = int(value)
                elif otype == p.OptionType.NUMBER:
                    out[name] = float(value)
                elif otype == p.OptionType.BOOLEAN:
                    out[name] = str(value).lower() in ("true", "yes", "1")
                elif otype in (p.OptionType.USER, p.OptionType.CHANNEL, p.OptionType.ROLE, p.OptionType.MENTIONABLE):
                    out[name] = int(value)
                else:
                    out[name] = str(value)
            except ValueError:
                raise BadRequest(f"/{command}: {name} must be a number, not {value!r}") from None
        return out


def _flatten(path: str, node: Mapping[str, Any], out: list[JSON]) -> None:
    """Each runnable path of a command (``game new``, ``game admin kick``) with its leaf options."""
    options = list(node.get("options") or [])
    subs = [o for o in options if int(o["type"]) in (p.OptionType.SUB_COMMAND, p.OptionType.SUB_COMMAND_GROUP)]
    if not subs:
        out.append({"path": path, "description": node.get("description", ""), "options": options})
    for sub in subs:
        _flatten(f"{path} {sub['name']}", sub, out)


def _leaf_options(server: FakeDiscordServer, command: str) -> list[JSON]:
    """The options of one command path as synced by the bot (empty when unknown)."""
    path = command.split()
    node: Mapping[str, Any] | None = server.commands.get(p.GUILD_ID, {}).get(path[0]) or server.commands.get(
        None, {}
    ).get(path[0])
    for part in path[1:]:
        if node is None:
            return []
        node = next((o for o in node.get("options") or [] if o["name"] == part), None)
    return list(node.get("options") or []) if node else []
