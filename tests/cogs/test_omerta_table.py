"""Omerta at the Discord table, through the fake Discord with the real, unpatched bot."""

from __future__ import annotations

from tests.cogs.driver import CHANNEL, Driver, table
from tests.fakediscord import payloads as p


async def test_smoke_open_join_start_and_peek(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        board = await d.board()
        assert board["content"].startswith(f"**Game #{gid} · Omerta")
        assert "table.png" in board["files"]
        rec = await d.click_board(0, "peek", "0,1")
        await rec.wait_followups(1)
        assert "You peek" in rec.followups[-1]["content"]
        assert rec.followups[-1]["ephemeral"]
        assert CHANNEL
