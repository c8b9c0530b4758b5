"""Omerta's rules version 3: the decisions file's "Version 2.1" (decisions 2.1), issue 22.

- "A standing order follows the card it was meant for": whatever changes which card lies in a slot (a swap, the
  Lady, the Safecracker, the Chauffeur, a new deal) withdraws the standing orders on that slot, and only their
  owner is told; the public output is the same whether an order existed or not.
- "A wrong snap always costs a card": with no card to draw, the penalty card is the top card of the discard pile;
  with neither pile holding a card, no claim is accepted (live windows and standing orders alike).

Games recorded under versions 1 and 2 replay as before (``test_decision_2_1_recorded_v2_games_replay_as_before``
and the ``..._version_2_...`` tests). Tests named ``test_decision_2_1_...``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import Choice, Event
from engine.omerta.cards import deck
from engine.omerta.state import Block, OmertaState
from engine.options import resolve_options
from tests.engine.omerta.helpers import (
    GAME,
    Pick,
    arrange,
    hand,
    info,
    new_table,
    play,
    private,
    prompt_of,
    refused,
    texts,
)

V3 = {"rules": 3}
POST3 = {"rules": 3, "pace": "post"}
POST2 = {"rules": 2, "pace": "post"}
FIXTURES = Path(__file__).resolve().parent / "fixtures"
WITHDRAWN = "Your standing order for slot {n} (a Bottle {v}) is withdrawn: the card in that slot was moved."
NO_MORE = (
    "The draw pile and the discard pile are empty: no penalty card is left, so no more claims are accepted for "
    "this Bottle."
)


def _public(events: list[Event]) -> list[tuple]:
    """The public lines of a step: kind, words and data."""
    return [(e.kind, e.text, json.dumps(e.data, sort_keys=True)) for e in events if e.to is None]


def _orders(s: OmertaState, seat: int) -> list[tuple[int, int]]:
    return [(o["slot"], o["value"]) for o in GAME.view(s, seat)["orders"]]


def _same_public(s: OmertaState, steps: list[Choice], drop: set[int]) -> list[Event]:
    """Play ``steps`` on the table and on a copy without the standing orders of the seats in ``drop``: the public
    lines and the spectator's view must be the same (an order is private until it is judged). Returns the real
    events."""
    other = GAME.loads(GAME.dumps(s))
    other.orders = [o for o in other.orders if o.seat not in drop]
    real: list[Event] = []
    fake: list[Event] = []
    for choice in steps:
        real += GAME.apply(s, choice)
        fake += GAME.apply(other, choice)
    assert _public(real) == _public(fake)
    assert GAME.view(s, None) == GAME.view(other, None)
    assert GAME.invariants(s) == [] and GAME.invariants(other) == []
    return real


# --- the option ----------------------------------------------------------------------------------------------


def test_decision_2_1_rules_3_is_the_new_tables_default_and_old_records_keep_theirs():
    specs = GAME.option_specs
    assert resolve_options(specs, {}, new=True)["rules"] == 3
    assert resolve_options(specs, {})["rules"] == 1  # a record made before the option
    assert resolve_options(specs, {"rules": 2}, new=True)["rules"] == 2  # a record made under version 2
    assert GAME.view(GAME.new(["a", "b", "c"], V3, 1), None)["rules"] == 3


# --- a standing order follows the card it was meant for ------------------------------------------------------


@pytest.mark.parametrize("how", ["draw", "take"])
def test_decision_2_1_a_swap_withdraws_the_order_on_that_slot_and_tells_only_its_owner(how):
    """The case the decision was made for: Anna knows her slot 1 holds a Bottle 5 and keeps an order on it; she
    swaps a Bottle 9 into slot 1, and the Bottle 5 lands. Her order is withdrawn before the Bottle is judged, so it
    does not hit the 9; her order on slot 2 and Ben's orders stay."""
    g, s = new_table(3, options=POST3)
    p = Pick()
    five, nine = p(5), p(9)
    pile = {"draw": [nine], "discard": []} if how == "draw" else {"draw": [p(10)], "discard": [nine]}
    arrange(s, active=0, hands={0: [five, p(2), p(3), p(4)], 1: p.many(1, 6, 7, 8)}, **pile)
    for seat, option in ((0, "set:0:5"), (0, "set:1:2"), (1, "set:0:5")):
        play(g, s, seat, "order", option)
    play(g, s, 0, "turn", how)
    events = _same_public(s, [Choice(0, "place", "swap:0")], drop={0})  # Ben's order is judged: public
    assert [(e.to, e.text) for e in private(events)] == [((0,), WITHDRAWN.format(n=1, v=5))]
    assert "Anna swaps a card into slot 1; out comes Bottle 5." in texts(events)
    assert "Ben's standing order snaps slot 1: Bottle 1, wrong! It goes back face down." in texts(events)
    assert not any("Anna's standing order" in line for line in texts(events))
    assert hand(s, 0) == [nine, *hand(s, 0)[1:4]]  # no penalty card for Anna
    assert _orders(s, 0) == [(1, 2)] and _orders(s, 1) == []  # Ben's order was judged (wrong) and removed
    refused(g, s, Choice(0, "order", "cancel:0"))  # the withdrawn order is gone from the question too


