"""The record and the log as the store keeps them: the choices in effect (undo records taken into account), an
engine event or a table's own line as a log row, private lines for the outbox, and an option's label as a
message."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.core import Choice, Event, Option, load_choice
from engine.msg import Msg, dump_or_none, load

#: The record of an undo: it takes back the latest choice still in effect (the record stays append-only).
UNDO_KIND = "_undo"
#: Kinds of the events the table itself writes into the log (not the engine's).
TABLE_EVENT = "table"


def effective_choices(raw: Sequence[str]) -> list[Choice]:
    """The choices in effect: each undo record takes back the latest choice before it."""
    out: list[Choice] = []
    for item in raw:
        choice = load_choice(item)
        if choice.kind == UNDO_KIND:
            if out:
                out.pop()
        else:
            out.append(choice)
    return out


def event_row(pos: int, e: Event) -> tuple[int, str, str | None, str, str]:
    """An engine event as the store keeps it."""
    seats = None if e.to is None else json.dumps(list(e.to))
    return (pos, e.kind, seats, e.text, json.dumps(e.data, sort_keys=True, default=str))


def table_row(pos: int, text: str, kind: str = TABLE_EVENT, **data: Any) -> tuple[int, str, None, str, str]:
    """A public line the table itself writes into the log (a skip, an undo, a claim, a seat changing hands). A
    message keeps its JSON form in the data (``"msg"``), as an engine event does, so the log is read in any
    language."""
    if isinstance(text, Msg):
        data = {**data, "msg": text.dump()}
    return (pos, kind, None, str(text), json.dumps(data, sort_keys=True, default=str))


def said(e: Event) -> Any:
    """What an event says: its message (from its JSON form), or its plain text."""
    return load(e.data["msg"]) if "msg" in e.data else e.text


def private_body(lines: Sequence[Any], *, log: bool = False) -> str:
    """An outbox entry of private lines: their English and, for each message, its JSON form (``msgs``), so the
    line is made in the reader's language when it is sent. ``log``: lines of the game's private log (what the
    player saw of the game: kept in one message edited in place), not a notice sent as a message of its own."""
    body: dict[str, Any] = {"lines": [str(x) for x in lines], "msgs": [dump_or_none(x) for x in lines]}
    if log:
        body["log"] = True
    return json.dumps(body)


def label_of(opt: Option | None) -> Any:
    """An option's label as a message when the engine gave one (its JSON form in ``words``), else its text."""
    if opt is None:
        return ""
    words = opt.words or {}
    return load(words["label"]) if "label" in words else opt.label
