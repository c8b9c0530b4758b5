"""``Game.views`` (several seats' views at once, the public part built once) says exactly what ``Game.view``
says for each seat, at every step of a few games of both games, seats out of range and the table's own seat
included; and ``view`` alone shares nothing with another call's result."""

from __future__ import annotations

import msgspec
import pytest

from engine.core import TABLE
from engine.registry import GAMES
from tests.engine.differential import self_play

ENCODE = msgspec.json.Encoder().encode


@pytest.mark.parametrize(("name", "players"), [("speakeasy", 1), ("speakeasy", 4), ("omerta", 5)])
def test_views_are_each_seats_view(name: str, players: int) -> None:
    game = GAMES[name]
    seats = [None, *range(players), TABLE, players + 3]
    steps = 0
    for seed in range(3):
        for _t, state, _choice in self_play(game, players, 700 + seed):
            together = game.views(state, seats)
            alone = [game.view(state, s) for s in seats]
            assert [ENCODE(v) for v in together] == [ENCODE(v) for v in alone]
            steps += 1
    assert steps > 100


def test_a_view_alone_is_its_own() -> None:
    game = GAMES["speakeasy"]
    state = game.new(["A", "B"], {}, 3)
    first = game.view(state, 0)
    first["players"][1]["pocket"] = -99
    first["districts"].clear()
    second = game.view(state, 0)
    assert second["players"][1]["pocket"] != -99 and second["districts"]
