"""Issue 23's acceptance at the Discord table (the fake Discord, the real bot, the fake clock): a 4-player
Speakeasy game in which Dan never acts after Act 1 finishes, with ``on_timeout=hold`` (a bot plays his seat from
the first timeout on; he comes back in Act 3 with a click on "My options" and plays on) and with ``skip`` (each
of his waits is skipped at its deadline); with ``remind`` the game waits, the pings come again and the log tells
the host what they may do. An Omerta game (``pace=post``, ``deadline=30m``) in which two of four players go
away for two days (``/away until:2d``) finishes. The reminder loop's sweep is run as the loop runs it: every
minute of the clock."""

from __future__ import annotations

import pytest

from engine.core import load_choice
from tests.cogs.driver import Driver, answer, quick_option, table
from tests.cogs.test_dm_access import said
from tests.fakediscord import payloads as p

pytestmark = pytest.mark.slow

#: the reminder loop's poll (``SPEAKEASY_REMINDER_POLL_SECONDS``, its default): the sweep runs once a minute
POLL = 60.0
DAN_SEAT = 3


async def quiet_minute(d: Driver) -> None:
    """A minute passes with nobody acting: the loop's round (deadlines, then reminders) runs."""
    d.clock.now += POLL
    play = d.bot.get_cog("Play")
    await play.fire_deadlines()
    await play.send_reminders()


async def covered_in_time(d: Driver, deadline: float) -> int:
    """Every choice the table made for Dan (no actor) came at most ``deadline`` plus a sweep after the move
    before it (when his wait began); returns how many there were."""
    rows = await d.bot.service.store.get_choice_rows(d.gid)
    n = 0
    for before, row in zip(rows, rows[1:], strict=False):
        if load_choice(row.choice).seat == DAN_SEAT and row.actor_id is None:
            n += 1
            assert row.created_at - before.created_at <= deadline + POLL, (before, row)
    return n


async def play_with_dan_silent_after_act_1(d: Driver, *, back_in_act: int | None = None) -> bool:
    """The others answer at once; from Act 2 on Dan never acts, so minutes pass while the game waits for him,
    until (``back_in_act``) he clicks "My options" in that act. Returns whether he came back."""
    back = False
    for _ in range(4000):
        await d.settle()
        t = await d.load()
        if t.row.status != "active":
            return back
        act = t.view(None)["act"]
        if back_in_act is not None and act >= back_in_act and not back and t.seat_of(p.uid(p.DAN)) is None:
            board = await d.board()
            rec = await d.server.click(p.DAN, board["id"], f"pm|{d.gid}|{t.version}")
            (reply,) = await rec.wait_followups(1)
            assert "You play Dan's seat again" in reply["content"], reply
            if (await d.load()).prompts_for(DAN_SEAT):  # asked now: when his time runs out, as every ask says
                assert "Your time runs out <t:" in reply["content"], reply
            back = True
            continue
        prompt = next(pr for pr in t.prompts() if pr.race is None)
        if prompt.seat == DAN_SEAT and act >= 2 and not back:
            await quiet_minute(d)
            continue
        await answer(d, prompt.seat, prompt.kind, quick_option(prompt), prompt.secret)
    raise AssertionError("the game did not end")


