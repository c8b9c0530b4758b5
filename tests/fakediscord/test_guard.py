"""Issue 22: the fake Discord (which the local table runs on 127.0.0.1) answers its bot only: a request for
another host (DNS rebinding) or one a browser sent (it carries ``Origin``) is refused before it is recorded or
acted on."""

from __future__ import annotations

import aiohttp

from . import payloads as p
from .fixtures import fake_discord  # noqa: F401  (a fixture)
from .server import FakeDiscordServer


async def test_the_fake_refuses_foreign_hosts_and_browsers_and_records_nothing(
    fake_discord: FakeDiscordServer,  # noqa: F811
) -> None:
    server = fake_discord
    post = f"/api/v10/channels/{p.GENERAL_CHANNEL_ID}/messages"
    body = '{"content": "posted by another web site"}'
    async with aiohttp.ClientSession(server.base_url, headers={"Authorization": "Bot fake-token"}) as http:
        own = await http.get(f"/api/v10/guilds/{p.GUILD_ID}")
        assert own.status == 200  # the bot's own requests are answered
        before = len(server.requests)

        for host in (f"rebound.example:{server.port}", f"localhost:{server.port}", "127.0.0.1"):
            resp = await http.get(f"/api/v10/channels/{p.GENERAL_CHANNEL_ID}/messages", headers={"Host": host})
            assert resp.status == 421, host
            assert f"answers only for {server.base_url}" in (await resp.json())["error"]

        # a cross-site text/plain POST, as a page's form or no-cors fetch sends it
        for origin in ("http://evil.example", "null", server.base_url):
            resp = await http.post(post, data=body, headers={"Origin": origin, "Content-Type": "text/plain"})
            assert resp.status == 403, origin
            assert "a request from a web page" in (await resp.json())["error"]

        # a browser's WebSocket handshake names its page's origin: no gateway session for it
        resp = await http.get(
            "/gateway",
            headers={
                "Origin": "http://evil.example",
                "Connection": "Upgrade",
                "Upgrade": "websocket",
                "Sec-WebSocket-Version": "13",
                "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            },
        )
        assert resp.status == 403
        assert "access-control-allow-origin" not in {h.lower() for h in resp.headers}

        assert len(server.requests) == before and server.messages_in(p.GENERAL_CHANNEL_ID) == []
        assert server.identifies == 0 and not server.gateway_log
