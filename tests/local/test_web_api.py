"""The local table's page API (issue 16), without a browser: who sees what, and refusals that say why and change
nothing; only the page it served may use it (issue 22)."""

from __future__ import annotations

import asyncio
import json

import aiohttp

from bot import build_bot
from fakediscord import payloads as p
from fakediscord.guard import TOKEN_HEADER
from fakediscord.local import LocalTable, local_table
from tests.local.browser import seeded_bot


async def _json(resp: aiohttp.ClientResponse) -> dict | list:
    return await resp.json(content_type=None)


async def test_page_api_sees_as_each_player_and_refuses_with_reasons(tmp_path):
    async with local_table(seeded_bot, port=0, folder=tmp_path) as table, _page_session(table) as http:
        server = table.server
        general = str(p.GENERAL_CHANNEL_ID)
        players = await _json(await http.get("/api/players"))
        assert [u["name"] for u in players] == ["Anna", "Ben", "Cleo", "Dan"]

        commands = await _json(await http.get("/api/commands"))
        new = next(c for c in commands["commands"] if c["path"] == "game new")
        assert any(o["name"] == "game" and o.get("autocomplete") for o in new["options"])
        ask = {"user": "anna", "channel": general, "command": "game new", "options": {"game": "om"}, "focused": "game"}
        choices = (await _json(await http.post("/api/autocomplete", json=ask)))["choices"]
        assert "omerta" in [c["value"] for c in choices]

        opened = await http.post(
            "/api/slash",
            json={"user": "anna", "channel": general, "command": "game new", "options": {"game": "omerta"}},
        )
        assert opened.status == 200, await opened.text()
        await server.wait_until(lambda: server.ephemeral_for(p.ANNA), 5, what="Anna's ephemeral reply")
        reply = server.ephemeral_for(p.ANNA)[-1]

        def seen(msgs: list) -> set[str]:
            return {m["id"] for m in msgs}

        as_anna = await _json(await http.get("/api/messages", params={"user": "anna", "channel": general}))
        as_ben = await _json(await http.get("/api/messages", params={"user": "ben", "channel": general}))
        assert reply["id"] in seen(as_anna) and reply["id"] not in seen(as_ben)  # only its owner sees it

        before = len(server.interactions)
        refusals = [
            ("/api/click", {"user": "ben", "message": reply["id"], "custom_id": "x"}, "has no component 'x'"),
            ("/api/slash", {"user": "zoe", "channel": general, "command": "game new"}, "unknown player 'zoe'"),
            (
                "/api/slash",
                {"user": "ben", "channel": general, "command": "game new", "options": {"colour": "red"}},
                "unknown option 'colour'",
            ),
            ("/api/slash", {"user": "ben", "channel": general, "command": ""}, "choose a command"),
            ("/api/click", {"user": "ben", "message": "12", "custom_id": "x"}, "unknown message '12'"),
        ]
        for path, body, reason in refusals:
            resp = await http.post(path, json=body)
            assert resp.status == 400 and reason in (await _json(resp))["error"], (path, body)
        not_json = await http.post("/api/click", data=b"{", headers={"Content-Type": "application/json"})
        assert not_json.status == 400 and "JSON" in (await _json(not_json))["error"]
        assert len(server.interactions) == before  # nothing reached the bot

        def lobby_posted() -> dict | None:
            last = server.last_message(general)
            return last if last is not None and any(i.endswith("|join") for i in _ids(last)) else None

        lobby = await server.wait_until(lobby_posted, 5, what="the lobby message")
        join = next(i for i in _ids(lobby) if i.endswith("|join"))
        # a component on someone else's ephemeral message is refused as Discord would
        mine = {"user": "ben", "message": reply["id"], "custom_id": join}
        resp = await http.post("/api/click", json=mine)
        assert resp.status == 400

        anna_dm = str(server.dm_channel_id(p.ANNA))
        resp = await http.get("/api/messages", params={"user": "ben", "channel": anna_dm})
        assert resp.status == 400 and "Ben cannot see channel" in (await _json(resp))["error"]
        channels = await _json(await http.get("/api/channels", params={"user": "ben"}))
        assert anna_dm not in {c["id"] for c in channels}
        assert str(server.dm_channel_id(p.BEN)) in {c["id"] for c in channels if c["kind"] == "dm"}

        joined = await http.post("/api/click", json={"user": "ben", "message": lobby["id"], "custom_id": join})
        assert joined.status == 200, await joined.text()
        await server.wait_until(lambda: "2. Ben" in server.message(lobby["id"])["content"], 5, what="Ben seated")


def _page_session(table: LocalTable) -> aiohttp.ClientSession:
    """Requests as the page makes them: with this run's token (a POST's Origin is added per request)."""
    return aiohttp.ClientSession(table.url, headers={TOKEN_HEADER: table.client.token})


def _ids(message: dict) -> list[str]:
    from fakediscord.server import custom_ids

    return custom_ids(message["components"])


