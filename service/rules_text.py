"""The rules for players, by topic, for ``/rules``: read from the repository's ``data/rules/``.

Each ``data/rules/<game>.md`` is one game, written for players (short paragraphs, bold sub-headings, no sentence
ids); each ``##`` heading in it is a :class:`Topic` and one page, and the page's last line names its sources
(``Source: Speakeasy rulebook, Mob War``), shown as small print. ``data/rules/<game>.<lang>.md`` is the same game
in another language (``omerta.de.md``: German, ``Quelle: ...``); every function takes ``lang`` and reads that
file where there is one, else the English ``<game>.md`` (issue 15). The developers' rules documents
(``docs/rules/``, with sentence ids and tests) are not what players read. Pure: files and text only, no Discord.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

#: The folder of the players' rules files, in the repository.
RULES_DIR = Path(__file__).resolve().parent.parent / "data" / "rules"
#: Discord's limit for one message.
MESSAGE_MAX = 2000
#: How a page's source line starts (English).
SOURCE_PREFIX = "Source:"
#: How a page's source line starts in each language's files; English's is also read in any file.
SOURCE_PREFIXES = {"en": SOURCE_PREFIX, "de": "Quelle:"}
#: The language of the base files (``<game>.md``).
BASE_LANG = "en"

_HEADING = re.compile(r"^(#{1,2})\s+(.*\S)\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_WORD = re.compile(r"[\w§]+", re.UNICODE)


@dataclass(frozen=True)
class Topic:
    """One ``##`` section of a game's players' rules file: one page of ``/rules``."""

    game: str  #: the game's name, e.g. ``"speakeasy"`` (the file's stem)
    game_title: str  #: e.g. ``"Speakeasy"``
    title: str  #: the heading as written, e.g. ``"Cook the Books"``
    key: str  #: unique and at most 100 characters: ``"speakeasy/cook-the-books"``
    body: tuple[str, ...] = field(repr=False)  #: the lines under the heading, up to the next heading

    @property
    def label(self) -> str:
        """``"Speakeasy · Cook the Books"``."""
        return f"{self.game_title} · {self.title}"

    lang: str = BASE_LANG  #: the language the page is written in (``"en"``, ``"de"``)

    @property
    def source(self) -> str:
        """What the page's source line names (``"Speakeasy rulebook, Mob War"``), ``""`` without one."""
        line = next((x.strip() for x in reversed(self.body) if _source_prefix(x)), "")
        return line.removeprefix(_source_prefix(line)).strip()


def _source_prefix(line: str) -> str:
    """The source-line prefix ``line`` starts with (any language's), or ``""``."""
    text = line.strip()
    return next((p for p in SOURCE_PREFIXES.values() if text.startswith(p)), "")


def _slug(text: str) -> str:
    return "-".join(w.lower() for w in _WORD.findall(text.replace("§", " ").replace("'", ""))) or "topic"


# --- loading ---------------------------------------------------------------------------------------------------


def rules_file(rules_dir: Path, game: str, lang: str | None = None) -> Path:
    """A game's rules file in ``lang``: ``<game>.<lang>.md`` if there is one, else the English ``<game>.md``."""
    if lang and lang != BASE_LANG:
        own = rules_dir / f"{game}.{lang}.md"
        if own.is_file():
            return own
    return rules_dir / f"{game}.md"


def _lang_of(path: Path) -> str:
    parts = path.name.split(".")
    return parts[1] if len(parts) == 3 else BASE_LANG


@lru_cache(maxsize=16)
def _load(rules_dir: Path, lang: str | None = None) -> tuple[dict[str, str], tuple[Topic, ...]]:
    """The games (name → title) and every topic of every game in ``lang`` (English where a game has no file in
    it), in file order."""
    games: dict[str, str] = {}
    topics: list[Topic] = []
    # the base files name the games; "<game>.<lang>.md" files are their translations
    for base in sorted(p for p in rules_dir.glob("*.md") if "." not in p.stem):
        name = base.stem
        path = rules_file(rules_dir, name, lang)
        title, sections = _parse(path.read_text(encoding="utf-8"))
        games[name] = title or name.capitalize()
        used: set[str] = set()
        for heading, body in sections:
            base = f"{name}/{_slug(heading)}"[:96]
            key, n = base, 2
            while key in used:  # two pages of one game with the same words: keys stay unique
                key, n = f"{base}-{n}", n + 1
            used.add(key)
            topics.append(
                Topic(game=name, game_title=games[name], title=heading, key=key, body=tuple(body), lang=_lang_of(path))
            )
    return games, tuple(topics)


