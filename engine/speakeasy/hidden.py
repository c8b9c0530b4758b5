"""Hidden information in Speakeasy, defined once: the face-down piles everyone shares, what each seat keeps to
itself, ``scramble`` (the same game with all of it redrawn) and the undo fingerprint (has a choice shown any of
it?).

Face down for everyone (``shared_piles``): every Operations deck below its face-up top card, the Helper deck,
the City tile piles, the Mobster decks and the boxed Mobsters, the later Mob Wars' and patrols' stacks on the
Time track, the Port and Crate stacks, and Jo's action cards (his deck, the decks waiting for later Acts, the
boxed ones) and his District deck. Kept by each player (design §4, seed 000:19.7): the hand, the safe and the
Helpers behind the Safe screen. Hidden from everyone: the generator's state.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from engine.core import Chance, Rng
from engine.speakeasy import state as state_mod
from engine.speakeasy.components import TRACKS
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState


class Pile(NamedTuple):
    """A shared pile: ``items[start:]`` is face down. Components of one ``pool`` may trade places; ``only``
    names the deck (Operations cards) or letter (Mobsters) a pile accepts, ``None`` for any."""

    name: str
    pool: str
    items: list[Any]
    start: int = 0
    only: str | None = None


def shared_piles(state: SpeakeasyState) -> list[Pile]:
    """Every face-down pile, stack and deck of the table (the live lists of ``state``)."""
    piles = [Pile(f"decks.{d}", "ops", state.decks[d], 1, d) for d in TRACKS if d in state.decks]
    piles.append(Pile("helper_deck", "helper", state.helper_deck))
    piles += [Pile(f"city_piles.{i}", "tile", pile) for i, pile in enumerate(state.city_piles)]
    piles += [Pile(f"mobster_decks.{k}", "mobster", deck, 0, k) for k, deck in state.mobster_decks.items()]
    piles.append(Pile("mobster_box", "mobster", state.mobster_box))  # never shown: setup leftovers, unused decks
    piles += [Pile(f"war_stacks.{i}", "war", s) for i, s in enumerate(state.war_stacks)]
    piles += [Pile(f"cop_stacks.{i}", "cop", s) for i, s in enumerate(state.cop_stacks)]
    piles.append(Pile("port_stack", "port", state.port_stack))
    piles.append(Pile("crate_stack", "crate", state.crate_stack))
    jo = state.jo
    if jo is not None:
        piles.append(Pile("jo.deck", "jo_card", jo.deck))
        piles += [Pile(f"jo.waiting.{k}", "jo_card", cards) for k, cards in sorted(jo.waiting.items())]
        piles.append(Pile("jo.boxed", "jo_card", jo.boxed))
        piles.append(Pile("jo.districts", "jo_district", jo.districts))
    return piles


# ---- the undo fingerprint ----

Fingerprint = tuple[int, dict[str, tuple[Any, ...]]]


def fingerprint(state: SpeakeasyState) -> Fingerprint:
    """The generator's state and the face-down part of every shared pile. Never the players' own secrets: whether
    a choice is fixed is shown to everyone (the Undo button), so it may not depend on another player's hand or
    safe."""
    return state.rng.state, {p.name: tuple(p.items[p.start :]) for p in shared_piles(state)}


def revealed(before: Fingerprint, after: Fingerprint) -> bool:
    """Whether chance was used or a face-down component left its place between the two fingerprints.

    A card put face up under a deck (a discard, a card pushed out of a slot) adds to the bottom of the pile and
    shows nothing, so only a face-down part that is no longer the start of the new one counts."""
    if before[0] != after[0]:
        return True
    piles_after = after[1]
    return any(piles_after.get(name, ())[: len(down)] != down for name, down in before[1].items())


# ---- scramble ----


@cache
def _kinds(pool: str) -> tuple[str, ...]:
    """The deck (Operations cards) or letter (Mobsters) of each component id of a pool that has them."""
    if pool == "ops":
        return tuple(c.deck for c in rules().cards)
    return tuple(m.deck for m in rules().mobsters)


def _private_places(state: SpeakeasyState, seat: int | None) -> list[Pile]:
    """What the other players keep to themselves: their hands and, until the final scoring shows their bottles,
    the Helpers behind their Safe screens."""
    places: list[Pile] = []
    for i, p in enumerate(state.players):
        if i == seat:
            continue
        places.append(Pile(f"hand.{i}", "ops", p.hand))
        if state.phase != "over":
            places.append(Pile(f"screen.{i}", "helper", p.screen))
    return places


def _redeal(places: list[Pile], rng: Chance) -> None:
    """Shuffle the face-down components of one pool among its places (each keeps its size; a place that accepts
    one deck or letter gets components of it only)."""
    left = [x for pl in places for x in pl.items[pl.start :]]
    rng.shuffle(left)
    fussy = [pl for pl in places if pl.only is not None]
    if fussy:
        kinds = _kinds(places[0].pool)
        for pl in fussy:
            want = max(0, len(pl.items) - pl.start)
            mine = [x for x in left if kinds[x] == pl.only][:want]
            taken = set(mine)
            left = [x for x in left if x not in taken]
            pl.items[pl.start :] = mine
    for pl in places:
        if pl.only is None:
            want = max(0, len(pl.items) - pl.start)
            pl.items[pl.start :], left = left[:want], left[want:]


def _other_safe(current: int, rng: Chance) -> int:
    """Another plausible amount of safe money (never the current one)."""
    top = max(40, 2 * current)
    value = rng.randrange(top)
    return value + 1 if value >= current else value


def scramble(state: SpeakeasyState, seat: int | None, rng: Chance) -> SpeakeasyState:
    """A copy of ``state`` in which everything ``seat`` (``None``: a spectator) may not see is redrawn at random:
    the shared face-down piles and the other players' hands and Helpers behind the screen trade components
    within each kind, the other players' safes hold other amounts, and the generator has a new state. The copy
    is the same game as ``seat`` knows it: ``view(copy, seat) == view(state, seat)`` and the invariants hold."""
    new = state_mod.loads(state_mod.dumps(state))
    places = shared_piles(new) + _private_places(new, seat)
    for pool in dict.fromkeys(pl.pool for pl in places):
        _redeal([pl for pl in places if pl.pool == pool], rng)
    jo = new.jo.seat if new.jo is not None else None
    if new.phase != "over":  # the final scoring shows every safe
        for i, p in enumerate(new.players):
            if i != seat and i != jo:  # Jo has no safe (seed 003: one public pool)
                p.safe = _other_safe(p.safe, rng)
    new.rng = Rng(rng.getrandbits(64))
    return new
