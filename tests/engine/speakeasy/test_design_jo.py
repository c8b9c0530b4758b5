"""Speakeasy solo, the project's rules for what seed 003 leaves open: design §15.1-§15.5 (Jo's interpretation
flags, District cards, action decks, difficulty, Stretch achievements and ranks) and §2's "When Jo bumps your
Capo to the Park".

Tests are named after the design section (``test_design_<section>_...``, ../shared/design/speakeasy-gaps.md).
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.core import Rng
from engine.speakeasy import acts
from engine.speakeasy import economy as eco
from engine.speakeasy.board import buildings, free_spaces
from engine.speakeasy.jo import actions, scoring, setup, war
from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.jo.orders import lowest_level
from engine.speakeasy.state import JoState
from tests.engine.speakeasy import kit
from tests.engine.speakeasy.test_seed_jo import (
    ANN,
    DOWNTOWN,
    JO,
    MIDTOWN,
    UPTOWN,
    ann_build,
    capo,
    clear_map,
    copy,
    district_deck,
    dock,
    end_state,
    fill,
    give_helper,
    jo_action,
    jo_build,
    jo_turn,
    jo_war,
    lose,
    no_cops,
    park_capo,
    pocket,
    random_game,
    score,
    set_cop,
    set_display,
    solo_new,
    solo_paused,
    top,
)

R = kit.R()
JR = jo_rules()
OPS = ("vip", "party", "stills", "fleet")
STRONG = {c.id for c in JR.cards if c.deck == 0 and c.strong}
WEAK = {c.id for c in JR.cards if c.deck == 0 and not c.strong}


def deck_of(card: str) -> int:
    return JR.card(card).deck


def protected(state) -> int:
    return sum(b.family for _d, _i, b in buildings(state, JO))


def barrels_at(state, *numbers: int) -> list[bool]:
    return [state.districts[n - 1].spaces[0].building.barrel for n in numbers]


def city(seed: int = 1):
    """A paused solo game with an empty city and no Cops."""
    state = solo_paused(seed)
    clear_map(state)
    no_cops(state)
    return state


# --- §15.1 Interpretation flags: action sizes, Produce ----------------------------------------------------------


def test_design_15_1_action_sizes_use_the_level_number():
    """§15.1: action sizes use the level number, not the §3.1 value: VIP 3 protects 3 (value 2), Party 2 sells 2
    (value 3), Fleet 1 delivers 1 (value 2), Stills 1 produces 1 (value 2)."""
    assert JR.level_number_sizes is True
    state = city()
    for n in (1, 2, 3, 4):
        jo_build(state, n, 0, barrel=True)
    jo_build(state, 6, 0)
    jo_build(state, 7, 0)
    jo_build(state, 8, 0, "stills")
    kit.give(state, JO, levels={"vip": 3, "party": 2, "fleet": 1, "stills": 1}, stills_barrels=0)
    jo_action(state, "PROT")
    assert protected(state) == 3
    jo_action(state, "SEL")
    assert sum(barrels_at(state, 1, 2, 3, 4)) == 2
    jo_action(state, "PRO")
    assert state.player(JO).stills_barrels == 1
    jo_action(state, "DEL")
    assert sum(barrels_at(state, 1, 2, 3, 4, 6, 7)) == 3
    kit.ok(state)


def test_design_15_1_level_number_flag_is_switchable(monkeypatch):
    """§15.1: the level-number rule is a switchable flag: switched off, Jo's sizes are the track values (VIP 3:
    2 Family Members; Party 1: 2 barrels)."""
    off = dataclasses.replace(JR, level_number_sizes=False)
    monkeypatch.setattr(actions, "jo_rules", lambda: off)
    state = city()
    for n in (1, 2, 3):
        jo_build(state, n, 0, barrel=True)
    kit.give(state, JO, levels={"vip": 3, "party": 1})
    assert actions.size(state, JO, "vip") == 2 and actions.size(state, JO, "party") == 2
    jo_action(state, "PROT")
    jo_action(state, "SEL")
    assert protected(state) == 2 and sum(barrels_at(state, 1, 2, 3)) == 1
    kit.ok(state)


def test_design_15_1_produce_stills_level_onto_stills_area_capacity_8():
    """§15.1 Produce: barrels equal to his Stills level onto his Stills area, capacity 8; he needs an Operating
    Stills."""
    state = city()
    kit.give(state, JO, levels={"stills": 3}, stills_barrels=0)
    jo_action(state, "PRO")
    assert state.player(JO).stills_barrels == 0  # no Stills on the map
    jo_build(state, 4, 0, "stills")
    jo_action(state, "PRO")
    assert state.player(JO).stills_barrels == 3
    kit.give(state, JO, stills_barrels=7)
    jo_action(state, "PRO")
    assert state.player(JO).stills_barrels == JR.stills_capacity == 8
    set_cop(state, 4)
    kit.give(state, JO, stills_barrels=0)
    jo_action(state, "PRO")
    assert state.player(JO).stills_barrels == 0  # not Operating
    kit.ok(state)


# --- §15.1 Build X ------------------------------------------------------------------------------------------------


def test_design_15_1_build_opens_x_on_first_free_space_else_takes_over_first_mobster_held():
    """§15.1 Build X: X on the first free space of the drawn district (space 1 Mobster-held, space 2 free:
    space 2); failing that, the first Mobster-held space is taken over (the Mobster Speakeasy leaves)."""
    state = city()
    d = state.districts[7]
    d.spaces[0].mobster = True
    district_deck(state, 8)
    jo_action(state, "B-N")
    assert d.spaces[0].building is None and d.spaces[0].mobster
    assert d.spaces[1].building.kind == "nightclub" and d.spaces[1].building.owner == JO
    d2 = state.districts[12]
    for sp in d2.spaces:
        sp.mobster = True
    district_deck(state, 13)
    jo_action(state, "B-C")
    assert d2.spaces[0].building.kind == "casino" and not d2.spaces[0].mobster and d2.spaces[1].mobster
    kit.ok(state)


def empty_row(state, seat: int, kind: str) -> None:
    """Every building of that row lost (off the row, counted as lost), so the row is empty."""
    while any(state.player(seat).rows[kind]):
        lose(state, seat, kind)


def test_design_15_1_build_uses_next_lower_type():
    """§15.1: with no X left he builds the next lower type: Casino -> Nightclub -> Speakeasy."""
    state = city()
    empty_row(state, JO, "casino")
    district_deck(state, 8)
    jo_action(state, "B-C")
    assert state.districts[7].spaces[0].building.kind == "nightclub"
    empty_row(state, JO, "nightclub")
    district_deck(state, 8)
    jo_action(state, "B-C")
    assert state.districts[7].spaces[1].building.kind == "speakeasy"
    kit.ok(state)


def test_design_15_1_build_never_a_stills_skipped_without_drawing():
    """§15.1: never a Stills; with no X or lower type the action is skipped without drawing a District card."""
    state = city()
    empty_row(state, JO, "speakeasy")
    district_deck(state, 8, 4)
    jo_action(state, "B-S")
    assert state.jo.drawn == [] and state.jo.districts[:2] == [8, 4]
    assert state.player(JO).rows["stills"] == [True]
    assert not any(b.owner == JO for _d, _i, b in buildings(state))
    kit.ok(state)


def test_design_15_1_build_skipped_without_drawing_when_no_space_on_the_board():
    """§15.1: with no free or Mobster-held space on the board the action is skipped without drawing."""
    state = city()
    spaces = list(free_spaces(state))
    ann_kinds = ["stills"] + ["speakeasy"] * 8 + ["nightclub"] * 3 + ["casino"] * 3
    jo_kinds = ["stills"] + ["speakeasy"] * 7 + ["nightclub"] * 3 + ["casino"] * 3
    assert len(spaces) == len(ann_kinds) + len(jo_kinds)
    for (d, i), kind in zip(spaces, ann_kinds, strict=False):
        ann_build(state, d.number, i, kind)
    for (d, i), kind in zip(spaces[len(ann_kinds) :], jo_kinds, strict=True):
        jo_build(state, d.number, i, kind)
    assert state.player(JO).rows["speakeasy"].count(True) == 1
    before = list(state.jo.districts)
    jo_action(state, "B-S")
    assert state.jo.drawn == [] and state.jo.districts == before
    assert state.player(JO).rows["speakeasy"].count(True) == 1
    kit.ok(state)


def test_design_15_1_empty_district_deck_reshuffled_from_all_16():
    """§15.1: otherwise an empty District deck is reshuffled from all 16 cards, so the search ends."""
    state = city()
    state.jo.drawn = list(state.jo.districts)
    state.jo.districts = []
    jo_action(state, "B-S")
    assert sum(1 for _d, _i, b in buildings(state, JO)) == 1
    assert len(state.jo.drawn) + len(state.jo.districts) == 16 and len(state.jo.districts) < 16
    kit.ok(state)


def test_design_15_1_icons_count_on_every_card_drawn_that_turn():
    """§15.1: icons count on every card drawn that turn, built on or not: district 1 (full, Family Member icon)
    and district 2 (full, Helper icon) before district 4: a Family Member to the Downtown Docks and a Helper."""
    state = city()
    fill(state, 1)
    fill(state, 2)
    district_deck(state, 1, 2, 4)
    jo_action(state, "B-S")
    assert state.docks[DOWNTOWN].count(JO) == 1 and len(state.player(JO).helpers) == 1
    assert state.districts[3].spaces[0].building.owner == JO
    kit.ok(state)


# --- §15.1 Cook Books ---------------------------------------------------------------------------------------------


def cook_city():
    """An empty city, no Cops; Jo's levels at 1, Infamy 5, $0."""
    state = city()
    kit.give(state, JO, levels={"vip": 1, "party": 1, "stills": 1, "fleet": 1}, pocket=0, infamy=5)
    return state


