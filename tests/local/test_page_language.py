"""Issue 24, one language per reader, on the local table: the page chooses each local player's Discord language
(sent as the ``locale`` of their interactions), so a host sees the table as a German and an English player do."""

from __future__ import annotations

from fakediscord.local import local_table
from tests.local.browser import UI, seeded_bot


async def test_each_local_player_has_their_own_discord_language(browser, tmp_path):
    async with local_table(seeded_bot, port=0, folder=tmp_path) as table:
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        ui = UI(page, table)
        await ui.open("anna")
        assert await page.input_value("#lang") == "en-US"
        async with page.expect_response(lambda r: r.url.endswith("/api/locale")) as info:
            await page.select_option("#lang", "de")
        assert (await info.value).ok
        await ui.command("games")
        await page.wait_for_selector(".message.ephemeral >> text=Du hast keinen Platz")  # /games, in German

        await ui.as_player("ben")
        assert await page.input_value("#lang") == "en-US", "Ben's Discord is still in English"
        await ui.command("games")
        await page.wait_for_selector(".message.ephemeral >> text=You have no seat")
        await ui.as_player("anna")
        assert await page.input_value("#lang") == "de", "the page remembers Anna's language"
        assert table.server.locales[int(await page.evaluate("S.me.id"))] == "de"
        assert not ui.errors