def _parse(text: str) -> tuple[str | None, list[tuple[str, list[str]]]]:
    """The ``#`` title and the ``##`` sections (heading, body lines without blank lines at either end);
    HTML comments (notes for the writers) are left out."""
    title: str | None = None
    sections: list[tuple[str, list[str]]] = []
    for line in _COMMENT.sub("", text).splitlines():
        m = _HEADING.match(line)
        if m and len(m.group(1)) == 1:
            title = m.group(2).strip()
        elif m:
            sections.append((m.group(2), []))
        elif sections:
            sections[-1][1].append(line.rstrip())
    for _, body in sections:
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
    return title, sections


# --- the public functions -------------------------------------------------------------------------------------


def games(rules_dir: Path = RULES_DIR, *, lang: str | None = None) -> dict[str, str]:
    """The games with a rules file: name → title, e.g. ``{"omerta": "Omerta", "speakeasy": "Speakeasy"}``."""
    return dict(_load(rules_dir, lang)[0])


def topics(game: str | None = None, *, rules_dir: Path = RULES_DIR, lang: str | None = None) -> list[Topic]:
    """Every topic of one game (by name, any case), or of all games when ``game`` is ``None``, in ``lang``
    (``None``: English; a game without a file in that language: English)."""
    every = _load(rules_dir, lang)[1]
    if game is None:
        return list(every)
    return [t for t in every if t.game == game.lower()]


def topic_by_key(key: str, *, rules_dir: Path = RULES_DIR, lang: str | None = None) -> Topic | None:
    """The topic with this key (the value ``/rules`` autocomplete sends): in ``lang`` first, then in any
    language's files (a key offered in German still finds its page where the caller gives no language)."""
    for every in (_load(rules_dir, lang)[1], *(_load(rules_dir, other)[1] for other in SOURCE_PREFIXES)):
        found = next((t for t in every if t.key == key), None)
        if found is not None:
            return found
    return None


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


@lru_cache(maxsize=1024)
def _search_text(topic: Topic) -> str:
    return _norm(" ".join(rule_lines(topic)))


def _score(topic: Topic, query: str, words: list[str]) -> int:
    """How well a topic matches: title matches first, then text matches; 0 for no match."""
    title = _norm(topic.title)
    text = _search_text(topic)
    if not query:
        return 0
    if query == title:
        return 1000
    score = 0
    if title.startswith(query):
        score = 600
    elif f" {query} " in f" {title} ":
        score = 500
    elif query in title:
        score = 400
    elif words and all(w in title.split() for w in words):
        score = 300
    elif words and all(w in title for w in words):
        score = 250
    hits = text.count(query)
    if hits:
        score = max(score, 100) + min(hits, 20) * 5
    elif words and all(w in text for w in words):
        score = max(score, 50) + sum(min(text.count(w), 10) for w in words)
    return score


def search(query: str, game: str | None = None, *, rules_dir: Path = RULES_DIR, lang: str | None = None) -> list[Topic]:
    """Topics whose title or text contain ``query`` (as a whole, or every word of it), best first.

    Case-insensitive. An exact title comes first, then titles that start with or contain the query, then
    sections whose text mentions it (more mentions first); ties keep the files' order.
    """
    q = _norm(query)
    words = q.split()
    scored = [(_score(t, q, words), i, t) for i, t in enumerate(topics(game, rules_dir=rules_dir, lang=lang))]
    return [t for s, _, t in sorted((x for x in scored if x[0] > 0), key=lambda x: (-x[0], x[1]))]


