"""``/game log`` pages back to the first move; ``/game export`` of a finished game and ``python -m engine.replay``
give the same final scores (issue "The channel tells the story")."""

from __future__ import annotations

import json

from engine import replay
from tests.cogs.driver import Driver, play_to_end, table
from tests.fakediscord import payloads as p


async def test_the_log_pages_back_to_the_first_move_and_the_export_replays_to_the_same_scores(tmp_path, capsys):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        early = await server.slash(p.ANNA, "game export", {"game": gid}, channel_id=d.where)
        (refused,) = await early.wait_followups(1)
        assert "once the game is over" in refused["content"] and not refused["files"]
        await play_to_end(d)
        rec = await server.slash(p.BEN, "game log", {"game": gid}, channel_id=d.where)
        (page,) = await rec.wait_followups(1)
        assert page["ephemeral"] and "page" in page["content"]
        seen = [page["content"]]
        message = page
        while older := next((c for c, label in _buttons(message) if label == "Older"), None):
            click = await server.click(p.BEN, message["id"], older)
            await click.wait_callback()
            message = server.message(message["id"])
            seen.append(message["content"])
        assert "page 1 of" in message["content"]
        events = [e.text for e in await bot.service.store.get_events(gid, public_only=True)]
        shown = "\n".join(seen)
        assert all(text[:140] in shown for text in events)  # every line of the game, back to the first
        rec = await server.slash(p.CLEO, "game export", {"game": gid}, channel_id=d.where)
        (sent,) = await rec.wait_followups(1)
        (data,) = sent["files"].values()
        path = tmp_path / f"game-{gid}.json"
        path.write_bytes(data)
        assert replay.main([str(path)]) == 0
        printed = capsys.readouterr().out
        t = await d.load()
        result = t.result()
        for seat, score in enumerate(result.scores):
            assert f"{t.name_of(seat)}: {score}" in printed
        record = json.loads(data)
        assert record["seed"] == t.row.seed and len(record["choices"]) <= len(record["record"])


def _buttons(message: dict) -> list[tuple[str, str]]:
    out = []
    for row in message["components"]:
        for c in row.get("components", []):
            if c.get("custom_id"):
                out.append((c["custom_id"], c.get("label", "")))
    return out
