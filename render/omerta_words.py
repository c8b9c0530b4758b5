"""Omerta's words shared by its pictures and texts: the reader's language and the names of cards.

A view carries its language under ``"lang"`` (the table's, or the reader's for a private text; none: English)
and each card's kind, English name and value; the names are made here in that language, as the engine makes
them in its log (the same messages, so one catalogue entry serves both).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from words import Words, words
from words.msg import M, Msg, T


def words_of(view: Mapping[str, Any]) -> Words:
    """The words of the view's language (``view["lang"]``; English when it has none)."""
    return words(view.get("lang"))


def card_name(card: Mapping[str, Any]) -> Msg:
    """A card of view data by name, as the engine's log names it ("Bottle 7", "Mole")."""
    if card.get("kind") == "bottle":
        return M("omerta.card.bottle", "Bottle {value}", value=int(card.get("value") or card.get("points") or 0))
    return T("omerta.card", str(card.get("name", "?")))


def gangster_name(player: Mapping[str, Any]) -> Msg:
    """A player's gangster card by name."""
    return T("omerta.card", str(player.get("gangster", "")))
