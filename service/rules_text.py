"""The rules as implemented, by topic, for ``/rules``: read from the repository's ``docs/rules/``.

Each ``docs/rules/<game>.md`` (except the rule index) is one game; each ``##``/``###`` heading in it is a
:class:`Topic`. :func:`rule_text` renders a topic for Discord: its table rows as bullets (the Tests column and
any test names left out) and, for every seed sentence the section cites (``001:12.2``), the seed's own wording
from ``docs/rules/rule-index.md`` (a verbatim copy of the shared rule index: the bot reads nothing outside the
repository). Pure: files and text only, no Discord.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

#: The folder of the rules files, in the repository.
RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
#: The seed sentences, numbered (a copy of ``shared/seeds/rule-index.md``).
INDEX_NAME = "rule-index.md"
#: Discord's limit for one message.
MESSAGE_MAX = 2000

_HEADING = re.compile(r"^(#{1,3})\s+(.*\S)\s*$")
_INDEX_LINE = re.compile(r"^- `(\d{3}:\d+\.\d+)` (.*)$")
#: A seed sentence id, or a range of them: ``000:19.8``, ``000:26.1-3``, ``002:35.1-002:42.1``.
_SEED_REF = re.compile(r"(?<![\d.:])(\d{3}):(\d+)\.(\d+)(?:\s*[-–]\s*(?:(\d{3}):)?(\d+)(?:\.(\d+))?)?(?![\d:])")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"(])")
_WORD = re.compile(r"[\w§]+", re.UNICODE)
_NUMBER_PREFIX = re.compile(r"^\d+(\.\d+)*\.?\s+")
_TRAILING_PAREN = re.compile(r"\s*\([^()]*\)\s*$")


@dataclass(frozen=True)
class Topic:
    """One ``##`` or ``###`` section of a game's rules file."""

    game: str  #: the game's name, e.g. ``"speakeasy"`` (the file's stem)
    game_title: str  #: e.g. ``"Speakeasy"``
    title: str  #: the heading as written, e.g. ``"Cook the Books (design §10)"``
    key: str  #: unique and at most 100 characters: ``"speakeasy/cook-the-books-design-10"``
    level: int  #: 2 for ``##``, 3 for ``###``
    body: tuple[str, ...] = field(repr=False)  #: the raw lines under the heading, up to the next heading
    parent: str | None = None  #: the ``##`` title above a ``###`` topic
    children: tuple[str, ...] = ()  #: the ``###`` titles under a ``##`` topic

    @property
    def label(self) -> str:
        """``"Speakeasy · Cook the Books (design §10)"``."""
        return f"{self.game_title} · {self.title}"

    @property
    def short_title(self) -> str:
        """The title without its section number and trailing source: ``"Cook the Books"``."""
        return short_title(self.title)


def short_title(title: str) -> str:
    """``"5. Character powers"`` → ``"Character powers"``; ``"Cook the Books (design §10)"`` → ``"Cook the Books"``."""
    out = _TRAILING_PAREN.sub("", _NUMBER_PREFIX.sub("", title)).strip()
    return out or title


def _slug(text: str) -> str:
    return "-".join(w.lower() for w in _WORD.findall(text.replace("§", " "))) or "topic"


# --- loading ---------------------------------------------------------------------------------------------------


def _rule_files(rules_dir: Path) -> list[Path]:
    return sorted(p for p in rules_dir.glob("*.md") if p.name != INDEX_NAME)


@lru_cache(maxsize=4)
def _load(rules_dir: Path) -> tuple[dict[str, str], tuple[Topic, ...]]:
    """The games (name → title) and every topic of every game, in file order."""
    games: dict[str, str] = {}
    topics: list[Topic] = []
    for path in _rule_files(rules_dir):
        name = path.stem
        title, sections = _parse(path.read_text(encoding="utf-8"))
        games[name] = title or name.capitalize()
        topics.extend(_topics_of(name, games[name], sections))
    return games, tuple(topics)


