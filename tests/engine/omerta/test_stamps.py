"""Which slot's card was replaced, in the public view (issue "the table reads right": the picture outlines what
changed). A swap (002:17.1, 002:20.1) puts a card into a slot face down: everyone sees which slot, not the card;
the view's ``moved`` says the turn that slot's card was last replaced in. Version 3 only: a version 1-2 table's
state is written as before (its recorded replays give the same bytes)."""

from __future__ import annotations

from engine.core import Choice
from tests.engine.omerta.helpers import GAME, new_table


def _draw_and_swap(state, slot: int) -> None:  # noqa: ANN001
    seat = state.active
    GAME.apply(state, Choice(seat, "turn", "draw"))
    GAME.apply(state, Choice(seat, "place", f"swap:{slot}"))


def test_rule_002_17_1_a_swap_marks_its_slot_in_every_view_under_version_3():
    g, s = new_table(3, options={"rules": 3, "pace": "post"})
    seat, turn = s.active, s.turn
    assert all(sl["moved"] == 0 for p in g.view(s, None)["players"] for sl in p["slots"])
    _draw_and_swap(s, 2)
    for viewer in (None, 0, 1, 2):  # public: the log says which slot; the card stays unknown
        slots = g.view(s, viewer)["players"][seat]["slots"]
        assert [sl["moved"] for sl in slots] == [0, 0, turn, 0]
    assert g.loads(g.dumps(s)).stamps == s.stamps  # kept in the saved state


def test_a_version_2_table_notes_nothing_and_its_state_is_written_as_before():
    g, s = new_table(3, options={"rules": 2, "pace": "post"})
    _draw_and_swap(s, 2)
    raw = g.dumps(s)
    assert s.stamps == [] and b'"stamps"' not in raw and raw.endswith(b"}")
    assert g.dumps(g.loads(raw)) == raw


def test_a_new_round_deals_every_slot_afresh():
    g, s = new_table(3, options={"rules": 3, "pace": "post", "rounds": 2})
    _draw_and_swap(s, 0)
    assert s.stamps
    caller = s.active
    g.apply(s, Choice(caller, "turn", "omerta"))
    assert s.round == 2 and s.stamps == []
