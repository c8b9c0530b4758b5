"""Speakeasy set-up: seed 000 from the Game Overview to the Setup Round (000:1.1-000:20.8), design §1 (board
geometry and the setup additions §1.5.1-§1.5.7) and §12's Cop District tiles.

Tests are named after the seed sentence (``test_000_L_S_...``, ids of ../shared/seeds/rule-index.md) or the
design section (``test_design_<section>_...``, ../shared/design/speakeasy-gaps.md) they check.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import BadOptions, Choice
from engine.speakeasy import setup as setup_mod
from engine.speakeasy.board import free_spaces, mobster_held, operating
from engine.speakeasy.components import BUILDING_KINDS, LEVEL_TRACKS, TRACKS, ZONES
from engine.speakeasy.economy import hire_goon, trucks
from engine.speakeasy.state import Building
from tests.engine.speakeasy import kit

R = kit.R()
SMALL_BLOCKED = {5, 9, 10, 15, 16}
LOCATION_NAMES = {
    "Docks",
    "City Hall",
    "Restaurant",
    "Commission",
    "Contractor office",
    "City Planning office",
    "Garage",
    "Park",
}


# --- helpers ------------------------------------------------------------------------------------------------------


def open_districts(state) -> list:
    """Districts in play on this board side."""
    return [d for d in state.districts if d.spaces]


def all_spaces(state) -> list:
    return [sp for d in state.districts for sp in d.spaces]


def setup_districts(state) -> list:
    """Districts holding a Setup Mobster."""
    return [d for d in state.districts if d.mobster is not None]


def tile_kind_id(name: str) -> int:
    return next(k for k, ct in enumerate(R.city_tiles) if ct.name == name)


def put_tile(state, dn: int, i: int, name: str) -> int:
    """Swap a City tile of kind ``name`` onto space (dn, i), wherever it lies; returns its id."""
    want = tile_kind_id(name)
    target = state.districts[dn - 1].spaces[i]
    if target.tile is not None and R.tile_kinds[target.tile] == want:
        return target.tile
    for sp in all_spaces(state):
        if sp is not target and sp.tile is not None and R.tile_kinds[sp.tile] == want:
            sp.tile, target.tile = target.tile, sp.tile
            return target.tile
    for row, t in enumerate(state.city_face):
        if t is not None and R.tile_kinds[t] == want:
            state.city_face[row], target.tile = target.tile, t
            return t
    for pile in state.city_piles:
        for k, t in enumerate(pile):
            if R.tile_kinds[t] == want:
                pile[k], target.tile = target.tile, t
                return t
    raise AssertionError(f"no {name} tile")


def ensure_in_hand(state, seat: int, name: str) -> int:
    """Make sure ``seat`` holds a card called ``name``: swap it with the hand's card of the same deck if needed."""
    p = state.player(seat)
    for c in p.hand:
        if R.cards[c].name == name:
            return c
    deck = next(c.deck for c in R.cards if c.name == name)
    k = next(k for k, c in enumerate(state.decks[deck]) if R.cards[c].name == name)
    old = next(h for h in p.hand if R.cards[h].deck == deck)
    card = state.decks[deck][k]
    p.hand[p.hand.index(old)], state.decks[deck][k] = card, old
    return card


def setup_seats(state) -> list[int]:
    """Play the Setup Round with the first offered options; the seats in the order they were asked to build."""
    seats = []
    while state.phase == "setup":
        p = kit.prompt(state)
        if p.kind == "setup_build":
            seats.append(p.seat)
        kit.GAME.apply(state, Choice(p.seat, p.kind, p.options[0].id))
    return seats


def board_signature(state) -> list:
    """What a seed decides on the board (no random-generator state)."""
    return [(d.mobster, d.cop, d.cop_tile, d.war_tile, [sp.tile for sp in d.spaces]) for d in state.districts]


# --- Game Overview (000:1.1-000:4.1), components (000:6.1), the Game Setup heading (000:8.1) ----------------------


def test_000_1_1_a_game_seats_1_to_4_players():
    """000:1.1 Game Overview: a Speakeasy game is created for 2, 3 or 4 players, or 1 against Jo (seed 003);
    other counts are refused."""
    for n in (2, 3, 4):
        state = kit.new(n)
        assert len(state.players) == n
        kit.ok(state)
    solo = kit.GAME.new(["Ann"], {}, 1)
    assert [p.name for p in solo.players] == ["Ann", "Jo"] and solo.jo is not None
    for n in (0, 5):
        with pytest.raises(BadOptions):
            kit.GAME.new([f"P{i}" for i in range(n)], {}, 1)
    assert kit.GAME.title == "Speakeasy"


def test_000_3_1_each_player_is_a_boss_with_speakeasies_to_run():
    """000:3.1: every player is a boss with their own Speakeasy businesses (8 on the Operations board) in
    Manhattan's districts."""
    state = kit.new(3)
    for i, p in enumerate(state.players):
        assert p.name == f"P{i + 1}"
        assert p.rows["speakeasy"] == [True] * 8
    assert len(state.districts) == 16


def test_000_3_2_operations_upgrades_cards_and_capos_per_player():
    """000:3.2: each player has Operations levels to expand, Nightclubs and Casinos to upgrade to, a hand of
    cards, Capos, Trucks to deliver liquor and Books to cook."""
    state = kit.new(4)
    for p in state.players:
        assert set(p.levels) == set(LEVEL_TRACKS)
        assert len(p.rows["nightclub"]) == 3 and len(p.rows["casino"]) == 3
        assert len(p.hand) == 4
        assert p.capos == 4
        assert trucks(p) == 1
        assert p.book_supply == 10
    assert R.buildings.upgrades == {"speakeasy": "nightclub", "nightclub": "casino"}


def test_000_3_3_money_is_tracked_per_player_in_pocket_and_safe():
    """000:3.3: the goal is money: every player has pocket and safe money from the start; no result yet."""
    state = kit.new(3)
    for p in state.players:
        assert (p.pocket, p.safe) == (15, 30)
    v = kit.GAME.view(state, 0)
    assert [e["pocket"] for e in v["players"]] == [15, 15, 15]
    assert v["players"][0]["safe"] == 30
    assert not kit.GAME.is_over(state) and kit.GAME.result(state) is None


