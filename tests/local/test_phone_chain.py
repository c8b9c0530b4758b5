"""Issue 24's acceptance, the question is where the thumb is: on a phone-size page of the local table, a player
plays turns of several steps without ever needing a button that is not in the newest message they see, and the
page shows that message to its end without scrolling up (it keeps the newest message at the bottom)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from fakediscord.local import local_table
from tests.cogs.driver import ids_of, target
from tests.cogs.test_reply_chain import _answers, _choose, _newest_seen
from tests.fakediscord import payloads as p
from tests.local.browser import UI, _css, seeded_bot
from tests.local.test_local_table import _driver, _open_table

PHONE = {"width": 390, "height": 844}
#: whether a message ends inside the visible part of the messages (the page's own scrolling box): the page shows
#: it scrolled to its end, as a phone shows the newest message (a question of 20 buttons is taller than a screen)
ON_SCREEN = """e => {
    const box = document.querySelector('#messages').getBoundingClientRect(), r = e.getBoundingClientRect();
    return [...document.images].every(i => i.complete) && r.bottom > box.top && r.bottom <= box.bottom + 1
        && r.bottom <= window.innerHeight;
}"""
PAGE_STATE = """() => { const b = document.querySelector('#messages');
    return {stick: S.stick, top: b.scrollTop, height: b.scrollHeight, client: b.clientHeight,
            images: [...document.images].map(i => [i.complete, i.naturalHeight])}; }"""
FAILED_SHOT = Path(tempfile.gettempdir()) / "phone-chain-failed.png"
#: whether the newest message on the page is the one with this id
NEWEST_IS = "id => [...document.querySelectorAll('#messages .message')].pop()?.dataset.messageId === id"


async def _press_in_newest(ui: UI, message: dict[str, Any], custom_id: str, values: list[str] | None) -> Any:
    """Press a control of ``message``, checking first that it is the newest message on the page and that the page
    shows it to its end, as it is (no scrolling up)."""
    from playwright.async_api import Error as PlaywrightError  # installed: the browser fixture checked

    page = ui.page
    newest = page.locator("#messages .message").last
    await page.wait_for_function(NEWEST_IS, arg=str(message["id"]))
    control = newest.locator(f"[data-custom-id={_css(custom_id)}]")
    await control.wait_for(state="visible")
    try:  # the page scrolls itself to the newest message (pictures may still be loading): no scrolling by hand
        await page.wait_for_function(ON_SCREEN, arg=await newest.element_handle(), timeout=5000)
    except PlaywrightError as exc:
        await page.screenshot(path=str(FAILED_SHOT))
        state = await page.evaluate(PAGE_STATE)
        raise AssertionError(f"the newest message is not shown to its end (see {FAILED_SHOT}): {state}") from exc
    # within a tall message (a question of 20 buttons) the thumb scrolls to its button, then taps: the scroll is
    # over before the tap (Playwright's own scrolling inside its click would look like a scroll during the tap)
    await control.scroll_into_view_if_needed()
    await page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    async with page.expect_response(lambda r: r.url.endswith("/api/click")) as info:
        if values is None:
            await control.click()
        else:
            await control.select_option(values[0])
    response = await info.value
    body = await response.json()
    assert response.ok, body
    return ui.table.server.interactions[int(body["interaction"])]


@pytest.mark.slow
async def test_a_solo_speakeasy_turn_on_a_phone_is_played_in_the_newest_message(browser, tmp_path):
    async with local_table(seeded_bot, port=0, folder=tmp_path) as table:
        page = await browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
        ui = UI(page, table)
        gid = await _open_table(ui, "speakeasy", "difficulty=1", [])
        d = await _driver(ui, gid, [p.ANNA])
        await ui.channel(d.where)
        steps_in_turn, in_reply, longest = 0, 0, 0
        for _ in range(30):
            await d.settle()
            t = await d.load()
            if t.row.status != "active":
                break
            prompt = next(pr for pr in t.prompts() if pr.race is None)
            assert prompt.seat == 0, "only Anna is asked: Jo plays his own turns"
            seat = prompt.seat
            newest = _newest_seen(d, p.ANNA)
            # a board message opens a turn (Jo played in between); a reply goes on with it
            steps_in_turn = steps_in_turn + 1 if newest["ephemeral"] else 1
            longest = max(longest, steps_in_turn)
            option = _choose(prompt, steps_in_turn)
            if _answers(newest, prompt, option):
                cid, values = target(newest, prompt.kind, option)
                rec = await _press_in_newest(ui, newest, cid, values)
                in_reply += bool(newest["ephemeral"])
            else:  # a private question: "My options" is in the same newest message, and opens the reply
                mine = next(i for i in ids_of(newest) if i.startswith(f"pm|{gid}|"))
                opened = await _press_in_newest(ui, newest, mine, None)
                reply = (await opened.wait_followups(1))[-1]
                cid, values = target(reply, prompt.kind, option)
                rec = await _press_in_newest(ui, reply, cid, values)
            await rec.wait_callback()
            confirm = [i for i in ids_of(rec.message) if i.endswith("|!")]
            if confirm:  # a risky step: the confirmation is the newest message, where the thumb is
                rec = await _press_in_newest(ui, rec.message, confirm[0], None)
            await d.done(rec, t.version)
            if rec.ephemeral and rec.callback_type == 6:
                await rec.wait_edits(1)
            elif any(pr.seat == seat and not pr.race and not pr.optional for pr in (await d.load()).prompts()):
                await rec.wait_followups(1)  # the answer to a board click: the reply with the player's next question
        assert longest >= 3 and in_reply >= 5, (longest, in_reply)
        assert not ui.errors, ui.errors
