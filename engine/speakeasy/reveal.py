"""Everything hidden, in words, for a replay after the game (issue 26, table option ``reveal_after``): each
player's safe, hand and Helpers behind the screen. Only the service asks for it, and only of a finished game
whose table allows it; a replay of a running game never does."""

from __future__ import annotations

from engine.msg import Join, M, Msg
from engine.speakeasy.economy import card_name
from engine.speakeasy.gains import helper_name
from engine.speakeasy.state import SpeakeasyState


def revealed(state: SpeakeasyState) -> list[Msg]:
    """A line per player of what only they could see (Jo's cards are his deck, told by his turns)."""
    lines: list[Msg] = []
    for seat, p in enumerate(state.players):
        if state.jo is not None and seat == state.jo.seat:
            continue
        none = M("speakeasy.reveal.none", "none")
        hand = Join([card_name(c) for c in p.hand], "comma") if p.hand else none
        screen = Join([helper_name(h) for h in p.screen], "comma") if p.screen else none
        lines.append(
            M(
                "speakeasy.reveal.player",
                "{name}: safe ${safe}; hand: {hand}; behind the screen: {screen}",
                name=p.name,
                safe=p.safe,
                hand=hand,
                screen=screen,
            )
        )
    return lines
