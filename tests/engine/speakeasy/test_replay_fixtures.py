"""Whole-game replay fixtures (issue "engine II"): complete scripted 2- and 4-player games, seed + choices, whose
replay must give the exact final scores. Written by ``python -m bench.speakeasy_fixtures``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import Choice
from tests.engine.speakeasy import kit

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.mark.parametrize("name", ["game_2p.json", "game_4p.json"])
def test_replay_fixture_gives_the_exact_scores(name):
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    state = kit.GAME.new(data["seats"], data["options"], data["seed"])
    for seat, kind, option in data["choices"]:
        assert not kit.GAME.is_over(state)
        kit.GAME.apply(state, Choice(seat, kind, option))  # each choice must still be legal
    assert kit.GAME.is_over(state) and state.year == 1933
    result = kit.GAME.result(state)
    assert list(result.scores) == data["scores"]
    assert list(result.winners) == data["winners"]
    assert list(result.details) == data["details"]
    kit.ok(state)


def test_replay_fixtures_are_complete_games_for_two_and_four_players():
    sizes = sorted(
        len(json.loads((FIXTURES / n).read_text(encoding="utf-8"))["seats"]) for n in FIXTURES.glob("*.json")
    )
    assert sizes == [2, 4]
