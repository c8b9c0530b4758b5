"""Hard's evaluation fitted on self-play (issue 27): a seat's position read in parts, each part weighted by how
much it foretold the final total in games of standard bots (``python -m bench.fit_evaluation --write``).

The weights live in ``speakeasy_evaluation.toml`` beside this module, one table per Act, with the held-out R^2
they reached and the command that made them. ``fitted_margins`` scores a position with them: each seat's
foretold total against its best rival's. An Act whose fit foretells too little (``MIN_R2`` of the bench; Act 1:
nothing read then foretells the end) is not in the file, and a position in it is scored the hand-made way.

Hard judges by it only when asked (``SpeakeasyBot(fitted=True)``, the bench's ``hard+fitted``): it foretells the
end better across games, but hard playing by it won no more often than hard playing by the hand-made margin
(docs/bots.md), so the table's hard keeps the hand-made one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import msgspec

from bots.speakeasy_policy import against_best, margins
from bots.speakeasy_worth import PREPARE, Prepare, Reading, earning, flat_worth, war_risk
from engine.speakeasy.acts import bottles
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState

#: The parts a position is read in (dollars or counts), in the order of ``parts``.
FEATURES = (
    "money",
    "buildings",
    "earning",
    "protected",
    "war_loss",
    "bottles",
    "barrels",
    "levels",
    "goons",
    "books",
    "docks_vip",
    "hand",
    "infamy",
)

WEIGHTS_FILE = Path(__file__).with_name("speakeasy_evaluation.toml")


class ActFit(msgspec.Struct, forbid_unknown_fields=True):
    """One Act's fit: a weight per part, the offset, and the held-out R^2 of the fit and of the hand-made value."""

    weights: dict[str, float]
    offset: float
    r2_fitted: float
    r2_hand: float
    positions: int

    def __post_init__(self) -> None:
        if set(self.weights) != set(FEATURES):
            raise ValueError(f"an Act's weights must name exactly the parts {', '.join(FEATURES)}")


class Fit(msgspec.Struct, forbid_unknown_fields=True):
    """The file: how it was made, and the Acts fitted (keys "2", "3", "4")."""

    made_by: str
    acts: dict[str, ActFit]


def parts(state: SpeakeasyState, seat: int, reading: Reading, prep: Prepare = PREPARE) -> list[float]:
    """The seat's position in the parts ``FEATURES`` names, read as ``policy.value`` reads it."""
    p = state.player(seat)
    protected = rules(state).final.protected
    flat = earn = prot = 0.0
    worth: dict[tuple[int, int], float] = {}
    for d in state.districts:
        for i, sp in enumerate(d.spaces):
            b = sp.building
            if b is None or b.owner != seat:
                continue
            f = flat_worth(d, b)
            e = earning(state, seat, d, b, prep, reading)
            flat += f
            earn += e
            if b.family:
                prot += protected[b.kind]
            worth[(d.number, i)] = f + e + (protected[b.kind] if b.family else 0)
    loss = war_risk(state, seat, worth, prep, reading) if worth else 0.0
    return [
        float(p.pocket + p.safe),
        flat,
        earn,
        prot,
        loss,
        float(sum(bottles(state, seat))),
        float(p.stills_barrels),
        float(sum(p.levels.values())),
        float(p.goons + p.leverage),
        float(p.books),
        float(p.family_vip + sum(z.count(seat) for z in state.docks)),
        float(len(p.hand)),
        float(p.infamy),
    ]


@cache
def fit(path: Path = WEIGHTS_FILE) -> dict[int, tuple[tuple[float, ...], float]]:
    """Each fitted Act's (weights in ``FEATURES`` order, offset), read once from the file."""
    data = msgspec.toml.decode(path.read_bytes(), type=Fit)
    return {int(a): (tuple(f.weights[n] for n in FEATURES), f.offset) for a, f in data.acts.items()}


def fitted_margins(state: SpeakeasyState, prep: Prepare | None = PREPARE) -> list[float]:
    """Every seat's foretold final total against its best rival's (a lone seat: its own), by the weights of the
    position's Act; the final totals once the game is over; the hand-made ``margins`` in an Act not fitted."""
    act = fit().get(state.act)
    if act is None or state.phase == "over" or prep is None:
        return margins(state, prep)
    weights, offset = act
    reading = Reading(state)
    worth = [
        offset + sum(w * x for w, x in zip(weights, parts(state, s, reading, prep), strict=True))
        for s in range(len(state.players))
    ]
    return against_best(worth)
