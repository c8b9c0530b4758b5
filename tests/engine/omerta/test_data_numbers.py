"""The numbers in data/omerta/cards.toml drive the rules: change the file, the game follows (decisions file,
"Each number below belongs in data/omerta/cards.toml ... so that a group can change it without code")."""

from __future__ import annotations

import shutil

import pytest

from engine.data import data_dir
from engine.omerta import cards
from tests.engine.omerta.helpers import GAME, Pick, arrange, new_table, option_ids, play, texts


@pytest.fixture
def house_rules(tmp_path, monkeypatch):
    """A copy of the data folder with other numbers, used by the engine for one test."""
    folder = tmp_path / "data"
    shutil.copytree(data_dir(), folder)
    toml = folder / "omerta" / "cards.toml"
    text = toml.read_text(encoding="utf-8")
    for old, new in (
        ("chauffeur_max = 2 ", "chauffeur_max = 3 "),
        ("traitor_cards = 2 ", "traitor_cards = 3 "),
        ("mamma_turns = 1 ", "mamma_turns = 2 "),
        ("caller_penalty = 20 ", "caller_penalty = 25 "),
    ):
        assert old in text
        text = text.replace(old, new)
    toml.write_text(text, encoding="utf-8")
    monkeypatch.setenv("SPEAKEASY_DATA_DIR", str(folder))
    cards.deck.cache_clear()
    yield
    monkeypatch.delenv("SPEAKEASY_DATA_DIR")
    cards.deck.cache_clear()


def _power(state, p, power):  # noqa: ANN001, ANN202
    arrange(state, active=0, hands={0: p.many(1, 2, 3, 4)}, draw=[p(power)])
    play(GAME, state, 0, "turn", "draw")
    play(GAME, state, 0, "place", "discard")


def test_decision_data_chauffeur_max_sets_how_many_slots_may_be_named(house_rules):
    _, s = new_table(3)
    _power(s, Pick(), "chauffeur")
    drops = [o for o in option_ids(GAME, s, 0, "chauffeur") if o.startswith("drop:")]
    assert "drop:0,1,2" in drops and max(len(o.split(",")) for o in drops) == 3


def test_decision_data_traitor_cards_sets_how_many_cards_are_dealt(house_rules):
    _, s = new_table(3)
    _power(s, Pick(), "traitor")
    assert "give:1,1,2" in option_ids(GAME, s, 0, "traitor")
    events = play(GAME, s, 0, "traitor", "give:1,1,2")
    assert "Anna (Traitor) deals 2 cards face down to Ben and 1 to Cleo." in texts(events)
    assert len(s.players[1].slots) == 6 and len(s.players[2].slots) == 5


def test_decision_data_mamma_turns_sets_how_many_turns_are_skipped(house_rules):
    _, s = new_table(3)
    _power(s, Pick(), "mamma")
    events = play(GAME, s, 0, "mamma", "mamma:1")
    assert "Anna (La Mamma): Ben skips their next 2 turns." in texts(events)
    assert s.active == 2  # Ben's first turn skipped
    play(GAME, s, 2, "turn", "draw")
    play(GAME, s, 2, "place", "discard")
    if s.phase == "snap":
        play(GAME, s, -1, "snap", "close")
    while s.phase == "power":
        play(GAME, s, s.active, s.power, "decline")
    assert s.active == 0  # Anna's turn, then Ben's second skip
    assert s.players[1].skips == 1


def test_decision_data_caller_penalty_is_what_a_failed_call_costs(house_rules):
    _, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(9, 9), 1: p.many(1), 2: p.many(2)})
    events = play(GAME, s, 0, "turn", "omerta")
    assert "Anna fails and takes 25 penalty points." in texts(events)
    assert s.players[0].round_scores == [18 + 25]
