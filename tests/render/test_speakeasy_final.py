"""Speakeasy's final message (issue 11): the standings, each tie and how it was broken, and every player's money
by source, as a picture and in words, from the spectator's end-of-game view."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import speakeasy_final_text, speakeasy_text
from render.speakeasy import final as speakeasy_final
from tests.engine.speakeasy.finished import GAME, random_game

NAMES = ["Anna", "Ben", "Cleo", "Dan"]


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.width >= 1600
    img.load()
    return img


def test_a_tie_at_97_is_explained_in_words_and_the_picture_is_drawn():
    state = random_game(3, 31, names=NAMES[:3])
    for seat in (0, 1):
        state.player(seat).final["total"] = 97
    state.player(2).final["total"] = 40
    state.player(0).safe, state.player(1).safe = 45, 60
    view = GAME.view(state, None)
    text = speakeasy_final_text.final_message(view)
    assert text.startswith("**Ben wins the game.**")
    assert "1. Ben · $97 🏆\n2. Anna · $97\n3. Cleo · $40" in text
    assert "Tie at $97 between Ben and Anna: Ben is ahead of Anna with more safe money ($60 to $45)." in text
    for p in view["players"]:  # every player's money by source, ending at their total
        line = speakeasy_final_text.sources_line(view, p["seat"])
        assert line in text and line.endswith(f"= ${p['final']['total']}")
        assert "start money" in line
    _png(speakeasy_final.render_final(view))
    # the board's headline names the same winner, from the engine's standings
    assert speakeasy_text.winners(view) == [1] and "Ben wins with $97" in speakeasy_text.headline(view)


def test_solo_the_message_shows_jos_city_tiles_and_the_rank():
    state = random_game(1, 32, names=["Anna"])
    view = GAME.view(state, None)
    jo = state.jo.seat
    text = speakeasy_final_text.final_message(view)
    bot_line = speakeasy_final_text.sources_line(view, jo)
    assert bot_line in text and "start money" not in bot_line  # Jo starts with no money (seed 003)
    if state.player(jo).final.get("city_tiles"):
        assert "City tiles" in bot_line
    assert f"rank: {state.jo.rank}" in text
    _png(speakeasy_final.render_final(view))


def test_a_tie_that_stands_says_so():
    view = GAME.view(random_game(2, 33, names=NAMES[:2]), None)
    view["standings"]["ties"] = [
        {"total": 50, "seats": [0, 1], "steps": [{"ahead": 0, "behind": 1, "by": None, "values": []}]}
    ]
    assert "Anna and Ben stay tied (no tie-breaker separates them)" in speakeasy_final_text.final_text(view)


def test_a_solo_tie_says_jo_wins_it():
    view = GAME.view(random_game(1, 34, names=["Anna"]), None)
    jo = view["jo"]["seat"]
    view["standings"]["ties"] = [
        {"total": 80, "seats": [jo, 1 - jo], "steps": [{"ahead": jo, "behind": 1 - jo, "by": "solo_tie_to_jo"}]}
    ]
    assert "Jo wins it: you must have more money than Jo to win" in speakeasy_final_text.final_text(view)


def test_turn_order_and_operating_buildings_read_as_places_and_counts():
    view = GAME.view(random_game(4, 35, names=NAMES), None)
    tie = {
        "total": 70,
        "seats": [3, 1, 0],
        "steps": [
            {"ahead": 3, "behind": 1, "by": "operating_buildings", "values": [5, 3]},
            {"ahead": 1, "behind": 0, "by": "later_turn_order", "values": [4, 2]},
        ],
    }
    words = speakeasy_final_text.tie_words(view, tie)
    assert words == (
        "Tie at $70 between Dan, Ben, and Anna: Dan is ahead of Ben with more Operating buildings (5 to 3); "
        "Ben is ahead of Anna with a later place in the final turn order (4th to 2nd)."
    )


def test_before_the_end_there_is_no_final_message():
    state = random_game(2, 36)
    view = GAME.view(state, None)
    view["phase"], view["standings"] = "play", None
    assert speakeasy_final_text.final_text(view) == ""
    with pytest.raises(ValueError, match="only when the game is over"):
        speakeasy_final.render_final(view)


def test_a_message_too_long_for_discord_lists_the_money_by_group():
    view = GAME.view(random_game(4, 37, names=NAMES), None)
    many = [[f"source_{k}", 1] for k in range(60)]
    for p in view["players"]:  # more sources than one message holds (the total is not what matters here)
        p["sources"] = many + [["buildings", -5]]
    text = speakeasy_final_text.final_message(view)
    assert len(text) <= 2000
    assert "Anna: $60 other − $5 spent = $" in text
