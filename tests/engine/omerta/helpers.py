"""Helpers that let the Omerta rule tests read like the rules.

A test makes a table (``new_table``), lays the cards out the way the rule needs them (``arrange``, with card
ids from ``card_of`` or a ``Pick``), then acts only through ``play`` (that is ``OmertaGame.apply`` with a
``Choice``) and checks the outcome through the view, the events and the state.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from engine.core import TABLE, Choice, Event, IllegalChoice, Prompt
from engine.omerta import OmertaGame
from engine.omerta.cards import POWERS, Card, deck
from engine.omerta.state import OmertaState

GAME = OmertaGame()
NAMES = ("Anna", "Ben", "Cleo", "Dino", "Enzo")


# --- cards ---------------------------------------------------------------------------------------------------


def cards_where(what: int | str) -> list[int]:
    """Ids of the cards that are ``what``.

    ``what`` is a bottle value (``7``), a power (``"mole"``), a gangster's name (``"Al Capone"``) or a card
    kind (``"bottle"``, ``"character"``, ``"gangster"``).
    """
    cards = deck().cards
    if isinstance(what, int):
        found = [c.id for c in cards if c.kind == "bottle" and c.value == what]
    elif what in ("bottle", "character", "gangster"):
        found = [c.id for c in cards if c.kind == what]
    elif what in POWERS:
        found = [c.id for c in cards if c.kind == "character" and c.power == what]
    else:
        found = [c.id for c in cards if c.kind == "gangster" and c.name == what]
    if not found:
        raise KeyError(f"no card is {what!r}")
    return found


def card_of(what: int | str, n: int = 0) -> int:
    """The ``n``-th card that is ``what`` (see ``cards_where``)."""
    return cards_where(what)[n]


def info(card: int) -> Card:
    """The card with this id."""
    return deck().cards[card]


def points(cards: Iterable[int | None]) -> int:
    """The card points of a hand (empty slots count nothing)."""
    return sum(info(c).points for c in cards if c is not None)


class Pick:
    """Hands out distinct cards: ``pick(3)`` is the next unused Bottle 3, ``pick("mole")`` the next Mole."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, what: int | str) -> int:
        for card in cards_where(what):
            if card not in self.used:
                self.used.add(card)
                return card
        raise ValueError(f"no unused card is {what!r}")

    def many(self, *whats: int | str) -> list[int]:
        """One card for each of ``whats``."""
        return [self(w) for w in whats]


# --- tables --------------------------------------------------------------------------------------------------


def new_table(players: int = 3, seed: int = 1, options: Mapping[str, Any] | None = None, *, peek: bool = True):
    """A new game (Anna, Ben, Cleo, ...); with ``peek`` everyone has peeked at slots 1 and 2 already."""
    state = GAME.new(list(NAMES[:players]), dict(options or {}), seed)
    if peek:
        for seat in range(players):
            GAME.apply(state, Choice(seat, "peek", "0,1"))
    return GAME, state


def _filler_order(exclude: set[int]) -> list[int]:
    """Cards not placed by a test, in a fixed order: the high bottles first, the characters last."""
    d = deck()
    bottles = sorted((c for c in d.playing if d.cards[c].kind == "bottle"), key=lambda c: (-d.cards[c].value, c))
    chars = [c for c in d.playing if d.cards[c].kind != "bottle"]
    return [c for c in bottles + chars if c not in exclude]


