"""Speakeasy's final message in words (issue 11): the standings with each tie and how it was broken, and each
player's money by source. The final picture (``render.speakeasy_final``) prints the same words.

Reads the engine's end-of-game view only: ``view["standings"]`` (places and ties) and each player's
``sources`` (``[[source, dollars], ...]``, summing to the total). Both exist only once the game is over.
"""

from __future__ import annotations

from typing import Any

from render.speakeasy_text import and_list, names

View = dict[str, Any]

#: Each money source in words, in the groups the picture colours them by.
SOURCE_WORDS: dict[str, str] = {
    "start": "start money",
    "sales": "barrels sold",
    "casinos": "Casinos",
    "zones": "payouts",
    "books": "Books",
    "crates": "Crates",
    "fees": "ambush help received",
    "bonuses": "bonuses",
    "buildings": "buildings",
    "barrels": "barrels bought",
    "goons": "Goons",
    "associate": "Associates",
    "fees_paid": "ambush help paid",
    "war": "Mob War defence",
    "unrecorded": "before this was recorded",
    "protected": "Protected buildings",
    "bottles": "Helpers' bottles",
    "variety": "bottle variety",
    "city_tiles": "City tiles",
    "achievements": "achievements",
}
#: The group each source belongs to (the picture's colours and legend).
SOURCE_GROUPS: dict[str, str] = {
    "start": "start",
    "sales": "barrels",
    "casinos": "buildings",
    "protected": "buildings",
    "zones": "payouts",
    "books": "Books",
    "bottles": "Helpers",
    "variety": "Helpers",
    "city_tiles": "City tiles",
    "achievements": "achievements",
}
#: Everything else gained is "other"; everything lost is "spent".
OTHER, SPENT = "other", "spent"
GROUP_ORDER = ("start", "barrels", "buildings", "payouts", "Books", "Helpers", "City tiles", "achievements", OTHER)

#: Each tie-breaker: what the player ahead has, and how its value reads.
BREAKERS: dict[str, str] = {
    "safe": "more safe money",
    "operating_buildings": "more Operating buildings",
    "later_turn_order": "a later place in the final turn order",
}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``."""
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


def group_of(source: str, amount: int) -> str:
    """The picture's group of one ledger line: costs are "spent", named gains their group, the rest "other"."""
    if amount < 0:
        return SPENT
    return SOURCE_GROUPS.get(source, OTHER)


def dollars(amount: int) -> str:
    """``$12`` or ``−$12``."""
    return f"${amount}" if amount >= 0 else f"−${-amount}"


def _value(by: str, value: int) -> str:
    if by == "safe":
        return f"${value}"
    if by == "later_turn_order":
        return ordinal(value)
    return str(value)


def tie_words(view: View, tie: dict[str, Any]) -> str:
    """``Tie at $97: Ben is ahead of Anna with more safe money ($60 to $45).`` or that the tie stands."""
    who = names(view)
    seats = [int(s) for s in tie["seats"]]
    head = f"Tie at ${tie['total']} between {and_list([who[s] for s in seats])}"
    steps = []
    for step in tie["steps"]:
        a, b, by = who[int(step["ahead"])], who[int(step["behind"])], step.get("by")
        if by is None:
            steps.append(f"{a} and {b} stay tied (no tie-breaker separates them)")
        elif by == "solo_tie_to_jo":
            steps.append(f"{a} wins it: you must have more money than Jo to win")
        else:
            va, vb = (_value(by, int(v)) for v in step["values"])
            steps.append(f"{a} is ahead of {b} with {BREAKERS.get(by, by)} ({va} to {vb})")
    return f"{head}: " + "; ".join(steps) + "."


def place_lines(view: View) -> list[str]:
    """``1. Ben · $97 🏆`` per place, best first (a tie that stands shares its number)."""
    table = view.get("standings") or {}
    who = names(view)
    return [
        f"{pl['place']}. {who[int(pl['seat'])]} · ${pl['total']}" + (" 🏆" if pl["place"] == 1 else "")
        for pl in table.get("places", [])
    ]


#: Discord's limit for a message; the money lines fall back to source groups to stay within it.
MESSAGE_MAX = 2000


def _grouped(parts: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The sources summed by the picture's groups (gains by group, then all that was spent)."""
    sums: dict[str, int] = {}
    for k, v in parts:
        group = group_of(k, v)
        sums[group] = sums.get(group, 0) + v
    return [(g, sums[g]) for g in (*GROUP_ORDER, SPENT) if sums.get(g)]


def sources_line(view: View, seat: int, grouped: bool = False) -> str:
    """``Ben: $45 start money + $30 barrels sold − $20 buildings … = $97`` (``grouped``: by the picture's
    groups, ``$45 start + $30 barrels … − $20 spent``)."""
    p = view["players"][seat]
    parts = [(str(k), int(v)) for k, v in p.get("sources") or []]
    if grouped:
        parts = _grouped(parts)
    body = ""
    for i, (k, v) in enumerate(parts):
        word = k if grouped else SOURCE_WORDS.get(k, k.replace("_", " "))
        if i == 0:
            body = f"{dollars(v)} {word}"
        else:
            body += f" {'+' if v >= 0 else '−'} ${abs(v)} {word}"
    return f"{p['name']}: {body or '$0'} = ${p.get('final', {}).get('total', 0)}"


def final_text(view: View) -> str:
    """The whole final message in words: standings, ties, money by source, and Jo's rank in a solo game."""
    if view.get("phase") != "over" or not view.get("standings"):
        return ""
    lines = ["**Final standings**", *place_lines(view)]
    lines += [tie_words(view, tie) for tie in view["standings"].get("ties", [])]
    jo = view.get("jo")
    tail = []
    if isinstance(jo, dict) and jo.get("rank"):
        human = next((n for s, n in enumerate(names(view)) if s != jo.get("seat")), "You")
        got = ", ".join(str(a).replace("_", " ").title() for a in jo.get("achievements") or []) or "none"
        tail.append(f"{human}'s achievements: {got} · rank: {jo['rank']}")
    order = [int(pl["seat"]) for pl in view["standings"]["places"]]
    for grouped in (False, True):  # every source if it fits one message (with the headline), else by group
        money = [sources_line(view, seat, grouped) for seat in order]
        text = "\n".join([*lines, "**Where the money came from**", *money, *tail])
        if len(text) <= MESSAGE_MAX - 100:
            break
    return text


def final_message(view: View) -> str:
    """The words posted with the final picture: who won, then ``final_text``; ``""`` before the game is over."""
    text = final_text(view)
    if not text:
        return ""
    firsts = [names(view)[int(pl["seat"])] for pl in view["standings"]["places"] if pl["place"] == 1]
    head = f"**{and_list(firsts)} {'wins' if len(firsts) == 1 else 'win'} the game.**"
    return f"{head}\n{text}"
