"""Issue 22, limits on spam, where the user meets them (the real bot through the fake Discord, on the test's
clock): ``/game status`` reposts a board at most once a minute per game, a user hosts at most three open lobbies
per server, an unstarted lobby closes itself after seven days with a line in its thread, ``/hint`` and ``/board``
have a per-user cooldown; each refusal says when to try again. And the bot keeps nothing of a game that is over."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from cogs.langs import Langs
from cogs.publish import Publisher
from cogs.publish.publisher import SCREEN_GAMES
from service import Settings
from tests.cogs.driver import CHANNEL, Clock, Driver, bot_on, ids_of, table
from tests.fakediscord import payloads as p
from tests.fakediscord.fixtures import fake_server

DAY = 86400.0


def _pictures(messages: list[dict[str, Any]]) -> int:
    return sum(len(m.get("attachments") or []) for m in messages)


async def test_status_reposts_a_board_at_most_once_a_minute_and_else_links_it(tmp_path):
    """Twenty ``/game status`` by someone not seated, a tenth of a second apart: one board and one picture; the
    others are told where the latest board is and when it can be posted again."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        before = server.messages_in(d.where)
        rec = await server.slash(p.DAN, "game status", {"game": d.gid}, channel_id=CHANNEL)
        assert "Board posted" in (await rec.wait_followups(1))[-1]["content"]
        posted = server.messages_in(d.where)
        assert len(posted) == len(before) + 1 and _pictures(posted) == _pictures(before) + 1
        board = await bot.service.store.get_message(d.gid, "board")
        link = f"https://discord.com/channels/{p.GUILD_ID}/{board.channel_id}/{board.message_id}"
        again = int(clock.now) + 60
        for _ in range(19):
            clock.now += 0.1
            rec = await server.slash(p.DAN, "game status", {"game": d.gid}, channel_id=CHANNEL)
            (reply,) = await rec.wait_followups(1)
            assert reply["ephemeral"]
            assert reply["content"] == (
                f"Game #{d.gid}'s board was posted less than 60 seconds ago: {link}\n"
                f"It can be posted again <t:{again}:R>."
            )
        assert server.messages_in(d.where) == posted  # nothing more was posted (or drawn)
        clock.now = again
        rec = await server.slash(p.ANNA, "game status", {}, channel_id=d.where)
        assert "Board posted" in (await rec.wait_followups(1))[-1]["content"]
        assert len(server.messages_in(d.where)) == len(posted) + 1


