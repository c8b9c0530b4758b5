"""The local table's page API (issue 16), without a browser: who sees what, and refusals that say why and change
nothing."""

from __future__ import annotations

import aiohttp

from bot import build_bot
from fakediscord import payloads as p
from fakediscord.local import local_table


async def _json(resp: aiohttp.ClientResponse) -> dict | list:
    return await resp.json(content_type=None)


async def test_page_api_sees_as_each_player_and_refuses_with_reasons(tmp_path):
    async with local_table(build_bot, port=0, folder=tmp_path) as table, aiohttp.ClientSession(table.url) as http:
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
        not_json = await http.post("/api/click", data=b"{")
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


def _ids(message: dict) -> list[str]:
    from fakediscord.server import custom_ids

    return custom_ids(message["components"])
