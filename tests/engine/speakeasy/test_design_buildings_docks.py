"""Design §6 (Buildings, Operating and Protected), §7 (Deliver, Ships, Crates, Ambush) and §8.1 (the Leverage of
Get Protection).

Each test is named after the design section it checks; seed sentences it also rests on are named in its docstring
(ids from ../shared/seeds/rule-index.md).
"""

from __future__ import annotations

import pytest

from engine.core import Choice
from engine.speakeasy.board import zone_index
from tests.engine.speakeasy import kit

DOWNTOWN, MIDTOWN, UPTOWN = 0, 1, 2


# ---- arranging positions ----


calm = kit.calm
put_cop = kit.put_cop


def spot(state, number: int):
    """A player-free space in a calm district, without City tile: returns its index."""
    calm(state, number)
    i = kit.empty_space(state, number)
    sp = state.districts[number - 1].spaces[i]
    if sp.tile is not None:
        state.city_piles[0].append(sp.tile)
        sp.tile = None
    return i


def building(state, seat: int, number: int, kind: str = "speakeasy", **kw):
    """A building of ``seat`` on a new space of a calm district; returns (space index, Building)."""
    i = spot(state, number)
    return i, kit.build(state, seat, number, i, kind, **kw)


def mobster_district(state, number: int, strength: int) -> None:
    """Every empty space of a calm district Mobster-held, under a Mobster Strength tile of ``strength``."""
    calm(state, number)
    d = state.districts[number - 1]
    d.strength = strength
    for sp in d.spaces:
        if sp.building is None:
            sp.mobster = True
        if sp.tile is not None:  # no City tile: costs and gains stay simple
            state.city_piles[0].append(sp.tile)
            sp.tile = None


def ship_to(state, number: int, district: int) -> None:
    """Put Ship ``number`` on the Port tile of ``district`` (swapping tiles so each is still in one place)."""
    ship = state.ships[number - 1]
    if ship.port == district:
        return
    for other in state.ships:
        if other.port == district:
            other.port, ship.port = ship.port, district
            return
    for pile in (state.port_stack, state.port_box):
        if district in pile:
            pile[pile.index(district)] = ship.port
            ship.port = district
            return
    raise AssertionError(district)


def docks(state, zone: int, seats: list[int]) -> None:
    """Set the Family Members of one Docks zone (each from / back to its owner's supply)."""
    slots = state.docks[zone]
    for k, s in enumerate(slots):
        if s is not None:
            state.player(s).family_supply += 1
            slots[k] = None
    for k, s in enumerate(seats):
        state.player(s).family_supply -= 1
        slots[k] = s


def no_docks(state) -> None:
    for z in range(3):
        docks(state, z, [])


def crate_id(name: str) -> int:
    return next(c.id for c in kit.R().docks.crates if c.name == name)


def give_crate(state, seat: int, name: str) -> None:
    """Move a Crate (from its Ship or the stack) to ``seat``."""
    c = crate_id(name)
    for sh in state.ships:
        if sh.crate == c:
            sh.crate = None
    if c in state.crate_stack:
        state.crate_stack.remove(c)
    state.player(seat).crates.append(c)


def empty_hand(state, seat: int) -> None:
    p = state.player(seat)
    for card in list(p.hand):
        state.decks[kit.R().cards[card].deck].append(card)
    p.hand.clear()


def walk(state) -> None:
    """Answer whatever is asked, declining when possible (else the first option)."""
    while not kit.is_waiting(state):
        kit.answer(state, "skip" if "skip" in kit.ids(state) else kit.ids(state)[0])


def play_fleet(state, seat: int, benefit: str = "leverage") -> int:
    """Play a Fleet card with this benefit kind; the Deliver step is then open. Returns the card."""
    card = kit.card_with(state, seat, "fleet", benefit)
    kit.task(state, "play", seat, s="fleet")
    name = kit.R().cards[card].name  # identical cards in hand are one option
    kit.answer(state, next(o for o in kit.ids(state) if o != "skip" and kit.R().cards[int(o[5:])].name == name))
    return card


def put_tile(state, number: int, index: int, kind: str) -> int:
    """Move a City tile of this kind (not a player's) onto a space, its old tile going where that one was."""
    tile = next(
        t
        for t, k in enumerate(kit.R().tile_kinds)
        if kit.R().city_tiles[k].name == kind and not any(t in p.tiles for p in state.players)
    )
    target = state.districts[number - 1].spaces[index]
    old, target.tile = target.tile, None
    for d in state.districts:
        for sp in d.spaces:
            if sp.tile == tile:
                sp.tile, old = old, None
    if tile in state.city_face:
        state.city_face[state.city_face.index(tile)] = old if old is not None else state.city_piles[2].pop()
        old = None
    for pile in state.city_piles:
        if tile in pile:
            pile.remove(tile)
    if old is not None:
        state.city_piles[0].append(old)
    target.tile = tile
    return tile


# ---- §6.1 rows ----


def test_design_6_1_rows_costs_and_uncovered_benefits():
    """Design §6.1 table: 1 Stills, 8 Speakeasies, 3 Nightclubs, 3 Casinos; each space's cost and benefit."""
    rows = kit.R().buildings.rows

    def row(kind):
        return [(rs.cost, [(e.kind, e.n) for e in rs.benefit]) for rs in rows[kind]]

    assert row("speakeasy") == [
        (3, [("leverage", 1)]),
        (3, [("card", 1)]),
        (3, [("goon_free", 1)]),
        (5, [("book", 1)]),
        (5, [("family_vip", 1)]),
        (5, [("leverage", 2)]),
        (8, [("helper", 1)]),
        (8, [("level_any", 1)]),
    ]
    assert row("stills") == [(5, [("stills_barrels", 2)])]
    assert row("nightclub") == [(6, [("leverage", 2)]), (7, [("book", 1), ("card", 1)]), (8, [("family_vip", 1)])]
    assert row("casino") == [(10, [("helper", 1)]), (11, [("level_any", 1)]), (12, [("book", 2)])]


