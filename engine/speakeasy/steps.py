"""The step registry: how each kind of pending ``Task`` is asked and answered.

A step kind has ``options`` (the legal answers now, never including the decline option), ``choose`` (apply
one of them; the task has already been popped, so a repeating step pushes itself back) and ``text``. A step
with ``skip`` set is optional and gets a decline option with that label; a step with ``auto`` needs no
decision and runs as soon as it is on top. A step whose options are empty is skipped (design §0.9).

Whether a question is private is part of its kind, never of the values it happens to read: ``secret`` steps
read the seat's hand (or screen), ``pays`` steps offer what the hidden safe can pay for (design §4). Whether a
private step is asked may not tell either: it is asked whenever the public cannot rule out an option
(``open_options``); a seat that can do nothing of it then has only the decline.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import msgspec

from engine.core import Event, Option
from engine.msg import M, Msg
from engine.speakeasy.board import district_name, zone_index, zone_name
from engine.speakeasy.components import ZONES
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState, Task

Log = list[Event]


class QuietLog(list):  # type: ignore[type-arg]
    """A log nobody will read (a bot's trial choices on its copies): its lines are not made at all. ``say`` and
    the payments check for it; the engine never reads a log back, so the game goes exactly as with a real one."""

    __slots__ = ()


SKIP = "skip"


@dataclass(frozen=True, slots=True)
class Step:
    """How one kind of task is asked and applied."""

    kind: str
    text: Callable[[SpeakeasyState, Task], str]
    options: Callable[[SpeakeasyState, Task], list[Option]] | None = None
    choose: Callable[[SpeakeasyState, Task, str, Log], None] | None = None
    auto: Callable[[SpeakeasyState, Task, Log], None] | None = None
    skip: str | None = M("speakeasy.steps.skip", "Skip")
    #: Private: the options show the seat's hand or the Helpers behind its screen.
    secret: bool = False
    #: Private: the options are what the seat can pay for, pocket and hidden safe together (an option ``cost``).
    pays: bool = False
    #: The answer a private step offers when the seat can do nothing of it and the step has no decline (e.g.
    #: "Skip delivering").
    empty: Callable[[SpeakeasyState, Task], Option] | None = None
    #: The decline label when the step is a Person's step (task ``m == 1``) although the gain itself is not
    #: optional elsewhere (design §2: every Person step is optional).
    step_skip: str | None = None
    #: For a step that cannot be declined, a calmer default than its first option (the host's skip), if offered.
    default: Callable[[SpeakeasyState, Task], str] | None = None
    #: Why the question, when the public knows it has a single answer, has no other (e.g. "needs 8, reaches 2")
    forced: Callable[[SpeakeasyState, Task], str] | None = None
    #: Questions of one seat with the same group key are asked in a row and may be decided together
    group: Callable[[SpeakeasyState, Task], str] | None = None

    @property
    def private(self) -> bool:
        """Whether the question is answered privately: decided by the kind of step alone."""
        return self.secret or self.pays

    def decline(self, task: Task) -> str | None:
        """The decline option's label for this task, or None when it must be answered."""
        if self.step_skip is not None and task.m == 1:
            return self.step_skip
        return self.skip


STEPS: dict[str, Step] = {}


def register(kind: str, text: Callable[[SpeakeasyState, Task], str] | str, **kw: Any) -> None:
    """Register a step kind (at import time only)."""
    if kind in STEPS:
        raise ValueError(f"step {kind!r} registered twice")
    fn = text if callable(text) else (lambda _s, _t, _x=text: _x)
    STEPS[kind] = Step(kind, fn, **kw)


#: Safe money that pays for anything: all the public knows of a hidden safe.
_ANY_SAFE = 10**9


def as_the_public_knows(state: SpeakeasyState, seat: int) -> SpeakeasyState:
    """A read-only stand-in for ``state`` in which ``seat`` holds what the public cannot rule out: a safe that
    pays for anything and, unless its hand is empty, every Operations card. The options of every private step
    only grow with the safe and the cards held, so a step with an option in the real state has one here too.
    Everything else is shared with ``state``."""
    p = state.players[seat]
    hand = list(range(len(rules(state).cards))) if p.hand else []
    players = list(state.players)
    players[seat] = msgspec.structs.replace(p, safe=_ANY_SAFE, hand=hand)
    return msgspec.structs.replace(state, players=players)


def open_options(state: SpeakeasyState, task: Task) -> list[Option]:
    """The options of ``task``'s question, with the decline option of an optional step, or ``[]`` when it is
    skipped.

    A public step is skipped when it has no legal option (design §0.9). A private one only when the public knows
    it has none (``as_the_public_knows``): otherwise it is asked, and a seat that can do nothing of it gets only
    its ``empty`` answer or its decline. So whether it is asked never shows the hand or the safe."""
    return question_options(state, task)[0]


def question_options(state: SpeakeasyState, task: Task) -> tuple[list[Option], list[Option]]:
    """``open_options`` and the answers shown greyed out, each with why it is not possible now (the step's
    options are made once for both)."""
    step = STEPS[task.kind]
    assert step.options is not None
    made = step.options(state, task)
    options = [o for o in made if not o.disabled]
    grey = [o for o in made if o.disabled]
    if not options:
        if not step.private or not 0 <= task.seat < len(state.players):
            return [], grey
        if not [o for o in step.options(as_the_public_knows(state, task.seat), task) if not o.disabled]:
            return [], grey
        if step.empty is not None:
            options = [step.empty(state, task)]
    label = step.decline(task)
    if label is not None:
        options = [*options, _decline_option(label)]
    return options, grey


#: The decline option of each decline label (a step's own constant), by the label's identity: two labels with
#: the same English may be different messages, so the text alone cannot be the key.
_DECLINES: dict[int, tuple[str, Option]] = {}


def _decline_option(label: str) -> Option:
    """``opt(SKIP, label)``, made once per label (options are frozen): an optional step is asked at every turn."""
    kept = _DECLINES.get(id(label))
    if kept is not None and kept[0] is label:
        return kept[1]
    option = opt(SKIP, label)
    if len(_DECLINES) >= 1024:  # the labels are the steps' constants: a few dozen
        _DECLINES.clear()
    _DECLINES[id(label)] = (label, option)  # the label kept alive with it, so its id stays its own
    return option


def forced_answer(state: SpeakeasyState, task: Task, real: list[Option]) -> tuple[Option, str] | None:
    """The one answer a question has, and why, when the public can tell it has no other: its options as the
    public knows them (a private step's with a safe that pays anything and every card) are a single one. Then
    the real question has that answer too, and settling it at once shows nothing hidden. ``real``: the
    question's ``open_options``."""
    step = STEPS[task.kind]
    if step.auto is not None or step.options is None or not 0 <= task.seat < len(state.players):
        return None
    if len(real) != 1:  # cheap first: the public's options are never fewer than the real ones
        return None
    options = open_options(as_the_public_knows(state, task.seat), task) if step.private else real
    if [o.id for o in options] != [real[0].id]:
        return None
    reason = (
        step.forced(state, task)
        if step.forced is not None
        else M("speakeasy.steps.only_answer", "the only possible answer")
    )
    return real[0], reason


def default_option(state: SpeakeasyState, task: Task, options: list[Option]) -> str | None:
    """The option the table takes for an idle player: the decline where the step has one, else the step's calmer
    ``default`` if offered, else the first option that is not marked risky (``None``: all are)."""
    if options and options[-1].id == SKIP:  # where ``question_options`` puts the decline: the common case
        return SKIP
    ids = [o.id for o in options]
    if SKIP in ids:
        return SKIP
    step = STEPS[task.kind]
    if step.default is not None and step.default(state, task) in ids:
        return step.default(state, task)
    return next((o.id for o in options if o.style != "danger"), None)


def push(state: SpeakeasyState, kind: str, seat: int, n: int = 0, m: int = 0, s: str = "", items=None) -> Task:
    """Put a task on top of the stack (it is asked next)."""
    if kind not in STEPS:
        raise KeyError(f"unknown step {kind!r}")
    task = Task(kind, seat, n, m, s, list(items or []))
    state.tasks.append(task)
    return task


def say(log: Log, text: str | Msg, kind: str = "log", to: tuple[int, ...] | None = None, **data: Any) -> None:
    """Add a log line (public unless ``to`` names seats); a message (``engine.msg``) keeps its JSON form in the
    event's data (``Event.data["msg"]``), so the words layer says it in the reader's language."""
    if type(log) is not QuietLog:
        log.append(Event(kind, text, to, data))


def opt(id_: str, label: str, detail: str = "", style: str = "secondary", cost: int = 0, disabled: str = "") -> Option:
    """An option (labels are cut to Discord's 80 characters by the table, not here); ``cost`` in dollars;
    ``disabled``: why it is not possible now (then it is shown greyed out, never offered). An option in a
    district says where it is (``section``) from the start: the prompt need not remake it."""
    return Option(id_, label, detail, style, cost, disabled, section_of(id_))


#: Option ids whose second part is a district number (a space, a building, a Mobster Speakeasy in it)
_IN_DISTRICT = ("open", "take", "up", "fm", "sell")


@lru_cache(maxsize=4096)  # a function of the id and the data files only; a game's ids are a few hundred
def section_of(option_id: str) -> Msg | str:
    """Where an option belongs in a long menu, "Downtown · Little Italy", or "" when it is not in a district
    (long menus are split by Zone, then district: the style guide)."""
    parts = option_id.split(":")
    if parts[0] not in _IN_DISTRICT or len(parts) < 3 or not parts[1].isdigit():
        return ""
    number = int(parts[1])
    return M(
        "speakeasy.flow.section",
        "{zone} · {district}",
        zone=zone_name(ZONES[zone_index(number)]),
        district=district_name(number),
    )


def mark_reveal(state: SpeakeasyState) -> None:
    """A new turn began: undo may never take back the choice being applied or any before it. ``undo_mark`` is
    the number of choices fixed; reveals and chance move it by themselves (``flow.apply``)."""
    state.undo_mark = state.log_count