def test_decision_2_1_version_2_a_stale_order_after_a_swap_still_hits_the_new_card():
    """Under version 2 (games recorded before 2.1) the order stays on its slot and hits the card swapped in."""
    g, s = new_table(3, options=POST2)
    p = Pick()
    five, nine = p(5), p(9)
    arrange(s, active=0, hands={0: [five, p(2), p(3), p(4)]}, draw=[nine])
    play(g, s, 0, "order", "set:0:5")
    play(g, s, 0, "turn", "draw")
    events = play(g, s, 0, "place", "swap:0")
    assert "Anna's standing order snaps slot 1: Bottle 9, wrong! It goes back face down." in texts(events)
    assert len(hand(s, 0)) == 5 and not private(events)


def test_decision_2_1_the_lady_withdraws_the_orders_on_every_shuffled_slot_not_on_a_held_one():
    """The Lady shuffles Ben's cards: his orders on the shuffled slots go (he alone is told, one line each); his
    order on a card under Police Check (not shuffled) stays, and so do everyone else's."""
    g, s = new_table(3, options=POST3)
    p = Pick()
    arrange(s, active=0, hands={1: p.many(1, 2, 3, 4), 2: p.many(6, 7, 8, 10)}, draw=[p("lady")])
    s.blocks.append(Block(seat=1, slot=3, by=2, turns=2))
    for seat, option in ((1, "set:0:1"), (1, "set:2:3"), (1, "set:3:4"), (2, "set:0:6"), (0, "set:1:9")):
        play(g, s, seat, "order", option)
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    events = _same_public(s, [Choice(0, "lady", "lady:1")], drop={0, 1, 2})
    assert "Anna (Lady) shuffles Ben's cards." in texts(events)
    assert [(e.to, e.text) for e in private(events)] == [
        ((1,), WITHDRAWN.format(n=1, v=1)),
        ((1,), WITHDRAWN.format(n=3, v=3)),
    ]
    assert _orders(s, 1) == [(3, 4)] and _orders(s, 2) == [(0, 6)] and _orders(s, 0) == [(1, 9)]


def test_decision_2_1_the_lady_withdraws_an_order_even_when_its_card_came_back():
    """A shuffle may put a card back where it was; the order goes all the same: Ben cannot know, and keeping
    it would tell him his card had not moved."""
    for seed in range(1, 60):
        g, s = new_table(3, seed=seed, options=POST3)
        p = Pick()
        ben = [p(1), p(2), None, None]
        arrange(s, active=0, hands={1: ben}, draw=[p("lady")])
        play(g, s, 1, "order", "set:0:1")
        play(g, s, 0, "turn", "draw")
        play(g, s, 0, "place", "discard")
        events = play(g, s, 0, "lady", "lady:1")
        if hand(s, 1) == ben:
            break
    else:
        raise AssertionError("no seed shuffled Ben's two cards back into place")
    assert [e.text for e in private(events)] == [WITHDRAWN.format(n=1, v=1)] and _orders(s, 1) == []


def test_decision_2_1_the_safecracker_swap_withdraws_the_order_on_the_slot_given_to_the_safe():
    g, s = new_table(3, options=POST3)
    p = Pick()
    safe = p.many(1, 2, 3, 4)
    arrange(s, active=0, hands={0: p.many(5, 6, 7, 8)}, safe=safe, draw=[p("safecracker")])
    play(g, s, 0, "order", "set:1:6")
    play(g, s, 0, "order", "set:2:7")
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    play(g, s, 0, "safecracker", "look")
    play(g, s, 0, "safe", "take:0")
    events = _same_public(s, [Choice(0, "safe_slot", "slot:1")], drop={0})
    assert [(e.to, e.text) for e in private(events) if e.kind == "order"] == [((0,), WITHDRAWN.format(n=2, v=6))]
    assert hand(s, 0)[1] == safe[0] and _orders(s, 0) == [(2, 7)]


