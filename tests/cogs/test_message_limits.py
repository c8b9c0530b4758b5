"""No message exceeds Discord's limits and no question or mention is ever cut (issue "The channel tells the
story"): the turn message is built for every position of 200 self-play games (both games) with far more
history than fits, and the headline, the question and the mention must all be there, within 2,000 characters."""

from __future__ import annotations

import random

import pytest

from cogs.board import MESSAGE_MAX, headline, question_line, turn_message
from cogs.components import public_view
from engine.core import TABLE
from engine.registry import GAMES
from service.public_table import public_table
from tests.engine.differential import self_play
from tests.service.test_privacy import _table

#: (game, players, games): 200 games in all
PLAN = [("speakeasy", n, 35) for n in (1, 2, 3, 4)] + [("omerta", n, 20) for n in (3, 4, 5)]
LONG = [f"Line {i}: " + "a long step of the game " * 6 for i in range(120)]


@pytest.mark.parametrize(("name", "players", "games"), PLAN, ids=[f"{g}-{n}p" for g, n, _ in PLAN])
def test_every_turn_message_fits_and_keeps_its_question_and_mention(name, players, games):
    game = GAMES[name]
    rng = random.Random(players)
    checked = 0
    for seed in range(games):
        options = {"difficulty": 1 + seed % 4} if name == "speakeasy" and players == 1 else {}
        for t, state, _ in self_play(game, players, 20_000 + seed, options):
            if t % 3 and name == "speakeasy":
                continue  # a third of the positions of the long game (every kind of question still comes up)
            pt = public_table(_table(game, state, players, t), undo=rng.random() < 0.5)
            ping = [s.user_id for s in pt.seats]
            text, since_out, steps_out = turn_message(pt, LONG, LONG, ping)
            assert len(text) <= MESSAGE_MAX
            assert headline(pt) in text and question_line(pt) in text
            assert all(f"<@{u}>" in text for u in ping)
            assert since_out > 0 and steps_out > 0 and "/game log" in text  # cut, with the pointer
            short, since_out, steps_out = turn_message(pt, LONG[:2], LONG[:3], ping)
            assert since_out == steps_out == 0 and all(line in short for line in LONG[:3])
            view = public_view(pt)
            for row in view.to_components() if view else []:
                for c in row["components"]:
                    assert len(c.get("label", "")) <= 80 and len(c.get("custom_id", "")) <= 100
                    assert len(c.get("options", [])) <= 25
            assert view is None or len(view.to_components()) <= 5
            assert all(p.seat == TABLE or p.seat < 5 for p in pt.prompts)
            checked += 1
    assert checked > games * 10
