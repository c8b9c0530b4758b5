"""``Game.scramble`` (issue "trust"): the same game as a seat knows it, with everything else redrawn.

Over self-play positions of both games, for every seat and a spectator: the copy keeps every invariant, looks
exactly the same to that seat, leaves the input alone, and really changes what is hidden (the other players'
safes and hands, the face-down piles, the Omerta slots and draw pile) nearly every time there is something to
change. Speakeasy design §4 and seed 000:19.7 (hand, safe and screen are the owner's); Omerta decisions file
("nobody sees a face-down card, not even its owner").
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.omerta.game import OmertaGame
from engine.speakeasy.game import SpeakeasyGame
from engine.speakeasy.hidden import shared_piles
from tests.engine.differential import self_play

OMERTA = OmertaGame()
SPEAKEASY = SpeakeasyGame()


def _positions(game, players: int, games: int, every: int):
    """Every ``every``-th position of a few self-play games (live states: do not change them)."""
    for seed in range(games):
        for t, state, _choice in self_play(game, players, 100 + seed):
            if t % every == 0:
                yield state


def _seats(state) -> list[int | None]:
    return [None, *range(len(state.players))]


def _hidden_speakeasy(state, seat):
    """What ``seat`` cannot see, part by part, to measure how often scramble changes each."""
    others = [i for i in range(len(state.players)) if i != seat]
    piles = tuple((p.name, tuple(p.items[p.start :])) for p in shared_piles(state))
    hands = tuple(tuple(state.player(i).hand) for i in others)
    safes = tuple(state.player(i).safe for i in others)
    return {"piles": piles, "hands": hands, "safes": safes, "rng": state.rng.state}


def _changeable_speakeasy(state, seat):
    """Which parts have something that can change."""
    jo = state.jo.seat if state.jo is not None else None
    others = [i for i in range(len(state.players)) if i != seat]
    piles = shared_piles(state)
    in_hands = sum(len(state.player(i).hand) for i in others)
    ops_pool = in_hands + sum(len(p.items) - p.start for p in piles if p.pool == "ops" and p.items)
    return {
        "piles": any(len(p.items) - p.start >= 2 for p in piles),
        "hands": in_hands >= 1 and ops_pool >= 2,
        "safes": state.phase != "over" and any(i != jo for i in others),
        "rng": True,
    }


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_speakeasy_scramble_keeps_the_seat_view_and_the_invariants_and_redraws_the_rest(players):
    rng = random.Random(players)
    changed: Counter[str] = Counter()
    could: Counter[str] = Counter()
    n = 0
    for state in _positions(SPEAKEASY, players, games=4, every=7):
        before = SPEAKEASY.dumps(state)
        for seat in _seats(state):
            new = SPEAKEASY.scramble(state, seat, rng)
            assert SPEAKEASY.invariants(new) == []
            assert SPEAKEASY.view(new, seat) == SPEAKEASY.view(state, seat)
            old_parts, new_parts = _hidden_speakeasy(state, seat), _hidden_speakeasy(new, seat)
            for part, possible in _changeable_speakeasy(state, seat).items():
                if possible:
                    could[part] += 1
                    changed[part] += old_parts[part] != new_parts[part]
            n += 1
        assert SPEAKEASY.dumps(state) == before, "scramble changed its input"
    assert n > 100
    assert could["hands"] > 50 and (could["safes"] > 50 or players == 1)
    for part in could:
        assert changed[part] > 0.9 * could[part], (part, changed[part], could[part])


def _hidden_omerta(state, seat):
    from engine.omerta.hidden import held_seen_by, safe_seen_by

    return {
        "slots": tuple(tuple(p.slots) for p in state.players),
        "draw": tuple(state.draw),
        "safe": None if safe_seen_by(state, seat) else tuple(state.safe),
        "held": state.held if not held_seen_by(state, seat) else None,
        "rng": state.rng.state,
    }


@pytest.mark.parametrize("players", [3, 4, 5])
def test_omerta_scramble_keeps_the_seat_view_and_the_invariants_and_redraws_the_rest(players):
    rng = random.Random(players)
    changed: Counter[str] = Counter()
    could: Counter[str] = Counter()
    for state in _positions(OMERTA, players, games=8, every=3):
        before = OMERTA.dumps(state)
        for seat in _seats(state):
            new = OMERTA.scramble(state, seat, rng)
            assert OMERTA.invariants(new) == []
            assert OMERTA.view(new, seat) == OMERTA.view(state, seat)
            old_parts, new_parts = _hidden_omerta(state, seat), _hidden_omerta(new, seat)
            possible = {
                "slots": sum(c is not None for p in state.players for c in p.slots) >= 2,
                "draw": len(state.draw) >= 2,
                "safe": old_parts["safe"] is not None,
                "rng": True,
            }
            for part, ok in possible.items():
                if ok:
                    could[part] += 1
                    changed[part] += old_parts[part] != new_parts[part]
        assert OMERTA.dumps(state) == before, "scramble changed its input"
    assert could["safe"] > 100
    for part in could:
        assert changed[part] > 0.9 * could[part], (part, changed[part], could[part])


def test_omerta_a_drawn_card_is_redrawn_for_everyone_but_its_holder():
    """Decisions file: the card a player draws is seen by that player only; one taken from the discard pile was
    face up for everyone."""
    rng = random.Random(3)
    drawn = 0
    for state in _positions(OMERTA, 4, games=10, every=1):
        if state.phase != "drawn":
            continue
        drawn += 1
        assert OMERTA.scramble(state, state.active, rng).held == state.held
        others = [OMERTA.scramble(state, None, rng).held for _ in range(20)]
        assert any(h != state.held for h in others)
    assert drawn > 10
