"""Moving cards on the Omerta table: drawing, the discard pile, penalty cards and Police Checks."""

from __future__ import annotations

from engine.core import Event
from engine.msg import M, Msg, T
from engine.omerta.cards import deck
from engine.omerta.state import OmertaState


def blocked(state: OmertaState, seat: int, slot: int) -> bool:
    """Whether a Police Check holds this slot's card."""
    return any(b.seat == seat and b.slot == slot for b in state.blocks)


def movable_slots(state: OmertaState, seat: int) -> list[int]:
    """Slots of ``seat`` with a card that may leave its slot (not empty, not under Police Check)."""
    return [i for i, c in enumerate(state.players[seat].slots) if c is not None and not blocked(state, seat, i)]


def card_slots(state: OmertaState, seat: int) -> list[int]:
    """Slots of ``seat`` that hold a card."""
    return [i for i, c in enumerate(state.players[seat].slots) if c is not None]


def version(state: OmertaState) -> int:
    """The rules version of the table (``rules`` option; a record made before it is version 1)."""
    return int(state.options.get("rules", 1))


def pace(state: OmertaState) -> str:
    """``live`` (snap windows) or ``post`` (standing snap orders)."""
    return str(state.options.get("pace", "live"))


def refill_draw_pile(state: OmertaState, events: list[Event]) -> None:
    """When the draw pile is empty, shuffle the discard pile except its top card into a new one (decisions);
    version 2 does it at most ``max_reshuffles`` times a round (decisions "Bounded rounds")."""
    if state.draw or len(state.discard) < 2:
        return
    if version(state) >= 2:
        if state.reshuffles >= deck().numbers["max_reshuffles"]:
            return
        state.reshuffles += 1
    top = state.discard.pop()
    state.draw = state.discard
    state.discard = [top]
    state.rng.shuffle(state.draw)
    text = M(
        "omerta.log.reshuffle",
        "The discard pile is shuffled into a new draw pile ({n} cards).",
        n=len(state.draw),
    )
    events.append(Event("reshuffle", text))


def draw_card(state: OmertaState, events: list[Event]) -> int | None:
    """The top card of the draw pile, refilling it first if it is empty; ``None`` if no card can be had."""
    refill_draw_pile(state, events)
    return state.draw.pop() if state.draw else None


def give_penalty(state: OmertaState, seat: int, events: list[Event]) -> None:
    """Deal one penalty card face down and unseen into a new slot of ``seat``."""
    card = draw_card(state, events)
    name = state.names[seat]
    if card is None:
        text = M("omerta.log.penalty_dry", "{name} would take a penalty card, but no card is left to draw.", name=name)
        events.append(Event("penalty", text))
        return
    state.players[seat].slots.append(card)
    slot = len(state.players[seat].slots)
    text = M(
        "omerta.log.penalty", "{name} takes a penalty card face down into {slot}.", name=name, slot=slot_name(slot - 1)
    )
    events.append(Event("penalty", text, data={"seat": seat}))


def slot_name(slot: int) -> Msg:
    """A slot's name; people count slots from 1 ("slot 1")."""
    return M("omerta.term.slot", "slot {n}", n=slot + 1)


def card_name(card_id: int) -> Msg:
    """A card's name, as a message ("Bottle 7", "Mole")."""
    card = deck().cards[card_id]
    return card_term(card.kind, card.name, card.value)


def card_term(kind: str, name: str, value: int) -> Msg:
    """A card's name from its kind, English name and value (a bottle's name has its value in it)."""
    if kind == "bottle":
        return M("omerta.card.bottle", "Bottle {value}", value=value)
    return T("omerta.card", name)
