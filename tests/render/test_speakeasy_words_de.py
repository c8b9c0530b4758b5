"""Issue 15: Speakeasy's texts at a German table (the headline, the board summary, the safe screen, Jo's line and
the final message) hold no English word outside names: every word of them that only the English catalogue has is
looked for, in real positions of four-player and solo games."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.pofile import read_po

from render import speakeasy_final_text as final_words
from render import speakeasy_text as words
from render.story import Segment, line, steps
from tests.render.test_speakeasy_render import own, spectator
from words.catalogue import po_files

POSITIONS = ("setup-2", "act1-midturn-3", "war-4", "act3-4", "over-4", "act2-solo", "over-solo")
WORD = re.compile(r"[A-Za-zÄÖÜäöüß']+")


def _words_of(lang: str, english: bool) -> set[str]:
    found: set[str] = set()
    for path in po_files(lang):
        for m in read_po(path.open("rb"), locale=lang):
            if not m.id:
                continue
            texts = (m.id if isinstance(m.id, tuple) else (m.id,)) if english else m.string
            for text in texts if isinstance(texts, tuple) else (texts,):
                found |= {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text or ""))}
    return found


@cache
def english_only() -> frozenset[str]:
    """Words the English catalogue says and the German one never does (so never German, nor a name in both)."""
    return frozenset(w for w in _words_of("en", True) - _words_of("de", False) if len(w) > 2)


def _without_names(text: str, view: dict) -> str:
    """The text without the names it may hold: players', districts', Mobsters' (those stay as printed)."""
    names = [p["name"] for p in view["players"]] + [d["name"] for d in view["districts"]]
    names += [d["mobster"] for d in view["districts"] if d.get("mobster")]
    names += [str(p.get("associate")) for p in view["players"] if p.get("associate")]
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


def english_in(text: str, view: dict) -> list[str]:
    """The English-only words of ``text``."""
    return [w for w in WORD.findall(_without_names(text, view)) if w.lower() in english_only()]


def test_the_check_finds_english() -> None:
    view = spectator("act3-4")
    assert len(english_only()) > 100
    assert english_in("Anna's turn · 3 Goons and barrels", view) == ["turn", "Goons", "and", "barrels"]
    assert english_in("Anna ist am Zug · 3 Schläger", view) == []


@pytest.mark.parametrize("name", POSITIONS)
def test_german_texts_have_no_english_words(name: str) -> None:
    view = {**spectator(name), "lang": "de"}
    texts = [words.headline(view), words.summary(view), words.jo_words(view), final_words.final_message(view)]
    for seat in range(len(view["players"])):
        texts.append(words.private_note({**own(name, seat), "lang": "de"}))
    found = {t[:60]: english_in(t, view) for t in texts if t}
    assert all(not f for f in found.values()), {k: v for k, v in found.items() if v}
    assert "Zugreihenfolge" in texts[1] and "Tasche" in texts[1]


def test_private_questions_and_story_words_in_german() -> None:
    view = spectator("act3-4")
    w = words.lang_words({"lang": "de"})
    for kind, question in words.PRIVATE_QUESTIONS.items():
        assert not english_in(w(question), view), kind

    class Event:
        def __init__(self, id: int, kind: str, text: str, data: str = "{}") -> None:
            self.id, self.kind, self.text, self.data = id, kind, text, data

    turn = Segment("turn", 0, [Event(1, "turn", "1924 · Anna's turn")])
    assert line(turn, ["Anna"], lang="de").endswith(":** noch nichts")
    assert line(turn, ["Anna"]) == "**1924 · Anna's turn:** nothing yet"
    stored = '{"msg": {"m": "render.speakeasy.status.turn", "t": "{name}\'s turn", "a": {"name": "Ben"}}}'
    seg = Segment("turn", 0, [Event(1, "turn", "x"), Event(2, "note", "Ben's turn.", stored)])
    assert steps(seg, ["Anna", "Ben"], lang="de") == ["Ben ist am Zug"]
    assert steps(seg, ["Anna", "Ben"]) == ["Ben's turn"]