ROW_GAINS = {
    0: ("leverage", None),
    1: ("hand", "take_card"),
    2: ("goons", None),
    3: ("books", None),
    4: ("family_vip", None),
    5: ("leverage", None),
    6: ("helpers", "take_helper"),
    7: ("levels", "level_any"),
}


@pytest.mark.parametrize("index", range(8))
def test_design_6_1_any_speakeasy_of_the_row_pays_its_cost_and_uncovers_its_benefit(index):
    """Design §6.1-6.2, seed 000:52.1-3: any building of a row may be taken, paying that space's cost and gaining
    the benefit it uncovers."""
    state = kit.paused()
    kit.give(state, 0, pocket=20, safe=0, leverage=0)
    p = state.player(0)
    i = spot(state, 2)
    field, asked = ROW_GAINS[index]
    before = getattr(p, field)
    before = dict(before) if isinstance(before, dict) else (len(before) if isinstance(before, list) else before)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, f"row:speakeasy:{index}")
    kit.answer(state, f"open:2:{i}")
    cost = kit.R().buildings.rows["speakeasy"][index].cost
    assert p.pocket == 20 - cost
    assert not p.rows["speakeasy"][index]
    assert state.districts[1].spaces[i].building.kind == "speakeasy"
    if asked:
        assert kit.prompt(state).kind == asked
        kit.answer(state, "raise:party" if asked == "level_any" else kit.ids(state)[0])
    after = getattr(p, field)
    gain = {0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 2, 6: 1}.get(index)
    if index == 7:
        assert after["party"] == before["party"] + 1
    else:
        assert (len(after) if isinstance(after, list) else after) == before + gain
    walk(state)
    kit.ok(state)


def test_design_6_1_stills_costs_5_and_puts_2_barrels_on_the_stills_area():
    """Design §6.1: the Stills ($5) uncovers 2 barrels on your Stills area."""
    state = kit.paused()
    p = state.player(0)
    for d in state.districts:  # seat 0's Stills back on its row
        for sp in d.spaces:
            if sp.building is not None and sp.building.owner == 0 and sp.building.kind == "stills":
                sp.building = None
    p.rows["stills"] = [True]
    kit.give(state, 0, pocket=10, safe=0, stills_barrels=0)
    i = spot(state, 2)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:stills:0")
    kit.answer(state, f"open:2:{i}")
    assert p.pocket == 5
    assert p.stills_barrels == 2
    kit.ok(state)


def test_design_6_1_returned_building_goes_to_the_leftmost_empty_space_and_its_benefit_is_gained_again():
    """Design §6.1: a building returned by an upgrade goes to the leftmost empty space of its row; the benefit there
    is covered again and can be gained again."""
    state = kit.paused()
    p = state.player(0)
    kit.give(state, 0, pocket=40, safe=0, leverage=0)
    building(state, 0, 2)  # from row space 1
    j, _b = building(state, 0, 4)  # from row space 2
    assert p.rows["speakeasy"][:3] == [False, False, True]
    kit.task(state, "upgrade", 0, n=1)
    kit.answer(state, f"up:4:{j}:0")
    assert p.rows["speakeasy"][:3] == [True, False, True]  # back to space 1, not to space 2 it came from
    assert state.districts[3].spaces[j].building.kind == "nightclub"
    walk(state)
    lev = p.leverage
    k = spot(state, 6)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    kit.answer(state, f"open:6:{k}")
    assert p.leverage == lev + 1  # space 1's benefit again
    kit.ok(state)


# ---- §6.2 open and take over ----


def test_design_6_2_open_pays_places_then_city_tile_then_row_benefit():
    """Design §6.2: pay, place, take the space's City tile and gain its benefit, then the uncovered benefit
    (seed 000:52.1-3, 000:20.5-7)."""
    state = kit.paused()
    p = state.player(0)
    kit.give(state, 0, pocket=10, safe=0)
    i = spot(state, 2)
    regular = put_tile(state, 2, i, "Regular")
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:1")
    kit.answer(state, f"open:2:{i}")
    assert p.pocket == 7
    assert state.districts[1].spaces[i].building is not None
    assert regular in p.tiles and state.districts[1].spaces[i].tile is None
    assert kit.prompt(state).kind == "take_helper"  # the City tile's benefit first
    kit.answer(state, kit.ids(state)[0])
    assert kit.prompt(state).kind == "take_card"  # then the Operations-board benefit
    kit.answer(state, "deck:vip")
    kit.ok(state)


def test_design_6_2_open_only_on_a_free_space():
    """Design §1.1, §6.2: open on a free space: never on a player building or a Mobster-held space."""
    state = kit.paused()
    kit.give(state, 0, pocket=20, goons=0)
    mobster_district(state, 4, 9)
    building(state, 1, 2)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    opens = {tuple(map(int, o.split(":")[1:])) for o in kit.ids(state) if o.startswith("open:")}
    for d in state.districts:
        for i, sp in enumerate(d.spaces):
            assert ((d.number, i) in opens) == (sp.building is None and not sp.mobster)