def cooked(events) -> list[str]:
    """Where Jo put his Books, in order, read from the log."""
    out = []
    for e in events:
        if e.text.startswith("Jo cooks the Books on the "):
            out.append(e.text.split(" on the ")[1].split(":")[0])
        elif e.text.startswith("Jo cooks the Books at City Hall"):
            out.append("City Hall")
        elif e.text.startswith("Jo cooks the Books on Infamy"):
            out.append("Infamy " + e.text.split("Infamy ")[1].split(":")[0])
        elif e.text.startswith("Jo puts a Book on Central Park"):
            out.append("Central Park")
    return out


def test_design_15_1_cook_zone_goals_in_order_uptown_downtown_midtown():
    """§15.1 Cook: Zone goals in the order Uptown, Downtown, Midtown (all three met: three Books, in that
    order)."""
    state = cook_city()
    state.zone_goals = [0, 4, 5]  # Downtown 2 districts, Midtown 3 buildings, Uptown 4 buildings
    for n, i in ((1, 0), (2, 0), (6, 0), (7, 0), (8, 0), (11, 0), (11, 1), (12, 0), (12, 1)):
        jo_build(state, n, i, "nightclub" if n == 12 else "speakeasy")
    events = jo_action(state, "COOK")
    assert cooked(events) == ["Uptown goal", "Downtown goal", "Midtown goal"]
    assert all(z == [JO] for z in state.zone_books) and pocket(state) == 60
    kit.ok(state)


