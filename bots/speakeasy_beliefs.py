"""What a Speakeasy bot believes about a rival's safe (issue 25), from public information only.

A safe's content is hidden (seed 000:19.7), but much of what goes into it is done in the open and stays on the
board: every Book placed on a goal pays its known reward into the safe (design §10), Infamy spaces passed pay
theirs, and each Zone payout pays by the places the Zone markers show (seed 001:32-34; the last payout's markers
stay on the board). So a bot estimates a rival's safe as the start money plus those, the earlier payouts counted
as the last one. Payments from the safe (2:1, rare) and the Bagman's moves are not counted: the estimate leans
high, where a safe of $1-40 drawn at random leaned low (rivals hold $70-150 from Act 2 on).
"""

from __future__ import annotations

from bots.speakeasy_worth import PAYOUT_ACTS
from engine.speakeasy.loader import rules
from engine.speakeasy.luciano import positions
from engine.speakeasy.state import SpeakeasyState


def books_paid(state: SpeakeasyState, seat: int) -> int:
    """The dollars the seat's Books on the board put into its safe (each placement's reward, design §10)."""
    r = rules(state)
    g = r.goals
    out = g.zone_goal_reward * sum(books.count(seat) for books in state.zone_books)
    out += g.city_hall_reward * sum(1 for s, _act in state.city_hall_books if s == seat)
    out += r.docks.docks_book_reward * sum(books.count(seat) for books in state.docks_books)
    out += sum(g.infamy_books.get(int(space), 0) * seats.count(seat) for space, seats in state.infamy_books.items())
    out += g.park_reward * state.park_books.count(seat)
    return out


def infamy_paid(state: SpeakeasyState, seat: int) -> int:
    """The dollars the Infamy spaces the seat has passed put into its safe."""
    t = rules(state).tracks
    reached = state.player(seat).infamy
    return sum(
        e.n
        for space, rewards in t.infamy_rewards.items()
        if t.infamy_start < space <= reached
        for e in rewards
        if e.kind == "safe"
    )


def last_payout(state: SpeakeasyState, seat: int) -> int:
    """What the seat's Zone markers on the board paid at the last payout (001:32-34)."""
    chart = rules(state).sides[state.side].zone_payouts
    out = 0
    for z, row in enumerate(chart):
        markers = [p.zone_markers[z] for p in state.players]
        if not markers[seat]:
            continue
        place = positions(markers, state.mobster_markers[z])[seat]
        out += row[place - 1] if place - 1 < len(row) else 0
    return out


def public_safe(state: SpeakeasyState, seat: int) -> int:
    """The seat's safe as the public board tells it: start money, its Books' rewards, Infamy's, and each payout
    made so far counted as the last one."""
    payouts = max(0, min(PAYOUT_ACTS, state.act - 1))
    start = rules(state).tracks.start_safe
    return start + books_paid(state, seat) + infamy_paid(state, seat) + payouts * last_payout(state, seat)
