"""Pocket and safe money (design §4): costs are paid from the pocket first, the rest from the safe at 2:1.

Design §4 lets a payer choose how much of a cost comes from the pocket. Paying a dollar from the safe costs two
dollars of final score, so taking as much as possible from the pocket is always at least as good; the engine
does that without asking (a project decision, written in docs/rules/speakeasy.md). Payments to other players
come from the pocket only.

Every dollar a player gains or loses goes through ``earn``, ``pay`` or ``pay_pocket`` and is booked in
``Player.ledger`` under its source (issue 11: the final message shows where each player's money came from), so
the ledger always sums to pocket + safe. Moving money between pocket and safe (the Bagman) books nothing.
"""

from __future__ import annotations

from functools import cache

from engine.core import Event
from engine.msg import M, Msg
from engine.speakeasy.loader import rules
from engine.speakeasy.state import Player
from engine.speakeasy.steps import QuietLog


def book(p: Player, source: str, amount: int) -> None:
    """Count ``amount`` dollars (negative: lost) under ``source`` in the player's ledger."""
    if amount:
        p.ledger[source] = p.ledger.get(source, 0) + amount


def earn(p: Player, source: str, amount: int, to: str = "pocket") -> None:
    """Gain money to the pocket or the safe, booked under ``source`` (and counted in ``income``, gains only)."""
    if to == "safe":
        p.safe += amount
    else:
        p.pocket += amount
    p.income[source] = p.income.get(source, 0) + amount
    book(p, source, amount)


def pay_pocket(p: Player, amount: int, source: str) -> None:
    """Pay from the pocket alone (the Setup Round, a rival's fee, Jo's one pool), booked under ``source``."""
    p.pocket -= amount
    book(p, source, -amount)


def spendable(p: Player, reserve: int = 0) -> int:
    """The largest bank cost the player can cover, keeping ``reserve`` dollars of pocket money aside."""
    pocket = p.pocket - reserve
    if pocket < 0:
        return -1
    return pocket + p.safe // rules().tracks.safe_ratio


def can_pay(p: Player, cost: int, reserve: int = 0) -> bool:
    """Whether a bank cost can be covered (with ``reserve`` pocket dollars kept for payments to players)."""
    return spendable(p, reserve) >= cost


def pay(
    p: Player, cost: int, log: list[Event] | None = None, seat: int | None = None, *, source: str
) -> tuple[int, int]:
    """Pay a bank cost: pocket first, then the safe at 2:1, booked under ``source``. Returns (from pocket, from
    safe).

    How much came from the safe is told to the payer only (``log`` and ``seat``): the public log says the cost.
    """
    if not can_pay(p, cost):
        raise ValueError(f"{p.name} cannot pay ${cost}")
    from_pocket = min(p.pocket, cost)
    from_safe = (cost - from_pocket) * rules().tracks.safe_ratio
    p.pocket -= from_pocket
    p.safe -= from_safe
    book(p, source, -(from_pocket + from_safe))  # the safe's part at 2:1 is what the player really loses
    if from_safe and log is not None and seat is not None and type(log) is not QuietLog:
        text = M(
            "speakeasy.money.paid_split",
            "You paid ${cost}: ${pocket} from your pocket and ${safe} from your safe (2:1).",
            cost=cost,
            pocket=from_pocket,
            safe=from_safe,
        )
        log.append(Event("private", text, (seat,)))
    return from_pocket, from_safe


def split_text(p: Player, cost: int) -> Msg:
    """What a bank cost would take, for the payer's own eyes: "$5: $2 pocket + $6 safe" (the safe pays at 2:1
    what the pocket cannot)."""
    from_pocket = min(max(p.pocket, 0), cost)
    return _split(cost, from_pocket, (cost - from_pocket) * rules().tracks.safe_ratio)


@cache  # asked for every option with a cost in every private question: each distinct split once
def _split(cost: int, from_pocket: int, from_safe: int) -> Msg:
    if not from_safe:
        return M("speakeasy.money.split_pocket", "${cost} from the pocket", cost=cost)
    if not from_pocket:
        return M("speakeasy.money.split_safe", "${cost}: ${safe} from the safe", cost=cost, safe=from_safe)
    return M(
        "speakeasy.money.split_both",
        "${cost}: ${pocket} pocket + ${safe} safe",
        cost=cost,
        pocket=from_pocket,
        safe=from_safe,
    )


def paid_text(cost: int, split: tuple[int, int]) -> str:
    """A payment as the public log tells it: the cost only (the safe's part is private). A dollar amount is a
    plain value, the same in every language."""
    return f"${cost}"