def test_design_15_1_cook_zone_goal_conditions_must_be_met():
    """§15.1: Jo must meet Zone goal conditions (counting Operating buildings only); only Central Park goals are
    ignored."""
    state = cook_city()
    state.zone_goals = [3, 4, 2]  # Downtown 2 buildings, Midtown 3 buildings, Uptown 4 districts
    jo_build(state, 1, 0)
    jo_build(state, 2, 0)
    set_cop(state, 2)  # Downtown: only 1 Operating building
    events = jo_action(state, "COOK")
    assert all(JO not in z for z in state.zone_books)
    assert cooked(events) == ["City Hall", "Central Park"]  # the Central Park Book needs no condition
    kit.ok(state)


def test_design_15_1_lowest_level_ties_vip_party_stills_fleet():
    """§15.1: his "lowest level" breaks ties in the order VIP, Party, Stills, Fleet (Strength never counts)."""
    state = city()
    kit.give(state, JO, levels={"vip": 2, "party": 2, "stills": 2, "fleet": 2, "strength": 1})
    raised = []
    for _ in range(4):
        before = dict(state.player(JO).levels)
        jo_action(state, "+low")
        raised += [t for t in OPS if state.player(JO).levels[t] != before[t]]
    assert raised == ["vip", "party", "stills", "fleet"]
    assert state.player(JO).levels["strength"] == 1
    kit.give(state, JO, levels={"vip": 4, "party": 3, "stills": 5, "fleet": 3})
    assert lowest_level(state, JO) == "party"
    kit.ok(state)


def test_design_15_1_city_hall_ignores_leverage_once_per_act():
    """§15.1 City Hall: he ignores Leverage (he has none); limit 1 per Act."""
    state = cook_city()
    assert state.player(JO).leverage == 0
    jo_action(state, "COOK")
    assert state.city_hall_books == [[JO, 1]]
    jo_action(state, "COOK")
    assert state.city_hall_books == [[JO, 1]]
    state.act = 2
    jo_action(state, "COOK")
    assert state.city_hall_books == [[JO, 1], [JO, 2]]
    assert state.player(JO).leverage == 0
    kit.ok(state)


def test_design_15_1_docks_need_his_own_family_member_zones_downtown_midtown_uptown():
    """§15.1 Docks: he needs his own Family Member in that zone (Ann's in Downtown does not count); zones in the
    order Downtown, Midtown, Uptown."""
    state = cook_city()
    state.city_hall_books.append([JO, 1])
    state.player(JO).book_supply -= 1
    dock(state, ANN, DOWNTOWN)
    dock(state, JO, UPTOWN)
    dock(state, JO, MIDTOWN)
    events = jo_action(state, "COOK")
    assert cooked(events) == ["Midtown Docks", "Uptown Docks", "Central Park"]
    assert state.docks_books == [[], [JO], [JO]]
    assert pocket(state) == 15 + 15 + 10
    kit.ok(state)


def test_design_15_1_infamy_highest_book_space_not_yet_holding_his_book():
    """§15.1 Infamy: the highest book space at or below his Infamy that does not yet hold his Book (Infamy 16:
    space 15, then 11, then 7; each raise of his lowest level moves his Infamy up one)."""
    state = cook_city()
    state.city_hall_books.append([JO, 1])
    state.player(JO).book_supply -= 1
    kit.give(state, JO, infamy=16)
    events = jo_action(state, "COOK")
    assert cooked(events) == ["Infamy 15", "Infamy 11", "Infamy 7"]
    assert state.player(JO).infamy == 19
    kit.ok(state)


def test_design_15_1_jo_has_8_family_members_and_10_books():
    """§15.1: Jo has 8 Family Members and 10 Books in supply."""
    p = solo_new().player(JO)
    assert p.family_supply == JR.numbers["family"] == 8
    assert p.book_supply == JR.numbers["books"] == 10


# --- §15.1 Helper icon ----------------------------------------------------------------------------------------


def test_design_15_1_helper_icon_with_nothing_lacking_takes_nothing():
    """§15.1 Helper icon: if he lacks none of the bottles on display he takes nothing; an Infamy Helper reward
    follows the same rule."""
    state = city()
    give_helper(state, JO, 0)  # Moonshine
    give_helper(state, JO, 4)  # Gin
    set_display(state, 1, 5, 2)  # Moonshine, Gin, Moonshine
    shown = list(state.helper_display)
    district_deck(state, 2)
    jo_action(state, "B-S")
    assert state.player(JO).helpers == [0, 4] and state.helper_display == shown
    kit.give(state, JO, infamy=9)
    eco.gain_infamy(state, JO, 1, [])
    assert state.player(JO).helpers == [0, 4] and state.helper_display == shown
    assert 10 in state.player(JO).rewards
    kit.ok(state)


# --- §15.1 Placement ----------------------------------------------------------------------------------------------


def test_design_15_1_placement_your_capo_bumped_in_mixed_cases():
    """§15.1 Placement: if neither Person is free and at least one holds your Capo, your leftmost one there is
    bumped: left Jo's and right yours: your right one; he redraws only if both hold his."""
    state = solo_paused()
    capo(state, JO, "mechanic")
    capo(state, ANN, "dispatcher")
    jo_turn(state, "1b")
    assert state.persons["dispatcher"] == JO and state.park[0] == ANN
    assert kit.prompt(state).kind == "park_bump"
    state = solo_paused()
    capo(state, ANN, "mechanic")
    capo(state, JO, "dispatcher")
    jo_turn(state, "1b")
    assert state.persons["mechanic"] == JO and state.park[0] == ANN


