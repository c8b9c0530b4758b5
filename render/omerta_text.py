"""Omerta in words: the compact summary beside each picture (phones, screen readers) and a seat's private note.

Reads engine views only. Every word is made in the view's language (``view["lang"]``, English by default).
"""

from __future__ import annotations

from typing import Any

from render.omerta_words import card_name, gangster_name, words_of
from words import Words
from words.msg import Join, M, Msg, P


def _status(view: dict[str, Any], w: Words) -> str:
    names = [p["name"] for p in view["players"]]
    phase = view["phase"]
    active = names[view["active"]]
    if view["over"]:
        winners = [names[i] for i in view["winners"]]
        return w(
            P(
                "render.omerta.status_over",
                "Game over · {names} wins",
                "Game over · {names} win",
                len(winners),
                names=Join(winners),
            )
        )
    if phase == "peek":
        waiting = [p["name"] for p in view["players"] if not p["peeked"]]
        return w(
            M(
                "render.omerta.status_peek",
                "Everyone peeks at {n} cards · waiting for {names}",
                n=view["numbers"]["peek"],
                names=Join(waiting, "comma"),
            )
        )
    if phase == "snap":
        return w(
            M("render.omerta.status_snap", "Snap window: anyone may discard a Bottle {value}", value=view["snap_value"])
        )
    if phase == "power":
        return w(M("render.omerta.status_power", "{name} decides a power", name=active))
    if phase in ("drawn", "taken"):
        return w(M("render.omerta.status_place", "{name} places a card", name=active))
    return w(M("render.omerta.status_turn", "{name}'s turn", name=active))


def headline(view: dict[str, Any]) -> str:
    """``Round 2 of 4 · Ben's turn``."""
    w = words_of(view)
    return w(
        M(
            "render.omerta.headline",
            "Round {round} of {rounds} · {status}",
            round=view["round"],
            rounds=view["rounds"],
            status=_status(view, w),
        )
    )


def summary(view: dict[str, Any]) -> str:
    """The table in a few short lines; enough to play without the picture."""
    w = words_of(view)
    top = view["discard_top"]
    shown = card_name(top) if top else M("render.omerta.empty", "empty")
    lines = [
        w(
            M(
                "render.omerta.summary_piles",
                "Discard: {top} · draw pile {draw} · Safe {safe}",
                top=shown,
                draw=view["draw_count"],
                safe=view["safe_count"],
            )
        )
    ]
    for p in view["players"]:
        marks = []
        held = [str(s["index"] + 1) for s in p["slots"] if s["police"]]
        if held:
            marks.append(
                w(
                    P(
                        "render.omerta.police_on",
                        "Police Check on slot {slots}",
                        "Police Check on slots {slots}",
                        len(held),
                        slots=", ".join(held),
                    )
                )
            )
        if p["skip_next"]:
            marks.append(w(M("render.omerta.skips", "skips next turn")))
        active = "▶ " if p["seat"] == view["active"] and not view["over"] else ""
        extra = f" ({'; '.join(marks)})" if marks else ""
        line = M(
            "render.omerta.summary_player",
            "{name} ({gangster}): {cards}, total {total}",
            name=p["name"],
            gangster=gangster_name(p),
            cards=P("render.omerta.cards", "{n} card", "{n} cards", p["card_count"]),
            total=p["total"],
        )
        lines.append(f"{active}{w(line)}{extra}")
    if view["holding"] is not None and view["phase"] == "taken":
        lines.append(w(M("render.omerta.held", "Held from the discard pile: {card}", card=card_name(view["holding"]))))
    return "\n".join(lines)


def _cards(cards: list[dict[str, Any]]) -> Msg:
    if not cards:
        return M("render.omerta.no_cards", "no cards")
    return Join([card_name(c) for c in cards], "comma")


def reveal_summary(view: dict[str, Any]) -> str:
    """The last round's reveal in words."""
    r = view["reveal"]
    if r is None:
        return ""
    w = words_of(view)
    names = [p["name"] for p in view["players"]]
    lines = [w(M("render.omerta.reveal_head", "Round {round} reveal:", round=r["round"]))]
    for p in r["players"]:
        line = M(
            "render.omerta.reveal_line",
            "{name}: {cards} = {points} → scores {score}",
            name=names[p["seat"]],
            cards=_cards(p["cards"]),
            points=p["points"],
            score=p["score"],
        )
        lines.append(w(line))
    return "\n".join([*lines, *standings_lines(view)])