def test_design_6_2_take_over_needs_the_strength_tile():
    """Design §6.2.1-2: Strength total (level + 1 per Goon returned) must reach the district's Strength tile."""
    state = kit.paused()
    kit.give(state, 0, pocket=20, goons=3)
    mobster_district(state, 4, 4)  # Strength 1 + 3 Goons = 4: enough
    mobster_district(state, 6, 5)  # 4 < 5: not enough
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    takes = [o for o in kit.ids(state) if o.startswith("take:")]
    assert "take:4:0:g3" in takes
    assert not any(o.startswith("take:6:") for o in takes)
    state.player(0).levels["strength"] = 2  # 2 + 3 = 5
    assert "take:6:0:g3" in kit.ids(state)
    assert "take:4:0:g2" in kit.ids(state)


def test_design_6_2_refused_take_over_without_enough_strength():
    """Design §6.2.1: a take-over without enough Strength is refused, saying what is needed."""
    state = kit.paused()
    kit.give(state, 0, pocket=20, goons=2)
    mobster_district(state, 6, 5)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    msg = kit.refuse(state, Choice(0, "build_at", "take:6:0:g2"))
    assert "Strength 5" in msg
    assert "at most 3" in msg


def test_design_6_2_take_over_returns_goons_pays_cost_and_boxes_the_mobster_speakeasy():
    """Design §6.2.3-4: the Goons are spent, the Mobster Speakeasy goes back to the supply, your Speakeasy is placed
    and its cost paid; the City tile and the row benefit follow."""
    state = kit.paused()
    p = state.player(0)
    kit.give(state, 0, pocket=20, safe=0, goons=3, leverage=0)
    mobster_district(state, 4, 4)
    tile = put_tile(state, 4, 0, "Ledger")
    books = p.books
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    kit.answer(state, "take:4:0:g3")
    sp = state.districts[3].spaces[0]
    assert not sp.mobster
    assert sp.building.owner == 0 and sp.building.kind == "speakeasy"
    assert p.goons == 0
    assert p.pocket == 17
    assert tile in p.tiles and state.districts[3].spaces[0].tile is None
    assert p.books == books + 1  # the Ledger tile's Book
    assert p.leverage == 1  # the row space's Leverage
    kit.ok(state)


def test_design_6_2_goons_count_for_that_take_over_only():
    """Design §6.2.3: Goons returned count for that take-over only: a second take-over needs its own."""
    state = kit.paused()
    p = state.player(0)
    kit.give(state, 0, pocket=30, goons=3)
    mobster_district(state, 4, 3)
    mobster_district(state, 6, 3)
    kit.task(state, "build", 0, n=2)
    kit.answer(state, "row:speakeasy:0")
    kit.answer(state, "take:4:0:g2")
    walk_to(state, "build")
    assert p.goons == 1
    kit.answer(state, "row:speakeasy:1")
    assert not any(o.startswith("take:") for o in kit.ids(state))  # 1 + 1 Goon < 3
    kit.ok(state)


def walk_to(state, kind: str) -> None:
    """Answer prompts (decline or first option) until a prompt of ``kind`` is open."""
    while kit.prompt(state).kind != kind:
        kit.answer(state, "skip" if "skip" in kit.ids(state) else kit.ids(state)[0])


def test_design_6_2_associate_fee_is_paid_for_that_take_over():
    """Design §6.2.2-3, §9.2: the Associate adds its strength when its fee is paid; the fee is spent."""
    state = kit.paused()
    p = state.player(0)
    holder = next(d for d in state.districts if d.mobster is not None and zone_index(d.number) != DOWNTOWN)
    mob = kit.R().mobsters[holder.mobster]
    p.associate = mob.id  # a Mobster outside Downtown: no zone bonus in district 4
    kit.give(state, 0, pocket=30, safe=0, goons=0)
    mobster_district(state, 4, 1 + mob.strength)  # Downtown: no zone bonus
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    assert "take:4:0:ag0" in kit.ids(state)
    kit.answer(state, "take:4:0:ag0")
    assert p.pocket == 30 - 3 - mob.strength
    kit.ok(state)


def test_design_6_2_take_over_places_only_a_speakeasy():
    """Design §6.2, seed 000:52.1: a take-over places a Speakeasy; the Stills only opens on a free space."""
    state = kit.paused()
    p = state.player(0)
    for d in state.districts:
        for sp in d.spaces:
            if sp.building is not None and sp.building.owner == 0:
                sp.building = None
    p.rows["stills"] = [True]
    kit.give(state, 0, pocket=20, goons=5)
    mobster_district(state, 4, 2)
    kit.task(state, "build_at", 0, s="stills:0")
    assert kit.ids(state)
    assert not any(o.startswith("take:") for o in kit.ids(state))


def test_design_6_2_take_over_in_a_district_whose_mobster_already_attacked():
    """Design §6.2: take-overs are allowed in any district with a Mobster Speakeasy, including one whose Mobster
    attacked in a Mob War."""
    state = kit.paused()
    kit.give(state, 0, pocket=20, goons=5)
    calm(state, 6)
    d = state.districts[5]
    mob = state.mobster_decks["B"].pop(0)
    d.mobster = mob
    d.strength = kit.R().mobsters[mob].strength
    kit.build(state, 1, 6, 0)  # a building that survived the war
    for sp in d.spaces[1:]:
        sp.mobster = True
    kit.give(state, 0, goons=d.strength - 1)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    assert f"take:6:1:g{d.strength - 1}" in kit.ids(state)
    kit.answer(state, f"take:6:1:g{d.strength - 1}")
    assert d.spaces[1].building.owner == 0
    walk(state)
    kit.ok(state)


# ---- §6.3 capacity ----


