"""Issue 24, fewer pushes: a player's private lines of a game are one DM edited in place, saying where each drawn
card went; a new DM comes only when the player must act and asked to be told by DM. Through the fake Discord with
the real bot."""

from __future__ import annotations

import pytest

from cogs.publish.private import completes
from engine.core import Choice
from engine.msg import load
from engine.omerta.game import OmertaGame
from tests.cogs.checks import posts
from tests.cogs.driver import CHANNEL, Driver, play_to_end, table
from tests.fakediscord import payloads as p
from words import words

pytestmark = pytest.mark.slow


def _edits(d: Driver, message_id: int) -> int:
    return sum(1 for r in d.server.requests if r.method == "PATCH" and r.path.endswith(f"/messages/{message_id}"))


async def test_an_omerta_game_keeps_each_players_private_lines_in_one_dm_edited_in_place(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        # Anna asked to be told by DM when it is her move; Ben and Cleo are told by a ping in the thread
        rec = await server.slash(p.ANNA, "me", {"told_by": "dm"}, channel_id=CHANNEL)
        await rec.wait_callback()
        await server.wait_until(lambda: rec.followups or rec.callback_data, 5, what="the answer to /me")
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        await play_to_end(d)
        t = await d.load()
        assert t.row.status == "finished"
        store = bot.service.store
        counts = {}
        for user in (p.ANNA, p.BEN, p.CLEO):
            uid = p.uid(user)
            dms = server.dm_messages(user)
            counts[user["username"]] = len(dms)
            row = await store.get_message(d.gid, "plog", str(uid))
            assert row is not None
            log = server.message(row.message_id)
            lines = log["content"].splitlines()
            assert lines[0] == f"**Game #{d.gid} · Omerta · your private log**"
            drew = [ln for ln in lines if ln.startswith("You drew ")]
            peeks = [ln for ln in lines if ln.startswith("You peek: ")]
            assert drew and len(peeks) == 3, lines  # one peek a round, each card drawn: all in the one message
            # every drawn card says where it went (the line completed in place, not a second line)
            assert all("(into slot " in ln or "(put on the discard pile)" in ln for ln in drew), drew
            assert _edits(d, row.message_id) >= len(drew) + len(peeks) - 1  # edited in place, once a new line
            others = [m for m in dms if int(m["id"]) != row.message_id]
            if user is p.ANNA:  # a new DM only for a move of hers (she asked for DMs)
                assert others and all("It is your move" in m["content"] for m in others)
            else:
                assert others == [], [m["content"][:80] for m in others]
        # the bound: one DM a game for a player told by ping (before: one a line, 6 to 9 in such a game); a player
        # told by DM gets one more for each new board post that asks her to move (her turns, her peeks, a power
        # she must answer in a post of its own), exactly: never two for one post
        assert counts["ben"] == counts["cleo"] == 1
        anna = f"<@{p.uid(p.ANNA)}>"
        asking = {  # by nonce: a post sent again after a failed attempt is one post
            r.json.get("nonce"): r.json
            for r in posts(d, "POST")
            if any(ln.startswith("Your move:") and anna in ln for ln in str(r.json.get("content", "")).splitlines())
        }
        links = [m["content"].rsplit("/", 1)[-1] for m in server.dm_messages(p.ANNA) if "your move" in m["content"]]
        assert len(links) == counts["anna"] - 1
        assert len(set(links)) == len(links), links  # never two DMs for one post
        assert len(links) == len(asking), (len(links), len(asking))
        print("figures: DMs per player", counts)


def test_where_a_drawn_card_went_is_the_engines_message_in_english_and_german():
    game = OmertaGame()
    state, _ = game.start(["Anna", "Ben", "Cleo"], {}, seed=3)
    for seat in range(3):
        prompt = next(pr for pr in game.prompts(state) if pr.seat == seat)
        game.apply(state, Choice(seat, prompt.kind, prompt.options[0].id))
    seat = state.active
    game.apply(state, Choice(seat, "turn", "draw"))
    held = state.held
    into = game.private_note(state, Choice(seat, "place", "swap:1"))
    away = game.private_note(state, Choice(seat, "place", "discard"))
    assert [e.to for e in into + away] == [(seat,), (seat,)]
    card = words("en")(load(into[0].data["msg"]["a"]["card"]))
    assert into[0].text == f"You drew {card} (into slot 2)."
    assert away[0].text == f"You drew {card} (put on the discard pile)."
    assert held is not None
    de = words("de")
    assert de(load(into[0].data["msg"])).startswith("Du hast ") and "(auf Platz 2)" in de(load(into[0].data["msg"]))
    assert "Ablagestapel" in de(load(away[0].data["msg"]))
    # it completes the draw's own line in the log (same card, a message id that extends "omerta.log.drew")
    drawn_line = {"m": "omerta.log.drew", "t": "You drew {card}.", "a": {"card": into[0].data["msg"]["a"]["card"]}}
    assert completes(drawn_line, into[0].data["msg"]) and completes(drawn_line, away[0].data["msg"])
    assert not completes(drawn_line, {"m": "omerta.log.peek_look", "t": "x", "a": {}})
    # nothing else says where a card went: a taken card (public) or another step gives no line
    assert game.private_note(state, Choice(seat, "turn", "draw")) == []
