"""Issue 25: each value Speakeasy rules version 2 changes, as a game at version 2 plays it and version 1 does not.
Each test cites its entry in docs/house-rules.md (why the value changed and the figures before and after)."""

from __future__ import annotations

from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.loader import rules
from engine.speakeasy.setup import new_state
from tests.engine.speakeasy import kit
from tests.engine.speakeasy.test_design_goals_tiles_helpers import cook_ready
from tests.engine.speakeasy.test_design_locations import calm, place


def test_house_v2_city_hall_book_pays_15():
    """docs/house-rules.md, "Books pay $15": a City Hall Book pays $15 to the safe at version 2, $20 at 1."""
    for version, paid in ((1, 20), (2, 15)):
        state = kit.paused()
        state.rules = version
        cook_ready(state)
        kit.give(state, 0, leverage=2)
        kit.task(state, "cook", 0, n=1)
        kit.answer(state, "hall")
        assert state.player(0).safe == paid
    assert (rules(1).goals.zone_goal_reward, rules(2).goals.zone_goal_reward) == (20, 15)


def test_house_v2_barrel_prices_half_again():
    """docs/house-rules.md, "Barrel prices": a barrel beside a Speakeasy at Infamy 5 sells for $5 at version 2,
    $3 at 1 (each band about half again)."""
    for version, price in ((1, 3), (2, 5)):
        state = kit.paused()
        state.rules = version
        calm(state, 2)
        kit.build(state, 0, 2, kit.empty_space(state, 2), barrel=True)
        p = state.player(0)
        pocket = p.pocket
        place(state, 0, "first")
        kit.answer(state, "sell")
        kit.answer(state, "sell:2:")
        assert p.pocket == pocket + price
    assert rules(2).tracks.prices["casino"] == (11, 14, 17, 20, 23)


def test_house_v2_jo_head_start_at_hard_and_brutal():
    """docs/house-rules.md, "Jo's head start": at version 2 Jo starts with $15 at difficulty 2, $40 at 3 (it was
    $30 until the report's size showed a 7-point step from Standard to Hard) and $80 at 4, and with nothing at 1
    (as at every difficulty at version 1)."""
    for difficulty, money in ((1, 0), (2, 15), (3, 40), (4, 80)):
        state, events = new_state(["Ann"], 7, difficulty, 2)
        assert state.jo is not None
        assert state.players[state.jo.seat].pocket == money
        assert (f"At this difficulty Jo starts with ${money}." in [str(e.text) for e in events]) == bool(money)
        old, _ = new_state(["Ann"], 7, difficulty, 1)
        assert old.jo is not None and old.players[old.jo.seat].pocket == 0
    assert [jo_rules(2).difficulties[d].head_start for d in (1, 2, 3, 4)] == [0, 15, 40, 80]
