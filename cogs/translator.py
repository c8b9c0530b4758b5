"""The slash commands in the reader's language: discord.py's ``app_commands.Translator`` fed from the catalogue.

When the commands are synced, discord.py asks the translator for every command and group name and description,
every option's name and description and every choice's name, in every Discord locale; what it answers goes to
Discord as ``name_localizations`` / ``description_localizations``, and each Discord client shows the commands in
its user's language. The English in the decorators stays the source; its message id names where it stands:

* ``cmd.slash.<command path>.name`` / ``.desc``: a command or group (``cmd.slash.game.new.name`` = "new");
* ``cmd.slash.<command path>.<option>.name`` / ``.desc``: an option;
* ``cmd.slash.choice.<value>``: a fixed choice's name.

The catalogue learns these strings from the commands themselves (``command_terms``, a term source of
``words/terms.py``), so ``python -m words.extract`` keeps them in ``cmd.slash.po``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from engine.msg import Msg
from words import DEFAULT, lang_of, words

#: Discord's rule for a (localised) command or option name: lower case letters, digits, ``-`` or ``_``.
NAME_RULE = re.compile(r"^[-_\w]{1,32}$")
AREA = "cmd.slash"


def _path(command: Any) -> str:
    return str(command.qualified_name).replace(" ", ".")


def message_id(location: Where, data: Any) -> str | None:
    """The catalogue id of a string discord.py asks about (``None``: a place the bot does not translate)."""
    if location in (Where.command_name, Where.group_name):
        return f"{AREA}.{_path(data)}.name"
    if location in (Where.command_description, Where.group_description):
        return f"{AREA}.{_path(data)}.desc"
    if location is Where.parameter_name:
        return f"{AREA}.{_path(data.command)}.{data.name}.name"
    if location is Where.parameter_description:
        return f"{AREA}.{_path(data.command)}.{data.name}.desc"
    if location is Where.choice_name:
        return f"{AREA}.choice.{data.value}"
    return None


class CatalogueTranslator(app_commands.Translator):
    """Answers discord.py's questions from the catalogue: a language the bot speaks (other than English, which
    the decorators hold) gets its text; every other locale is left to Discord's default, English."""

    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        """The text of ``string`` in ``locale``, or ``None``."""
        lang = lang_of(locale)
        if lang is None or lang == DEFAULT:
            return None
        ctx = message_id(context.location, context.data)
        english = string.message
        w = words(lang)
        if ctx is None or not w.has(ctx, english):
            return None
        return w(Msg(ctx, english))


def _commands() -> list[Any]:
    """Every slash command and group of the bot's cogs, read from the cog classes (no bot needed)."""
    from cogs.history import HistoryCog
    from cogs.lobby import LobbyCog
    from cogs.overview import OverviewCog
    from cogs.people import PeopleCog
    from cogs.play import PlayCog
    from cogs.rules import RulesCog

    return [
        c for cog in (LobbyCog, PlayCog, RulesCog, OverviewCog, PeopleCog, HistoryCog) for c in cog.__cog_app_commands__
    ]


def _walk(command: Any) -> Iterator[Any]:
    yield command
    for child in getattr(command, "commands", []):
        yield from _walk(child)


def command_terms() -> Iterator[tuple[str, str, str]]:
    """Every string of the slash commands as ``(message id, English, where)``: the catalogue's source for them."""
    for top in _commands():
        for command in _walk(top):
            where = f"/{command.qualified_name}"
            yield f"{AREA}.{_path(command)}.name", command.name, where
            yield f"{AREA}.{_path(command)}.desc", str(command.description), where
            for param in getattr(command, "parameters", []):
                yield f"{AREA}.{_path(command)}.{param.name}.name", param.name, where
                yield f"{AREA}.{_path(command)}.{param.name}.desc", str(param.description), where
                for choice in param.choices:
                    yield f"{AREA}.choice.{choice.value}", choice.name, where