def _parse(text: str) -> tuple[str | None, list[tuple[int, str, list[str]]]]:
    """The ``#`` title and the ``##``/``###`` sections (level, heading, body lines)."""
    title: str | None = None
    sections: list[tuple[int, str, list[str]]] = []
    in_fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_fence = not in_fence
        m = None if in_fence else _HEADING.match(line)
        if m and len(m.group(1)) == 1:
            title = m.group(2).split(":")[0].strip()
            sections.append((1, title, []))  # the preamble: not a topic
        elif m:
            sections.append((len(m.group(1)), m.group(2), []))
        elif sections:
            sections[-1][2].append(line)
    return title, [s for s in sections if s[0] > 1]


def _topics_of(game: str, game_title: str, sections: list[tuple[int, str, list[str]]]) -> list[Topic]:
    out: list[Topic] = []
    used: set[str] = set()
    parent: str | None = None
    for i, (level, heading, body) in enumerate(sections):
        if level == 2:
            parent = heading
            children: list[str] = []
            for lv, h, _ in sections[i + 1 :]:
                if lv <= 2:
                    break
                children.append(h)
        else:
            children = []
        base = f"{game}/{_slug(short_title(heading))}"[:96]
        key, n = base, 2
        while key in used:
            key, n = f"{base}-{n}", n + 1
        used.add(key)
        out.append(
            Topic(
                game=game,
                game_title=game_title,
                title=heading,
                key=key,
                level=level,
                body=tuple(body),
                parent=parent if level == 3 else None,
                children=tuple(children),
            )
        )
    return out


@lru_cache(maxsize=4)
def _seed_index(rules_dir: Path) -> dict[str, str]:
    """Seed sentence id → the seed's wording, in index order."""
    path = rules_dir / INDEX_NAME
    if not path.exists():
        return {}
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _INDEX_LINE.match(line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


# --- the public functions -------------------------------------------------------------------------------------


def games(rules_dir: Path = RULES_DIR) -> dict[str, str]:
    """The games with a rules file: name → title, e.g. ``{"omerta": "Omerta", "speakeasy": "Speakeasy"}``."""
    return dict(_load(rules_dir)[0])


def topics(game: str | None = None, *, rules_dir: Path = RULES_DIR) -> list[Topic]:
    """Every topic of one game (by name, any case), or of all games when ``game`` is ``None``."""
    every = _load(rules_dir)[1]
    if game is None:
        return list(every)
    return [t for t in every if t.game == game.lower()]


def topic_by_key(key: str, *, rules_dir: Path = RULES_DIR) -> Topic | None:
    """The topic with this key (the value ``/rules`` autocomplete sends)."""
    return next((t for t in _load(rules_dir)[1] if t.key == key), None)


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


@lru_cache(maxsize=1024)
def _search_text(topic: Topic) -> str:
    return _norm(" ".join(rule_lines(topic)))


def _score(topic: Topic, query: str, words: list[str]) -> int:
    """How well a topic matches: title matches first, then text matches; 0 for no match."""
    title, short = _norm(topic.title), _norm(topic.short_title)
    text = _search_text(topic)
    if not query:
        return 0
    if query in (title, short):
        return 1000
    score = 0
    if short.startswith(query) or title.startswith(query):
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
    if score and topic.level == 3:
        score += 1  # the narrower section first when otherwise equal
    return score


def search(query: str, game: str | None = None, *, rules_dir: Path = RULES_DIR) -> list[Topic]:
    """Topics whose title or text contain ``query`` (as a whole, or every word of it), best first.

    Case-insensitive. An exact title comes first, then titles that start with or contain the query, then
    sections whose text mentions it (more mentions first); ties keep the files' order.
    """
    q = _norm(query)
    words = q.split()
    scored = [(_score(t, q, words), i, t) for i, t in enumerate(topics(game, rules_dir=rules_dir))]
    return [t for s, _, t in sorted((x for x in scored if x[0] > 0), key=lambda x: (-x[0], x[1]))]


def find(query: str, game: str | None = None, *, rules_dir: Path = RULES_DIR) -> Topic | None:
    """The one topic ``query`` names: its key, its title (with or without number and source), or the only
    title that contains it; ``None`` when it names none or several (use :func:`close_matches`)."""
    by_key = topic_by_key(query.strip(), rules_dir=rules_dir)
    if by_key is not None and (game is None or by_key.game == game.lower()):
        return by_key
    q = _norm(query)
    if not q:
        return None
    pool = topics(game, rules_dir=rules_dir)
    for exact in (
        [t for t in pool if _norm(t.title) == q],
        [t for t in pool if _norm(t.short_title) == q],
        [t for t in pool if _norm(t.label) == q],
    ):
        if len(exact) == 1:
            return exact[0]
        if exact:
            return None  # the same title in both games: the caller asks which
    contains = [t for t in pool if q in _norm(t.title)]
    return contains[0] if len(contains) == 1 else None


def close_matches(query: str, game: str | None = None, *, limit: int = 5, rules_dir: Path = RULES_DIR) -> list[Topic]:
    """Topics near ``query``: search hits first, then titles spelt alike (for typos)."""
    found = search(query, game, rules_dir=rules_dir)[:limit]
    pool = topics(game, rules_dir=rules_dir)
    names = {_norm(t.short_title): t for t in pool}
    for name in difflib.get_close_matches(_norm(query), list(names), n=limit, cutoff=0.5):
        if names[name] not in found:
            found.append(names[name])
    return found[:limit]


# --- rendering ------------------------------------------------------------------------------------------------


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [c.strip() for c in re.split(r"(?<!\\)\|", inner)]


def _is_separator(cells: list[str]) -> bool:
    return all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c) and any(cells)


