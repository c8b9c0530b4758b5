"""Character powers (seed 002:29-42; decisions file, table "20 character cards").

A power fires for the active player when its card lands face up on the discard pile by a turn's discard or
swap. Using it is optional: every power prompt offers "decline". A power with no possible target is
skipped at once, with a log line, instead of asking a question that has only one answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

from engine.core import Choice, Event, Option, Prompt
from engine.omerta.cards import deck
from engine.omerta.state import Block, OmertaState
from engine.omerta.table import (
    blocked,
    card_name,
    card_slots,
    draw_card,
    give_penalty,
    movable_slots,
    slot_name,
)

DECLINE = Option("decline", "Don't use the power")

_QUESTIONS = {
    "traitor": "Traitor: deal 2 cards from the draw pile to opponents",
    "mole": "Mole: look at one of your own cards",
    "lady": "Lady: shuffle one opponent's cards",
    "chauffeur": "Chauffeur: discard up to 2 of your own bottles (named by memory)",
    "police": "Police Check: hold one card on the table for two of your turns",
    "mamma": "La Mamma: an opponent skips their next turn",
    "safecracker": "Safecracker: look at the 4 Safe cards",
    "safe": "Safecracker: take one Safe card?",
    "safe_slot": "Safecracker: which of your cards goes into the Safe?",
}


def _opponents(state: OmertaState) -> list[int]:
    n = len(state.players)
    return [(state.active + k) % n for k in range(1, n)]


def and_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _shares(targets: Sequence[int], names: list[str], how: str = "") -> str:
    """Cards to seats in words: "2 cards to Ben", "1 card each to Ben and Cleo", "2 cards to Ben and 1 to Cleo"."""
    counts = Counter(targets)
    seats = list(counts)
    if len(seats) > 1 and set(counts.values()) == {1}:
        return f"1 card{how} each to {and_list([names[t] for t in seats])}"
    parts = [
        f"{counts[t]}{' card' + ('s' if counts[t] != 1 else '') + how if i == 0 else ''} to {names[t]}"
        for i, t in enumerate(seats)
    ]
    return and_list(parts)


def power_options(state: OmertaState, power: str) -> list[Option]:
    """The options of a power prompt, ``decline`` included; only ``[decline]`` when the power has no use."""
    seat = state.active
    names = state.names
    opts: list[Option] = []
    if power == "traitor":
        for targets in combinations_with_replacement(_opponents(state), deck().numbers["traitor_cards"]):
            opts.append(Option("give:" + ",".join(map(str, targets)), "Give " + _shares(targets, names)))
    elif power == "mole":
        opts = [Option(f"look:{i}", f"Look at your {slot_name(i)}") for i in card_slots(state, seat)]
    elif power == "lady":
        opts = [
            Option(f"lady:{t}", f"Shuffle {names[t]}'s cards")
            for t in _opponents(state)
            if len(movable_slots(state, t)) >= 2
        ]
    elif power == "chauffeur":
        mine = movable_slots(state, seat)
        for k in range(1, deck().numbers["chauffeur_max"] + 1):
            opts += [
                Option("drop:" + ",".join(map(str, pick)), "Discard your " + and_list([slot_name(i) for i in pick]))
                for pick in combinations(mine, k)
            ]
    elif power == "police":
        n = len(state.players)
        for k in range(n):
            t = (seat + k) % n
            for i in card_slots(state, t):
                if not blocked(state, t, i):
                    whose = "your" if t == seat else f"{names[t]}'s"
                    opts.append(Option(f"hold:{t},{i}", f"Hold {whose} {slot_name(i)}"))
    elif power == "mamma":
        opts = [Option(f"mamma:{t}", f"{names[t]} skips their next turn") for t in _opponents(state)]
    elif power == "safecracker":
        opts = [Option("look", "Look at the Safe", style="primary")]
    elif power == "safe":
        if movable_slots(state, seat):
            opts = [
                Option(f"take:{k}", f"Take {card_name(c)} from the Safe", style="primary")
                for k, c in enumerate(state.safe)
            ]
        return [*opts, Option("keep", "Keep your cards")]
    elif power == "safe_slot":
        return [Option(f"slot:{i}", f"Put your {slot_name(i)} into the Safe") for i in movable_slots(state, seat)]
    return [*opts, DECLINE] if opts else []


def power_prompt(state: OmertaState) -> Prompt:
    """The open power prompt of the active player."""
    options = tuple(power_options(state, state.power))
    # An idle player does not use the power: decline, or keep their cards at the Safecracker's second question;
    # the third (which card goes into the Safe) has no way back: the first slot.
    ids = [o.id for o in options]
    default = next((d for d in ("decline", "keep") if d in ids), ids[0])
    # the Safecracker's second and third questions name Safe cards only the active player has seen
    return Prompt(
        state.active, state.power, _QUESTIONS[state.power], options, secret=state.power == "safe", default=default
    )


def start_power(state: OmertaState, card: int, events: list[Event]) -> bool:
    """Arm the power of a character that landed face up; False when it has nothing to do."""
    power = deck().cards[card].power
    name = state.names[state.active]
    if power == "alibi":
        events.append(Event("power", "The Alibi has no power."))
        return False
    if not power_options(state, power):
        events.append(Event("power", f"{card_name(card)}: {name} has no possible target, so nothing happens."))
        return False
    state.power = power
    state.phase = "power"
    return True


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(":", 1)[1].split(",")]


def apply_power(state: OmertaState, choice: Choice, events: list[Event]) -> bool:
    """Carry out a legal power choice; True when the turn is over, False when the power asks again."""
    seat, names, power = state.active, state.names, state.power
    me = names[seat]
    if choice.option == "decline":
        events.append(Event("power", f"{me} does not use the {_label(power)}."))
        return True
    if power == "traitor":
        targets: list[int] = []  # the seats that really got a card (fewer when the draw pile runs dry)
        for t in _ints(choice.option):
            card = draw_card(state, events)
            if card is None:
                events.append(Event("power", "No card is left to deal."))
                break
            state.players[t].slots.append(card)
            targets.append(t)
        dealt = f"deals {_shares(targets, names, ' face down')}" if targets else "has no card to deal"
        events.append(Event("power", f"{me} (Traitor) {dealt}."))
    elif power == "mole":
        (i,) = _ints(choice.option)
        card = state.players[seat].slots[i]
        assert card is not None
        events.append(Event("power", f"{me} (Mole) looks at their {slot_name(i)}."))
        events.append(Event("look", f"Your {slot_name(i)} is {card_name(card)}.", (seat,), {"slot": i, "card": card}))
    elif power == "lady":
        (t,) = _ints(choice.option)
        slots = state.players[t].slots
        where = movable_slots(state, t)
        cards = [slots[i] for i in where]
        state.rng.shuffle(cards)
        for i, c in zip(where, cards, strict=True):
            slots[i] = c
        events.append(Event("power", f"{me} (Lady) shuffles {names[t]}'s cards."))
    elif power == "chauffeur":
        _chauffeur(state, _ints(choice.option), events)
    elif power == "police":
        t, i = _ints(choice.option)
        state.blocks.append(Block(seat=t, slot=i, by=seat, turns=deck().numbers["police_turns"]))
        whose = "their own" if t == seat else f"{names[t]}'s"
        turns = deck().numbers["police_turns"]
        events.append(Event("power", f"{me} (Police Check) holds {whose} {slot_name(i)} for {turns} of their turns."))
    elif power == "mamma":
        (t,) = _ints(choice.option)
        turns = deck().numbers["mamma_turns"]
        state.players[t].skips = turns  # a second La Mamma does not add to the first
        what = "their next turn" if turns == 1 else f"their next {turns} turns"
        events.append(Event("power", f"{me} (La Mamma): {names[t]} skips {what}."))
    elif power == "safecracker":
        seen = ", ".join(f"{k + 1}: {card_name(c)}" for k, c in enumerate(state.safe))
        events.append(Event("power", f"{me} (Safecracker) looks at the Safe."))
        events.append(Event("look", f"The Safe holds {seen}.", (seat,), {"safe": list(state.safe)}))
        state.power = "safe"
        return False
    elif power == "safe":
        if choice.option == "keep":
            events.append(Event("power", f"{me} leaves the Safe as it is."))
            return True
        (state.safe_pick,) = _ints(choice.option)
        state.power = "safe_slot"
        return False
    elif power == "safe_slot":
        (i,) = _ints(choice.option)
        slots = state.players[seat].slots
        k = state.safe_pick
        taken, given = state.safe[k], slots[i]
        assert given is not None
        state.safe[k], slots[i] = given, taken
        state.safe_pick = -1
        events.append(Event("power", f"{me} swaps their {slot_name(i)} with a card of the Safe."))
        events.append(Event("look", f"You take {card_name(taken)} into your {slot_name(i)}.", (seat,)))
    return True


def _chauffeur(state: OmertaState, slots: list[int], events: list[Event]) -> None:
    """Reveal each named card: a bottle is discarded (no snap), anything else goes back and costs a penalty."""
    seat = state.active
    me = state.names[seat]
    cards = deck().cards
    for i in slots:
        card = state.players[seat].slots[i]
        assert card is not None
        state.shown.append(card)
        if cards[card].kind == "bottle":
            state.players[seat].slots[i] = None
            state.discard.append(card)
            events.append(Event("power", f"{me} (Chauffeur) reveals {slot_name(i)}: {card_name(card)}, discarded."))
        else:
            events.append(
                Event(
                    "power",
                    f"{me} (Chauffeur) reveals {slot_name(i)}: {card_name(card)}, not a bottle; it goes back.",
                )
            )
            give_penalty(state, seat, events)


def _label(power: str) -> str:
    for c in deck().cards:
        if c.power == power:
            return c.name
    return "Safecracker"
