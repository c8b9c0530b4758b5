"""Judging snaps, and the standing snap orders of ``pace=post`` (decisions "Version 2").

A claim names one of the claimant's own slots. Right value: the card is discarded (it opens no new snap) and the
claimant has one card fewer. Wrong: the card is shown to all, goes back face down, and the claimant takes the
penalty cards. Version 2 judges the next claim after a wrong one, until one is right or none is left.

``pace=post`` has no windows: each seat may keep standing orders, "snap my slot N when a Bottle V lands" (one per
slot), set and cancelled at any time from a private, optional question the game never waits for. When a bottle
lands every matching order is a claim, earliest set first; a used or failed order is removed.

Version 3 (decisions 2.1): an order follows the card it was meant for (``table.set_slot`` withdraws it when its
slot's card is moved), and a wrong claim always costs a card: the penalty card comes from the discard pile when
none can be drawn, and once neither pile has a card no claim is accepted (``claims_accepted``).
"""

from __future__ import annotations

from functools import cache

from engine.core import Choice, Event, Option, Prompt
from engine.msg import M
from engine.omerta.cards import deck
from engine.omerta.state import OmertaState, Order
from engine.omerta.table import blocked, card_name, card_slots, give_penalty, set_slot, slot_name, version

ORDER = "order"


def judge_claim(state: OmertaState, seat: int, slot: int, who: str, events: list[Event]) -> bool:
    """Judge one claim of ``seat``'s ``slot`` against the open snap value; True if it was right. ``who`` opens
    the log line ("Ben", "Ben's standing order")."""
    slots = state.players[seat].slots
    card = slots[slot]
    assert card is not None
    info = deck().cards[card]
    state.shown.append(card)
    # the card is shown to everyone (the views' ``shown``); the data says whose slot it was and where it is in
    # ``shown``, so a seat can remember its own card going back (no card id in a public event)
    data = {"seat": seat, "slot": slot, "shown": len(state.shown) - 1}
    if info.kind == "bottle" and info.value == state.snap_value:
        state.orders = [o for o in state.orders if not (o.seat == seat and o.slot == slot)]  # the order is used
        set_slot(state, seat, slot, None, events)
        state.discard.append(card)  # it opens no new snap (decisions)
        text = M(
            "omerta.log.snap_right",
            "{who} snaps {slot}: {card}. One card fewer!",
            who=who,
            slot=slot_name(slot),
            card=card_name(card),
        )
        events.append(Event("snap", text, data=data | {"right": True}))
        return True
    text = M(
        "omerta.log.snap_wrong",
        "{who} snaps {slot}: {card}, wrong! It goes back face down.",
        who=who,
        slot=slot_name(slot),
        card=card_name(card),
    )
    events.append(Event("snap", text, data=data | {"right": False}))
    for _ in range(deck().numbers["wrong_snap_penalty_cards"]):
        give_penalty(state, seat, events)
    if not claims_accepted(state):
        # said whether or not a claim or standing order is waiting, so the public log never depends on one
        text = M(
            "omerta.log.snap_dry",
            "The draw pile and the discard pile are empty: no penalty card is left, so no more claims are accepted "
            "for this Bottle.",
        )
        events.append(Event("snap_dry", text))
    return False


def claims_accepted(state: OmertaState) -> bool:
    """Whether a claim may be judged now. Version 3: a wrong claim must cost a card, so once neither the draw
    pile nor the discard pile has one (a wrong claim before took the last), no claim is accepted; the round ends
    at the start of the next turn anyway (decisions 2.1, "A wrong snap always costs a card")."""
    return version(state) < 3 or bool(state.draw or state.discard)


