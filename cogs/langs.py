"""Who reads which language (issue 15): a table's public messages and pictures use the table's language; an
ephemeral reply uses the reader's own Discord locale, else the table's language; a DM or private line sent later
uses the reader's locale as remembered from their last interaction, else the table's language."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Protocol

import discord

from words import DEFAULT, Words, lang_of, words

if TYPE_CHECKING:
    from store import Store


class HasLangs(Protocol):
    """A table as the languages see it (``service.Table``): its language and whose language private replies use."""

    @property
    def lang(self) -> str: ...

    @property
    def private_lang(self) -> str: ...


def _table_lang(table: str | HasLangs | None) -> tuple[str | None, bool]:
    """(the table's language, whether its private replies follow it: option ``private_lang=table``)."""
    if table is None or isinstance(table, str):
        return table, False
    return table.lang, table.private_lang == "table"


def reader_lang(interaction: discord.Interaction, table: str | HasLangs | None = None) -> str:
    """The language of an ephemeral reply: the reader's locale if the bot speaks it, else the table's, else the
    server's preferred one, else English; at a table with ``private_lang=table`` (issue 24), the table's."""
    table_lang, follow = _table_lang(table)
    if follow and table_lang:
        return table_lang
    return (
        lang_of(getattr(interaction, "locale", None))
        or table_lang
        or lang_of(getattr(interaction, "guild_locale", None))
        or DEFAULT
    )


def reader_words(interaction: discord.Interaction, table: str | HasLangs | None = None) -> Words:
    """``words(reader_lang(...))``."""
    return words(reader_lang(interaction, table))


def guild_lang(interaction: discord.Interaction) -> str:
    """A new table's language: the server's preferred locale when the bot speaks it, else English."""
    return lang_of(getattr(interaction, "guild_locale", None)) or DEFAULT


#: how many people's languages a process remembers having stored (the project's own value: under a MB)
KNOWN_USERS = 10_000


class Langs:
    """Each person's language as their last interaction said it, kept in the store (so DMs sent later, by this
    process or another after a restart, are in it); written only when it changes."""

    def __init__(self, keep: int = KNOWN_USERS) -> None:
        #: what this process stored last per user ("": a locale the bot does not speak: the table's language
        #: then); a change seen by another process in between is rare and only delays the next write. Only the
        #: ``keep`` users seen last are kept (memory stays flat however many people use the bot): one forgotten
        #: costs a write at their next interaction
        self._known: OrderedDict[int, str] = OrderedDict()
        self._keep = keep

    async def remember(self, store: Store, interaction: discord.Interaction, now: float) -> None:
        """Store the clicker's language if it changed since this process last saw it."""
        user = getattr(interaction, "user", None)
        if user is None or getattr(user, "bot", False):
            return
        lang = lang_of(getattr(interaction, "locale", None)) or ""
        if self._known.get(user.id) == lang:
            self._known.move_to_end(user.id)
            return
        await store.set_user_lang(user.id, lang, now)
        self._known[user.id] = lang
        self._known.move_to_end(user.id)
        while len(self._known) > self._keep:
            self._known.popitem(last=False)

    async def of(self, store: Store, user_id: int, table: str | HasLangs) -> str:
        """The language to write to a person in: theirs as remembered (read from the store: another process
        may have seen them since), else the table's; the table's at a table with ``private_lang=table``."""
        table_lang, follow = _table_lang(table)
        assert table_lang is not None
        if follow:
            return table_lang
        return await store.get_user_lang(user_id) or table_lang
