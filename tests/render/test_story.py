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


def _msg(ctx: str, **args: str) -> str:
    return json.dumps({"msg": {"m": ctx, "t": "…", "a": args}})


def test_la_mamma_is_told_once_when_the_skip_follows_at_once():
    """Issue 24: "Vito (La Mamma): Anna skips their next turn" then at once "Anna skips this turn (La Mamma)" said
    La Mamma twice; the skip right after it is left out. A skip later on (another turn between) is still told."""
    mamma = Ev(
        3, "power", "Vito (La Mamma): Anna skips their next turn.", _msg("omerta.log.mamma", name="Vito", target="Anna")
    )
    skip = Ev(4, "skip", "Anna skips this turn (La Mamma).", _msg("omerta.log.skip", name="Anna"))
    events = [
        Ev(1, "turn", "Vito's turn.", json.dumps({"seat": 1})),
        Ev(2, "log", "Vito discards La Mamma."),
        mamma,
        skip,
    ]
    (turn,) = segments(events)
    assert [e.id for e in turn.events] == [1, 2, 3]
    assert line(turn, ["Anna", "Vito"]).count("La Mamma") == 2  # "discards La Mamma" and the power's line
    other = Ev(4, "skip", "Ben skips this turn (La Mamma).", _msg("omerta.log.skip", name="Ben"))
    (turn,) = segments([*events[:3], other])
    assert [e.id for e in turn.events] == [1, 2, 3, 4]  # someone else's skip is news
    later = [*events[:3], Ev(5, "turn", "Ben's turn.", json.dumps({"seat": 2})), Ev(6, "log", "Ben draws."), skip]
    assert [e.id for e in segments(later)[-1].events] == [5, 6, 4]
