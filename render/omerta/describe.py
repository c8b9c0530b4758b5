"""The Omerta table in words: the title line and the callout (``describe``), the winners, the powers."""

from __future__ import annotations

from typing import Any

from render.omerta_words import card_name, words_of
from words.msg import Join, M, Msg, P, T

_POWER_LABEL = {
    "traitor": T("omerta.card", "Traitor"),
    "mole": T("omerta.card", "Mole"),
    "lady": T("omerta.card", "Lady"),
    "chauffeur": T("omerta.card", "Chauffeur"),
    "police": T("omerta.card", "Police Check"),
    "mamma": T("omerta.card", "La Mamma"),
    "safecracker": T("omerta.card", "Safecracker"),
    "safe": T("omerta.card", "Safecracker"),
    "safe_slot": T("omerta.card", "Safecracker"),
    "alibi": T("omerta.card", "Alibi"),
}


def _power_text(power: str, name: str) -> Msg:
    """What the active player may do with the power now."""
    if power == "traitor":
        return M(
            "render.omerta.power_traitor",
            "{name} may deal 2 cards from the draw pile, face down, to opponents.",
            name=name,
        )
    if power == "mole":
        return M("render.omerta.power_mole", "{name} may look at one of their own cards.", name=name)
    if power == "lady":
        return M("render.omerta.power_lady", "{name} may shuffle one opponent's cards.", name=name)
    if power == "chauffeur":
        return M(
            "render.omerta.power_chauffeur",
            "{name} may discard up to 2 of their own bottles, named by memory.",
            name=name,
        )
    if power == "police":
        return M(
            "render.omerta.power_police", "{name} may hold one card on the table for two of their turns.", name=name
        )
    if power == "mamma":
        return M("render.omerta.power_mamma", "{name} may make an opponent skip their next turn.", name=name)
    if power == "safecracker":
        return M("render.omerta.power_safecracker", "{name} may look at the 4 cards in the Safe.", name=name)
    if power == "safe":
        return M("render.omerta.power_safe", "{name} has seen the Safe and may take one of its cards.", name=name)
    if power == "safe_slot":
        return M("render.omerta.power_safe_slot", "{name} chooses which of their cards goes into the Safe.", name=name)
    return M("render.omerta.power_other", "{name} uses a power.", name=name)


def player_names(view: dict[str, Any]) -> list[str]:
    """The players' names, in seat order."""
    return [str(p["name"]) for p in view["players"]]


def winners_msg(view: dict[str, Any]) -> Msg:
    """The winners and their total, or "Game over" when the view names none."""
    names = player_names(view)
    winners = [names[i] for i in view.get("winners", [])]
    if not winners:
        return M("render.omerta.game_over", "Game over")
    best = view["players"][view["winners"][0]]["total"]
    return P(
        "render.omerta.winners",
        "{names} wins with {points} points",
        "{names} win with {points} points",
        len(winners),
        names=Join(winners),
        points=best,
    )


def _winners_text(view: dict[str, Any]) -> str:
    return words_of(view)(winners_msg(view))


def describe(view: dict[str, Any]) -> tuple[str, str, str]:
    """The table's state in words: (title line, callout heading, callout text).

    The title line is e.g. "Round 2 of 4 · Ben's turn" or "Round 2 of 4 · Snap window: Bottle 7".
    """
    w = words_of(view)
    names = player_names(view)
    active = view.get("active")
    who = names[active] if active is not None and 0 <= active < len(names) else "?"
    phase = view["phase"]
    top = view.get("discard_top")
    turn = M("render.omerta.turn", "{name}'s turn", name=who)
    if phase == "peek":
        waiting = [p["name"] for p in view["players"] if not p.get("peeked")]
        head, label = (
            w(M("render.omerta.peeking", "Everyone is peeking")),
            w(M("render.omerta.label_peeking", "PEEKING")),
        )
        text = w(
            M(
                "render.omerta.peek_text",
                "Everyone looks at {n} of their cards and remembers them.",
                n=rule_number(view, "peek"),
            )
        )
        if waiting:
            text += " " + w(M("render.omerta.waiting", "Waiting for {names}.", names=Join(waiting)))
    elif phase == "turn":
        head, label = w(turn), w(M("render.omerta.label_to_play", "{name} TO PLAY", name=who.upper()))
        if top:
            take = M("render.omerta.take_card", "take the {card} from the discard pile", card=card_name(top))
        else:
            take = M("render.omerta.take_discard", "take the discard")
        text = w(
            M(
                "render.omerta.turn_text",
                "Draw a card, {take}, or call OMERTA ({n} points or fewer).",
                take=take,
                n=rule_number(view, "omerta_limit"),
            )
        )
    elif phase == "drawn":
        head, label = w(turn), w(M("render.omerta.label_drawn", "A CARD IS DRAWN"))
        held = view.get("holding")
        if held:
            drawn = M(
                "render.omerta.drawn_card",
                "{name} drew {card}: swap it into a slot or discard it.",
                name=who,
                card=card_name(held),
            )
        else:
            drawn = M("render.omerta.drawn", "{name} drew a card: swap it into a slot or discard it.", name=who)
        text = w(drawn)
    elif phase == "taken":
        head, label = w(turn), w(M("render.omerta.label_taken", "THE DISCARD IS TAKEN"))
        held = view.get("holding")
        what = card_name(held) if held else M("render.omerta.the_discard", "the discard")
        text = w(
            M(
                "render.omerta.taken",
                "{name} took {card} from the discard pile and swaps it into a slot.",
                name=who,
                card=what,
            )
        )
    elif phase == "snap":
        value = view.get("snap_value")
        head = w(M("render.omerta.snap_head", "Snap window: Bottle {value}", value=value))
        label = w(M("render.omerta.label_snap", "SNAP WINDOW"))
        text = w(
            M(
                "render.omerta.snap_text",
                "Anyone may discard a Bottle {value} of their own. A wrong snap costs a penalty card.",
                value=value,
            )
        )
    elif phase in ("power", "safe", "safe_slot"):
        power = view.get("power") or phase
        name = w(_POWER_LABEL[power]) if power in _POWER_LABEL else power.replace("_", " ").title()
        head = w(M("render.omerta.power_head", "{turn} · {power}", turn=turn, power=name))
        label = w(M("render.omerta.label_power", "POWER · {power}", power=name.upper()))
        text = w(_power_text(power, who))
    elif phase == "over":
        winners = [names[i] for i in view.get("winners", []) if 0 <= i < len(names)]
        if winners:
            over = P(
                "render.omerta.over_head",
                "Game over: {names} wins",
                "Game over: {names} win",
                len(winners),
                names=Join(winners),
            )
        else:
            over = M("render.omerta.game_over", "Game over")
        head = w(over)
        label = w(M("render.omerta.label_over", "GAME OVER"))
        text = w(M("render.omerta.over_text", "{winners}. Lowest total wins.", winners=winners_msg(view)))
    else:
        head, label, text = phase.title(), phase.upper(), ""
    title = w(
        M(
            "render.omerta.title",
            "Round {round} of {rounds} · {head}",
            round=view["round"],
            rounds=view["rounds"],
            head=head,
        )
    )
    return title, label, text


def rule_number(view: dict[str, Any], key: str) -> int:
    """A rule number the view carries (from the game's data file)."""
    return int(view["numbers"][key])