def test_000_4_1_core_mechanisms_have_their_pieces():
    """000:4.1: worker placement (Capos on Persons), card management (hands), area control (Zone Control markers)
    and goal-driven objectives (Zone and Central Park goals)."""
    state = kit.played(3)
    assert kit.prompt(state).kind == "place"
    assert any(i.startswith("person:") for i in kit.ids(state))
    assert all(len(p.hand) == 3 for p in state.players)  # 4 dealt, 1 played in the Setup Round
    assert all(p.zone_markers == [0, 0, 0] for p in state.players)
    assert len(state.zone_goals) == 3 and len(state.park_goals) == 6


def test_000_6_1_components_are_counted_from_the_data():
    """000:6.1 Game Components: every component is in the data and, in a new game, each is in exactly one place."""
    assert len(R.districts) == 16
    assert len(R.cards) == 48
    assert len(R.helpers.cards) == 20
    assert sum(ct.count for ct in R.city_tiles) == 60
    assert len(R.mobsters) == 22
    assert len(R.docks.crates) == 12
    assert len(R.goals.zone_goals) == 12
    assert len(R.goals.park_goals) == 15
    assert len(R.docks.ports) == 8
    assert len(R.cop_districts) == 16
    for n in (2, 3, 4):
        kit.ok(kit.new(n, seed=n))


def test_000_8_1_a_new_game_opens_with_the_1920_setup_round():
    """000:8.1 Game Setup: a new game is set up and waits in the 1920 Setup Round."""
    state = kit.new(3)
    assert (state.phase, state.year, state.act, state.round) == ("setup", 1920, 0, 0)
    assert kit.prompt(state).kind == "setup_build"
    kit.ok(state)


# --- Step 1: main board side (000:10.1) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "side", "districts", "spaces"),
    [(2, "small", 11, 29), (3, "large", 16, 42), (4, "large", 16, 42)],
)
def test_000_10_1_the_board_side_for_the_player_count(players, side, districts, spaces):
    """000:10.1: 1-2 side for two players (11 open districts, 29 spaces), 3-4 side for three or four (42)."""
    state = kit.new(players)
    assert state.side == side
    assert len(open_districts(state)) == districts
    assert len(all_spaces(state)) == spaces
    if side == "small":
        assert {d.number for d in state.districts if not d.spaces} == SMALL_BLOCKED
    assert kit.GAME.view(state, None)["side"] == side


# --- Step 2: Mobsters (000:11.1-000:11.7) -------------------------------------------------------------------------


def test_000_11_1_setup_mobsters_sit_on_the_mobster_board_by_district():
    """000:11.1: the Mobster board has one place per district; the Setup Mobsters stand there (view names them)."""
    state = kit.new(3)
    v = kit.GAME.view(state, None)
    named = {d["number"]: d["mobster"] for d in v["districts"] if d["mobster"]}
    assert named == {d.number: R.mobsters[d.mobster].name for d in setup_districts(state)}
    assert len(named) == 6


def test_000_11_2_mobster_tiles_are_separated_by_letter():
    """000:11.2: decks B, C and D wait apart (5, 5 and 6 tiles); deck A is on the board or boxed."""
    for n in (2, 3):
        state = kit.new(n)
        assert set(state.mobster_decks) == {"B", "C", "D"}
        for letter, size in (("B", 5), ("C", 5), ("D", 6)):
            assert len(state.mobster_decks[letter]) == size
            assert all(R.mobsters[m].deck == letter for m in state.mobster_decks[letter])
        used_a = [d.mobster for d in setup_districts(state)] + state.mobster_box
        assert sorted(used_a) == [m.id for m in R.mobsters if m.deck == "A"]
        kit.ok(state)


def test_000_11_3_mobster_district_tiles_are_shuffled():
    """000:11.3: the Setup Mobsters' districts depend on the seed (the District tiles are shuffled)."""
    seen = {frozenset(d.number for d in setup_districts(kit.new(3, seed))) for seed in range(12)}
    assert len(seen) > 1


@pytest.mark.parametrize(("players", "count"), [(2, 4), (3, 6), (4, 6)])
def test_000_11_4_six_setup_mobsters_four_with_two_players(players, count):
    """000:11.4: 6 Setup Mobsters (letter A), 4 in a 2-player game (the other 2 boxed, design §12)."""
    state = kit.new(players)
    mobs = [d.mobster for d in setup_districts(state)]
    assert len(mobs) == count
    assert all(R.mobsters[m].deck == "A" for m in mobs)
    assert len(state.mobster_box) == 6 - count


def test_000_11_5_each_setup_mobster_goes_to_its_revealed_district():
    """000:11.5: one Setup Mobster per revealed district, each district different and open on this side."""
    for n in (2, 3, 4):
        state = kit.new(n, seed=5)
        numbers = [d.number for d in setup_districts(state)]
        assert len(set(numbers)) == len(numbers)
        if n == 2:
            assert not set(numbers) & SMALL_BLOCKED


def test_000_11_6_strength_tiles_match_the_mobsters():
    """000:11.6: each Setup Mobster's district gets a Strength tile equal to its strength; other districts none."""
    state = kit.new(4, seed=3)
    for d in state.districts:
        if d.mobster is not None:
            assert d.strength == R.mobsters[d.mobster].strength
        else:
            assert d.strength == 0


def test_000_11_7_mobster_speakeasies_beside_every_space_of_those_districts():
    """000:11.7: every building space of a Setup Mobster's district holds a Mobster Speakeasy; no other does."""
    for n in (2, 3):
        state = kit.new(n, seed=9)
        for d in state.districts:
            assert all(sp.mobster == (d.mobster is not None) for sp in d.spaces)


# --- Step 3: Cops (000:12.1-000:12.4) -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_000_12_1_four_cop_district_tiles_revealed(players):
    """000:12.1: four Cop District tiles are revealed (on either side)."""
    state = kit.new(players, seed=11)
    assert sum(d.cop for d in state.districts) == 4


