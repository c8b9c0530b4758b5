"""Sampling the hidden part of a Speakeasy position from one seat's side (determinisation).

``Game.scramble`` redraws what a seat cannot see, but it starts from the real arrangement (its shuffle depends on
the order the hidden cards lie in, and a redrawn safe is never the real amount). A bot that scrambled the real
state would so still depend, a little, on what it may not know. ``world`` first puts every hidden thing in a
canonical arrangement that is a function of what the seat sees only (each pool's hidden components sorted, the
other safes emptied, the generator zeroed), then scrambles that with the bot's own generator.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Rng
from engine.speakeasy import hidden
from engine.speakeasy.state import SpeakeasyState


class _InOrder:
    """A stand-in generator whose ``random()`` rises: ``hidden._redeal`` then keeps the order it is given."""

    def __init__(self) -> None:
        self.n = 0

    def random(self) -> float:
        """The next of 0, 1, 2, ... (only the order of the keys matters)."""
        self.n += 1
        return float(self.n)


def _key(item: Any) -> tuple[str, Any]:
    return (type(item).__name__, item)


def canonical(state: SpeakeasyState, seat: int | None) -> SpeakeasyState:
    """A copy in which everything ``seat`` may not see is arranged in one fixed way (the same for every
    arrangement of it): the hidden components of each pool sorted over their places, other safes 0, the
    generator at 0."""
    new = hidden._copy(state)
    places = hidden.shared_piles(new) + hidden._private_places(new, seat)
    for pool in dict.fromkeys(pl.pool for pl in places):
        mine = [pl for pl in places if pl.pool == pool]
        items = sorted((x for pl in mine for x in pl.items[pl.start :]), key=_key)
        for pl in mine:  # sizes stay; the fussy places get their kinds right in ``_redeal``
            want = max(0, len(pl.items) - pl.start)
            pl.items[pl.start :], items = items[:want], items[want:]
        hidden._redeal(mine, _InOrder())  # type: ignore[arg-type]
    jo = new.jo.seat if new.jo is not None else None
    if new.phase != "over":
        for i, p in enumerate(new.players):
            if i != seat and i != jo:
                p.safe = 0
                p.ledger = {"hidden": p.pocket}  # where money came from tells the safe: as the scramble does
    new.rng = Rng(0)
    return new


def world(state: SpeakeasyState, seat: int, rng: random.Random) -> SpeakeasyState:
    """One sample of the position as ``seat`` knows it: hidden cards, safes and deck orders drawn at random."""
    return hidden.scramble(canonical(state, seat), seat, rng)


def copy(state: SpeakeasyState) -> SpeakeasyState:
    """An independent copy (the engine's fast one)."""
    return hidden._copy(state)