def test_design_15_1_park_leftmost_free_space():
    """§15.1 Placement: at the Park, the leftmost free space."""
    state = solo_paused()
    park_capo(state, ANN, 0)
    park_capo(state, ANN, 2)
    jo_turn(state, "0W1")
    assert state.park == [ANN, JO, ANN]
    kit.ok(state)


def test_design_15_1_restaurant_lowest_free_booth_else_first_place():
    """§15.1: Restaurant: lowest free booth (no Leverage, no reward), else first place (moving his marker)."""
    state = solo_paused()
    state.booths[0] = ANN
    state.booths[2] = ANN
    state.player(ANN).capos -= 2
    jo_turn(state, "0W3")
    assert state.booths[:3] == [ANN, JO, ANN] and state.player(JO).leverage == 0
    assert state.player(JO).helpers == []  # booth 2's reward (a Helper) is not taken
    jo_turn(state, "1c")
    assert state.first_place == [JO] and state.track == [JO, ANN]
    kit.ok(state)


def test_design_15_1_redrawn_cards_go_to_the_bottom_in_random_order():
    """§15.1: redrawn cards go to the bottom in random order (two unused cards: both orders occur)."""
    base = solo_paused()
    capo(base, JO, "mechanic")
    capo(base, JO, "dispatcher")
    orders = set()
    for k in range(12):
        state = copy(base)
        state.rng = Rng(k)
        # The Garage is blocked by his own Capos: two Garage cards are redrawn before the Commission card.
        jo_turn(state, "1b", "0W4", "2d")
        assert state.jo.card == "2d"
        orders.add(tuple(state.jo.deck[-2:]))
    assert orders == {("1b", "0W4"), ("0W4", "1b")}


def test_design_15_1_no_card_placeable_first_place_with_the_first_drawn_card():
    """§15.1: if no card left can be placed, he takes first place and does the first card drawn."""
    state = solo_paused()
    for k in range(3):
        park_capo(state, ANN, k)
    jo = state.jo
    jo.boxed += [c for c in jo.deck]
    jo.deck = []
    top(state, "2e", "0W1")
    pocket_before = pocket(state)
    kit.task(state, "jo_turn", JO)
    assert jo.card == "2e" and state.first_place == [JO] and state.track[0] == JO
    assert jo.discard[-1] == "2e" and jo.deck == ["0W1"]
    assert pocket(state) == pocket_before + 5
    kit.ok(state)


# --- §15.1 Never ---------------------------------------------------------------------------------------------------


def test_design_15_1_never_draws_operations_cards_or_uses_helpers():
    """§15.1 Never: Operations card draws, either half of a Helper: over complete games his hand stays empty and
    no Helper of his is ever used (none behind a screen)."""
    for seed, diff in ((1, 1), (2, 2), (3, 3), (4, 4)):
        state, _e, _s = random_game(seed, diff)
        assert state.player(JO).hand == [] and state.player(JO).screen == []


def test_design_15_1_never_uses_crate_powers_champagne_still_counts():
    """§15.1 Never: Crate powers: Jazz Records, Copper Coils and Fast Boat add nothing to his Sell, Produce and
    Deliver; the Champagne Case still counts as a bottle at scoring."""
    state = city()
    crates = [3, 2, 1, 11]  # Jazz Records, Copper Coils, Fast Boat, Champagne Case
    for c in crates:
        for sh in state.ships:
            if sh.crate == c:
                sh.crate = None
        if c in state.crate_stack:
            state.crate_stack.remove(c)
    state.player(JO).crates = crates
    for n in (1, 2, 3):
        jo_build(state, n, 0, barrel=True)
    jo_build(state, 4, 0, "stills")
    jo_build(state, 6, 0)
    jo_build(state, 7, 0)
    kit.give(state, JO, levels={"party": 1, "stills": 1, "fleet": 1}, stills_barrels=0)
    jo_action(state, "SEL")
    assert sum(barrels_at(state, 1, 2, 3)) == 2
    jo_action(state, "PRO")
    assert state.player(JO).stills_barrels == 1
    jo_action(state, "DEL")
    assert sum(barrels_at(state, 1, 2, 3, 6, 7)) == 3
    kit.ok(state)
    state.act = 4
    acts.final_scoring(state, [])
    assert state.player(JO).final["bottles"] == R.helpers.bottle_values["champagne"]


def test_design_15_1_level_5_needs_no_discard_and_plus_at_5_is_skipped():
    """§15.1 Never: discards for level 5 (Jo at 4 rises to 5 with no cards); a + action at level 5 is skipped
    (no Infamy either)."""
    state = city()
    kit.give(state, JO, levels={"vip": 4})
    jo_action(state, "+V")
    assert state.player(JO).levels["vip"] == 5
    infamy = state.player(JO).infamy
    jo_action(state, "+V")
    assert state.player(JO).levels["vip"] == 5 and state.player(JO).infamy == infamy
    kit.give(state, JO, levels={t: 5 for t in OPS})
    jo_action(state, "+low")
    assert all(state.player(JO).levels[t] == 5 for t in OPS) and state.player(JO).infamy == infamy
    kit.ok(state)


