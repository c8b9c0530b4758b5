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
from engine.msg import Join, M, Msg, P, T
from engine.omerta.cards import deck
from engine.omerta.state import Block, OmertaState
from engine.omerta.table import (
    blocked,
    card_name,
    card_slots,
    draw_card,
    give_penalty,
    movable_slots,
    set_slot,
    slot_name,
)

DECLINE = Option("decline", M("omerta.opt.decline", "Don't use the power"))

_QUESTIONS = {
    "traitor": M("omerta.ask.traitor", "Traitor: deal 2 cards from the draw pile to opponents"),
    "mole": M("omerta.ask.mole", "Mole: look at one of your own cards"),
    "lady": M("omerta.ask.lady", "Lady: shuffle one opponent's cards"),
    "chauffeur": M("omerta.ask.chauffeur", "Chauffeur: discard up to 2 of your own bottles (named by memory)"),
    "police": M("omerta.ask.police", "Police Check: hold one card on the table for two of your turns"),
    "mamma": M("omerta.ask.mamma", "La Mamma: an opponent skips their next turn"),
    "safecracker": M("omerta.ask.safecracker", "Safecracker: look at the 4 Safe cards"),
    "safe": M("omerta.ask.safe", "Safecracker: take one Safe card?"),
    "safe_slot": M("omerta.ask.safe_slot", "Safecracker: which of your cards goes into the Safe?"),
}


def _opponents(state: OmertaState) -> list[int]:
    n = len(state.players)
    return [(state.active + k) % n for k in range(1, n)]


def _shares(targets: Sequence[int], names: list[str]) -> Msg:
    """Cards to seats in words: "2 cards to Ben", "1 card each to Ben and Cleo", "2 cards to Ben and 1 to Cleo"."""
    counts = Counter(targets)
    seats = list(counts)
    if len(seats) > 1 and set(counts.values()) == {1}:
        return M("omerta.opt.give_each", "1 card each to {names}", names=Join([names[t] for t in seats]))
    first, *more = seats
    parts = [P("omerta.opt.give_first", "{n} card to {name}", "{n} cards to {name}", counts[first], name=names[first])]
    parts += [M("omerta.opt.give_more", "{n} to {name}", n=counts[t], name=names[t]) for t in more]
    return Join(parts)


def _dealt(targets: Sequence[int], names: list[str]) -> Msg:
    """Like ``_shares``, for the log: "2 cards face down to Ben", "1 card face down each to Ben and Cleo"."""
    counts = Counter(targets)
    seats = list(counts)
    if len(seats) > 1 and set(counts.values()) == {1}:
        return M("omerta.log.deal_each", "1 card face down each to {names}", names=Join([names[t] for t in seats]))
    first, *more = seats
    n = counts[first]
    parts = [
        P(
            "omerta.log.deal_first",
            "{n} card face down to {name}",
            "{n} cards face down to {name}",
            n,
            name=names[first],
        )
    ]
    parts += [M("omerta.log.deal_more", "{n} to {name}", n=counts[t], name=names[t]) for t in more]
    return Join(parts)