def arrange(
    state: OmertaState,
    *,
    active: int | None = None,
    hands: Mapping[int, Sequence[int | None]] | None = None,
    draw: Sequence[int] = (),
    discard: Sequence[int] = (),
    safe: Sequence[int] | None = None,
    rest: str | int = "draw",
) -> None:
    """Lay out the round's cards and start ``active``'s turn (phase ``turn``).

    ``hands`` gives a seat's slots (``None`` for an emptied slot); seats not named get 4 filler cards (high
    bottles). ``draw`` and ``discard`` are listed bottom to top (the last one is the top card). ``safe`` gets
    fillers when not given. Every card left over goes under the draw pile (``rest="draw"``), under the discard
    pile (``"discard"``) or into new slots of seat ``rest``. The result keeps every invariant of the game.
    """
    hands = dict(hands or {})
    placed = [c for h in hands.values() for c in h if c is not None] + list(draw) + list(discard) + list(safe or [])
    if len(set(placed)) != len(placed):
        raise ValueError(f"a card is placed twice: {placed}")
    if any(info(c).kind == "gangster" for c in placed):
        raise ValueError("gangster cards are never in play")
    pool = _filler_order(set(placed))
    for seat, player in enumerate(state.players):
        if seat in hands:
            player.slots = list(hands[seat])
        else:
            player.slots = [pool.pop(0) for _ in range(4)]
    state.safe = list(safe) if safe is not None else [pool.pop(0) for _ in range(4)]
    if rest == "draw":
        state.draw, state.discard = pool[::-1] + list(draw), list(discard)
    elif rest == "discard":
        state.draw, state.discard = list(draw), pool + list(discard)
    else:
        state.players[int(rest)].slots += pool
        state.draw, state.discard = list(draw), list(discard)
    state.held = None
    state.blocks = []
    state.power = ""
    state.safe_pick = -1
    state.snap_value = 0
    state.phase = "turn"
    if active is not None:
        state.active = active
    broken = GAME.invariants(state)
    if broken:
        raise AssertionError(f"arrange() broke the table: {broken}")


# --- acting and looking --------------------------------------------------------------------------------------


def play(game: OmertaGame, state: OmertaState, seat: int, kind: str, option: str) -> list[Event]:
    """Apply one choice through the engine and return its events."""
    return game.apply(state, Choice(seat, kind, option))


def close_snap(game: OmertaGame, state: OmertaState) -> list[Event]:
    """The table closes the snap window (nobody snapped)."""
    return play(game, state, TABLE, "snap", "close")


def refused(game: OmertaGame, state: OmertaState, choice: Any) -> str:
    """Apply a choice that must be refused; return the message and check that nothing changed."""
    before = game.dumps(state)
    try:
        game.apply(state, choice)
    except IllegalChoice as exc:
        message = str(exc)
    else:
        raise AssertionError(f"{choice!r} was accepted")
    assert game.dumps(state) == before, f"refusing {choice!r} changed the state"
    assert message, "refused without a message"
    return message


def prompt_of(game: OmertaGame, state: OmertaState, seat: int, kind: str | None = None) -> Prompt:
    """The open prompt of ``seat`` (of ``kind``, when given)."""
    found = [p for p in game.prompts(state) if p.seat == seat and (kind is None or p.kind == kind)]
    assert len(found) == 1, f"seat {seat} has prompts {found}"
    return found[0]


def option_ids(game: OmertaGame, state: OmertaState, seat: int, kind: str | None = None) -> list[str]:
    """The option ids of ``seat``'s open prompt."""
    return [o.id for o in prompt_of(game, state, seat, kind).options]


def texts(events: Iterable[Event], seat: int | None = None) -> list[str]:
    """The log lines ``seat`` (``None``: a spectator) may read."""
    return [e.text for e in events if e.visible_to(seat)]


def private(events: Iterable[Event]) -> list[Event]:
    """The events addressed to some seats only."""
    return [e for e in events if e.to is not None]


def hand(state: OmertaState, seat: int) -> list[int | None]:
    """A seat's slots (card ids, ``None`` for a gap)."""
    return list(state.players[seat].slots)


def card_points(state: OmertaState, seat: int) -> int:
    """The card points a seat holds now."""
    return points(state.players[seat].slots)


def card_ids_in(view: Any) -> Iterator[int]:
    """Every card identity a view shows (each card is a dict with id, kind, name and points)."""
    if isinstance(view, dict):
        if {"id", "kind", "name", "points"} <= view.keys():
            yield view["id"]
        for value in view.values():
            yield from card_ids_in(value)
    elif isinstance(view, list | tuple):
        for value in view:
            yield from card_ids_in(value)


def face_down(state: OmertaState) -> set[int]:
    """Every card lying face down now: the slots, the draw pile and the Safe."""
    down = {c for p in state.players for c in p.slots if c is not None}
    return down | set(state.draw) | set(state.safe)


def finish_round_by_calling(game: OmertaGame, state: OmertaState) -> list[Event]:
    """The active player calls OMERTA at once, and every later peek is done with slots 1 and 2."""
    events = play(game, state, state.active, "turn", "omerta")
    if state.phase == "peek":
        for seat in range(len(state.players)):
            events += play(game, state, seat, "peek", "0,1")
    return events