def test_design_15_1_setup_raise_moves_no_infamy_later_steps_do():
    """§15.1: the setup raise moves no Infamy (still 5 with one level at 2); later + steps raise Infamy by 1."""
    state = solo_paused()
    assert state.player(JO).infamy == 5 and sorted(state.player(JO).levels[t] for t in OPS) == [1, 1, 1, 2]
    jo_action(state, "+P")
    assert state.player(JO).infamy == 6
    jo_action(state, "+low")
    assert state.player(JO).infamy == 7
    kit.ok(state)


def test_design_15_1_money_one_public_pool():
    """§15.1 Money: one public pool: Zone payouts, safe-money rewards (Infamy 12) and Cook rewards (City Hall $20,
    Infamy 11 $10, Infamy 7 $5) all go there; his safe stays empty."""
    state = city()
    jo_build(state, 11, 0)
    kit.task(state, "payout", -1)
    uptown = R.sides["small"].zone_payouts[2][0]
    assert pocket(state) == uptown and state.player(JO).safe == 0
    kit.give(state, JO, infamy=11)
    eco.gain_infamy(state, JO, 1, [])
    jo_action(state, "COOK")
    assert state.player(JO).safe == 0 and pocket(state) == uptown + 10 + 20 + 10 + 5
    kit.ok(state)


def test_design_15_1_mob_war_defends_most_valuable_first_while_he_has_money():
    """§15.1 Mob War: he defends every building, most valuable first, while he has money: $8 against attack 7
    keeps the Casino ($7) and the Nightclub (his last $1); the Speakeasy is lost."""
    state = solo_paused()
    jo_war(state, 3, [(0, "speakeasy"), (1, "nightclub"), (2, "casino")], 8)
    d = state.districts[2]
    assert [sp.building.kind if sp.building else None for sp in d.spaces] == [None, "nightclub", "casino"]
    assert d.spaces[0].mobster and pocket(state) == 0
    assert war.defence_order(state, JO, d) == [2, 1]
    kit.ok(state)


def test_design_15_1_mob_war_jo_defends_in_his_place_in_turn_order():
    """§15.1, seed 001:14.1: Jo's defences come in his place in turn order among the owners' prompts: Ann first on
    the track, her defence is asked first, and Jo's runs after her answer."""
    state = solo_paused()
    state.track = [ANN, JO]
    clear_map(state)
    no_cops(state)
    ann_build(state, 3, 0)
    jo_build(state, 3, 1, "casino")
    kit.give(state, JO, pocket=20)
    m = next(x.id for x in R.mobsters if x.deck == "B" and x.strength + x.modifier == 7)
    state.mobster_decks["B"] = [m] + [x for x in state.mobster_decks["B"] if x != m]
    state.districts[2].war_tile = True
    state.act = 1
    state.war_stats = [[0, 0]]
    kit.task(state, "war_district", -1, n=3)
    assert kit.prompt(state).seat == ANN and pocket(state) == 20
    kit.answer(state, "lose")
    assert pocket(state) == 13 and state.districts[2].spaces[1].building.owner == JO
    kit.ok(state)


# --- §15.1 Deliver and Ambush -------------------------------------------------------------------------------------


def test_design_15_1_deliver_stills_then_cheapest_ship_by_price_then_number():
    """§15.1 Deliver: Stills area first, then the cheapest Ship with barrels (printed price, then Ship number),
    and so on: 1 from the Stills, Ship 1's last barrel ($2), then Ship 2 ($3) before Ship 3 ($3)."""
    state = city()
    for n in (1, 2, 3, 4):
        jo_build(state, n, 0)
    for sh, b in zip(state.ships, (1, 2, 5, 5), strict=True):
        sh.barrels = b
    kit.give(state, JO, levels={"fleet": 4}, stills_barrels=1)
    jo_action(state, "DEL")
    assert barrels_at(state, 1, 2, 3, 4) == [True] * 4
    assert [sh.barrels for sh in state.ships] == [0, 0, 5, 5] and state.player(JO).stills_barrels == 0
    kit.ok(state)


def test_design_15_1_ambush_needs_a_ship_with_barrels():
    """§15.1: Ambush needs a Ship with barrels: all Ships empty, nothing happens (no money, no Crate)."""
    state = city()
    for sh in state.ships:
        sh.barrels = 0
    jo_action(state, "AMB")
    assert pocket(state) == 0 and state.player(JO).crates == [] and state.player(JO).ambushes == 0
    kit.ok(state)


# --- §2 When Jo bumps your Capo to the Park ------------------------------------------------------------------------


def test_design_2_bump_leftmost_is_the_left_person_else_the_right():
    """§2: "your leftmost Capo there" is the one on the left Person (both yours: the Mechanic's)."""
    state = solo_paused()
    capo(state, ANN, "mechanic")
    capo(state, ANN, "dispatcher")
    jo_turn(state, "1b")
    assert state.persons["mechanic"] == JO and state.persons["dispatcher"] == ANN
    state = solo_paused()
    capo(state, JO, "mechanic")
    capo(state, ANN, "dispatcher")
    jo_turn(state, "1b")  # the left one holds Jo's: the right one is your leftmost there
    assert state.persons["dispatcher"] == JO and state.park[0] == ANN


