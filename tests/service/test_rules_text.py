"""The rules by topic (``service/rules_text.py``): topics, search, rendering and the seed wording."""

from __future__ import annotations

from pathlib import Path

import pytest

from service import rules_text
from service.rules_text import MESSAGE_MAX, Topic

ROOT = Path(__file__).resolve().parents[2]


def test_topics_exist_for_both_games_with_unique_short_keys():
    assert rules_text.games() == {"omerta": "Omerta", "speakeasy": "Speakeasy"}
    omerta, speakeasy = rules_text.topics("omerta"), rules_text.topics("speakeasy")
    assert len(omerta) >= 9 and len(speakeasy) >= 40
    assert rules_text.topics() == omerta + speakeasy
    keys = [t.key for t in rules_text.topics()]
    assert len(keys) == len(set(keys)) and all(len(k) <= 100 for k in keys)
    titles = {t.title for t in speakeasy}
    assert {"Cook the Books (design §10)", "Mob War", "Mob War strength"} <= titles
    assert "4. The snap" in {t.title for t in omerta}


def test_topic_parents_and_children():
    mob_war = rules_text.find("Mob War", "speakeasy")
    assert mob_war is not None and mob_war.level == 3 and mob_war.parent == "5. The Lucky Luciano phase (seed 001)"
    luciano = next(t for t in rules_text.topics("speakeasy") if t.title == mob_war.parent)
    assert "Mob War" in luciano.children and "Mob War strength" in luciano.children


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("Cook the Books", "Cook the Books (design §10)"),
        ("cook the books", "Cook the Books (design §10)"),
        ("Mob War", "Mob War"),
        ("mob war", "Mob War"),
        ("OMERTA", "6. OMERTA and scoring"),
        ("the snap", "4. The snap"),
    ],
)
def test_search_finds_the_titled_topic_first(query: str, title: str):
    found = rules_text.search(query)
    assert found and found[0].title == title


def test_search_matches_text_and_words_case_insensitively():
    birdie = rules_text.search("birdie brown")
    assert "Mob War strength" in [t.title for t in birdie]
    assert all("birdie brown" in " ".join(rules_text.rule_lines(t)).lower() for t in birdie)
    assert rules_text.search("BOOKS cook") == rules_text.search("cook books")
    assert rules_text.search("zzzz-no-such-rule") == []
    assert all(t.game == "omerta" for t in rules_text.search("snap", "omerta"))


def test_find_by_key_title_or_short_title_and_close_matches():
    cook = rules_text.find("Cook the Books")
    assert cook is not None and cook.key == "speakeasy/cook-the-books"
    assert rules_text.find(cook.key) == cook
    assert rules_text.find("cook the books (design §10)") == cook
    assert rules_text.find(cook.key, "omerta") is None  # the key of another game
    assert rules_text.find("mob") is None  # several titles: the caller lists them
    assert rules_text.find("") is None
    close = [t.title for t in rules_text.close_matches("Mob Wor")]
    assert "Mob War" in close
    assert len(rules_text.close_matches("mob", limit=3)) == 3


def test_every_rendered_message_fits_discord_and_no_test_names_leak():
    for topic in rules_text.topics():
        messages = rules_text.rule_text(topic)
        assert messages, topic.key
        for text in messages:
            assert 0 < len(text) <= MESSAGE_MAX, topic.key
            assert "test_" not in text and "tests/" not in text, topic.key
            assert "| Tests" not in text and "|---" not in text, topic.key
        assert messages[0].startswith(f"**{topic.label}**")


def test_rows_become_bullets_with_their_source():
    cook = rules_text.find("Cook the Books")
    assert cook is not None
    lines = rules_text.rule_lines(cook)
    assert lines[0].startswith("• Cook the Books places up to 3 Books")
    assert lines[0].endswith("*(design §10)*")


