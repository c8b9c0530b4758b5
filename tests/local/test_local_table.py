"""The local table (issue 16): ``python bot.py --local`` serves a page on which the real bot is played
without Discord, through a fake Discord, clicked by a headless Chromium; other sites are refused (issue 22)."""

from __future__ import annotations

import asyncio
import contextlib
import html
import io
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from PIL import Image

from fakediscord import payloads as p
from fakediscord.local import local_table
from tests.cogs.driver import Driver, quick_option
from tests.local.browser import LOOPBACK, UI, answer, seeded_bot

ROOT = Path(__file__).resolve().parents[2]
#: where the README's screenshot is written when SPEAKEASY_SCREENSHOT=1 (the test makes it; a person commits it)
SCREENSHOT = ROOT / "docs" / "local-table.png"


async def _open_table(ui: UI, game: str, options: str, guests: list[str]) -> int:
    """Anna opens a table, each guest joins by switching to them and pressing Join, Anna starts; the game id."""
    await ui.open("anna")
    await ui.page.select_option("#command", "game new")
    await ui.page.fill("#options [name=game]", game[:2])  # the bot's autocomplete offers the game
    await ui.page.wait_for_selector(f"#ac-game option[value={game}]", state="attached")
    await ui.command("game new", game=game, options=options)
    await ui.page.wait_for_selector("[data-custom-id$='|join']")
    gid = int(re.search(r"Game #(\d+)", await ui.text()).group(1))
    lobby = ui.table.server.last_message(p.GENERAL_CHANNEL_ID)
    for guest in guests:
        await ui.as_player(guest)
        rec = await ui.click(lobby, f"lb|{gid}|join")
        await rec.wait_followups(1)
    await ui.as_player("anna")
    await ui.click(ui.table.server.message(lobby["id"]), f"lb|{gid}|start")
    return gid


async def _driver(ui: UI, gid: int, users: list[dict]) -> Driver:
    d = Driver(ui.table.server, ui.table.bot, clock=None, users=users)  # type: ignore[arg-type]
    d.gid = gid
    await d.settle()
    d.where = (await d.load()).row.table_channel
    return d