def judge_orders(state: OmertaState, events: list[Event]) -> None:
    """A bottle landed at ``pace=post``: every standing order for its value is a claim, earliest set first,
    judged until one is right (version 1: only the first is judged), or, under version 3, until no claim is
    accepted (``claims_accepted``: the orders not judged stand). An order on a card under Police Check waits; a
    used or failed order is removed."""
    matching = sorted((o for o in state.orders if o.value == state.snap_value), key=lambda o: o.seq)
    for order in matching:
        if not claims_accepted(state):
            return
        if blocked(state, order.seat, order.slot):
            continue  # the card cannot be snapped now; the order stands
        state.orders.remove(order)
        if state.players[order.seat].slots[order.slot] is None:
            continue  # the slot was emptied since: nothing to snap
        who = M("omerta.log.order_who", "{name}'s standing order", name=state.names[order.seat])
        if judge_claim(state, order.seat, order.slot, who, events) or version(state) < 2:
            return


def order_prompts(state: OmertaState) -> list[Prompt]:
    """Each seat's standing-order question: private by its kind, optional, open in every phase."""
    return [order_prompt(state, seat) for seat in range(len(state.players))]


def order_prompt(state: OmertaState, seat: int) -> Prompt:
    """One seat's standing-order question: an option per slot and Bottle value (and one to cancel each order),
    asked in two steps (issue "the table reads right"): which slot, then on which Bottle. The options and their
    ids are those of the flat menu before the steps, so records and bots are unchanged."""
    mine = {o.slot: o for o in state.orders if o.seat == seat}
    opts = [_cancel_option(s, o.value) for s, o in sorted(mine.items())]
    slots = card_slots(state, seat)
    for s in slots:
        opts += [_set_option(s, v) for v in deck().bottle_values if s not in mine or mine[s].value != v]
    steps = tuple(_slot_step(s, mine[s].value if s in mine else None) for s in sorted({*slots, *mine}))
    return Prompt(seat, ORDER, _ORDERS, tuple(opts), secret=True, optional=True, steps=steps)


_ORDERS = M(
    "omerta.ask.orders",
    "Standing snap orders: snap one of your slots when a Bottle of a value lands (at most one per slot)",
)


# Every seat's standing-order question is made on every look at the table, each with dozens of answers: the
# answers are made once per slot and value (an Option is immutable, so one serves every question). Each answer's
# section is its slot: the table's first step.
@cache
def _set_option(slot: int, value: int) -> Option:
    text = M("omerta.opt.order_set", "Snap {slot} on a Bottle {value}", slot=slot_name(slot), value=value)
    return Option(f"set:{slot}:{value}", text, section=slot_name(slot))


@cache
def _cancel_option(slot: int, value: int) -> Option:
    text = M("omerta.opt.order_cancel", "Cancel: {slot} on a Bottle {value}", slot=slot_name(slot), value=value)
    return Option(f"cancel:{slot}", text, section=slot_name(slot))


@cache
def _slot_step(slot: int, value: int | None) -> Option:
    """The first step's answer for one slot, saying the order it has (``value``; ``None``: none)."""
    if value is None:
        return Option(f"slot:{slot}", slot_name(slot))
    now = M("omerta.opt.order_now", "Now: snap it on a Bottle {value}", value=value)
    return Option(f"slot:{slot}", slot_name(slot), now)


def apply_order(state: OmertaState, choice: Choice, events: list[Event]) -> None:
    """Set, replace or cancel one standing order (only its seat is told)."""
    seat = choice.seat
    parts = choice.option.split(":")
    slot = int(parts[1])
    state.orders = [o for o in state.orders if not (o.seat == seat and o.slot == slot)]
    if parts[0] == "cancel":
        text = M("omerta.log.order_cancel", "Your standing order for {slot} is cancelled.", slot=slot_name(slot))
        events.append(Event("order", text, (seat,)))
        return
    value = int(parts[2])
    state.orders.append(Order(seat, slot, value, state.order_seq))
    state.order_seq += 1
    text = M(
        "omerta.log.order_set",
        "Standing order: you snap {slot} when a Bottle {value} lands.",
        slot=slot_name(slot),
        value=value,
    )
    events.append(Event("order", text, (seat,), {"slot": slot, "value": value}))


def orders_of(state: OmertaState, seat: int) -> list[dict[str, int]]:
    """A seat's own standing orders, earliest set first (view data for that seat only)."""
    mine = sorted((o for o in state.orders if o.seat == seat), key=lambda o: o.seq)
    return [{"slot": o.slot, "value": o.value} for o in mine]
