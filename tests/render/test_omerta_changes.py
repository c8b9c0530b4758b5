"""The Omerta table picture outlines what changed since the last picture (issue "the table reads right", as
Speakeasy's does): the marks of the public view, and the picture drawn against the marks of an earlier one."""

from __future__ import annotations

import io

from PIL import Image

from engine.core import Choice
from engine.omerta.game import OmertaGame
from render.omerta import changed, marks, render_pictures, render_table
from render.omerta.colours import CHANGED

GAME = OmertaGame()


def _table(rounds: int = 3):  # noqa: ANN202
    """A version 3 table after everyone peeked."""
    state = GAME.new(["Anna", "Ben", "Cleo"], {"rules": 3, "pace": "post", "rounds": rounds}, 7)
    for seat in range(3):
        GAME.apply(state, Choice(seat, "peek", "0,1"))
    return state


def _outlined(png: bytes) -> int:
    """How many pixels have the outline's colour (near it: the PNG's palette may round it)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(1 for px in img.getdata() if sum(abs(a - b) for a, b in zip(px, CHANGED, strict=True)) < 40)


def test_a_swap_changes_its_slot_and_the_piles_and_nothing_else():
    state = _table()
    before = marks(GAME.view(state, None))
    seat, turn = state.active, state.turn
    GAME.apply(state, Choice(seat, "turn", "draw"))
    # every seat's view has the same marks (they come from the public part alone), the drawer's included
    assert all(marks(GAME.view(state, s)) == marks(GAME.view(state, None)) for s in range(3))
    GAME.apply(state, Choice(seat, "place", "swap:2"))
    view = GAME.view(state, None)
    new = changed(view, before)
    assert {m.split(":")[0] for m in new} == {"slot", "discard", "draw"}
    assert [m for m in new if m.startswith("slot:")] == [f"slot:{seat}:2:0:0:{turn}"]
    assert changed(view, marks(view)) == frozenset() and changed(view, None) == frozenset()


def test_a_new_round_outlines_nothing():
    state = _table(rounds=2)
    before = marks(GAME.view(state, None))
    GAME.apply(state, Choice(state.active, "turn", "omerta"))
    assert state.round == 2 and changed(GAME.view(state, None), before) == frozenset()


def test_the_picture_outlines_a_change_and_an_unchanged_view_has_no_outline():
    state = _table()
    before = marks(GAME.view(state, None))
    seat = state.active
    GAME.apply(state, Choice(seat, "turn", "draw"))
    GAME.apply(state, Choice(seat, "place", "swap:2"))
    view = GAME.view(state, None)
    ((name, outlined),) = render_pictures(view, before)
    ((_, same),) = render_pictures(view, marks(view))
    assert name == "table.png"
    assert _outlined(outlined) > 1000  # three parts ringed, and the legend's sample
    assert _outlined(same) == 0 and same == render_table(view)  # nothing changed: the plain picture
    # the outline's legend line makes the changed picture a little taller
    assert Image.open(io.BytesIO(outlined)).height > Image.open(io.BytesIO(same)).height
