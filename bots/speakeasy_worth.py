"""What a Speakeasy bot that prepares sees in a position (issue 25): a building is worth what it will still earn,
and a building in a district the next Mob War is announced for (seed 001:19.2) is worth less by what the bot
expects to lose there, given the attack the war's deck can bring (001:12.3) and the defence the seat can put up
(Strength, Goons, the Associate: 001:14.2). Everything read here is public or the seat's own.

The terms are the project's own judgement for a bot (not rules), tuned on the balance bench (docs/bots.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.speakeasy import economy as eco
from engine.speakeasy import money
from engine.speakeasy.board import operating, zone_index
from engine.speakeasy.crew import associate_strength, parse_support
from engine.speakeasy.loader import rules
from engine.speakeasy.luciano import DECKS, controllers
from engine.speakeasy.state import Building, District, SpeakeasyState

#: The Acts whose end has a Lucky Luciano phase (Mob War and Zone payout: seed 001:3.1).
PAYOUT_ACTS = 3
#: The project's own rough worth in dollars of things that are not yet money (a bot's judgement only, not a rule).
BUILDING_WORTH = {"stills": 6, "speakeasy": 5, "nightclub": 9, "casino": 13}
#: A building that operates earns every Act: worth this much more than one shut by a Cop (own value).
OPERATING_WORTH = 2
BARREL_WORTH = 4


@dataclass(frozen=True)
class Prepare:
    """The prepared bot's weights (dollars; the project's own values)."""

    #: a district the seat controls, per Zone payout still to come
    control: float = 6.0
    #: an Operating Casino, per Act still to come (it pays at turn-order changes)
    casino: float = 3.0
    #: a Goon spent in a defence (its place on the track costs $0-5 to fill again)
    goon: float = 1.5
    #: weight of the expected loss in the coming war (1: the full expected loss)
    risk: float = 1.0


PREPARE = Prepare()


class Reading:
    """What every seat's worth reads from one position, worked out once for all of them (``margin`` values every
    seat of the same position): who controls each district, the coming war's attacks, the payouts left."""

    __slots__ = ("state", "_control", "_attacks", "payouts")

    def __init__(self, state: SpeakeasyState) -> None:
        self.state = state
        self._control: dict[int, list[int]] = {}
        self._attacks: list[int] | None = None
        self.payouts = payouts_left(state)

    def controllers(self, d: District) -> list[int]:
        """``luciano.controllers`` of ``d`` in this position."""
        found = self._control.get(d.number)
        if found is None:
            found = self._control[d.number] = controllers(self.state, d)
        return found

    def attacks(self) -> list[int]:
        """``attacks`` of this position."""
        if self._attacks is None:
            self._attacks = attacks(self.state)
        return self._attacks


def payouts_left(state: SpeakeasyState) -> int:
    """Zone payouts still to come: one at the end of each of Acts 1-3 (the current Act's counts until paid)."""
    if state.act > PAYOUT_ACTS:
        return 0
    left = PAYOUT_ACTS - state.act + 1
    return left - 1 if state.phase == "luciano" and not any(d.war_tile for d in state.districts) else left


def attacks(state: SpeakeasyState) -> list[int]:
    """The attacks the coming Mob War's deck can bring (its tiles' strength + modifier; the order is hidden, the
    tiles are known). Empty when no war is to come."""
    deck = DECKS.get(state.act)
    if deck is None:
        return []
    mobsters = rules(state).mobsters
    return sorted(mobsters[m].strength + mobsters[m].modifier for m in state.mobster_decks.get(deck, []))


def flat_worth(d: District, b: Building) -> float:
    """Every bot's flat worth of a building: its kind, its barrel, whether it operates."""
    return BUILDING_WORTH[b.kind] + (BARREL_WORTH if b.barrel else 0) + (OPERATING_WORTH if operating(d, b) else 0)


def earning(
    state: SpeakeasyState, seat: int, d: District, b: Building, prep: Prepare, reading: Reading | None = None
) -> float:
    """What one of the seat's buildings will still earn beyond its flat worth: control of its district at each
    payout to come, an Operating Casino's turn-order pay each Act to come (``reading``: the position's, shared)."""
    out = 0.0
    if operating(d, b):
        r = reading or Reading(state)
        if r.payouts and seat in r.controllers(d):
            out += prep.control * r.payouts
        if b.kind == "casino":
            out += prep.casino * max(0, 4 - state.act + 1)
    return out


def building_worth(state: SpeakeasyState, seat: int, d: District, index: int, prep: Prepare = PREPARE) -> float:
    """The prepared bot's worth of the seat's building on ``d``'s space ``index``: flat worth, what it will still
    earn, and its Protected score (the value it loses with the building)."""
    b = d.spaces[index].building
    assert b is not None
    protected = rules(state).final.protected[b.kind] if b.family else 0
    return flat_worth(d, b) + earning(state, seat, d, b, prep) + protected


def defence_cost(state: SpeakeasyState, seat: int, option: str, prep: Prepare = PREPARE) -> float:
    """What a defence option (``defend:ag2``) costs in dollars: the Associate's fee as paid (pocket first, then the
    safe at 2:1) and the Goons returned."""
    sup = parse_support(option.split(":")[1], state, seat)
    return fee_cost(state, seat, sup.fee) + sup.goons * prep.goon


def fee_cost(state: SpeakeasyState, seat: int, fee: int) -> float:
    """What paying a bank fee costs the seat in dollars: the pocket first, then the safe at its rate (2:1)."""
    from_pocket = min(fee, max(0, state.player(seat).pocket))
    return from_pocket + (fee - from_pocket) * rules(state).tracks.safe_ratio


def war_risk(
    state: SpeakeasyState,
    seat: int,
    worth: dict[tuple[int, int], float],
    prep: Prepare,
    reading: Reading | None = None,
) -> float:
    """The seat's expected loss in the coming Mob War: each of its buildings in an announced war district, most
    valuable first, is defended if the attack drawn is within the seat's reach with the Goons left (an
    Associate added where its fee can be paid, counted as ``defence_cost`` counts it), else lost with its worth
    (``worth``: by district and space)."""
    threatened = sorted(
        ((w, number) for (number, _space), w in worth.items() if state.districts[number - 1].war_tile),
        reverse=True,
    )
    if not threatened:
        return 0.0
    pool = (reading or Reading(state)).attacks()
    if not pool:
        return 0.0
    p = state.player(seat)
    base = eco.strength_base(p)
    goons = float(p.goons)
    cash = money.spendable(p)
    risk = 0.0
    for w, number in threatened:
        add, fee_paid = associate_strength(state, seat, zone_index(number))
        with_help = add if add and cash >= fee_paid else 0
        fee = fee_cost(state, seat, fee_paid) if with_help else 0.0
        lost = spent = 0.0
        for a in pool:
            need = a - base
            if need <= 0:
                continue
            if need <= goons:  # Goons alone, or the Associate when it is cheaper than the Goons it saves
                cost = need * prep.goon
                if with_help and fee + max(0, need - with_help) * prep.goon < cost:
                    cost = fee + max(0, need - with_help) * prep.goon
                spent += cost
            elif with_help and need - with_help <= goons:
                spent += fee + max(0, need - with_help) * prep.goon
            else:
                lost += 1
        n = len(pool)
        # what a defence takes is part of the loss only while it costs less than the building is worth
        risk += (lost * w + min(spent, w * (n - lost))) / n
        goons = max(0.0, goons - spent / n / prep.goon)
    return prep.risk * risk
