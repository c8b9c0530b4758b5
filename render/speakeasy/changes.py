"""What changed since the last picture: the public pieces of a view as short marks, compared set against set.

The publisher keeps the marks of the picture it uploaded last (in the board message's data) and gives them back
with the next view; every piece whose mark is new is outlined. A mark names a piece and what matters about it
(a Ship's mark holds its barrels and Crate, so a Ship that changed is new too). Marks come from the spectator view
only, so they hold nothing private.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

View = dict[str, Any]


def marks(view: View) -> list[str]:
    """The public pieces on the board, one short string each (sorted, so the same view gives the same list)."""
    out: list[str] = []
    for d in view["districts"]:
        n = d["number"]
        for key in ("cop", "cop_tile", "war_tile"):
            if d.get(key):
                out.append(f"{key}:{n}")
        if d.get("mobster"):
            out.append(f"mobster:{n}:{d['mobster']}")
        for k, sp in enumerate(d["spaces"]):
            b = sp.get("building")
            if b:
                out.append(f"building:{n}:{k}:{b['owner']}:{b['kind']}")
                if b.get("barrel"):
                    out.append(f"barrel:{n}:{k}")
                if b.get("family"):
                    out.append(f"family:{n}:{k}")
            elif sp.get("mobster"):
                out.append(f"mob:{n}:{k}")
    for pid, seat in view.get("persons", {}).items():
        out.append(f"capo:{pid}:{seat}")
    for k, seat in enumerate(view.get("booths", [])):
        if seat is not None:
            out.append(f"booth:{k}:{seat}")
    for k, seat in enumerate(view.get("park", [])):
        if seat is not None:
            out.append(f"park:{k}:{seat}")
    for k, seat in enumerate(view.get("first_place", [])):  # Capos join Lucky's table in turn
        out.append(f"lucky:{k}:{seat}")
    for s in view.get("ships", []):
        out.append(f"ship:{s['number']}:{s.get('port')}:{s.get('barrels')}:{s.get('crate')}")
    for z, spaces in enumerate(view.get("docks", [])):
        for k, seat in enumerate(spaces):
            if seat is not None:
                out.append(f"dock:{z}:{k}:{seat}")
    return sorted(set(out))


def changed(view: View, before: Iterable[str] | None) -> frozenset[str]:
    """The marks of ``view`` not in ``before``; none when there is no earlier picture to compare with."""
    if before is None:
        return frozenset()
    return frozenset(marks(view)) - frozenset(before)
