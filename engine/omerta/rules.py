"""Rounds and turns of Omerta: dealing, the peek, a turn, the snap race and OMERTA.

Sources: seed 002 (``../shared/seeds/002_5e1a9bde598f521e.txt``) and the project's decisions file; the rules
as implemented, with the source of each, are in ``docs/rules/omerta.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations
from typing import Any

from engine.core import TABLE, Choice, Event, IllegalChoice, Option, Prompt, Rng, find_prompt
from engine.msg import Join, M, P
from engine.omerta.cards import deck
from engine.omerta.powers import apply_power, power_prompt, start_power
from engine.omerta.scoring import score_round
from engine.omerta.snaps import (
    ORDER,
    apply_order,
    claims_accepted,
    judge_claim,
    judge_orders,
    order_prompt,
    order_prompts,
)
from engine.omerta.state import OmertaState, Player, Reveal
from engine.omerta.table import (
    card_name,
    draw_card,
    movable_slots,
    pace,
    refill_draw_pile,
    set_slot,
    slot_name,
    version,
    withdraw_orders,
)


def new_state(seats: Sequence[str], options: Mapping[str, Any], seed: int) -> tuple[OmertaState, list[Event]]:
    """Seat the players, deal the gangster cards (Al Capone always among them) and deal round 1."""
    d = deck()
    rng = Rng(seed & ((1 << 64) - 1))
    others = [g for g in d.gangsters if g != d.starter]
    rng.shuffle(others)
    dealt = [d.starter, *others[: len(seats) - 1]]
    rng.shuffle(dealt)
    players = [Player(name=name, gangster=g) for name, g in zip(seats, dealt, strict=True)]
    state = OmertaState(
        names=list(seats),
        options=dict(options),
        rng=rng,
        players=players,
        rounds=int(options.get("rounds") or len(seats)),
        box=sorted(others[len(seats) - 1 :]),
    )
    start = dealt.index(d.starter)
    events = [
        Event(
            "setup",
            M("omerta.log.gangster", "{name} is {gangster}.", name=state.names[i], gangster=card_name(g)),
            data={"seat": i},
        )
        for i, g in enumerate(dealt)
    ]
    text = M(
        "omerta.log.starter",
        "{name} has {gangster} and starts the first round.",
        name=state.names[start],
        gangster=card_name(d.starter),
    )
    events.append(Event("setup", text))
    _deal_round(state, start, events)
    return state, events


def _deal_round(state: OmertaState, start: int, events: list[Event]) -> None:
    """Shuffle every bottle and character together; 4 to each player, 4 to the Safe, 1 face up, the rest to draw."""
    d = deck()
    n = d.numbers
    for seat, player in enumerate(state.players):  # version 3 tells each player their orders are gone
        withdraw_orders(state, seat, range(len(player.slots)), events)
    cards = list(d.playing)
    state.rng.shuffle(cards)
    for p in state.players:
        p.slots = [cards.pop() for _ in range(n["hand_size"])]
        p.skips = 0
        p.peeked = False
    state.safe = [cards.pop() for _ in range(n["safe_size"])]
    state.discard = [cards.pop()]  # it triggers nothing (decisions)
    state.draw = cards
    state.blocks = []
    state.held = None
    state.power = ""
    state.snap_value = 0
    state.reshuffles = 0
    state.claimed = []
    state.orders = []  # standing orders are for one round: the new deal puts other cards in the slots
    state.stamps = []  # every slot has a newly dealt card
    state.start_seat = start
    state.active = start
    state.phase = "peek"
    text = M(
        "omerta.log.round",
        "Round {round} of {rounds}: {hand} cards each, {safe} in the Safe, {card} face up. "
        "Everyone peeks at {peek} of their cards.",
        round=state.round,
        rounds=state.rounds,
        hand=n["hand_size"],
        safe=n["safe_size"],
        card=card_name(state.discard[-1]),
        peek=n["peek"],
    )
    events.append(Event("round", text))


# --- prompts -------------------------------------------------------------------------------------------------


def prompts(state: OmertaState) -> list[Prompt]:
    """Every open prompt of the current phase (and, at ``pace=post``, everyone's optional standing orders)."""
    out = _phase_prompts(state)
    if pace(state) == "post" and state.phase != "over":
        out += order_prompts(state)
    return out


def _phase_prompts(state: OmertaState) -> list[Prompt]:
    phase = state.phase
    if phase == "peek":
        return [_peek_prompt(state, s) for s, p in enumerate(state.players) if not p.peeked]
    if phase == "turn":
        return [_turn_prompt(state)]
    if phase in ("drawn", "taken"):
        return [_place_prompt(state)]
    if phase == "snap":
        return _snap_prompts(state)
    if phase == "power":
        return [power_prompt(state)]
    return []


def _peek_prompt(state: OmertaState, seat: int) -> Prompt:
    slots = tuple(i for i, c in enumerate(state.players[seat].slots) if c is not None)
    count = deck().numbers["peek"]
    opts = _peek_options(slots, count)
    text = M("omerta.ask.peek", "Peek at {n} of your cards, and remember them", n=count)
    return Prompt(seat, "peek", text, opts, default=opts[0].id)


@cache
def _peek_options(slots: tuple[int, ...], count: int) -> tuple[Option, ...]:
    """The peek's options for these slots (made once: every player's peek is asked again at every step of the
    opening, and the options, immutable, depend on the slots alone)."""
    return tuple(
        Option(",".join(map(str, pair)), M("omerta.opt.peek", "Peek at {slots}", slots=Join(map(slot_name, pair))))
        for pair in combinations(slots, count)
    )


def _turn_prompt(state: OmertaState) -> Prompt:
    seat = state.active
    opts = [Option("draw", M("omerta.opt.draw", "Draw a card"), style="primary")]
    if state.discard and movable_slots(state, seat):
        take = M("omerta.opt.take", "Take {card} from the discard pile", card=card_name(state.discard[-1]))
        opts.append(Option("take", take))
    limit = deck().numbers["omerta_limit"]
    why = M("omerta.opt.omerta_detail", "End the round now: you need {n} points or fewer", n=limit)
    opts.append(Option("omerta", M("omerta.opt.omerta", "Call OMERTA"), why, "danger"))
    text = M("omerta.ask.turn", "{name}'s turn: draw, take the discard, or call OMERTA", name=state.names[seat])
    return Prompt(seat, "turn", text, tuple(opts), default="draw")  # never the OMERTA call for an idle player


def _place_prompt(state: OmertaState) -> Prompt:
    seat = state.active
    assert state.held is not None
    held = card_name(state.held)
    opts = [
        Option(f"swap:{i}", M("omerta.opt.swap", "Swap it into {slot}", slot=slot_name(i)))
        for i in movable_slots(state, seat)
    ]
    if state.phase == "drawn":
        opts.append(Option("discard", M("omerta.opt.discard", "Discard {card}", card=held)))
    text = M("omerta.ask.place", "Where does {card} go? The card you swap out is discarded unseen", card=held)
    # An idle player discards a drawn card; one taken from the discard pile must be swapped: the first slot.
    default = "discard" if state.phase == "drawn" else opts[0].id
    return Prompt(seat, "place", text, tuple(opts), secret=state.phase == "drawn", default=default)


def _snap_prompts(state: OmertaState) -> list[Prompt]:
    race = f"snap:{state.turn}"
    text = M(
        "omerta.ask.snap",
        "Snap! Discard a Bottle {value} of your own, if you think you have one",
        value=state.snap_value,
    )
    out = []
    for seat in range(len(state.players)):
        if seat in state.claimed:
            continue  # one claim per seat and window (version 2 judges the next claim after a wrong one)
        opts = tuple(_snap_option(i) for i in movable_slots(state, seat))
        if opts:
            out.append(Prompt(seat, "snap", text, opts, race=race))
    # A race is never skipped for a player (the table's timer closes it): no default but the timer's own.
    close = (Option("close", M("omerta.opt.snap_close", "Nobody snaps")),)
    out.append(
        Prompt(TABLE, "snap", M("omerta.ask.snap_close", "The snap window closes"), close, race=race, default="close")
    )
    return out


@cache
def _snap_option(slot: int) -> Option:
    """A claim of one slot in a snap window (made once per slot: every seat's question has these answers)."""
    return Option(f"slot:{slot}", M("omerta.opt.snap", "Snap {slot}", slot=slot_name(slot)))


# --- apply ---------------------------------------------------------------------------------------------------


def apply(state: OmertaState, choice: Choice) -> list[Event]:
    """Apply a legal choice (checked first against the open prompts)."""
    if state.phase == "over":
        raise IllegalChoice(M("omerta.error.over", "The game is over; nothing can be played."))
    _check(state, choice)
    events: list[Event] = []
    if choice.kind == ORDER:  # a standing order changes nothing on the table (what was shown stays shown)
        apply_order(state, choice, events)
        return events
    if not (choice.kind == "snap" and state.claimed):  # every card a window's claims revealed stays shown
        state.shown = []
    if choice.kind == "peek":
        _peek(state, choice, events)
    elif choice.kind == "turn":
        _turn(state, choice, events)
    elif choice.kind == "place":
        _place(state, choice, events)
    elif choice.kind == "snap":
        _snap(state, choice, events)
    elif apply_power(state, choice, events):
        _end_turn(state, events)
    return events


def _check(state: OmertaState, choice: Choice) -> None:
    """``find_prompt`` against the open prompts, asking first only those of the choice's own kind (a standing
    order, or the phase's): every seat has at most one prompt of a kind, so that answer is the same, and the
    others' standing-order questions (dozens of options each, at ``pace=post``) are not built for every choice.
    A refusal is made again against every prompt, for its full message."""
    if not isinstance(choice, Choice):
        find_prompt(prompts(state), choice)  # refused, with its message
    seat = choice.seat
    if choice.kind == ORDER:
        post = pace(state) == "post" and state.phase != "over"
        own = [order_prompt(state, seat)] if post and type(seat) is int and 0 <= seat < len(state.players) else []
    else:
        own = _phase_prompts(state)
    try:
        find_prompt(own, choice)
    except IllegalChoice:
        find_prompt(prompts(state), choice)
        raise


def _peek(state: OmertaState, choice: Choice, events: list[Event]) -> None:
    seat = choice.seat
    player = state.players[seat]
    slots = [int(x) for x in choice.option.split(",")]
    seen = [(i, player.slots[i]) for i in slots]
    each = [
        M("omerta.log.peek_card", "{slot} is {card}", slot=slot_name(i), card=card_name(c))
        for i, c in seen
        if c is not None
    ]
    text = M("omerta.log.peek_look", "You peek: {cards}.", cards=Join(each, "comma"))
    events.append(Event("look", text, (seat,), {"cards": {str(i): c for i, c in seen}}))
    peeked = P(
        "omerta.log.peek",
        "{name} has peeked at {n} card.",
        "{name} has peeked at {n} cards.",
        len(slots),
        name=state.names[seat],
    )
    events.append(Event("peek", peeked))
    player.peeked = True
    if all(p.peeked for p in state.players):
        _begin_turn(state, state.start_seat, events)


def _turn(state: OmertaState, choice: Choice, events: list[Event]) -> None:
    seat = choice.seat
    me = state.names[seat]
    if choice.option == "omerta":
        events.append(Event("omerta", M("omerta.log.call", "{name} calls OMERTA!", name=me)))
        _end_round(state, seat, events)
    elif choice.option == "draw":
        card = draw_card(state, events)
        assert card is not None  # _begin_turn ends the round when nothing can be drawn
        state.held = card
        state.phase = "drawn"
        events.append(Event("draw", M("omerta.log.draw", "{name} draws a card.", name=me)))
        events.append(
            Event("look", M("omerta.log.drew", "You drew {card}.", card=card_name(card)), (seat,), {"card": card})
        )
    else:
        state.held = state.discard.pop()
        state.phase = "taken"
        text = M("omerta.log.take", "{name} takes {card} from the discard pile.", name=me, card=card_name(state.held))
        events.append(Event("take", text))


def _place(state: OmertaState, choice: Choice, events: list[Event]) -> None:
    seat = choice.seat
    me = state.names[seat]
    held = state.held
    assert held is not None
    state.held = None
    if choice.option == "discard":
        out = held
        events.append(
            Event("discard", M("omerta.log.discard", "{name} discards {card}.", name=me, card=card_name(out)))
        )
    else:
        i = int(choice.option.split(":")[1])
        out = state.players[seat].slots[i]
        assert out is not None
        text = M(
            "omerta.log.swap",
            "{name} swaps a card into {slot}; out comes {card}.",
            name=me,
            slot=slot_name(i),
            card=card_name(out),
        )
        events.append(Event("swap", text))
        set_slot(state, seat, i, held, events)  # before the card that comes out lands and the orders are judged
    _land(state, out, events)


def _land(state: OmertaState, card: int, events: list[Event]) -> None:
    """A card lands face up on the discard pile by the turn's discard or swap (002:25.1)."""
    state.discard.append(card)
    info = deck().cards[card]
    if info.kind == "bottle":
        state.snap_value = info.value
        if pace(state) == "post":  # no window: the standing orders are the claims, judged now
            judge_orders(state, events)
            _end_turn(state, events)
            return
        state.phase = "snap"
        state.claimed = []
        text = M("omerta.log.snap_open", "Snap window: anyone may discard a Bottle {value}.", value=info.value)
        events.append(Event("snap_open", text))
    elif not start_power(state, card, events):
        _end_turn(state, events)


def _snap(state: OmertaState, choice: Choice, events: list[Event]) -> None:
    if choice.seat == TABLE:
        if state.claimed:  # issue 24: after a wrong snap "Nobody snaps" was untrue
            events.append(Event("snap", M("omerta.log.snap_no_more", "The snap window closes: no one else snaps.")))
        else:
            events.append(Event("snap", M("omerta.log.snap_none", "Nobody snaps.")))
        _end_turn(state, events)
        return
    seat = choice.seat
    right = judge_claim(state, seat, int(choice.option.split(":")[1]), state.names[seat], events)
    if not right and version(state) >= 2 and claims_accepted(state):
        state.claimed.append(seat)  # the window stays open: the next claim is judged (decisions "Version 2")
        return
    _end_turn(state, events)


def _end_turn(state: OmertaState, events: list[Event]) -> None:
    state.power = ""
    state.snap_value = 0
    state.claimed = []
    _begin_turn(state, (state.active + 1) % len(state.players), events)


def _begin_turn(state: OmertaState, seat: int, events: list[Event]) -> None:
    """Start ``seat``'s turn: Police Checks count down, La Mamma skips, an empty draw pile is refilled."""
    n = len(state.players)
    # every pass of the loop uses up one skip, so this bound is never reached with skips left over
    for _ in range(sum(p.skips for p in state.players) + 1):
        state.turn += 1
        for b in state.blocks:
            if b.by == seat:
                b.turns -= 1
        for b in [b for b in state.blocks if b.turns <= 0]:
            state.blocks.remove(b)
            text = M(
                "omerta.log.police_end",
                "The Police Check on {name}'s {slot} ends.",
                name=state.names[b.seat],
                slot=slot_name(b.slot),
            )
            events.append(Event("police", text))
        player = state.players[seat]
        if not player.skips:
            break
        player.skips -= 1
        events.append(Event("skip", M("omerta.log.skip", "{name} skips this turn (La Mamma).", name=state.names[seat])))
        seat = (seat + 1) % n
    refill_draw_pile(state, events)
    if not state.draw:
        events.append(Event("dry", M("omerta.log.dry", "No card is left to draw: the round ends without a caller.")))
        _end_round(state, None, events)
        return
    state.active = seat
    state.phase = "turn"
    events.append(Event("turn", M("omerta.log.turn", "{name}'s turn.", name=state.names[seat]), data={"seat": seat}))


def _end_round(state: OmertaState, caller: int | None, events: list[Event]) -> None:
    """Everyone reveals; the round is scored; the next round is dealt or the game ends."""
    d = deck()
    cards = [[c for c in p.slots if c is not None] for p in state.players]
    points = [sum(d.cards[c].points for c in hand) for hand in cards]
    scores, made_it = score_round(points, caller, d.numbers["omerta_limit"], d.numbers["caller_penalty"])
    state.history.append(Reveal(state.round, caller, cards, points, scores, made_it))
    for p, s in zip(state.players, scores, strict=True):
        p.round_scores.append(s)
        p.total += s
    for i, p in enumerate(state.players):
        shown = Join([card_name(c) for c in cards[i]], "comma") if cards[i] else M("omerta.log.no_cards", "no cards")
        text = M(
            "omerta.log.reveal",
            "{name}: {cards} = {points} points; scores {score} (total {total}).",
            name=p.name,
            cards=shown,
            points=points[i],
            score=scores[i],
            total=p.total,
        )
        events.append(Event("reveal", text))
    if caller is not None:
        who = state.names[caller]
        if made_it:
            verdict = M("omerta.log.made_it", "{name} makes it and scores 0.", name=who)
        else:
            penalty = d.numbers["caller_penalty"]
            verdict = M("omerta.log.failed", "{name} fails and takes {n} penalty points.", name=who, n=penalty)
        events.append(Event("verdict", verdict))
    # every card of the round goes back to the deck for the next deal
    state.held = None
    if state.round >= state.rounds:
        state.phase = "over"
        best = min(p.total for p in state.players)
        winners = [p.name for p in state.players if p.total == best]
        text = P(
            "omerta.log.over",
            "Game over. {names} wins with {points} points.",
            "Game over. {names} win with {points} points.",
            len(winners),
            names=Join(winners),
            points=best,
        )
        events.append(Event("over", text))
        return
    state.round += 1
    _deal_round(state, _next_start(state), events)


def _next_start(state: OmertaState) -> int:
    """The highest total starts; a tie goes to the earliest seat after the previous start player."""
    n = len(state.players)
    order = [(state.start_seat + k) % n for k in range(1, n + 1)]
    best = max(p.total for p in state.players)
    return next(s for s in order if state.players[s].total == best)
