"""Omerta self-play with players who remember what they saw (their peeks, the cards they drew or took and put
into a slot, the Mole, the Safe, every card revealed by a snap or the Chauffeur) and forget what a Lady shuffles.

They play sensibly enough to make rounds long the way people do: keep low cards, swap out high or unknown ones,
snap the bottles they know, use the powers, and call OMERTA only when they know they have 7 or fewer. Used by
``bench/omerta_rounds.py`` and by the test that rounds stay within the bound ``max_reshuffles`` implies.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import TABLE, Choice, Prompt
from engine.omerta import OmertaGame
from engine.omerta.cards import deck
from engine.omerta.state import OmertaState

GAME = OmertaGame()
CARDS = deck().cards
#: the points an unknown card is worth on average (the 60 bottles and characters)
UNKNOWN = sum(CARDS[c].points for c in deck().playing) / len(deck().playing)


@dataclass
class Memory:
    """What each seat knows of its own slots (slot -> card id), the card it holds, and the Safe it saw."""

    slots: list[dict[int, int]]
    #: a seat calls OMERTA once it knows all its cards and they add up to this or less (the rules allow 7; a
    #: cautious player waits for fewer)
    call_at: int = 7
    held: dict[int, int] = field(default_factory=dict)
    safe: dict[int, list[int]] = field(default_factory=dict)


def _estimate(mem: Memory, state: OmertaState, seat: int, slot: int) -> float:
    card = mem.slots[seat].get(slot)
    return UNKNOWN if card is None else CARDS[card].points


def _worst_slot(mem: Memory, state: OmertaState, seat: int, slots: list[int]) -> int:
    return max(slots, key=lambda i: (_estimate(mem, state, seat, i), -i))


def choose(mem: Memory, state: OmertaState, prompt: Prompt) -> str:
    """The memory player's answer to one of its prompts."""
    seat, kind, ids = prompt.seat, prompt.kind, [o.id for o in prompt.options]
    if kind == "peek":
        return ids[0]
    if kind == "turn":
        known = mem.slots[seat]
        cards = [i for i, c in enumerate(state.players[seat].slots) if c is not None]
        if all(i in known for i in cards) and sum(CARDS[known[i]].points for i in cards) <= mem.call_at:
            return "omerta"
        top = state.discard[-1] if state.discard else None
        swaps = [i for i in cards if not any(b.seat == seat and b.slot == i for b in state.blocks)]
        # take a low bottle from the discard pile when it replaces a card worth clearly more
        gain = (
            _estimate(mem, state, seat, _worst_slot(mem, state, seat, swaps)) - CARDS[top].points
            if top is not None and swaps and CARDS[top].kind == "bottle" and CARDS[top].points <= 3
            else 0
        )
        if "take" in ids and gain >= 4:
            return "take"
        return "draw"
    if kind == "place":
        held = mem.held.get(seat, state.held)
        slots = [int(o.split(":")[1]) for o in ids if o.startswith("swap:")]
        if slots and held is not None:
            worst = _worst_slot(mem, state, seat, slots)
            if CARDS[held].points < _estimate(mem, state, seat, worst) - 1 or "discard" not in ids:
                return f"swap:{worst}"
        return "discard"
    if kind == "mole":
        unknown = [o for o in ids if o.startswith("look:") and int(o.split(":")[1]) not in mem.slots[seat]]
        return unknown[0] if unknown else "decline"
    if kind == "chauffeur":
        bottles = [i for i, c in mem.slots[seat].items() if CARDS[c].kind == "bottle"]
        pick = ",".join(map(str, sorted(bottles, key=lambda i: -CARDS[mem.slots[seat][i]].points)[:2]))
        return f"drop:{pick}" if pick and f"drop:{pick}" in ids else "decline"
    if kind == "police":
        return "decline"
    if kind == "safe":
        takes = [o for o in ids if o.startswith("take:")]
        if takes:
            best = min(takes, key=lambda o: CARDS[state.safe[int(o.split(":")[1])]].points)
            worst = max(_estimate(mem, state, seat, i) for i in mem.slots[seat]) if mem.slots[seat] else UNKNOWN
            if CARDS[state.safe[int(best.split(":")[1])]].points < worst - 1:
                return best
        return "keep"
    if kind == "safe_slot":
        return f"slot:{_worst_slot(mem, state, seat, [int(o.split(':')[1]) for o in ids])}"
    # traitor, lady, mamma, safecracker: use the power (the first option)
    return next(o for o in ids if o != "decline")


