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

from bots.speakeasy_beliefs import public_safe
from engine.core import Rng
from engine.speakeasy import hidden
from engine.speakeasy.state import SpeakeasyState


def _key(item: Any) -> tuple[str, Any]:
    return (type(item).__name__, item)


def _sorted(items: list[Any]) -> list[Any]:
    """The items in one fixed order whatever order they come in (by type name, then value: a pool may mix ids
    and names). Components of one type sort as they are, without a key per item."""
    if len({type(x) for x in items}) <= 1:
        return sorted(items)
    return sorted(items, key=_key)


def canonical(state: SpeakeasyState, seat: int | None) -> SpeakeasyState:
    """A copy in which everything ``seat`` may not see is arranged in one fixed way (the same for every
    arrangement of it): the hidden components of each pool sorted over their places, other safes 0, the
    generator at 0."""
    new = hidden._copy(state)
    places = hidden.shared_piles(new) + hidden._private_places(new, seat)
    for pool in dict.fromkeys(pl.pool for pl in places):
        mine = [pl for pl in places if pl.pool == pool]
        if pool not in hidden.KIND_KEPT:  # a kind-kept pool is made canonical by its redeal from the kinds alone
            items = _sorted([x for pl in mine for x in pl.items[pl.start :]])
            for pl in mine:  # sizes stay; the fussy places get their kinds right in ``_redeal``
                want = max(0, len(pl.items) - pl.start)
                pl.items[pl.start :], items = items[:want], items[want:]
        hidden._redeal(mine, None)
    jo = new.jo.seat if new.jo is not None else None
    if new.phase != "over":
        for i, p in enumerate(new.players):
            if i != seat and i != jo:
                p.safe = 0
                p.ledger = {"hidden": p.pocket}  # where money came from tells the safe: as the scramble does
    new.rng = Rng(0)
    return new


#: How far a rival's imagined safe may lie from the public board's estimate (a share of it, either way).
SAFE_SPREAD = 0.2


def world(state: SpeakeasyState, seat: int, rng: random.Random) -> SpeakeasyState:
    """One sample of the position as ``seat`` knows it: hidden cards and deck orders drawn at random, and each
    rival's safe drawn near what the public board tells of it (``speakeasy_beliefs.public_safe``)."""
    new = hidden.redraw(canonical(state, seat), seat, rng)  # canonical's copy is ours: no second copy
    if new.phase != "over":
        jo = new.jo.seat if new.jo is not None else None
        for i, p in enumerate(new.players):
            if i != seat and i != jo:
                estimate = public_safe(new, i)
                p.safe = max(0, round(estimate * rng.uniform(1 - SAFE_SPREAD, 1 + SAFE_SPREAD)))
                p.ledger = {"hidden": p.pocket + p.safe}  # as the scramble leaves it
    return new


def copy(state: SpeakeasyState) -> SpeakeasyState:
    """An independent copy (the engine's fast one)."""
    return hidden._copy(state)
