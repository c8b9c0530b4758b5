"""What a seat may see of an Omerta table (the only way out of the engine).

Omerta is a memory game: nobody sees a face-down card, not even its owner. A seat's view adds only what
that seat is looking at right now: the card it drew and, while the Safecracker decides, the Safe. What a
player saw once (the peek, the Mole) reaches them as a private event, not as part of the view.
"""

from __future__ import annotations

from typing import Any

from engine.omerta.cards import deck
from engine.omerta.snaps import orders_of
from engine.omerta.state import OmertaState
from engine.omerta.table import blocked, pace, version


def view(state: OmertaState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` (``None``: a spectator) may see it."""
    cards = deck().cards
    players = []
    for i, p in enumerate(state.players):
        players.append(
            {
                "seat": i,
                "name": p.name,
                "gangster": cards[p.gangster].name,
                "slots": [
                    {"index": k, "empty": c is None, "police": c is not None and blocked(state, i, k)}
                    for k, c in enumerate(p.slots)
                ],
                "card_count": sum(c is not None for c in p.slots),
                "total": p.total,
                "round_scores": list(p.round_scores),
                "skip_next": p.skips > 0,
                "peeked": p.peeked,
            }
        )
    holding = None
    # a card taken from the discard pile was face up: everyone knows it
    if state.held is not None and (state.phase == "taken" or (state.phase == "drawn" and seat == state.active)):
        holding = cards[state.held].public()
    look = None
    if seat is not None and seat == state.active and state.phase == "power" and state.power in ("safe", "safe_slot"):
        look = {"safe": [cards[c].public() for c in state.safe], "pick": state.safe_pick}
    last = state.history[-1] if state.history else None
    reveal = None
    if last is not None:
        reveal = {
            "round": last.round,
            "caller": last.caller,
            "caller_made_it": last.caller_made_it,
            "players": [
                {
                    "seat": i,
                    "cards": [cards[c].public() for c in last.cards[i]],
                    "points": last.points[i],
                    "score": last.scores[i],
                }
                for i in range(len(state.players))
            ],
        }
    over = state.phase == "over"
    best = min(p.total for p in state.players)
    return {
        "game": "omerta",
        "viewer": seat,
        "round": state.round,
        "rounds": state.rounds,
        "phase": state.phase,
        "active": state.active,
        "power": state.power or None,
        "snap_value": state.snap_value or None,
        "draw_count": len(state.draw),
        "discard_count": len(state.discard),
        "discard_top": cards[state.discard[-1]].public() if state.discard else None,
        "safe_count": len(state.safe),
        "holding": holding,
        "holding_hidden": state.held is not None and holding is None,
        "look": look,
        "players": players,
        "reveal": reveal,
        "shown": [cards[c].public() for c in state.shown],
        "pace": pace(state),
        "rules": version(state),
        # a seat's own standing orders (pace=post) are private: only that seat's view has them
        "orders": orders_of(state, seat) if seat is not None else [],
        "over": over,
        "winners": [i for i, p in enumerate(state.players) if p.total == best] if over else [],
        # the rule numbers the table's words quote (they come from data/omerta/cards.toml)
        "numbers": {k: deck().numbers[k] for k in ("peek", "omerta_limit", "caller_penalty")},
    }
