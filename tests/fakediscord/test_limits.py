"""The fake refuses what Discord refuses (issue 16: the local table has Discord's limits): a message over 2,000
characters, a sixth action row, a menu of 26 options, a 101-character custom id; within the limits it posts."""

from __future__ import annotations

import aiohttp
import pytest

from fakediscord import limits
from fakediscord import payloads as p
from fakediscord.server import FakeDiscordServer


def _row(*components: dict) -> dict:
    return {"type": 1, "components": list(components)}


def _button(custom_id: str = "b", label: str = "Go") -> dict:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def _menu(count: int) -> dict:
    return {"type": 3, "custom_id": "m", "options": [{"label": f"o{i}", "value": str(i)} for i in range(count)]}


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"content": "x" * 2001}, "content: Must be 2000 or fewer in length."),
        ({"content": "x", "components": [_row(_button())] * 6}, "components: Must be 5 or fewer in length."),
        ({"content": "x", "components": [_row(_menu(26))]}, "options: Must be between 1 and 25 in length."),
        ({"content": "x", "components": [_row(_button("c" * 101))]}, "custom_id: Must be 100 or fewer in length."),
        ({"content": "x", "components": [_row(*[_button(str(i)) for i in range(6)])]}, "1 to 5 buttons"),
        ({"embeds": [{"description": "d" * 4097}]}, "embeds.0.description: Must be 4096 or fewer in length."),
    ],
)
async def test_over_the_limit_is_refused_and_not_stored(body, reason):
    async with FakeDiscordServer() as server, aiohttp.ClientSession() as http:
        url = f"{server.base_url}/api/v10/channels/{p.GENERAL_CHANNEL_ID}/messages"
        resp = await http.post(url, json=body)
        error = await resp.json()
        assert resp.status == 400 and error["code"] == 50035 and reason in error["message"]
        assert server.messages_in(p.GENERAL_CHANNEL_ID) == []
        fine = {"content": "x" * 2000, "components": [_row(_menu(25))] + [_row(_button(str(i))) for i in range(4)]}
        assert limits.problems(fine) == []
        assert (await http.post(url, json=fine)).status == 200
