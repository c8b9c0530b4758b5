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

import msgspec

from engine.core import Chance, Rng
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


#: Pile names, made once (the undo fingerprint is taken twice for every choice).
_DECKS = tuple((d, f"decks.{d}") for d in TRACKS)
_NUMBERED = {kind: tuple(f"{kind}.{i}" for i in range(8)) for kind in ("city_piles", "war_stacks", "cop_stacks")}


def _piles(state: SpeakeasyState) -> list[tuple[str, str, list[Any], int, str | None]]:
    """The one definition of the shared face-down piles: ``(name, pool, items, start, only)`` as in ``Pile``."""
    decks = state.decks
    piles: list[tuple[str, str, list[Any], int, str | None]] = [
        (name, "ops", decks[d], 1, d) for d, name in _DECKS if d in decks
    ]
    piles.append(("helper_deck", "helper", state.helper_deck, 0, None))
    for kind, pool, lists in (
        ("city_piles", "tile", state.city_piles),
        ("war_stacks", "war", state.war_stacks),
        ("cop_stacks", "cop", state.cop_stacks),
    ):
        names = _NUMBERED[kind]
        piles += [(names[i], pool, items, 0, None) for i, items in enumerate(lists)]
    piles += [("mobster_decks." + k, "mobster", deck, 0, k) for k, deck in state.mobster_decks.items()]
    piles.append(("mobster_box", "mobster", state.mobster_box, 0, None))  # never shown: leftovers, unused decks
    piles.append(("port_stack", "port", state.port_stack, 0, None))
    piles.append(("crate_stack", "crate", state.crate_stack, 0, None))
    jo = state.jo
    if jo is not None:
        piles.append(("jo.deck", "jo_card", jo.deck, 0, None))
        piles += [("jo.waiting." + k, "jo_card", cards, 0, None) for k, cards in sorted(jo.waiting.items())]
        piles.append(("jo.boxed", "jo_card", jo.boxed, 0, None))
        piles.append(("jo.districts", "jo_district", jo.districts, 0, None))
    return piles


def shared_piles(state: SpeakeasyState) -> list[Pile]:
    """Every face-down pile, stack and deck of the table (the live lists of ``state``)."""
    return [Pile(*pile) for pile in _piles(state)]


# ---- the undo fingerprint ----

#: The generator's state, the piles' layout (what ``_names`` turns into their names) and their face-down parts, in
#: ``_piles``' order.
Fingerprint = tuple[int, tuple[Any, ...], tuple[tuple[Any, ...], ...]]


def fingerprint(state: SpeakeasyState) -> Fingerprint:
    """The generator's state and the face-down part of every shared pile. Never the players' own secrets: whether
    a choice is fixed is shown to everyone (the Undo button), so it may not depend on another player's hand or
    safe.

    It is taken twice for every choice, so it reads the piles straight from the state, in ``_piles``' order,
    without naming them: the names come from the layout only when the layout changed (``revealed``)."""
    decks = state.decks
    jo = state.jo
    parts = [tuple(decks[d][1:]) for d, _ in _DECKS if d in decks]  # an Operations deck's top card is face up
    parts.append(tuple(state.helper_deck))
    parts += map(tuple, state.city_piles)
    parts += map(tuple, state.war_stacks)
    parts += map(tuple, state.cop_stacks)
    parts += map(tuple, state.mobster_decks.values())
    parts += (tuple(state.mobster_box), tuple(state.port_stack), tuple(state.crate_stack))
    if jo is None:
        layout: tuple[Any, ...] = (
            tuple(decks),
            len(state.city_piles),
            len(state.war_stacks),
            len(state.cop_stacks),
            tuple(state.mobster_decks),
        )
    else:
        waiting = sorted(jo.waiting)
        parts.append(tuple(jo.deck))
        parts += [tuple(jo.waiting[k]) for k in waiting]
        parts += (tuple(jo.boxed), tuple(jo.districts))
        layout = (
            tuple(decks),
            len(state.city_piles),
            len(state.war_stacks),
            len(state.cop_stacks),
            tuple(state.mobster_decks),
            tuple(waiting),
        )
    return (state.rng.state, layout, tuple(parts))


def keep_fingerprint(state: SpeakeasyState, taken: Fingerprint) -> None:
    """Keep the fingerprint just taken after a choice beside the state's fields (as ``flow`` keeps the open
    question; never stored, copied or compared): it is the next choice's "before" unless something but the engine
    changed the state in between (``flow.edited`` forgets it)."""
    state.__dict__["shown"] = (state.tasks[-1] if state.tasks else None, state.log_count, taken)


def fingerprint_now(state: SpeakeasyState) -> Fingerprint:
    """``fingerprint(state)``, the one the last choice kept when nothing was chosen since: the fingerprint was
    taken twice a choice, and the second one is the next choice's first."""
    kept = state.__dict__.get("shown")
    top = state.tasks[-1] if state.tasks else None
    if kept is not None and kept[0] is top and kept[1] == state.log_count:
        return kept[2]
    return fingerprint(state)


@cache
def _names(layout: tuple[Any, ...]) -> tuple[str, ...]:
    """The piles' names of a fingerprint's layout, in ``_piles``' order."""
    decks, cities, wars, cops, mobsters, *jo = layout
    names = [name for d, name in _DECKS if d in decks]
    names.append("helper_deck")
    names += _NUMBERED["city_piles"][:cities] + _NUMBERED["war_stacks"][:wars] + _NUMBERED["cop_stacks"][:cops]
    names += ["mobster_decks." + k for k in mobsters]
    names += ("mobster_box", "port_stack", "crate_stack")
    if jo:
        names.append("jo.deck")
        names += ["jo.waiting." + k for k in jo[0]]
        names += ("jo.boxed", "jo.districts")
    return tuple(names)


