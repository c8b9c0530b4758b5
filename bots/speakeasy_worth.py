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
from engine.speakeasy.crew import associate_strength
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


def earning(state: SpeakeasyState, seat: int, d: District, b: Building, prep: Prepare) -> float:
    """What one of the seat's buildings will still earn beyond its flat worth: control of its district at each
    payout to come, an Operating Casino's turn-order pay each Act to come."""
    out = 0.0
    if operating(d, b):
        if seat in controllers(state, d):
            out += prep.control * payouts_left(state)
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
    code = option.split(":")[1]
    goons = int(code.lstrip("a").lstrip("g"))
    p = state.player(seat)
    fee = rules(state).mobsters[p.associate].strength if code.startswith("a") and p.associate is not None else 0
    from_pocket = min(fee, max(0, p.pocket))
    return from_pocket + (fee - from_pocket) * rules(state).tracks.safe_ratio + goons * prep.goon


def war_risk(state: SpeakeasyState, seat: int, worth: dict[tuple[int, int], float], prep: Prepare) -> float:
    """The seat's expected loss in the coming Mob War: each of its buildings in an announced war district, most
    valuable first, is defended if the attack drawn is within the seat's reach with the Goons left (an
    Associate added where its fee can be paid), else lost with its worth (``worth``: by district and space)."""
    threatened = sorted(
        ((w, number) for (number, _space), w in worth.items() if state.districts[number - 1].war_tile),
        reverse=True,
    )
    if not threatened:
        return 0.0
    pool = attacks(state)
    if not pool:
        return 0.0
    p = state.player(seat)
    base = eco.strength_base(p)
    goons = float(p.goons)
    cash = money.spendable(p)
    risk = 0.0
    for w, number in threatened:
        add, fee = associate_strength(state, seat, zone_index(number))
        with_help = add if add and cash >= fee else 0
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
