"""Collect every message of the bot with Babel and bring the catalogues up to date.

    python -m words.extract            # update words/locales/*/LC_MESSAGES/*.po
    python -m words.extract --check    # change nothing; list what is missing or stale, exit 1 if anything is

Messages come from two places:
- the code: every call ``M(ctx, template, ...)``, ``P(ctx, singular, plural, n, ...)`` and ``T(ctx, name)`` with
  string literals (Babel's Python extractor; ``engine/msg.py`` defines them);
- the data files: the names of things (cards, districts, buildings...) that the code passes to ``T`` as values,
  listed by the term sources in ``words/terms.py``.

Each message goes to the file named by the first two parts of its id (``omerta.log.draw`` ->
``omerta.log.po``). English entries get their template as their text; German ones start empty, to be translated.
The files are written without line numbers or dates so that a change of code shows only what changed.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import io
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from words.catalogue import LOCALES, po_files

ROOT = Path(__file__).resolve().parent.parent
#: The packages whose code may say things.
PACKAGES = ("engine", "service", "cogs", "render", "bots", "words", "fakediscord")
KEYWORDS = {"M": ((1, "c"), 2), "P": ((1, "c"), 2, 3), "T": ((1, "c"), 2)}
_FIXED = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
Entry = tuple[str, str | tuple[str, str], str]  # (context, id or (singular, plural), where)


def domain_of(ctx: str) -> str:
    """The catalogue file a message id belongs to: its first two parts (``"omerta.log"``)."""
    parts = ctx.split(".")
    if len(parts) < 2 or not all(parts[:2]):
        raise ValueError(f"message id {ctx!r} needs at least two parts, such as 'omerta.log.draw'")
    return ".".join(parts[:2])


def code_messages() -> Iterator[Entry]:
    """Every message the code says with literal words."""
    for package in PACKAGES:
        folder = ROOT / package
        if not folder.is_dir():
            continue
        for filename, _line, message, _comments, context in extract_from_dir(
            folder, [("**.py", "python")], keywords=KEYWORDS, comment_tags=(), strip_comment_tags=True
        ):
            if not context:
                continue
            yield context, message, f"{package}/{filename}"


@functools.cache  # the code does not change within a run: extract once (planned, missing and the tests ask)
def all_messages() -> Mapping[tuple[str, str], tuple[str | tuple[str, str], str]]:
    """Every message, keyed by (context, singular), from the code and the term sources (read-only)."""
    from words.terms import term_messages

    out: dict[tuple[str, str], tuple[str | tuple[str, str], str]] = {}
    for ctx, message, where in [*code_messages(), *term_messages()]:
        key = (ctx, message[0] if isinstance(message, tuple) else message)
        out.setdefault(key, (message, where))
    return MappingProxyType(out)


def _new_catalog(lang: str) -> Catalog:
    return Catalog(
        locale=lang,
        project="Speakeasy Table",
        version="1",
        copyright_holder="Speakeasy Table",
        msgid_bugs_address="",
        creation_date=_FIXED,
        revision_date=_FIXED,
        language_team=lang,
        last_translator="Speakeasy Table",
        charset="utf-8",
    )


def _read(path: Path, lang: str) -> Catalog:
    if not path.exists():
        return _new_catalog(lang)
    with path.open("rb") as fh:
        return read_po(fh, locale=lang)


def _render(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    cat.creation_date = _FIXED
    cat.revision_date = _FIXED
    write_po(buf, cat, width=120, no_location=True, omit_header=False, sort_output=True, include_previous=False)
    return buf.getvalue()


def planned() -> dict[Path, bytes]:
    """What every catalogue file should hold: the current files with new messages added (English filled in,
    German empty) and messages the bot no longer says removed."""
    messages = all_messages()
    by_domain: dict[str, dict[tuple[str, str], str | tuple[str, str]]] = {}
    for key, (message, _where) in messages.items():
        by_domain.setdefault(domain_of(key[0]), {})[key] = message
    out: dict[Path, bytes] = {}
    for lang in ("en", "de"):
        folder = LOCALES / lang / "LC_MESSAGES"
        old_files = {p.stem: p for p in po_files(lang)}
        for domain in sorted(set(by_domain) | set(old_files)):
            path = folder / f"{domain}.po"
            old = _read(path, lang)
            new = _new_catalog(lang)
            for (ctx, singular), message in sorted(by_domain.get(domain, {}).items()):
                before = old.get(singular, context=ctx)
                plural = isinstance(message, tuple)
                if before is not None and before.string and (isinstance(before.string, tuple) == plural):
                    string = before.string
                elif lang == "en":
                    string = message if plural else singular
                else:
                    string = ("", "") if plural else ""
                new.add(message, string, context=ctx)
            if len(new) or path.exists():
                out[path] = _render(new) if len(new) else b""
    return out


def missing(lang: str = "de") -> list[tuple[str, str]]:
    """Messages the bot says that ``lang``'s catalogue has no text for."""
    cat = Catalog(locale=lang)
    for path in po_files(lang):
        with path.open("rb") as fh:
            for m in read_po(fh, locale=lang):
                if m.id:
                    cat[m.id] = m
    out = []
    for ctx, singular in sorted(all_messages()):
        m = cat.get(singular, context=ctx)
        strings = m.string if m is not None and isinstance(m.string, tuple) else (m.string if m else "",)
        if m is None or not all(strings):
            out.append((ctx, singular))
    return out


def messages_of(lang: str) -> list[Message]:
    """Every message of a language's catalogue files."""
    out = []
    for path in po_files(lang):
        with path.open("rb") as fh:
            out.extend(m for m in read_po(fh, locale=lang) if m.id)
    return out


def main(argv: list[str] | None = None) -> int:
    """Update the catalogues (or, with ``--check``, report what is out of date)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if anything is out of date")
    args = parser.parse_args(argv)
    stale = []
    for path, content in planned().items():
        current = path.read_bytes() if path.exists() else None
        if current == content:
            continue
        stale.append(path)
        if not args.check:
            if content:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
            else:
                path.unlink()
    for path in stale:
        print(("stale: " if args.check else "updated: ") + str(path.relative_to(ROOT)))
    gaps = missing("de")
    for ctx, singular in gaps:
        print(f"no German text: {ctx} {singular!r}")
    return 1 if args.check and (stale or gaps) else 0


if __name__ == "__main__":
    sys.exit(main())
