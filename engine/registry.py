"""The games the table hosts, by name."""

from __future__ import annotations

from engine.core import Game
from engine.omerta import OmertaGame
from engine.speakeasy.game import SpeakeasyGame

#: Every game engine (self-play, tests, benches).
GAMES: dict[str, Game] = {g.name: g for g in (OmertaGame(), SpeakeasyGame())}
#: The games offered at the Discord table: an engine still being built says ``at_table = False``.
TABLE_GAMES: dict[str, Game] = {k: g for k, g in GAMES.items() if getattr(g, "at_table", True)}


def get_game(name: str) -> Game:
    """The game called ``name``; ``KeyError`` with the known names otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"Unknown game {name!r}; games: {', '.join(sorted(GAMES))}") from None
