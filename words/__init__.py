"""The words layer: every word a player reads is made here, in the reader's language, from gettext catalogues.

The engine, the service and the table say things as messages (``engine.msg.Msg``: an id, an English template and
data); :class:`Words` turns one into text in its language, with Babel's catalogues (``words/locales/<lang>/
LC_MESSAGES/*.po``, compiled when first loaded) and Babel's list formatting. A plain string (an old record's text,
a player's name) is shown as it is.

Languages: English (``en``) and German (``de``). ``lang_of`` maps a Discord locale to one of them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from babel.lists import format_list

from engine.msg import Join, Msg, load
from words.catalogue import Catalogue, catalogue

#: The languages the bot speaks, the first the default.
LANGS = ("en", "de")
DEFAULT = "en"
#: How each language's name reads in a menu (in its own words, as Discord shows locales).
LANG_NAMES = {"en": "English", "de": "Deutsch"}
_LIST_STYLES = {"and": "standard", "or": "or", "comma": "unit-narrow"}


def lang_of(locale: object) -> str | None:
    """The bot's language for a Discord locale (``"de"`` -> ``"de"``, ``"en-GB"`` -> ``"en"``), or ``None``."""
    value = str(getattr(locale, "value", locale) or "").lower()
    prefix = value.split("-")[0].split("_")[0]
    return prefix if prefix in LANGS else None


class Words:
    """One language's words: render messages, terms and lists."""

    def __init__(self, lang: str, cat: Catalogue) -> None:
        self.lang = lang
        self._cat = cat

    def __call__(self, value: Any) -> str:
        """The text of a message, a list, or a plain value, in this language."""
        if isinstance(value, Join):
            items = [self(v) for v in value.args["items"]]
            style = value.ctx.removeprefix("list.")
            if style == "comma":
                return ", ".join(items)
            return format_list(items, style=_LIST_STYLES.get(style, "standard"), locale=self.lang) if items else ""
        if isinstance(value, Msg):
            args = {k: self._arg(v) for k, v in value.args.items()}
            template = self._cat.lookup(value.ctx, value.template, value.plural, args.get("n"))
            try:
                return template.format(**args)
            except (KeyError, IndexError, ValueError):  # a bad translation must not break the table: English
                return str(value)
        if isinstance(value, list | tuple):
            return self(Join(value))
        return "" if value is None else str(value)

    def _arg(self, value: Any) -> Any:
        if isinstance(value, Msg | list | tuple):
            return self(value)
        return value

    def say(self, ctx: str, template: str, /, **args: Any) -> str:
        """``M(ctx, template, **args)`` in this language at once (for words made in the table layer)."""
        return self(Msg(ctx, template, args))

    def stored(self, data: Mapping[str, Any] | None, fallback: str, key: str = "msg") -> str:
        """The text of a message kept in JSON form under ``key`` of ``data`` (an event's data, a struct's
        ``words``), else ``fallback`` (the English the record holds)."""
        if data and key in data:
            return self(load(data[key]))
        return fallback

    def field(self, obj: Any, name: str) -> str:
        """A struct's text field (an ``Option``'s ``label``, a ``Prompt``'s ``text``) in this language."""
        words = getattr(obj, "words", None) or {}
        return self.stored(words, getattr(obj, name), name)

    def has(self, ctx: str, template: str) -> bool:
        """Whether this language's catalogue has the message."""
        return self._cat.has(ctx, template)


@functools.cache
def words(lang: str | None = None) -> Words:
    """The words of ``lang`` (``None`` or an unknown language: English), loaded once per process."""
    lang = lang if lang in LANGS else DEFAULT
    return Words(lang, catalogue(lang))
