"""A table's pace (issue 23): how long a player has each time the table waits for them (option ``deadline``),
when they are reminded before it, and what the table does when it passes (option ``on_timeout``). Pure: the
service arms the reminders and deadlines with each move and fires them from its clock (``service/deadlines.py``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from engine.core import load_choice
from engine.options import duration_s
from service.notice import Table
from store import ChoiceRow

#: a reminder half-way through the deadline, and one near its end (the project's own values)
REMIND_AT = (0.5, 0.9)
#: the due time of a reminder with nothing more to say before its wait's deadline (far beyond any clock's now)
PARKED = 1e15
#: what a deadline does, when the table has no option (a table opened before issue 23 has no deadline at all)
DEFAULT_ON_TIMEOUT = "bot"


def deadline_s(table: Table) -> int | None:
    """The table's deadline in seconds (None: no deadline, the global reminder timer as before issue 23)."""
    value = json.loads(table.row.options).get("deadline", "none")
    try:
        return duration_s(value) if isinstance(value, str) else None
    except ValueError:  # the option was checked when the table opened: a record cannot hold another value
        return None


def on_timeout(table: Table) -> str:
    """What the table does when a deadline passes: ``remind``, ``bot``, ``hold`` or ``skip``."""
    return str(json.loads(table.row.options).get("on_timeout", DEFAULT_ON_TIMEOUT))


def timeouts_to_replace(table: Table) -> int:
    """After this many timeouts in a row the host is told they may offer the seat to someone else (0: never)."""
    return int(json.loads(table.row.options).get("timeouts_to_replace", 3))


def wait_begins(table: Table, user_id: int, now: float, first_s: float) -> list[tuple[int, str, float]]:
    """The reminders a wait for ``user_id`` beginning ``now`` arms (``Move.reminders_on``): the first reminder
    and, at a table with a deadline, the deadline."""
    deadline = deadline_s(table)
    armed = [(user_id, "turn", now + first_reminder(deadline, first_s))]
    if deadline is not None:
        armed.append((user_id, "deadline", now + deadline))
    return armed


def first_reminder(deadline: int | None, first_s: float) -> float:
    """Seconds from the start of a wait to its first reminder: half-way to the deadline, or the global
    ``first_s`` at a table without one."""
    return first_s if deadline is None else deadline * REMIND_AT[0]


def next_reminder(deadline: int | None, started: float, sent: int, now: float, repeat_s: float) -> float | None:
    """When the reminder after the ``sent``-th of a wait that began at ``started`` is due: the one near the end
    of the deadline (none after it: the deadline itself comes next), or every ``repeat_s`` without one."""
    if deadline is None:
        return now + repeat_s
    if sent + 1 < len(REMIND_AT):
        return max(now, started + deadline * REMIND_AT[sent + 1])
    return None


def absent_waits(rows: Sequence[ChoiceRow], seat: int, player: int) -> int:
    """How many of ``seat``'s latest waits were answered by someone else than its ``player`` (a deadline's
    choices, the host's skip, a bot holding the seat), back to the player's own last choice: their "timeouts in
    a row". A move's choices for the seat count once (they share their time)."""
    moves: set[float] = set()
    for row in reversed(rows):
        if load_choice(row.choice).seat != seat:
            continue
        if row.actor_id == player:
            break
        moves.add(row.created_at)
    return len(moves)
