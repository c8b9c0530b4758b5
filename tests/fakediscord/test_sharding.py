"""The fake Discord shards like Discord: IDENTIFY with [shard_id, shard_count], a guild's events go to shard
(guild_id >> 22) % shard_count, DMs to shard 0, and one process's connections can be killed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord

from .fixtures import fake_server
from .payloads import ANNA, GUILD_ID
from .server import FakeDiscordServer


class ShardReporter(discord.AutoShardedClient):
    """A client (one bot process) on some shards that answers every interaction with the shards it runs."""

    def __init__(self, shard_ids: list[int]) -> None:
        super().__init__(intents=discord.Intents.default(), shard_count=2, shard_ids=shard_ids)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"process {self.shard_ids}")


@contextlib.asynccontextmanager
async def process(server: FakeDiscordServer, shard_ids: list[int]) -> AsyncIterator[ShardReporter]:
    client = ShardReporter(shard_ids)
    client._connection.guild_ready_timeout = 0.05
    task = asyncio.create_task(client.start("fake-token"))
    try:
        await server.wait_until(client.is_ready, 5, what=f"the client of shards {shard_ids} to be ready")
        yield client
    finally:
        await client.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, 5)


async def test_two_processes_get_their_own_shards_events() -> None:
    home = (GUILD_ID >> 22) % 2  # the shard of the fake's guild
    async with fake_server(shards=2) as server, process(server, [0]) as zero, process(server, [1]) as one:
        assert sorted(server.identified_shards) == [(0, 2), (1, 2)]
        assert server.shard_of(GUILD_ID) == home and server.shard_of(None) == 0
        owner, other = (zero, one) if home == 0 else (one, zero)
        assert owner.get_guild(GUILD_ID) is not None  # GUILD_CREATE went to the guild's shard only
        assert other.get_guild(GUILD_ID) is None
        in_guild = await server.slash(ANNA, "where")
        assert in_guild.content == f"process [{home}]"
        in_dm = await server.slash(ANNA, "where", channel_id=server.dm_channel_id(ANNA))
        assert in_dm.content == "process [0]"  # a DM goes to shard 0, wherever the guild lives
        assert server.interactions[in_dm.id].guild_id is None
        dm_events = [f for f in server.sessions[0].sent if f["t"] == "INTERACTION_CREATE"]
        assert any(int(f["d"]["id"]) == in_dm.id for f in dm_events)

        # one process dies: its shard is gone, the other keeps working
        await server.kill_connections(one.shard_ids or [])
        await one.close()  # and stays dead
        await server.wait_until(lambda: server._session(0) is not None, 5, what="shard 0 to stay up")
        assert (await server.slash(ANNA, "where", channel_id=server.dm_channel_id(ANNA))).content == "process [0]"


async def test_a_twin_guild_lives_on_its_own_shard() -> None:
    async with fake_server(shards=2) as server:
        twin_id = GUILD_ID + (1 << 22)
        twin = server.add_twin_guild(twin_id)
        assert set(twin) == {"Text Channels", "general", "games", "lobby"}
        async with process(server, [0]) as zero, process(server, [1]) as one:
            shard_of_twin = server.shard_of(twin_id)
            assert shard_of_twin != server.shard_of(GUILD_ID)
            owner = one if shard_of_twin == 1 else zero
            guild = owner.get_guild(twin_id)
            assert guild is not None and guild.default_role.id == twin_id
            assert {c.name for c in guild.text_channels} == {"general", "games", "lobby"}
            rec = await server.slash(ANNA, "where", channel_id=twin["general"])
            assert rec.guild_id == twin_id and rec.content == f"process [{shard_of_twin}]"