def test_design_2_bumped_capo_to_leftmost_free_park_space_or_beside_the_park():
    """§2: your Capo goes to the leftmost free Park space; with the Park full it goes beside the Park (and comes
    back at the end of the Act like the others)."""
    state = solo_paused()
    park_capo(state, ANN, 0)
    capo(state, ANN, "mechanic")
    capo(state, ANN, "dispatcher")
    jo_turn(state, "1b")
    assert state.park == [ANN, ANN, None] and state.persons["mechanic"] == JO
    kit.answer(state, "reward:0")
    kit.ok(state)
    state = solo_paused()
    park_capo(state, ANN, 0)
    park_capo(state, JO, 1)
    park_capo(state, JO, 2)
    capo(state, ANN, "mechanic")
    capo(state, ANN, "dispatcher")
    jo_turn(state, "1b")
    assert state.beside_park == [ANN] and state.park == [ANN, JO, JO] and state.persons["mechanic"] == JO
    assert kit.prompt(state).kind == "park_bump"
    kit.answer(state, "reward:1")
    kit.ok(state)
    acts.return_capos(state, [])
    assert state.beside_park == [] and state.park == [None, None, None]
    kit.ok(state)


def test_design_2_bumped_you_take_any_one_of_the_three_rewards():
    """§2: you take any one of the three rewards, whichever space the Capo is on: on space 1, the $5 of space 1,
    the 2 Leverage of space 2 or the Book and card of space 3."""
    for option, check in (
        ("reward:0", lambda p, b: p.pocket == b[0] + 5),
        ("reward:1", lambda p, b: p.leverage == b[1] + 2),
        ("reward:2", lambda p, b: p.books == b[2] + 1 and len(p.hand) == b[3] + 1),
    ):
        state = solo_paused()
        capo(state, ANN, "alderman")
        capo(state, ANN, "police_captain")
        p = state.player(ANN)
        before = (p.pocket, p.leverage, p.books, len(p.hand))
        jo_turn(state, "3c")
        assert state.park[0] == ANN
        assert [o.id for o in kit.prompt(state).options] == ["reward:0", "reward:1", "reward:2"]
        kit.answer(state, option)
        while kit.GAME.prompts(state) and kit.prompt(state).seat == ANN:
            kit.answer(state, kit.ids(state)[0])
        assert check(p, before), option
        kit.ok(state)


# --- §15.2 District cards -------------------------------------------------------------------------------------------


def test_design_15_2_district_card_icons():
    """§15.2: Family Member icon on districts 1, 3, 7, 12; Helper icon on 2, 6, 11, 14; the others have none."""
    assert JR.family_icon == {1, 3, 7, 12} and JR.helper_icon == {2, 6, 11, 14}
    base = city()
    fill(base, 4)
    for n in range(1, 17):
        state = copy(base)
        district_deck(state, n, 8)
        jo_action(state, "B-S")
        docks = [z.count(JO) for z in state.docks]
        helpers = len(state.player(JO).helpers)
        if n in (1, 3, 7, 12):
            zone = 0 if n <= 5 else 1 if n <= 10 else 2
            assert docks[zone] == 1 and sum(docks) == 1 and helpers == 0, n
        elif n in (2, 6, 11, 14):
            assert sum(docks) == 0 and helpers == 1, n
        else:
            assert sum(docks) == 0 and helpers == 0, n


# --- §15.3 Action decks -------------------------------------------------------------------------------------------

CARDS = {
    "1a": ("contractor", ("B-S", "B-S")),
    "1b": ("garage", ("PRO", "DEL")),
    "1c": ("restaurant", ("SEL", "+P")),
    "2a": ("docks", ("DEL", "AMB")),
    "2b": ("city_hall", ("+V", "PROT")),
    "2c": ("city_planning", ("+F", "B-S")),
    "2d": ("commission", ("+S", "$5")),
    "2e": ("park", ("$5", "SEL")),
    "3a": ("contractor", ("B-N", "B-S")),
    "3b": ("garage", ("PRO", "DEL", "SEL")),
    "3c": ("city_hall", ("COOK",)),
    "4a": ("city_planning", ("B-C", "+low")),
    "4b": ("docks", ("AMB", "DEL", "SEL")),
    "4c": ("commission", ("PROT", "COOK")),
    "0S1": ("restaurant", ("SEL", "COOK")),
    "0S2": ("contractor", ("B-C", "B-N")),
    "0S3": ("garage", ("+S", "PRO", "DEL")),
    "0S4": ("city_hall", ("PROT", "COOK")),
    "0S5": ("docks", ("AMB", "SEL")),
    "0S6": ("city_planning", ("+P", "+F", "SEL")),
    "0W1": ("park", ("$5", "+V")),
    "0W2": ("commission", ("+F",)),
    "0W3": ("restaurant", ("+P",)),
    "0W4": ("garage", ("PRO",)),
    "0W5": ("contractor", ("B-S",)),
    "0W6": ("city_hall", ("+S", "$3")),
}


def test_design_15_3_card_table():
    """§15.3: the 26 cards, their locations and actions top to bottom, as in the design table."""
    assert {c.id: (c.location, c.actions) for c in JR.cards} == CARDS
    assert {f"0S{k}" for k in range(1, 7)} == STRONG and {f"0W{k}" for k in range(1, 7)} == WEAK


def test_design_15_3_deck_sizes():
    """§15.3: decks 1, 3 and 4 have 3 cards, deck 2 has 5 (2 boxed at random), deck 0 has 12: 6 strong, 6 weak;
    6 of the 12 show a + action."""
    sizes = [sum(c.deck == d for c in JR.cards) for d in range(5)]
    assert sizes == [12, 3, 5, 3, 3]
    assert len(STRONG) == len(WEAK) == 6
    assert sum(any(a.startswith("+") for a in JR.card(c).actions) for c in STRONG | WEAK) == 6
    jo = solo_new().jo
    assert len(jo.deck) == 6 and sum(deck_of(c) == 2 for c in jo.boxed) == 2


