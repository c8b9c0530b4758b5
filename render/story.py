"""The game as a story: the public events cut into segments (a player's turn, a Lucky Luciano phase, a round's
deal, the end), and each segment in a line or two. Words only; the events come from the store, as
``(id, kind, text, data)`` records (the engine's text is the fallback for every kind).

Used to write each turn's message, its closing summary, and "since your last turn". An event's words are made
in ``lang`` (the table's language) from the message its data keeps (``Words.stored``), its English text else.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from words import words
from words.msg import M

#: Event kinds that begin a segment. ``round`` and ``act`` lines are headers: they join the segment after them.
STARTS = frozenset({"turn", "phase", "final", "over", "round"})
HEADERS = frozenset({"round", "act"})
#: What a Lucky Luciano phase summary keeps: each Mob War, the Cops, the payouts (the districts' control is
#: in the picture and in /game log).
PHASE_KINDS = frozenset({"phase", "war", "cops", "payout"})
#: A setup segment of more facts than this is shown as a list, a fact a line.
SETUP_LIST_FROM = 3


class EventLike(Protocol):
    """What the story needs of a stored event."""

    id: int
    kind: str
    text: str
    data: str


@dataclass
class Segment:
    """A run of public events: ``turn`` (of ``seat``), ``phase``, ``round`` (a deal everyone acts in), ``end``
    or ``setup``."""

    kind: str
    seat: int | None
    events: list[Any] = field(default_factory=list)

    @property
    def first(self) -> int:
        """The id of its first event."""
        return self.events[0].id if self.events else 0


def _seat_of(event: EventLike) -> int | None:
    try:
        seat = json.loads(event.data or "{}").get("seat")
    except ValueError:
        return None
    return seat if isinstance(seat, int) else None


def segment_kind(event: EventLike) -> str:
    """The kind of segment an event begins."""
    return {"turn": "turn", "phase": "phase", "round": "round", "final": "end", "over": "end"}.get(event.kind, "setup")


def _msg(event: EventLike) -> dict[str, Any]:
    try:
        data = json.loads(event.data or "{}")
    except ValueError:
        return {}
    msg = data.get("msg") if isinstance(data, dict) else None
    return msg if isinstance(msg, dict) else {}


def _told_already(event: EventLike, before: EventLike | None) -> bool:
    """Omerta's La Mamma, told twice in a row (issue 24): "Ben (La Mamma): Anna skips their next turn", then at
    once "Anna skips this turn (La Mamma)". The skip right after the La Mamma that caused it says nothing new;
    a skip later on (after others' turns) is still told, naming La Mamma."""
    if event.kind != "skip" or before is None or before.kind != "power":
        return False
    skip, power = _msg(event), _msg(before)
    if skip.get("m") != "omerta.log.skip" or power.get("m") != "omerta.log.mamma":
        return False
    return (skip.get("a") or {}).get("name") == (power.get("a") or {}).get("target")


def segments(events: Iterable[EventLike]) -> list[Segment]:
    """Cut public events into segments; header lines (a new round, a new Act) join the segment that follows. A
    line that repeats the one before it in other words is left out (``_told_already``)."""
    out: list[Segment] = []
    pending: list[Any] = []
    last: EventLike | None = None
    for e in events:
        before, last = last, e
        if _told_already(e, before):
            continue
        if e.kind in STARTS:
            if out and out[-1].kind != "setup" and all(x.kind in HEADERS for x in out[-1].events):
                pending = out.pop().events + pending  # a lone header: it heads the next segment
            seat = _seat_of(e) if e.kind == "turn" else None
            out.append(Segment(segment_kind(e), seat, pending + [e]))
            pending = []
        elif not out:
            out.append(Segment("setup", None, [e]))
        else:
            out[-1].events.append(e)
    if pending:
        out.append(Segment("setup", None, pending))
    return out


def said(event: EventLike, lang: str | None = None) -> str:
    """An event's words in ``lang`` (from the message its data keeps; its stored English text else), without the
    closing full stop."""
    if words(lang).lang == "en":  # the stored text is the English, word for word
        return event.text.rstrip(".")
    try:
        data = json.loads(event.data or "{}")
    except ValueError:
        data = {}
    return words(lang).stored(data if isinstance(data, dict) else {}, event.text).rstrip(".")


def _without(text: str, name: str, lang: str | None = None) -> str:
    """``Anna sends a Capo …`` → ``sends a Capo …`` (the line is already under Anna's name); a line labelled
    ``Anna: …`` or about ``Anna's …`` keeps it."""
    if text.startswith(f"{name}'s "):
        return text  # issue 24: "Anna's Family Members …" keeps her name ("their …" read as someone else's)
    # "Anna: Bottle 2 = 2 points; scores 0" keeps its name too: a labelled line is one of several, and without
    # the label it says nobody's score (issue 24)
    if text.startswith(f"{name} ") and not text.startswith(f"{name}: "):
        return text[len(name) + 1 :]
    return text


def steps(segment: Segment, names: Sequence[str], lang: str | None = None) -> list[str]:
    """The segment's public steps, one line each, without the turn's own headline (in ``lang``)."""
    who = names[segment.seat] if segment.seat is not None and 0 <= segment.seat < len(names) else None
    lines = []
    for e in segment.events:
        if e.kind == "turn":
            continue  # the message's headline says whose turn it is
        text = said(e, lang)
        lines.append(_without(text, who, lang) if who and e.kind not in HEADERS else text)
    return lines


def line(segment: Segment, names: Sequence[str], *, complete: bool = False, lang: str | None = None) -> str:
    """The segment in one line: ``**1922 · Ben's turn:** sends a Capo to the Rum-runner; takes Party: $3`` (a
    Lucky Luciano phase: each Mob War, the Cops and the payouts; ``complete``: every line of it), in ``lang``."""
    w = words(lang)
    start = next((i for i, e in enumerate(segment.events) if e.kind not in HEADERS), len(segment.events))
    heads = [said(e, lang) for e in segment.events[:start]]  # a new round or Act, before the turn
    prefix = " · ".join(heads) + " · " if heads and segment.kind != "round" else ""
    if segment.kind == "turn":
        opener = next((said(e, lang) for e in segment.events if e.kind == "turn"), "")
        rest = Segment(segment.kind, segment.seat, segment.events[start:])
        done = steps(rest, names, lang)
        body = "; ".join(done) if done else w(M("render.speakeasy.story.nothing", "nothing yet"))
        return w(
            M("render.speakeasy.story.turn", "{prefix}**{opener}:** {body}", prefix=prefix, opener=opener, body=body)
        )
    if segment.kind == "phase":
        kinds = {e.kind for e in segment.events} - {"phase"} if complete else PHASE_KINDS - {"phase"}
        kept = "; ".join(said(e, lang) for e in segment.events if e.kind in kinds)
        return w(M("render.speakeasy.story.phase", "{prefix}**Lucky Luciano:** {events}", prefix=prefix, events=kept))
    facts = [said(e, lang) for e in segment.events]
    if segment.kind == "setup" and len(facts) > SETUP_LIST_FROM:
        # issue 24: the setup's recap (a dozen facts) as a short list, not one line joined by semicolons
        return "\n".join(f"- {fact}" for fact in facts)
    return "; ".join(facts)


def since_last_turn(all_segments: Sequence[Segment], seat: int, before: int) -> list[Segment]:
    """The segments after ``seat``'s previous turn and before the segment that starts at event ``before``."""
    earlier = [s for s in all_segments if s.first < before]
    last = max((i for i, s in enumerate(earlier) if s.kind == "turn" and s.seat == seat), default=-1)
    return earlier[last + 1 :]
