"""Real-time race windows (Omerta's snap): how long a window stays open and the order its claims are judged in."""

from __future__ import annotations

import json
import random

from service.notice import Table
from store import ClaimRow


def race_window(table: Table) -> float:
    """The seconds a race window of this table stays open (the ``snap_window`` option)."""
    return float(json.loads(table.row.options).get("snap_window", 5))


def ranked(claims: list[ClaimRow], seed: str) -> list[ClaimRow]:
    """Claims in the order they are judged: earliest Discord timestamp first; exact ties broken by a draw seeded
    from the game (so a replay of the log can explain it)."""
    rng = random.Random(seed)
    left = list(claims)
    out: list[ClaimRow] = []
    while left:
        tied = [c for c in left if c.ts_ms == left[0].ts_ms]
        pick = rng.choice(tied) if len(tied) > 1 else tied[0]
        out.append(pick)
        left.remove(pick)
    return out
