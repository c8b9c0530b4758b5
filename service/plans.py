"""Deciding a group of questions at once (issue "deciding well"): a Mob War asks an owner about each of their
buildings in the district in a row; the table offers every combination of answers as one plan.

A plan's id joins the answers' ids with ``+``. It is checked by applying its answers one after the other to a
copy of the game, each to the question the seat is then asked in the same group, so a plan is legal exactly when
answering one by one would be. The record keeps one choice per answer: a replay never needs to know about plans.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Choice, EngineError, Option, Prompt
from engine.msg import Join, M
from service.notice import ServiceError, Table
from service.records import label_of

#: The separator of a plan's answers (never part of an option id).
JOIN = "+"
#: A plan menu is one select menu: at most 25 entries.
MAX_PLANS = 25


@dataclass(frozen=True)
class Plan:
    """One combination of answers to a group of questions."""

    choices: tuple[Choice, ...]
    answers: tuple[Option, ...]
    asked: tuple[Prompt, ...]

    @property
    def id(self) -> str:
        """The option id the menu sends: the answers' ids joined."""
        return JOIN.join(o.id for o in self.answers)

    @property
    def cost(self) -> int:
        """Dollars the whole plan may cost (each answer's ``cost``)."""
        return sum(o.cost for o in self.answers)

    @property
    def risky(self) -> bool:
        """Whether an answer of it cannot be undone (e.g. losing a building)."""
        return any(o.style == "danger" for o in self.answers)


def _copy_state(table: Table, state: object) -> object:
    return table.game.loads(table.game.dumps(state))


def _next(table: Table, state: object, seat: int, group: str) -> Prompt | None:
    """The seat's next question in the group, if the game asks one now."""
    for p in table.game.prompts(state):
        if p.seat == seat and p.group == group and p.race is None:
            return p
    return None


def plans(table: Table, seat: int) -> list[Plan]:
    """Every plan for the seat's open group of questions, in menu order (empty: no group of two or more, or too
    many combinations for one menu: then the questions are answered one by one)."""
    if table.state is None:
        return []
    first = next((p for p in table.prompts_for(seat) if p.group is not None and p.race is None), None)
    if first is None:
        return []
    group = first.group
    assert group is not None
    out: list[Plan] = []

    def walk(state: object, prompt: Prompt, done: Plan) -> bool:
        """Every way to answer from ``prompt`` on, after ``done``; False once there are too many for a menu."""
        for option in prompt.options:
            copy = _copy_state(table, state)
            choice = Choice(seat, prompt.kind, option.id)
            table.game.apply(copy, choice)
            step = Plan(done.choices + (choice,), done.answers + (option,), done.asked + (prompt,))
            nxt = _next(table, copy, seat, group)
            if nxt is None:
                out.append(step)
                if len(out) > MAX_PLANS:
                    return False
            elif not walk(copy, nxt, step):
                return False
        return True

    if not walk(table.state, first, Plan((), (), ())):
        return []
    if max(len(p.choices) for p in out) < 2:
        return []  # a single question: its own buttons are the plan
    return out


def parse_plan(table: Table, seat: int, kind: str, plan_id: str) -> list[Choice]:
    """The choices of a plan the seat sent, checked answer by answer on a copy; a clear error names the first
    answer that is not possible (nothing is applied then)."""
    if table.state is None:
        raise ServiceError(M("table.err.not_started", "The game has not started."))
    first = next((p for p in table.prompts_for(seat) if p.kind == kind and p.group is not None), None)
    if first is None:
        raise ServiceError(
            M(
                "table.err.plan_other",
                "That plan is not for the question you are being asked now. Use the latest message.",
            )
        )
    group = first.group
    assert group is not None
    state = _copy_state(table, table.state)
    prompt: Prompt | None = first
    choices: list[Choice] = []
    for n, option in enumerate(plan_id.split(JOIN), 1):
        if prompt is None:
            raise ServiceError(
                M("table.err.plan_long", "That plan has too many answers; only {n} questions are asked.", n=n - 1)
            )
        chosen = prompt.option(option)
        if chosen is None:
            allowed = Join([label_of(o) for o in prompt.options], "comma")
            raise ServiceError(
                M(
                    "table.err.plan_answer",
                    "Answer {n} of that plan is not possible now. For that question you may: {allowed}.",
                    n=n,
                    allowed=allowed,
                )
            )
        choice = Choice(seat, prompt.kind, option)
        try:
            table.game.apply(state, choice)
        except EngineError as exc:
            why = exc.args[0] if exc.args else str(exc)
            raise ServiceError(
                M("table.err.plan_illegal", "Answer {n} of that plan is not possible now: {why}", n=n, why=why)
            ) from None
        choices.append(choice)
        prompt = _next(table, state, seat, group)
    if prompt is not None:
        raise ServiceError(
            M("table.err.plan_short", "That plan leaves a question of the group unanswered; choose a whole plan.")
        )
    return choices
