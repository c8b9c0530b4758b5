"""Bots at the Discord table, through the fake Discord with the real bot (issue 13): a 4-player Speakeasy game
with one human and three bots of different levels to the final scores, an Omerta table with two humans and two
bots (live pace, and post pace where the bots snap by standing orders), and ``/hint`` shown only to the player
whose turn it is."""

from __future__ import annotations

import json
import threading

import pytest

from bots.speakeasy import Budget
from bots.table import TableBots
from engine.core import TABLE
from engine.omerta.cards import deck
from tests.cogs.driver import CHANNEL, Driver, answer, play_speakeasy, play_to_end, quick_option, table
from tests.fakediscord import payloads as p

pytestmark = pytest.mark.slow


async def _open_with_bots(d: Driver, game: str, levels: list[str], options: str = "") -> int:
    """The host opens the table, the other humans join by button, the host seats the bots (the first by the
    lobby's button, the rest by ``/game addbot``), then starts."""
    host, *others = d.users
    opts = {"game": game} | ({"options": options} if options else {})
    rec = await d.server.slash(host, "game new", opts, channel_id=CHANNEL)
    await rec.wait_followups(1)
    await d.server.wait_until(lambda: d.server.last_message(CHANNEL) is not None, 5, what="the lobby")
    lobby = d.server.last_message(CHANNEL)
    d.gid = int(lobby["content"].split("Game #")[1].split(" ")[0].rstrip("*"))
    for user in others:
        await (await d.server.click(user, lobby["id"], f"lb|{d.gid}|join")).wait_followups(1)
    for i, level in enumerate(levels):
        if i == 0 and level == "standard":
            rec = await d.server.click(host, lobby["id"], f"lb|{d.gid}|addbot")
        else:
            rec = await d.server.slash(host, "game addbot", {"level": level, "game": d.gid}, channel_id=CHANNEL)
        assert "is seated" in (await rec.wait_followups(1))[-1]["content"]
    await (await d.server.click(host, lobby["id"], f"lb|{d.gid}|start")).wait_followups(1, timeout=120)
    await d.settle()
    d.where = (await d.load()).row.table_channel
    return d.gid


