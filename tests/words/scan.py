"""Issue 15's scan: find English words in what the bot showed at a German table.

A word counts as English when the English catalogue uses it and the German one never does (so "Casino", "Safe",
"OMERTA" or a district's name, which German keeps, are not English), or when it is one of a short list of English
function words German never uses (they catch text that never went through a catalogue at all). Names (players,
the bot) are removed before the scan.

Everything the bot sent through the fake Discord is read: message contents, embeds, buttons, menus (placeholder,
option labels and descriptions), modals, in channels, threads, DMs and interaction replies.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from typing import Any

from words.extract import messages_of

WORD = re.compile(r"[A-Za-zÄÖÜäöüß][A-Za-zÄÖÜäöüß'’-]*")
FIELD = re.compile(r"\{[^{}]*\}")
MARKUP = re.compile(r"<[@#!&t:][^>]*>|https?://\S+|`[^`]*`")
#: English words that carry no game meaning and that German text never contains (a text that skipped the
#: catalogues is caught by them even when its nouns are names).
_FUNCTION_TEXT = (
    "the and you your yours to of is are was with for from has have this that it its on at by will not no yes "
    "or if when who what which their they them he she his her be been can may must should would there here "
    "than then only also out up down into onto off over after before again any each every some one two three "
    "turn turns card cards draw draws discard discards take takes wait waiting please click press button"
)
FUNCTION_WORDS = frozenset(_FUNCTION_TEXT.split())


def _words(text: str) -> Iterator[str]:
    text = MARKUP.sub(" ", FIELD.sub(" ", text))
    for w in WORD.findall(text):
        w = w.strip("'’-").lower()
        if len(w) > 1:
            yield w


@functools.cache
def english_only() -> frozenset[str]:
    """Words the English catalogue uses that the German one never does, with the function words."""

    def texts(lang: str) -> Iterator[str]:
        for m in messages_of(lang):
            for s in m.string if isinstance(m.string, tuple) else (m.string,):
                yield s or ""

    english = {w for t in texts("en") for w in _words(t)}
    german = {w for t in texts("de") for w in _words(t)}
    return frozenset((english | FUNCTION_WORDS) - german)


def _component_texts(components: Iterable[dict[str, Any]]) -> Iterator[str]:
    for c in components or ():
        for key in ("label", "placeholder", "title"):  # a text input's value is the player's own
            if isinstance(c.get(key), str):
                yield c[key]
        for o in c.get("options") or ():
            yield str(o.get("label") or "")
            yield str(o.get("description") or "")
        yield from _component_texts(c.get("components") or ())


def _payload_texts(payload: dict[str, Any]) -> Iterator[str]:
    yield str(payload.get("content") or "")
    for e in payload.get("embeds") or ():
        for key in ("title", "description"):
            yield str(e.get(key) or "")
        for f in e.get("fields") or ():
            yield str(f.get("name") or "")
            yield str(f.get("value") or "")
        yield str((e.get("footer") or {}).get("text") or "")
        yield str((e.get("author") or {}).get("name") or "")
    yield from _component_texts(payload.get("components") or ())
    if payload.get("title"):  # a modal
        yield str(payload["title"])


def shown_texts(requests: Iterable[Any]) -> list[tuple[str, str]]:
    """Every text the bot sent: ``(where, text)`` for each message posted or edited and each interaction reply."""
    out = []
    for req in requests:
        if req.method not in ("POST", "PATCH") or not isinstance(req.json, dict) or req.status >= 300:
            continue
        path = req.path
        payload = req.json
        if "/callback" in path:
            payload = payload.get("data") or {}
        elif not (path.startswith("/channels/") and "/messages" in path) and not path.startswith("/webhooks/"):
            continue
        for text in _payload_texts(payload):
            if text.strip():
                out.append((path, text))
    return out


def english_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The English words of a text shown at a German table (names removed first)."""
    for name in sorted(names, key=len, reverse=True):
        if name:
            text = text.replace(name, " ")
    bad = english_only()
    return [w for w in _words(text) if w in bad]


def english_found(requests: Iterable[Any], names: Iterable[str] = ()) -> list[tuple[str, str, list[str]]]:
    """Every shown text that has English words: ``(where, text, words)``."""
    names = list(names)
    out = []
    for where, text in shown_texts(requests):
        found = english_words(text, names)
        if found:
            out.append((where, text, found))
    return out


# --- German that reads like German (issue 24) ------------------------------------------------------------------

#: A word written twice in a row on one line ("zurückholen zurückholen"); fields and markup are removed first.
DOUBLED = re.compile(r"\b([A-Za-zÄÖÜäöüß]{2,})[ \t]+\1\b", re.IGNORECASE)
#: "von" takes the dative: "von die Mobster", "von das Casino" are slips ("von der", "von den" can be right).
VON_SLIP = re.compile(r"\bvon (die|das)\b")
#: One German word for each concept (docs/words.md): the spellings that must not appear, and the one to use.
GLOSSARY: dict[str, tuple[str, ...]] = {
    "Schnellabwurf (the snap)": ("Ablegefenster", "schnell ablegen", "Schnell ablegen", "Ablage-Auftr"),
    "Dauerauftrag (a standing order)": ("stehende Auftr", "stehender Auftrag", "Daueranmeldung"),
    "aufgeben (abandon)": ("abbrechen", "Abbrechen", "abgebrochen", "brich eine ab"),
}


def german_slips(text: str) -> list[str]:
    """What reads wrong in a German text: a doubled word, a "von die/das" slip, a concept spelt another way."""
    plain = MARKUP.sub(" ", FIELD.sub(" ", text))
    out = [f"doubled word {m.group(0)!r}" for m in DOUBLED.finditer(plain)]
    out += [f"'von' with the nominative: {m.group(0)!r}" for m in VON_SLIP.finditer(plain)]
    for concept, wrong in GLOSSARY.items():
        out += [f"{w!r}: write {concept}" for w in wrong if w in plain]
    return out


def german_slips_found(requests: Iterable[Any]) -> list[tuple[str, str, list[str]]]:
    """Every shown text with a German slip: ``(where, text, slips)``."""
    return [(where, text, slips) for where, text in shown_texts(requests) if (slips := german_slips(text))]