def test_design_6_3_one_barrel_per_building():
    """Design §6.3: a Speakeasy, Nightclub or Casino holds 1 barrel: one with a barrel receives none."""
    state = kit.paused()
    kit.give(state, 0, stills_barrels=4)
    full_i, _ = building(state, 0, 2, barrel=True)
    empty_i, _ = building(state, 0, 2)
    play_fleet(state, 0)
    kit.answer(state, "src:0")
    targets = [o for o in kit.ids(state) if o.startswith("to:")]
    assert targets == [f"to:2:{empty_i}"]
    kit.answer(state, f"to:2:{empty_i}")
    assert kit.is_waiting(state)  # nowhere left to unload
    assert state.player(0).stills_barrels == 3
    kit.ok(state)


def test_design_6_3_stills_area_holds_8_barrels():
    """Design §6.3: the Stills area holds up to 8 barrels; barrels beyond 8 are not produced."""
    state = kit.paused()
    calm(state, 1)
    kit.give(state, 0, stills_barrels=7)
    kit.task(state, "produce", 0)
    assert state.player(0).stills_barrels == 8
    kit.task(state, "produce", 0)
    assert state.player(0).stills_barrels == 8
    kit.ok(state)


# ---- §6.4 upgrade ----

UPGRADE_GAINS = [
    ("nightclub", 0, lambda b, p: p.leverage == b["leverage"] + 2),
    ("nightclub", 1, lambda b, p: p.books == b["books"] + 1 and len(p.hand) == b["hand"] + 1),
    ("nightclub", 2, lambda b, p: p.family_vip == b["family_vip"] + 1),
    ("casino", 0, lambda b, p: len(p.helpers) == b["helpers"] + 1),
    ("casino", 1, lambda b, p: sum(p.levels.values()) == b["levels"] + 1),
    ("casino", 2, lambda b, p: p.books == b["books"] + 2),
]


@pytest.mark.parametrize(("to", "index", "check"), UPGRADE_GAINS)
def test_design_6_4_upgrade_pays_the_row_space_and_gains_its_benefit(to, index, check):
    """Design §6.1, §6.4: an upgrade pays the cost of the Nightclub or Casino space taken and gains its benefit."""
    state = kit.paused()
    p = state.player(0)
    kit.give(state, 0, pocket=20, safe=0, leverage=0)
    frm = "speakeasy" if to == "nightclub" else "nightclub"
    i, b = building(state, 0, 2, frm)
    before = {
        "leverage": p.leverage,
        "books": p.books,
        "hand": len(p.hand),
        "family_vip": p.family_vip,
        "helpers": len(p.helpers),
        "levels": sum(p.levels.values()),
    }
    kit.task(state, "upgrade", 0, n=1)
    assert f"up:2:{i}:{index}" in kit.ids(state)
    kit.answer(state, f"up:2:{i}:{index}")
    assert b.kind == to
    assert p.pocket == 20 - kit.R().buildings.rows[to][index].cost
    assert not p.rows[to][index]
    while not kit.is_waiting(state):
        kit.answer(state, "raise:party" if kit.prompt(state).kind == "level_any" else kit.ids(state)[0])
    assert check(before, p)
    kit.ok(state)


def test_design_6_4_barrel_and_family_member_stay_and_both_steps_may_go_to_one_building():
    """Design §6.4: Speakeasy -> Nightclub -> Casino in one action on the same building; the barrel and the Family
    Member stay with it."""
    state = kit.paused()
    p = state.player(0)
    kit.give(state, 0, pocket=30, safe=0)
    p.family_supply -= 1
    i, b = building(state, 0, 2, barrel=True, family=True)
    kit.task(state, "upgrade", 0, n=2)
    kit.answer(state, f"up:2:{i}:0")
    walk_to(state, "upgrade")
    assert b.kind == "nightclub"
    kit.answer(state, f"up:2:{i}:0")
    assert b.kind == "casino"
    assert b.barrel and b.family
    assert p.pocket == 30 - 6 - 10
    assert p.rows["nightclub"][0] and p.rows["speakeasy"][0]  # both returned to their rows
    walk(state)
    kit.ok(state)


def test_design_6_4_upgrade_needs_no_operating_building():
    """Design §6.4: the building does not need to be Operating."""
    state = kit.paused()
    kit.give(state, 0, pocket=20)
    i, _b = building(state, 0, 2)
    put_cop(state, 2)
    kit.task(state, "upgrade", 0, n=1)
    assert f"up:2:{i}:0" in kit.ids(state)


def test_design_6_4_stills_and_casinos_cannot_upgrade():
    """Design §6.4: the steps are Speakeasy -> Nightclub and Nightclub -> Casino; Stills cannot be upgraded."""
    state = kit.paused()
    kit.give(state, 0, pocket=50)
    building(state, 0, 2, "casino")
    kit.task(state, "upgrade", 0, n=1)
    assert kit.is_waiting(state)  # only a Stills and a Casino: nothing to upgrade, step skipped
    i, _b = building(state, 0, 4)
    kit.task(state, "upgrade", 0, n=1)
    assert {o.split(":")[1] for o in kit.ids(state) if o.startswith("up:")} == {"4"}
    assert all(o.startswith(f"up:4:{i}:") for o in kit.ids(state) if o.startswith("up:"))


def test_design_6_4_silk_stockings_make_each_upgrade_2_cheaper():
    """Design §6.4, §7.3 Silk Stockings: each upgrade costs $2 less."""
    state = kit.paused()
    p = state.player(0)
    give_crate(state, 0, "Silk Stockings")
    kit.give(state, 0, pocket=20, safe=0)
    i, _b = building(state, 0, 2)
    kit.task(state, "upgrade", 0, n=1)
    kit.answer(state, f"up:2:{i}:0")
    assert p.pocket == 20 - (6 - 2)
    walk(state)
    kit.ok(state)


# ---- §6.5 and §1.2: Operating and Protected ----


