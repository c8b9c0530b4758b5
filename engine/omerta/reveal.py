"""Every card, in words, for a replay after the game (issue 26, table option ``reveal_after``): each player's
face-down cards by slot, the card in hand and the Safe. Only the service asks for it, and only of a finished game
whose table allows it; a replay of a running game never does."""

from __future__ import annotations

from engine.msg import Join, M, Msg
from engine.omerta.state import OmertaState
from engine.omerta.table import card_name, slot_name


def revealed(state: OmertaState) -> list[Msg]:
    """A line per player (their slots in order), the card being placed, and the Safe."""
    lines: list[Msg] = []
    for seat, p in enumerate(state.players):
        cards = [
            M("omerta.reveal.slot", "{slot}: {card}", slot=slot_name(k), card=card_name(c))
            for k, c in enumerate(p.slots)
            if c is not None
        ]
        held = Join(cards, "comma") if cards else M("omerta.reveal.none", "no card")
        lines.append(M("omerta.reveal.player", "{name}: {cards}", name=state.names[seat], cards=held))
    if state.held is not None:
        lines.append(M("omerta.reveal.held", "In hand: {card}", card=card_name(state.held)))
    if state.safe:
        lines.append(
            M("omerta.reveal.safe", "The Safe: {cards}", cards=Join([card_name(c) for c in state.safe], "comma"))
        )
    return lines
