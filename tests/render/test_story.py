"""The story's words (``render/story.py``): issue 24's slips."""

from __future__ import annotations

import json
from dataclasses import dataclass

from render.story import line, segments


@dataclass
class Ev:
    id: int
    kind: str
    text: str
    data: str = "{}"


def test_a_named_players_things_keep_the_name_under_the_players_own_turn():
    """ "their Family Members" under Anna's heading read as someone else's: the possessive keeps her name."""
    events = [
        Ev(1, "turn", "1921 · Anna's turn.", json.dumps({"seat": 0})),
        Ev(2, "log", "Anna sends a Capo to the Rum-runner."),
        Ev(3, "log", "Anna's Family Members go home."),
    ]
    (turn,) = segments(events)
    assert line(turn, ["Anna", "Ben"]) == (
        "**1921 · Anna's turn:** sends a Capo to the Rum-runner; Anna's Family Members go home"
    )


def test_the_setup_recap_is_a_list_a_fact_a_line():
    """A dozen setup facts joined by semicolons were one unreadable line: more than three are a list."""
    facts = [Ev(i, "log", f"Fact number {i}.") for i in range(1, 6)]
    (setup,) = segments(facts)
    assert setup.kind == "setup"
    assert line(setup, []) == "\n".join(f"- Fact number {i}" for i in range(1, 6))
    few = segments([Ev(1, "log", "One."), Ev(2, "log", "Two.")])[0]
    assert line(few, []) == "One; Two"


def test_a_score_line_keeps_whose_score_it_is():
    """ "Bottle 2 = 2 points; scores 0" under the caller's turn said nobody's score: a labelled line keeps its
    label, as the other players' lines of the same reveal do."""
    events = [
        Ev(1, "turn", "Round 1 · Anna's turn.", json.dumps({"seat": 0})),
        Ev(2, "log", "Anna calls OMERTA!"),
        Ev(3, "log", "Anna: Bottle 2 = 2 points; scores 0 (total 0)."),
        Ev(4, "log", "Ben: Bottle 5 = 5 points; scores 5 (total 5)."),
    ]
    (turn,) = segments(events)
    assert line(turn, ["Anna", "Ben"]) == (
        "**Round 1 · Anna's turn:** calls OMERTA!; Anna: Bottle 2 = 2 points; scores 0 (total 0); "
        "Ben: Bottle 5 = 5 points; scores 5 (total 5)"
    )