def test_design_6_5_a_cop_stops_an_unprotected_building():
    """Design §1.2, §6.5: a building in a district with a Cop is not Operating unless Protected: it neither sells
    nor receives barrels."""
    state = kit.paused()
    kit.give(state, 0, stills_barrels=4)
    i, b = building(state, 0, 2, barrel=True)
    j, _c = building(state, 0, 2)
    put_cop(state, 2)
    kit.task(state, "sell", 0, n=2)
    assert kit.is_waiting(state)  # nothing to sell
    play_fleet(state, 0)
    assert kit.is_waiting(state)  # nowhere to deliver
    state.player(0).family_supply -= 1
    b.family = True  # Protected: Operating again
    kit.task(state, "sell", 0, n=2)
    assert kit.ids(state) == [f"sell:2:{i}", "skip"]
    kit.ok(state)


def test_design_6_5_barrel_beside_a_stopped_building_stays():
    """Design §6.5, seed 001:23.1: a Cop arriving does not remove the barrel; the building stops until Protected."""
    state = kit.paused()
    _i, b = building(state, 0, 2, barrel=True)
    put_cop(state, 2)
    kit.task(state, "sell", 0, n=2)
    assert kit.is_waiting(state)
    assert b.barrel
    kit.ok(state)


def test_design_6_5_a_stills_stopped_by_a_cop_does_not_produce():
    """Design §6.5, seed 000:45.1: only an Operating Stills produces."""
    state = kit.paused()
    p = state.player(0)
    stills = next(d.number for d in state.districts for sp in d.spaces if sp.building and sp.building.owner == 0)
    put_cop(state, stills)
    kit.give(state, 0, stills_barrels=0)
    kit.task(state, "produce", 0)
    assert p.stills_barrels == 0
    calm(state, stills)
    kit.task(state, "produce", 0)
    assert p.stills_barrels == 2


def test_design_1_2_a_face_down_cop_tile_has_no_effect():
    """Design §1.2: a face-down Cop District tile has no effect."""
    state = kit.paused()
    i, _b = building(state, 0, 2, barrel=True)
    state.cop_stacks[-1].pop()
    state.districts[1].cop_tile = True
    kit.task(state, "sell", 0, n=2)
    assert f"sell:2:{i}" in kit.ids(state)
    kit.ok(state)


# ---- §7.1 Deliver ----


@pytest.mark.parametrize(("fleet", "value", "trips"), [(1, 2, 1), (2, 3, 1), (3, 4, 2), (5, 6, 2)])
def test_design_7_1_deliver_moves_fleet_value_in_usable_truck_trips(fleet, value, trips):
    """Design §3.1, §7.1: Deliver moves up to the Fleet value, in up to one trip per usable Truck."""
    state = kit.paused()
    kit.give(state, 0, levels={"fleet": fleet}, stills_barrels=8)
    building(state, 0, 2)
    play_fleet(state, 0)
    task = state.tasks[-1]
    assert task.kind == "deliver"
    assert (task.n, task.m) == (value, trips)


def test_design_7_1_all_trips_together_move_at_most_the_fleet_value():
    """Design §7.1: with 2 Trucks and Fleet value 4, a first trip of 3 leaves 1 barrel for the second."""
    state = kit.paused()
    p = state.player(0)
    kit.give(state, 0, levels={"fleet": 3}, stills_barrels=8)
    down = [building(state, 0, 2)[0] for _ in range(3)]
    mid = [building(state, 0, 6)[0] for _ in range(3)]
    play_fleet(state, 0)
    kit.answer(state, "src:0")
    for i in down:
        kit.answer(state, f"to:2:{i}")
    assert kit.prompt(state).kind == "deliver"
    assert state.tasks[-1].n == 1 and state.tasks[-1].m == 1  # second trip: 1 barrel left
    kit.answer(state, "src:0")
    kit.answer(state, f"to:6:{mid[0]}")
    assert kit.is_waiting(state)
    assert p.stills_barrels == 4
    kit.ok(state)


def test_design_7_1_one_source_per_trip_and_unload_in_one_zone():
    """Design §7.1: a trip loads from one source and unloads in one Zone."""
    state = kit.paused()
    kit.give(state, 0, stills_barrels=8, pocket=20)
    no_docks(state)
    i, _ = building(state, 0, 2)
    building(state, 0, 2)
    j, _ = building(state, 0, 6)
    play_fleet(state, 0, "value_bonus")  # value 3, 1 Truck
    kit.answer(state, "src:0")
    assert {o.split(":")[0] for o in kit.ids(state)} == {"to", "end"}  # no other source in this trip
    assert f"to:6:{j}" in kit.ids(state)
    kit.answer(state, f"to:2:{i}")
    assert not any(o.startswith("to:6:") for o in kit.ids(state))  # the trip stays in Downtown
    assert all(o.startswith("to:2:") or o == "end" for o in kit.ids(state))


def test_design_7_1_unload_only_onto_operating_non_stills_buildings_without_a_barrel():
    """Design §7.1, §6.5: unload onto your Operating Speakeasies, Nightclubs or Casinos that have no barrel."""
    state = kit.paused()
    kit.give(state, 0, stills_barrels=8)
    ok_i, _ = building(state, 0, 2, "nightclub")
    building(state, 0, 2, barrel=True)
    building(state, 0, 4)
    put_cop(state, 4)
    casino, _ = building(state, 0, 6, "casino")
    building(state, 1, 6)  # a rival's
    play_fleet(state, 0)
    kit.answer(state, "src:0")
    assert sorted(o for o in kit.ids(state) if o.startswith("to:")) == sorted([f"to:2:{ok_i}", f"to:6:{casino}"])