def snap_claims(mem: Memory, state: OmertaState) -> list[Choice]:
    """Every seat that remembers a bottle of the window's value in a slot claims it, from the active seat on
    (the order the table judges them in)."""
    n = len(state.players)
    open_seats = {p.seat: p for p in GAME.prompts(state) if p.kind == "snap" and p.seat != TABLE}
    out = []
    for k in range(n):
        seat = (state.active + k) % n
        if seat not in open_seats:
            continue
        for slot, card in sorted(mem.slots[seat].items()):
            info = CARDS[card]
            if info.kind == "bottle" and info.value == state.snap_value and open_seats[seat].option(f"slot:{slot}"):
                out.append(Choice(seat, "snap", f"slot:{slot}"))
                break
    return out


def remember(mem: Memory, state: OmertaState, choice: Choice, before_top: int | None, events: list) -> None:
    """Update what each seat knows after ``choice`` (``before_top``: the discard pile's top before it)."""
    seat = choice.seat
    for e in events:
        if e.to is None or e.kind != "look":
            continue
        (who,) = e.to
        if "cards" in e.data:
            mem.slots[who].update({int(k): v for k, v in e.data["cards"].items() if v is not None})
        elif "slot" in e.data:
            mem.slots[who][e.data["slot"]] = e.data["card"]
        elif "card" in e.data:
            mem.held[who] = e.data["card"]
        elif "safe" in e.data:
            mem.safe[who] = list(e.data["safe"])
    if choice.kind == "turn" and choice.option == "take" and before_top is not None:
        mem.held[seat] = before_top
    elif choice.kind == "place":
        held = mem.held.pop(seat, None)
        if choice.option.startswith("swap:") and held is not None:
            mem.slots[seat][int(choice.option.split(":")[1])] = held
    elif choice.kind == "lady":
        mem.slots[int(choice.option.split(":")[1])] = {}
    elif choice.kind == "safe" and choice.option.startswith("take:") and seat in mem.safe:
        mem.held[seat] = mem.safe[seat][int(choice.option.split(":")[1])]
    elif choice.kind == "safe_slot":
        held = mem.held.pop(seat, None)
        if held is not None:
            mem.slots[seat][int(choice.option.split(":")[1])] = held
    # a revealed card (a snap, the Chauffeur) is known where it went back; an emptied slot is forgotten
    for s, p in enumerate(state.players):
        for i in list(mem.slots[s]):
            if i >= len(p.slots) or p.slots[i] is None:
                del mem.slots[s][i]
    if choice.kind == "snap" and seat != TABLE:
        i = int(choice.option.split(":")[1])
        if state.players[seat].slots[i] is not None:
            mem.slots[seat][i] = state.players[seat].slots[i]
    if choice.kind == "chauffeur" and choice.option.startswith("drop:"):
        for i in map(int, choice.option.split(":")[1].split(",")):
            if state.players[seat].slots[i] is not None:
                mem.slots[seat][i] = state.players[seat].slots[i]


def play(players: int, seed: int, options: dict, call_at: int = 7) -> tuple[OmertaState, list[int]]:
    """A complete game of memory players (calling OMERTA at ``call_at`` points or fewer); returns the final state
    and the number of turns of each round."""
    state = GAME.new([f"P{i + 1}" for i in range(players)], options, seed)
    mem = Memory([{} for _ in range(players)], call_at)
    rounds: list[int] = []
    turns = 0
    for _ in range(200_000):
        if GAME.is_over(state):
            return state, rounds
        prompts = GAME.prompts(state)
        if state.phase == "snap":
            claims = snap_claims(mem, state)
            choice = claims[0] if claims else Choice(TABLE, "snap", "close")
        else:
            prompt = next(p for p in prompts if not p.optional)
            choice = Choice(prompt.seat, prompt.kind, choose(mem, state, prompt))
        top = state.discard[-1] if state.discard else None
        round_before = state.round
        events = GAME.apply(state, choice)
        turns += sum(e.kind == "turn" for e in events)
        if state.round != round_before or GAME.is_over(state):
            rounds.append(turns)
            turns = 0
            mem = Memory([{} for _ in range(players)], call_at)  # a new deal: nothing carries over
        else:
            remember(mem, state, choice, top, events)
    raise AssertionError(f"seed {seed}: the game did not end")