@pytest.mark.slow
async def test_one_human_and_three_bots_play_speakeasy_to_the_final_scores(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        bot.service.bots.budget = Budget(nodes=30, seconds=30.0)  # a small, reproducible hard search
        d = Driver(server, bot, clock, [p.ANNA])
        await _open_with_bots(d, "speakeasy", ["standard", "easy", "hard"])
        t = await d.load()
        assert [s.name for s in t.seats] == ["Anna", "Bot Nora (standard)", "Bot Vito (easy)", "Bot Ada (hard)"]
        await play_speakeasy(d, max_steps=3000)  # only Anna is ever asked: the bots' turns are taken at once
        t = await d.load()
        assert t.row.status == "finished" and len(t.result().scores) == 4
        log = await bot.service.public_log(t)
        for name in ("Bot Nora (standard)", "Bot Vito (easy)", "Bot Ada (hard)"):
            assert any(name in line for line in log), name
        public = "\n".join(m["content"] for m in server.messages_in(d.where))
        assert "Bot Ada (hard)" in public  # the turn summaries name the bots like anyone


async def test_two_humans_and_two_bots_play_omerta(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await _open_with_bots(d, "omerta", ["standard", "hard"], "rounds=2 pace=live")
        t = await d.load()
        assert [s.name for s in t.seats][2:] == ["Bot Nora (standard)", "Bot Vito (hard)"]
        assert all(p.seat in (0, 1, TABLE) for p in t.prompts()), "the bots peeked at once"
        await play_to_end(d)
        t = await d.load()
        assert t.row.status == "finished" and len(t.result().scores) == 4
        assert any("Bot Vito (hard)" in line for line in await bot.service.public_log(t))


def _place_for_a_pair(t, seat: int) -> str:  # noqa: ANN001
    """Where a scripted player puts the card it drew so that a Bottle lands that a bot has a standing order for
    (the script reads the true state only to pick one legal button): discard the drawn card if it is one, else
    swap it into a slot whose card is one; otherwise discard."""
    cards = deck().cards
    wanted = {o.value for o in t.state.orders if o.seat >= 2}
    held = cards[t.state.held]
    if held.kind == "bottle" and held.value in wanted:
        return "discard"
    place = next(pr for pr in t.prompts() if pr.kind == "place")
    for o in place.options:
        if o.id.startswith("swap:"):
            card = cards[t.state.players[seat].slots[int(o.id.split(":")[1])]]
            if card.kind == "bottle" and card.value in wanted:
                return o.id
    return "discard"


async def test_two_humans_and_two_bots_play_omerta_by_post_and_the_bots_snap_by_standing_orders(tmp_path):
    """Post pace (no windows): the bots set their standing orders from what their seats saw, privately and
    without being waited for, and win pairs by them (a seeded table; random seeds pass as well)."""
    async with table(tmp_path) as (server, bot, clock):
        bot.service.seeds = lambda: 5
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await _open_with_bots(d, "omerta", ["standard", "easy"], "rounds=2 pace=post")
        t = await d.load()
        assert t.state.options["pace"] == "post"
        assert [s.name for s in t.seats][2:] == ["Bot Nora (standard)", "Bot Vito (easy)"]
        turns, round_seen = 0, 1
        for _ in range(400):
            await d.settle()
            t = await d.load()
            if t.row.status != "active":
                break
            if t.state.round != round_seen:
                round_seen, turns = t.state.round, 0
            prompts = [pr for pr in t.prompts() if pr.seat >= 0 and not pr.optional]
            assert {pr.seat for pr in prompts} <= {0, 1}, "the bots answer at once"
            first = prompts[0]
            if first.kind == "peek":
                for pr in prompts:
                    await answer(d, pr.seat, "peek", pr.options[0].id, pr.secret)
            elif first.kind == "turn":
                turns += 1
                if turns > 6:
                    rec = await d.click_board(first.seat, "turn", "omerta")
                    await d.done(await d.confirm(rec, first.seat), t.version)
                    continue
                rec = await d.click_board(first.seat, "turn", "draw")
                await rec.wait_followups(1)  # the drawn card is private: it comes with the question
                place = await d.click_private(rec, first.seat, "place", _place_for_a_pair(await d.load(), first.seat))
                await d.done(place, t.version + 1)
            else:
                await answer(d, first.seat, first.kind, first.default_option(), first.secret)
        else:
            raise AssertionError("the game did not end")
        t = await d.load()
        assert t.row.status == "finished" and len(t.result().scores) == 4
        events = await bot.service.store.get_events(d.gid)
        assert not any(e.kind == "snap_open" for e in events)  # no window in post pace
        orders = [e for e in events if e.kind == "order"]
        assert {json.loads(e.seats)[0] for e in orders} >= {2}, "the standard bot set standing orders"
        public = [e.text for e in events if e.seats is None]
        bot_snaps = [line for line in public if line.startswith("Bot ") and "standing order snaps" in line]
        assert any("One card fewer" in line for line in bot_snaps), bot_snaps
        shown = "\n".join(m["content"] for m in server.messages_in(d.where))
        assert "Standing order:" not in shown and "standing order snaps" in shown


async def test_a_hint_is_shown_only_to_the_player_whose_turn_it_is(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start(game="speakeasy")
        t = await d.load()
        mover = next(pr.seat for pr in t.prompts() if pr.seat != TABLE)
        rec = await server.slash(d.user_of_seat(mover), "hint", {}, channel_id=d.where)
        text = (await rec.wait_followups(1))[-1]["content"]
        assert text.startswith("Hint: **") and "standard bot" in text
        assert rec.followups[-1]["flags"] & 64  # ephemeral: only the asker sees it
        other = await server.slash(d.user_of_seat(1 - mover), "hint", {}, channel_id=d.where)
        assert "not your turn" in (await other.wait_followups(1))[-1]["content"]
        assert all("Hint:" not in m["content"] for m in server.messages_in(d.where))


async def test_a_table_that_forbids_hints_gives_none(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start("hints=forbidden", game="speakeasy")
        t = await d.load()
        mover = next(pr.seat for pr in t.prompts() if pr.seat != TABLE)
        rec = await server.slash(d.user_of_seat(mover), "hint", {}, channel_id=d.where)
        assert "forbidden" in (await rec.wait_followups(1))[-1]["content"]


async def test_the_host_hands_an_idle_seat_to_a_bot_and_its_player_takes_it_back(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start(game="speakeasy")
        rec = await server.slash(p.ANNA, "game botseat", {"player": p.BEN, "level": "easy"}, channel_id=d.where)
        assert "plays Ben's seat now" in (await rec.wait_followups(1, timeout=60))[-1]["content"]
        await play_speakeasy(d, until=lambda t: t.version > 40)  # only Anna is asked: the bot plays Ben's turns
        rec = await server.slash(p.BEN, "game reclaim", {"game": d.gid}, channel_id=d.where)
        assert "You play Ben's seat again" in (await rec.wait_followups(1))[-1]["content"]
        t = await d.load()
        assert t.seat_of(int(p.BEN["id"])) is not None


async def test_the_players_click_is_answered_before_the_bots_have_thought(tmp_path):
    """The bots' moves come in a task of their own after the player's: while they still think (here: held at a
    gate), the player's click has its answer and the game its new version."""
    gate = threading.Event()

    class Held(TableBots):
        def run(self, bots_table, state):  # noqa: ANN001, ANN202
            gate.wait(30)
            return super().run(bots_table, state)

    async with table(tmp_path) as (server, bot, clock):
        bot.service.bots = Held(Budget(nodes=30, seconds=30.0))
        d = Driver(server, bot, clock, [p.ANNA])
        gate.set()
        await _open_with_bots(d, "speakeasy", ["easy", "easy"])
        held = 0
        for _ in range(200):
            await d.settle()
            t = await d.load()
            prompt = next(pr for pr in t.prompts() if pr.race is None)
            gate.clear()
            await answer(d, prompt.seat, prompt.kind, quick_option(prompt), prompt.secret)
            if bot.service.bots_busy(d.gid):  # the click was answered; the bots have not moved yet
                held += 1
                assert (await d.load()).version == t.version + 1 or prompt.group is not None
            gate.set()
            if held >= 2:
                break
        assert held >= 2
        await d.settle()


async def test_post_pace_the_bots_check_their_orders_after_the_players_click_is_answered(tmp_path):
    """Post pace: whether a bot would change its standing orders is a replay of the record (``optional_due``).
    It is asked in the bots' own task after the player's click has its answer, never before (here it is held at
    a gate, and the click is answered all the same): a table with bots answers as fast as one without."""
    gate = threading.Event()
    asked: list[int] = []

    class Held(TableBots):
        def optional_due(self, bots_table, state):  # noqa: ANN001, ANN202
            asked.append(1)
            gate.wait(30)
            return super().optional_due(bots_table, state)

    async with table(tmp_path) as (server, bot, clock):
        bot.service.bots = Held(bot.service.bots.budget)
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        gate.set()
        await _open_with_bots(d, "omerta", ["standard", "easy"], "rounds=1 pace=post")
        held = 0
        for _ in range(60):
            await d.settle()
            t = await d.load()
            prompts = [pr for pr in t.prompts() if pr.seat in (0, 1) and not pr.optional and pr.race is None]
            if t.row.status != "active" or not prompts:
                break
            first = prompts[0]
            before = len(asked)
            gate.clear()
            if first.kind == "turn":
                rec = await d.click_board(first.seat, "turn", "draw")
                await rec.wait_followups(1)
                await d.done(await d.click_private(rec, first.seat, "place", "discard"), t.version + 1)
            else:
                await answer(d, first.seat, first.kind, first.default_option(), first.secret)
            # the click has its answer; if the bots' task is asking, it is still held, so no bot has moved
            await server.wait_until(
                lambda n=before: len(asked) > n or not bot.service.bots_busy(d.gid), 5, what="the bots"
            )
            if len(asked) > before and not gate.is_set():
                held += 1
                assert bot.service.bots_busy(d.gid)
                assert (await d.load()).version >= t.version + 1
            gate.set()
            if held >= 3:
                break
        assert held >= 3, "the bots' check never ran after a click"
        await d.settle()