def revealed(before: Fingerprint, after: Fingerprint) -> bool:
    """Whether chance was used or a face-down component left its place between the two fingerprints.

    A card put face up under a deck (a discard, a card pushed out of a slot) adds to the bottom of the pile and
    shows nothing, so only a face-down part that is no longer the start of the new one counts."""
    if before[0] != after[0]:
        return True
    if before[1] == after[1]:
        if before[2] == after[2]:  # the common case, nothing face down moved: one comparison in C
            return False
        return any(new[: len(old)] != old for old, new in zip(before[2], after[2], strict=True))
    piles_after = dict(zip(_names(after[1]), after[2], strict=True))
    return any(
        piles_after.get(name, ())[: len(old)] != old for name, old in zip(_names(before[1]), before[2], strict=True)
    )


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


#: Pools whose components keep their kind in each place: Jo's action cards are dealt deck by deck (seed
#: 003:20.1, 003:22.2: Act 1 decks 1 and 2, then what is left with deck 3, then deck 4), so how many cards of each
#: deck a pile holds is known to all; which ones, and in what order, is not.
KIND_KEPT = frozenset({"jo_card"})


def _jo_kind(card: str) -> str:
    """A Jo card's deck: its name's first character ("2b" is of deck 2, "0W3" of deck 0)."""
    return card[:1]


def _redeal_by_kind(places: list[Pile], rng: Chance | None) -> None:
    """Redeal keeping how many components of each kind every place holds (issue 25: a sampled Jo deck of Act 1
    held cards of decks 3 and 4 two times in three). Which components of a kind go where, and each place's
    order, are drawn at random; ``rng=None``: each place's kinds sorted, each kind's components in sorted order
    (a canonical arrangement, a function of the kinds' counts only)."""
    by_kind: dict[str, list[Any]] = {}
    for pl in places:
        for x in pl.items[pl.start :]:
            by_kind.setdefault(_jo_kind(x), []).append(x)
    if rng is None:
        for cards in by_kind.values():
            cards.sort(reverse=True)  # popped from the end: smallest first
    else:
        draw = rng.random
        for kind, cards in by_kind.items():
            by_kind[kind] = sorted(cards, key=lambda _x: draw())
    for pl in places:
        kinds = [_jo_kind(x) for x in pl.items[pl.start :]]
        kinds = sorted(kinds) if rng is None else sorted(kinds, key=lambda _x: rng.random())
        pl.items[pl.start :] = [by_kind[k].pop() for k in kinds]


def _redeal(places: list[Pile], rng: Chance | None) -> None:
    """Shuffle the face-down components of one pool among its places (each keeps its size; a place that accepts
    one deck or letter gets components of it only; in a ``KIND_KEPT`` pool every place keeps its count of each
    kind). ``rng=None`` keeps the order they are given in (each fussy place still gets its kind: a canonical
    arrangement, ``bots.speakeasy_worlds``)."""
    if places and places[0].pool in KIND_KEPT:
        _redeal_by_kind(places, rng)
        return
    items = [x for pl in places for x in pl.items[pl.start :]]
    if len(items) < 2:
        return
    if rng is None:
        left = items
    else:
        # sorted by random keys: a uniform order, several times faster than ``shuffle`` (scramble runs at every
        # step of the differential tests)
        draw = rng.random
        left = sorted(items, key=lambda _x: draw())
    fussy = [pl for pl in places if pl.only is not None]
    if fussy:
        # one pass: each fussy place takes the first components of its kind in the new order, the rest keep it
        kinds = _kinds(places[0].pool)
        room = {pl.only: max(0, len(pl.items) - pl.start) for pl in fussy}
        got: dict[str | None, list[Any]] = {pl.only: [] for pl in fussy}
        rest = []
        for x in left:
            mine = got.get(kinds[x])
            if mine is not None and len(mine) < room[kinds[x]]:
                mine.append(x)
            else:
                rest.append(x)
        for pl in fussy:
            pl.items[pl.start :] = got[pl.only]
        left = rest
    for pl in places:
        if pl.only is None:
            want = max(0, len(pl.items) - pl.start)
            pl.items[pl.start :], left = left[:want], left[want:]


_packer = msgspec.msgpack.Encoder()
_unpacker = msgspec.msgpack.Decoder(SpeakeasyState)


def _copy(state: SpeakeasyState) -> SpeakeasyState:
    """An independent copy (a msgpack round trip: faster than JSON, and scramble runs at every step of the
    differential tests)."""
    return _unpacker.decode(_packer.encode(state))


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
    return redraw(_copy(state), seat, rng)


def redraw(new: SpeakeasyState, seat: int | None, rng: Chance) -> SpeakeasyState:
    """``scramble`` in place: redraws what ``seat`` may not see in ``new`` itself (a copy the caller made and
    owns) and returns it."""
    places = shared_piles(new) + _private_places(new, seat)
    for pool in dict.fromkeys(pl.pool for pl in places):
        _redeal([pl for pl in places if pl.pool == pool], rng)
    jo = new.jo.seat if new.jo is not None else None
    if new.phase != "over":  # the final scoring shows every safe
        for i, p in enumerate(new.players):
            if i != seat and i != jo:  # Jo has no safe (seed 003: one public pool)
                p.safe = _other_safe(p.safe, rng)
                # the ledger tells what came from the safe: only its sum stays (it is never in a view then)
                p.ledger = {"hidden": p.pocket + p.safe}
    new.rng = Rng(rng.getrandbits(64))
    return new
