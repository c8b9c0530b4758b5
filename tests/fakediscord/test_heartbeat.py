"""Issue 24: the local table logged discord.py's "Can't keep up, websocket is 41 s behind" while clicks answered
in a second or two. The cause: discord.py's heartbeat thread notes when it sent a heartbeat only after the send
has completed on the event loop, and the fake gateway, in the same process, answered at once, so the answer could
be handled first and measured against the heartbeat before: one whole interval (41 s) "behind", logged above
10 s. The fake answers a heartbeat after a network's delay (``ACK_DELAY_S``), as Discord's gateway does from
afar, so each answer is measured against its own heartbeat."""

from __future__ import annotations

import asyncio

from discord.gateway import KeepAliveHandler

from fakediscord.server.gateway import ACK_DELAY_S
from tests.cogs.driver import Clock, bot_on
from tests.fakediscord.fixtures import fake_server

INTERVAL_MS = 300


async def test_each_heartbeat_answer_is_measured_against_its_own_heartbeat(tmp_path, monkeypatch) -> None:
    measured: list[float] = []
    real_ack = KeepAliveHandler.ack

    def ack(self: KeepAliveHandler) -> None:
        real_ack(self)
        measured.append(self.latency)

    monkeypatch.setattr(KeepAliveHandler, "ack", ack)
    async with (
        fake_server(heartbeat_interval_ms=INTERVAL_MS) as server,
        bot_on(server, tmp_path / "t.sqlite3", Clock()),
    ):
        await asyncio.sleep(2.4)  # about eight heartbeats
    assert len(measured) >= 6, measured
    # an answer measured against the heartbeat before shows a whole interval (0.3 s); against its own, the
    # gateway's delay (0.1 s) and a little
    assert max(measured) < ACK_DELAY_S + 0.1 < INTERVAL_MS / 1000, [round(x, 3) for x in measured]
