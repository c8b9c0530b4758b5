"""Drive the local table's web page with a headless Chromium (Playwright), as a person at the machine would.

The scripted player may read the game (to decide what to answer, as the cogs driver does), but it acts only by
clicking and choosing on the page, which sends each action to the bot as a real interaction.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
from pathlib import Path
from typing import Any

from bot import TableBot, build_bot
from fakediscord.local import LocalTable
from fakediscord.server import InteractionRecord
from tests.cogs.driver import Driver, ids_of, target

#: a Chromium other than the system's (the tests look for `chromium` on the PATH, then /usr/bin/chromium)
CHROMIUM_SETTING = "SPEAKEASY_CHROMIUM"
#: set to 1 (as .ci/run does) to fail instead of skipping when no browser can be started
REQUIRE_SETTING = "SPEAKEASY_REQUIRE_BROWSER"
#: where the browser's ``*.test`` names lead (conftest): ``http://evil.test:PORT`` is another site on this machine
LOOPBACK = "127.0.0.1"


def seeded_bot(settings: Any) -> TableBot:
    """The real bot, dealing each test's n-th game from seed n: the same games every run, so a failure replays."""
    return build_bot(settings, seeds=itertools.count(1).__next__)


def chromium_path() -> str | None:
    """The Chromium executable to drive, or None."""
    for candidate in (os.environ.get(CHROMIUM_SETTING), shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def _css(value: str) -> str:
    return json.dumps(value)  # a CSS string: custom ids hold | , : and the like


class UI:
    """The page of one local table, and the person clicking on it."""

    def __init__(self, page: Any, table: LocalTable) -> None:
        self.page, self.table = page, table
        self.errors: list[str] = []
        #: how many buttons were pressed and menu values chosen
        self.used = {"button": 0, "menu": 0}
        #: every address the page asked for (all must be the local table's own)
        self.requested: list[str] = []
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on("request", lambda req: self.requested.append(req.url))

    async def open(self, player: str) -> None:
        """Load the page as ``player`` and wait for live updates to be connected."""
        await self.page.goto(f"{self.table.url}/?as={player}")
        await self.page.wait_for_selector("#live.on")

    async def as_player(self, username: str) -> None:
        """Switch the page to another local player (a no-op when already them)."""
        if await self.page.evaluate("S.me.username") == username:
            return
        await self.page.click(f"#players [data-player={_css(username)}]")
        await self.page.wait_for_selector(f"#players button.me[data-player={_css(username)}]")
        await self.page.wait_for_selector(f"#channels[data-player={_css(username)}]")

    async def channel(self, channel_id: int | str) -> None:
        """Show a channel (a game thread, the DMs)."""
        if await self.page.evaluate("S.channel") == str(channel_id):
            return
        await self.page.click(f"#channels [data-channel-id={_css(str(channel_id))}]")
        await self.page.wait_for_function("id => S.channel === id", arg=str(channel_id))

    async def dms(self) -> None:
        """Show the current player's direct messages."""
        user = await self.page.evaluate("S.me.id")
        await self.channel(self.table.server.dm_channel_id(int(user)))

    async def command(self, path: str, **options: str) -> None:
        """Fill the slash command box and send it; fail on any error the page shows."""
        await self.page.select_option("#command", path)
        for name, value in options.items():
            field = self.page.locator(f"#options [name={_css(name)}]")
            if await field.evaluate("e => e.tagName") == "SELECT":
                await field.select_option(value)
            else:
                await field.fill(value)
        async with self.page.expect_response(lambda r: r.url.endswith("/api/slash")) as info:
            await self.page.click("#send")
        response = await info.value
        assert response.ok, await response.text()

    async def click(
        self, message: dict[str, Any], custom_id: str, values: list[str] | None = None
    ) -> InteractionRecord:
        """Click a button (or choose a value in a menu) of a message shown on the page; the interaction."""
        await self.channel(message["channel_id"])
        control = self.page.locator(f"[data-message-id={_css(message['id'])}] [data-custom-id={_css(custom_id)}]")
        await control.wait_for(state="visible")  # the page has caught up with the bot's last edit
        async with self.page.expect_response(lambda r: r.url.endswith("/api/click")) as info:
            if values is None:
                await control.click()
            else:
                await control.select_option(values[0])
        self.used["button" if values is None else "menu"] += 1
        response = await info.value
        body = await response.json()
        assert response.ok, body
        return self.table.server.interactions[int(body["interaction"])]

    def outside(self) -> list[str]:
        """What the page asked for that is not the local table's own address."""
        return [u for u in self.requested if not u.startswith(self.table.url + "/")]

    async def text(self, selector: str = "#messages") -> str:
        """The visible text of part of the page."""
        return await self.page.inner_text(selector)


async def answer(ui: UI, d: Driver, seat: int, kind: str, option: str, secret: bool) -> InteractionRecord:
    """Answer a question on the page as the player in ``seat``: on the board, or (a secret question) through
    "My options"; a risky step is confirmed on the confirmation the bot shows."""
    # the bot edits the board after each answer in its own time: wait for it, or the click may land on a button
    # of the version before and be refused as old (what a real player would see too)
    await d.settle()
    version = (await d.load()).version
    await ui.as_player(d.user_of_seat(seat)["username"])
    where = await d.board()
    if secret:
        mine = next(i for i in ids_of(where) if i.startswith(f"pm|{d.gid}|"))
        shown = await ui.click(where, mine)
        where = (await shown.wait_followups(1))[-1]
    cid, values = target(where, kind, option)
    rec = await ui.click(where, cid, values)
    await rec.wait_callback()
    confirm = [i for i in ids_of(rec.message) if i.endswith("|!")]
    if confirm:
        rec = await ui.click(rec.message, confirm[0])
    return await d.done(rec, version)
