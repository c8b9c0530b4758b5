"""Speakeasy's final message in words (issue 11): the standings with each tie and how it was broken, and each
player's money by source. The final picture (``render.speakeasy_final``) prints the same words.

Reads the engine's end-of-game view only: ``view["standings"]`` (places and ties) and each player's
``sources`` (``[[source, dollars], ...]``, summing to the total). Both exist only once the game is over. Every
text is in the view's language (``view["lang"]``).
"""

from __future__ import annotations

from typing import Any

from render.speakeasy_text import achievement_name, and_list, lang_words, names, rank_name
from words import Words
from words.msg import Join, M, Msg, P

__all__ = ["and_list"]

View = dict[str, Any]

#: Each money source in words, in the groups the picture colours them by.
SOURCE_WORDS: dict[str, Msg] = {
    "start": M("render.speakeasy.source", "start money"),
    "sales": M("render.speakeasy.source", "barrels sold"),
    "casinos": M("render.speakeasy.source", "Casinos"),
    "zones": M("render.speakeasy.source", "payouts"),
    "books": M("render.speakeasy.source", "Books"),
    "crates": M("render.speakeasy.source", "Crates"),
    "fees": M("render.speakeasy.source", "ambush help received"),
    "bonuses": M("render.speakeasy.source", "bonuses"),
    "buildings": M("render.speakeasy.source", "buildings"),
    "barrels": M("render.speakeasy.source", "barrels bought"),
    "goons": M("render.speakeasy.source", "Goons"),
    "associate": M("render.speakeasy.source", "Associates"),
    "fees_paid": M("render.speakeasy.source", "ambush help paid"),
    "war": M("render.speakeasy.source", "Mob War defence"),
    "unrecorded": M("render.speakeasy.source", "before this was recorded"),
    "protected": M("render.speakeasy.source", "Protected buildings"),
    "bottles": M("render.speakeasy.source", "Helpers' bottles"),
    "variety": M("render.speakeasy.source", "bottle variety"),
    "city_tiles": M("render.speakeasy.source", "City tiles"),
    "achievements": M("render.speakeasy.source", "achievements"),
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
#: Each group in words (the picture's legend and the grouped money lines).
GROUP_WORDS: dict[str, Msg] = {
    "start": M("render.speakeasy.group", "start"),
    "barrels": M("render.speakeasy.group", "barrels"),
    "buildings": M("render.speakeasy.group", "buildings"),
    "payouts": M("render.speakeasy.group", "payouts"),
    "Books": M("render.speakeasy.group", "Books"),
    "Helpers": M("render.speakeasy.group", "Helpers"),
    "City tiles": M("render.speakeasy.group", "City tiles"),
    "achievements": M("render.speakeasy.group", "achievements"),
    OTHER: M("render.speakeasy.group", "other"),
    SPENT: M("render.speakeasy.group", "spent"),
}

#: Each tie-breaker: what the player ahead has, and how its value reads.
BREAKERS: dict[str, Msg] = {
    "safe": M("render.speakeasy.breaker", "more safe money"),
    "operating_buildings": M("render.speakeasy.breaker", "more Operating buildings"),
    "later_turn_order": M("render.speakeasy.breaker", "a later place in the final turn order"),
}


def ordinal(n: int) -> Msg:
    """``1st``, ``2nd``, ``3rd``, ``4th`` (German ``1.``)."""
    last = n if n < 20 else n % 10
    if last == 1:
        return M("render.speakeasy.ordinal", "{n}st", n=n)
    if last == 2:
        return M("render.speakeasy.ordinal", "{n}nd", n=n)
    if last == 3:
        return M("render.speakeasy.ordinal", "{n}rd", n=n)
    return M("render.speakeasy.ordinal", "{n}th", n=n)


def group_of(source: str, amount: int) -> str:
    """The picture's group of one ledger line: costs are "spent", named gains their group, the rest "other"."""
    if amount < 0:
        return SPENT
    return SOURCE_GROUPS.get(source, OTHER)


def dollars(amount: int) -> str:
    """``$12`` or ``−$12``."""
    return f"${amount}" if amount >= 0 else f"−${-amount}"


def _value(by: str, value: int) -> Msg | str:
    if by == "safe":
        return f"${value}"
    if by == "later_turn_order":
        return ordinal(value)
    return str(value)


def tie_words(view: View, tie: dict[str, Any]) -> str:
    """``Tie at $97: Ben is ahead of Anna with more safe money ($60 to $45).`` or that the tie stands."""
    w = lang_words(view)
    who = names(view)
    seats = [int(s) for s in tie["seats"]]
    steps: list[Msg] = []
    for step in tie["steps"]:
        a, b, by = who[int(step["ahead"])], who[int(step["behind"])], step.get("by")
        if by is None:
            steps.append(
                M("render.speakeasy.tie.stays", "{a} and {b} stay tied (no tie-breaker separates them)", a=a, b=b)
            )
        elif by == "solo_tie_to_jo":
            steps.append(M("render.speakeasy.tie.jo", "{a} wins it: you must have more money than Jo to win", a=a))
        else:
            va, vb = (_value(by, int(v)) for v in step["values"])
            steps.append(
                M(
                    "render.speakeasy.tie.ahead",
                    "{a} is ahead of {b} with {breaker} ({va} to {vb})",
                    a=a,
                    b=b,
                    breaker=BREAKERS.get(by, by),
                    va=va,
                    vb=vb,
                )
            )
    return w(
        M(
            "render.speakeasy.tie",
            "Tie at ${total} between {names}: {steps}.",
            total=tie["total"],
            names=Join([who[s] for s in seats]),
            steps="; ".join(w(s) for s in steps),
        )
    )


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


def source_word(key: str, w: Words, grouped: bool = False) -> str:
    """A source (or, ``grouped``, a group) in words."""
    if grouped:
        return w(GROUP_WORDS.get(key, key))
    return w(SOURCE_WORDS.get(key, key.replace("_", " ")))


def sources_line(view: View, seat: int, grouped: bool = False) -> str:
    """``Ben: $45 start money + $30 barrels sold − $20 buildings … = $97`` (``grouped``: by the picture's
    groups, ``$45 start + $30 barrels … − $20 spent``)."""
    w = lang_words(view)
    p = view["players"][seat]
    parts = [(str(k), int(v)) for k, v in p.get("sources") or []]
    if grouped:
        parts = _grouped(parts)
    body = ""
    for i, (k, v) in enumerate(parts):
        word = source_word(k, w, grouped)
        if i == 0:
            body = f"{dollars(v)} {word}"
        else:
            body += f" {'+' if v >= 0 else '−'} ${abs(v)} {word}"
    return f"{p['name']}: {body or '$0'} = ${p.get('final', {}).get('total', 0)}"


def jo_line(view: View) -> str:
    """``Anna's achievements: High Roller · rank: Capo`` in a solo game once ranked, else ``""``."""
    jo = view.get("jo")
    if not isinstance(jo, dict) or not jo.get("rank"):
        return ""
    w = lang_words(view)
    human = next((n for s, n in enumerate(names(view)) if s != jo.get("seat")), "You")
    got = [achievement_name(str(a)) for a in jo.get("achievements") or []]
    shown = Join(got, "comma") if got else M("render.speakeasy.final.none", "none")
    return w(
        M(
            "render.speakeasy.final.jo",
            "{name}'s achievements: {achievements} · rank: {rank}",
            name=human,
            achievements=shown,
            rank=rank_name(str(jo["rank"])),
        )
    )


def final_text(view: View) -> str:
    """The whole final message in words: standings, ties, money by source, and Jo's rank in a solo game."""
    if view.get("phase") != "over" or not view.get("standings"):
        return ""
    w = lang_words(view)
    lines = [w(M("render.speakeasy.final.title", "**Final standings**")), *place_lines(view)]
    lines += [tie_words(view, tie) for tie in view["standings"].get("ties", [])]
    tail = [jo_line(view)] if jo_line(view) else []
    order = [int(pl["seat"]) for pl in view["standings"]["places"]]
    money_head = w(M("render.speakeasy.final.money", "**Where the money came from**"))
    for grouped in (False, True):  # every source if it fits one message (with the headline), else by group
        money = [sources_line(view, seat, grouped) for seat in order]
        text = "\n".join([*lines, money_head, *money, *tail])
        if len(text) <= MESSAGE_MAX - 100:
            break
    return text


def winners_words(view: View) -> Msg:
    """``Anna wins`` / ``Anna and Ben win``: the first places."""
    firsts = [names(view)[int(pl["seat"])] for pl in view["standings"]["places"] if pl["place"] == 1]
    return P("render.speakeasy.final.wins", "{names} wins", "{names} win", len(firsts), names=Join(firsts))


def final_message(view: View) -> str:
    """The words posted with the final picture: who won, then ``final_text``; ``""`` before the game is over."""
    text = final_text(view)
    if not text:
        return ""
    head = lang_words(view)(M("render.speakeasy.final.head", "**{winners} the game.**", winners=winners_words(view)))
    return f"{head}\n{text}"
