"""The Omerta deck, read and checked from ``data/omerta/cards.toml``.

Card ids are fixed by the data: the gangsters first, then the bottles by value, then the characters in file
order. Every place in the state holds card ids, never copies of cards.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.data import DataError, data_dir, require

POWERS = ("traitor", "mole", "lady", "chauffeur", "police", "mamma", "safecracker", "alibi")


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

    def label(self, card_id: int) -> str:
        """A card's name for people ("Bottle 7", "Mole")."""
        return self.cards[card_id].name


def _load(path: Path) -> Deck:
    name = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"{name}: cannot be read as TOML: {exc}") from None
    numbers = require(raw, "numbers", dict, name)
    for key in (
        "hand_size",
        "peek",
        "safe_size",
        "omerta_limit",
        "caller_penalty",
        "wrong_snap_penalty_cards",
        "chauffeur_max",
        "traitor_cards",
        "police_turns",
        "mamma_turns",
        "min_players",
        "max_players",
    ):
        value = require(numbers, key, int, f"{name} [numbers]")
        if value < 0:
            raise DataError(f"{name}: [numbers] {key} must not be negative, got {value}")
    if require(numbers, "snaps_per_discard", int, f"{name} [numbers]") != 1:
        # one snap per discarded bottle is how the race is played (002:26.1-27.1); nothing else is implemented
        raise DataError(f"{name}: [numbers] snaps_per_discard must be 1, got {numbers['snaps_per_discard']}")
    if not 2 <= numbers["min_players"] <= numbers["max_players"]:
        raise DataError(f"{name}: [numbers] min_players must be at least 2 and at most max_players")
    gang = require(raw, "gangsters", dict, name)
    names = require(gang, "names", list, f"{name} [gangsters]")
    starter = require(gang, "starter", str, f"{name} [gangsters]")
    if starter not in names:
        raise DataError(f"{name}: [gangsters] starter {starter!r} is not one of the names")
    cards: list[Card] = [Card(i, "gangster", str(n), 0) for i, n in enumerate(names)]
    bottles = require(raw, "bottles", dict, name)
    copies = require(bottles, "copies", int, f"{name} [bottles]")
    for value in require(bottles, "values", list, f"{name} [bottles]"):
        if not isinstance(value, int) or value < 1:
            raise DataError(f"{name}: [bottles] values must be positive whole numbers, got {value!r}")
        if copies < 1:
            raise DataError(f"{name}: [bottles] copies must be at least 1, got {copies}")
        for _ in range(copies):
            cards.append(Card(len(cards), "bottle", f"Bottle {value}", value, value=value))
    seen: set[str] = set()
    for i, ch in enumerate(require(raw, "characters", list, name)):
        where = f"{name} [[characters]] #{i + 1}"
        kind = require(ch, "kind", str, where)
        if kind not in POWERS:
            raise DataError(f"{where}: kind {kind!r} is not one of {', '.join(POWERS)}")
        if kind in seen:
            raise DataError(f"{where}: kind {kind!r} appears twice")
        seen.add(kind)
        label = require(ch, "label", str, where)
        points = require(ch, "points", int, where)
        copies = require(ch, "copies", int, where)
        if points < 0 or copies < 1:
            raise DataError(f"{where}: points must not be negative and copies at least 1, got {points}/{copies}")
        for _ in range(copies):
            cards.append(Card(len(cards), "character", label, points, power=kind))
    n_gang = len(names)
    if n_gang < numbers["max_players"]:
        raise DataError(f"{name}: [gangsters] names: {n_gang} gangsters cannot seat {numbers['max_players']} players")
    needed = numbers["hand_size"] * numbers["max_players"] + numbers["safe_size"] + 2  # + the face-up card + 1 to draw
    if len(cards) - n_gang < needed:
        raise DataError(f"{name}: {len(cards) - n_gang} bottles and characters cannot deal a full table ({needed})")
    return Deck(
        cards=tuple(cards),
        numbers=dict(numbers),
        gangsters=tuple(range(n_gang)),
        starter=names.index(starter),
        playing=tuple(range(n_gang, len(cards))),
    )


@cache
def deck() -> Deck:
    """The deck from the data file (read once per process)."""
    return _load(data_dir() / "omerta" / "cards.toml")


def load_deck(path: Path) -> Deck:
    """A deck from another file (tests use this to check the validation)."""
    return _load(path)