@pytest.mark.slow
async def test_hold_a_bot_plays_dans_seat_until_he_comes_back_in_act_3(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO, p.DAN])
        await d.open_and_start("deadline=10m on_timeout=hold", game="speakeasy")
        assert await play_with_dan_silent_after_act_1(d, back_in_act=3)
        t = await d.load()
        assert t.row.status == "finished" and t.seat_of(p.uid(p.DAN)) == DAN_SEAT
        assert await covered_in_time(d, 600) > 0
        log = await bot.service.public_log(t)
        assert sum("Dan's time ran out" in line and "until Dan comes back" in line for line in log) == 1
        assert any("takes Dan's seat back" in line for line in log)
        rows = await bot.service.store.get_choice_rows(d.gid)
        mine = [r for r in rows if load_choice(r.choice).seat == DAN_SEAT]
        assert any(r.actor_id == p.uid(p.DAN) for r in mine[len(mine) // 2 :]), "Dan plays on after coming back"


@pytest.mark.slow
async def test_skip_each_of_dans_waits_is_skipped_at_its_deadline(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO, p.DAN])
        await d.open_and_start("deadline=10m on_timeout=skip", game="speakeasy")
        await play_with_dan_silent_after_act_1(d)
        t = await d.load()
        assert t.row.status == "finished"
        skipped = await covered_in_time(d, 600)
        rows = await bot.service.store.get_choice_rows(d.gid)
        assert skipped == sum(r.cause == "deadline" for r in rows) > 0
        log = await bot.service.public_log(t)
        assert any("Dan's time ran out: the table takes the default choices" in line for line in log)
        record = await bot.service.export(t)  # the exported record says which entries the table made, and why
        assert set(record["causes"].values()) == {"deadline"} and len(record["causes"]) == skipped


@pytest.mark.slow
async def test_remind_the_game_waits_the_pings_come_again_and_the_host_is_told(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO, p.DAN])
        await d.open_and_start("deadline=10m on_timeout=remind", game="speakeasy")
        for _ in range(4000):  # to Dan's first question of Act 2
            await d.settle()
            t = await d.load()
            prompt = next(pr for pr in t.prompts() if pr.race is None)
            if prompt.seat == DAN_SEAT and t.view(None)["act"] >= 2:
                break
            await answer(d, prompt.seat, prompt.kind, quick_option(prompt), prompt.secret)
        version = t.version
        for _ in range(31):  # three deadlines of 10 minutes
            await quiet_minute(d)
        await d.settle()
        assert (await d.load()).version == version  # nothing was played for him
        log = await bot.service.public_log(await d.load())
        told = [line for line in log if "Dan's time ran out; the game waits for Dan" in line]
        assert len(told) == 3 and all("/game skip" in line and "/game botseat" in line for line in told)
        pings = [m for m in server.messages_in(d.where) if m["content"].startswith(f"<@{p.uid(p.DAN)}>")]
        assert len(pings) >= 5 and sum("again" in m["content"] for m in pings) >= 4


@pytest.mark.slow
async def test_omerta_by_post_two_of_four_away_for_two_days_finishes(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO, p.DAN])
        await d.open_and_start("pace=post deadline=30m rounds=2", game="omerta")
        away = {2, 3}  # Cleo and Dan say so (/away until:2d, from their DMs): the table acts for them at once
        for user in (p.CLEO, p.DAN):
            reply = await said(await server.slash(user, "away", {"until": "2d"}, channel_id=server.dm_channel_id(user)))
            assert "You are away until" in reply["content"], reply
        start = clock.now
        for _ in range(6000):
            await d.settle()
            t = await d.load()
            if t.row.status != "active":
                break
            waiting = [pr for pr in t.prompts() if pr.race is None and not pr.optional and pr.seat in range(4)]
            mine = [pr for pr in waiting if pr.seat not in away or clock.now - start > 2 * 86400]
            if mine:
                pr = mine[0]
                await answer(d, pr.seat, pr.kind, quick_option(pr), pr.secret)
            else:
                await quiet_minute(d)
        t = await d.load()
        assert t.row.status == "finished", t.prompts()
        assert clock.now - start < 2 * 86400, "it finished while they were away"
        rows = await bot.service.store.get_choice_rows(d.gid)
        assert {load_choice(r.choice).seat for r in rows if r.cause == "deadline"} == away
        # away at an on_timeout=bot table: each of their waits was answered at the first sweep after it began
        for before, row in zip(rows, rows[1:], strict=False):
            if row.cause == "deadline":
                assert row.created_at - before.created_at <= POLL, (before, row)