def _picture(png: bytes) -> Image.Image:
    """A screenshot as an image, checked to be a real picture (not empty, not one flat colour)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.width > 200 and image.height > 100
    colours = image.resize((64, 64)).getcolors(maxcolors=64 * 64) or []
    assert len(colours) > 20, "the board screenshot is (nearly) one colour"
    return image


@pytest.mark.slow
async def test_omerta_in_the_browser_join_by_switching_players_turns_ephemeral_dms_and_board(browser, tmp_path):
    """Acceptance of issue 16: open, join as Ben and Cleo, start, play turns by clicking, an ephemeral reply only
    to its owner, a private line in the DMs, a screenshot of the board."""
    async with local_table(seeded_bot, port=0, folder=tmp_path) as table:
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        ui = UI(page, table)
        # Dan watches #general in a page of his own: what the others do appears there without reloading
        watcher = UI(await browser.new_page(), table)
        await watcher.open("dan")
        gid = await _open_table(ui, "omerta", "snap_window=2", ["ben", "cleo"])
        await watcher.page.wait_for_selector("#messages >> text=3. Cleo")
        assert "Anna used /game new" in await ui.text()
        d = await _driver(ui, gid, [p.ANNA, p.BEN, p.CLEO])
        assert await page.locator(f"#channels [data-channel-id='{d.where}']").count() == 1  # the game's thread

        # Anna peeks: the answer is shown to her only, and kept in her DMs
        t = await d.load()
        peek = t.prompts_for(0)[0]
        await answer(ui, d, 0, "peek", peek.options[0].id, peek.secret)
        await page.wait_for_selector(".message.ephemeral >> text=You peek")
        await ui.as_player("ben")
        await ui.channel(d.where)
        await page.wait_for_selector(f"[data-message-id='{(await d.board())['id']}']")
        assert "You peek" not in await ui.text(), "Ben sees Anna's ephemeral reply"
        await ui.as_player("anna")
        await ui.dms()
        await page.wait_for_selector("#messages .message")
        anna_dm = await ui.text()
        assert "peek" in anna_dm.lower(), anna_dm
        await ui.as_player("ben")
        await ui.dms()
        assert "You peek" not in await ui.text(), "Anna's private line is in Ben's DMs"

        for seat in (1, 2):
            t = await d.load()
            prompt = t.prompts_for(seat)[0]
            await answer(ui, d, seat, "peek", prompt.options[0].id, prompt.secret)
        # two turns by clicking: draw, then discard the drawn bottle on the private question the bot asks (any
        # other question: its first option); a snap window closes on its own after 2 s
        draws = 0
        while draws < 2:
            await d.settle()
            if await d.bot.service.store.get_race(gid):
                await asyncio.sleep(0.2)
                continue
            t = await d.load()
            prompt = next(pr for pr in t.prompts() if pr.seat >= 0)
            option = {"turn": "draw", "place": "discard"}.get(prompt.kind, prompt.options[0].id)
            draws += prompt.kind == "turn"
            await answer(ui, d, prompt.seat, prompt.kind, option, prompt.secret)
        await d.settle()
        assert (await d.load()).version > t.version

        while await d.bot.service.store.get_race(gid):  # a snap window still open edits the board when it closes
            await asyncio.sleep(0.2)
        await d.settle()
        await ui.channel(d.where)
        from playwright.async_api import Error as PlaywrightError  # installed: the browser fixture checked

        for attempt in range(3):  # a late edit replaces the message on the page: take the new one
            board = await d.board()
            picture = page.locator(f"[data-message-id='{board['id']}'] img.board").first
            try:
                await picture.wait_for(state="visible")
                loaded = "i => i.complete && i.naturalWidth > 0"
                await page.wait_for_function(loaded, arg=await picture.element_handle())
                _picture(await picture.screenshot())
                break
            except PlaywrightError:
                if attempt == 2:
                    raise
        if os.environ.get("SPEAKEASY_SCREENSHOT") == "1":
            await picture.scroll_into_view_if_needed()
            SCREENSHOT.write_bytes(await page.screenshot())
        assert not ui.errors and not watcher.errors, ui.errors + watcher.errors
        assert ui.requested and not ui.outside() and not watcher.outside(), ui.outside() + watcher.outside()


@pytest.mark.slow
async def test_complete_solo_speakeasy_game_through_the_page_to_the_final_scores(browser, tmp_path):
    """A solo game against Jo, every answer clicked on the page (secret ones through "My options")."""
    async with local_table(seeded_bot, port=0, folder=tmp_path) as table:
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        ui = UI(page, table)
        gid = await _open_table(ui, "speakeasy", "difficulty=1", [])
        d = await _driver(ui, gid, [p.ANNA])
        for _ in range(1500):
            await d.settle()
            t = await d.load()
            if t.row.status != "active":
                break
            prompt = next(pr for pr in t.prompts() if pr.race is None)
            await answer(ui, d, prompt.seat, prompt.kind, quick_option(prompt), prompt.secret)
        t = await d.load()
        assert t.row.status == "finished" and t.state.year == 1933
        await ui.channel(d.where)
        await page.wait_for_selector("#messages >> text=Rank:")
        print(f"solo game through the page: {ui.used}")
        assert ui.used["button"] and ui.used["menu"], ui.used  # both kinds of component were clicked
        assert not ui.errors, ui.errors
        assert not ui.outside(), ui.outside()


def _start(tmp_path: Path, args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``python bot.py ARGS`` from an empty folder (no .env, no token), as on a fresh clone."""
    base = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "SPEAKEASY_LOCAL_PORT")}
    return subprocess.Popen(
        [sys.executable, str(ROOT / "bot.py"), *args],
        cwd=tmp_path,
        env=base | (env or {}),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("args", [["--local"], []], ids=["--local", "no token"])
def test_bot_py_local_serves_the_page_within_10_seconds(tmp_path, args):
    """``python bot.py --local`` (and ``python bot.py`` without a token, saying so) prints the address and serves
    the page within 10 seconds; it listens on 127.0.0.1 and says so."""
    started = time.monotonic()
    proc = _start(tmp_path, args, {"SPEAKEASY_LOCAL_PORT": "0"})
    try:
        assert proc.stdout is not None and proc.stderr is not None
        url = None
        lines = []
        while url is None and time.monotonic() - started < 10:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            match = re.search(r"open (http://127\.0\.0\.1:\d+)", line)
            url = match.group(1) if match else None
        assert url is not None, f"no address printed within 10 s: {lines}"
        with urllib.request.urlopen(url, timeout=10 - (time.monotonic() - started)) as response:
            page = response.read().decode()
        elapsed = time.monotonic() - started
        assert "Speakeasy Table" in page and "/static/app.js" in page
        assert elapsed < 10, f"served after {elapsed:.1f} s"
        assert "127.0.0.1 only" in proc.stdout.readline()
        print(f"bot.py {' '.join(args)} served the page {elapsed:.2f} s after start")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    if not args:
        assert "No Discord bot token found" in err and "Starting the local table instead" in err


def test_a_taken_port_is_refused_with_a_clear_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = _start(tmp_path, ["--local", "--port", str(port)])
        _, err = proc.communicate(timeout=30)
    assert proc.returncode != 0
    assert f"port {port} on 127.0.0.1 is taken: choose another with --port N or SPEAKEASY_LOCAL_PORT." in err
    bad = _start(tmp_path, ["--local", "--port", "http"])
    _, err = bad.communicate(timeout=30)
    assert bad.returncode != 0 and "the port must be a number from 0 to 65535, not 'http'." in err


def _hostile_page(table: str, fake: str) -> str:
    """Another site's page (issue 22): two forms that post to the table's API, one with a JSON body dressed as
    ``text/plain`` (the classic cross-site request), and the table's page in a frame."""
    command = {
        "user": "anna",
        "channel": str(p.GENERAL_CHANNEL_ID),
        "command": "game new",
        "options": {"game": "omerta"},
    }
    pad = json.dumps(command)[:-1] + ', "pad": "'  # the browser sends NAME=VALUE: the "=" lands in a string
    return f"""<!doctype html><html><body>
<form id="plain" method="POST" enctype="text/plain" action="{table}/api/slash">
  <input name="{html.escape(pad)}" value='"}}'></form>
<form id="urlencoded" method="POST" action="{table}/api/slash">
  <input name="user" value="anna"><input name="channel" value="{p.GENERAL_CHANNEL_ID}">
  <input name="command" value="game new"></form>
<iframe id="framed" src="{table}/"></iframe>
<script>const TABLE = {json.dumps(table)}, FAKE = {json.dumps(fake)}, BODY = {json.dumps(json.dumps(command))};</script>
</body></html>"""


@contextlib.asynccontextmanager
async def _hostile_site(table: str, fake: str) -> AsyncIterator[str]:
    """Serve :func:`_hostile_page` on another port, under a name of another site (``evil.test``); its address."""

    async def hostile(request: web.Request) -> web.Response:
        return web.Response(text=_hostile_page(table, fake), content_type="text/html")

    app = web.Application()
    app.router.add_get("/", hostile)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, LOOPBACK, 0)
    await site.start()
    try:
        yield f"http://evil.test:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    finally:
        await runner.cleanup()


