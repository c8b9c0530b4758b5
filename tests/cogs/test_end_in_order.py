"""Issue 24, "the end in order", through the fake Discord with the real bot: complete Speakeasy (4 players, and
solo against Jo) and Omerta games end with the last turn's story, then one final message, the last post of the
thread; no finished board asks anyone to move; the lobby links the result; and no 6 posts land in a thread
within 5 seconds (measured on the fake Discord's record of each request, stamped with the test's clock, which
the bot's pauses move on)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.publish.story import END_KINDS
from tests.cogs.driver import CHANNEL, Driver, appears, ids_of, play_to_end, table, told
from tests.fakediscord import payloads as p

pytestmark = pytest.mark.slow


def posts_in(d: Driver, channel: int) -> list[Any]:
    """Every message the bot posted in ``channel`` (accepted by Discord), in order."""
    return [
        r
        for r in d.server.requests
        if r.method == "POST"
        and r.path == f"/channels/{channel}/messages"
        and r.status < 300
        and isinstance(r.response, dict)
    ]


def busiest_five_seconds(times: list[float]) -> int:
    """The most posts within any 5 seconds (a window closed at both ends)."""
    best, lo = 0, 0
    for hi, t in enumerate(times):
        while t - times[lo] >= 5.0:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


async def check_end_in_order(d: Driver) -> dict[str, Any]:
    """The end as issue 24 wants it; returns the final message and the pace figures."""
    store = d.bot.service.store
    t = await d.load()
    assert t.row.status == "finished"
    posts = posts_in(d, d.where)
    final = posts[-1]
    board = await store.get_message(d.gid, "board")
    assert board is not None and int(final.response["id"]) == board.message_id, "the final message is the last post"
    message = d.server.message(board.message_id)
    players = {s.user_id for s in t.seats if s.user_id > 0}
    # one final message: the standings and the picture, every player named once, no question; its buttons are
    # Rematch and Replay (issue 26)
    assert {int(u) for u in final.json["allowed_mentions"]["users"]} == players
    assert "Game over: " in message["content"] and "Your move" not in message["content"]
    assert message["attachments"] and ids_of(message) == [f"rm|{d.gid}", f"ro|{d.gid}"]
    # the last turn's story was told before it: every public line up to the end's first line
    events = await store.get_events(d.gid, public_only=True)
    cut = next(i for i, e in enumerate(events) if e.kind in END_KINDS)
    before = [
        str(r.json.get("content") or "")
        for r in d.server.requests
        if r.index < final.index
        and r.method in ("POST", "PATCH")
        and r.path.startswith(f"/channels/{d.where}/messages")
        and isinstance(r.json, dict)
    ]
    names = [s.name for s in t.seats] + ["Jo"]
    shown = "\n".join(before)
    missing = [e.text for e in told(events[:cut]) if not appears(e.text, names, shown)]
    assert not missing, f"told after the final message or never: {missing[:3]}"
    # no finished board asks anyone to move: no message of the thread says "Your move" now, and nothing posted
    # after the last turn's board pings except the final message
    for m in d.server.messages_in(d.where):
        assert "Your move" not in m["content"], m["content"][:200]
    last_turn = max(i for i, r in enumerate(posts) if "Your move" in str(r.json.get("content")))
    for r in posts[last_turn + 1 : -1]:
        assert not (r.json.get("allowed_mentions") or {}).get("users"), r.json.get("content", "")[:200]
    # the lobby message says the game is over and links the result
    lobby = await store.get_message(d.gid, "lobby")
    assert lobby is not None
    link = f"https://discord.com/channels/{p.GUILD_ID}/{d.where}/{board.message_id}"
    lobby_text = d.server.message(lobby.message_id)["content"]
    assert "(over)" in lobby_text and link in lobby_text, lobby_text
    # the pace: no 6 posts in any 5 seconds in the thread
    times = [r.at for r in posts]
    assert times == sorted(times)
    busiest = busiest_five_seconds(times)
    assert busiest <= 5, f"{busiest} posts within 5 seconds"
    return {"final": message, "posts": len(posts), "busiest": busiest}


# The complete 4-player and solo Speakeasy games of tests/cogs/test_speakeasy_table.py end with
# check_end_in_order too (each game is played once in the suite).


async def test_an_omerta_game_ends_in_order_and_calls_omerta_before_the_result(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        await play_to_end(d)
        got = await check_end_in_order(d)
        print("figures:", {k: v for k, v in got.items() if k != "final"})
        final = got["final"]
        assert [a["filename"] for a in final["attachments"]] == ["reveal.png"]
        assert "Final standings (lowest total wins):" in final["content"]
        # "calls OMERTA!" (or the round's end without a caller) was shown before the final message was posted
        posts = posts_in(d, d.where)
        before = [r for r in d.server.requests if r.index < posts[-1].index and isinstance(r.json, dict)]
        assert any(
            "calls OMERTA!" in str(r.json.get("content")) or "without a caller" in str(r.json.get("content"))
            for r in before
        )


async def test_a_burst_of_posts_waits_for_the_channels_pace(tmp_path):
    """Seven posts asked for at once in one thread: five go at once, the sixth and seventh wait until the
    first and second are 5 seconds old (the bot's clock, moved on by its pause)."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        channel = await bot.publisher.channel(d.where)
        start = clock.now
        for i in range(7):
            await bot.publisher.post(channel, f"line {i}")
        times = [r.at - start for r in posts_in(d, d.where) if str(r.json.get("content", "")).startswith("line ")]
        assert len(times) == 7
        assert busiest_five_seconds(times) <= 5  # (a post of the start shares the first five seconds)
        assert times[5] >= times[0] + 5.0 and times[6] >= times[1] + 5.0
        # another channel has a pace of its own: not held up by this one
        other = await bot.publisher.channel(CHANNEL)
        before = clock.now
        await bot.publisher.post(other, "elsewhere")
        assert clock.now == before