def test_design_7_1_ship_barrels_are_paid_per_barrel():
    """Design §7.1-7.2: a trip loading from a Ship pays its price per barrel."""
    state = kit.paused()
    p = state.player(0)
    no_docks(state)
    kit.give(state, 0, pocket=20, safe=0)
    a, _ = building(state, 0, 2)
    b, _ = building(state, 0, 2)
    play_fleet(state, 0)
    kit.answer(state, "src:1")
    kit.answer(state, f"to:2:{a}")
    kit.answer(state, f"to:2:{b}")
    assert p.pocket == 20 - 2 * 2
    assert state.ships[0].barrels == 3
    kit.ok(state)


# ---- §7.2 Ships ----


def ship_labels(state) -> dict[int, str]:
    return {int(o.id.split(":")[1]): o.label for o in kit.prompt(state).options if o.id.startswith("src:")}


def test_design_7_2_ship_prices_2_3_3_4():
    """Design §7.2: the Ships sell at $2, $3, $3 and $4 a barrel."""
    assert kit.R().docks.ship_prices == (2, 3, 3, 4)
    state = kit.paused()
    no_docks(state)
    kit.give(state, 0, pocket=20, stills_barrels=0)
    building(state, 0, 2)
    play_fleet(state, 0)
    labels = ship_labels(state)
    assert [f"${price} a barrel" in labels[n] for n, price in zip((1, 2, 3, 4), (2, 3, 3, 4), strict=True)] == [
        True
    ] * 4


def test_design_7_2_family_member_in_the_docks_zone_takes_1_off():
    """Design §7.2: with your Family Member in the Ship's Docks zone, its price is $1 less per barrel."""
    state = kit.paused()
    no_docks(state)
    ship_to(state, 4, 13)  # Uptown
    docks(state, UPTOWN, [0])
    kit.give(state, 0, pocket=20, stills_barrels=0)
    building(state, 0, 2)
    play_fleet(state, 0)
    assert "$3 a barrel" in ship_labels(state)[4]


def test_design_7_2_counterfeit_bills_stack_with_the_floor_at_1():
    """Design §7.2-7.3: Counterfeit Bills take $1 off; discounts add up; the floor is $1 without the Fleet card."""
    state = kit.paused()
    no_docks(state)
    ship_to(state, 1, 2)
    docks(state, DOWNTOWN, [0])
    give_crate(state, 0, "Counterfeit Bills")
    kit.give(state, 0, pocket=20, stills_barrels=0)
    building(state, 0, 4)
    play_fleet(state, 0)
    labels = ship_labels(state)
    assert "$1 a barrel" in labels[1]  # 2 - 1 - 1 = 0, floor 1


def test_design_7_2_fleet_card_discount_floor_is_0():
    """Design §3.2, §7.2: the Fleet card's discount lowers the floor to $0."""
    state = kit.paused()
    p = state.player(0)
    no_docks(state)
    ship_to(state, 1, 2)
    docks(state, DOWNTOWN, [0])
    kit.give(state, 0, pocket=5, safe=0, stills_barrels=0)
    i, _ = building(state, 0, 4)
    play_fleet(state, 0, "ship_discount")
    assert "$0 a barrel" in ship_labels(state)[1]  # 2 - 1 (card) - 1 (Family Member)
    kit.answer(state, "src:1")
    kit.answer(state, f"to:4:{i}")
    assert p.pocket == 5
    kit.ok(state)


def test_design_7_2_price_floor_1_without_the_card():
    """Design §7.2: without the Fleet card the floor is $1 (Ship 1 with a Family Member and Counterfeit Bills)."""
    state = kit.paused()
    p = state.player(0)
    no_docks(state)
    ship_to(state, 1, 2)
    docks(state, DOWNTOWN, [0])
    give_crate(state, 0, "Counterfeit Bills")
    kit.give(state, 0, pocket=5, safe=0, stills_barrels=0)
    i, _ = building(state, 0, 4)
    play_fleet(state, 0)
    kit.answer(state, "src:1")
    kit.answer(state, f"to:4:{i}")
    assert p.pocket == 4
    kit.ok(state)


def test_design_7_2_an_empty_ship_sells_nothing():
    """Design §7.2: an empty Ship cannot sell barrels."""
    state = kit.paused()
    kit.give(state, 0, pocket=20, stills_barrels=0)
    building(state, 0, 2)
    state.ships[1].barrels = 0
    play_fleet(state, 0)
    assert "src:2" not in kit.ids(state)
    assert "src:1" in kit.ids(state)


# ---- §7.3 Crates ----


def test_design_7_3_twelve_crates_cash_and_powers():
    """Design §7.3 table: 12 Crates with their cash and permanent power."""
    crates = [(c.name, c.cash, c.power, c.n) for c in kit.R().docks.crates]
    assert crates == [
        ("Tommy Guns", 4, "strength", 1),
        ("Fast Boat", 5, "fleet_value", 1),
        ("Copper Coils", 5, "stills_value", 1),
        ("Jazz Records", 5, "party_value", 1),
        ("Bribe Ledger", 4, "protect_discount", 1),
        ("Forged Papers", 6, "cook_first_bonus", 5),
        ("Chemist Kit", 6, "speakeasy_sale_bonus", 1),
        ("Silk Stockings", 6, "upgrade_discount", 2),
        ("Brass Knuckles", 5, "goon_discount", 1),
        ("Counterfeit Bills", 7, "ship_discount", 1),
        ("Cigar Box", 6, "vip_value", 1),
        ("Champagne Case", 8, "champagne", 1),
    ]


def test_design_7_3_tommy_guns_adds_1_strength_to_a_take_over():
    """Design §7.3 Tommy Guns: +1 Strength in every take-over (and ambush, Mob War defence)."""
    state = kit.paused()
    kit.give(state, 0, pocket=20, goons=2)
    mobster_district(state, 4, 4)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    assert not any(o.startswith("take:4:") for o in kit.ids(state))
    give_crate(state, 0, "Tommy Guns")
    assert "take:4:0:g2" in kit.ids(state)


