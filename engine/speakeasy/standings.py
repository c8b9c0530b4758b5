"""The final standings (design §14; solo: seed 003:58.3) and where each player's money came from (issue 11).

Places follow the total; equal totals go to the tie-breakers of ``payouts.toml`` (``final.tie_breakers``), in
order. Every tie on money is reported with the tie-breaker that settled it and both values, or as standing
when none did (two seats then share the place). Solo: you win only with more money than Jo, so a tie on money
(achievements aside) is his win.
"""

from __future__ import annotations

from typing import Any

from engine.speakeasy.board import operating_count
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState

#: Ledger sources in the order the final message lists them: gains, then what the money was spent on.
SOURCE_ORDER = (
    "start",
    "sales",
    "casinos",
    "zones",
    "books",
    "crates",
    "fees",
    "bonuses",
    "buildings",
    "barrels",
    "goons",
    "associate",
    "fees_paid",
    "war",
)
#: The final scoring's parts that are not money in pocket or safe (design §14, seed 003:58.2, achievements).
FINAL_EXTRAS = ("protected", "bottles", "variety", "city_tiles", "achievements")
#: Solo: a tie on money goes to Jo (seed 003:58.3); the name the standings give that rule.
SOLO_TIE = "solo_tie_to_jo"


def breaker_value(state: SpeakeasyState, seat: int, name: str) -> int:
    """A seat's value for one tie-breaker; more is better (turn order: the 1-based final position)."""
    if name == "safe":
        return state.player(seat).safe
    if name == "operating_buildings":
        return operating_count(state, seat)
    if name == "later_turn_order":
        return state.track.index(seat) + 1
    raise ValueError(f"unknown tie-breaker {name!r}")


def key(state: SpeakeasyState, seat: int) -> tuple[int, ...]:
    """The total, then each tie-breaker's value in the data's order: the bigger key ranks higher."""
    breakers = rules(state).final.tie_breakers
    return (state.player(seat).final["total"], *(breaker_value(state, seat, b) for b in breakers))


def ranking(state: SpeakeasyState) -> list[int]:
    """Seats best first (a tie that stands keeps seat order)."""
    return sorted(range(len(state.players)), key=lambda s: key(state, s), reverse=True)


def _step(state: SpeakeasyState, ahead: int, behind: int) -> dict[str, Any]:
    """How ``ahead`` came before ``behind`` on equal money: the first tie-breaker that differs, or none."""
    for name in rules(state).final.tie_breakers:
        va, vb = breaker_value(state, ahead, name), breaker_value(state, behind, name)
        if va != vb:
            return {"ahead": ahead, "behind": behind, "by": name, "values": [va, vb]}
    return {"ahead": ahead, "behind": behind, "by": None, "values": []}


def _solo(state: SpeakeasyState) -> dict[str, Any]:
    jo = state.jo
    assert jo is not None
    human = 1 - jo.seat
    p, bot = state.player(human), state.player(jo.seat)
    money = p.final["total"] - p.final.get("achievements", 0)  # achievements count after the win (003:58.3)
    won = money > bot.final["total"]
    order = [human, jo.seat] if won else [jo.seat, human]
    ties = []
    if money == bot.final["total"]:
        ties.append(
            {
                "total": money,
                "seats": order,
                "steps": [{"ahead": jo.seat, "behind": human, "by": SOLO_TIE, "values": [money, money]}],
            }
        )
    places = [{"seat": s, "place": i + 1, "total": state.player(s).final["total"]} for i, s in enumerate(order)]
    return {"places": places, "ties": ties, "margin": money - bot.final["total"]}


def standings(state: SpeakeasyState) -> dict[str, Any]:
    """``places`` best first (seat, place, total), ``ties``: each group on equal money with how it was ordered.

    Only once the game is over (the totals include the safes)."""
    if state.phase != "over":
        raise ValueError("the standings exist only once the game is over")
    if state.jo is not None:
        return _solo(state)
    order = ranking(state)
    places = []
    for seat in order:
        # a tie that stands shares the place of the first seat with the same key
        same = next(j for j, s in enumerate(order) if key(state, s) == key(state, seat))
        places.append({"seat": seat, "place": same + 1, "total": state.player(seat).final["total"]})
    ties = []
    for total in sorted({pl["total"] for pl in places}, reverse=True):
        group = [s for s in order if state.player(s).final["total"] == total]
        if len(group) > 1:
            steps = [_step(state, a, b) for a, b in zip(group, group[1:], strict=False)]
            ties.append({"total": total, "seats": group, "steps": steps})
    return {"places": places, "ties": ties}


def sources(state: SpeakeasyState, seat: int) -> list[list[Any]]:
    """``[[source, dollars], ...]`` summing to the seat's final total: the ledger (start money, gains, costs as
    negative amounts), then the final scoring's extras. A record older than the ledger shows the difference as
    ``unrecorded``. Empty before the final scoring."""
    p = state.player(seat)
    if not p.final:
        return []
    known = [k for k in SOURCE_ORDER if p.ledger.get(k)]
    known += sorted(k for k in p.ledger if k not in SOURCE_ORDER and p.ledger[k])
    out: list[list[Any]] = [[k, p.ledger[k]] for k in known]
    missing = p.final["pocket"] + p.final["safe"] - sum(p.ledger.values())
    if missing:
        out.append(["unrecorded", missing])
    out += [[k, p.final[k]] for k in FINAL_EXTRAS if p.final.get(k)]
    return out
