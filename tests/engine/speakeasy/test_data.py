"""The Speakeasy data files (data/speakeasy/): they load, every number a seed gives is the seed's, and the loader
refuses a bad file with a DataError naming the file, the key and the reason.

Seed tests are named after the sentence ids they check (../shared/seeds/rule-index.md).
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from engine.data import DataError, data_dir
from engine.speakeasy.components import (
    BOTTLES,
    BUILDING_KINDS,
    EFFECT_KINDS,
    STEP_KINDS,
    TRACKS,
    ZONES,
    Effect,
    Rules,
)
from engine.speakeasy.jo.data import load_jo
from engine.speakeasy.loader import FILES, city_tile_kinds, load_rules, rules, value_paths

FOLDER = data_dir() / "speakeasy"


@pytest.fixture(scope="module")
def r() -> Rules:
    return rules()


def _toml(name: str) -> dict:
    return tomllib.loads((FOLDER / name).read_text(encoding="utf-8"))


# --- the shipped data ---------------------------------------------------------------------------------------------


def test_data_the_shipped_files_load_and_are_read_once(r):
    assert rules() is r
    assert load_rules(FOLDER) == r


def test_data_own_values_are_listed_and_each_names_a_key_of_its_file(r):
    assert r.own_values
    for entry in r.own_values:
        name, key = entry.split(": ", 1)
        assert name in FILES
        raw = _toml(name)
        assert raw["provenance"][key].startswith("own: ")
        del raw["provenance"]
        assert key in value_paths(raw), entry


def test_data_every_file_has_provenance_for_every_value():
    for name in FILES:
        provenance = _toml(name)["provenance"]
        assert provenance
        for source in provenance.values():
            assert source.startswith(("seed ", "own: "))


def test_data_ids_follow_file_order(r):
    assert [c.id for c in r.cards] == list(range(48))
    assert [h.id for h in r.helpers.cards] == list(range(20))
    assert [m.id for m in r.mobsters] == list(range(22))
    assert [c.id for c in r.docks.crates] == list(range(12))
    assert [g.id for g in r.goals.zone_goals] == list(range(12))
    assert [d.number for d in r.districts] == list(range(1, 17))
    assert r.district(8).name == "Hell's Kitchen"
    kinds = city_tile_kinds(r)
    assert len(kinds) == 60 and kinds[0] == 0 and kinds[-1] == len(r.city_tiles) - 1
    assert [kinds.count(i) for i in range(len(r.city_tiles))] == [8, 8, 8, 6, 6, 6, 6, 4, 4, 4]


def test_data_vocabularies_are_the_components_ones(r):
    effects = [e for c in r.cards for e in c.benefit + c.setup]
    effects += [e for h in r.helpers.cards for e in h.upper + h.lower]
    effects += [e for t in r.city_tiles for e in t.benefit] + [e for g in r.goals.park_goals for e in g.benefit]
    effects += [e for row in r.buildings.rows.values() for s in row for e in s.benefit]
    assert {e.kind for e in effects} <= set(EFFECT_KINDS)
    persons = (*r.locations.persons, r.locations.maitre_d, r.locations.first_place)
    assert {s for p in persons for s in p.steps} == set(STEP_KINDS)
    assert {d.zone for d in r.districts} == set(ZONES)
    assert {h.bottle for h in r.helpers.cards} == set(BOTTLES)
    assert set(r.buildings.rows) == set(BUILDING_KINDS)


def test_data_persons_and_steps_are_the_design_table(r):
    by_id = {p.id: p for p in r.locations.persons}
    assert len(by_id) == 12
    assert by_id["caporegime"].steps == ("gain_family", "hire_associate", "hire_goons")
    assert by_id["zoning_clerk"].steps == ("raise_ops_once_more", "upgrade")
    assert (by_id["fixer"].location, by_id["fixer"].position) == ("Contractor office", "right")
    assert r.locations.maitre_d.steps == ("sell_or_party", "booth_reward")
    assert r.locations.first_place.name == "Lucky's table"
    assert [b.leverage for b in r.locations.booths] == [0, 1, 2, 3]
    assert r.locations.booths[3].reward == (Effect("city_tile", 1), Effect("book", 1))
    assert r.locations.park[2].reward == (Effect("book", 1), Effect("card", 1))


def test_data_cards_helpers_and_crates_hold_the_design_effects(r):
    stills = [c for c in r.cards if c.deck == "stills" and c.name == "Stills: Leverage and $2"]
    assert len(stills) == 2 and stills[0].benefit == (Effect("leverage", 1), Effect("pocket", 2))
    assert stills[0].setup == (Effect("family_docks", 1),)
    helpers = {h.name: h for h in r.helpers.cards}
    assert helpers["Accountant"].lower == (Effect("book", 1), Effect("safe", 3))
    assert helpers["Bagman"].lower == (Effect("bagman", 6),)
    crates = {c.name: c for c in r.docks.crates}
    assert (crates["Forged Papers"].power, crates["Forged Papers"].n) == ("cook_first_bonus", 5)
    assert sum(c.cash for c in r.docks.crates) == 67


def test_data_sides_assemble_board_and_payouts(r):
    small, large = r.sides["small"], r.sides["large"]
    assert small.blocked == {5, 9, 10, 15, 16} and not large.blocked
    assert small.zone_goal_districts_cap == (4, 3, 4) and large.zone_goal_districts_cap == (4, 4, 4)
    assert large.zone_payouts[0] == (35, 25, 15, 10, 5)
    assert small.zone_payouts == ((30, 20, 10), (20, 10, 5), (40, 25, 15))
    assert large.casino_payouts == (2, 4, 6, 8) and small.casino_payouts == (4, 6)
    assert large.central_park == (("A", 3), ("B", 2), ("C", 1))


# --- seed numbers -------------------------------------------------------------------------------------------------


def test_000_10_1_the_1_2_side_is_used_for_1_and_2_players(r):
    assert r.side_for(1).name == r.side_for(2).name == "small"
    assert r.side_for(3).name == r.side_for(4).name == "large"


def test_000_11_4_six_setup_mobsters_four_with_two_players(r):
    assert dict(r.side_for(3).mobsters)["A"] == dict(r.side_for(4).mobsters)["A"] == 6
    assert dict(r.side_for(2).mobsters)["A"] == dict(r.side_for(1).mobsters)["A"] == 4
    assert sum(1 for m in r.mobsters if m.deck == "A") == 6


def test_001_5_2_001_19_1_mob_war_districts_3_3_4_and_2_2_3_with_two_players(r):
    assert [n for letter, n in r.side_for(4).mobsters if letter != "A"] == [3, 3, 4]
    assert [n for letter, n in r.side_for(2).mobsters if letter != "A"] == [2, 2, 3]


def test_000_12_1_000_12_2_000_12_3_000_12_4_cops_4_placed_4_face_down_2_stacks_of_4(r):
    assert r.cops_revealed == 4
    assert r.cops_face_down == 4
    assert r.cop_stacks == (4, 4)
    assert sorted(r.cop_districts) == list(range(1, 17))


def test_000_13_2_000_13_3_000_13_4_city_tiles_fill_the_map_the_display_and_the_piles(r):
    total = sum(t.count for t in r.city_tiles)
    assert total == 60
    for side in r.sides.values():
        spaces = sum(d.spaces for d in r.districts if d.number not in side.blocked)
        assert spaces + len(side.city_piles) + sum(side.city_piles) == total  # 3 face up, the rest in 3 piles
        assert len(side.city_piles) == 3


def test_000_16_1_four_operations_decks(r):
    assert {c.deck for c in r.cards} == set(TRACKS)
    assert len(TRACKS) == 4
    assert [sum(1 for c in r.cards if c.deck == deck) for deck in TRACKS] == [12, 12, 12, 12]


def test_000_16_4_three_helper_cards_displayed(r):
    assert r.helpers.display == 3


def test_000_17_2_five_barrels_on_each_of_the_4_ships(r):
    assert r.docks.ship_barrels == 5
    assert len(r.docks.ship_prices) == 4


def test_000_19_4_000_47_1_one_goon_on_the_0_space_and_goons_cost_0_to_5(r):
    assert r.tracks.start_goons == 1
    assert r.tracks.goon_costs[0] == 0
    assert r.tracks.goon_costs == (0, 1, 2, 3, 4, 5)


def test_000_19_8_pocket_15_safe_30(r):
    assert r.tracks.start_pocket == 15
    assert r.tracks.start_safe == 30


def test_000_19_10_infamy_starts_on_5(r):
    assert r.tracks.infamy_start == 5


def test_000_19_11_family_members_beside_infamy_8_and_14(r):
    assert r.tracks.family_on_infamy == (8, 14)
    assert r.tracks.infamy_rewards[8] == r.tracks.infamy_rewards[14] == (Effect("family", 1),)


def test_000_20_3_the_setup_round_opens_a_stills_or_a_speakeasy(r):
    assert set(r.buildings.setup_kinds) == {"stills", "speakeasy"}


def test_000_20_4_000_52_1_speakeasies_cost_3_5_or_8_and_the_stills_5(r):
    assert {s.cost for s in r.buildings.rows["speakeasy"]} == {3, 5, 8}
    assert [s.cost for s in r.buildings.rows["stills"]] == [5]
    assert max(s.cost for s in r.buildings.rows["speakeasy"]) <= r.tracks.start_pocket  # "using the $15"


def test_000_52_1_open_or_take_over_up_to_2_times(r):
    assert r.locations.build_times == 2
    assert r.buildings.takeover_kind == "speakeasy"


def test_000_20_1_000_26_1_000_26_2_000_26_3_000_35_1_years(r):
    assert r.years == {"setup": 1920, "act1": 1921, "act2": 1925, "act3": 1928, "act4": 1931, "final": 1933}


def test_000_26_1_000_26_2_000_26_3_000_27_1_capos_4_3_3_1_per_act_and_the_returns(r):
    t = r.tracks
    assert t.capos == 4
    assert t.capos_per_act == (4, 3, 3, 1)
    assert (t.capos_returned[1], t.capos_boxed[1]) == (3, 1)  # Act 2: return 3, box 1
    assert (t.capos_returned[2], t.capos_boxed[2]) == (3, 0)  # Act 3: return 3
    assert (t.capos_returned[3], t.capos_boxed[3]) == (1, 2)  # Act 4: return 1, box 2


def test_000_24_2_13_rounds_from_1920_to_1933(r):
    assert 1 + sum(r.tracks.capos_per_act) + 1 == 13 == r.years["final"] - r.years["setup"]


def test_000_40_2_000_41_2_000_41_3_discards_for_level_5_and_strength_4_and_5(r):
    assert r.tracks.max_level == 5
    assert r.tracks.ops_discards == {5: 1}
    assert r.tracks.strength_discards == {4: 1, 5: 2}


def test_000_40_3_000_41_4_infamy_rises_by_the_same_amount(r):
    assert r.tracks.infamy_per_step == 1


def test_001_12_2_birdie_brown_strength_6_modifier_1_attacks_at_7(r):
    birdie = next(m for m in r.mobsters if m.name == "Birdie Brown")
    assert (birdie.deck, birdie.strength, birdie.modifier) == ("B", 6, 1)
    assert birdie.strength + birdie.modifier == 7


def test_001_12_3_mob_war_attacks_6_to_8_then_8_to_10_then_10_to_12(r):
    for deck, low, high in (("B", 6, 8), ("C", 8, 10), ("D", 10, 12)):
        attacks = [m.strength + m.modifier for m in r.mobsters if m.deck == deck]
        assert (min(attacks), max(attacks)) == (low, high), deck


def test_001_34_1_midtown_25_15_10_5_0_and_uptown_45_35_25_20_15_on_the_3_4_side(r):
    payouts = dict(zip(ZONES, r.side_for(4).zone_payouts, strict=True))
    assert payouts["Midtown"] == (25, 15, 10, 5, 0)
    assert payouts["Uptown"] == (45, 35, 25, 20, 15)


# --- refusals -----------------------------------------------------------------------------------------------------


def _broken(tmp_path: Path, name: str, old: str, new: str) -> Path:
    folder = tmp_path / "speakeasy"
    shutil.copytree(FOLDER, folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("name", "old", "new", "key", "reason"),
    [
        # bad TOML
        ("tracks.toml", "pocket = 15", "pocket = = 15", "pocket", "is not valid TOML"),
        # missing keys
        ("tracks.toml", "pocket = 15 ", "", "money.pocket", "is missing"),
        ("locations.toml", "[actions]", "[action]", "action: ", "is not a key of this file"),
        ("locations.toml", "[actions]\nbuild_times = 2 ", "[actions]\n", "actions.build_times", "is missing"),
        # wrong types: bool is not a whole number
        ("board.toml", "booths = 3 ", "booths = true ", "sides.small.booths", "must be a whole number, got true"),
        ("tracks.toml", "[1, 1, 2, 2, 2]", "[1, true, 2, 2, 2]", "operations.trucks_by_fleet[1]", "whole number"),
        ("goals.toml", "reward = 20  #", 'reward = "20"  #', "zone_goal.reward", "whole number, got '20'"),
        ("board.toml", "spaces = 3, port = true", "spaces = 3, port = 1", "districts[0].port", "true or false"),
        # negative amounts
        ("docks.toml", "cash = 4\n", "cash = -4\n", "crates[0].cash", "must not be negative, got -4"),
        (
            "helpers.toml",
            '{ kind = "bagman", n = 6 }',
            '{ kind = "bagman", n = -6 }',
            "helpers[9].lower[0].n",
            "at least",
        ),
        # list lengths
        (
            "tracks.toml",
            "values = [2, 3, 4, 5, 6]  # barrels sold",
            "values = [2, 3, 4, 5]  # barrels sold",
            "operations.party.values",
            "must have 5 whole numbers, got 4",
        ),
        # unknown names
        ("helpers.toml", 'kind = "bagman"', 'kind = "bagmen"', "helpers[9].lower[0].kind", "is not an effect kind"),
        ("helpers.toml", "n = 6 }]", "n = 6, m = 1 }]", "helpers[9].lower[0].m", "helpers[9].lower[0] takes kind, n"),
        ("locations.toml", '"ambush"]', '"ambushh"]', "persons[1].steps[1]", "is not a step kind"),
        ("docks.toml", 'power = "champagne"', 'power = "bubbly"', "crates[11].power", "is not a Crate power"),
        (
            "goals.toml",
            'condition = "casinos"',
            'condition = "casino"',
            "central_park.tiles[11].condition",
            "is not a Central Park condition",
        ),
        ("board.toml", 'zone = "Downtown"', 'zone = "Brooklyn"', "districts[0].zone", "is not a Zone"),
        ("helpers.toml", 'bottle = "gin"', 'bottle = "vodka"', "helpers[4].bottle", "is not a bottle"),
        ("buildings.toml", "[rows.casino]", "[rows.hotel]", "rows.hotel", "is not a building kind"),
        ("buildings.toml", 'kind = "speakeasy"  #', 'kind = "hotel"  #', "takeover.kind", "is not a building kind"),
        ("payouts.toml", "Uptown = [40,", "Harlem = [40,", "zones.small.Harlem", "is not a Zone"),
        ("goals.toml", 'type = "barrels", number = 2', 'type = "kegs", number = 2', "zone_goals[6].type", "type"),
        # numbering and counts
        ("board.toml", "number = 5,", "number = 6,", "districts[4].number", "must be 5"),
        ("board.toml", "14, 15, 16]", "14, 15, 15]", "cops.districts", "each district 1..16 exactly once"),
        ("board.toml", "stacks = [4, 4]", "stacks = [4, 3]", "cops.stacks", "of 16 tiles"),
        (
            "cards/operations.toml",
            'copies = 3\nname = "VIP Room: Book"',
            'copies = 2\nname = "VIP Room: Book"',
            "cards",
            "decks.size",
        ),
        (
            "city_tiles.toml",
            'count = 4\nbenefit = [{ kind = "safe"',
            'count = 3\nbenefit = [{ kind = "safe"',
            "kinds",
            "add up to 59",
        ),
        ("board.toml", "city_piles = [5, 5, 5]", "city_piles = [5, 5, 6]", "sides.large.city_piles", "City tiles"),
        ("goals.toml", 'type = "protected", number = 4', 'type = "protected", number = 5', "zone_goals", "numbers"),
        ("board.toml", "A = 6, B = 3", "A = 7, B = 2", "sides.large.mobsters.A", "mobsters.toml has 6"),
        ("board.toml", "A = 6, B = 3", "A = 6, B = 4", "sides.large.mobsters", "16 open districts"),
        ("tracks.toml", "per_act = [4, 3, 3, 1]", "per_act = [4, 3, 2, 1]", "capos.per_act[2]", "must be 3"),
        ("mobsters.toml", "attacks at 7\nstrength = 6", "attacks at 7\nstrength = 9", "mobsters[7]", "attack range"),
        ("docks.toml", "[1, 2, 4, 6, 8, 11, 13, 14]", "[1, 2, 4, 6, 8, 11, 13, 15]", "ports.districts", "port"),
        ("payouts.toml", "small = [4, 6]", "small = [4, 6, 8]", "casino.small", "must have 2 whole numbers"),
        # duplicates and level tables (found by independent testing: these loaded before the schema)
        ("tracks.toml", '"4" = 1, "5" = 2', '"5" = 2', "strength.discards", "level 4 is missing"),
        ("board.toml", 'name = "Lower East Side"', 'name = "Financial District"', "districts[1].name", "appears twice"),
        ("mobsters.toml", 'name = "Salvatore Maranzano"', 'name = "Larry Fay"', "mobsters[1].name", "appears twice"),
        ("helpers.toml", 'name = "Chemist"', 'name = "Driver"', "helpers[1].name", "appears twice"),
        ("locations.toml", 'name = "Rum-runner"', 'name = "Harbour Master"', "persons[1].name", "appears twice"),
        # issue 22: a link of the upgrade chain, an Infamy space, a benefit entry twice, a player count with no side
        ("buildings.toml", ', nightclub = "casino"', "", "upgrade.chain.nightclub", "every building kind"),
        ("buildings.toml", 'casino = "none"', 'casino = "nightclub"', "upgrade.chain.casino", "more valuable"),
        ("tracks.toml", '"10" = [{ kind = "helper", n = 1 }]\n', "", "infamy.rewards", "space 10 is missing"),
        ("tracks.toml", '"25" = []\n', '"25" = []\n"26" = []\n', "infamy.rewards.26", "is not a space"),
        ("goals.toml", '"11" = 10\n', "", "infamy_books.spaces", "space 11 is missing"),
        (
            "cards/operations.toml",
            'benefit = [{ kind = "family_vip", n = 1 }]',
            'benefit = [{ kind = "family_vip", n = 1 }, { kind = "family_vip", n = 1 }]',
            "cards[1].benefit[1]",
            '{ kind = "family_vip", n = 1 } appears twice (also cards[1].benefit[0])',
        ),
        (
            "city_tiles.toml",
            'benefit = [{ kind = "leverage", n = 2 }]',
            'benefit = [{ n = 2, kind = "leverage" }, { kind = "leverage", n = 2 }]',
            "kinds[1].benefit[1]",
            "appears twice",
        ),
        ("board.toml", "players = [3, 4]", "players = [3]", "sides", "a side for 4 players is missing"),
        ("board.toml", "players = [3, 4]", "players = [3, 4, 5]", "sides.large.players[2]", "not a player count"),
        # keys the loader does not know
        ("tracks.toml", "[heat]\n", "[heat]\nlevel = 3\n", "heat.level", "is not a key of this file"),
        # provenance
        ("payouts.toml", '"casino" = "own: design §8.3"\n', "", "casino.large", "has no [provenance] entry"),
        ("tracks.toml", '"heat" = "own: design §5"', '"heat" = "design §5"', "heat", 'must be "seed'),
        (
            "tracks.toml",
            '"heat" = "own',
            '"prices.stills" = "own: x"\n"heat" = "own',
            "prices.stills",
            "names no value",
        ),
        (
            "helpers.toml",
            '[provenance]\n"display" = "seed 000:16.4"\n"bottles" = "own: design §11.2"\n'
            '"variety_bonus" = "own: design §11.2"\n"helpers" = "own: design §11.2"\n',
            "",
            "[provenance]",
            "is missing",
        ),
    ],
)
def test_data_a_bad_file_is_refused_naming_file_key_and_reason(tmp_path, name, old, new, key, reason):
    folder = _broken(tmp_path, name, old, new)
    with pytest.raises(DataError) as caught:
        load_rules(folder)
    message = str(caught.value)
    assert message.startswith(f"{name}: ")
    assert key in message
    assert reason in message


def test_data_a_missing_file_is_refused_by_name(tmp_path):
    folder = tmp_path / "speakeasy"
    shutil.copytree(FOLDER, folder)
    (folder / "mobsters.toml").unlink()
    with pytest.raises(DataError, match=r"^mobsters\.toml: cannot be read"):
        load_rules(folder)


def test_data_jo_a_duplicate_achievement_id_is_refused(tmp_path):
    folder = _broken(tmp_path, "jo.toml", '{ id = "kingpin"', '{ id = "untouchable"')
    with pytest.raises(DataError, match=r"^jo\.toml: stretch\.achievements\[1\]\.id: 'untouchable' appears twice"):
        load_jo(folder)
