"""Issue 15's acceptance, end to end through the fake Discord: a complete Omerta game and a complete solo Speakeasy
game at a German table (the server's language German, every player's Discord locale German). Everything the bot
sent, in public and in private (channels, threads, DMs, interaction replies, buttons and menus), is scanned for
English words against the catalogues (``tests/words/scan.py``): none may appear outside names."""

from __future__ import annotations

import json
from typing import Any

from tests.cogs.driver import Driver, play_speakeasy, play_to_end, table
from tests.fakediscord import payloads as p
from tests.words.scan import english_found, german_slips_found, shown_texts

USERS = [p.ANNA, p.BEN, p.CLEO]


def _names(users: list[dict[str, Any]]) -> list[str]:
    out = ["Jo"]
    for u in users:
        out += [u["username"], u.get("global_name") or ""]
    return [n for n in out if n]


def _report(found: list[tuple[str, str, list[str]]]) -> str:
    return "\n".join(f"{where}: {sorted(set(words))}: {text[:200]!r}" for where, text, words in found[:25])


async def test_a_complete_omerta_game_at_a_german_table_shows_no_english_word(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        server.set_guild_locale("de")
        for user in USERS:
            server.set_locale(user, "de")
        d = Driver(server, bot, clock, USERS)
        await d.open_and_start()
        t = await d.load()
        assert json.loads(t.row.options)["lang"] == "de"
        await play_to_end(d)
        t = await d.load()
        assert t.row.status == "finished"
        texts = shown_texts(server.requests)
        assert len(texts) > 100, "the scan reads what the bot sent"
        found = english_found(server.requests, _names(USERS))
        assert not found, f"{len(found)} texts with English words:\n{_report(found)}"
        slips = german_slips_found(server.requests)  # issue 24: German that reads like German
        assert not slips, f"{len(slips)} texts with German slips:\n{_report(slips)}"


async def test_a_complete_solo_speakeasy_game_at_a_german_table_shows_no_english_word(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        server.set_guild_locale("de")
        server.set_locale(p.ANNA, "de")
        d = Driver(server, bot, clock, [p.ANNA])
        await d.open_and_start("difficulty=1", game="speakeasy")
        t = await d.load()
        assert json.loads(t.row.options)["lang"] == "de"
        await play_speakeasy(d)
        t = await d.load()
        assert t.row.status == "finished" and t.state.year == 1933
        texts = shown_texts(server.requests)
        assert len(texts) > 100, "the scan reads what the bot sent"
        found = english_found(server.requests, _names([p.ANNA]))
        assert not found, f"{len(found)} texts with English words:\n{_report(found)}"
        slips = german_slips_found(server.requests)  # issue 24: German that reads like German
        assert not slips, f"{len(slips)} texts with German slips:\n{_report(slips)}"
