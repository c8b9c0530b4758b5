"""Issue 26, a replay on Discord: ``/game replay`` of a finished Omerta game through the fake Discord, stepped with
its buttons and its menu; each step shows the spectator's view after that step, rebuilt from the record, with the
story lines the step made."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image, ImageChops

from engine.core import replay
from render import omerta as omerta_render
from service import User
from service.replay import steps_of
from tests.cogs.driver import CHANNEL, Driver, ids_of, play_speakeasy, play_to_end, table
from tests.fakediscord import payloads as p
from words import words

pytestmark = pytest.mark.slow


async def _answer(rec):  # noqa: ANN001, ANN202
    await rec.wait_callback()
    if rec.callback_type == 6:  # a click: the same message, edited
        await rec.wait_edits(1)
        return rec.message
    return (await rec.wait_followups(1, timeout=30))[-1]


def _png(message: dict, server) -> bytes:  # noqa: ANN001
    attachment = message["attachments"][0]
    return server.attachment_data[int(attachment["id"])]


async def test_a_finished_game_steps_from_the_deal_to_the_end(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        await play_to_end(d)
        t = await d.load()
        choices, _ = steps_of(await bot.service.store.get_choices(gid))
        last = len(choices)

        shown = await _answer(await server.slash(p.DAN, "game replay", {"game": gid}, channel_id=CHANNEL))
        assert shown["flags"] & 64, "a replay is private unless asked to be shared"
        assert f"step {last} of {last}" in shown["content"]
        assert f"rp|{gid}|0|0" in ids_of(shown) and f"rp|{gid}|{last}|3" in ids_of(shown)

        first = await _answer(await server.click(p.DAN, shown["id"], f"rp|{gid}|0|0"))
        assert f"step 0 of {last}" in first["content"] and "as it was dealt" in first["content"]
        nxt = await _answer(await server.click(p.DAN, first["id"], f"rp|{gid}|1|2"))
        assert f"step 1 of {last}" in nxt["content"]

        # each step's picture is the spectator's view after it, outlined as the table outlined it when it posted
        # that step (against the picture it compared with then), else against the step before
        names = [s.name for s in t.seats]
        options = json.loads(t.row.options)
        raw = await bot.service.store.get_choices(gid)
        _, raw_index = steps_of(raw)
        drawn = await bot.service.store.drawn_bases(gid)
        assert len(drawn) > 5, "the table keeps which picture each posted picture outlined against"
        posted_steps = [k for k in range(1, last + 1) if raw_index[k - 1] + 1 in drawn]
        assert posted_steps, "some step of the game was posted as it was played"
        for step in sorted({1, last // 2, posted_steps[len(posted_steps) // 2], last}):
            msg = await _answer(
                await server.slash(p.DAN, "game replay", {"game": gid, "step": step}, channel_id=CHANNEL)
            )
            assert f"step {step} of {last}" in msg["content"]
            version = raw_index[step - 1] + 1
            if version in drawn:
                base = drawn[version]
                prior = None if base is None else steps_of(raw[:base])[0]
            else:
                prior = choices[: step - 1]
            after = t.game.view(replay(t.game, names, options, t.row.seed, choices[:step]), None)
            marks = None
            if prior is not None:
                marks = omerta_render.marks({**t.game.view(replay(t.game, names, options, t.row.seed, prior), None)})
            want = omerta_render.render_pictures({**after, "lang": "en"}, marks)
            got = Image.open(io.BytesIO(_png(msg, server))).convert("RGB")
            assert ImageChops.difference(got, Image.open(io.BytesIO(want[0][1])).convert("RGB")).getbbox() is None

        # the menu jumps to a round's first step
        shown = server.message(shown["id"])
        menu = next(i for i in ids_of(shown) if i.startswith("rs|"))
        options_shown = next(
            c["options"] for row in shown["components"] for c in row["components"] if c.get("custom_id") == menu
        )
        assert [o["label"] for o in options_shown][0].startswith("Round 1")
        target = options_shown[-1]["value"]
        jumped = await _answer(await server.click(p.DAN, shown["id"], menu, values=[target]))
        assert f"step {target} of {last}" in jumped["content"]

        # the final message's Replay opens the clicker's own replay at the deal
        board = await bot.service.store.get_message(gid, "board")
        assert board is not None
        opened = await _answer(await server.click(p.CLEO, board.message_id, f"ro|{gid}"))
        assert opened["flags"] & 64 and f"step 0 of {last}" in opened["content"]
        assert f"rp|{gid}|1|2" in ids_of(opened)

        # the game is over and the table keeps reveal_after=yes: each step also tells what was hidden then
        state = replay(t.game, names, options, t.row.seed, choices[:1])
        hidden = [words("en")(m) for m in t.game.revealed(state)]
        one = await _answer(await server.slash(p.DAN, "game replay", {"game": gid, "step": 1}, channel_id=CHANNEL))
        assert "Hidden then, shown now the game is over" in one["content"]
        assert all(line in one["content"] for line in hidden), (hidden, one["content"])

        past = await _answer(
            await server.slash(p.DAN, "game replay", {"game": gid, "step": last + 1}, channel_id=CHANNEL)
        )
        assert f"There is no step {last + 1}; steps 0 to {last}." in past["content"]


async def test_a_lobby_has_nothing_to_replay(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        rec = await server.slash(p.ANNA, "game new", {"game": "omerta"}, channel_id=CHANNEL)
        await rec.wait_followups(1)
        await server.wait_until(lambda: ids_of(server.last_message(CHANNEL)), 5, what="the lobby")
        gid = int(ids_of(server.last_message(CHANNEL))[0].split("|")[1])
        said = await _answer(await server.slash(p.ANNA, "game replay", {"game": gid}, channel_id=CHANNEL))
        assert "has not started; there is nothing to replay" in said["content"]


async def test_reveal_after_no_keeps_a_finished_game_to_what_everyone_saw(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start("reveal_after=no")
        running = await _answer(await server.slash(p.DAN, "game replay", {"game": gid}, channel_id=CHANNEL))
        assert "Hidden then" not in running["content"]  # a running game never shows what is hidden
        await play_to_end(d)
        shown = await _answer(await server.slash(p.DAN, "game replay", {"game": gid, "step": 3}, channel_id=CHANNEL))
        assert "step 3 of" in shown["content"] and "Hidden then" not in shown["content"]
        t = await d.load()
        state = replay(t.game, [s.name for s in t.seats], json.loads(t.row.options), t.row.seed, [])
        for line in t.game.revealed(state):
            assert words("en")(line) not in shown["content"]


async def test_a_complete_speakeasy_game_replays_every_board_the_table_posted(tmp_path, monkeypatch):
    """Acceptance of issue 26 for Speakeasy: a solo game played to its end through the fake Discord; every board
    the table drew a picture of is the replay's board at one of its steps, in the order they were posted, and the
    last step is the finished board; each step the table drew, the replay draws byte for byte as it was posted."""
    from cogs import pictures as cog_pictures
    from tests.cogs.test_speakeasy_table import _spy_pictures

    seen: list[dict] = []
    _spy_pictures(monkeypatch, seen)
    posted: list[tuple[str, list[tuple[str, bytes]]]] = []  # every board picture set the table drew, in order
    spied = cog_pictures.PICTURES["speakeasy"]

    def keep(view, before=None):  # noqa: ANN001, ANN202
        pngs = spied.pictures(view, before)
        posted.append((json.dumps({k: v for k, v in view.items() if k != "lang"}, sort_keys=True), pngs))
        return pngs

    import dataclasses

    monkeypatch.setitem(cog_pictures.PICTURES, "speakeasy", dataclasses.replace(spied, pictures=keep))
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA])
        gid = await d.open_and_start("difficulty=1", game="speakeasy")
        await play_speakeasy(d)
        t = await d.load()
        assert t.row.status == "finished"
        user = User(int(p.ANNA["id"]), "Anna", guild_id=t.row.guild_id)
        first = await bot.service.replay_step(gid, user, 0)
        boards = []
        for step in range(first.last + 1):
            r = await bot.service.replay_step(gid, user, step)
            boards.append(json.dumps(r.view, sort_keys=True))
        drawn = [json.dumps({k: v for k, v in view.items() if k != "lang"}, sort_keys=True) for view in seen]
        drawn = [v for v in drawn if '"phase": "over"' not in v or v == boards[-1]]  # the final chart's view too
        assert len(drawn) > 20 and first.last > 20, (len(drawn), first.last)
        at = 0
        for view in drawn:
            assert view in boards[at:], "a posted board is not a later step of the replay"
            at = boards.index(view, at)
        assert boards[-1] in drawn, "the finished board is the replay's last step"

        # the pictures are the ones the table posted, byte for byte (outlines included): each step the table drew
        # is drawn by the replay as the table drew it (a dozen steps across the game, to keep the test short)
        raw = await bot.service.store.get_choices(gid)
        _, raw_index = steps_of(raw)
        drawn_at = await bot.service.store.drawn_bases(gid)
        steps = [k for k in range(1, first.last + 1) if raw_index[k - 1] + 1 in drawn_at]
        assert len(steps) > 20, len(steps)
        cog = bot.get_cog("Replay")
        for k in steps[:: max(1, len(steps) // 12)]:
            r = await bot.service.replay_step(gid, user, k)
            assert r.as_posted
            mine = await cog.pictures(r, "en")
            shown = [pngs for view, pngs in posted if view == boards[k]]
            assert shown and any(pngs == mine for pngs in shown), f"step {k}'s pictures differ from the table's"
            assert await cog.pictures(r, "en") == mine  # the second time from the store's cache