def test_000_12_2_a_cop_stops_buildings_in_its_district_operating():
    """000:12.2: a Cop stands in each revealed district; an unprotected building there is not Operating."""
    state = kit.paused(3, seed=2)
    cop = next(d for d in state.districts if d.cop and any(sp.building is None for sp in d.spaces))
    i = kit.empty_space(state, cop.number)
    b = kit.build(state, 0, cop.number, i)
    assert not operating(cop, b)
    v = kit.GAME.view(state, 0)
    assert v["districts"][cop.number - 1]["spaces"][i]["building"]["operating"] is False
    kit.ok(state)


def test_000_12_3_four_more_tiles_face_down_on_cop_spaces():
    """000:12.3: four more tiles lie face down on their districts' Cop spaces, never where a Cop stands, with no
    effect yet (design §1.2)."""
    state = kit.paused(3, seed=4)
    face_down = [d for d in state.districts if d.cop_tile]
    assert len(face_down) == 4
    assert not any(d.cop for d in face_down)
    d = next(d for d in face_down if any(sp.building is None for sp in d.spaces))
    b = kit.build(state, 1, d.number, kit.empty_space(state, d.number))
    assert operating(d, b)
    kit.ok(state)


def test_000_12_4_two_stacks_of_four_with_the_rest():
    """000:12.4: the remaining 8 tiles make 2 stacks of 4 on the Time track; none is boxed."""
    state = kit.new(3, seed=6)
    assert [len(s) for s in state.cop_stacks] == [4, 4]
    assert state.box["cop_tiles"] == []
    assert kit.GAME.view(state, None)["cop_stacks"] == [4, 4]


# --- Step 4: City tiles (000:13.1-000:13.4) -----------------------------------------------------------------------


def test_000_13_1_city_tiles_are_mixed():
    """000:13.1: the tiles on the map depend on the seed."""
    layouts = {tuple(sp.tile for sp in all_spaces(kit.new(3, seed))) for seed in range(5)}
    assert len(layouts) == 5


@pytest.mark.parametrize(("players", "spaces"), [(2, 29), (3, 42), (4, 42)])
def test_000_13_2_a_city_tile_face_up_on_every_building_space(players, spaces):
    """000:13.2: every building space (Mobster-held ones too) holds a City tile; blocked districts have none."""
    state = kit.new(players, seed=7)
    tiles = [sp.tile for sp in all_spaces(state)]
    assert len(tiles) == spaces and None not in tiles
    assert len(set(tiles)) == spaces
    v = kit.GAME.view(state, None)
    assert all(sp["tile"]["kind"] for d in v["districts"] for sp in d["spaces"])


def test_000_13_3_three_tiles_face_up_in_the_display():
    """000:13.3: three tiles face up in the display, which everybody sees."""
    for n in (2, 3):
        state = kit.new(n)
        assert len(state.city_face) == 3 and None not in state.city_face
        assert all(t["kind"] for t in kit.GAME.view(state, None)["city_display"])


@pytest.mark.parametrize(("players", "piles"), [(2, [10, 9, 9]), (3, [5, 5, 5]), (4, [5, 5, 5])])
def test_000_13_4_three_face_down_piles_with_the_remaining_tiles(players, piles):
    """000:13.4, design §11.1: the rest make 3 piles: 10/9/9 on the 1-2 side, 5/5/5 on the 3-4 side (all 60 used)."""
    state = kit.new(players)
    assert [len(p) for p in state.city_piles] == piles
    assert kit.GAME.view(state, None)["city_piles"] == piles
    assert len(all_spaces(state)) + 3 + sum(piles) == 60
    kit.ok(state)


# --- Step 5: Zone Goal tiles (000:14.1-000:14.3) ------------------------------------------------------------------


class _FixedOrder:
    """A stand-in random generator whose shuffle puts a list of ids in a fixed order."""

    def __init__(self, order: list[int]) -> None:
        self.order = order

    def shuffle(self, items: list[int]) -> None:
        rest = [x for x in items if x not in self.order]
        items[:] = [x for x in self.order if x in items] + rest


def _zone_goals_in_order(order: list[int]) -> list[int]:
    state = kit.new(3)
    state.rng = _FixedOrder(order)  # type: ignore[assignment]
    state.box["zone_goals"] = []
    setup_mod._zone_goals(state, [])
    return state.zone_goals


def test_000_14_1_zone_goal_tiles_are_shuffled():
    """000:14.1: the Zone goals depend on the seed."""
    assert len({tuple(kit.new(3, seed).zone_goals) for seed in range(10)}) > 1


def test_000_14_2_the_top_tile_goes_to_downtown():
    """000:14.2: Downtown gets the top tile of the shuffled stack, whatever its number."""
    goals = R.goals.zone_goals
    for top in (0, 5, 11):
        assert _zone_goals_in_order([top])[0] == top
    assert goals[_zone_goals_in_order([11])[0]].number == goals[11].number


def test_000_14_3_midtown_and_uptown_reveal_until_a_different_number():
    """000:14.3: Midtown takes the next tile with another number, Uptown the next unlike both; the rejected are
    boxed (design §10.1)."""
    goals = R.goals.zone_goals
    two = [g.id for g in goals if g.number == 2]
    three = [g.id for g in goals if g.number == 3]
    four = [g.id for g in goals if g.number == 4]
    order = [two[0], two[1], two[2], three[0], two[3], three[1], four[0]]
    assert _zone_goals_in_order(order) == [two[0], three[0], four[0]]
    for seed in range(20):
        state = kit.new(3, seed)
        numbers = [goals[t].number for t in state.zone_goals]
        assert sorted(numbers) == [2, 3, 4]
        assert sorted(state.zone_goals + state.box["zone_goals"]) == list(range(12))
    v = kit.GAME.view(kit.new(2), None)
    assert [z["zone"] for z in v["zone_goals"]] == list(ZONES)


# --- Step 6: Central Park (000:15.1-000:15.2) ---------------------------------------------------------------------