def _drop_tests(text: str) -> str:
    """The text without sentences that name tests (``test_…``, ``tests/…``, ``Tests: …``)."""
    kept = [
        s for s in _SENTENCE_END.split(text) if not re.search(r"\btests?_|\btests/|^\s*Tests?:", s, flags=re.IGNORECASE)
    ]
    return " ".join(s.strip() for s in kept if s.strip())


def _row_bullet(header: list[str], cells: list[str]) -> str | None:
    """A table row as ``• rule — note *(source)*``, without the Tests column."""
    main: list[str] = []
    sources: list[str] = []
    for i, cell in enumerate(cells):
        name = header[i].lower() if i < len(header) else ""
        if name.startswith("test") or not cell:
            continue
        cell = _drop_tests(cell)
        if not cell:
            continue
        if name.startswith(("source", "whose")):
            sources.append(cell)
        else:
            main.append(cell)
    if not main:
        return None
    text = " — ".join(main)
    suffix = f" *({'; '.join(sources)})*" if sources else ""
    return _bullet(text, suffix)


def _close_markdown(text: str) -> str:
    """Close a backtick or bold left open by a cut."""
    if text.count("`") % 2:
        text += "`"
    if text.count("**") % 2:
        text += "**"
    return text


def _bullet(text: str, suffix: str = "", *, mark: str = "• ", limit: int = MESSAGE_MAX) -> str:
    """``mark + text + suffix`` within ``limit`` characters: a too-long text is shortened with "…"."""
    line = f"{mark}{text}{suffix}"
    if len(line) <= limit:
        return line
    room = limit - len(mark) - len(suffix) - 4  # "…" and closing markdown
    if room < 20:  # the suffix itself is too long: cut the whole line
        return _close_markdown(line[: limit - 4].rstrip()) + "…"
    return f"{mark}{_close_markdown(text[:room].rstrip())}…{suffix}"


def _prose(lines: list[str]) -> list[str]:
    """Paragraphs and list items as single lines (a ``- `` item becomes a bullet)."""
    out: list[str] = []
    current: list[str] = []
    item = False

    def flush() -> None:
        if current:
            text = _drop_tests(" ".join(current))
            if text:
                out.append(_bullet(text) if item else _bullet(text, mark=""))
        current.clear()

    for line in lines:
        stripped = line.strip()
        if not stripped:
            flush()
            item = False
        elif re.match(r"^[-*] ", stripped):
            flush()
            item = True
            current.append(stripped[2:])
        else:
            current.append(stripped)
    flush()
    return out


