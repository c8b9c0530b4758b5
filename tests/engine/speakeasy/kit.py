"""Helpers for Speakeasy rule tests: set a position up, look at the open prompt, answer it.

A typical rule test::

    state = kit.paused(players=3)                  # set up, Setup Round done, no task pending
    kit.give(state, 0, pocket=20)                  # arrange what the rule needs
    kit.task(state, "build", 0, n=2)               # ask seat 0 to do one step
    assert "row:speakeasy:0" in kit.ids(state)     # what is offered
    kit.answer(state, "row:speakeasy:0")           # answer (exact id, or a unique prefix)

``paused`` freezes the turn flow (phase "paused"), so after the task and whatever it triggers are done, the
game simply waits: nothing moves on to another turn. ``played`` gives a game after the Setup Round with the
turn flow running.
"""

from __future__ import annotations

from typing import Any

from engine.core import Choice, Event, IllegalChoice, Prompt
from engine.speakeasy.board import is_open, zone_index
from engine.speakeasy.flow import advance, edited
from engine.speakeasy.game import SpeakeasyGame
from engine.speakeasy.loader import rules
from engine.speakeasy.state import Building, SpeakeasyState
from engine.speakeasy.steps import push

GAME = SpeakeasyGame()
R = rules

__all__ = ["GAME", "R", "IllegalChoice", "Building"]


def new(players: int = 3, seed: int = 1) -> SpeakeasyState:
    """A game right after setup: the Setup Round's first prompt is open."""
    return GAME.new([f"P{i + 1}" for i in range(players)], {}, seed)


def setup_round(state: SpeakeasyState) -> list[Event]:
    """Answer the Setup Round with the first offered option each time (Stills first, first free space...)."""
    events: list[Event] = []
    while state.phase == "setup":
        p = prompt(state)
        events += GAME.apply(state, Choice(p.seat, p.kind, p.options[0].id))
    return events


def played(players: int = 3, seed: int = 1) -> SpeakeasyState:
    """A game after the Setup Round: Act 1, round 1, the first player's turn is open."""
    state = new(players, seed)
    setup_round(state)
    return state


def paused(players: int = 3, seed: int = 1) -> SpeakeasyState:
    """A game after the Setup Round with no task pending and the turn flow frozen (for testing one step)."""
    state = played(players, seed)
    state.tasks.clear()
    state.phase = "paused"
    return state


def task(state: SpeakeasyState, kind: str, seat: int, n: int = 0, m: int = 0, s: str = "", items=None) -> list[Event]:
    """Push one step for ``seat`` and run anything automatic; returns the events of automatic steps."""
    push(state, kind, seat, n=n, m=m, s=s, items=items)
    log: list[Event] = []
    advance(state, log)
    return log


def prompt(state: SpeakeasyState) -> Prompt:
    """The open prompt (fails if none)."""
    edited(state)  # the position may have been set up by hand since the last read
    ps = GAME.prompts(state)
    assert ps, f"no prompt open (phase {state.phase})"
    return ps[0]


def is_waiting(state: SpeakeasyState) -> bool:
    """Whether no prompt is open."""
    edited(state)  # the position may have been set up by hand since the last read
    return not GAME.prompts(state)


def ids(state: SpeakeasyState) -> list[str]:
    """The option ids of the open prompt ([] when none is open)."""
    edited(state)  # the position may have been set up by hand since the last read
    ps = GAME.prompts(state)
    return [o.id for o in ps[0].options] if ps else []


def labels(state: SpeakeasyState) -> list[str]:
    """The option labels of the open prompt."""
    return [o.label for o in prompt(state).options]


def answer(state: SpeakeasyState, option: str, seat: int | None = None) -> list[Event]:
    """Answer the open prompt with ``option`` (an exact id, or a prefix matching exactly one id)."""
    p = prompt(state)
    chosen = option
    all_ids = [o.id for o in p.options]
    if option not in all_ids:
        matches = [i for i in all_ids if i.startswith(option)]
        assert len(matches) == 1, f"{option!r} matches {matches} among {all_ids}"
        chosen = matches[0]
    return GAME.apply(state, Choice(p.seat if seat is None else seat, p.kind, chosen))


def refuse(state: SpeakeasyState, choice: Choice) -> str:
    """Apply an illegal choice: asserts it is refused with the state unchanged; returns the message."""
    before = GAME.dumps(state)
    try:
        GAME.apply(state, choice)
    except IllegalChoice as exc:
        assert GAME.dumps(state) == before, "a refused choice changed the state"
        return str(exc)
    raise AssertionError(f"{choice} was accepted")