def test_decision_2_1_the_chauffeur_withdraws_the_order_on_a_discarded_bottle_not_on_a_card_that_goes_back():
    """The Chauffeur discards Anna's Bottle 5 (its slot is empty now: the order goes) and turns up her Mole, which
    goes back to its slot (the same card lies there: the order stays)."""
    g, s = new_table(3, options=POST3)
    p = Pick()
    arrange(s, active=0, hands={0: [p(5), p("mole"), p(3), p(4)]}, draw=[p(8), p("chauffeur")])
    play(g, s, 0, "order", "set:0:5")
    play(g, s, 0, "order", "set:1:2")
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    events = _same_public(s, [Choice(0, "chauffeur", "drop:0,1")], drop={0})
    assert [(e.to, e.text) for e in private(events)] == [((0,), WITHDRAWN.format(n=1, v=5))]
    assert hand(s, 0)[0] is None and _orders(s, 0) == [(1, 2)]


def test_decision_2_1_a_new_deal_withdraws_every_order_and_tells_each_owner():
    g, s = new_table(3, options=POST3)
    play(g, s, 1, "order", "set:0:3")
    play(g, s, 1, "order", "set:2:8")
    play(g, s, 2, "order", "set:3:1")
    events = _same_public(s, [Choice(s.active, "turn", "omerta")], drop={1, 2})
    assert s.round == 2 and s.orders == []
    assert [(e.to, e.text) for e in private(events)] == [
        ((1,), WITHDRAWN.format(n=1, v=3)),
        ((1,), WITHDRAWN.format(n=3, v=8)),
        ((2,), WITHDRAWN.format(n=4, v=1)),
    ]


def test_decision_2_1_a_right_order_is_used_not_withdrawn_and_other_slots_keep_theirs():
    g, s = new_table(3, options=POST3)
    p = Pick()
    arrange(s, active=0, hands={1: p.many(1, 7, 3, 4)}, draw=[p(7)])
    play(g, s, 1, "order", "set:1:7")
    play(g, s, 1, "order", "set:2:3")
    play(g, s, 0, "turn", "draw")
    events = play(g, s, 0, "place", "discard")
    assert "Ben's standing order snaps slot 2: Bottle 7. One card fewer!" in texts(events)
    assert not private(events) and _orders(s, 1) == [(2, 3)]


def test_decision_2_1_version_3_live_pace_has_no_orders_and_swaps_as_before():
    g, s = new_table(3, options=V3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(5, 2, 3, 4)}, draw=[p(9)])
    play(g, s, 0, "turn", "draw")
    events = play(g, s, 0, "place", "swap:0")
    assert not private(events) and s.phase == "snap" and s.snap_value == 5


# --- a wrong snap always costs a card ------------------------------------------------------------------------


def _dry_window(options: dict, discard: list[int], p: Pick, *, cleo: list[int] | None = None):
    """Anna draws the last card, a Bottle 5, and discards it; the round's reshuffle is used up."""
    g, s = new_table(3, options=options)
    five = p(5)
    hands = {1: p.many(1, 2, 3, 4), 2: cleo or p.many(5, 6, 7, 8)}
    arrange(s, active=0, hands=hands, draw=[five], discard=discard, rest=0)
    s.reshuffles = deck().numbers["max_reshuffles"]
    return g, s, five


def test_decision_2_1_a_wrong_claim_with_no_card_to_draw_takes_the_discard_piles_top_card():
    """Live pace: the draw pile is empty and may not be reshuffled again. Ben's wrong claim costs him the top
    card of the discard pile (the Bottle 5 that just landed), face down in a new slot; everyone saw it, so the
    log names it and the picture shows it. The window stays open for a Bottle 5: Cleo's right claim snaps."""
    p = Pick()
    eight = p(8)
    g, s, five = _dry_window(V3, [p(9), eight], p)
    cleo_five = hand(s, 2)[0]
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    assert s.phase == "snap" and s.draw == [] and s.discard[-1] == five
    events = play(g, s, 1, "snap", "slot:0")
    line = "No card is left to draw: Ben takes Bottle 5 from the discard pile face down as a penalty card into slot 5."
    assert line in texts(events) and not any(e.kind == "reshuffle" for e in events)
    assert hand(s, 1)[4] == five and s.discard[-1] == eight
    assert [c["id"] for c in g.view(s, None)["shown"]][-1] == five
    assert g.view(s, None)["discard_top"]["id"] == eight and g.view(s, None)["snap_value"] == 5
    assert s.phase == "snap" and g.invariants(s) == []
    events = play(g, s, 2, "snap", "slot:0")
    assert "Cleo snaps slot 1: Bottle 5. One card fewer!" in texts(events)
    # nothing is left to draw (the reshuffle is used up): the round ends at the start of Ben's turn
    assert cleo_five not in s.history[-1].cards[2] and five in s.history[-1].cards[1]
    assert g.invariants(s) == []


