"""The rules for players by topic (``service/rules_text.py`` reading ``data/rules/``): the pages speak to
players (no sentence ids, no developer words, a source line at the end), fit Discord, and can be found."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service import rules_text
from service.rules_text import MESSAGE_MAX, Topic

ROOT = Path(__file__).resolve().parents[2]
#: Discord's limit for an embed description (a page must fit there too, should it ever be sent as an embed).
EMBED_MAX = 4096
#: The longest paragraph (or list item: one line of a page) a phone reader should meet, about 70 words.
PARAGRAPH_MAX = 450
#: Words of the developers' documents that a player's page must not carry.
DEVELOPER_WORDS = re.compile(
    r"\bseeds?\b|design §|§\d|\btests?_|tests/|\bengine\b|docs/rules|\bprompt\b|\bstate\b|\bview\b", re.IGNORECASE
)
#: A sentence id of the rules index, bare or in brackets: ``(001:5.2)``, ``000:26.1-3``.
SENTENCE_ID = re.compile(r"\(\d{3}:\d|\b\d{3}:\d+\.\d+")
#: A cross-reference from one page to another: ``/rules topic:Mob War``.
SEE_ALSO = re.compile(r"`/rules topic:([^`]+)`")


def test_topics_exist_for_both_games_with_unique_short_keys():
    assert rules_text.games() == {"omerta": "Omerta", "speakeasy": "Speakeasy"}
    omerta, speakeasy = rules_text.topics("omerta"), rules_text.topics("speakeasy")
    assert len(omerta) >= 6 and len(speakeasy) >= 20
    assert rules_text.topics() == omerta + speakeasy
    keys = [t.key for t in rules_text.topics()]
    assert len(keys) == len(set(keys)) and all(len(k) <= 100 for k in keys)
    assert {"How to play", "Your turn", "Cook the Books", "Mob War", "Defending a building"} <= {
        t.title for t in speakeasy
    }
    assert {"How to play", "Your turn", "The snap", "OMERTA and scoring"} <= {t.title for t in omerta}
    assert rules_text.find("Mob War").key == "speakeasy/mob-war"  # type: ignore[union-attr]
    assert rules_text.find("Jo's turn").key == "speakeasy/jos-turn"  # type: ignore[union-attr]


@pytest.mark.parametrize("topic", rules_text.topics(), ids=lambda t: t.key)
def test_every_page_speaks_to_players_and_fits_one_discord_message(topic: Topic):
    messages = rules_text.rule_text(topic)
    assert len(messages) == 1, f"{topic.key} needs {len(messages)} messages"
    page = messages[0]
    assert len(page) <= MESSAGE_MAX and len(page) <= EMBED_MAX
    assert page.startswith(f"**{topic.label}**\n")
    assert not SENTENCE_ID.search(page), SENTENCE_ID.search(page)
    assert not DEVELOPER_WORDS.search(page), DEVELOPER_WORDS.search(page)
    assert "|---" not in page and "<!--" not in page
    # short paragraphs, and the source line last, in small print, naming the rulebook
    assert all(len(line) <= PARAGRAPH_MAX for line in page.split("\n")), max(page.split("\n"), key=len)
    last = page.split("\n")[-1]
    assert last == f"-# Source: {topic.source}"
    assert re.match(rf"{topic.game_title} (rulebook|solo rules)", topic.source), topic.source
    assert page.count("**") % 2 == 0 and page.count("`") % 2 == 0


@pytest.mark.parametrize("game", ["omerta", "speakeasy"])
def test_the_first_page_lists_every_topic_and_every_cross_reference_finds_its_page(game: str):
    pages = rules_text.topics(game)
    first = pages[0]
    assert first.title == "How to play"
    line = next(x for x in first.body if x.startswith("**Ask `/rules` about:**"))
    names = line.removeprefix("**Ask `/rules` about:**").split(" · ")
    found = [rules_text.find(n.strip(), game) for n in names]
    assert None not in found, [n for n, f in zip(names, found, strict=True) if f is None]
    assert {t.key for t in found if t} == {t.key for t in pages[1:]}  # every other page, each by one name
    for topic in pages:
        for name in SEE_ALSO.findall("\n".join(topic.body)):
            target = rules_text.find(name, game)
            assert target is not None and target != topic, (topic.key, name)


def test_the_pages_keep_the_rulebooks_numbers():
    """A few of the rulebooks' own numbers and examples, as players read them (Speakeasy rulebook, Lucky
    Luciano Phase; Omerta rulebook)."""
    mob_war = "\n".join(rules_text.rule_text(rules_text.find("Mob War", "speakeasy")))  # type: ignore[arg-type]
    assert "Birdie Brown, strength 6 and +1, attacks at 7." in mob_war
    assert "6-8 after Act 1, 8-10 after Act 2, 10-12 after Act 3" in mob_war
    start = "\n".join(rules_text.rule_text(rules_text.find("Set-up and the 1920 Setup Round")))  # type: ignore[arg-type]
    assert "$15 in your pocket and $30 in your safe" in start
    omerta = "\n".join(rules_text.rule_text(rules_text.find("OMERTA and scoring")))  # type: ignore[arg-type]
    assert "at most 7 points" in omerta and "plus 20 penalty points" in omerta


@pytest.mark.parametrize(
    ("query", "key"),
    [
        ("Cook the Books", "speakeasy/cook-the-books"),
        ("cook the books", "speakeasy/cook-the-books"),
        ("Mob War", "speakeasy/mob-war"),
        ("OMERTA", "omerta/omerta-and-scoring"),
        ("the snap", "omerta/the-snap"),
        ("cops", "speakeasy/cops-patrol-manhattan"),
    ],
)
def test_search_finds_the_titled_topic_first(query: str, key: str):
    found = rules_text.search(query)
    assert found and found[0].key == key


def test_search_matches_text_and_words_case_insensitively():
    birdie = rules_text.search("birdie brown")
    assert {"speakeasy/mob-war", "speakeasy/defending-a-building"} <= {t.key for t in birdie}
    assert all("birdie brown" in " ".join(rules_text.rule_lines(t)).lower() for t in birdie)
    assert rules_text.search("BOOKS cook") == rules_text.search("cook books")
    assert rules_text.search("zzzz-no-such-rule") == []
    assert all(t.game == "omerta" for t in rules_text.search("snap", "omerta"))


def test_find_by_key_title_or_label_and_close_matches():
    cook = rules_text.find("Cook the Books")
    assert cook is not None and cook.key == "speakeasy/cook-the-books"
    assert rules_text.find(cook.key) == cook
    assert rules_text.find("Speakeasy · Cook the Books") == cook
    assert rules_text.find(cook.key, "omerta") is None  # the key of another game
    assert rules_text.find("Your turn") is None  # a title of both games: the caller lists them
    assert rules_text.find("Your turn", "omerta").key == "omerta/your-turn"  # type: ignore[union-attr]
    assert rules_text.find("") is None
    close = [t.title for t in rules_text.close_matches("Mob Wor")]
    assert "Mob War" in close
    assert len(rules_text.close_matches("mob", limit=3)) <= 3


def test_a_rules_file_is_read_page_by_page_without_the_writers_notes(tmp_path: Path):
    (tmp_path / "game.md").write_text(
        "# Game\n\n<!--\nA note for writers.\n-->\n\n## First\n\nOne.\n\n**Bold.** Two.\n\n"
        "Source: Game rulebook, Part 1.\n\n## First\n\nAgain.\n\n## Last\n\nNo source.\n",
        encoding="utf-8",
    )
    pages = rules_text.topics(rules_dir=tmp_path)
    assert [t.key for t in pages] == ["game/first", "game/first-2", "game/last"]
    assert rules_text.games(tmp_path) == {"game": "Game"}
    first = pages[0]
    assert first.body == ("One.", "", "**Bold.** Two.", "", "Source: Game rulebook, Part 1.")
    assert first.source == "Game rulebook, Part 1."
    assert rules_text.rule_lines(first)[-1] == "-# Source: Game rulebook, Part 1."
    assert pages[2].source == ""
    assert "writers" not in " ".join(line for t in pages for line in t.body)


def test_the_rule_index_copy_in_the_repository_is_the_shared_one():
    copy = ROOT / "docs" / "rules" / "rule-index.md"
    assert copy.is_file()
    shared = ROOT.parent / "shared" / "seeds" / "rule-index.md"
    if shared.is_file():  # only where the shared folder is next to the repository
        assert copy.read_bytes() == shared.read_bytes()


def test_splitting_never_cuts_a_line_and_shortens_a_too_long_one():
    lines = [f"rule {i} " + "x" * 300 for i in range(20)]
    messages = rules_text.split_messages(lines)
    assert len(messages) > 1 and all(len(m) <= MESSAGE_MAX for m in messages)
    assert [line for m in messages for line in m.split("\n")] == lines
    long = rules_text.split_messages(["**" + "word " * 1000 + "**"])
    assert len(long) == 1 and len(long[0]) <= MESSAGE_MAX and long[0].endswith("…")
    assert long[0].count("**") % 2 == 0


def test_at_most_n_messages_ending_with_the_overflow_line():
    lines = [f"rule {i} " + "x" * 300 for i in range(40)]
    messages = rules_text.split_messages(lines, max_messages=3, overflow="-# Narrow the topic.")
    assert len(messages) == 3 and messages[-1].endswith("-# Narrow the topic.")
    assert all(len(m) <= MESSAGE_MAX for m in messages)
    short = rules_text.split_messages(lines[:2], max_messages=3, overflow="-# Narrow the topic.")
    assert len(short) == 1 and "Narrow" not in short[0]
