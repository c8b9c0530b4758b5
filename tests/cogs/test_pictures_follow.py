"""Issue 24, the picture follows the turn (through the fake Discord): after every move the board message's
pictures are those of the public view the engine gives after it, edits included, and a snap window's picture
shows the card the window is about."""

from __future__ import annotations

import hashlib
from typing import Any

from cogs.publish.story import view_digest
from tests.cogs.driver import Driver, answer, quick_option, table
from tests.fakediscord import payloads as p


def _record_drawings(bot: Any) -> dict[str, set[str]]:
    """Every picture the bot draws: its bytes' digest -> the digests of the views it was drawn from."""
    drawn: dict[str, set[str]] = {}
    render = bot.renderer.render

    async def recording(fn: Any, view: dict[str, Any], *args: Any) -> Any:
        out = await render(fn, view, *args)
        for png in [b for _n, b in out] if isinstance(out, list) else [out]:
            drawn.setdefault(hashlib.sha256(png).hexdigest(), set()).add(view_digest(view))
        return out

    bot.renderer.render = recording
    return drawn


async def _board_shows_the_view_now(d: Driver, drawn: dict[str, set[str]]) -> dict[str, Any]:
    """The board message's pictures were drawn from the public view of the game now; returns that view."""
    t = await d.load()
    view = (await d.bot.service.public(t)).view
    board = await d.board()
    files = board.get("files") or {}
    assert files, "the board shows its pictures"
    for name, png in files.items():
        views = drawn.get(hashlib.sha256(png).hexdigest(), set())
        assert view_digest(view) in views, f"{name} on the board at version {t.version} is not of the view now"
    return view


async def test_every_step_of_a_speakeasy_turn_shows_its_own_picture(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        drawn = _record_drawings(bot)
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start(game="speakeasy")
        edits_with_pictures = 0
        for _ in range(60):
            await d.settle()
            await _board_shows_the_view_now(d, drawn)
            t = await d.load()
            if t.row.status != "active":
                break
            before = len([r for r in server.requests if r.method == "PATCH" and r.files])
            prompt = next(pr for pr in t.prompts() if pr.race is None)
            await answer(d, prompt.seat, prompt.kind, quick_option(prompt), prompt.secret)
            await d.settle()
            edits_with_pictures += len([r for r in server.requests if r.method == "PATCH" and r.files]) - before
        assert edits_with_pictures > 5, "steps within a turn replaced the pictures"


async def test_an_omerta_snap_window_shows_the_card_it_is_about(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        drawn = _record_drawings(bot)
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start("pace=live")
        windows = 0
        for _ in range(80):
            await d.settle()
            view = await _board_shows_the_view_now(d, drawn)
            t = await d.load()
            if await bot.service.store.get_race(d.gid):
                windows += 1
                # the window's card is the one on top of the discard pile in the picture's view
                assert view["discard_top"]["value"] == view["snap_value"] == t.state.snap_value, view["discard_top"]
                await d.close_windows()
                if windows >= 2:
                    return
                continue
            prompts = [pr for pr in t.prompts() if pr.seat >= 0]
            first = prompts[0]
            if first.kind == "peek":
                for pr in prompts:
                    await answer(d, pr.seat, "peek", pr.options[0].id, pr.secret)
            elif first.kind == "turn":
                rec = await d.click_board(first.seat, "turn", "draw")
                await rec.wait_followups(1)
                await d.done(await d.click_private(rec, first.seat, "place", "discard"), t.version + 1)
            else:
                await answer(d, first.seat, first.kind, first.options[0].id, first.secret)
        raise AssertionError(f"only {windows} snap windows in 80 steps")