def give(state: SpeakeasyState, seat: int, **fields: Any) -> None:
    """Set player fields (``levels`` is merged, the rest replaced)."""
    p = state.player(seat)
    for key, value in fields.items():
        if key == "levels":
            p.levels.update(value)
        else:
            setattr(p, key, value)


def build(state: SpeakeasyState, seat: int, district: int, space: int, kind: str = "speakeasy", **kw: Any) -> Building:
    """Put a building on the map directly, taking it off the player's row (leftmost one) so invariants hold."""
    sp = state.districts[district - 1].spaces[space]
    assert sp.building is None, "space taken"
    sp.mobster = False
    row = state.player(seat).rows[kind]
    row[row.index(True)] = False
    sp.building = Building(seat, kind, **kw)
    return sp.building


def empty_space(state: SpeakeasyState, district: int) -> int:
    """The first free space of a district (clearing a Mobster Speakeasy if there is none free)."""
    d = state.districts[district - 1]
    for i, sp in enumerate(d.spaces):
        if sp.building is None and not sp.mobster:
            return i
    for i, sp in enumerate(d.spaces):
        if sp.building is None:
            sp.mobster = False
            return i
    raise AssertionError(f"district {district} is full")


def hand(state: SpeakeasyState, seat: int, *decks: str) -> list[int]:
    """Give ``seat`` the top card of each named deck (moved from the deck, so invariants hold)."""
    out = []
    for deck in decks:
        card = state.decks[deck].pop(0)
        state.player(seat).hand.append(card)
        out.append(card)
    return out


def card_with(state: SpeakeasyState, seat: int, deck: str, benefit_kind: str | None = None) -> int:
    """Move a card of ``deck`` (whose benefit has this kind, if given) from its deck into the seat's hand."""
    for card in state.decks[deck]:
        c = rules().cards[card]
        if benefit_kind is None or any(e.kind == benefit_kind for e in c.benefit):
            state.decks[deck].remove(card)
            state.player(seat).hand.append(card)
            return card
    raise AssertionError(f"no {deck} card with {benefit_kind} left in the deck")


def ok(state: SpeakeasyState) -> None:
    """Assert every invariant holds."""
    problems = GAME.invariants(state)
    assert problems == [], problems


def empty_hand(state: SpeakeasyState, seat: int) -> None:
    """Put every card of a hand face up at the bottom of its deck (so the hand is empty, invariants hold)."""
    p = state.player(seat)
    for card in list(p.hand):
        p.hand.remove(card)
        state.decks[rules().cards[card].deck].append(card)


def calm(state: SpeakeasyState, number: int) -> None:
    """Take any Cop or face-down Cop tile off a district (to the box, so the Cop tiles still add up)."""
    d = state.districts[number - 1]
    if d.cop or d.cop_tile:
        state.box["cop_tiles"].append(number)
        d.cop = d.cop_tile = False


def put_cop(state: SpeakeasyState, number: int) -> None:
    """A Cop in a district (its tile taken from the Time track, so the Cop tiles still add up)."""
    d = state.districts[number - 1]
    if d.cop:
        return
    if not d.cop_tile:
        state.cop_stacks[-1].pop()
    d.cop_tile = False
    d.cop = True


def free_space(
    state: SpeakeasyState, cop: bool = False, zone: int | None = None, avoid: tuple[int, ...] = ()
) -> tuple[int, int]:
    """A free space (no building, no Mobster Speakeasy) of an open district with or without a Cop."""
    for d in state.districts:
        if not is_open(state, d.number) or d.cop != cop or d.number in avoid:
            continue
        if zone is not None and zone_index(d.number) != zone:
            continue
        for i, sp in enumerate(d.spaces):
            if sp.building is None and not sp.mobster:
                return d.number, i
    raise AssertionError("no such free space")


def put(
    state: SpeakeasyState, seat: int, kind: str = "speakeasy", cop: bool = False, zone: int | None = None, **kw: Any
) -> tuple[int, int]:
    """Put one of the seat's buildings on a free space (a protecting Family Member comes from the supply)."""
    dn, i = free_space(state, cop, zone)
    if kw.get("family"):
        state.player(seat).family_supply -= 1
    build(state, seat, dn, i, kind, **kw)
    return dn, i