def test_000_15_1_central_park_stacks_a_b_c_are_shuffled_separately():
    """000:15.1: tiles come from their own letter's stack; which ones depends on the seed."""
    layouts = set()
    for seed in range(10):
        state = kit.new(3, seed)
        letters = [R.goals.park_goals[[g.id for g in R.goals.park_goals].index(t)].letter for t in state.park_goals]
        assert letters == ["A", "A", "A", "B", "B", "C"]
        assert sorted(state.park_goals + state.box["park_goals"]) == sorted(g.id for g in R.goals.park_goals)
        layouts.add(tuple(state.park_goals))
    assert len(layouts) > 1


@pytest.mark.parametrize(("players", "letters"), [(2, "AABC"), (3, "AAABBC"), (4, "AAABBC")])
def test_000_15_2_central_park_counts_per_stack(players, letters):
    """000:15.2, design §10.5: 3/2/1 tiles of A/B/C on the 3-4 side, 2/1/1 on the 1-2 side, left to right."""
    state = kit.new(players)
    assert "".join(t[0] for t in state.park_goals) == letters
    assert state.park_books == [None] * len(letters)


# --- Step 7: Operations and Helper cards (000:16.1-000:16.4) ------------------------------------------------------


def test_000_16_1_four_operations_decks():
    """000:16.1: four decks (VIP Room, Party, Stills, Fleet), each holding only its own cards."""
    state = kit.new(3)
    assert list(state.decks) == list(TRACKS)
    for deck, cards in state.decks.items():
        assert all(R.cards[c].deck == deck for c in cards)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_000_16_2_each_player_is_dealt_one_card_of_each_deck(players):
    """000:16.2: each deck shuffled; every player gets one card from each deck."""
    state = kit.new(players)
    for p in state.players:
        assert sorted(R.cards[c].deck for c in p.hand) == sorted(TRACKS)
    assert all(len(cards) == 12 - players for cards in state.decks.values())
    assert len({tuple(kit.new(players, seed).decks["vip"]) for seed in range(5)}) > 1


def test_000_16_3_the_decks_are_face_up():
    """000:16.3: everyone sees each deck's top card (spectator view, and the draw options name it)."""
    state = kit.played(3)
    v = kit.GAME.view(state, None)
    for deck in TRACKS:
        assert v["decks"][deck]["top"]["id"] == state.decks[deck][0]
    state.tasks.clear()
    state.phase = "paused"
    kit.task(state, "draw", 0)
    labels = kit.labels(state)
    assert labels == [f"Draw {R.cards[state.decks[d][0]].name}" for d in TRACKS]


def test_000_16_4_three_helper_cards_face_up():
    """000:16.4: the Helper deck is shuffled and its top three form the display."""
    state = kit.new(4)
    assert len(state.helper_display) == 3 and None not in state.helper_display
    assert len(state.helper_deck) == 17
    assert len({tuple(kit.new(4, seed).helper_display) for seed in range(6)}) > 1


# --- Step 8: City Docks (000:17.1-000:17.4) -----------------------------------------------------------------------


def test_000_17_1_the_city_docks_board():
    """000:17.1: the City Docks board: 3 Docks zones of 8 empty Family Member spaces and 4 Ship berths."""
    state = kit.new(3)
    assert state.docks == [[None] * 8 for _ in ZONES]
    assert [s.number for s in state.ships] == [1, 2, 3, 4]


def test_000_17_2_five_barrels_on_each_ship():
    """000:17.2: each of the 4 Rum-runner Ships starts with 5 barrels."""
    for n in (2, 4):
        assert [s.barrels for s in kit.new(n).ships] == [5, 5, 5, 5]


def test_000_17_3_a_face_up_crate_on_each_ship():
    """000:17.3: each Ship gets a different shuffled Crate, shown to all; 8 wait in the stack."""
    state = kit.new(3)
    crates = [s.crate for s in state.ships]
    assert None not in crates and len(set(crates)) == 4
    assert len(state.crate_stack) == 8
    assert all(s["crate"] for s in kit.GAME.view(state, None)["ships"])
    assert len({tuple(s.crate for s in kit.new(3, seed).ships) for seed in range(6)}) > 1


def test_000_17_4_a_port_tile_for_each_ship():
    """000:17.4: each Ship's place is a revealed Port tile, one different port district each (Ship 1 the first)."""
    state = kit.new(3)
    ports = [s.port for s in state.ships]
    assert len(set(ports)) == 4
    assert set(ports) <= set(R.docks.ports)
    assert sorted(ports + state.port_stack) == sorted(R.docks.ports)
    assert len({tuple(s.port for s in kit.new(3, seed).ships) for seed in range(6)}) > 1


# --- Step 9: the supply (000:18.1, design §1.5.6) -----------------------------------------------------------------


def test_000_18_1_barrels_cops_money_leverage_and_goons_come_from_an_unlimited_supply():
    """000:18.1, design §1.5.6: all four players can fill their Goon tracks, gain any money and Leverage; no
    shared supply runs out."""
    state = kit.paused(4)
    for seat in range(4):
        kit.task(state, "gain", seat, n=5, s="goon_free")
        kit.task(state, "gain", seat, n=100, s="leverage")
        kit.task(state, "gain", seat, n=100, s="pocket")
        kit.task(state, "gain", seat, n=8, s="stills_barrels")
    for p in state.players:
        assert p.goons == 6
        assert p.leverage >= 100 and p.pocket >= 100
        assert p.stills_barrels == 8
    kit.ok(state)


# --- Step 10: player setup (000:19.1-000:19.11) -------------------------------------------------------------------


def test_000_19_1_each_player_takes_their_own_board_and_components():
    """000:19.1: one Operations board (levels, rows, slots), Safe and tray per player, named after the seat."""
    state = kit.new(4)
    assert [p.name for p in state.players] == ["P1", "P2", "P3", "P4"]
    for p in state.players:
        assert set(p.slots) == set(TRACKS) and all(c is None for c in p.slots.values())
        assert set(p.rows) == set(BUILDING_KINDS)
    assert len({id(p.levels) for p in state.players}) == 4


def test_000_19_2_every_level_starts_at_1():
    """000:19.2: each Operations marker and the Strength marker on level 1."""
    for p in kit.new(3).players:
        assert p.levels == {"vip": 1, "party": 1, "stills": 1, "fleet": 1, "strength": 1}