def find(query: str, game: str | None = None, *, rules_dir: Path = RULES_DIR, lang: str | None = None) -> Topic | None:
    """The one topic ``query`` names: its key, its title, its label (``"Speakeasy · Mob War"``), or the only
    title that contains it; ``None`` when it names none or several (use :func:`close_matches`)."""
    by_key = topic_by_key(query.strip(), rules_dir=rules_dir, lang=lang)
    if by_key is not None and (game is None or by_key.game == game.lower()):
        return by_key
    q = _norm(query)
    if not q:
        return None
    pool = topics(game, rules_dir=rules_dir, lang=lang)
    for exact in (
        [t for t in pool if _norm(t.title) == q],
        [t for t in pool if _norm(t.label) == q],
    ):
        if len(exact) == 1:
            return exact[0]
        if exact:
            return None  # the same title in both games: the caller asks which
    contains = [t for t in pool if q in _norm(t.title)]
    return contains[0] if len(contains) == 1 else None


def close_matches(
    query: str, game: str | None = None, *, limit: int = 5, rules_dir: Path = RULES_DIR, lang: str | None = None
) -> list[Topic]:
    """Topics near ``query``: search hits first, then titles spelt alike (for typos)."""
    found = search(query, game, rules_dir=rules_dir, lang=lang)[:limit]
    pool = topics(game, rules_dir=rules_dir, lang=lang)
    names = {_norm(t.title): t for t in pool}
    for name in difflib.get_close_matches(_norm(query), list(names), n=limit, cutoff=0.5):
        if names[name] not in found:
            found.append(names[name])
    return found[:limit]


# --- rendering ------------------------------------------------------------------------------------------------


def _close_markdown(text: str) -> str:
    """Close a backtick or bold left open by a cut."""
    if text.count("`") % 2:
        text += "`"
    if text.count("**") % 2:
        text += "**"
    return text


def _fit(line: str, limit: int = MESSAGE_MAX) -> str:
    """``line`` within ``limit`` characters: a too-long line is shortened with "…"."""
    if len(line) <= limit:
        return line
    return _close_markdown(line[: limit - 4].rstrip()) + "…"


def rule_lines(topic: Topic) -> list[str]:
    """The page's lines as Discord text: paragraphs as written, the source line as small print (``-#``)."""
    return [f"-# {line.strip()}" if _source_prefix(line) else line.rstrip() for line in topic.body]


def page_lines(topic: Topic) -> list[str]:
    """Every line of :func:`rule_text` before it is split into messages: the bold title line, then the page."""
    return [f"**{topic.label}**", *rule_lines(topic)]


def split_messages(
    lines: list[str], *, limit: int = MESSAGE_MAX, max_messages: int | None = None, overflow: str = ""
) -> list[str]:
    """Pack lines into messages of at most ``limit`` characters, never cutting a line (a too-long line is
    shortened with "…"). With ``max_messages``, a longer text stops at that many messages and the last one
    ends with ``overflow``."""
    fitted = [_fit(line, limit) for line in lines]
    messages: list[list[str]] = [[]]
    size = 0
    for line in fitted:
        add = len(line) + (1 if messages[-1] else 0)
        if messages[-1] and size + add > limit:
            while messages[-1] and not messages[-1][-1].strip():
                messages[-1].pop()
            messages.append([])
            size, add = 0, len(line)
        if not messages[-1] and not line.strip():
            continue  # no message starts with a blank line
        messages[-1].append(line)
        size += add
    out = ["\n".join(m).strip("\n") for m in messages if any(x.strip() for x in m)]
    if max_messages is None or len(out) <= max_messages:
        return out
    note = _fit(overflow, limit) if overflow else ""
    kept = out[:max_messages]
    if not note:
        return kept
    last = kept[-1].split("\n")
    while last and len("\n".join([*last, note])) > limit:
        last.pop()
    kept[-1] = "\n".join([*last, note]) if last else note
    return kept


def rule_text(topic: Topic, *, max_messages: int | None = None, overflow: str = "") -> list[str]:
    """A topic as Discord messages of at most 2,000 characters: the title line in bold, the page, and its
    source line in small print. Every shipped page fits one message (a test checks it); a longer page is
    split between lines, see :func:`split_messages` for ``max_messages`` and ``overflow``."""
    return split_messages(page_lines(topic), max_messages=max_messages, overflow=overflow)
