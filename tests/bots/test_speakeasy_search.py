"""Hard's information-set tree search (issue 27, docs/bots.md "hard"): it reaches every option, a short search
plays standard's choice, and a longer one is a function of the seat's view only."""

from __future__ import annotations

import random
import time

from bots.speakeasy import GAME, Budget, SpeakeasyBot
from bots.speakeasy_policy import lookahead
from bots.speakeasy_search import PRIOR_VISITS, WIDEN_BASE, Node, Search
from bots.speakeasy_worlds import world
from bots.speakeasy_worth import PREPARE
from engine.core import TABLE


def a_prompt(least: int, most: int, seed: int = 5):
    """The first seat prompt of a two-player game between standard bots with ``least``..``most`` options."""
    state = GAME.new(["A", "B"], {"settle": "auto"}, seed)
    standard = SpeakeasyBot("standard", 2)
    for _ in range(400):
        prompt = next(p for p in GAME.prompts(state) if p.seat != TABLE)
        if least <= len(prompt.options) <= most:
            return state, prompt
        GAME.apply(state, standard.choose(state, prompt))
    raise AssertionError("no such prompt")


def test_a_node_admits_its_options_one_at_a_time_in_order():
    """Progressive widening: WIDEN_BASE + isqrt(visits) options, in the node's order, only those offered in this
    world; an option first offered later joins the order's end."""
    node = Node(["a", "b", "c", "d", "e"])
    assert node.admitted(["a", "b", "c", "d", "e"]) == ["a", "b"][:WIDEN_BASE]
    node.visits = 4
    assert node.admitted(["a", "b", "c", "d", "e"]) == ["a", "b", "c", "d"][: WIDEN_BASE + 2]
    assert node.admitted(["a", "c", "d", "e"]) == ["a", "c", "d", "e"][: WIDEN_BASE + 2]  # b not offered here
    node.visits = 100
    assert node.admitted(["e", "f"]) == ["e", "f"] and node.order[-1] == "f"


def test_the_search_reaches_every_option_of_the_root():
    """Every root option is played out at least once (not only standard's best four, as before issue 27)."""
    state, prompt = a_prompt(6, 9)
    rng = random.Random(1)
    sample = world(state, prompt.seat, rng)
    ranked = lookahead(sample, prompt, PREPARE)
    search = Search(PREPARE, rng)
    out = search.run(state, prompt, ranked, nodes=20_000, deadline=time.perf_counter() + 3600.0)
    assert search.root is not None and len(search.root.edges) == len(ranked) >= 6
    assert all(e.visits > PRIOR_VISITS for e in search.root.edges.values())
    assert out.iterations > 1 and out.nodes >= 20_000
    # the answer is the root option visited most
    assert search.root.edges[out.option.id].visits == max(e.visits for e in search.root.edges.values())


def test_a_search_cut_short_plays_standards_choice():
    """The lookahead is the root's prior: with a single iteration hard answers as standard does."""
    for least, most in ((2, 3), (4, 8), (9, 30)):
        state, prompt = a_prompt(least, most)
        hard = SpeakeasyBot("hard", 1, Budget(nodes=1, seconds=3600.0)).decide(state, prompt)
        assert hard.playouts == 1
        assert hard.choice == SpeakeasyBot("standard", 1).decide(state, prompt).choice


def test_a_longer_search_decides_from_the_seat_only():
    """At 2,000 nodes (tens of worlds and a tree several choices deep) the decision, its value and its node count
    are the same for the real state and for copies with everything the seat cannot see redrawn."""
    rng = random.Random(7)
    bot = SpeakeasyBot("hard", 4, Budget(nodes=2000, seconds=3600.0))
    for least, most, seed in ((4, 30, 3), (2, 30, 9)):
        state, prompt = a_prompt(least, most, seed)
        want = bot.decide(state, prompt)
        assert want.playouts > 3
        for _ in range(2):
            got = bot.decide(GAME.scramble(state, prompt.seat, rng), prompt)
            assert (got.choice, got.expected, got.nodes, got.playouts) == (
                want.choice,
                want.expected,
                want.nodes,
                want.playouts,
            )


def test_the_clock_covers_the_whole_decision():
    """The 2 s clock starts when the decision does (standard's lookahead counts against it) and the search stops
    before an iteration that would pass it: with no time left it still answers, after a single iteration."""
    state, prompt = a_prompt(4, 30)
    hard = SpeakeasyBot("hard", 1, Budget(nodes=10**9, seconds=0.0)).decide(state, prompt)
    assert hard.playouts == 1 and hard.nodes < 10**9
    assert prompt.option(hard.choice.option) is not None
