"""REST plumbing: the route table under ``/api/v10``, reading a request (JSON or multipart), recording it,
applying faults, and answering as Discord does."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .. import payloads as p
from .errors import _DiscordError
from .records import JSON, RecordedRequest, Upload

# the package's logger: records keep the name they had before the package was split
_log = logging.getLogger("fakediscord.server")

_Handler = Callable[[RecordedRequest, list[Upload], dict[str, str]], Awaitable[tuple[int, Any]]]


def _json_response(body: Any, status: int = 200) -> web.Response:
    # discord.py compares Content-Type with ``==``: anything but exactly application/json
    # (web.json_response adds "; charset=utf-8") makes it treat the body as text.
    headers = {"Content-Type": "application/json"}
    if status == 429:
        headers["Via"] = "1.1 google"  # discord.py retries a 429 only when it came through Discord's proxy
    return web.Response(body=json.dumps(body).encode(), status=status, headers=headers)


class RestMixin:
    """Routing REST requests to the other mixins' ``_r_*`` handlers.

    It is a mixin of :class:`~fakediscord.server.FakeDiscordServer`: it uses the state that class's
    ``__init__`` sets up (``requests``, ``unhandled``, ``_routes``, ``port``, ``recommended_shards``) and the
    other mixins' ``_apply_fault``, ``_notify`` and route handlers.
    """

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
            at=self.clock(),
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

    async def _r_no_content(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        return 204, None

    async def _r_gateway(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        body: JSON = {"url": f"ws://127.0.0.1:{self.port}/gateway"}
        if req.path.endswith("/bot"):
            body["shards"] = self.recommended_shards
            body["session_start_limit"] = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return 200, body