def test_000_19_3_capos_and_buildings_on_their_spaces():
    """000:19.3: 4 Capos, 1 Stills, 8 Speakeasies, 3 Nightclubs, 3 Casinos on the board."""
    for p in kit.new(2).players:
        assert p.capos == 4 and p.capos_boxed == 0
        assert {k: len(v) for k, v in p.rows.items()} == {"stills": 1, "speakeasy": 8, "nightclub": 3, "casino": 3}
        assert all(all(v) for v in p.rows.values())


def test_000_19_4_one_goon_on_the_0_space():
    """000:19.4: one Goon on the $0 space, so the next Goon costs $1."""
    state = kit.new(3)
    for seat, p in enumerate(state.players):
        assert p.goons == 1
        assert hire_goon(state, seat) == 1


def test_000_19_5_the_associate_marker_on_its_space():
    """000:19.5: no Associate hired at the start."""
    state = kit.new(3)
    assert all(p.associate is None for p in state.players)
    assert all(e["associate"] is None for e in kit.GAME.view(state, None)["players"])


def test_000_19_6_one_truck_usable_the_second_under_fleet():
    """000:19.6, design §3.1: one Truck usable; the second is freed at Fleet level 3."""
    state = kit.paused(3)
    p = state.player(0)
    assert trucks(p) == 1
    kit.give(state, 0, levels={"fleet": 2})
    assert trucks(p) == 1
    kit.give(state, 0, levels={"fleet": 3})
    assert trucks(p) == 2


