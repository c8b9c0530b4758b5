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
def omerta_cards() -> Iterator[Term]:
    """The names of Omerta's gangster and character cards (a bottle's name is a message with its value)."""
    from engine.omerta.cards import deck

    for card in deck().cards:
        if card.kind != "bottle":
            yield "omerta.card", card.name, "data/omerta/cards.toml"