async def test_only_the_page_served_here_may_read_or_act(tmp_path):
    """Issue 22: a foreign ``Host`` (DNS rebinding) is refused on GET and POST; a POST from another origin, without
    the run's token, or with a body that is not JSON (``text/plain``, a form) is refused; no answer carries a CORS
    header or may be framed; none of the refused requests reaches the fake Discord, and the page's own does."""
    async with local_table(seeded_bot, port=0, folder=tmp_path) as table, aiohttp.ClientSession(table.url) as http:
        server, token, port = table.server, table.client.token, table.client.port
        own = {TOKEN_HEADER: token, "Origin": table.url}
        general = str(p.GENERAL_CHANNEL_ID)
        slash = {"user": "anna", "channel": general, "command": "game new", "options": {"game": "omerta"}}

        page = await http.get("/")
        html = await page.text()
        assert page.status == 200 and f'<meta name="local-table-token" content="{token}">' in html
        assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
        assert page.headers["X-Frame-Options"] == "DENY"
        assert (await http.get("/static/index.html")).status == 404  # the page is served at / only, with its token
        assert (await http.get("/api/players", headers={"Host": f"LocalHost:{port}", TOKEN_HEADER: token})).ok

        requests, interactions = len(server.requests), len(server.interactions)
        rebound = {"Host": f"rebound.example:{port}", TOKEN_HEADER: token}
        evil = {"Origin": "http://evil.example"}
        anna_dm = f"/api/messages?user=anna&channel={server.dm_channel_id(p.ANNA)}"
        form = {"user": "anna", "channel": general, "command": "game new"}
        plain = {**own, "Content-Type": "text/plain"}
        neighbour = {**own, "Origin": f"http://127.0.0.1:{port + 1}"}
        preflight = {**evil, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": TOKEN_HEADER}
        rebound_act = {**own, **rebound, "Origin": f"http://rebound.example:{port}"}
        # what, method, path, headers, body (json= or data=), status, reason
        refused: list[tuple[str, str, str, dict, dict, int, str]] = [
            ("rebound page", "GET", "/", rebound, {}, 421, f"answers only for {table.url}, not for host 'rebound"),
            ("rebound DMs", "GET", anna_dm, rebound, {}, 421, "answers only for"),
            ("rebound act", "POST", "/api/slash", rebound_act, {"json": slash}, 421, "answers only for"),
            ("next port", "GET", "/api/players", {**rebound, "Host": f"127.0.0.1:{port + 1}"}, {}, 421, "only for"),
            ("read, no token", "GET", "/api/channels?user=anna", {}, {}, 403, "token is missing"),
            ("events, no token", "GET", "/api/events", {}, {}, 403, "token is missing"),
            ("picture, no token", "GET", "/attachments/1/board.png", {}, {}, 403, "token is missing"),
            ("wrong token", "GET", "/api/players", {TOKEN_HEADER: token[::-1]}, {}, 403, "token is not this run's"),
            ("other site", "POST", "/api/slash", {**own, **evil}, {"json": slash}, 403, "another site (http://evil"),
            ("other port", "POST", "/api/slash", neighbour, {"json": slash}, 403, "from another site"),
            ("opaque origin", "POST", "/api/click", {**own, "Origin": "null"}, {"json": {}}, 403, "site (null)"),
            ("POST, no token", "POST", "/api/slash", {"Origin": table.url}, {"json": slash}, 403, "token is missing"),
            ("no Origin, no token", "POST", "/api/slash", {}, {"json": slash}, 403, "token is missing"),
            ("token in query", "POST", f"/api/slash?token={token}", {}, {"json": slash}, 403, "token is missing"),
            ("text/plain", "POST", "/api/slash", plain, {"data": json.dumps(slash)}, 415, "not 'text/plain'"),
            ("form", "POST", "/api/slash", own, {"data": form}, 415, "not 'application/x-www-form-urlencoded'"),
            ("other site's form", "POST", "/api/slash", evil, {"data": form}, 403, "from another site"),
            ("preflight", "OPTIONS", "/api/slash", preflight, {}, 403, "from another site"),
        ]
        for what, method, path, headers, body, status, reason in refused:
            resp = await http.request(method, path, headers=headers, **body)
            assert resp.status == status, (what, resp.status, await resp.text())
            assert reason in (await resp.json())["error"], (what, await resp.text())
            assert not {h.lower() for h in resp.headers if h.lower().startswith("access-control-")}, what
            assert resp.headers["X-Frame-Options"] == "DENY", what
        await asyncio.sleep(0.2)  # anything that had slipped through would have reached the fake by now
        assert (len(server.requests), len(server.interactions)) == (requests, interactions)

        # the page's own requests: reads with the token (in the query where the browser cannot add a header)
        events = await http.get("/api/events", params={"token": token})
        assert events.status == 200 and events.content_type == "text/event-stream"
        assert (await events.content.readline()).startswith(b"retry:")
        events.close()
        assert (await http.get("/api/players", params={"token": token})).status == 200
        opened = await http.post("/api/slash", json=slash, headers=own)
        assert opened.status == 200, await opened.text()
        assert len(server.interactions) == interactions + 1
        lobby = await server.wait_until(lambda: server.last_message(general), 5, what="the lobby")
        assert "Game #" in lobby["content"]


async def test_a_taken_port_is_said_before_the_bot_starts(tmp_path):
    """Issue 24: "port 8080 is taken" came after the bot had started and said it was ready; the page's port is
    taken first now, and the bot is never built."""
    import socket

    import pytest

    built: list[object] = []

    def building(settings):  # noqa: ANN001, ANN202
        built.append(settings)
        return build_bot(settings)

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(OSError):
            async with local_table(building, port=port, folder=tmp_path):
                pass
    assert built == []
