"""The names of things that come from the data files (card names, districts, buildings...), as catalogue
messages: the code passes them to ``engine.msg.T(ctx, name)`` as values, which Babel's extractor cannot see, so
each data source is listed here with the message id (context) its names get.

A source is a function yielding ``(context, name, where)``; add one for every kind of name a player reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

Term = tuple[str, str, str]

#: The sources, each a function of no arguments (they read the data files through the engine's loaders).
SOURCES: list[Callable[[], Iterator[Term]]] = []


def source(fn: Callable[[], Iterator[Term]]) -> Callable[[], Iterator[Term]]:
    """Register a term source."""
    SOURCES.append(fn)
    return fn


def term_messages() -> Iterator[Term]:
    """Every term of every source."""
    for fn in SOURCES:
        yield from fn()


@source
def slash_commands() -> Iterator[Term]:
    """The slash commands' names, descriptions and choices (``cogs/translator.py``, read from the cogs)."""
    from cogs.translator import command_terms

    yield from command_terms()


@source
def option_help() -> Iterator[Term]:
    """The table options' help texts, by option name (``cogs/option_help.py``)."""
    from cogs.option_help import help_terms

    yield from help_terms()
