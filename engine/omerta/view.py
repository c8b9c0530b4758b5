"""What a seat may see of an Omerta table (the only way out of the engine).

Omerta is a memory game: nobody sees a face-down card, not even its owner. A seat's view adds only what
that seat is looking at right now: the card it drew and, while the Safecracker decides, the Safe. What a
player saw once (the peek, the Mole) reaches them as a private event, not as part of the view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.omerta.cards import deck
from engine.omerta.snaps import orders_of
from engine.omerta.state import OmertaState
from engine.omerta.table import blocked, pace, version


def view(state: OmertaState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` (``None``: a spectator) may see it."""
    return views(state, (seat,))[0]


def views(state: OmertaState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """``view`` for each of ``seats``, the public part built once. A seat's view differs from the spectator's
    only in ``viewer``, the card it holds, the Safe it looks at and its standing orders; the views share every
    other part, so they are to be read, not changed (``view`` alone shares nothing)."""
    public = _public(state)
    out = []
    for seat in seats:
        v = dict(public)
        holding = _holding(state, seat)
        v["viewer"] = seat
        v["holding"] = holding
        v["holding_hidden"] = state.held is not None and holding is None
        v["look"] = _look(state, seat)
        # a seat's own standing orders (pace=post) are private: only that seat's view has them
        v["orders"] = orders_of(state, seat) if seat is not None else []
        out.append(v)
    return out


def _holding(state: OmertaState, seat: int | None) -> dict[str, Any] | None:
    """The card in hand, if ``seat`` may see it: a card taken from the discard pile was face up (everyone knows
    it); a drawn one only its drawer sees."""
    if state.held is not None and (state.phase == "taken" or (state.phase == "drawn" and seat == state.active)):
        return deck().cards[state.held].public()
    return None


def _look(state: OmertaState, seat: int | None) -> dict[str, Any] | None:
    """The Safe, for the Safecracker while they choose from it."""
    if seat is not None and seat == state.active and state.phase == "power" and state.power in ("safe", "safe_slot"):
        return {"safe": [deck().cards[c].public() for c in state.safe], "pick": state.safe_pick}
    return None


def _slots(state: OmertaState, seat: int) -> list[dict[str, Any]]:
    """A seat's slots, face down: empty or not, under Police Check or not, and ``moved``: the turn its card was
    last replaced in this round (0: as dealt; version 3 notes it), for the picture to outline a change."""
    moved = state.stamps[seat] if seat < len(state.stamps) else []
    return [
        {
            "index": k,
            "empty": c is None,
            "police": c is not None and blocked(state, seat, k),
            "moved": moved[k] if k < len(moved) else 0,
        }
        for k, c in enumerate(state.players[seat].slots)
    ]


def _public(state: OmertaState) -> dict[str, Any]:
    """The spectator's view."""
    cards = deck().cards
    players = []
    for i, p in enumerate(state.players):
        players.append(
            {
                "seat": i,
                "name": p.name,
                "gangster": cards[p.gangster].name,
                "slots": _slots(state, i),
                "card_count": sum(c is not None for c in p.slots),
                "total": p.total,
                "round_scores": list(p.round_scores),
                "skip_next": p.skips > 0,
                "peeked": p.peeked,
            }
        )
    holding = _holding(state, None)
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
        "viewer": None,
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
        "look": None,
        "players": players,
        "reveal": reveal,
        "shown": [cards[c].public() for c in state.shown],
        "pace": pace(state),
        "rules": version(state),
        "orders": [],
        "over": over,
        "winners": [i for i, p in enumerate(state.players) if p.total == best] if over else [],
        # the rule numbers the table's words quote (they come from data/omerta/cards.toml)
        "numbers": {k: deck().numbers[k] for k in ("peek", "omerta_limit", "caller_penalty")},
    }
