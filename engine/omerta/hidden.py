"""What a seat may not see of an Omerta table, and ``scramble``: the same table with all of that redrawn.

Omerta is a memory game: nobody sees a face-down card, not even its owner (``view``). Hidden from a seat are
the draw pile, every face-down card in every slot, the Safe (unless that seat is the Safecracker looking at
it), a drawn card held by another player, other seats' standing snap orders, and the generator. The discard
pile is not: each card on it was shown when it landed there, and the log keeps them.
"""

from __future__ import annotations

from engine.core import Chance, Rng
from engine.omerta import state as state_mod
from engine.omerta.cards import deck
from engine.omerta.state import OmertaState


def safe_seen_by(state: OmertaState, seat: int | None) -> bool:
    """Whether ``seat`` is looking at the Safe right now (the Safecracker's second and third questions)."""
    return seat is not None and seat == state.active and state.phase == "power" and state.power in ("safe", "safe_slot")


def held_seen_by(state: OmertaState, seat: int | None) -> bool:
    """Whether ``seat`` may see the card in hand: a card taken from the discard pile was face up for everyone."""
    return state.phase == "taken" or (state.phase == "drawn" and seat == state.active)


def scramble(state: OmertaState, seat: int | None, rng: Chance) -> OmertaState:
    """A copy of ``state`` in which every card ``seat`` cannot see trades places at random with the others
    (each place keeps its size), the Safecracker's pick is redrawn for anyone not looking at the Safe, and the
    generator gets a new random state. The input is not changed."""
    new = state_mod.loads(state_mod.dumps(state))
    # The hidden places, each as (list, index) cells so that the cards can be put back where they were taken.
    cells: list[tuple[list, int]] = []
    for p in new.players:
        cells += [(p.slots, k) for k, c in enumerate(p.slots) if c is not None]
    cells += [(new.draw, k) for k in range(len(new.draw))]
    if not safe_seen_by(new, seat):
        cells += [(new.safe, k) for k in range(len(new.safe))]
        if new.safe_pick >= 0:
            new.safe_pick = rng.randrange(len(new.safe))
    holder: list[int | None] = [new.held]
    if new.held is not None and not held_seen_by(new, seat):
        cells.append((holder, 0))
    cards = [where[k] for where, k in cells]
    rng.shuffle(cards)
    for (where, k), card in zip(cells, cards, strict=True):
        where[k] = card
    new.held = holder[0]
    # other seats' standing orders (pace=post) are private too: their values are redrawn
    values = deck().bottle_values
    for order in new.orders:
        if order.seat != seat:
            order.value = values[rng.randrange(len(values))]
    new.rng = Rng(rng.getrandbits(64))
    return new
