"""Omerta's two paces at the Discord table (issue 11, decisions file "## Version 2"), end to end through the fake
Discord with the real bot: a complete 4-player game in each pace tells the whole story (every public line in the
thread, whoever must act mentioned in a new message and nobody else, nothing over Discord's limits); in ``live``
pace a snap window's time starts when its board is posted and the board shows its closing time; in ``post`` pace
standing orders set from My options play a game through without any window."""

from __future__ import annotations

import asyncio
import json
import math

import pytest

from cogs.publish import Publisher
from engine.omerta.cards import deck
from tests.cogs.checks import check_story
from tests.cogs.driver import Driver, answer, channel_texts, table
from tests.fakediscord import payloads as p

pytestmark = pytest.mark.slow

PLAYERS = [p.ANNA, p.BEN, p.CLEO, p.DAN]
TURNS_PER_ROUND = 4


def _value(t, seat: int, slot: int) -> int | None:  # noqa: ANN001
    """The bottle value in a slot (the scripted player "remembers" it), or None for a character."""
    card = deck().cards[t.state.players[seat].slots[slot]]
    return card.value if card.kind == "bottle" else None


async def _turn(d: Driver, t, seat: int, turns: int) -> None:  # noqa: ANN001
    """Draw and discard (or swap every other turn); call OMERTA after a few turns."""
    if turns > TURNS_PER_ROUND:
        rec = await d.click_board(seat, "turn", "omerta")
        await d.done(await d.confirm(rec, seat), t.version)
        return
    rec = await d.click_board(seat, "turn", "draw")
    await rec.wait_followups(1)  # the drawn card is private: it comes with the question
    place_prompt = next(pr for pr in (await d.load()).prompts() if pr.kind == "place")
    option = "discard" if turns % 2 else place_prompt.options[0].id  # a swap into the first slot with a card
    place = await d.click_private(rec, seat, "place", option)
    await d.done(place, t.version + 1)


async def _play(d: Driver, on_window=None, on_round=None, max_steps: int = 600) -> dict[str, int]:  # noqa: ANN001
    """Scripted players through the board and My options until the game ends; counts what happened."""
    turns, round_seen, seen = 0, 0, {"windows": 0, "rounds": 0}
    for _ in range(max_steps):
        await d.settle()
        t = await d.load()
        if t.row.status != "active":
            return seen
        view = t.view(None)
        if await d.bot.service.store.get_race(d.gid):
            seen["windows"] += 1
            if on_window is not None:
                await on_window(d, t, seen["windows"])
            await d.close_windows()
            continue
        prompts = [pr for pr in t.prompts() if pr.seat >= 0 and not pr.optional]
        first = prompts[0]
        if first.kind == "peek":
            for pr in prompts:
                await answer(d, pr.seat, "peek", pr.options[0].id, pr.secret)
            continue
        if view["round"] != round_seen:
            round_seen, turns = view["round"], 0
            seen["rounds"] += 1
            if on_round is not None:
                await on_round(d, t)
                continue
        if first.kind == "turn":
            turns += 1
            await _turn(d, t, first.seat, turns)
        else:
            await answer(d, first.seat, first.kind, first.default_option(), first.secret)
    raise AssertionError("the game did not end")


async def _claims(d: Driver, t, n: int) -> None:  # noqa: ANN001
    """Every other window two players claim: the earlier one a slot that is wrong (when they have one), then a
    second player; both claims are judged under version 2."""
    if n % 2:
        return
    value = t.state.snap_value
    base = d.next_ts(1000)
    for k, seat in enumerate((1, 2)):
        slots = [i for i, c in enumerate(t.state.players[seat].slots) if c is not None]
        wrong = [i for i in slots if _value(t, seat, i) != value]
        slot = (wrong or slots)[0] if k == 0 else slots[-1]
        rec = await d.click_board(seat, "snap", f"slot:{slot}", ts_ms=base + 100 * k)
        await rec.wait_followups(1)
        assert "judged earliest first" in rec.followups[-1]["content"]


async def test_live_pace_complete_four_player_game_tells_the_story_and_judges_every_claim(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, PLAYERS)
        await d.open_and_start()
        t = await d.load()
        assert t.state.options["rules"] == 3 and t.state.options["pace"] == "live"
        seen = await _play(d, on_window=_claims)
        assert (await d.load()).row.status == "finished" and seen["rounds"] == 4 and seen["windows"] >= 2
        counts = await check_story(d)
        assert counts["turns"] >= 4 * TURNS_PER_ROUND
        lines = [e.text for e in await bot.service.store.get_events(d.gid, public_only=True)]
        assert sum("snaps slot" in line for line in lines) >= 2  # claims were judged
        shown = "\n".join(channel_texts(server, d.where))
        assert "**Snap window** open" in shown and ":R>" in shown
        for r in server.requests:  # a message showing an open window pings nobody (posted or edited)
            body = r.json if isinstance(r.json, dict) else {}
            if "**Snap window** open" in str(body.get("content", "")):
                assert not (body.get("allowed_mentions") or {}).get("users"), body.get("content")


