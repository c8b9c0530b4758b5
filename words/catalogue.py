"""A language's gettext catalogue: every ``.po`` file of ``words/locales/<lang>/LC_MESSAGES/`` read with Babel and
compiled into one ``gettext.GNUTranslations`` when first needed (the ``.po`` files are the source in the
repository; nothing compiled is committed).

A message's context (gettext ``msgctxt``) is its id (``"omerta.draw"``), its ``msgid`` the English template. Each
file holds the messages whose id starts with its name (``omerta.log.po``: ids ``omerta.log.*``; see
``words.extract.domain_of``), so that parts of the bot can be translated side by side.
"""

from __future__ import annotations

import gettext
import io
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES = Path(__file__).resolve().parent / "locales"


def po_files(lang: str) -> list[Path]:
    """The catalogue files of a language, in name order."""
    return sorted((LOCALES / lang / "LC_MESSAGES").glob("*.po"))


def read_catalog(lang: str) -> Catalog:
    """Every message of a language as one Babel catalogue (the files merged; a later file cannot override)."""
    merged = Catalog(locale=lang, domain="speakeasy_table")
    for path in po_files(lang):
        with path.open("rb") as fh:
            part = read_po(fh, locale=lang)
        for message in part:
            if message.id and (message.id, message.context) not in merged:
                merged[message.id] = message  # keyed by (id, context) through the message's own context
    return merged


@dataclass
class Catalogue:
    """A compiled catalogue: looks up a message's template in its language."""

    lang: str
    translations: gettext.GNUTranslations
    keys: frozenset[tuple[str, str]]

    def lookup(self, ctx: str, template: str, plural: str = "", n: object = None) -> str:
        """The template of message ``ctx`` in this language (the English one when it has none)."""
        if plural:
            count = n if isinstance(n, int) else 2
            return self.translations.npgettext(ctx, template, plural, count)
        return self.translations.pgettext(ctx, template)

    def has(self, ctx: str, template: str) -> bool:
        """Whether the message is in the catalogue."""
        return (ctx, template) in self.keys


def catalogue(lang: str) -> Catalogue:
    """Compile a language's catalogue (Babel's ``write_mo`` into memory, read by gettext)."""
    cat = read_catalog(lang)
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    buf.seek(0)
    keys = frozenset(
        ((m.context or ""), (m.id[0] if isinstance(m.id, tuple) else m.id))
        for m in cat
        if m.id and m.string and (not isinstance(m.string, tuple) or all(m.string))
    )
    return Catalogue(lang, gettext.GNUTranslations(buf), keys)
