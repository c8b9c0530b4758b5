"""The printed words and numbers the Speakeasy pictures keep (render/ may not import the engine) are the ones in
data/speakeasy: a change to a data file that the pictures would miss fails here."""

from __future__ import annotations

from engine.speakeasy.components import PARK_CONDITIONS, TRACKS
from engine.speakeasy.economy import describe
from engine.speakeasy.loader import rules
from render import speakeasy as pictures
from render import speakeasy_text as words


def test_persons_are_the_data_persons_in_order():
    loc = rules().locations
    assert tuple((p.id, p.location, p.name) for p in loc.persons) == words.PERSONS


def test_booths_and_park_rewards_are_the_data_ones():
    loc = rules().locations
    assert [cost for cost, _ in words.BOOTHS] == [b.leverage for b in loc.booths]
    assert len(words.PARK_SPACES) == len(loc.park)
    assert rules().sides["small"].booths == words.SMALL_SIDE_BOOTHS
    # the short reward words name what the data gives (e.g. "2 Leverage" for leverage 2)
    for (_cost, text), booth in zip(words.BOOTHS, loc.booths, strict=True):
        first = booth.reward[0]
        assert str(first.n) in text or first.n == 1


def test_numbers_of_the_player_board_are_the_data_ones():
    t = rules().tracks
    assert t.goon_costs == pictures.GOON_COSTS
    assert t.trucks_by_fleet == pictures.TRUCKS_BY_FLEET
    assert t.max_level == pictures.MAX_LEVEL
    assert t.infamy_max == pictures.INFAMY_MAX
    assert (*TRACKS, "strength") == pictures.LEVEL_KEYS


def test_goal_words_are_the_data_ones():
    g = rules().goals
    assert set(words.PARK_GOALS) == {x.id for x in g.park_goals}
    for goal in g.park_goals:
        text = words.PARK_GOALS[goal.id]
        assert goal.condition == "nightclub_and_casino" or str(goal.n) in text or (goal.n == 1 and "an " in text)
        assert PARK_CONDITIONS[goal.condition]
        assert describe(goal.benefit)
    assert tuple(sorted(g.infamy_books)) == words.INFAMY_BOOK_SPACES


def test_city_tile_and_helper_effects_are_the_data_ones():
    """The pictures print what a City tile and a Helper give (issue 12), in the engine's own words."""
    r = rules()
    assert {k.name: describe(k.benefit) for k in r.city_tiles} == words.CITY_TILE_GIVES
    for kind, short in words.CITY_TILE_SHORT.items():  # the short words keep the number and the thing
        full = words.CITY_TILE_GIVES[kind]
        assert short.split()[0] in full and short.split()[-1].rstrip("s") in full.replace("Operations card", "card")
    assert words.CITY_TILE_SHORT.keys() == words.CITY_TILE_GIVES.keys()
    assert {c.name: (describe(c.upper), describe(c.lower)) for c in r.helpers.cards} == words.HELPER_GIVES
    assert [(cost, describe(b.reward)) for (cost, _), b in zip(words.BOOTHS, r.locations.booths, strict=True)] == [
        (b.leverage, words.BOOTH_GIVES[k]) for k, b in enumerate(r.locations.booths)
    ]
    assert tuple(describe(x.reward) for x in r.locations.park) == words.PARK_GIVES


def test_bottles_achievements_ranks_and_park_rewards_are_the_data_ones():
    """The words the pictures print for a Helper's bottle, Jo's achievements and ranks and what a Central Park goal
    gives (issue 15: messages, so they read in German too) name exactly what the data files hold."""
    from engine.speakeasy.jo.data import jo_rules

    r = rules()
    assert {h.bottle for h in r.helpers.cards} == set(words.BOTTLE_NAMES)
    jr = jo_rules()
    assert {a.id: a.name for a in jr.achievements} == words.ACHIEVEMENT_NAMES
    assert {name for _start, name in jr.ranks} | {jr.loss_rank} == set(words.RANK_NAMES)
    assert all(str(m) == k for k, m in words.RANK_NAMES.items())
    assert {g.id: describe(g.benefit) for g in r.goals.park_goals} == words.PARK_GOAL_GIVES
