"""The gateway side of the fake: sessions by shard, IDENTIFY / RESUME / heartbeats, and dispatching events."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .. import payloads as p
from .errors import FakeDiscordError
from .records import JSON

#: How long the fake gateway takes to answer a heartbeat: about a real connection's round trip.
ACK_DELAY_S = 0.1


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


class GatewayMixin:
    """The JSON gateway at ``/gateway``: sessions, shards, dispatches, dropped and killed connections.

    It is a mixin of :class:`~fakediscord.server.FakeDiscordServer`: it uses the state that class's
    ``__init__`` sets up (``sessions``, ``_sockets``, ``_send_lock``, ``gateway_log``, ``identify_payload``,
    ``identified_shards``, ``identifies``, ``resumes``, ``guild_ids``, ``member_roles``,
    ``heartbeat_interval_ms``, ``_session_counter``) and the other mixins' ``wait_until``, ``_notify``,
    ``guild_create``, ``member_payload`` and ``gateway_url``.
    """

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
            # answered after a network's delay, as from afar: discord.py notes the time it sent a heartbeat only
            # once the send has completed, in another thread; an answer handled before that was measured against
            # the heartbeat before and logged "websocket is 41 s behind" (issue 24, tests/fakediscord/test_heartbeat)
            await asyncio.sleep(ACK_DELAY_S)
            if not ws.closed:
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
