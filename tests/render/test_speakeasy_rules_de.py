"""Issue 15: ``/rules`` in German. data/rules/speakeasy.de.md is the German of data/rules/speakeasy.md: the same
pages in the same order, each with the same numbers, short enough for one Discord message, its cross references
and its first page's list naming German pages, and no English paragraph left in it."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "data" / "rules"
ENGLISH, GERMAN = RULES / "speakeasy.md", RULES / "speakeasy.de.md"
#: What one page may hold (Discord's message limit, with the "**Speakeasy · title**" line) and a paragraph.
MESSAGE_MAX, PARAGRAPH_MAX = 2000, 450
SEE_ALSO = re.compile(r"`/rules topic:([^`]+)`")
NUMBER = re.compile(r"\$?\d+")
#: Words that are English only (never German words or the game's names): a paragraph with them is untranslated.
ENGLISH_WORDS = frozenset(
    [
        "the",
        "and",
        "of",
        "you",
        "your",
        "with",
        "from",
        "each",
        "when",
        "this",
        "that",
        "is",
        "are",
        "to",
        "for",
        "it",
        "its",
        "be",
        "by",
        "or",
        "at",
        "on",
        "can",
        "may",
        "must",
    ]
)


def pages(path: Path) -> tuple[str, list[tuple[str, list[str]]]]:
    """The ``#`` title and the ``##`` pages (heading, paragraphs) of a rules file, the writers' notes left out."""
    text = re.sub(r"<!--.*?-->", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    title, out = "", []
    for line in text.splitlines():
        if line.startswith("## "):
            out.append((line[3:].strip(), []))
        elif line.startswith("# "):
            title = line[2:].strip()
        elif line.strip() and out:
            out[-1][1].append(line.strip())
    return title, out


def test_the_german_file_has_the_english_files_pages() -> None:
    en_title, en = pages(ENGLISH)
    de_title, de = pages(GERMAN)
    assert de_title == en_title == "Speakeasy"
    assert len(de) == len(en) == 23
    assert len({h for h, _ in de}) == len(de)  # every German heading its own
    for (h_en, body_en), (h_de, body_de) in zip(en, de, strict=True):
        assert h_de != h_en, h_en
        # the same numbers and dollar amounts, page by page: nothing lost or added in the translation
        assert Counter(NUMBER.findall(" ".join(body_de))) == Counter(NUMBER.findall(" ".join(body_en))), h_en
        assert len(body_de) == len(body_en), h_en  # paragraph for paragraph, list item for list item


@pytest.mark.parametrize("heading", [h for h, _ in pages(GERMAN)[1]])
def test_every_german_page_reads_in_one_message(heading: str) -> None:
    body = dict(pages(GERMAN)[1])[heading]
    page = "\n".join([f"**Speakeasy · {heading}**", *body])
    assert len(page) <= MESSAGE_MAX, len(page)
    assert all(len(line) <= PARAGRAPH_MAX for line in body), max(body, key=len)
    assert page.count("**") % 2 == 0 and page.count("`") % 2 == 0
    assert re.match(r"Quelle: Speakeasy-(Regelheft|Solo-Regeln)", body[-1]), body[-1]


def test_no_english_paragraph_is_left() -> None:
    english = {p for _, body in pages(ENGLISH)[1] for p in body}
    for heading, body in pages(GERMAN)[1]:
        for paragraph in body:
            assert paragraph not in english, (heading, paragraph)
            said = re.sub(r"`[^`]*`", "", paragraph)  # a command as typed is not prose
            found = [w for w in re.findall(r"[A-Za-z']+", said) if w.lower() in ENGLISH_WORDS]
            assert not found, (heading, found, paragraph)


def test_cross_references_and_the_first_pages_list_name_german_pages() -> None:
    headings = [h for h, _ in pages(GERMAN)[1]]

    def page_of(name: str) -> list[str]:
        return [h for h in headings if name.lower() in h.lower()]

    first = pages(GERMAN)[1][0][1]
    line = next(x for x in first if x.startswith("**Frag `/rules` nach:**"))
    names = [n.strip() for n in line.removeprefix("**Frag `/rules` nach:**").split(" · ")]
    found = [page_of(n) for n in names]
    assert all(len(f) >= 1 for f in found), [n for n, f in zip(names, found, strict=True) if not f]
    assert {f[0] for f in found} == set(headings[1:])  # every other page, each by one name
    for heading, body in pages(GERMAN)[1]:
        for name in SEE_ALSO.findall("\n".join(body)):
            assert page_of(name) and heading not in page_of(name), (heading, name)