def rule_lines(topic: Topic) -> list[str]:
    """The section as readable lines: prose, and each table row as a bullet (no Tests column)."""
    out: list[str] = []
    prose: list[str] = []
    header: list[str] | None = None
    for line in topic.body:
        if line.lstrip().startswith("|"):
            if prose:
                out.extend(_prose(prose))
                prose = []
            cells = _cells(line)
            if header is None:
                header = cells
            elif _is_separator(cells):
                continue
            else:
                bullet = _row_bullet(header, cells)
                if bullet:
                    out.append(bullet)
        else:
            header = None
            prose.append(line)
    out.extend(_prose(prose))
    return out


def seed_ids(text: str, *, rules_dir: Path = RULES_DIR) -> list[str]:
    """Every seed sentence id cited in ``text``, ranges expanded (``000:26.1-3`` → 26.1, 26.2, 26.3), in
    order of first citation; only ids the rule index knows."""
    index = _seed_index(rules_dir)
    order = list(index)
    out: list[str] = []
    for m in _SEED_REF.finditer(text):
        file, line, sentence = m.group(1), int(m.group(2)), int(m.group(3))
        first = f"{file}:{line}.{sentence}"
        ids = [first]
        if m.group(5) is not None and (m.group(4) in (None, file)):
            if m.group(6) is not None:
                last = f"{file}:{m.group(5)}.{m.group(6)}"
            elif m.group(4) is not None:
                last = f"{file}:{m.group(5)}.1"
            else:  # 000:26.1-3: sentences 1 to 3 of line 26
                last = f"{file}:{line}.{m.group(5)}"
            if first in index and last in index:
                ids = order[order.index(first) : order.index(last) + 1]
        out.extend(i for i in ids if i in index and i not in out)
    return out


def seed_wording(topic: Topic, *, rules_dir: Path = RULES_DIR) -> list[tuple[str, str]]:
    """``(id, the seed's sentence)`` for every seed sentence the section cites, in the seeds' order."""
    index = _seed_index(rules_dir)
    text = "\n".join((topic.title, *topic.body))
    order = {sid: n for n, sid in enumerate(index)}
    return [(i, index[i]) for i in sorted(seed_ids(text, rules_dir=rules_dir), key=order.__getitem__)]


def split_messages(
    lines: list[str], *, limit: int = MESSAGE_MAX, max_messages: int | None = None, overflow: str = ""
) -> list[str]:
    """Pack lines into messages of at most ``limit`` characters, never cutting a line (a too-long line is
    shortened with "…"). With ``max_messages``, a longer text stops at that many messages and the last one
    ends with ``overflow``."""
    fitted = [_bullet(line, mark="", limit=limit) for line in lines]
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
    note = _bullet(overflow, mark="", limit=limit) if overflow else ""
    kept = out[:max_messages]
    if not note:
        return kept
    last = kept[-1].split("\n")
    while last and len("\n".join([*last, note])) > limit:
        last.pop()
    kept[-1] = "\n".join([*last, note]) if last else note
    return kept


def rule_lines_with_seeds(topic: Topic, *, rules_dir: Path = RULES_DIR) -> list[str]:
    """Every line of :func:`rule_text` before it is split into messages."""
    lines = [f"**{topic.label}**"]
    if topic.parent:
        lines.append(f"-# Part of {topic.parent}")
    body = rule_lines(topic)
    lines.extend(body)
    if topic.children:
        names = ", ".join(short_title(c) for c in topic.children)
        lines.append(f"-# More in this part: {names}." if body else f"This part is split into topics: {names}.")
    words = seed_wording(topic, rules_dir=rules_dir)
    if words:
        lines += ["", "**In the seed's own words**"]
        lines += [_bullet(text, mark=f"> `{sid}` ") for sid, text in words]
    return lines


def rule_text(
    topic: Topic, *, max_messages: int | None = None, overflow: str = "", rules_dir: Path = RULES_DIR
) -> list[str]:
    """A topic as Discord messages of at most 2,000 characters: a title line, the section's rules as
    bullets ("• rule sentence *(source)*", without the Tests column or test names), then the wording of every
    seed sentence the section cites. See :func:`split_messages` for ``max_messages`` and ``overflow``."""
    return split_messages(
        rule_lines_with_seeds(topic, rules_dir=rules_dir), max_messages=max_messages, overflow=overflow
    )