def test_design_7_3_tommy_guns_adds_1_strength_to_an_ambush():
    """Design §7.3 Tommy Guns: +1 Strength in every ambush (Act 1 needs 4: Strength 1 + 2 Goons + 1)."""
    state = kit.paused()
    ambush_ready(state)
    kit.give(state, 0, goons=2)
    kit.task(state, "ambush", 0)
    assert not any(o.startswith("amb:1:") for o in kit.ids(state))
    give_crate(state, 0, "Tommy Guns")
    state.tasks.clear()
    kit.task(state, "ambush", 0)
    assert "amb:1:g2" in kit.ids(state)


def test_design_7_3_fast_boat_adds_1_fleet_value():
    """Design §7.3 Fast Boat: +1 Fleet value."""
    state = kit.paused()
    give_crate(state, 0, "Fast Boat")
    kit.give(state, 0, stills_barrels=8)
    building(state, 0, 2)
    play_fleet(state, 0)
    assert state.tasks[-1].n == 3


def test_design_7_3_copper_coils_adds_1_stills_value():
    """Design §7.3 Copper Coils: +1 Stills value."""
    state = kit.paused()
    calm(state, 1)
    give_crate(state, 0, "Copper Coils")
    kit.give(state, 0, stills_barrels=0)
    kit.task(state, "produce", 0)
    assert state.player(0).stills_barrels == 3


def test_design_7_3_jazz_records_adds_1_party_value():
    """Design §7.3 Jazz Records: +1 Party value."""
    state = kit.paused()
    give_crate(state, 0, "Jazz Records")
    building(state, 0, 2, barrel=True)
    kit.task(state, "sell_or_party", 0)
    kit.answer(state, "sell")
    assert state.tasks[-1].n == 3


def test_design_7_3_chemist_kit_adds_1_per_speakeasy_sale():
    """Design §7.3 Chemist Kit: barrels sold at Speakeasies pay +$1."""
    state = kit.paused()
    p = state.player(0)
    give_crate(state, 0, "Chemist Kit")
    i, _ = building(state, 0, 2, barrel=True)
    j, _ = building(state, 0, 2, "nightclub", barrel=True)
    pocket = p.pocket
    kit.task(state, "sell", 0, n=2)
    kit.answer(state, f"sell:2:{i}")
    kit.answer(state, f"sell:2:{j}")
    assert p.pocket == pocket + (3 + 1) + 5
    kit.ok(state)


def test_design_7_3_brass_knuckles_makes_each_goon_1_cheaper_minimum_0():
    """Design §7.3 Brass Knuckles: each Goon hire costs $1 less (minimum $0)."""
    state = kit.paused()
    p = state.player(0)
    give_crate(state, 0, "Brass Knuckles")
    kit.give(state, 0, pocket=10, safe=0, goons=1)
    kit.task(state, "hire_goons", 0)
    kit.answer(state, "hire")  # $1 - 1 = $0
    assert p.pocket == 10
    kit.answer(state, "hire")  # $2 - 1 = $1
    assert p.pocket == 9 and p.goons == 3
    kit.ok(state)


def test_design_7_3_cigar_box_adds_1_vip_value_and_bribe_ledger_takes_1_leverage_off():
    """Design §7.3 Cigar Box (+1 VIP value) and Bribe Ledger (each Get Protection costs 1 Leverage less in total)."""
    state = kit.paused()
    p = state.player(0)
    give_crate(state, 0, "Cigar Box")
    give_crate(state, 0, "Bribe Ledger")
    p.family_supply -= 3
    kit.give(state, 0, family_vip=3, leverage=5, levels={"vip": 1})
    i, _ = building(state, 0, 2)
    j, _ = building(state, 0, 2)
    put_cop(state, 2)
    card = kit.card_with(state, 0, "vip", "leverage")
    kit.task(state, "play", 0, s="vip")
    kit.answer(state, f"play:{card}")  # +2 Leverage: 7
    assert kit.prompt(state).kind == "protect"
    assert state.tasks[-1].n == 2  # VIP value 1 + Cigar Box
    kit.answer(state, f"fm:2:{i}")
    kit.answer(state, f"fm:2:{j}")
    assert p.leverage == 7 - (2 - 1)  # 1 per Family Member in a Cop district, 1 less in total
    kit.ok(state)


# ---- §7.4 Ambush ----


def ambush_ready(state, act: int = 1):
    """Ship 1 in Downtown with 5 barrels; seat 0 with 2 Family Members there, Strength 1 + enough Goons."""
    state.act = act
    no_docks(state)
    ship_to(state, 1, 2)
    docks(state, DOWNTOWN, [0, 0])
    kit.give(state, 0, goons=act + 2, pocket=10, safe=0)
    return state.ships[0]


def ambush_ids(state) -> list[str]:
    return [o for o in kit.ids(state) if o.startswith("amb:")]


@pytest.mark.parametrize(("act", "need"), [(1, 4), (2, 5), (3, 6), (4, 7)])
def test_design_7_4_ambush_needs_strength_act_plus_3(act, need):
    """Design §7.4 requirement 2: Strength total >= Act number + 3."""
    state = kit.paused()
    ambush_ready(state, act)
    kit.give(state, 0, goons=need - 2)
    kit.task(state, "ambush", 0)
    assert not any(o.startswith("amb:1:") for o in kit.ids(state))
    state.tasks.clear()
    kit.give(state, 0, goons=need - 1)
    kit.task(state, "ambush", 0)
    assert f"amb:1:g{need - 1}" in kit.ids(state)