def test_decision_2_1_the_penalty_takes_a_reshuffle_first_when_one_is_allowed():
    g, s = new_table(3, options=V3)
    p = Pick()
    arrange(s, active=0, hands={1: p.many(1, 2, 3, 4)}, draw=[p(5)], discard=[p(9), p(8)], rest=2)
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    events = play(g, s, 1, "snap", "slot:0")
    assert [e.kind for e in events][:3] == ["snap", "reshuffle", "penalty"]
    assert "penalty card face down into slot 5" in texts(events)[-1] and info(s.discard[-1]).value == 5


def test_decision_2_1_live_with_both_piles_empty_no_more_claims_are_accepted():
    """The last wrong claim took the only card left (the Bottle that landed): the log says that no more claims
    are accepted, the window closes at once (Cleo's right claim is refused as no longer open), and the round
    ends at the start of the next turn: nothing is left to draw."""
    p = Pick()
    g, s, five = _dry_window(V3, [], p)
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    assert s.discard == [five] and prompt_of(g, s, 2, "snap")
    events = play(g, s, 1, "snap", "slot:0")
    lines = texts(events)
    assert lines.index(NO_MORE) > lines.index(
        "No card is left to draw: Ben takes Bottle 5 from the discard pile face down as a penalty card into slot 5."
    )
    assert "No card is left to draw: the round ends without a caller." in lines
    assert s.round == 2 and s.history[-1].cards[1][-1] == five
    refused(g, s, Choice(2, "snap", "slot:0"))


def test_decision_2_1_post_with_both_piles_empty_later_orders_are_not_judged_and_nothing_shows_they_existed():
    """The same at ``pace=post``: Ben's wrong order takes the last card; Cleo's right order is not judged. The
    public lines are the same whether Cleo had an order or not (her order was private)."""
    p = Pick()
    g, s, five = _dry_window(POST3, [], p)
    play(g, s, 1, "order", "set:0:5")  # wrong (a Bottle 1), set first
    play(g, s, 2, "order", "set:0:5")  # right, set second
    play(g, s, 0, "turn", "draw")
    events = _same_public(s, [Choice(0, "place", "discard")], drop={2})
    lines = texts(events)
    assert "Ben's standing order snaps slot 1: Bottle 1, wrong! It goes back face down." in lines
    assert NO_MORE in lines and not any("Cleo's standing order" in line for line in lines)
    assert s.round == 2 and s.history[-1].cards[1][-1] == five
    assert [(e.to, e.text) for e in private(events)] == [((2,), WITHDRAWN.format(n=1, v=5))]  # the new deal


def test_decision_2_1_a_live_claim_and_a_standing_order_cost_the_same():
    """Live claim and standing order, both wrong, with no card to draw: the same penalty from the discard pile."""
    got = {}
    for options in (V3, POST3):
        p = Pick()
        g, s, five = _dry_window(options, [p(9)], p)
        if options is POST3:
            play(g, s, 1, "order", "set:0:5")
        play(g, s, 0, "turn", "draw")
        events = play(g, s, 0, "place", "discard")
        if options is V3:
            events += play(g, s, 1, "snap", "slot:0")
            cards = [c for c in hand(s, 1) if c is not None]
        else:  # at post pace the round goes on at once, and ends: nothing is left to draw
            cards = s.history[-1].cards[1]
        penalties = [e.text for e in events if e.kind == "penalty"]
        got[options.get("pace", "live")] = ([e.kind for e in events if e.kind in ("snap", "penalty")], penalties, cards)
    assert got["live"] == got["post"]
    kinds, penalties, cards = got["live"]
    assert kinds == ["snap", "penalty"] and "Ben takes Bottle 5 from the discard pile" in penalties[0]
    assert len(cards) == 5 and info(cards[-1]).value == 5