def test_000_19_7_the_safe_screen_hides_safe_money():
    """000:19.7: only the owner sees their safe; everyone sees the pocket."""
    state = kit.new(3)
    for seat in range(3):
        v = kit.GAME.view(state, seat)
        for i, e in enumerate(v["players"]):
            assert ("safe" in e) == (i == seat)
            assert e["pocket"] == 15
    assert all("safe" not in e for e in kit.GAME.view(state, None)["players"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_000_19_8_pocket_15_and_safe_30(players):
    """000:19.8: $15 in front of each player, $30 behind the Safe screen."""
    assert all((p.pocket, p.safe) == (15, 30) for p in kit.new(players).players)


def test_000_19_9_zone_control_markers_at_the_bottom():
    """000:19.9: one Zone Control marker per Zone, on the bottom space (0)."""
    assert all(p.zone_markers == [0] * len(ZONES) for p in kit.new(4).players)


def test_000_19_10_infamy_on_5():
    """000:19.10: Infamy marker on 5."""
    state = kit.new(3)
    assert all(p.infamy == 5 for p in state.players)
    assert all(e["infamy"] == 5 for e in kit.GAME.view(state, None)["players"])


def test_000_19_11_family_members_beside_infamy_8_and_14():
    """000:19.11: one Family Member beside Infamy 8 and one beside 14; reaching 8 frees it (design §5)."""
    state = kit.paused(3)
    for p in state.players:
        assert p.family_track == [8, 14]
    p = state.player(0)
    kit.give(state, 0, infamy=7)
    kit.task(state, "raise_track", 0, s="strength")
    kit.answer(state, "raise:strength")
    assert p.infamy == 8
    assert kit.prompt(state).kind == "place_family"
    kit.answer(state, "vip")
    assert p.family_track == [14] and p.family_vip == 1
    kit.ok(state)


# --- Step 11: the Setup Round (000:20.1-000:20.8) -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_000_20_1_a_seeded_random_starting_player_takes_first_place(players):
    """000:20.1: the starting player is drawn with the game's seed; every seat starts in some game, and the
    starting player's marker is first on the Turn Order track."""
    firsts = set()
    for seed in range(40):
        state, events = kit.GAME.start([f"P{i + 1}" for i in range(players)], {}, seed)
        first = state.track[0]
        firsts.add(first)
        assert any(e.text.startswith(f"P{first + 1} is the starting player; the 1920 Setup Round") for e in events)
    assert firsts == set(range(players))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_000_20_2_the_others_follow_clockwise(players):
    """000:20.2: after the starting player, the markers follow in clockwise (seat) order."""
    for seed in range(6):
        state = kit.new(players, seed)
        first = state.track[0]
        assert state.track == [(first + k) % players for k in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_000_20_3_setup_round_in_reverse_turn_order_stills_or_speakeasy(players):
    """000:20.3: the Setup Round asks the players in reverse turn order to open their Stills or a Speakeasy."""
    state = kit.new(players, seed=3)
    track = list(state.track)
    assert kit.ids(state) == ["row:stills:0"] + [f"row:speakeasy:{i}" for i in range(8)]
    assert setup_seats(state) == list(reversed(track))
    assert state.track == track  # the Setup Round does not change turn order
    kit.ok(state)


def test_000_20_4_the_cost_is_paid_from_the_15_only():
    """000:20.4: the building is paid from the $15 in front of the player; the safe is never used."""
    state = kit.new(3, seed=2)
    seat = kit.prompt(state).seat
    p = state.player(seat)
    kit.give(state, seat, pocket=4)  # $30 still in the safe
    assert kit.ids(state) == ["row:speakeasy:0", "row:speakeasy:1", "row:speakeasy:2"]
    kit.give(state, seat, pocket=15)
    d, i = next(free_spaces(state))
    put_tile(state, d.number, i, "Favours")
    kit.answer(state, "row:speakeasy:6")  # the $8 Speakeasy
    kit.answer(state, f"open:{d.number}:{i}")
    assert p.pocket == 7 and p.safe == 30
    kit.ok(state)


def test_000_20_4_a_stills_costs_5_in_the_setup_round():
    """000:20.4: opening the Stills costs $5 from the pocket; the safe stays at $30."""
    state = kit.new(2, seed=8)
    seat = kit.prompt(state).seat
    p = state.player(seat)
    d, i = next(free_spaces(state))
    put_tile(state, d.number, i, "Favours")
    kit.answer(state, "row:stills:0")
    kit.answer(state, f"open:{d.number}:{i}")
    assert (p.pocket, p.safe) == (10, 30)
    assert d.spaces[i].building == Building(seat, "stills")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_000_20_5_the_building_goes_on_an_empty_free_space(players):
    """000:20.5, design §1.1: the Setup Round offers exactly the free spaces (no Mobster-held, occupied or
    blocked ones)."""
    state = kit.new(players, seed=4)
    while state.phase == "setup":
        p = kit.prompt(state)
        if p.kind == "setup_at":
            free = {f"open:{d.number}:{i}" for d, i in free_spaces(state)}
            assert set(kit.ids(state)) - {"back"} == free
            held = {f"open:{d.number}:{i}" for d, i in mobster_held(state)}
            assert not held & set(kit.ids(state))
        kit.GAME.apply(state, Choice(p.seat, p.kind, p.options[0].id))
    assert sum(1 for sp in all_spaces(state) if sp.building) == players
    kit.ok(state)


def test_000_20_6_the_city_tile_of_that_space_is_gained():
    """000:20.6: the City tile moves to the player's board and its benefit is gained (Ledger: 1 Book)."""
    state = kit.new(3, seed=5)
    seat = kit.prompt(state).seat
    p = state.player(seat)
    d, i = next(free_spaces(state))
    tile = put_tile(state, d.number, i, "Ledger")
    kit.answer(state, "row:stills:0")
    kit.answer(state, f"open:{d.number}:{i}")
    assert d.spaces[i].tile is None
    assert p.tiles == [tile]
    assert p.books == 1 and p.book_supply == 9
    kit.ok(state)


def test_000_20_7_the_benefit_below_the_building_space_is_gained():
    """000:20.7: the Operations-board space the building leaves uncovers its benefit (Speakeasy 1: 1 Leverage;
    Speakeasy 4: 1 Book; Stills: 2 barrels)."""
    for row, check in (
        ("row:speakeasy:0", lambda p: p.leverage == 1 + 2),  # + the Favours tile's 2 Leverage
        ("row:speakeasy:3", lambda p: p.books == 1),
        ("row:stills:0", lambda p: p.stills_barrels == 2),
    ):
        state = kit.new(3, seed=6)
        seat = kit.prompt(state).seat
        p = state.player(seat)
        d, i = next(free_spaces(state))
        put_tile(state, d.number, i, "Favours")
        kit.answer(state, row)
        kit.answer(state, f"open:{d.number}:{i}")
        assert check(p), row
        kind, idx = row.split(":")[1:]
        assert p.rows[kind][int(idx)] is False
        kit.ok(state)


def test_000_20_7_the_city_tile_comes_before_the_board_benefit():
    """000:20.6-000:20.7, design §6.2: the City tile's benefit is gained first, then the Operations-board one
    (Permit tile: +1 level; Speakeasy 2: take an Operations card)."""
    state = kit.new(3, seed=6)
    seat = kit.prompt(state).seat
    d, i = next(free_spaces(state))
    put_tile(state, d.number, i, "Permit")
    kit.answer(state, "row:speakeasy:1")
    kit.answer(state, f"open:{d.number}:{i}")
    assert kit.prompt(state).kind == "level_any"
    kit.answer(state, "raise:party")
    assert kit.prompt(state).kind == "take_card" and kit.prompt(state).seat == seat
    kit.answer(state, "deck:fleet")
    assert kit.prompt(state).kind == "setup_card"
    assert state.player(seat).levels["party"] == 2 and len(state.player(seat).hand) == 5
    kit.ok(state)


def test_000_20_8_play_a_card_to_its_slot_for_the_setup_icon():
    """000:20.8, design §1.5.7: after building, the player plays a card from hand into its slot and gains only its
    setup icon (Stills "Operations card": 2 Leverage, no card taken, no Produce)."""
    state = kit.new(3, seed=7)
    seat = kit.prompt(state).seat
    p = state.player(seat)
    card = ensure_in_hand(state, seat, "Stills: Operations card")
    d, i = next(free_spaces(state))
    put_tile(state, d.number, i, "Cash")
    kit.answer(state, "row:speakeasy:0")
    kit.answer(state, f"open:{d.number}:{i}")
    assert kit.prompt(state).kind == "setup_card"
    assert "skip" not in kit.ids(state)
    leverage, hand = p.leverage, len(p.hand)
    kit.answer(state, f"play:{card}")
    assert p.slots["stills"] == card
    assert card not in p.hand and len(p.hand) == hand - 1
    assert p.leverage == leverage + 2
    assert p.stills_barrels == 0
    assert kit.prompt(state).kind == "setup_build" and kit.prompt(state).seat != seat
    kit.ok(state)


# --- design §1: board geometry ------------------------------------------------------------------------------------


def test_design_1_1_districts_zones_spaces_and_ports_are_the_table():
    """Design §1.1: 16 districts, south to north, Downtown 1-5, Midtown 6-10, Uptown 11-16; 3 spaces in 1-10,
    2 in 11-16; ports in 1, 2, 4, 6, 8, 11, 13, 14."""
    names = [
        "Financial District",
        "Lower East Side",
        "Little Italy",
        "Greenwich Village",
        "Tribeca",
        "Chelsea",
        "Garment District",
        "Hell's Kitchen",
        "Times Square",
        "Murray Hill",
        "Upper West Side",
        "Upper East Side",
        "Harlem",
        "Yorkville",
        "Morningside Heights",
        "Washington Heights",
    ]
    assert [d.name for d in R.districts] == names
    assert [d.zone for d in R.districts] == ["Downtown"] * 5 + ["Midtown"] * 5 + ["Uptown"] * 6
    assert [d.spaces for d in R.districts] == [3] * 10 + [2] * 6
    assert [d.number for d in R.districts if d.port] == [1, 2, 4, 6, 8, 11, 13, 14]


def test_design_1_1_the_1_2_side_blocks_5_9_10_15_16():
    """Design §1.1: on the 1-2 side districts 5, 9, 10, 15, 16 have no spaces and no City tiles; 11 open districts
    (Downtown 1-4, Midtown 6-8, Uptown 11-14) with 29 spaces."""
    state = kit.new(2)
    for d in state.districts:
        assert (d.spaces == []) == (d.number in SMALL_BLOCKED)
        assert (d.mobster is None) or d.number not in SMALL_BLOCKED
        assert not d.war_tile or d.number not in SMALL_BLOCKED
    assert [d.number for d in open_districts(state)] == [1, 2, 3, 4, 6, 7, 8, 11, 12, 13, 14]
    assert len(all_spaces(state)) == 29
    v = kit.GAME.view(state, None)
    assert {d["number"] for d in v["districts"] if not d["open"]} == SMALL_BLOCKED


def test_design_1_1_the_1_2_side_boxes_the_blocked_mobster_district_tiles():
    """Design §1.1, §1.5.1: the 5 blocked districts' Mobster District tiles are boxed; the 11 others are used as
    4 + 2 + 2 + 3. The 3-4 side uses all 16 as 6 + 3 + 3 + 4."""
    for players, sizes in ((2, (4, 2, 2, 3)), (3, (6, 3, 3, 4))):
        state = kit.new(players, seed=12)
        setup_n = [d.number for d in setup_districts(state)]
        war = [d.number for d in state.districts if d.war_tile]
        used = setup_n + war + state.war_stacks[0] + state.war_stacks[1]
        assert (len(setup_n), len(war), *map(len, state.war_stacks)) == sizes
        assert len(set(used)) == len(used)
        boxed = state.box["mobster_districts"]
        assert sorted(used + boxed) == list(range(1, 17))
        assert set(boxed) == (SMALL_BLOCKED if players == 2 else set())


def test_design_1_1_the_1_2_side_keeps_all_16_cop_tiles():
    """Design §1.1: all 16 Cop District tiles stay in play on the 1-2 side; a Cop on a blocked district stands
    beside no space, so it affects nothing."""
    hit_blocked = False
    for seed in range(30):
        state = kit.new(2, seed)
        placed = [d.number for d in state.districts if d.cop or d.cop_tile]
        assert sorted(placed + [n for s in state.cop_stacks for n in s]) == list(range(1, 17))
        hit_blocked |= any(d.cop and not d.spaces for d in state.districts)
    assert hit_blocked


def test_design_1_1_open_on_free_spaces_take_over_on_mobster_held_ones():
    """Design §1.1, §6.2: a Contractor build opens only on free spaces and takes over only Mobster-held ones."""
    state = kit.paused(3, seed=1)
    kit.give(state, 0, pocket=50, goons=6, levels={"strength": 3})
    kit.task(state, "build", 0, n=2)
    kit.answer(state, "row:speakeasy:0")
    ids = set(kit.ids(state)) - {"back"}
    opens = {x for x in ids if x.startswith("open:")}
    takes = {":".join(x.split(":")[:3]) for x in ids if x.startswith("take:")}
    assert opens == {f"open:{d.number}:{i}" for d, i in free_spaces(state)}
    assert takes == {f"take:{d.number}:{i}" for d, i in mobster_held(state)}
    assert not {o.replace("open", "take") for o in opens} & takes
    kit.ok(state)


def test_design_1_1_a_space_with_a_building_is_neither_free_nor_mobster_held():
    """Design §1.1: "empty" means no player building; a built space is offered to nobody."""
    state = kit.paused(3)
    d, i = next(free_spaces(state))
    kit.build(state, 1, d.number, i)
    assert (d, i) not in list(free_spaces(state)) and (d, i) not in list(mobster_held(state))
    kit.give(state, 0, pocket=50)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    assert f"open:{d.number}:{i}" not in kit.ids(state)
    kit.ok(state)


def test_design_1_2_operating_unless_a_cop_and_not_protected():
    """Design §1.2: a building is Operating unless its district holds a Cop and it is not Protected (a Family
    Member on its slot); a face-down Cop tile does nothing."""
    state = kit.paused(3)
    d = state.districts[0]
    d.cop, d.cop_tile = False, False
    assert operating(d, Building(0, "speakeasy"))
    d.cop = True
    assert not operating(d, Building(0, "speakeasy"))
    assert operating(d, Building(0, "speakeasy", family=True))
    d.cop, d.cop_tile = False, True
    assert operating(d, Building(0, "casino"))


def test_design_1_4_docks_zones_ships_and_ports():
    """Design §1.4: 3 Docks zones (8 Family Member spaces each), 4 Ships, 8 Port tiles of districts open on both
    sides; a Ship's Docks zone is its port district's Zone."""
    assert R.docks.family_spaces == 8
    assert sorted(R.docks.ports) == [1, 2, 4, 6, 8, 11, 13, 14]
    assert not set(R.docks.ports) & SMALL_BLOCKED
    for players in (2, 3):
        state = kit.new(players, seed=3)
        assert len(state.docks) == 3 and all(len(z) == 8 for z in state.docks)
        v = kit.GAME.view(state, None)
        for ship, s in zip(state.ships, v["ships"], strict=True):
            assert s["zone"] == R.district(ship.port).zone
            assert state.districts[ship.port - 1].spaces


def test_design_1_5_1_mob_war_tiles_on_the_gun_spaces_and_the_time_track():
    """Design §1.5.1: 3 more District tiles (2 with two players) face down on their gun spaces, then stacks of 3
    and 4 (2 and 3) on the Time track; the war districts hold no Setup Mobster."""
    for players, war, stacks in ((2, 2, [2, 3]), (3, 3, [3, 4]), (4, 3, [3, 4])):
        state = kit.new(players, seed=14)
        wars = [d for d in state.districts if d.war_tile]
        assert len(wars) == war
        assert all(d.mobster is None and d.spaces for d in wars)
        assert [len(s) for s in state.war_stacks] == stacks
        assert kit.GAME.view(state, None)["war_stacks"] == stacks


def test_design_1_5_2_each_player_starts_with_0_leverage_10_books_8_family_1_goon():
    """Design §1.5.2: 0 Leverage, 10 Books in supply, 8 Family Members (6 in supply + 2 on the Infamy track),
    1 Goon, no Associate."""
    for p in kit.new(3).players:
        assert p.leverage == 0
        assert (p.book_supply, p.books) == (10, 0)
        assert p.family_supply + len(p.family_track) == 8 and p.family_vip == 0
        assert p.goons == 1
        assert p.associate is None


def test_design_1_5_3_central_park_per_10_5():
    """Design §1.5.3: Central Park laid out per §10.5 (A tiles, then B, then C), no Book on any tile."""
    for players, count in ((2, 4), (4, 6)):
        state = kit.new(players)
        assert len(state.park_goals) == count
        assert "".join(t[0] for t in state.park_goals) == "".join(sorted(t[0] for t in state.park_goals))
        assert state.park_books == [None] * count


def test_design_1_5_4_helper_display_of_3_and_associates_are_the_board_mobsters():
    """Design §1.5.4, §9.2: 3 Helpers in the display; no Associate display: the Associates one can hire are the
    Setup Mobsters on the Mobster board."""
    for players, mobs in ((2, 4), (3, 6)):
        state = kit.paused(players)
        assert len(state.helper_display) == 3
        kit.task(state, "hire_associate", 0)
        offered = sorted(i for i in kit.ids(state) if i != "skip")
        assert offered == sorted(f"mobster:{d.mobster}" for d in setup_districts(state))
        assert len(setup_districts(state)) == mobs


def test_design_1_5_5_year_labels():
    """Design §1.5.5: Setup Round 1920; Act 1 1921-24; Act 2 1925-27; Act 3 1928-30; Act 4 1931; Final 1933."""
    assert kit.new(3).year == 1920
    assert kit.played(3).year == 1921
    assert R.years == {"setup": 1920, "act1": 1921, "act2": 1925, "act3": 1928, "act4": 1931, "final": 1933}
    ends = [R.years[f"act{a + 1}"] + R.tracks.capos_per_act[a] - 1 for a in range(4)]
    assert ends == [1924, 1927, 1930, 1931]


def test_design_1_5_6_counted_components_run_out_and_then_give_nothing():
    """Design §1.5.6: a counted component (Books, Family Members, Helpers) gives nothing once used up."""
    state = kit.paused(3)
    p = state.player(0)
    kit.give(state, 0, books=p.books + p.book_supply, book_supply=0)
    books = p.books
    kit.task(state, "gain", 0, n=1, s="book")
    assert (p.books, p.book_supply) == (books, 0)
    kit.give(state, 0, family_vip=p.family_vip + p.family_supply, family_supply=0)
    vip = p.family_vip
    kit.task(state, "gain", 0, n=1, s="family_vip")
    assert (p.family_vip, p.family_supply) == (vip, 0)
    state.helper_deck.extend(h for h in state.helper_display if h is not None)
    state.helper_display = [None, None, None]
    kit.task(state, "gain", 0, n=1, s="helper")
    assert kit.is_waiting(state) and p.helpers == []
    kit.ok(state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_design_1_5_7_the_setup_round_never_blocks(players):
    """Design §1.5.7: with 4 cards, $15 and at least 17 free spaces every player can build and play a card, even
    choosing the $8 Speakeasy each time."""
    for seed in range(10):
        state = kit.new(players, seed)
        assert len(list(free_spaces(state))) >= 17
        while state.phase == "setup":
            p = kit.prompt(state)
            ids = [o.id for o in p.options]
            choice = "row:speakeasy:7" if "row:speakeasy:7" in ids else ids[0]
            kit.GAME.apply(state, Choice(p.seat, p.kind, choice))
        assert state.phase == "play"
        assert all(sum(c is not None for c in p.slots.values()) == 1 for p in state.players)
        owners = sorted(sp.building.owner for sp in all_spaces(state) if sp.building)
        assert owners == list(range(players))
        kit.ok(state)


def test_design_1_5_7_the_setup_card_gives_no_top_left_benefit_and_no_deck_action():
    """Design §1.5.7: the VIP Room "+1 VIP value" card in the Setup Round sends a Family Member to a Docks zone (its
    setup icon) and does no Get Protection."""
    state = kit.new(3, seed=9)
    seat = kit.prompt(state).seat
    p = state.player(seat)
    card = ensure_in_hand(state, seat, "VIP Room: +1 VIP value")
    d, i = next(free_spaces(state))
    put_tile(state, d.number, i, "Cash")
    kit.answer(state, "row:speakeasy:0")
    kit.answer(state, f"open:{d.number}:{i}")
    kit.answer(state, f"play:{card}")
    assert kit.prompt(state).kind == "place_family"
    assert sorted(kit.ids(state)) == ["docks:0", "docks:1", "docks:2"]
    kit.answer(state, "docks:1")
    assert state.docks[1][0] == seat and p.family_vip == 0
    assert kit.prompt(state).kind == "setup_build"  # no "protect" step
    kit.ok(state)


# --- design §12: Cop District tiles -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_design_12_sixteen_cop_district_tiles_one_per_district(players):
    """Design §12: 16 Cop District tiles, one per district: each district appears exactly once among the Cops,
    the face-down tiles and the two Time-track stacks, and no district holds both a Cop and a tile."""
    assert sorted(R.cop_districts) == list(range(1, 17))
    for seed in range(8):
        state = kit.new(players, seed)
        places = [d.number for d in state.districts if d.cop] + [d.number for d in state.districts if d.cop_tile]
        places += [n for s in state.cop_stacks for n in s]
        assert Counter(places) == Counter(range(1, 17))
        assert not any(d.cop and d.cop_tile for d in state.districts)


# --- reproducibility ----------------------------------------------------------------------------------------------


def test_setup_the_same_seed_gives_the_same_game_and_another_seed_another():
    """000:11.3, 000:12.1, 000:13.1, 000:16.2, 000:20.1: every shuffle and draw comes from the game's seed, so the
    same seed gives an identical state JSON and a different seed a different board."""
    for players in (2, 3, 4):
        a, b = kit.new(players, seed=42), kit.new(players, seed=42)
        assert kit.GAME.dumps(a) == kit.GAME.dumps(b)
        setup_seats(a)
        setup_seats(b)
        assert kit.GAME.dumps(a) == kit.GAME.dumps(b)
        c = kit.new(players, seed=43)
        assert kit.GAME.dumps(kit.new(players, seed=42)) != kit.GAME.dumps(c)
        assert board_signature(kit.new(players, seed=42)) != board_signature(c)
        assert kit.GAME.dumps(kit.GAME.loads(kit.GAME.dumps(a))) == kit.GAME.dumps(a)