async def test_a_fourth_open_lobby_in_a_server_is_refused_saying_what_to_do(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        for _ in range(3):
            rec = await server.slash(p.ANNA, "game new", {"game": "omerta"}, channel_id=CHANNEL)
            assert "is open" in (await rec.wait_followups(1))[-1]["content"]

        def threads() -> list[dict[str, Any]]:
            return [c for c in server.channels.values() if c.get("type") == 11]

        await server.wait_until(lambda: len(threads()) == 3, 5, what="three lobbies with their threads")
        rec = await server.slash(p.ANNA, "game new", {"game": "omerta"}, channel_id=CHANNEL)
        (reply,) = await rec.wait_followups(1)
        ids = [g.id for g in await bot.service.store.list_games(p.GUILD_ID)]
        assert reply["ephemeral"] and reply["content"].startswith(
            f"You already host 3 open lobbies in this server (#{ids[0]}, #{ids[1]}, #{ids[2]})"
        )
        assert "Start one (/game start), or leave or abandon one" in reply["content"]
        assert f"#{ids[0]} closes itself unstarted <t:{int(clock.now + 7 * DAY)}:R>" in reply["content"]
        assert len(server.messages_in(CHANNEL)) == 3  # no lobby message, no thread
        assert len(threads()) == 3
        rec = await server.slash(p.BEN, "game new", {"game": "omerta"}, channel_id=CHANNEL)  # Ben may
        assert "is open" in (await rec.wait_followups(1))[-1]["content"]


async def test_an_unstarted_lobby_closes_itself_after_seven_days_with_a_line_in_its_thread(tmp_path):
    """The line is posted in the lobby's thread (in the table's language) and the lobby message loses its buttons;
    a lobby younger than seven days stays open."""
    async with table(tmp_path) as (server, bot, clock):
        rec = await server.slash(p.ANNA, "game new", {"game": "omerta"}, channel_id=CHANNEL)
        await rec.wait_followups(1)
        german = await server.slash(p.BEN, "game new", {"game": "omerta", "options": "lang=de"}, channel_id=CHANNEL)
        await german.wait_followups(1)
        await server.wait_until(lambda: len(server.messages_in(CHANNEL)) == 2, 5, what="the lobby messages")
        clock.now += DAY
        young = await server.slash(p.CLEO, "game new", {"game": "omerta"}, channel_id=CHANNEL)
        await young.wait_followups(1)
        await server.wait_until(lambda: len(server.messages_in(CHANNEL)) == 3, 5, what="the third lobby")
        old, de, new = await bot.service.store.list_games(p.GUILD_ID)
        clock.now += 6 * DAY
        play = bot.get_cog("Play")
        assert await play.expire_lobbies() == 2
        assert await play.expire_lobbies() == 0
        for game, line in (
            (old, f"Game #{old.id} has closed itself: it was not started within 7 days of being opened."),
            (de, f"Spiel #{de.id} hat sich von selbst geschlossen"),
        ):
            thread = (await bot.service.load(game.id)).row.table_channel
            assert thread != CHANNEL
            assert server.last_message(thread)["content"].startswith(line)
            lobby = await bot.service.store.get_message(game.id, "lobby")
            shown = server.message(lobby.message_id)
            assert not ids_of(shown), "the closed lobby still has buttons"
            assert "abandoned" in shown["content"] or "aufgegeben" in shown["content"]
            assert (await bot.service.load(game.id)).row.status == "abandoned"
        lobby = await bot.service.store.get_message(new.id, "lobby")
        assert ids_of(server.message(lobby.message_id)) and (await bot.service.load(new.id)).row.status == "lobby"
        assert await bot.service.store.outbox_due(1e18) == []
        assert not server.take_error_logs()


async def test_hint_and_board_have_a_cooldown_per_player(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start(game="speakeasy")
        t = await d.load()
        mover = d.user_of_seat(next(pr.seat for pr in t.prompts() if pr.seat >= 0))
        rec = await server.slash(mover, "hint", {}, channel_id=d.where)
        assert (await rec.wait_followups(1))[-1]["content"].startswith("Hint: **")
        clock.now += 29
        rec = await server.slash(mover, "hint", {}, channel_id=d.where)
        (reply,) = await rec.wait_followups(1)
        assert reply["ephemeral"] and reply["content"] == (
            f"You asked for a hint less than 30 seconds ago; ask again <t:{int(clock.now + 1)}:R>."
        )
        clock.now += 1
        rec = await server.slash(mover, "hint", {}, channel_id=d.where)
        assert (await rec.wait_followups(1))[-1]["content"].startswith("Hint: **")

        rec = await server.slash(p.ANNA, "board", {}, channel_id=d.where)
        assert "player.png" in (await rec.wait_followups(1))[-1]["files"]
        rec = await server.slash(p.BEN, "board", {}, channel_id=d.where)  # each player their own cooldown
        assert "player.png" in (await rec.wait_followups(1))[-1]["files"]
        rec = await server.slash(p.ANNA, "board", {"player": p.BEN["id"]}, channel_id=d.where)
        (reply,) = await rec.wait_followups(1)
        assert not reply.get("files") and reply["content"] == (
            f"You looked at a board less than 10 seconds ago; ask again <t:{int(clock.now + 10)}:R>."
        )
        clock.now += 10
        rec = await server.slash(p.ANNA, "board", {"player": p.BEN["id"]}, channel_id=d.where)
        assert "player.png" in (await rec.wait_followups(1))[-1]["files"]


async def test_nothing_of_a_game_is_kept_once_it_is_over(tmp_path):
    """Issue 22 (memory): locks, bots' tasks, safe-screen texts and failure counts of a game are gone once it is
    over and delivered."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start(game="speakeasy")
        publisher = bot.publisher
        assert d.gid in publisher._screens  # the safe screens were sent
        rec = await server.slash(p.ANNA, "game abandon", {"game": d.gid}, channel_id=d.where)
        await rec.wait_followups(1)
        await server.wait_until(lambda: d.gid not in publisher._screens, 5, what="the game's screens forgotten")
        await d.settle()
        assert d.gid not in publisher._failures
        assert len(publisher._locks) == 0 and len(bot.service._locks) == 0
        assert not bot.service._bot_tasks and not bot.get_cog("Play").races


async def test_the_reminder_loop_closes_old_lobbies(tmp_path):
    """Nobody calls the expiry by hand: a process's reminder loop runs it each poll (the first pass at start)."""
    clock = Clock()
    db = tmp_path / "t.sqlite3"
    async with fake_server(heartbeat_interval_ms=30_000) as server:
        async with bot_on(server, db, clock) as first:
            rec = await server.slash(p.ANNA, "game new", {"game": "omerta"}, channel_id=CHANNEL)
            await rec.wait_followups(1)
            for _ in range(250):  # the lobby message is posted, then its thread made and recorded
                games = await first.service.store.list_games(p.GUILD_ID)
                if games and games[0].thread_id:
                    break
                await asyncio.sleep(0.02)
        clock.now += 7 * DAY
        async with bot_on(server, db, clock) as bot:

            def closed() -> bool:
                lobby = server.messages_in(CHANNEL)[0]
                return not ids_of(lobby)

            await server.wait_until(closed, 5, what="the old lobby closed by the loop")
            (game,) = await bot.service.store.list_games(p.GUILD_ID)
            assert game.status == "abandoned"
            assert "has closed itself" in server.last_message(game.table_channel)["content"]


async def test_what_a_process_remembers_per_user_and_per_game_is_bounded():
    """Issue 22 (memory): the languages stored per user and the safe-screen texts per game are kept for the users
    and games seen last only; one forgotten costs a write (a language) or an edit that changes nothing (a screen)."""
    writes: list[int] = []

    class Store:
        async def set_user_lang(self, user_id: int, lang: str, now: float) -> None:
            writes.append(user_id)

    langs = Langs(keep=3)
    for uid in [1, 2, 3, 1, 4, 5, 1]:  # 1 is seen again and again: kept; 2 and 3 are dropped for 4 and 5
        await langs.remember(Store(), SimpleNamespace(user=SimpleNamespace(id=uid, bot=False), locale="de"), 0.0)
    assert writes == [1, 2, 3, 4, 5] and list(langs._known) == [4, 5, 1]

    publisher = Publisher(SimpleNamespace(settings=Settings()))  # type: ignore[arg-type]
    for gid in range(1, SCREEN_GAMES + 11):
        publisher.screens_of(gid)[7] = ("screen", 0)
        publisher.screens_of(1)  # game 1 is used all along
    assert len(publisher._screens) == SCREEN_GAMES and 1 in publisher._screens and 2 not in publisher._screens
    publisher.forget(1)
    assert 1 not in publisher._screens


def _view_timers() -> list[asyncio.Task[Any]]:
    """discord.py's 15-minute timers of views it keeps for ephemeral replies."""
    return [t for t in asyncio.all_tasks() if "timeout_task_impl" in repr(t.get_coro()) and not t.cancelling()]


async def test_an_ephemeral_reply_s_view_is_not_kept_and_its_buttons_still_answer(tmp_path):
    """Issue 22 (memory): discord.py keeps an ephemeral reply's view for 15 minutes; ours are made of persistent
    items only, so the bot lets it go once sent (the memory bench's deep traces found these views growing with
    the rate of clicks) and the reply's button still answers."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        ask = await server.slash(p.ANNA, "game skip", {"game": gid}, channel_id=CHANNEL)
        (confirm,) = await ask.wait_followups(1)
        skip_id = next(i for i in ids_of(confirm) if i.startswith("sk|"))
        assert _view_timers() == []
        done = await server.click(p.ANNA, confirm["id"], skip_id)
        (reply,) = await done.wait_followups(1)
        assert reply["content"].startswith("Skipped")
        assert _view_timers() == []