class FrontRng:
    """A stand-in for the game's Rng: ``shuffle`` puts the listed cards first (in that order), ``below`` is 0."""

    def __init__(self, front: list[str]):
        self.front = front

    def shuffle(self, items: list) -> None:
        ahead = [c for c in self.front if c in items]
        rest = [c for c in items if c not in ahead]
        items[:] = ahead + rest

    def below(self, n: int) -> int:
        return 0


def fresh_jo(difficulty: int, front: list[str]):
    """A solo game whose Jo is set up again with a rigged deck-0 order."""
    state = solo_new()
    p = state.player(JO)
    p.levels.update({t: 1 for t in OPS})
    state.jo = JoState(JO, difficulty)
    real = state.rng
    state.rng = FrontRng(front)
    setup.set_up(state, difficulty, [])
    state.rng = real
    return state


def test_design_15_3_setup_raise_first_plus_action_rejects_back_to_deck_0():
    """§15.3 Setup raise: reveal until a card shows a + action; apply its first + action only (0S6 "+P, +F":
    Party) and box it; the revealed cards before it go back into deck 0 (at Brutal they can be swapped in)."""
    state = fresh_jo(4, ["0S1", "0S2", "0S6"])
    p = state.player(JO)
    assert [p.levels[t] for t in OPS] == [1, 2, 1, 1] and p.infamy == 5
    jo = state.jo
    assert jo.boxed[0] == "0S6"
    in_play = jo.deck + [c for w in jo.waiting.values() for c in w]
    assert {"0S1", "0S2"} <= set(in_play)
    assert {c for c in in_play if deck_of(c) == 0} == STRONG - {"0S6"}


def test_design_15_3_acts_2_and_3_leftovers_shuffled_with_the_new_deck():
    """§15.3: in Acts 2 and 3 the 2 leftover cards are shuffled with the new deck (not simply kept on top)."""
    base = solo_paused()
    jo = base.jo
    jo.discard += jo.deck[2:]
    jo.deck = jo.deck[:2]
    left = set(jo.deck)
    base.act = 2
    positions = set()
    for k in range(12):
        state = copy(base)
        state.rng = Rng(k)
        setup.start_act(state, [])
        assert len(state.jo.deck) == 5
        positions.add(tuple(i for i, c in enumerate(state.jo.deck) if c in left))
    assert len(positions) > 1 and any(max(p) > 1 for p in positions)


def test_design_15_3_six_five_five_cards_cover_4_3_3_turns_leaving_2_for_act_4():
    """§15.3: 6/5/5 cards cover 4/3/3 turns and leave 2 for Act 4 (one used: one left at the end)."""
    for seed, diff in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 2)):
        state, _e, _s = random_game(seed, diff)
        assert len(state.jo.discard) == 11 and len(state.jo.deck) == 1


# --- §15.4 Difficulty -----------------------------------------------------------------------------------------------


def composition(jo):
    """(Act 1 deck, deck 3, deck 4): each as (cards of its own deck, strong deck-0 cards, weak deck-0 cards)."""

    def count(cards, own):
        return (
            sum(deck_of(c) in own for c in cards),
            sum(c in STRONG for c in cards),
            sum(c in WEAK for c in cards),
        )

    return count(jo.deck, (1, 2)), count(jo.waiting["3"], (3,)), count(jo.waiting["4"], (4,))


@pytest.mark.parametrize(
    ("level", "expect"),
    [
        (1, ((6, 0, 0), (2, 0, 1), (2, 0, 1))),  # Easy: 1 of deck 3 and 1 of deck 4 -> weak
        (2, ((6, 0, 0), (3, 0, 0), (3, 0, 0))),  # Standard: no change
        (3, ((5, 1, 0), (2, 1, 0), (2, 1, 0))),  # Hard: 1 of each of decks 2, 3, 4 -> strong
        (4, ((5, 1, 0), (1, 2, 0), (1, 2, 0))),  # Brutal: 1 of deck 2, 2 of decks 3 and 4 -> strong
    ],
)
def test_design_15_4_difficulty_swaps(level, expect):
    """§15.4: each level's swaps, applied after deck 2 is boxed down to 3: random cards of the named decks out
    (boxed), random strong (Hard, Brutal) or weak (Easy) deck-0 cards in; the rest of deck 0 boxed."""
    swapped_out = set()
    for seed in range(1, 11):
        jo = solo_new(seed, level).jo
        assert composition(jo) == expect
        assert sum(deck_of(c) == 1 for c in jo.deck) == 3
        in_play = jo.deck + jo.waiting["3"] + jo.waiting["4"]
        assert len(in_play) + len(jo.boxed) == 26 and len(in_play) == 12
        swapped_out |= {c for c in jo.boxed if deck_of(c) in (3, 4)}
    if level in (1, 3, 4):
        assert len(swapped_out) > 2  # random cards swapped out


def test_design_15_4_swapped_in_cards_shuffled_into_their_deck():
    """§15.4: each swapped-in card is shuffled into its deck (not always at the same place)."""
    places = {
        tuple(i for i, c in enumerate(solo_new(seed, 3).jo.waiting["3"]) if deck_of(c) == 0) for seed in range(1, 16)
    }
    assert len(places) > 1


def test_design_15_4_brutal_always_finds_5_strong_cards():
    """§15.4 Brutal needs 5 strong cards; at least 5 always remain after the setup raise (even when the raise
    boxes a strong card)."""
    raised_strong = False
    for seed in range(1, 30):
        jo = solo_new(seed, 4).jo
        in_play = jo.deck + jo.waiting["3"] + jo.waiting["4"]
        assert sum(c in STRONG for c in in_play) == 5
        raised_strong |= jo.boxed[0] in STRONG
    assert raised_strong