async def test_another_site_cannot_act_or_read_through_the_browser_and_the_page_still_works(browser, tmp_path):
    """Issue 22, acceptance: a page of another site (another port, another name) posts a form (``text/plain`` and
    url-encoded) and a no-cors ``text/plain`` fetch to the table's API: refused, and no interaction reaches the
    fake Discord; it can read nothing, frame nothing, and open no gateway socket; a DNS-rebound name (a foreign
    ``Host``) is refused; the table's own page still plays."""
    async with local_table(seeded_bot, port=0, folder=tmp_path) as table:
        server = table.server
        slash = f"{table.url}/api/slash"
        async with _hostile_site(table.url, server.base_url) as evil:
            page = await browser.new_page()
            interactions, identifies = len(server.interactions), server.identifies
            general = len(server.messages_in(p.GENERAL_CHANNEL_ID, include_ephemeral=True))

            for form in ("plain", "urlencoded"):
                await page.goto(evil)
                async with page.expect_response(slash) as info:
                    await page.evaluate("id => document.getElementById(id).submit()", form)
                response = await info.value
                assert response.status == 403, (form, await response.text())
                assert f"a request from another site ({evil}) is refused" in (await response.json())["error"]

            await page.goto(evil)
            async with page.expect_response(slash) as info:
                kind = await page.evaluate(
                    """() => fetch(TABLE + "/api/slash", {method: "POST", mode: "no-cors", body: BODY,
                                    headers: {"Content-Type": "text/plain"}}).then((r) => r.type)"""
                )
            assert kind == "opaque" and (await info.value).status == 403
            # nothing is readable from there (no CORS header), so neither the page's token nor anyone's DMs
            attempts = await page.evaluate(
                """async () => {
                  const tries = {
                    page: () => fetch(TABLE + "/"),
                    players: () => fetch(TABLE + "/api/players"),
                    json: () => fetch(TABLE + "/api/slash", {method: "POST", body: BODY,
                                     headers: {"Content-Type": "application/json", "X-Local-Table-Token": "x"}}),
                  };
                  const out = {};
                  for (const [name, attempt] of Object.entries(tries)) {
                    try { await attempt(); out[name] = "read"; } catch (err) { out[name] = err.name; }
                  }
                  out.socket = await new Promise((done) => {
                    const ws = new WebSocket(FAKE.replace("http", "ws") + "/gateway");
                    ws.onopen = () => done("open");
                    ws.onerror = () => done("refused");
                  });
                  return out;
                }"""
            )
            assert attempts == {"page": "TypeError", "players": "TypeError", "json": "TypeError", "socket": "refused"}
            framed = page.frame_locator("#framed").locator("#players")
            assert await framed.count() == 0, "the table's page was shown in another site's frame"

            # DNS rebinding: another name now leads to the table; the page it would read and the API are refused
            rebound = f"http://rebound.test:{table.client.port}"
            response = await page.goto(f"{rebound}/")
            assert response is not None and response.status == 421
            assert f"answers only for {table.url}, not for host 'rebound.test:" in await response.text()
            status = await page.evaluate(
                "token => fetch('/api/players', {headers: {'X-Local-Table-Token': token}}).then((r) => r.status)",
                table.client.token,  # even a leaked token is no use under another name
            )
            assert status == 421

            await asyncio.sleep(0.3)  # anything that had slipped through would have reached the fake by now
            assert len(server.interactions) == interactions and server.identifies == identifies
            assert len(server.messages_in(p.GENERAL_CHANNEL_ID, include_ephemeral=True)) == general

        # the table's own page still works: Anna opens a table, Ben joins with a click
        ui = UI(await browser.new_page(), table)
        await ui.open("anna")
        await ui.command("game new", game="omerta")
        await ui.page.wait_for_selector("[data-custom-id$='|join']")
        gid = int(re.search(r"Game #(\d+)", await ui.text()).group(1))
        lobby = server.last_message(p.GENERAL_CHANNEL_ID)
        await ui.as_player("ben")
        await (await ui.click(lobby, f"lb|{gid}|join")).wait_followups(1)
        await server.wait_until(lambda: "2. Ben" in server.message(lobby["id"])["content"], 5, what="Ben seated")
        # under the name a person may type as well: it reads, listens and acts
        typed = UI(await browser.new_page(), table)
        await typed.page.goto(f"http://localhost:{table.client.port}/?as=cleo")
        await typed.page.wait_for_selector("#live.on")
        async with typed.page.expect_response(lambda r: r.url.endswith("/api/click")) as info:
            await typed.page.click(f"[data-message-id='{lobby['id']}'] [data-custom-id='lb|{gid}|join']")
        assert (await info.value).ok
        await server.wait_until(lambda: "3. Cleo" in server.message(lobby["id"])["content"], 5, what="Cleo seated")
        assert not ui.errors and not ui.outside() and not typed.errors, ui.errors + ui.outside() + typed.errors
