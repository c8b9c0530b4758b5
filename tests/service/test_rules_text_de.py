"""Issue 15 ("Auf Deutsch"): ``/rules`` in German. ``data/rules/omerta.de.md`` is Omerta's players' rules in
German, made from the German rulebook; the loader reads ``<game>.<lang>.md`` for a language and falls back to the
English ``<game>.md`` where a game has none. Callers that give no language get English, as before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service import rules_text
from service.rules_text import MESSAGE_MAX, Topic
from tests.service.test_rules_text import DEVELOPER_WORDS, PARAGRAPH_MAX, SEE_ALSO, SENTENCE_ID

GERMAN = rules_text.topics("omerta", lang="de")
#: The rulebook's own German words a German page must use (its terms, not translations of the English page).
TERMS = ("Ablagestapel", "Nachziehstapel", "Strafkarte", "Flaschen", "Verräter", "Maulwurf", "Dame", "Safe")


def test_the_german_file_loads_with_the_same_pages_as_the_english_one() -> None:
    english = rules_text.topics("omerta")
    assert [t.lang for t in GERMAN] == ["de"] * len(english)
    assert len(GERMAN) == len(english) >= 6
    assert [t.title for t in GERMAN][:3] == ["So wird gespielt", "Vorbereitung und Ansehen", "Dein Zug"]
    assert all(t.lang == "en" for t in english)  # no language: English, as every caller had it
    assert rules_text.games(lang="de") == rules_text.games() == {"omerta": "Omerta", "speakeasy": "Speakeasy"}
    text = "\n".join(line for t in GERMAN for line in t.body)
    assert all(term in text for term in TERMS), [t for t in TERMS if t not in text]
    assert "„" in text and "Tauscht viel gegen wenig." in text


def test_a_game_without_a_german_file_falls_back_to_english(tmp_path: Path) -> None:
    (tmp_path / "game.md").write_text("# Game\n\n## Play\n\nIn English.\n\nSource: Game rulebook.\n", encoding="utf-8")
    assert rules_text.topics(rules_dir=tmp_path, lang="de") == rules_text.topics(rules_dir=tmp_path)
    assert all(t.lang == "en" for t in rules_text.topics(rules_dir=tmp_path, lang="de"))
    assert rules_text.topics(lang="fr") == rules_text.topics()  # an unknown language: English
    # both games have their German pages
    assert {t.game for t in rules_text.topics(lang="de") if t.lang == "de"} == {"omerta", "speakeasy"}


@pytest.mark.parametrize("topic", GERMAN, ids=lambda t: t.key)
def test_every_german_page_speaks_to_players_and_fits_one_discord_message(topic: Topic) -> None:
    messages = rules_text.rule_text(topic)
    assert len(messages) == 1
    page = messages[0]
    assert len(page) <= MESSAGE_MAX and page.startswith(f"**{topic.label}**\n")
    assert not SENTENCE_ID.search(page) and not DEVELOPER_WORDS.search(page)
    assert all(len(line) <= PARAGRAPH_MAX for line in page.split("\n"))
    assert page.split("\n")[-1] == f"-# Quelle: {topic.source}"
    assert topic.source.startswith("Omerta-Spielregel")
    assert page.count("**") % 2 == 0 and page.count("`") % 2 == 0


def test_the_german_first_page_lists_every_page() -> None:
    first = GERMAN[0]
    line = next(x for x in first.body if x.startswith("**Frag `/rules` nach:**"))
    names = [n.strip() for n in line.removeprefix("**Frag `/rules` nach:**").split(" · ")]
    found = [rules_text.find(n, "omerta", lang="de") for n in names]
    assert None not in found
    assert {t.key for t in found if t} == {t.key for t in GERMAN[1:]}
    for topic in GERMAN:
        for name in SEE_ALSO.findall("\n".join(topic.body)):
            assert rules_text.find(name, "omerta", lang="de") is not None


def test_search_find_and_keys_in_german() -> None:
    assert rules_text.search("Schnellabwurf", "omerta", lang="de")[0].key == "omerta/der-schnellabwurf"
    assert rules_text.find("Dein Zug", "omerta", lang="de").key == "omerta/dein-zug"  # type: ignore[union-attr]
    assert rules_text.find("Dein Zug", "omerta") is None  # not an English title
    # a key the German autocomplete offered still finds its page when the caller gives no language
    assert rules_text.topic_by_key("omerta/dein-zug").lang == "de"  # type: ignore[union-attr]
    assert rules_text.topic_by_key("omerta/your-turn", lang="de").lang == "en"  # type: ignore[union-attr]
    assert rules_text.close_matches("Charakterkrten", "omerta", lang="de")[0].title == "Charakterkarten"
    omerta = "\n".join(rules_text.rule_text(rules_text.find("OMERTA und Wertung", lang="de")))  # type: ignore[arg-type]
    assert "höchstens sieben" in omerta and "20 Strafpunkte" in omerta


def test_a_language_file_is_read_instead_of_the_base_file(tmp_path: Path) -> None:
    (tmp_path / "game.md").write_text("# Game\n\n## Play\n\nIn English.\n\nSource: Game rulebook.\n", encoding="utf-8")
    (tmp_path / "game.de.md").write_text("# Spiel\n\n## Spielen\n\nAuf Deutsch.\n\nQuelle: Spielregel.\n", "utf-8")
    assert rules_text.games(tmp_path) == {"game": "Game"}  # the translation is no game of its own
    (de,) = rules_text.topics(rules_dir=tmp_path, lang="de")
    assert (de.title, de.game_title, de.source, de.lang) == ("Spielen", "Spiel", "Spielregel.", "de")
    assert rules_text.rule_lines(de)[-1] == "-# Quelle: Spielregel."
    (en,) = rules_text.topics(rules_dir=tmp_path)
    assert (en.title, en.source) == ("Play", "Game rulebook.")
    assert re.fullmatch(r"game/\w+", de.key)
    assert rules_text.rules_file(tmp_path, "game", "de").name == "game.de.md"
    assert rules_text.rules_file(tmp_path, "game", "fr").name == "game.md"