def _ordinal(n: int) -> Msg:
    if n == 1:
        return M("render.omerta.ordinal_1", "{n}st", n=n)
    if n == 2:
        return M("render.omerta.ordinal_2", "{n}nd", n=n)
    if n == 3:
        return M("render.omerta.ordinal_3", "{n}rd", n=n)
    return M("render.omerta.ordinal", "{n}th", n=n)


def standings_lines(view: dict[str, Any]) -> list[str]:
    """The standings over all rounds so far, lowest total first, each round's score shown; equal totals share
    a place (at the end a tie is a shared win: design decisions, "As many rounds as players")."""
    w = words_of(view)
    players = sorted(view["players"], key=lambda p: (p["total"], p["seat"]))
    if not players or not any(p["round_scores"] for p in players):
        return []
    done = max(len(p["round_scores"]) for p in players)
    over = bool(view["over"])
    if over:
        head = w(M("render.omerta.standings_final", "Final standings (lowest total wins):"))
    else:
        head = w(
            M(
                "render.omerta.standings",
                "Standings after round {round} of {rounds}:",
                round=done,
                rounds=view["rounds"],
            )
        )
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
            if over and place == 1:
                shared = M("render.omerta.tie_win", "a shared win")
            else:
                shared = M("render.omerta.tie_place", "they share the place")
            line = M(
                "render.omerta.tie",
                "{names} tie at {total} for {place}: {shared}.",
                names=Join(who),
                total=total,
                place=_ordinal(place),
                shared=shared,
            )
            lines.append(w(line))
    return lines


def private_note(view: dict[str, Any]) -> str:
    """What the viewing seat may see now that others may not."""
    w = words_of(view)
    seat = view["viewer"]
    if seat is None:
        return w(M("render.omerta.watching", "You are watching this game."))
    me = view["players"][seat]
    slots = [
        w(M("render.omerta.slot_police", "{n} (Police Check)", n=s["index"] + 1))
        if s["police"]
        else str(s["index"] + 1)
        for s in me["slots"]
        if not s["empty"]
    ]
    listed = ", ".join(slots) if slots else w(M("render.omerta.none", "none"))
    lines = [
        w(
            M(
                "render.omerta.own_cards",
                "Your face-down cards: slots {slots} · total so far {total}",
                slots=listed,
                total=me["total"],
            )
        )
    ]
    if view["holding"] is not None:
        lines.append(w(M("render.omerta.you_hold", "You hold {card}.", card=card_name(view["holding"]))))
    if view["look"]:
        safe = Join(
            [
                M("render.omerta.safe_card", "{k}: {card}", k=k + 1, card=card_name(c))
                for k, c in enumerate(view["look"]["safe"])
            ],
            "comma",
        )
        lines.append(w(M("render.omerta.safe_holds", "The Safe holds {cards}.", cards=safe)))
    if view.get("pace") == "post":
        orders = view.get("orders", [])
        each = [
            w(M("render.omerta.order", "slot {n} on a Bottle {value}", n=o["slot"] + 1, value=o["value"]))
            for o in orders
        ]
        shown = "; ".join(each) if each else w(M("render.omerta.none", "none"))
        lines.append(
            w(
                M(
                    "render.omerta.orders",
                    "Your standing snap orders: {orders} (set or cancel them below).",
                    orders=shown,
                )
            )
        )
    lines.append(
        w(
            M(
                "render.omerta.memory",
                "-# Omerta is a memory game: what you peeked at is in your private log (DM or private thread).",
            )
        )
    )
    return "\n".join(lines)


#: What a private question is about, in words that name nothing hidden (the board shows this instead of it).
#: Each is a message (its English as a ``str``): the table shows it with ``words(lang)(...)``.
PRIVATE_QUESTIONS: dict[str, Msg] = {
    "place": M("render.omerta.private_place", "places the card they drew"),
    "safe": M("render.omerta.private_safe", "chooses whether to take a Safe card"),
}
