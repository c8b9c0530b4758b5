"""One thread per game (issue "The channel tells the story"): a new table opens in a public thread of the
channel, named for the game and its players; without the right to make threads, or with the server setting
off, the game is played in the channel; a post re-opens an archived thread."""

from __future__ import annotations

from tests.cogs.driver import CHANNEL, Driver, answer, table
from tests.fakediscord import payloads as p


async def test_a_new_table_plays_in_its_own_thread_named_for_its_players(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        thread = server.channel(d.where)
        assert d.where != CHANNEL and thread["type"] == 11 and int(thread["parent_id"]) == CHANNEL
        assert thread["name"] == f"Omerta #{gid} · Anna, Ben, Cleo"
        assert thread["thread_metadata"]["auto_archive_duration"] == 10080
        board = await d.board()
        assert int(board["channel_id"]) == d.where
        # the lobby message stays in the channel (it starts the thread); nothing else goes there
        assert all("Seated:" in m["content"] for m in server.messages_in(CHANNEL))
        # commands work from inside the thread without naming the game
        rec = await server.slash(p.BEN, "game status", {}, channel_id=d.where)
        (reply,) = await rec.wait_followups(1)
        assert "Board posted" in reply["content"]
        # an archived thread is re-opened by the next post
        await server.archive_thread(d.where)
        t = await d.load()
        pr = next(pr for pr in t.prompts() if pr.kind == "peek")
        await answer(d, pr.seat, "peek", pr.options[0].id, pr.secret)
        await d.settle()
        assert not server.channel(d.where)["thread_metadata"]["archived"]


async def test_without_the_right_to_make_threads_the_game_is_played_in_the_channel(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        server.fail(
            "POST", rf"/channels/{CHANNEL}/messages/\d+/threads", 403, p.error_body(50013, "Missing Permissions")
        )
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        assert d.where == CHANNEL and int((await d.board())["channel_id"]) == CHANNEL
        assert not server.take_error_logs()


async def test_an_admin_can_turn_threads_off_for_new_tables(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        refused = await server.slash(p.BEN, "game settings", {"threads": False}, channel_id=CHANNEL)
        (reply,) = await refused.wait_followups(1)
        assert "Only a server admin" in reply["content"]
        done = await server.slash(p.OWNER, "game settings", {"threads": False}, channel_id=CHANNEL)
        (reply,) = await done.wait_followups(1)
        assert "played in their channel" in reply["content"]
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        assert d.where == CHANNEL and not [t for t in server.threads() if t["type"] == 11]
