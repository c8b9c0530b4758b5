"""Moving cards on the Omerta table: drawing, the discard pile, penalty cards and Police Checks."""

from __future__ import annotations

from collections.abc import Iterable

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
    """Deal one penalty card face down and unseen into a new slot of ``seat``; version 3 takes the top card of
    the discard pile when no card can be drawn (decisions 2.1). It was face up, so everyone saw it: it goes into
    ``shown`` like a card a snap turned up, and the log names it."""
    card = draw_card(state, events)
    name = state.names[seat]
    slots = state.players[seat].slots
    if card is None and version(state) >= 3 and state.discard:
        card = state.discard.pop()
        slots.append(card)
        state.shown.append(card)
        text = M(
            "omerta.log.penalty_discard",
            "No card is left to draw: {name} takes {card} from the discard pile face down as a penalty card into "
            "{slot}.",
            name=name,
            card=card_name(card),
            slot=slot_name(len(slots) - 1),
        )
        # where the card is in ``shown``, so its new owner can remember it (it was face up for everyone)
        events.append(
            Event("penalty", text, data={"seat": seat, "slot": len(slots) - 1, "shown": len(state.shown) - 1})
        )
        return
    if card is None:
        text = M("omerta.log.penalty_dry", "{name} would take a penalty card, but no card is left to draw.", name=name)
        events.append(Event("penalty", text))
        return
    slots.append(card)
    text = M(
        "omerta.log.penalty",
        "{name} takes a penalty card face down into {slot}.",
        name=name,
        slot=slot_name(len(slots) - 1),
    )
    events.append(Event("penalty", text, data={"seat": seat}))


def set_slot(state: OmertaState, seat: int, slot: int, card: int | None, events: list[Event]) -> None:
    """Put ``card`` (``None``: nothing) into an existing slot of ``seat``: the one way a slot's card changes
    within a round (a swap, a power, a snap, the Chauffeur). Version 3 withdraws the standing orders on that slot
    (decisions 2.1, "A standing order follows the card it was meant for")."""
    state.players[seat].slots[slot] = card
    stamp(state, seat, slot)
    withdraw_orders(state, seat, [slot], events)


def stamp(state: OmertaState, seat: int, slot: int) -> None:
    """Version 3: note that ``seat``'s ``slot`` got another card in this turn (``OmertaState.stamps``; public, the
    log says it). Before version 3 nothing is noted: those tables' states stay as they were."""
    if version(state) < 3:
        return
    while len(state.stamps) < len(state.players):
        state.stamps.append([])
    row = state.stamps[seat]
    row.extend([0] * (slot + 1 - len(row)))
    row[slot] = state.turn


def withdraw_orders(state: OmertaState, seat: int, slots: Iterable[int], events: list[Event]) -> None:
    """Version 3: withdraw ``seat``'s standing orders on ``slots``, whose cards were moved, and tell only that
    seat (orders are private: the public log never depends on them). A slot counts as moved even when a
    shuffle happened to put its own card back: the player cannot know, and keeping the order would tell them."""
    if version(state) < 3:
        return  # before 2.1 an order stayed on its slot whatever lay there (replays must not change)
    moved = set(slots)
    gone = sorted((o for o in state.orders if o.seat == seat and o.slot in moved), key=lambda o: o.slot)
    for order in gone:
        state.orders.remove(order)
        text = M(
            "omerta.log.order_withdrawn",
            "Your standing order for {slot} (a Bottle {value}) is withdrawn: the card in that slot was moved.",
            slot=slot_name(order.slot),
            value=order.value,
        )
        events.append(Event("order", text, (seat,), {"slot": order.slot, "value": order.value}))


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