def test_decision_2_1_a_chauffeur_miss_with_no_card_to_draw_takes_the_discard_piles_top_card():
    """The Chauffeur's penalty is a penalty card like a snap's: the top of the discard pile when nothing can be
    drawn (the Chauffeur itself, which just landed there)."""
    g, s = new_table(3, options=V3)
    p = Pick()
    chauffeur = p("chauffeur")
    arrange(s, active=0, hands={0: [p("mole"), p(2), p(3), p(4)]}, draw=[chauffeur], discard=[p(9)], rest=1)
    s.reshuffles = deck().numbers["max_reshuffles"]
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    events = play(g, s, 0, "chauffeur", "drop:0")
    taken = "No card is left to draw: Anna takes Chauffeur from the discard pile face down as a penalty card into "
    assert taken + "slot 5." in texts(events)
    assert s.history[-1].cards[0][-1] == chauffeur  # and the round ends: nothing is left to draw
    assert g.invariants(s) == []


def test_decision_2_1_version_2_a_wrong_claim_with_no_card_left_still_costs_nothing():
    p = Pick()
    g, s, five = _dry_window({"rules": 2}, [p(9)], p)
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    events = play(g, s, 1, "snap", "slot:0")
    assert "Ben would take a penalty card, but no card is left to draw." in texts(events)
    assert len(hand(s, 1)) == 4 and s.discard[-1] == five and s.phase == "snap"


# --- recorded games ------------------------------------------------------------------------------------------


def _replay(data: dict) -> tuple[OmertaState, list[Event]]:
    state, events = GAME.start(data["seats"], data["options"], data["seed"])
    for seat, kind, option in data["choices"]:
        events += GAME.apply(state, Choice(seat, kind, option))  # each choice must still be legal
    return state, events


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("v2_*.json")))
def test_decision_2_1_recorded_v2_games_replay_as_before(name):
    """Games recorded under version 2 by the engine before 2.1 (``python -m bench.omerta_fixtures``, run on that
    engine): their replay gives the same state and the same log, stale orders hitting new cards and wrong claims
    with no card left included."""
    import hashlib

    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    assert data["options"]["rules"] == 2
    state, events = _replay(data)
    log = [[e.kind, e.text, list(e.to) if e.to is not None else None] for e in events]
    assert hashlib.sha256(GAME.dumps(state)).hexdigest() == data["state_sha256"]
    assert hashlib.sha256(json.dumps(log).encode()).hexdigest() == data["log_sha256"]
    assert sum("no card is left to draw" in line for _k, line, _to in log) == data["free_wrong_claims"] > 0


def test_decision_2_1_the_recorded_v2_games_have_the_cases_2_1_changes():
    found = sorted(json.loads(p.read_text(encoding="utf-8"))["options"]["pace"] for p in FIXTURES.glob("v2_*.json"))
    assert found == ["live", "post"]
    post = json.loads(next(p for p in FIXTURES.glob("v2_*.json") if "post" in p.name).read_text(encoding="utf-8"))
    assert post["stale_order_hits"] > 0


# --- random play ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("pace", ["live", "post"])
def test_decision_2_1_random_play_without_omerta_calls_keeps_every_invariant_and_never_snaps_for_free(pace):
    """Random players who never call OMERTA run the draw pile dry, so late wrong claims meet an empty draw pile.
    Every invariant holds after every step (all 65 cards in one place; under version 3 no order on a slot
    without a card), no wrong claim goes unpunished, and every withdrawal is told to one seat only."""
    import random

    seen = {"withdrawn": 0, "penalty_discard": 0, "free": 0}
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new(["Anna", "Ben", "Cleo", "Dino"], {"rules": 3, "pace": pace, "rounds": 1}, 900 + seed)
        for _ in range(20_000):
            if GAME.is_over(state):
                break
            prompts = GAME.prompts(state)
            orders = [p for p in prompts if p.optional and p.options]
            if orders and rng.random() < 0.25:
                prompt = rng.choice(orders)
                option = rng.choice(prompt.options).id
            else:
                prompt = rng.choice([p for p in prompts if not p.optional])
                option = rng.choice([o.id for o in prompt.options if o.id != "omerta"])
            events = GAME.apply(state, Choice(prompt.seat, prompt.kind, option))
            assert GAME.invariants(state) == [], (seed, GAME.invariants(state))
            for e in events:
                if e.kind == "order" and "withdrawn" in e.text:
                    seen["withdrawn"] += 1
                    assert e.to is not None and len(e.to) == 1
                seen["penalty_discard"] += e.kind == "penalty" and "from the discard pile" in e.text
                seen["free"] += e.kind == "penalty" and "would take a penalty card" in e.text
        assert GAME.is_over(state), f"seed {seed}: no end"
    assert seen["free"] == 0 and seen["penalty_discard"] > 0, seen
    assert (seen["withdrawn"] > 0) == (pace == "post"), seen