def test_design_7_4_ambush_needs_a_barrel_on_the_ship():
    """Design §7.4 requirement 1: the target Ship holds at least 1 barrel."""
    state = kit.paused()
    ship = ambush_ready(state)
    ship.barrels = 0
    kit.task(state, "ambush", 0)
    assert not any(o.startswith("amb:1:") for o in kit.ids(state))


@pytest.mark.parametrize(
    ("zone", "offered"),
    [([0], False), ([1, 2], False), ([0, 0], True), ([0, 1], True), ([1, 0], True)],
)
def test_design_7_4_ambush_needs_2_family_members_at_least_1_yours(zone, offered):
    """Design §7.4 requirement 3: 2 Family Members in the Ship's Docks zone, at least 1 of them yours."""
    state = kit.paused()
    ambush_ready(state)
    docks(state, DOWNTOWN, zone)
    kit.task(state, "ambush", 0)
    assert any(o.startswith("amb:1:") for o in kit.ids(state)) == offered


def test_design_7_4_rival_family_member_costs_1_from_the_pocket():
    """Design §7.4 requirement 3, §4: pay $1 from your pocket to the owner of each rival Family Member used; no
    pocket money, no use."""
    state = kit.paused()
    p, rival = state.player(0), state.player(1)
    ambush_ready(state)
    docks(state, DOWNTOWN, [1, 0])
    kit.give(state, 0, pocket=0, safe=40)
    kit.task(state, "ambush", 0)
    assert not any(o.startswith("amb:1:") for o in kit.ids(state))
    state.tasks.clear()
    kit.give(state, 0, pocket=1)
    rival_pocket = rival.pocket
    kit.task(state, "ambush", 0)
    kit.answer(state, "amb:1:g3")
    assert rival.pocket == rival_pocket + 1
    assert p.pocket == 0 + kit.R().docks.crates[p.crates[0]].cash
    walk(state)
    kit.ok(state)


def test_design_7_4_ambush_results():
    """Design §7.4 results: the Crate and its cash (to the pocket), 1 barrel to an Operating building without one or
    the Stills area, one of your Family Members back to supply, the Ship moves to the next Port tile and the old tile
    is boxed."""
    state = kit.paused()
    p = state.player(0)
    ship = ambush_ready(state)
    i, b = building(state, 0, 4)
    building(state, 0, 4, barrel=True)
    crate = ship.crate
    assert crate is not None
    cash = kit.R().docks.crates[crate].cash
    old_port = ship.port
    nxt = state.port_stack[0]
    supply, pocket, goons = p.family_supply, p.pocket, p.goons
    kit.task(state, "ambush", 0)
    kit.answer(state, "amb:1:g3")
    assert p.goons == goons - 3
    assert crate in p.crates and ship.crate is None
    assert p.pocket == pocket + cash
    assert p.family_supply == supply + 1
    assert state.docks[DOWNTOWN].count(0) == 1
    assert ship.port == nxt
    assert old_port in state.port_box and old_port not in state.port_stack
    assert ship.barrels == 4
    assert kit.prompt(state).kind == "ambush_barrel"
    assert sorted(kit.ids(state)) == sorted([f"to:4:{i}", "stills"])
    kit.answer(state, f"to:4:{i}")
    assert b.barrel
    assert p.ambushes == 1
    kit.ok(state)


def test_design_7_4_stolen_barrel_may_go_to_the_stills_area_but_not_beyond_8():
    """Design §7.4 result 2, §6.3: the Stills area takes the barrel while it has room; with no room anywhere the
    barrel stays on the Ship."""
    state = kit.paused()
    p = state.player(0)
    ship = ambush_ready(state)
    kit.give(state, 0, stills_barrels=8)
    kit.task(state, "ambush", 0)
    kit.answer(state, "amb:1:g3")
    assert ship.barrels == 5
    assert kit.is_waiting(state)
    assert p.stills_barrels == 8
    kit.ok(state)


def test_design_7_4_port_stack_reshuffled_from_the_box_when_empty():
    """Design §7.4 result 4: with no Port tile left, the boxed ones are shuffled into a new stack first; the old
    tile is boxed after the move."""
    state = kit.paused()
    ship = ambush_ready(state)
    state.port_box.extend(state.port_stack)
    state.port_stack.clear()
    boxed = set(state.port_box)
    old = ship.port
    kit.task(state, "ambush", 0)
    kit.answer(state, "amb:1:g3")
    assert ship.port in boxed
    assert state.port_box == [old]
    assert set(state.port_stack) == boxed - {ship.port}
    walk(state)
    kit.ok(state)


# ---- §8.1 Get Protection ----


def test_design_8_1_get_protection_costs_1_leverage_per_family_member_in_a_cop_district():
    """Design §8.1 sink 2, §9.3: 1 Leverage for each Family Member placed in a district that holds a Cop; none
    elsewhere; no Leverage, no placement there."""
    state = kit.paused()
    p = state.player(0)
    p.family_supply -= 2
    kit.give(state, 0, family_vip=2, leverage=0, infamy=5)
    i, _ = building(state, 0, 2)
    j, _ = building(state, 0, 6)
    put_cop(state, 2)
    kit.task(state, "protect", 0, n=2)
    assert f"fm:2:{i}" not in kit.ids(state)
    assert f"fm:6:{j}" in kit.ids(state)
    state.tasks.clear()
    kit.give(state, 0, leverage=1)
    kit.task(state, "protect", 0, n=2)
    kit.answer(state, f"fm:6:{j}")
    assert p.leverage == 1
    kit.answer(state, f"fm:2:{i}")
    assert p.leverage == 0
    kit.ok(state)
