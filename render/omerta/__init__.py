"""Pictures of an Omerta table, drawn from the engine's view dict (never from the engine state).

``render_table`` draws the table as the view's seat may see it: the public picture is drawn from the
spectator view, so every card in front of a player is face down and a drawn card is a face-down marker.
Given the ``marks`` of the last picture, ``render_pictures`` outlines what changed since (``changes``).
``render_reveal`` draws the end of the last round (``view["reveal"]``) and, once the game is over, the final
standings. Both return PNG bytes; the ``*_async`` variants run them off the event loop.

The package, by concept: ``layout`` (sizes), ``colours``, ``describe`` (the table in words), ``cards`` (card
sprites and their caches), ``parts`` (what both pictures draw), ``table`` and ``reveal`` (the two pictures).
"""

from __future__ import annotations

from render.omerta.cards import clear_caches
from render.omerta.changes import changed, marks
from render.omerta.describe import describe
from render.omerta.reveal import render_reveal, render_reveal_async
from render.omerta.table import render_pictures, render_table, render_table_async

__all__ = [
    "changed",
    "clear_caches",
    "describe",
    "marks",
    "render_pictures",
    "render_reveal",
    "render_reveal_async",
    "render_table",
    "render_table_async",
]
