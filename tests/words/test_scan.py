"""The German scan itself (issue 15): it finds English and lets German, names and kept terms pass."""

from __future__ import annotations

from types import SimpleNamespace

from tests.words.scan import english_found, english_words


def test_english_sentences_are_found_and_german_ones_pass() -> None:
    assert "draws" in english_words("Anna draws a card.")
    assert english_words("Anna zieht eine Karte.", ["Anna"]) == []


def test_names_are_not_english_words() -> None:
    assert english_words("Ben the Bold zieht eine Karte.", ["Ben the Bold"]) == []


def test_terms_german_keeps_are_not_english() -> None:
    # Casino and the districts' names are the same in German: the German catalogue uses them
    assert english_words("Ein Casino in Little Italy.") == []


def test_every_part_of_a_message_is_read() -> None:
    req = SimpleNamespace(
        method="POST",
        path="/channels/1/messages",
        status=200,
        json={
            "content": "Zug von Anna",
            "components": [{"type": 1, "components": [{"type": 2, "label": "Skip this turn", "custom_id": "x"}]}],
            "embeds": [{"description": "Please wait"}],
        },
    )
    found = english_found([req], ["Anna"])
    assert sorted(f[1] for f in found) == ["Please wait", "Skip this turn"]
