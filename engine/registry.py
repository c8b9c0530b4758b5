"""The games the table hosts, by name."""

from __future__ import annotations

from engine.core import Game
from engine.omerta import OmertaGame

GAMES: dict[str, Game] = {g.name: g for g in (OmertaGame(),)}


def get_game(name: str) -> Game:
    """The game called ``name``; ``KeyError`` with the known names otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"Unknown game {name!r}; games: {', '.join(sorted(GAMES))}") from None
