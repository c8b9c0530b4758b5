"""The German scan itself (issue 15): it finds English and lets German, names and kept terms pass."""

from __future__ import annotations

from types import SimpleNamespace

from tests.words.scan import english_found, english_words, german_slips
from words.extract import messages_of


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


def test_german_slips_are_found_and_good_german_passes() -> None:
    """Issue 24: a doubled word, "von" with the nominative, a concept spelt another way than the glossary's."""
    assert german_slips("Anna kann ihn mit /spiel zurückholen zurückholen.") == [
        "doubled word 'zurückholen zurückholen'"
    ]
    assert german_slips("Bezirk 3: kontrolliert von die Mobster.") == ["'von' with the nominative: 'von die'"]
    assert german_slips("Das Ablegefenster ist offen.") == ["'Ablegefenster': write Schnellabwurf (the snap)"]
    assert german_slips("Der Bezirk wird von den Mobstern und von der Polizei kontrolliert.") == []
    assert german_slips("Schnellabwurf! Wirf eine Flasche {value} ab; <t:12:R> 12 12") == []


def test_no_german_catalogue_text_has_a_slip() -> None:
    """Every German text of the catalogues (a message's arguments are checked in the complete German games)."""
    bad = []
    for m in messages_of("de"):
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            bad += [f"{m.context}: {slip}" for slip in german_slips(text or "")]
    assert not bad, "\n".join(bad)
