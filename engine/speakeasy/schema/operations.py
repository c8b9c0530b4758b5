"""``cards/operations.toml``: the four Operations decks; each row stands for ``copies`` identical cards."""

from __future__ import annotations

from engine.data import at, fail, listing, unique
from engine.schema import Table, distinct
from engine.speakeasy.components import TRACKS, OpsCard
from engine.speakeasy.schema.fields import Effects, Positive, Text, Track, effects, some

NAME = "cards/operations.toml"


class Decks(Table):
    names: distinct(Track, 1)
    size: Positive


class CardRow(Table):
    deck: Track
    copies: Positive
    name: Text
    benefit: Effects
    setup: Effects


class OperationsFile(Table):
    decks: Decks
    cards: some(CardRow)


def cards(f: OperationsFile) -> tuple[OpsCard, ...]:
    """The cards, numbered 0, 1, 2 ... in file order (copies one after the other); every deck ``decks.size``."""
    names = f.decks.names
    if set(names) != set(TRACKS):
        fail(NAME, "decks.names", f"must name the {len(TRACKS)} decks {listing(TRACKS)}")
    unique(NAME, at("cards", (row.name for row in f.cards), "name"))
    cards: list[OpsCard] = []
    for row in f.cards:
        first = len(cards)
        benefit, setup = effects(row.benefit), effects(row.setup)
        cards.extend(OpsCard(first + k, row.deck, row.name, benefit, setup) for k in range(row.copies))
    for deck in names:
        count = sum(1 for card in cards if card.deck == deck)
        if count != f.decks.size:
            fail(NAME, "cards", f"hold {count} {deck!r} cards, but decks.size is {f.decks.size}")
    return tuple(cards)
