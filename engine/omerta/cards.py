"""The Omerta deck, decoded by its schema and checked from ``data/omerta/cards.toml``.

Card ids are fixed by the data: the gangsters first, then the bottles by value, then the characters in file
order. Every place in the state holds card ids, never copies of cards.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from engine.data import DataError, at, data_dir, fail, known, unique
from engine.schema import Table, decode, distinct, vocabulary

POWERS = ("traitor", "mole", "lady", "chauffeur", "police", "mamma", "safecracker", "alibi")
Whole = Annotated[int, Meta(ge=0)]
Positive = Annotated[int, Meta(ge=1)]
Text = Annotated[str, Meta(pattern=r"\S", description="a non-empty text")]


@dataclass(frozen=True, slots=True)
class Card:
    """One card: ``kind`` is ``gangster``, ``bottle`` or ``character``."""

    id: int
    kind: str
    name: str
    points: int
    value: int = 0  # a bottle's value (its number of bottles)
    power: str = ""  # a character's power

    def public(self) -> dict[str, Any]:
        """The card as view data."""
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "points": self.points,
            "value": self.value,
        }


@dataclass(frozen=True, slots=True)
class Deck:
    """All cards of the game and its numbers."""

    cards: tuple[Card, ...]
    numbers: dict[str, int]
    gangsters: tuple[int, ...]
    starter: int
    playing: tuple[int, ...]  # bottles and characters: the cards dealt each round
    bottle_values: tuple[int, ...] = ()  # the values a Bottle may have, lowest first (asked for at every prompt)

    def label(self, card_id: int) -> str:
        """A card's name for people ("Bottle 7", "Mole")."""
        return self.cards[card_id].name


class Numbers(Table):
    hand_size: Whole
    peek: Whole
    safe_size: Whole
    omerta_limit: Whole
    caller_penalty: Whole
    snaps_per_discard: Whole
    wrong_snap_penalty_cards: Whole
    chauffeur_max: Whole
    traitor_cards: Whole
    police_turns: Whole
    mamma_turns: Whole
    max_reshuffles: Whole  # version 2: reshuffles of the discard pile a round (decisions, own value)
    min_players: Annotated[int, Meta(ge=2)]
    max_players: Whole


class Gangsters(Table):
    names: distinct(Text, 1)
    starter: Text


class Bottles(Table):
    values: distinct(Positive, 1)
    copies: Positive
    own_copies: bool  # the copies are the project's own reading


class Character(Table):
    kind: vocabulary(POWERS, "a character power")
    german: Text  # the printed (German) name
    label: Text
    copies: Positive
    points: Whole
    own: bool  # copies and points are the project's own values


class CardsFile(Table):
    numbers: Numbers
    gangsters: Gangsters
    bottles: Bottles
    characters: Annotated[tuple[Character, ...], Meta(min_length=1)]


def _load(path: Path) -> Deck:
    name = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"{name}: cannot be read as TOML: {exc}") from None
    f = decode(raw, CardsFile, name)
    numbers, gang, bottles = f.numbers, f.gangsters, f.bottles
    if numbers.snaps_per_discard != 1:
        # one snap per discarded bottle is how the race is played (002:26.1-27.1); nothing else is implemented
        fail(name, "numbers.snaps_per_discard", f"must be 1, got {numbers.snaps_per_discard}")
    if numbers.min_players > numbers.max_players:
        fail(name, "numbers.min_players", f"must be at most max_players ({numbers.max_players})")
    known(name, "gangsters.starter", gang.starter, gang.names, "a gangster of gangsters.names")
    if len(gang.names) < numbers.max_players:
        fail(name, "gangsters.names", f"{len(gang.names)} gangsters cannot seat {numbers.max_players} players")
    for key in ("kind", "german", "label"):
        unique(name, at("characters", (getattr(ch, key) for ch in f.characters), key))
    cards: list[Card] = [Card(i, "gangster", n, 0) for i, n in enumerate(gang.names)]
    for value in bottles.values:
        cards += [Card(len(cards) + k, "bottle", f"Bottle {value}", value, value=value) for k in range(bottles.copies)]
    for ch in f.characters:
        cards += [Card(len(cards) + k, "character", ch.label, ch.points, power=ch.kind) for k in range(ch.copies)]
    n_gang = len(gang.names)
    needed = numbers.hand_size * numbers.max_players + numbers.safe_size + 2  # + the face-up card + 1 to draw
    if len(cards) - n_gang < needed:
        fail(name, "characters", f"{len(cards) - n_gang} bottles and characters cannot deal a full table ({needed})")
    return Deck(
        cards=tuple(cards),
        numbers=msgspec.structs.asdict(numbers),
        gangsters=tuple(range(n_gang)),
        starter=gang.names.index(gang.starter),
        playing=tuple(range(n_gang, len(cards))),
        bottle_values=tuple(sorted(bottles.values)),
    )


@cache
def deck() -> Deck:
    """The deck from the data file (read once per process)."""
    return _load(data_dir() / "omerta" / "cards.toml")


def load_deck(path: Path) -> Deck:
    """A deck from another file (tests use this to check the validation)."""
    return _load(path)
