"""What changed since the last picture of an Omerta table: the public parts of a view as short marks, compared set
against set (as Speakeasy's ``render/speakeasy/changes.py``).

The publisher keeps the marks of the pictures posted at a turn's start and gives them back with each later view;
the table picture outlines every part whose mark is new. A mark names a part and what matters about it: the
discard pile's top card and size, the draw pile's size, each slot (empty, under Police Check, the turn its card
was last replaced in), each player's total, a skipped turn. Marks come from the spectator view only, so they hold
nothing private. A new round deals every card afresh: nothing is outlined then (everything is new).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

View = dict[str, Any]


def marks(view: View) -> list[str]:
    """The public parts of the table, one short string each (sorted, so the same view gives the same list)."""
    top = view.get("discard_top")
    out = [
        f"round:{view.get('round')}",
        f"draw:{view.get('draw_count', 0)}",
        f"discard:{view.get('discard_count', 0)}:{top['id'] if top else '-'}",
    ]
    for p in view["players"]:
        seat = p["seat"]
        out.append(f"total:{seat}:{p.get('total', 0)}")
        if p.get("skip_next"):
            out.append(f"skip:{seat}")
        for s in p.get("slots", []):
            k = s.get("index", 0)
            out.append(f"slot:{seat}:{k}:{int(bool(s.get('empty')))}:{int(bool(s.get('police')))}:{s.get('moved', 0)}")
    return sorted(set(out))


def changed(view: View, before: Iterable[str] | None) -> frozenset[str]:
    """The marks of ``view`` not in ``before``; none when there is no earlier picture to compare with, or when a
    new round was dealt since (every card is new: outlining them all would say nothing)."""
    if before is None:
        return frozenset()
    before = frozenset(before)
    now = marks(view)
    if f"round:{view.get('round')}" not in before:
        return frozenset()
    return frozenset(now) - before


def slot_changed(new: frozenset[str], seat: int, index: int) -> bool:
    """Whether ``seat``'s slot ``index`` is among the ``new`` marks."""
    prefix = f"slot:{seat}:{index}:"
    return any(m.startswith(prefix) for m in new)


def kind_changed(new: frozenset[str], kind: str, seat: int | None = None) -> bool:
    """Whether a part of ``kind`` ("draw", "discard", "total", "skip"; of ``seat``) is among the ``new`` marks."""
    prefix = f"{kind}:" if seat is None else f"{kind}:{seat}"
    return any(m == prefix or m.startswith(prefix if seat is None else prefix + ":") for m in new)