async def test_live_pace_the_window_starts_when_its_board_is_posted_and_shows_its_closing_time(tmp_path, monkeypatch):
    real = Publisher._deliver_board
    lag = 3.0
    posts: list[float] = []

    async def slow(self, table_, pt):  # noqa: ANN001, ANN202
        self.bot.service.clock.now += lag  # rendering and Discord take time between the move and the board
        posts.append(self.bot.service.clock.now)
        return await real(self, table_, pt)

    monkeypatch.setattr(Publisher, "_deliver_board", slow)
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, PLAYERS[:3])
        await d.open_and_start()
        for _ in range(80):
            await d.settle()
            t = await d.load()
            if t.state.phase == "snap":
                break
            prompts = [pr for pr in t.prompts() if pr.seat >= 0]
            if prompts[0].kind == "peek":
                for pr in prompts:
                    await answer(d, pr.seat, "peek", pr.options[0].id, pr.secret)
                continue
            if prompts[0].kind != "turn":
                await answer(d, prompts[0].seat, prompts[0].kind, prompts[0].default_option(), prompts[0].secret)
                continue
            seat = prompts[0].seat
            rec = await d.click_board(seat, "turn", "draw")
            place = await d.click_private(rec, seat, "place", "discard")
            committed = clock.now  # the discard is committed before the board is delivered
            await d.done(place, t.version + 1)
        else:
            raise AssertionError("no snap window opened")
        await d.settle()
        race = await bot.service.store.get_race(d.gid)
        assert race is not None and race.armed
        # measured from a board post, not from the move (which would give committed + 5)
        assert race.deadline >= committed + lag + 5 and race.deadline in {math.ceil(x + 5) for x in posts}
        board = await d.board()
        assert f"<t:{int(race.deadline)}:R>" in board["content"] and "Snap window" in board["content"]
        assert not board["mentions"]
        await d.close_windows()
        await d.settle()
        assert (await d.load()).state.phase != "snap"


async def _orders(d: Driver, t) -> None:  # noqa: ANN001
    """At the start of a round each player sets standing orders from My options, while someone else may be
    the one being waited for: slot 1 on the bottle they peeked there (right), slot 2 on another value (wrong,
    when slot 2 holds a bottle of another value or a character)."""
    for seat in range(len(PLAYERS)):
        right = _value(t, seat, 0)
        if right is not None:
            await d.settle()
            await answer(d, seat, "order", f"set:0:{right}", True)
        other = _value(t, seat, 1)
        wrong = 1 if other != 1 else 2
        await d.settle()
        await answer(d, seat, "order", f"set:1:{wrong}", True)


async def test_post_pace_complete_four_player_game_with_standing_orders_and_no_window(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, PLAYERS)
        await d.open_and_start("pace=post")
        seen = await _play(d, on_round=_orders)
        t = await d.load()
        assert t.row.status == "finished" and seen["rounds"] == 4
        assert seen["windows"] == 0  # nobody waits for a window
        counts = await check_story(d)
        assert counts["turns"] >= 4 * TURNS_PER_ROUND
        events = await bot.service.store.get_events(d.gid)
        assert not any(e.kind == "snap_open" for e in events)
        public = [e.text for e in events if e.seats is None]
        assert any("standing order snaps" in line for line in public), "no standing order was ever judged"
        orders = [e for e in events if e.kind == "order"]
        assert orders and all(e.seats is not None and len(json.loads(e.seats)) == 1 for e in orders)
        shown = "\n".join(channel_texts(server, d.where))
        assert "Standing order:" not in shown and "Snap window" not in shown
        # the orders were told privately, to their own player only
        for user in PLAYERS:
            told = "\n".join(m["content"] for m in server.dm_messages(user))
            assert "Standing order: you snap" in told


async def test_live_pace_a_crash_before_the_window_started_starts_it_after_the_restart(tmp_path):
    """The bot posted the board of a window and died before starting its time: after the restart the board is
    brought up to date again and the window starts then (nothing waits forever, nothing closes unseen)."""
    from store import UNARMED
    from tests.cogs.driver import Clock, bot_on
    from tests.fakediscord.fixtures import fake_server

    clock = Clock()
    db = tmp_path / "crash.sqlite3"
    async with fake_server(heartbeat_interval_ms=30_000) as server:
        async with bot_on(server, db, clock) as bot:
            d = Driver(server, bot, clock, PLAYERS[:3])
            await d.open_and_start()
            for _ in range(80):
                await d.settle()
                t = await d.load()
                if t.state.phase == "snap":
                    break
                prompts = [pr for pr in t.prompts() if pr.seat >= 0]
                if prompts[0].kind != "turn":
                    for pr in prompts:
                        await answer(d, pr.seat, pr.kind, pr.default_option(), pr.secret)
                    continue
                rec = await d.click_board(prompts[0].seat, "turn", "draw")
                place = await d.click_private(rec, prompts[0].seat, "place", "discard")
                await d.done(place, t.version + 1)
            else:
                raise AssertionError("no snap window opened")
            await d.settle()
            store = bot.service.store
            # the crash: the window's time never started, and the board was not recorded as showing it
            await store.open_race(d.gid, t.version + 2, UNARMED)
            board = await store.get_message(d.gid, "board")
            await store.set_message(
                d.gid, "board", board.channel_id, board.message_id, version=t.version + 1, upto=0, data=board.data
            )
        clock.now += 3600
        async with bot_on(server, db, clock) as bot2:
            d.bot = bot2
            race = None
            for _ in range(200):
                race = await bot2.service.store.get_race(d.gid)
                if race is not None and race.armed:
                    break
                await asyncio.sleep(0.02)
            assert race is not None and race.armed and race.deadline >= clock.now + 5
            await d.close_windows()
            await d.settle()
            assert (await d.load()).state.phase != "snap"
