"""Tests proving the fake Discord harness with a tiny discord.py bot defined here."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from . import payloads as p
from .fixtures import fake_discord, running_bot  # noqa: F401  (fake_discord is a fixture)
from .server import BotCrashed, BotLoggedError, FakeDiscordServer, FakeDiscordTimeout, custom_ids

PNG_BYTES = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
GUILD = discord.Object(p.GUILD_ID)


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"t:(?P<n>\d+)"):
    """A persistent counter button; its state lives in the custom id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"+1 ({n})", custom_id=f"t:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.seen_ids.append(interaction.id)  # type: ignore[attr-defined]
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class ColourSelect(discord.ui.View):
    """A view with one string select."""

    @discord.ui.select(
        custom_id="colour",
        options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")],
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class Feedback(discord.ui.Modal, title="Feedback"):
    """A modal with a required and an optional text input."""

    note: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Note", custom_id="note")
    extra: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Extra", custom_id="extra", required=False)

    def __init__(self) -> None:
        super().__init__(custom_id="feedback")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks: {self.note.value}/{self.extra.value}")


class TinyBot(commands.Bot):
    """The bot under test: a handful of commands exercising each harness feature."""

    def __init__(self, *, members_intent: bool = True, **kwargs: Any) -> None:
        intents = discord.Intents.default()
        intents.members = members_intent  # with it, discord.py chunks the guild (op 8) at startup
        super().__init__(command_prefix="!", intents=intents, **kwargs)
        self.seen_ids: list[int] = []

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        await self.tree.sync()
        await self.tree.sync(guild=GUILD)


def build_bot(**kwargs: Any) -> TinyBot:
    """Factory passed to running_bot."""
    bot = TinyBot(**kwargs)
    tree = bot.tree

    @tree.command(description="Ping (ephemeral)")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    @tree.command(description="Deferred render with a file")
    async def render(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(
            content="rendered", attachments=[discord.File(io.BytesIO(PNG_BYTES), "board.png")]
        )
        await interaction.followup.send("details", ephemeral=True)

    @tree.command(description="Deferred ephemeral, then one followup")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("ready")

    @tree.command(description="Posts a counter")
    async def counter(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        await interaction.response.send_message("count 0", view=view)

    @tree.command(description="Posts a counter with channel.send")
    async def post(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(10))
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("count 10", view=view)
        await interaction.response.send_message("posted", ephemeral=True)

    @tree.command(description="Select a colour")
    async def colours(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("choose", view=ColourSelect(timeout=None))

    @tree.command(description="Open a modal")
    async def feedback(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())

    @tree.command(description="DM a user")
    async def dm(interaction: discord.Interaction, user: discord.Member) -> None:
        try:
            await user.send(f"hello {user.display_name}")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"failed {exc.code}", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @tree.command(description="Open a private table thread")
    async def table(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(name="table-1", type=discord.ChannelType.private_thread, invitable=False)
        assert isinstance(interaction.user, discord.Member)
        await thread.add_user(interaction.user)
        await thread.send(f"welcome {interaction.user.mention}")
        await interaction.response.send_message(f"thread {thread.id}", ephemeral=True)

    @tree.command(description="When was this sent?")
    async def when(interaction: discord.Interaction) -> None:
        ms = int(interaction.created_at.timestamp() * 1000)
        await interaction.response.send_message(str(ms), ephemeral=True)

    @tree.command(description="Always fails")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    game = app_commands.Group(name="game", description="Game commands", guild_ids=[p.GUILD_ID])
    admin = app_commands.Group(name="admin", description="Admin", parent=game)

    @game.command(name="new", description="New game")
    @app_commands.describe(players="How many players")
    async def game_new(
        interaction: discord.Interaction, players: app_commands.Range[int, 2, 6], name: str = "table"
    ) -> None:
        await interaction.response.send_message(f"new {name} for {players}")

    @game.command(name="join", description="Join a table")
    async def game_join(interaction: discord.Interaction, table: str) -> None:
        await interaction.response.send_message(f"joined {table}", ephemeral=True)

    @game_join.autocomplete("table")
    async def table_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        tables = ["alpha", "alpine", "beta"]
        return [app_commands.Choice(name=t.title(), value=t) for t in tables if t.startswith(current)]

    @admin.command(name="kick", description="Kick a player")
    async def admin_kick(interaction: discord.Interaction, user: discord.Member) -> None:
        await interaction.response.send_message(f"kicked {user.display_name} ({user.id})")

    tree.add_command(game)
    return bot


# ---------------------------------------------------------------------------


async def test_login_sync_and_guild_cache() -> None:
    async with running_bot(build_bot, server_options={"heartbeat_interval_ms": 50}) as (bot, server):
        assert bot.user is not None and bot.user.id == p.APP_ID
        guild = bot.get_guild(p.GUILD_ID)
        assert guild is not None and guild.owner_id == p.uid(p.OWNER)
        assert {c.name for c in guild.text_channels} == {"general", "games", "lobby"}
        names = {m.display_name for m in guild.members}
        assert {"Anna", "Ben", "Cleo", "Dan", "Eve", "Finn", "Olga"} <= names
        owner = guild.get_member(p.uid(p.OWNER))
        assert owner is not None and owner.guild_permissions.administrator
        anna = guild.get_member(p.uid(p.ANNA))
        assert anna is not None and not anna.guild_permissions.administrator

        assert set(server.commands[None]) >= {"ping", "render", "counter", "dm", "table"}
        assert set(server.commands[p.GUILD_ID]) == {"game"}
        put = await server.wait_for_request("PUT", rf"/applications/{p.APP_ID}/guilds/{p.GUILD_ID}/commands")
        assert put.headers["Authorization"] == "Bot fake-token"
        # heartbeats are acknowledged, so latency becomes finite
        await server.wait_until(lambda: any(f["op"] == 1 for f in server.gateway_log), 2)
        await server.wait_until(lambda: bot.latency != float("inf"), 2, what="a heartbeat ACK")


async def test_slash_answered_ephemerally() -> None:
    async with running_bot(build_bot) as (_bot, server):
        rec = await server.slash(p.ANNA, "ping")
        assert rec.callback_type == 4
        assert rec.callback is not None and rec.callback.query == {"with_response": "1"}
        assert rec.content == "pong" and rec.ephemeral
        assert server.ephemeral_for(p.ANNA) == [rec.message]
        assert server.ephemeral_for(p.BEN) == []
        assert server.messages_in(p.GENERAL_CHANNEL_ID) == []
        assert rec.message is not None
        assert rec.message["interaction_metadata"]["user"]["id"] == p.ANNA["id"]


async def test_defer_edit_original_with_file_and_followup() -> None:
    async with running_bot(build_bot) as (_bot, server):
        rec = await server.slash(p.BEN, "render", channel_id=p.GAMES_CHANNEL_ID)
        assert rec.callback_type == 5
        msg = await rec.wait_edits(1)
        assert msg is not None and msg["content"] == "rendered"
        assert rec.files == {"board.png": PNG_BYTES}
        assert msg["attachments"][0]["filename"] == "board.png"
        assert not rec.ephemeral
        assert rec.edits[0].files == {"board.png": PNG_BYTES}
        followups = await rec.wait_followups(1)
        assert followups[0]["content"] == "details" and followups[0]["ephemeral"]
        assert server.last_message(p.GAMES_CHANNEL_ID) == msg
        assert server.ephemeral_for(p.BEN) == followups


async def test_first_followup_after_defer_replaces_thinking_message() -> None:
    async with running_bot(build_bot) as (_bot, server):
        rec = await server.slash(p.CLEO, "slow")
        assert rec.callback_type == 5 and rec.ephemeral
        followups = await rec.wait_followups(1)
        assert followups[0]["id"] == rec.message["id"]  # type: ignore[index]
        assert rec.content == "ready" and rec.ephemeral


async def test_persistent_dynamic_button() -> None:
    async with running_bot(build_bot) as (bot, server):
        rec = await server.slash(p.ANNA, "counter")
        assert rec.content == "count 0"
        mid = rec.message["id"]  # type: ignore[index]
        assert custom_ids(rec.components) == ["t:0"]

        click = await server.click(p.BEN, mid, "t:0")
        assert click.callback_type == 7
        assert server.message(mid)["content"] == "count 1"
        assert custom_ids(server.message(mid)["components"]) == ["t:1"]

        with pytest.raises(ValueError, match="no component 't:0'"):
            await server.click(p.BEN, mid, "t:0")
        await server.click(p.CLEO, mid, "t:1")
        assert server.message(mid)["content"] == "count 2"

        # a message sent with channel.send is clickable too
        posted = await server.slash(p.DAN, "post")
        assert posted.content == "posted"
        board = server.last_message(p.GENERAL_CHANNEL_ID)
        assert board is not None and board["content"] == "count 10"
        await server.click(p.EVE, board["id"], "t:10")
        assert server.message(board["id"])["content"] == "count 11"
        assert len(bot.seen_ids) == 3


async def test_select_menu() -> None:
    async with running_bot(build_bot) as (_bot, server):
        rec = await server.slash(p.ANNA, "colours")
        choice = await server.click(p.FINN, rec.message["id"], "colour", values=["red", "blue"])  # type: ignore[index]
        assert choice.payload["data"] == {"custom_id": "colour", "component_type": 3, "values": ["red", "blue"]}
        assert choice.content == "picked red,blue" and choice.ephemeral
        with pytest.raises(ValueError, match="no option"):
            await server.click(p.FINN, rec.message["id"], "colour", values=["pink"])  # type: ignore[index]


async def test_modal_submit() -> None:
    async with running_bot(build_bot) as (_bot, server):
        opened = await server.slash(p.EVE, "feedback")
        assert opened.callback_type == 9
        assert opened.modal is not None and opened.modal["custom_id"] == "feedback"
        with pytest.raises(ValueError, match="required input 'note'"):
            await server.submit_modal(p.EVE, {"extra": "x"})
        submitted = await server.submit_modal(p.EVE, {"note": "great game"})
        assert submitted.callback_type == 4
        assert submitted.content == "thanks: great game/"


async def test_autocomplete_and_subcommands() -> None:
    async with running_bot(build_bot) as (_bot, server):
        choices = await server.autocomplete(p.ANNA, "game join", {"table": "al"}, focused="table")
        assert choices == [{"name": "Alpha", "value": "alpha"}, {"name": "Alpine", "value": "alpine"}]

        rec = await server.slash(p.ANNA, "game new", {"players": 4})
        assert rec.content == "new table for 4"
        assert rec.payload["data"]["guild_id"] == str(p.GUILD_ID)
        with pytest.raises(ValueError, match="above max_value"):
            await server.slash(p.ANNA, "game new", {"players": 9})
        with pytest.raises(ValueError, match="missing required"):
            await server.slash(p.ANNA, "game new", {"name": "x"})

        kick = await server.slash(p.OWNER, "game admin kick", {"user": p.DAN})
        assert kick.content == f"kicked Dan ({p.uid(p.DAN)})"
        opts = kick.payload["data"]["options"]
        assert opts[0]["type"] == 2 and opts[0]["options"][0]["type"] == 1
        assert kick.payload["member"]["permissions"] == str(p.Perm.ALL)

        # raw nested options work too
        raw = p.slash_interaction(
            server.new_id(),
            "game",
            [p.subcommand("new", [p.option("players", 3, p.OptionType.INTEGER)])],
            command_id=server.commands[p.GUILD_ID]["game"]["id"],
            command_guild_id=p.GUILD_ID,
            user_obj=p.BEN,
            channel={**server.channel(p.GENERAL_CHANNEL_ID), "guild_id": str(p.GUILD_ID)},
            guild_id=p.GUILD_ID,
            member_obj=server.member_payload(p.BEN),
        )
        assert (await server.send_interaction(raw)).content == "new table for 3"


async def test_dm_success_and_forbidden() -> None:
    async with running_bot(build_bot) as (_bot, server):
        ok = await server.slash(p.ANNA, "dm", {"user": p.BEN})
        assert ok.content == "sent"
        assert [m["content"] for m in server.dm_messages(p.BEN)] == ["hello Ben"]

        dm_id = server.fail_dm(p.CLEO)
        failed = await server.slash(p.ANNA, "dm", {"user": p.CLEO})
        assert failed.content == "failed 50007"
        assert server.dm_messages(p.CLEO) == []
        req = await server.wait_for_request("POST", rf"/channels/{dm_id}/messages")
        assert req.status == 403 and req.json["content"] == "hello Cleo"


async def test_forbidden_maps_to_discord_exception(fake_discord: FakeDiscordServer) -> None:  # noqa: F811
    server = fake_discord
    dm_id = server.fail_dm(p.DAN)
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        await http.static_login("fake-token")
        with pytest.raises(discord.Forbidden) as info:
            await http.send_message(dm_id, params=discord.http.handle_message_parameters(content="hi"))
        assert info.value.code == 50007 and info.value.status == 403
    finally:
        await http.close()


async def test_private_thread() -> None:
    async with running_bot(build_bot) as (bot, server):
        rec = await server.slash(p.FINN, "table", channel_id=p.LOBBY_CHANNEL_ID)
        assert rec.content is not None and rec.content.startswith("thread ")
        (thread,) = server.threads()
        assert thread["type"] == 12 and thread["parent_id"] == str(p.LOBBY_CHANNEL_ID)
        assert thread["thread_metadata"]["invitable"] is False
        assert server.thread_members[int(thread["id"])] == {p.APP_ID, p.uid(p.FINN)}
        (welcome,) = server.messages_in(thread["id"])
        assert welcome["content"] == f"welcome <@{p.uid(p.FINN)}>"
        assert [u["id"] for u in welcome["mentions"]] == [p.FINN["id"]]
        # THREAD_CREATE reached the bot's cache; interactions inside the thread work
        await server.wait_until(lambda: bot.get_channel(int(thread["id"])) is not None, what="THREAD_CREATE")
        inside = await server.slash(p.FINN, "ping", channel_id=thread["id"])
        assert inside.content == "pong" and inside.channel_id == int(thread["id"])
        with pytest.raises(ValueError, match="cannot see private thread"):
            await server.slash(p.ANNA, "ping", channel_id=thread["id"])


async def test_dropped_socket_resumes() -> None:
    async with running_bot(build_bot) as (_bot, server):
        assert (await server.slash(p.ANNA, "ping")).content == "pong"
        await server.drop_connection()
        assert server.resumes == 1 and server.identifies == 1
        assert any(f["op"] == 6 for f in server.gateway_log)
        assert (await server.slash(p.BEN, "ping")).content == "pong"
        await server.request_reconnect()
        assert server.resumes == 2
        assert (await server.slash(p.CLEO, "ping")).content == "pong"


async def test_interaction_id_timestamps() -> None:
    ts = 1767225600123  # 2026-01-01T00:00:00.123Z
    sf = p.snowflake(ts, 5)
    assert p.snowflake_ms(sf) == ts and (sf >> 22) + 1420070400000 == ts
    assert discord.utils.snowflake_time(sf).timestamp() == pytest.approx(ts / 1000)
    with pytest.raises(ValueError):
        p.snowflake(1000)

    async with running_bot(build_bot) as (bot, server):
        rec = await server.slash(p.ANNA, "when", ts_ms=ts)
        assert rec.id >> 22 == ts - p.DISCORD_EPOCH_MS and rec.timestamp_ms == ts
        assert rec.content == str(ts)

        # two concurrent clicks: the bot sees the timestamps the test chose
        counter = await server.slash(p.ANNA, "counter")
        mid = counter.message["id"]  # type: ignore[index]
        late, early = await asyncio.gather(
            server.click(p.BEN, mid, "t:0", ts_ms=ts + 500),
            server.click(p.CLEO, mid, "t:0", ts_ms=ts + 100, check=False),
        )
        assert {p.snowflake_ms(i) for i in bot.seen_ids} == {ts + 500, ts + 100}
        assert early.timestamp_ms < late.timestamp_ms


async def test_crashed_gateway_surfaces_as_error() -> None:
    with pytest.raises(BotCrashed, match="attachment_size_limit"):
        async with running_bot(build_bot) as (_bot, server):
            bad = p.slash_interaction(
                server.new_id(),
                "ping",
                user_obj=p.ANNA,
                channel={"id": str(p.GENERAL_CHANNEL_ID), "type": 0},
                guild_id=p.GUILD_ID,
                member_obj=server.member_payload(p.ANNA),
            )
            del bad["attachment_size_limit"]
            await server.send_interaction(bad, timeout=2)


async def test_command_error_surfaces_immediately() -> None:
    async with running_bot(build_bot) as (_bot, server):
        loop = asyncio.get_running_loop()
        start = loop.time()
        with pytest.raises(BotLoggedError, match="kaboom"):
            await server.slash(p.ANNA, "boom", timeout=5)
        assert loop.time() - start < 1.0


async def test_late_acknowledgement_is_rejected_like_discord() -> None:
    async with running_bot(build_bot, server_options={"ack_deadline_s": 0.0}) as (_bot, server):
        with pytest.raises(BotLoggedError, match="Unknown interaction"):
            await server.slash(p.ANNA, "ping")
        rejected = server.requests_matching("POST", r"/interactions/\d+/[^/]+/callback")
        assert [r.status for r in rejected] == [404]


async def test_channel_messages_faults_unknown_routes_and_timeouts() -> None:
    async with running_bot(build_bot, check_unhandled=False) as (bot, server):
        with pytest.raises(discord.NotFound):
            await bot.http.request(discord.http.Route("GET", "/not/a/route"))
        assert [(r.method, r.path) for r in server.unhandled] == [("GET", "/not/a/route")]

        fault = server.fail("POST", rf"/channels/{p.GAMES_CHANNEL_ID}/messages", 403, times=1)
        channel = bot.get_channel(p.GAMES_CHANNEL_ID)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.Forbidden):
            await channel.send("first")
        sent = await channel.send("second", file=discord.File(io.BytesIO(b"abc"), "a.txt"))
        assert fault.hits == 1
        assert server.last_message(p.GAMES_CHANNEL_ID)["files"] == {"a.txt": b"abc"}  # type: ignore[index]
        assert await sent.attachments[0].read() == b"abc"
        history = [m.content async for m in channel.history(limit=5)]
        assert history == ["second"]

        # edit through a partial message, replacing the attachment (as the board publisher does)
        await channel.get_partial_message(sent.id).edit(
            content=f"board <@{p.uid(p.ANNA)}>",
            attachments=[discord.File(io.BytesIO(PNG_BYTES), "table.png")],
            allowed_mentions=discord.AllowedMentions.none(),
        )
        edited = server.message(sent.id)
        assert edited["files"] == {"table.png": PNG_BYTES} and edited["edited_timestamp"] is not None
        assert edited["mentions"] == []
        await channel.send(
            f"hi <@{p.uid(p.ANNA)}> <@{p.uid(p.BEN)}>",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(p.uid(p.BEN))]),
        )
        assert [u["username"] for u in server.last_message(channel.id)["mentions"]] == ["ben"]  # type: ignore[index]

        with pytest.raises(KeyError):
            await server.click(p.ANNA, 1234, "t:0")
        with pytest.raises(FakeDiscordTimeout, match="waiting for DELETE"):
            await server.wait_for_request("DELETE", r"/channels/\d+", timeout=0.1)


async def test_default_intents_without_member_cache() -> None:
    async with running_bot(build_bot, members_intent=False) as (bot, server):
        guild = bot.get_guild(p.GUILD_ID)
        assert guild is not None and guild.get_member(p.uid(p.ANNA)) is None
        assert server.identify_payload is not None
        assert not server.identify_payload["intents"] & discord.Intents(members=True).value
        rec = await server.slash(p.ANNA, "dm", {"user": p.BEN})
        assert rec.content == "sent"
        user = await bot.fetch_user(p.uid(p.EVE))
        assert user.name == "eve"
        thread_owner = await server.slash(p.OWNER, "table")
        assert thread_owner.content is not None
        thread_id = int(server.threads()[0]["id"])
        fetched = await bot.fetch_channel(thread_id)
        assert isinstance(fetched, discord.Thread) and fetched.type is discord.ChannelType.private_thread