def power_options(state: OmertaState, power: str) -> list[Option]:
    """The options of a power prompt, ``decline`` included; only ``[decline]`` when the power has no use."""
    seat = state.active
    names = state.names
    opts: list[Option] = []
    if power == "traitor":
        for targets in combinations_with_replacement(_opponents(state), deck().numbers["traitor_cards"]):
            give = M("omerta.opt.give", "Give {shares}", shares=_shares(targets, names))
            opts.append(Option("give:" + ",".join(map(str, targets)), give))
    elif power == "mole":
        opts = [
            Option(f"look:{i}", M("omerta.opt.look", "Look at your {slot}", slot=slot_name(i)))
            for i in card_slots(state, seat)
        ]
    elif power == "lady":
        opts = [
            Option(f"lady:{t}", M("omerta.opt.lady", "Shuffle {name}'s cards", name=names[t]))
            for t in _opponents(state)
            if len(movable_slots(state, t)) >= 2
        ]
    elif power == "chauffeur":
        mine = movable_slots(state, seat)
        for k in range(1, deck().numbers["chauffeur_max"] + 1):
            opts += [
                Option(
                    "drop:" + ",".join(map(str, pick)),
                    P(
                        "omerta.opt.drop",
                        "Discard your {slots}",
                        "Discard your {slots}",
                        len(pick),
                        slots=Join(map(slot_name, pick)),
                    ),
                )
                for pick in combinations(mine, k)
            ]
    elif power == "police":
        n = len(state.players)
        for k in range(n):
            t = (seat + k) % n
            for i in card_slots(state, t):
                if not blocked(state, t, i):
                    if t == seat:
                        hold = M("omerta.opt.hold_own", "Hold your {slot}", slot=slot_name(i))
                    else:
                        hold = M("omerta.opt.hold", "Hold {name}'s {slot}", name=names[t], slot=slot_name(i))
                    opts.append(Option(f"hold:{t},{i}", hold))
    elif power == "mamma":
        opts = [
            Option(f"mamma:{t}", M("omerta.opt.mamma", "{name} skips their next turn", name=names[t]))
            for t in _opponents(state)
        ]
    elif power == "safecracker":
        opts = [Option("look", M("omerta.opt.safe_look", "Look at the Safe"), style="primary")]
    elif power == "safe":
        if movable_slots(state, seat):
            opts = [
                Option(
                    f"take:{k}",
                    M("omerta.opt.safe_take", "Take {card} from the Safe", card=card_name(c)),
                    style="primary",
                )
                for k, c in enumerate(state.safe)
            ]
        return [*opts, Option("keep", M("omerta.opt.safe_keep", "Keep your cards"))]
    elif power == "safe_slot":
        return [
            Option(f"slot:{i}", M("omerta.opt.safe_slot", "Put your {slot} into the Safe", slot=slot_name(i)))
            for i in movable_slots(state, seat)
        ]
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
        events.append(Event("power", M("omerta.log.alibi", "The Alibi has no power.")))
        return False
    if not power_options(state, power):
        text = M(
            "omerta.log.no_target",
            "{card}: {name} has no possible target, so nothing happens.",
            card=card_name(card),
            name=name,
        )
        events.append(Event("power", text))
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
        events.append(
            Event("power", M("omerta.log.decline", "{name} does not use the {card}.", name=me, card=_label(power)))
        )
        return True
    if power == "traitor":
        targets: list[int] = []  # the seats that really got a card (fewer when the draw pile runs dry)
        for t in _ints(choice.option):
            card = draw_card(state, events)
            if card is None:
                events.append(Event("power", M("omerta.log.traitor_dry", "No card is left to deal.")))
                break
            state.players[t].slots.append(card)
            targets.append(t)
        if targets:
            text = M("omerta.log.traitor", "{name} (Traitor) deals {shares}.", name=me, shares=_dealt(targets, names))
        else:
            text = M("omerta.log.traitor_none", "{name} (Traitor) has no card to deal.", name=me)
        events.append(Event("power", text))
    elif power == "mole":
        (i,) = _ints(choice.option)
        card = state.players[seat].slots[i]
        assert card is not None
        events.append(
            Event("power", M("omerta.log.mole", "{name} (Mole) looks at their {slot}.", name=me, slot=slot_name(i)))
        )
        look = M("omerta.log.mole_look", "Your {slot} is {card}.", slot=slot_name(i), card=card_name(card))
        events.append(Event("look", look, (seat,), {"slot": i, "card": card}))
    elif power == "lady":
        (t,) = _ints(choice.option)
        slots = state.players[t].slots
        where = movable_slots(state, t)
        cards = [slots[i] for i in where]
        state.rng.shuffle(cards)
        events.append(
            Event("power", M("omerta.log.lady", "{name} (Lady) shuffles {target}'s cards.", name=me, target=names[t]))
        )
        for i, c in zip(where, cards, strict=True):
            set_slot(state, t, i, c, events)  # every shuffled slot, even one that got its own card back
    elif power == "chauffeur":
        _chauffeur(state, _ints(choice.option), events)
    elif power == "police":
        t, i = _ints(choice.option)
        state.blocks.append(Block(seat=t, slot=i, by=seat, turns=deck().numbers["police_turns"]))
        turns = deck().numbers["police_turns"]
        if t == seat:
            text = P(
                "omerta.log.police_own",
                "{name} (Police Check) holds their own {slot} for {n} of their turns.",
                "{name} (Police Check) holds their own {slot} for {n} of their turns.",
                turns,
                name=me,
                slot=slot_name(i),
            )
        else:
            text = P(
                "omerta.log.police",
                "{name} (Police Check) holds {target}'s {slot} for {n} of their turns.",
                "{name} (Police Check) holds {target}'s {slot} for {n} of their turns.",
                turns,
                name=me,
                target=names[t],
                slot=slot_name(i),
            )
        events.append(Event("power", text))
    elif power == "mamma":
        (t,) = _ints(choice.option)
        turns = deck().numbers["mamma_turns"]
        state.players[t].skips = turns  # a second La Mamma does not add to the first
        text = P(
            "omerta.log.mamma",
            "{name} (La Mamma): {target} skips their next turn.",
            "{name} (La Mamma): {target} skips their next {n} turns.",
            turns,
            name=me,
            target=names[t],
        )
        events.append(Event("power", text))
    elif power == "safecracker":
        seen = Join(
            [M("omerta.log.safe_card", "{k}: {card}", k=k + 1, card=card_name(c)) for k, c in enumerate(state.safe)],
            "comma",
        )
        events.append(Event("power", M("omerta.log.safecracker", "{name} (Safecracker) looks at the Safe.", name=me)))
        look = M("omerta.log.safe_look", "The Safe holds {cards}.", cards=seen)
        events.append(Event("look", look, (seat,), {"safe": list(state.safe)}))
        state.power = "safe"
        return False
    elif power == "safe":
        if choice.option == "keep":
            events.append(Event("power", M("omerta.log.safe_keep", "{name} leaves the Safe as it is.", name=me)))
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
        state.safe[k] = given
        state.safe_pick = -1
        text = M(
            "omerta.log.safe_swap", "{name} swaps their {slot} with a card of the Safe.", name=me, slot=slot_name(i)
        )
        events.append(Event("power", text))
        look = M("omerta.log.safe_take", "You take {card} into your {slot}.", card=card_name(taken), slot=slot_name(i))
        events.append(Event("look", look, (seat,)))
        set_slot(state, seat, i, taken, events)
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
            state.discard.append(card)
            text = M(
                "omerta.log.chauffeur",
                "{name} (Chauffeur) reveals {slot}: {card}, discarded.",
                name=me,
                slot=slot_name(i),
                card=card_name(card),
            )
            events.append(Event("power", text))
            set_slot(state, seat, i, None, events)
        else:
            text = M(
                "omerta.log.chauffeur_wrong",
                "{name} (Chauffeur) reveals {slot}: {card}, not a bottle; it goes back.",
                name=me,
                slot=slot_name(i),
                card=card_name(card),
            )
            events.append(Event("power", text))
            give_penalty(state, seat, events)


def _label(power: str) -> Msg:
    """The name of the character card with this power (the Safecracker's later questions are its own)."""
    for c in deck().cards:
        if c.power == power:
            return T("omerta.card", c.name)
    return T("omerta.card", "Safecracker")
