"""Omerta's reveal in words (and its final picture) keeps the round's cards and adds the standings over all
rounds (issue 11): lowest total first, each round's score, equal totals sharing a place, and at the end a tie
is a shared win (design decisions: "As many rounds as players. Lowest total wins; a tie is a shared win")."""

from __future__ import annotations

import copy

from render import omerta_text
from tests.render.games import play_until


def _over() -> dict:
    return play_until(3, 6, lambda v: v["over"], omerta_rate=0.3)


def test_the_final_reveal_lists_every_round_of_every_player_lowest_total_first():
    view = _over()
    text = omerta_text.reveal_summary(view)
    assert text.startswith(f"Round {view['reveal']['round']} reveal:")
    assert "Final standings (lowest total wins):" in text
    block = text.split("Final standings (lowest total wins):\n")[1].splitlines()
    ranked = sorted(view["players"], key=lambda p: (p["total"], p["seat"]))
    for line, p in zip(block, ranked, strict=False):
        assert f"{p['name']} · {p['total']} (" in line
        assert " + ".join(str(s) for s in p["round_scores"]) in line
        assert sum(p["round_scores"]) == p["total"]
        assert ("🏆" in line) == (p["seat"] in view["winners"])


def test_a_tie_for_first_at_the_end_is_a_shared_win():
    view = copy.deepcopy(_over())
    for p in view["players"][:2]:
        p["total"], p["round_scores"] = 12, [5, 7, 0]
    view["players"][2]["total"], view["players"][2]["round_scores"] = 30, [10, 10, 10]
    view["winners"] = [0, 1]
    names = [p["name"] for p in view["players"]]
    lines = omerta_text.standings_lines(view)
    assert lines[1:3] == [f"1. {names[0]} · 12 (5 + 7 + 0) 🏆", f"1. {names[1]} · 12 (5 + 7 + 0) 🏆"]
    assert lines[3] == f"3. {names[2]} · 30 (10 + 10 + 10)"
    assert lines[4] == f"{names[0]} and {names[1]} tie at 12 for 1st: a shared win."


def test_after_an_earlier_round_the_standings_say_which_round():
    view = play_until(3, 6, lambda v: v["reveal"] is not None and not v["over"], omerta_rate=0.3)
    lines = omerta_text.standings_lines(view)
    assert lines[0] == f"Standings after round {view['reveal']['round']} of {view['rounds']}:"
    assert "🏆" not in "\n".join(lines)


def test_the_final_picture_has_a_column_per_round_left_of_the_total():
    """Up to 5 rounds (5 players; a table option may ask for more): columns in order, apart, clear of the total
    and of the names on the left."""
    from render import omerta

    x0, x1 = omerta.layout.MARGIN, omerta.layout.WIDTH - omerta.layout.MARGIN
    for rounds in (1, 3, 5, 8):
        cols = omerta.reveal._round_columns(rounds, x0, x1)
        assert len(cols) == rounds and cols == sorted(cols)
        assert all(b - a >= 90 for a, b in zip(cols, cols[1:], strict=False))
        assert cols[-1] < x1 - 170 and cols[0] > x0 + 600
    view = _over()
    assert omerta.render_reveal(view)[:8] == b"\x89PNG\r\n\x1a\n"
