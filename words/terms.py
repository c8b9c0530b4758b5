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


@source
def speakeasy_terms() -> Iterator[Term]:
    """The names Speakeasy's data files give: districts, Operations cards, City tiles, Helpers, the people at the
    locations and their locations, Mobsters, Crates, Jo's difficulty levels and the board's sides."""
    from engine.speakeasy.components import ZONES
    from engine.speakeasy.jo.data import jo_rules
    from engine.speakeasy.loader import rules

    r = rules()
    where = "data/speakeasy"
    for d in r.districts:
        yield "speakeasy.term.district", d.name, f"{where}/board.toml"
    for c in r.cards:
        yield "speakeasy.term.card", c.name, f"{where}/cards/operations.toml"
    for t in r.city_tiles:
        yield "speakeasy.term.tile", t.name, f"{where}/city_tiles.toml"
    for h in r.helpers.cards:
        yield "speakeasy.term.helper", h.name, f"{where}/helpers.toml"
    persons = [*r.locations.persons, r.locations.maitre_d, r.locations.first_place]
    for per in persons:
        yield "speakeasy.term.person", per.name, f"{where}/locations.toml"
        yield "speakeasy.term.location", per.location, f"{where}/locations.toml"
    for m in r.mobsters:
        yield "speakeasy.term.mobster", m.name, f"{where}/mobsters.toml"
    for c in r.docks.crates:
        yield "speakeasy.term.crate", c.name, f"{where}/docks.toml"
    for zone in ZONES:
        yield "speakeasy.term.zone", zone, "engine/speakeasy/components.py"
    for level in jo_rules().difficulties.values():
        yield "speakeasy.term.jo_level", level.name, f"{where}/jo.toml"


@source
def jo_terms() -> Iterator[Term]:
    """Jo's words from ``jo.toml`` (solo, design §15.5): the Stretch Goals Solo Achievements (names and what each
    asks) and the ranks."""
    from engine.speakeasy.jo.data import jo_rules

    jr = jo_rules()
    where = "data/speakeasy/jo.toml"
    for a in jr.achievements:
        yield "speakeasy.jo.achievement", a.name, where
        yield "speakeasy.jo.achievement_text", a.text, where
    for _start, name in jr.ranks:
        yield "speakeasy.jo.rank", name, where
    yield "speakeasy.jo.rank", jr.loss_rank, where


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
