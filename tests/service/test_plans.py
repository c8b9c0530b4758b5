"""Issue "deciding well": one decision per player in a Mob War. An owner's buildings in one district are asked
in a row (seed 001:14.1, building by building); the table offers every combination as one plan, checked answer by
answer, and the record keeps one choice per building."""

from __future__ import annotations

import pytest

from engine.speakeasy.game import SpeakeasyGame
from service.notice import ServiceError, Table
from service.plans import JOIN, parse_plan, plans
from store import GameRow, SeatRow
from tests.service.positions import NAMES, three_building_war


def _table(state: object) -> Table:
    game = SpeakeasyGame()
    row = GameRow(7, game.name, 10, 20, 101, "active", '{"settle": "auto"}', 11, 0, 0.0, 0.0, None, None)
    seats = [SeatRow(7, i, 101 + i, n, False, None) for i, n in enumerate(NAMES)]
    return Table(row, seats, game, state)


@pytest.fixture(scope="module")
def war() -> Table:
    state, _choices = three_building_war()
    return _table(state)


def test_001_14_1_a_plan_decides_every_building_of_the_owner_in_the_district(war):
    (prompt,) = war.prompts()
    assert prompt.kind == "defend" and prompt.group is not None
    found = plans(war, prompt.seat)
    assert len(found) >= 3
    # a defence that uses the Goons up leaves the next buildings without one: the table settles those at once
    assert max(len(p.choices) for p in found) == 3 and all(1 <= len(p.choices) <= 3 for p in found)
    assert len({p.id for p in found}) == len(found)
    # losing everything is always one plan; each plan's answers are what one-by-one answering would allow
    assert JOIN.join(["lose"] * 3) in {p.id for p in found}
    for plan in found:
        assert parse_plan(war, prompt.seat, "defend", plan.id) == list(plan.choices)


def test_a_plan_applied_answer_by_answer_is_the_same_game_as_answering_one_by_one(war):
    game = war.game
    (prompt,) = war.prompts()
    for plan in plans(war, prompt.seat):
        one_by_one = game.loads(game.dumps(war.state))
        for choice in plan.choices:
            (asked,) = game.prompts(one_by_one)
            assert (asked.seat, asked.kind, asked.group) == (prompt.seat, "defend", prompt.group)
            assert asked.option(choice.option) is not None
            game.apply(one_by_one, choice)
        assert not any(p.seat == prompt.seat and p.group == prompt.group for p in game.prompts(one_by_one))


@pytest.mark.parametrize(
    ("plan", "error"),
    [
        ("lose+lose", "unanswered"),
        ("lose+lose+lose+lose", "too many"),
        ("lose+nope+lose", "Answer 2 of that plan is not possible now"),
        ("defend:g99+lose+lose", "Answer 1 of that plan is not possible now"),
    ],
)
def test_a_bad_plan_is_refused_with_what_is_wrong_and_changes_nothing(war, plan, error):
    (prompt,) = war.prompts()
    before = war.game.dumps(war.state)
    with pytest.raises(ServiceError, match=error):
        parse_plan(war, prompt.seat, "defend", plan)
    assert war.game.dumps(war.state) == before


def test_no_plans_for_a_single_question_or_another_seat(war):
    (prompt,) = war.prompts()
    assert plans(war, (prompt.seat + 1) % 4) == []
