"""Omerta in words: the compact summary beside each picture (phones, screen readers) and a seat's private note.

Reads engine views only.
"""

from __future__ import annotations

from typing import Any


def _status(view: dict[str, Any]) -> str:
    names = [p["name"] for p in view["players"]]
    phase = view["phase"]
    active = names[view["active"]]
    if view["over"]:
        winners = " and ".join(names[i] for i in view["winners"])
        return f"Game over · {winners} win"
    if phase == "peek":
        waiting = [p["name"] for p in view["players"] if not p["peeked"]]
        return f"Everyone peeks at {view['numbers']['peek']} cards · waiting for " + ", ".join(waiting)
    if phase == "snap":
        return f"Snap window: anyone may discard a Bottle {view['snap_value']}"
    if phase == "power":
        return f"{active} decides a power"
    if phase in ("drawn", "taken"):
        return f"{active} places a card"
    return f"{active}'s turn"


def headline(view: dict[str, Any]) -> str:
    """``Round 2 of 4 · Ben's turn``."""
    return f"Round {view['round']} of {view['rounds']} · {_status(view)}"


def summary(view: dict[str, Any]) -> str:
    """The table in a few short lines; enough to play without the picture."""
    top = view["discard_top"]
    lines = [f"Discard: {top['name'] if top else 'empty'} · draw pile {view['draw_count']} · Safe {view['safe_count']}"]
    for p in view["players"]:
        marks = []
        held = [str(s["index"] + 1) for s in p["slots"] if s["police"]]
        if held:
            marks.append("Police Check on slot " + ", ".join(held))
        if p["skip_next"]:
            marks.append("skips next turn")
        active = "▶ " if p["seat"] == view["active"] and not view["over"] else ""
        extra = f" ({'; '.join(marks)})" if marks else ""
        lines.append(f"{active}{p['name']} ({p['gangster']}): {p['card_count']} cards, total {p['total']}{extra}")
    if view["holding"] is not None and view["phase"] == "taken":
        lines.append(f"Held from the discard pile: {view['holding']['name']}")
    return "\n".join(lines)


def reveal_summary(view: dict[str, Any]) -> str:
    """The last round's reveal in words."""
    r = view["reveal"]
    if r is None:
        return ""
    names = [p["name"] for p in view["players"]]
    lines = [f"Round {r['round']} reveal:"]
    for p in r["players"]:
        cards = ", ".join(c["name"] for c in p["cards"]) or "no cards"
        lines.append(f"{names[p['seat']]}: {cards} = {p['points']} → scores {p['score']}")
    return "\n".join([*lines, *standings_lines(view)])


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"


def standings_lines(view: dict[str, Any]) -> list[str]:
    """The standings over all rounds so far, lowest total first, each round's score shown; equal totals share
    a place (at the end a tie is a shared win: design decisions, "As many rounds as players")."""
    players = sorted(view["players"], key=lambda p: (p["total"], p["seat"]))
    if not players or not any(p["round_scores"] for p in players):
        return []
    done = max(len(p["round_scores"]) for p in players)
    over = bool(view["over"])
    head = "Final standings (lowest total wins):" if over else f"Standings after round {done} of {view['rounds']}:"
    lines = [head]
    places: dict[int, list[str]] = {}
    place = 0
    for k, p in enumerate(players):
        if k == 0 or p["total"] != players[k - 1]["total"]:
            place = k + 1
        places.setdefault(place, []).append(p["name"])
        rounds = " + ".join(str(s) for s in p["round_scores"])
        won = " 🏆" if over and p["seat"] in view["winners"] else ""
        lines.append(f"{place}. {p['name']} · {p['total']} ({rounds}){won}")
    for place, who in places.items():
        if len(who) > 1:
            total = next(p["total"] for p in players if p["name"] == who[0])
            shared = "a shared win" if over and place == 1 else "they share the place"
            both = ", ".join(who[:-1]) + " and " + who[-1]
            lines.append(f"{both} tie at {total} for {_ordinal(place)}: {shared}.")
    return lines


def private_note(view: dict[str, Any]) -> str:
    """What the viewing seat may see now that others may not."""
    seat = view["viewer"]
    if seat is None:
        return "You are watching this game."
    me = view["players"][seat]
    slots = ", ".join(
        f"{s['index'] + 1}{' (Police Check)' if s['police'] else ''}" for s in me["slots"] if not s["empty"]
    )
    lines = [f"Your face-down cards: slots {slots or 'none'} · total so far {me['total']}"]
    if view["holding"] is not None:
        lines.append(f"You hold {view['holding']['name']}.")
    if view["look"]:
        safe = ", ".join(f"{k + 1}: {c['name']}" for k, c in enumerate(view["look"]["safe"]))
        lines.append(f"The Safe holds {safe}.")
    if view.get("pace") == "post":
        orders = view.get("orders", [])
        shown = "; ".join(f"slot {o['slot'] + 1} on a Bottle {o['value']}" for o in orders)
        lines.append(f"Your standing snap orders: {shown or 'none'} (set or cancel them below).")
    lines.append("-# Omerta is a memory game: what you peeked at is in your private log (DM or private thread).")
    return "\n".join(lines)


#: What a private question is about, in words that name nothing hidden (the board shows this instead of it).
PRIVATE_QUESTIONS = {
    "place": "places the card they drew",
    "safe": "chooses whether to take a Safe card",
}