def test_a_section_citing_001_12_2_shows_the_seed_sentence():
    topic = rules_text.find("Mob War strength")
    assert topic is not None
    text = "\n".join(rules_text.rule_text(topic))
    assert "001:12.2" in text
    assert "Birdie Brown, strength 6 and +1, attacks at 7." in text
    assert "A Mobster attacks at its strength (brown box) + its Mob War modifier (red box)." in text


def test_seed_wording_of_all_four_seeds_and_ranges():
    text = "000:19.8, 001:12.2, 002:10.2, 003:52.1, 000:26.1-3, 002:35.1-002:38.1"
    ids = rules_text.seed_ids(text)
    assert ids[:4] == ["000:19.8", "001:12.2", "002:10.2", "003:52.1"]
    assert ids[4:7] == ["000:26.1", "000:26.2", "000:26.3"]
    assert ids[7:] == ["002:35.1", "002:36.1", "002:37.1", "002:38.1"]
    assert rules_text.seed_ids("002:99.9 and design §8.2-§8.3") == []
    components = rules_text.find("Components", "omerta")
    assert components is not None
    cited = dict(rules_text.seed_wording(components))
    assert "002:40.1" in cited  # inside 002:35.1-002:42.1
    assert cited["002:10.1"].startswith("Jeder Spieler verkörpert einen namhaften Gangster")


def test_the_rule_index_copy_in_the_repository_is_the_shared_one():
    copy = ROOT / "docs" / "rules" / "rule-index.md"
    assert copy.is_file()
    shared = ROOT.parent / "shared" / "seeds" / "rule-index.md"
    if shared.is_file():  # only where the shared folder is next to the repository
        assert copy.read_bytes() == shared.read_bytes()


def test_splitting_never_cuts_a_line_and_shortens_a_too_long_one():
    lines = [f"• rule {i} " + "x" * 300 for i in range(20)]
    messages = rules_text.split_messages(lines)
    assert len(messages) > 1 and all(len(m) <= MESSAGE_MAX for m in messages)
    assert [line for m in messages for line in m.split("\n")] == lines
    long = rules_text.split_messages(["• " + "word " * 1000 + "*(design §1)*"])
    assert len(long) == 1 and len(long[0]) <= MESSAGE_MAX and long[0].endswith("…")


def test_a_too_long_bullet_keeps_its_source_and_closes_its_markdown():
    body = ("| Rule | Source | Tests |", "|---|---|---|", f"| `{'a' * 2500}` | 001:12.2 | `test_x` |")
    topic = Topic("g", "G", "T", "g/t", 3, body)
    line = rules_text.rule_lines(topic)[0]
    assert len(line) <= MESSAGE_MAX and line.startswith("• `aaa") and line.endswith("`… *(001:12.2)*")
    assert line.count("`") % 2 == 0 and "test_x" not in line


def test_at_most_n_messages_ending_with_the_overflow_line():
    lines = [f"• rule {i} " + "x" * 300 for i in range(40)]
    messages = rules_text.split_messages(lines, max_messages=3, overflow="-# Narrow the topic.")
    assert len(messages) == 3 and messages[-1].endswith("-# Narrow the topic.")
    assert all(len(m) <= MESSAGE_MAX for m in messages)
    short = rules_text.split_messages(lines[:2], max_messages=3, overflow="-# Narrow the topic.")
    assert len(short) == 1 and "Narrow" not in short[0]


def test_prose_keeps_its_sentences_but_not_the_test_references():
    decisions = rules_text.find("Bot-specific decisions", "omerta")
    assert decisions is not None
    lines = rules_text.rule_lines(decisions)
    assert lines[0].startswith("• **Omerta is a memory game.**")
    assert lines[0].endswith("the table never shows it again.")
    values = rules_text.find("Project values", "omerta")
    assert values is not None
    text = "\n".join(rules_text.rule_lines(values))
    assert "The loader refuses a file it cannot play" in text and "play with changed numbers" not in text