# --- §15.5 Stretch achievements and ranks --------------------------------------------------------------------------


def achieved(state) -> set[str]:
    return set(scoring.achievements(state, ANN))


def test_design_15_5_untouchable():
    """§15.5 Untouchable: lose no building in any Mob War."""
    state = end_state()
    assert "untouchable" in achieved(state)
    lose(state, ANN, "speakeasy")
    assert "untouchable" not in achieved(state)


def test_design_15_5_kingpin_recorded_at_each_payout():
    """§15.5 Kingpin: alone in 1st place on at least one Zone in every payout (tied with Jo is not alone)."""
    state = end_state()
    state.jo.kingpin = [True, True, True]
    assert "kingpin" in achieved(state)
    state.jo.kingpin = [True, False, True]
    assert "kingpin" not in achieved(state)
    state.jo.kingpin = []
    assert "kingpin" not in achieved(state)
    state = end_state()
    ann_build(state, 11, 0)
    jo_build(state, 1, 0)
    kit.task(state, "payout", -1)
    assert state.jo.kingpin == [True]
    jo_build(state, 12, 0)  # Uptown: 1 to 1
    ann_build(state, 2, 0)  # Downtown: 1 to 1
    kit.task(state, "payout", -1)
    assert state.jo.kingpin == [True, False]
    assert "kingpin" not in achieved(state)


def test_design_15_5_high_roller():
    """§15.5 High Roller: own 3 Casinos at the end."""
    state = end_state()
    ann_build(state, 1, 0, "casino")
    ann_build(state, 2, 0, "casino")
    assert "high_roller" not in achieved(state)
    ann_build(state, 3, 0, "casino")
    assert "high_roller" in achieved(state)


def test_design_15_5_book_cooker():
    """§15.5 Book Cooker: your Books on all 3 Zone goals."""
    state = end_state()
    state.zone_books = [[ANN], [ANN, JO], []]
    assert "book_cooker" not in achieved(state)
    state.zone_books[2] = [ANN]
    assert "book_cooker" in achieved(state)


def test_design_15_5_rum_pirate():
    """§15.5 Rum Pirate: ambush 3 or more times."""
    state = end_state()
    state.player(ANN).ambushes = 2
    assert "rum_pirate" not in achieved(state)
    state.player(ANN).ambushes = 3
    assert "rum_pirate" in achieved(state)


def test_design_15_5_family_business():
    """§15.5 Family Business: own 6 or more Protected buildings at the end."""
    state = end_state()
    for n in (1, 2, 3, 4, 6):
        ann_build(state, n, 0, family=True)
    assert "family_business" not in achieved(state)
    ann_build(state, 7, 0, family=True)
    assert "family_business" in achieved(state)


def test_design_15_5_connoisseur():
    """§15.5 Connoisseur: own all 5 bottle types."""
    state = end_state()
    for h in (0, 4, 8, 12):
        give_helper(state, ANN, h)
    assert "connoisseur" not in achieved(state)
    give_helper(state, ANN, 16)
    assert "connoisseur" in achieved(state)


def test_design_15_5_public_enemy():
    """§15.5 Public Enemy: reach Infamy 20."""
    state = end_state()
    state.player(ANN).infamy = 19
    assert "public_enemy" not in achieved(state)
    state.player(ANN).infamy = 20
    assert "public_enemy" in achieved(state)


def test_design_15_5_each_achievement_adds_10():
    """§15.5: +$10 for each achievement, after scoring (three achievements: +$30)."""
    state = end_state()
    kit.give(state, ANN, pocket=10, infamy=20, ambushes=3)
    score(state)
    assert set(state.jo.achievements) == {"untouchable", "rum_pirate", "public_enemy"}
    assert state.player(ANN).final["achievements"] == 30 and state.player(ANN).final["total"] == 40
    kit.ok(state)


@pytest.mark.parametrize(
    ("margin", "won", "rank"),
    [
        (50, False, "Goon"),
        (0, True, "Goon"),
        (-3, True, "Goon"),
        (1, True, "Associate"),
        (19, True, "Associate"),
        (20, True, "Soldier"),
        (39, True, "Soldier"),
        (40, True, "Capo"),
        (69, True, "Capo"),
        (70, True, "Underboss"),
        (99, True, "Underboss"),
        (100, True, "Godfather"),
        (250, True, "Godfather"),
    ],
)
def test_design_15_5_rank_thresholds(margin, won, rank):
    """§15.5 ranks: loss or <= 0 Goon, 1-19 Associate, 20-39 Soldier, 40-69 Capo, 70-99 Underboss, >= 100
    Godfather."""
    assert scoring.rank(margin, won) == rank


def test_design_15_5_win_decided_before_achievements_margin_includes_them():
    """§15.5: win or loss is decided before achievements; the margin includes them ($15 ahead with 2
    achievements: $35, Soldier)."""
    state = end_state()
    kit.give(state, JO, pocket=30)
    kit.give(state, ANN, pocket=45, infamy=20)
    result = score(state)
    assert result.winners == (ANN,) and state.jo.rank == "Soldier"
    assert set(state.jo.achievements) == {"untouchable", "public_enemy"}
    assert result.scores == (45 + 20, 30)
    kit.ok(state)


def test_design_15_5_kingpin_over_a_complete_game_has_one_entry_per_payout():
    """§15.5 Kingpin counts "every payout": a complete game records the three payouts (after Acts 1-3)."""
    state, _e, _s = random_game(2, 2)
    assert len(state.jo.kingpin) == 3
    assert ("kingpin" in state.jo.achievements) == all(state.jo.kingpin)
