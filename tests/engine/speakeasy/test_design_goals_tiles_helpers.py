"""Design §10 (Cook the Books), §8.1 (City Hall Leverage), §11 (City tiles and Helper cards, bottle values).

Each test is named after the design section it checks; seed sentences it also rests on are named in its docstring
(ids from ../shared/seeds/rule-index.md).
"""

from __future__ import annotations

import pytest

from engine.speakeasy.components import TRACKS
from tests.engine.speakeasy import kit

DOWNTOWN, MIDTOWN, UPTOWN = 0, 1, 2
#: Zone Goal tile ids (goals.toml order): type -> {number: id}.
ZG = {
    t: {n: 3 * k + (n - 2) for n in (2, 3, 4)} for k, t in enumerate(("districts", "buildings", "barrels", "protected"))
}


# ---- arranging positions ----


calm = kit.calm
put_cop = kit.put_cop


def bare(state, seat: int) -> None:
    """Take all of the seat's buildings off the map, back to its rows."""
    p = state.player(seat)
    for d in state.districts:
        for sp in d.spaces:
            b = sp.building
            if b is not None and b.owner == seat:
                p.rows[b.kind][p.rows[b.kind].index(False)] = True
                if b.family:
                    p.family_supply += 1
                sp.building = None


def building(state, seat: int, number: int, kind: str = "speakeasy", barrel: bool = False, family: bool = False):
    """A building of ``seat`` on a space of a calm district; returns the Building."""
    calm(state, number)
    i = kit.empty_space(state, number)
    if family:
        state.player(seat).family_supply -= 1
    return kit.build(state, seat, number, i, kind, barrel=barrel, family=family)


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


def books(state, seat: int, n: int) -> None:
    """``n`` Books on the seat's Books space (from its supply)."""
    p = state.player(seat)
    p.book_supply += p.books - n
    p.books = n


def cook_ready(state, seat: int = 0, n: int = 3) -> None:
    """No target but what the test sets up: Infamy 5, no Leverage, no Family Member at the Docks."""
    kit.give(state, seat, infamy=5, leverage=0, pocket=10, safe=0)
    for z in range(3):
        docks(state, z, [s for s in state.docks[z] if s is not None and s != seat])
    books(state, seat, n)


def cook_ids(state) -> list[str]:
    return [o for o in kit.ids(state) if o != "skip"]


def walk(state) -> None:
    """Answer whatever is asked, declining when possible (else the first option)."""
    while not kit.is_waiting(state):
        kit.answer(state, "skip" if "skip" in kit.ids(state) else kit.ids(state)[0])


def give_crate(state, seat: int, name: str) -> None:
    c = next(c.id for c in kit.R().docks.crates if c.name == name)
    for sh in state.ships:
        if sh.crate == c:
            sh.crate = None
    if c in state.crate_stack:
        state.crate_stack.remove(c)
    state.player(seat).crates.append(c)


# ---- §10 Cook the Books ----


def test_design_10_cook_the_books_places_up_to_3_books_one_at_a_time():
    """Design §2, §10: Cook the Books places up to 3 Books from the Books space, one at a time."""
    state = kit.paused()
    cook_ready(state, n=5)
    for z in range(3):
        docks(state, z, [0])
    kit.task(state, "place", 0)
    kit.answer(state, "person:alderman")
    assert kit.prompt(state).kind == "cook"
    assert state.tasks[-1].n == 3
    for z in range(3):
        assert f"docks:{z}" in kit.ids(state)
        kit.answer(state, f"docks:{z}")
    assert kit.is_waiting(state)  # 3 Books placed: the action is over
    assert state.player(0).books == 6 - 3  # 5 + the Alderman's Book - 3
    kit.ok(state)


def test_design_10_zone_goal_pays_20_and_a_level_once_per_player():
    """Design §10: a Zone goal pays $20 to the safe and +1 level; 1 Book per player per Zone goal, any number of
    players."""
    state = kit.paused()
    state.zone_goals = [ZG["buildings"][2], ZG["districts"][3], ZG["protected"][4]]
    cook_ready(state)
    cook_ready(state, 1)
    p = state.player(0)
    for seat in (0, 1):
        building(state, seat, 2)
        building(state, seat, 4)
    kit.task(state, "cook", 0, n=3)
    assert cook_ids(state) == ["zone:0"]
    kit.answer(state, "zone:0")
    assert p.safe == 20 and p.pocket == 10
    assert kit.prompt(state).kind == "level_any"
    kit.answer(state, "raise:fleet")
    assert p.levels["fleet"] == 2
    assert "zone:0" not in kit.ids(state)  # once per player
    walk(state)
    kit.task(state, "cook", 1, n=1)
    assert "zone:0" in kit.ids(state)  # another player may also take it
    kit.answer(state, "zone:0")
    walk(state)
    assert state.zone_books[0] == [0, 1]
    kit.ok(state)


ZONE_SETUPS = {
    # type: (arrange N - 1, the one more thing that makes N) in Downtown
    "districts": (lambda s, n: [building(s, 0, d) for d in (2, 3, 4)[: n - 1]], lambda s, n: building(s, 0, 5)),
    "buildings": (lambda s, n: [building(s, 0, 2) for _ in range(n - 1)], lambda s, n: building(s, 0, 4)),
    "barrels": (
        lambda s, n: [building(s, 0, 2 + k // 3, barrel=True) for k in range(n - 1)],
        lambda s, n: building(s, 0, 5, barrel=True),
    ),
    "protected": (
        lambda s, n: [building(s, 0, 2 + k // 3, family=True) for k in range(n - 1)],
        lambda s, n: building(s, 0, 5, family=True),
    ),
}


@pytest.mark.parametrize("kind", list(ZONE_SETUPS))
@pytest.mark.parametrize("number", [2, 3, 4])
def test_design_10_1_zone_goal_conditions(kind, number):
    """Design §10.1: the Zone must show N for you: buildings in N districts / N buildings / N barrels beside your
    buildings / N Protected buildings."""
    state = kit.paused()
    others = [n for n in (2, 3, 4) if n != number]
    state.zone_goals = [
        ZG[kind][number],
        ZG["barrels" if kind != "barrels" else "buildings"][others[0]],
        ZG["protected" if kind != "protected" else "buildings"][others[1]],
    ]
    bare(state, 0)
    cook_ready(state)
    before, last = ZONE_SETUPS[kind]
    before(state, number)
    kit.task(state, "cook", 0, n=1)
    assert "zone:0" not in kit.ids(state)
    state.tasks.clear()
    last(state, number)
    kit.task(state, "cook", 0, n=1)
    assert "zone:0" in kit.ids(state)


@pytest.mark.parametrize("kind", list(ZONE_SETUPS))
def test_design_10_1_zone_goal_counts_operating_buildings_only(kind):
    """Design §6.5, §10.1: only Operating buildings count: a building stopped by a Cop does not."""
    state = kit.paused()
    state.zone_goals = [
        ZG[kind][2],
        ZG["buildings" if kind != "buildings" else "districts"][3],
        ZG["barrels" if kind != "barrels" else "protected"][4],
    ]
    bare(state, 0)
    cook_ready(state)
    family = kind == "protected"
    building(state, 0, 2, barrel=True, family=family)
    b = building(state, 0, 4, barrel=True, family=family)
    kit.task(state, "cook", 0, n=1)
    assert "zone:0" in kit.ids(state)
    state.tasks.clear()
    put_cop(state, 4)
    if family:  # a Protected building is always Operating; without its Family Member it stops
        b.family = False
        state.player(0).family_supply += 1
    kit.task(state, "cook", 0, n=1)
    assert "zone:0" not in kit.ids(state)


@pytest.mark.parametrize(("players", "met"), [(2, True), (3, False)])
def test_design_10_1_small_side_caps_a_districts_goal_at_the_open_districts(players, met):
    """Design §10.1: on the 1-2 side a Districts tile asks for at most the Zone's open districts (Midtown: 3)."""
    state = kit.paused(players)
    state.zone_goals = [ZG["buildings"][2], ZG["districts"][4], ZG["barrels"][3]]
    bare(state, 0)
    cook_ready(state)
    for d in (6, 7, 8):
        building(state, 0, d)
    kit.task(state, "cook", 0, n=1)
    assert ("zone:1" in kit.ids(state)) == met


def test_design_10_city_hall_2_leverage_20_once_per_act():
    """Design §8.1 sink 3, §10: a City Hall Book costs 2 Leverage and pays $20 to the safe, 1 per player per Act."""
    state = kit.paused()
    p = state.player(0)
    cook_ready(state)
    kit.give(state, 0, leverage=1)
    kit.task(state, "cook", 0, n=3)
    assert kit.is_waiting(state)  # 1 Leverage: no target
    kit.give(state, 0, leverage=4)
    kit.task(state, "cook", 0, n=3)
    kit.answer(state, "hall")
    assert p.leverage == 2 and p.safe == 20
    assert kit.is_waiting(state)  # not a second time this Act, though 2 Leverage are left
    state.act = 2
    kit.task(state, "cook", 0, n=1)
    kit.answer(state, "hall")
    assert p.leverage == 0 and p.safe == 40
    assert state.city_hall_books == [[0, 1], [0, 2]]
    kit.ok(state)


def test_design_10_docks_15_with_your_family_member_once_per_zone():
    """Design §10: a Docks Book pays $15 to the safe, with at least 1 of your Family Members in that Docks zone;
    1 per player per Docks zone."""
    state = kit.paused()
    p = state.player(0)
    cook_ready(state)
    docks(state, MIDTOWN, [1, 0])
    docks(state, UPTOWN, [1])
    kit.task(state, "cook", 0, n=3)
    assert cook_ids(state) == ["docks:1"]
    kit.answer(state, "docks:1")
    assert p.safe == 15
    assert kit.is_waiting(state)
    kit.ok(state)


def test_design_10_infamy_book_spaces_at_or_below_your_infamy():
    """Design §5, §10: an Infamy book space at or below your Infamy pays its printed $ and +1 level, once."""
    state = kit.paused()
    p = state.player(0)
    cook_ready(state)
    kit.give(state, 0, infamy=11)
    kit.task(state, "cook", 0, n=3)
    assert cook_ids(state) == ["infamy:7", "infamy:11"]
    kit.answer(state, "infamy:11")
    assert p.safe == 10
    assert kit.prompt(state).kind == "level_any"
    kit.answer(state, "skip")
    assert cook_ids(state) == ["infamy:7"]
    kit.answer(state, "infamy:7")
    assert p.safe == 15
    walk(state)
    kit.ok(state)


def test_design_10_infamy_book_amounts():
    """Design §5: book spaces 7 ($5), 11 ($10), 15 ($15), 19 ($20), 23 ($25)."""
    assert kit.R().goals.infamy_books == {7: 5, 11: 10, 15: 15, 19: 20, 23: 25}
    assert kit.R().goals.infamy_book_level == 1


def test_design_10_forged_papers_add_5_to_the_first_book_only():
    """Design §7.3 Forged Papers, §10: the first Book of each Cook action pays +$5."""
    state = kit.paused()
    p = state.player(0)
    cook_ready(state)
    give_crate(state, 0, "Forged Papers")
    for z in range(3):
        docks(state, z, [0])
    kit.task(state, "cook", 0, n=3)
    kit.answer(state, "docks:0")
    assert p.safe == 20
    kit.answer(state, "docks:1")
    assert p.safe == 35
    state.tasks.clear()
    kit.task(state, "cook", 0, n=1)  # a new Cook action: its first Book gets the bonus again
    kit.answer(state, "docks:2")
    assert p.safe == 55
    kit.ok(state)


# ---- §10.5 Central Park ----


def levels(state, seat: int, **lv) -> None:
    kit.give(state, seat, levels={t: 1 for t in (*TRACKS, "strength")} | lv)


def tiles(state, seat: int, n: int) -> None:
    p = state.player(seat)
    while len(p.tiles) > n:
        state.city_piles[0].append(p.tiles.pop())
    while len(p.tiles) < n:
        p.tiles.append(state.city_piles[1].pop())


def helpers(state, seat: int, n: int) -> None:
    p = state.player(seat)
    while len(p.helpers) < n:
        p.helpers.append(state.helper_deck.pop())


#: tile -> (arrange one short of the condition, then the one more thing that meets it)
PARK = {
    "A1": (lambda s: [building(s, 0, 2) for _ in range(2)], lambda s: building(s, 0, 4)),
    "A2": (lambda s: [building(s, 0, 2), building(s, 0, 6)], lambda s: building(s, 0, 12)),
    "A3": (lambda s: kit.give(s, 0, goons=2), lambda s: kit.give(s, 0, goons=3)),
    "A4": (lambda s: [building(s, 0, 2, barrel=True) for _ in range(2)], lambda s: building(s, 0, 4, barrel=True)),
    "A5": (lambda s: docks(s, MIDTOWN, [0]), lambda s: docks(s, UPTOWN, [0])),
    "A6": (lambda s: tiles(s, 0, 3), lambda s: tiles(s, 0, 4)),
    "B1": (lambda s: building(s, 0, 2, "nightclub"), lambda s: building(s, 0, 4, "casino")),
    "B2": (lambda s: [building(s, 0, 2, family=True) for _ in range(2)], lambda s: building(s, 0, 4, family=True)),
    "B3": (lambda s: levels(s, 0, vip=3, party=2), lambda s: levels(s, 0, vip=3, party=3)),
    "B4": (lambda s: levels(s, 0, strength=2), lambda s: levels(s, 0, strength=3)),
    "B5": (lambda s: helpers(s, 0, 2), lambda s: helpers(s, 0, 3)),
    "C1": (lambda s: building(s, 0, 2, "casino"), lambda s: building(s, 0, 4, "casino")),
    "C2": (lambda s: [building(s, 0, d) for d in (2, 3, 4, 6, 7)], lambda s: building(s, 0, 8)),
    "C3": (lambda s: levels(s, 0, fleet=4), lambda s: levels(s, 0, fleet=5)),
    "C4": (
        lambda s: [building(s, 0, 2 + k // 3, family=True) for k in range(4)],
        lambda s: building(s, 0, 6, family=True),
    ),
}


def park_ready(state, tile: str) -> None:
    """Only ``tile`` in Central Park; seat 0 with no building, no Goon, no tile, no Helper, levels 1, Books 3."""
    state.park_goals = [tile]
    state.park_books = [None]
    bare(state, 0)
    cook_ready(state)
    kit.give(state, 0, goons=0)
    levels(state, 0)
    tiles(state, 0, 0)


@pytest.mark.parametrize("tile", list(PARK))
def test_design_10_5_central_park_conditions(tile):
    """Design §10.5 table: the condition of every Central Park tile, A1 to C4 (one short: no Book; met: Book)."""
    state = kit.paused()
    park_ready(state, tile)
    short, more = PARK[tile]
    short(state)
    kit.task(state, "cook", 0, n=1)
    assert "park:0" not in kit.ids(state)
    state.tasks.clear()
    more(state)
    kit.task(state, "cook", 0, n=1)
    assert "park:0" in kit.ids(state)


def test_design_10_5_central_park_conditions_data():
    """Design §10.5 table: every tile's condition, number and benefit on top of $10."""
    got = {g.id: (g.condition, g.n, [(e.kind, e.n) for e in g.benefit]) for g in kit.R().goals.park_goals}
    assert kit.R().goals.park_reward == 10
    assert got == {
        "A1": ("operating_speakeasies", 3, [("leverage", 2)]),
        "A2": ("zones", 3, [("card", 1)]),
        "A3": ("goons", 3, [("goon_free", 1)]),
        "A4": ("barrels", 3, [("pocket", 3)]),
        "A5": ("docks_family", 2, [("leverage", 2)]),
        "A6": ("city_tiles", 4, [("book", 1)]),
        "B1": ("nightclub_and_casino", 1, [("helper", 1)]),
        "B2": ("protected", 3, [("family", 1)]),
        "B3": ("ops_at_3", 2, [("level_any", 1)]),
        "B4": ("strength", 3, [("goon_free", 2)]),
        "B5": ("helpers", 3, [("safe", 5)]),
        "C1": ("casinos", 2, [("safe", 10)]),
        "C2": ("districts", 6, [("safe", 10)]),
        "C3": ("ops_at_5", 1, [("safe", 10)]),
        "C4": ("protected", 5, [("safe", 10)]),
    }


@pytest.mark.parametrize("tile", ["A1", "A2", "A4", "B1", "C1", "C2"])
def test_design_6_5_central_park_goals_count_operating_buildings_only(tile):
    """Design §6.5: only Operating buildings count for goals: the building that met the tile stops under a Cop, and
    the tile is no longer met."""
    state = kit.paused()
    park_ready(state, tile)
    short, more = PARK[tile]
    short(state)
    more(state)
    last = max(d.number for d in state.districts for sp in d.spaces if sp.building and sp.building.owner == 0)
    put_cop(state, last)
    kit.task(state, "cook", 0, n=1)
    assert "park:0" not in kit.ids(state)


def test_design_10_5_central_park_pays_10_and_the_benefit_one_book_per_tile_in_total():
    """Design §10, §10.5: a Central Park Book pays $10 to the safe and the tile's benefit; 1 Book per tile in
    total."""
    state = kit.paused()
    p = state.player(0)
    park_ready(state, "A3")
    kit.give(state, 0, goons=3)
    kit.give(state, 1, goons=3)
    books(state, 1, 1)
    kit.task(state, "cook", 0, n=1)
    kit.answer(state, "park:0")
    assert p.safe == 10
    assert p.goons == 4  # A3: hire 1 Goon free
    assert state.park_books == [0]
    kit.task(state, "cook", 1, n=1)
    assert "park:0" not in kit.ids(state)
    kit.ok(state)


# ---- §11.1 City tiles ----


def test_design_11_1_sixty_city_tiles_and_their_benefits():
    """Design §11.1 table: 60 tiles, their counts and benefits."""
    got = [(ct.name, ct.count, [(e.kind, e.n) for e in ct.benefit]) for ct in kit.R().city_tiles]
    assert got == [
        ("Cash", 8, [("pocket", 3)]),
        ("Favours", 8, [("leverage", 2)]),
        ("Ledger", 8, [("book", 1)]),
        ("Muscle", 6, [("goon_free", 1)]),
        ("Contacts", 6, [("card", 1)]),
        ("Cousin", 6, [("family", 1)]),
        ("Cellar", 6, [("cellar", 1)]),
        ("Permit", 4, [("level_any", 1)]),
        ("Regular", 4, [("helper", 1)]),
        ("Nest egg", 4, [("safe", 5)]),
    ]
    assert sum(ct.count for ct in kit.R().city_tiles) == 60


@pytest.mark.parametrize(("players", "piles", "on_map"), [(2, [10, 9, 9], 29), (3, [5, 5, 5], 42), (4, [5, 5, 5], 42)])
def test_design_11_1_display_three_face_up_and_three_piles(players, piles, on_map):
    """Design §11.1, seed 000:13.2-4: a tile on every space, 3 face up, the rest in 3 piles (5/5/5 or 10/9/9)."""
    state = kit.new(players)
    assert [len(p) for p in state.city_piles] == piles
    assert all(t is not None for t in state.city_face) and len(state.city_face) == 3
    assert sum(1 for d in state.districts for sp in d.spaces if sp.tile is not None) == on_map


def test_design_11_1_take_a_face_up_tile_and_flip_that_rows_pile():
    """Design §11.1: take any face-up tile, then flip the top tile of that row's pile into the empty spot."""
    state = kit.paused()
    face = list(state.city_face)
    top = state.city_piles[1][0]
    kit.task(state, "take_tile", 0)
    assert kit.ids(state) == ["tile:0", "tile:1", "tile:2"]
    kit.answer(state, "tile:1")
    assert face[1] in state.player(0).tiles
    assert state.city_face == [face[0], top, face[2]]
    assert top not in state.city_piles[1]
    walk(state)
    kit.ok(state)


def test_design_11_1_an_exhausted_row_stays_empty():
    """Design §11.1: an exhausted row stays empty and is no longer offered."""
    state = kit.paused()
    state.city_piles[0].extend(state.city_piles[2])
    state.city_piles[2].clear()
    kit.task(state, "take_tile", 0)
    kit.answer(state, "tile:2")
    walk(state)
    assert state.city_face[2] is None
    kit.task(state, "take_tile", 0)
    assert kit.ids(state) == ["tile:0", "tile:1"]
    kit.answer(state, "tile:0")
    walk(state)
    kit.ok(state)


def tile_of(state, kind: str) -> int:
    """A City tile of this kind that no player holds."""
    held = {t for p in state.players for t in p.tiles}
    return next(t for t, k in enumerate(kit.R().tile_kinds) if kit.R().city_tiles[k].name == kind and t not in held)


def to_display(state, tile: int) -> None:
    """Put a tile face up in the display's first row (swapped with the one there)."""
    here = state.city_face[0]
    if here == tile:
        return
    for d in state.districts:
        for sp in d.spaces:
            if sp.tile == tile:
                sp.tile = here
                state.city_face[0] = tile
                return
    for row in (state.city_face, *state.city_piles):
        if tile in row:
            row[row.index(tile)] = here
            state.city_face[0] = tile
            return
    raise AssertionError(tile)


TILE_GAINS = {
    "Cash": lambda b, p: p.pocket == b["pocket"] + 3 and p.safe == b["safe"],
    "Favours": lambda b, p: p.leverage == b["leverage"] + 2,
    "Ledger": lambda b, p: p.books == b["books"] + 1,
    "Muscle": lambda b, p: p.goons == b["goons"] + 1 and p.pocket == b["pocket"],
    "Contacts": lambda b, p: len(p.hand) == b["hand"] + 1,
    "Cousin": lambda b, p: p.family_vip == b["family_vip"] + 1,
    "Cellar": lambda b, p: p.stills_barrels == b["stills_barrels"] + 1,  # from the display: no building
    "Permit": lambda b, p: p.levels["party"] == b["party"] + 1,
    "Regular": lambda b, p: len(p.helpers) == b["helpers"] + 1,
    "Nest egg": lambda b, p: p.safe == b["safe"] + 5 and p.pocket == b["pocket"],
}


@pytest.mark.parametrize("kind", list(TILE_GAINS))
def test_design_11_1_each_city_tile_benefit_gained_once_when_taken(kind):
    """Design §11.1: a tile's benefit is gained once, immediately, when you take it; the tile stays on your board."""
    state = kit.paused()
    p = state.player(0)
    kit.give(state, 0, stills_barrels=0)
    tile = tile_of(state, kind)
    to_display(state, tile)
    before = {
        "pocket": p.pocket,
        "safe": p.safe,
        "leverage": p.leverage,
        "books": p.books,
        "goons": p.goons,
        "hand": len(p.hand),
        "family_vip": p.family_vip,
        "stills_barrels": p.stills_barrels,
        "party": p.levels["party"],
        "helpers": len(p.helpers),
    }
    kit.task(state, "take_tile", 0)
    kit.answer(state, "tile:0")
    while not kit.is_waiting(state):
        k = kit.prompt(state).kind
        kit.answer(state, {"level_any": "raise:party", "place_family": "vip"}.get(k, kit.ids(state)[0]))
    assert tile in p.tiles
    assert TILE_GAINS[kind](before, p)
    kit.ok(state)


@pytest.mark.parametrize(
    ("kind", "cop", "beside"),
    [("speakeasy", False, True), ("speakeasy", True, False), ("stills", False, False)],
)
def test_design_11_1_cellar_barrel_beside_an_operating_speakeasy_else_on_the_stills_area(kind, cop, beside):
    """Design §11.1 Cellar: 1 barrel beside this building if it is an Operating Speakeasy; otherwise on your Stills
    area."""
    state = kit.paused()
    p = state.player(0)
    bare(state, 0)
    kit.give(state, 0, pocket=20, safe=0, stills_barrels=0, leverage=0)
    calm(state, 2)
    i = kit.empty_space(state, 2)
    cellar = tile_of(state, "Cellar")
    to_display(state, cellar)  # off the map...
    state.city_face[0], state.districts[1].spaces[i].tile = state.districts[1].spaces[i].tile, cellar  # ...onto it
    if cop:
        put_cop(state, 2)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, f"row:{kind}:0")
    kit.answer(state, f"open:2:{i}")
    walk(state)
    b = state.districts[1].spaces[i].building
    assert b.barrel == beside
    assert p.stills_barrels == (0 if beside else 1) + (2 if kind == "stills" else 0)
    kit.ok(state)


# ---- §11.2 Helper cards ----

#: Design §11.2 table: name -> (bottle, upper gain, lower benefit).
HELPERS = {
    "Driver": ("moonshine", [("leverage", 1)], [("deliver", 2)]),
    "Chemist": ("moonshine", [("stills_barrels", 1)], [("produce", 1)]),
    "Dock Worker": ("moonshine", [("family_docks", 1)], [("dock_buy", 2)]),
    "Runner": ("moonshine", [("pocket", 2)], [("runner", 1)]),
    "Bartender": ("gin", [("pocket", 2)], [("sell", 2)]),
    "Architect": ("gin", [("card", 1)], [("upgrade", 2)]),
    "Informant": ("gin", [("leverage", 1)], [("informant", 1)]),
    "Tailor": ("gin", [("leverage", 1)], [("family", 1)]),
    "Bouncer": ("rum", [("goon_free", 1)], [("goon_free", 2)]),
    "Bagman": ("rum", [("pocket", 3)], [("bagman", 6)]),
    "Enforcer": ("rum", [("goon_free", 1)], [("raise_strength", 1)]),
    "Cabbie": ("rum", [("card", 1)], [("city_tile", 1)]),
    "Bookkeeper": ("whiskey", [("book", 1)], [("cook", 1)]),
    "Croupier": ("whiskey", [("leverage", 1)], [("croupier", 3)]),
    "Ward Boss": ("whiskey", [("book", 1)], [("raise_ops", 1)]),
    "Go-between": ("whiskey", [("leverage", 2)], [("associate", 1)]),
    "Lawyer": ("champagne", [("leverage", 2)], [("protect", 1)]),
    "Singer": ("champagne", [("pocket", 2)], [("sell_bonus", 2)]),
    "Showgirl": ("champagne", [("pocket", 3)], [("leverage", 2), ("card", 1)]),
    "Accountant": ("champagne", [("book", 1)], [("book", 1), ("safe", 3)]),
}


def helper_id(name: str) -> int:
    return next(h.id for h in kit.R().helpers.cards if h.name == name)


def test_design_11_2_twenty_helpers_four_per_bottle_with_their_halves():
    """Design §11.2 table: 20 Helper cards, 4 per bottle, each with its upper gain and lower benefit."""
    hs = kit.R().helpers
    got = {h.name: (h.bottle, [(e.kind, e.n) for e in h.upper], [(e.kind, e.n) for e in h.lower]) for h in hs.cards}
    assert got == HELPERS
    assert hs.display == 3


def test_design_11_2_bottle_values_and_variety_bonus_data():
    """Design §11.2: bottle values Moonshine $1 .. Champagne $5; one variety bonus for 3/4/5 types: $5/$10/$20
    (final scoring itself comes with the next issue)."""
    hs = kit.R().helpers
    assert hs.bottle_values == {"moonshine": 1, "gin": 2, "rum": 3, "whiskey": 4, "champagne": 5}
    assert hs.variety_bonus == {3: 5, 4: 10, 5: 20}


def to_helper_display(state, h: int) -> None:
    """Put a Helper card in the display's first place (swapped with the one there)."""
    if state.helper_display[0] == h:
        return
    if h in state.helper_display:
        k = state.helper_display.index(h)
        state.helper_display[0], state.helper_display[k] = h, state.helper_display[0]
        return
    k = state.helper_deck.index(h)
    state.helper_deck[k], state.helper_display[0] = state.helper_display[0], h


UPPER_CHECKS = {
    "leverage": lambda b, p, n: p.leverage == b["leverage"] + n,
    "pocket": lambda b, p, n: p.pocket == b["pocket"] + n,
    "stills_barrels": lambda b, p, n: p.stills_barrels == b["stills_barrels"] + n,
    "family_docks": lambda b, p, n: sum(z.count(0) for z in b["state"].docks) == b["docks"] + n,
    "card": lambda b, p, n: len(p.hand) == b["hand"] + n,
    "goon_free": lambda b, p, n: p.goons == b["goons"] + n,
    "book": lambda b, p, n: p.books == b["books"] + n,
}


@pytest.mark.parametrize("name", list(HELPERS))
def test_design_11_2_taking_a_helper_gains_its_upper_half_at_once_and_refills_the_display(name):
    """Design §11.2, seed 000:51.1-2: take a card from the display face up, gain its upper half at once, refill the
    display from the deck."""
    state = kit.paused()
    p = state.player(0)
    kit.give(state, 0, stills_barrels=0)
    h = helper_id(name)
    to_helper_display(state, h)
    top = state.helper_deck[0]
    before = {
        "leverage": p.leverage,
        "pocket": p.pocket,
        "stills_barrels": p.stills_barrels,
        "docks": sum(z.count(0) for z in state.docks),
        "hand": len(p.hand),
        "goons": p.goons,
        "books": p.books,
        "state": state,
    }
    kit.task(state, "take_helper", 0)
    kit.answer(state, f"helper:{h}")
    walk(state)
    assert p.helpers == [h]
    assert state.helper_display[0] == top
    ((kind, n),) = HELPERS[name][1]
    assert UPPER_CHECKS[kind](before, p, n)
    kit.ok(state)


def test_design_11_2_display_not_refilled_from_an_empty_deck():
    """Design §11.2: if the deck is empty, the display is not refilled."""
    state = kit.paused()
    deck = list(state.helper_deck)
    state.helper_deck.clear()
    # the cards of the deck go to a player (still counted once) so the deck is empty
    state.player(1).screen.extend(deck)
    h = state.helper_display[1]
    kit.task(state, "take_helper", 0)
    kit.answer(state, f"helper:{h}")
    walk(state)
    assert state.helper_display[1] is None
    kit.task(state, "take_helper", 0)
    assert f"helper:{h}" not in kit.ids(state) and len(kit.ids(state)) == 2
    kit.ok(state)


def turn_until(state, seat: int, kind: str, limit: int = 80) -> list[tuple[int, str]]:
    """Play the running game (Capos to first place, declining or taking the first option) until ``seat`` is asked
    ``kind``; returns the (seat, kind) prompts passed."""
    passed = []
    for _ in range(limit):
        pr = kit.prompt(state)
        if (pr.seat, pr.kind) == (seat, kind):
            return passed
        passed.append((pr.seat, pr.kind))
        ids = kit.ids(state)
        kit.answer(state, "first" if pr.kind == "place" else "skip" if "skip" in ids else ids[0])
    raise AssertionError(f"seat {seat} never asked {kind}: {passed[-10:]}")


def test_design_11_2_lower_half_at_the_start_of_a_later_turn_then_behind_the_safe_screen():
    """Design §11.2, seed 000:28.1: the lower half is used at the start of a later turn (not the turn the card was
    taken); the card then goes behind the Safe screen."""
    state = kit.played()
    seat = kit.prompt(state).seat
    assert kit.prompt(state).kind == "place"
    kit.give(state, seat, leverage=1)
    kit.answer(state, "booth:2")
    passed = turn_until(state, seat, "take_helper")
    h = next(x for x in state.helper_display if x is not None)
    kit.answer(state, f"helper:{h}")
    passed = turn_until(state, seat, "helper_use")
    assert (seat, "helper_use") not in passed
    assert any(s != seat for s, _k in passed)  # other players' turns came in between
    assert any(k == "draw" and s == seat for s, k in passed)  # the taking turn ended first
    assert kit.ids(state) == [f"use:{h}", "skip"]
    kit.answer(state, f"use:{h}")
    p = state.player(seat)
    assert h not in p.helpers and p.screen == [h]
    kit.ok(state)


def lower_ready(state, name: str):
    """Seat 0 holds only this Helper, and a position where its lower half has something to do."""
    p = state.player(0)
    h = helper_id(name)
    if h in state.helper_display:
        state.helper_display[state.helper_display.index(h)] = state.helper_deck.pop()
    else:
        state.helper_deck.remove(h)
    p.helpers = [h]
    kit.give(state, 0, pocket=20, safe=20, leverage=0, stills_barrels=4, levels={"party": 1, "stills": 1})
    calm(state, 1)  # seat 0's Stills is Operating
    return p, h


def _driver(state, p):
    building(state, 0, 2)
    return lambda: kit.prompt(state).kind == "deliver" and (state.tasks[-1].n, state.tasks[-1].m) == (2, 1)


def _chemist(state, p):
    return lambda: p.stills_barrels == 4 + 2


def _dock_worker(state, p):
    state.ships[0].barrels = 5

    def check():
        kit.answer(state, "buy:1:2")
        return p.pocket == 18 and p.stills_barrels == 6

    return check


def _runner(state, p):
    i = kit.empty_space(state, 2)
    building(state, 0, 2)

    def check():
        assert "src:0" not in kit.ids(state)
        kit.answer(state, "src:1")
        kit.answer(state, f"to:2:{i}")
        return p.pocket == 20 and state.ships[0].barrels == 4

    return check


def _bartender(state, p):
    building(state, 0, 2, barrel=True)
    return lambda: kit.prompt(state).kind == "sell" and state.tasks[-1].n == 2


def _architect(state, p):
    i = kit.empty_space(state, 2)
    building(state, 0, 2)

    def check():
        kit.answer(state, f"up:2:{i}:0")
        return state.districts[1].spaces[i].building.kind == "nightclub" and p.pocket == 20 - (6 - 2)

    return check


def _informant(state, p):
    return lambda: kit.prompt(state).kind == "informant" and all(o.startswith("cop:") for o in kit.ids(state)[:-1])


def _tailor(state, p):
    return lambda: kit.prompt(state).kind == "place_family" and "vip" in kit.ids(state)


def _bouncer(state, p):
    kit.give(state, 0, goons=1)
    return lambda: p.goons == 3 and p.pocket == 20


def _bagman(state, p):
    def check():
        assert kit.ids(state)[0] == "move:6"
        kit.answer(state, "move:6")
        return p.pocket == 26 and p.safe == 14

    return check


def _enforcer(state, p):
    def check():
        assert kit.ids(state) == ["raise:strength", "skip"]
        kit.answer(state, "raise:strength")
        return p.levels["strength"] == 2

    return check


def _cabbie(state, p):
    return lambda: kit.prompt(state).kind == "take_tile"


def _bookkeeper(state, p):
    kit.give(state, 0, leverage=2)
    books(state, 0, 1)
    return lambda: kit.prompt(state).kind == "cook" and state.tasks[-1].n == 1


def _croupier(state, p):
    building(state, 0, 2, "casino")
    building(state, 0, 4, "casino")
    put_cop(state, 4)  # not Operating: pays nothing
    return lambda: p.pocket == 23


def _ward_boss(state, p):
    return lambda: (
        kit.prompt(state).kind == "raise_track"
        and kit.ids(state)
        == [
            "raise:vip",
            "raise:party",
            "raise:stills",
            "raise:fleet",
            "skip",
        ]
    )


def _go_between(state, p):
    return lambda: kit.prompt(state).kind == "hire_associate"


def _lawyer(state, p):
    i = kit.empty_space(state, 2)
    building(state, 0, 2)
    put_cop(state, 2)
    p.family_supply -= 1
    p.family_vip += 1

    def check():
        kit.answer(state, f"fm:2:{i}")
        return p.leverage == 0 and state.districts[1].spaces[i].building.family

    return check


def _singer(state, p):
    building(state, 0, 2, barrel=True)
    return lambda: kit.prompt(state).kind == "sell" and state.tasks[-1].n == 2 + 2


def _showgirl(state, p):
    return lambda: p.leverage == 2 and kit.prompt(state).kind == "take_card"


def _accountant(state, p):
    b = p.books
    return lambda: p.books == b + 1 and p.safe == 23


LOWER = {
    "Driver": _driver,
    "Chemist": _chemist,
    "Dock Worker": _dock_worker,
    "Runner": _runner,
    "Bartender": _bartender,
    "Architect": _architect,
    "Informant": _informant,
    "Tailor": _tailor,
    "Bouncer": _bouncer,
    "Bagman": _bagman,
    "Enforcer": _enforcer,
    "Cabbie": _cabbie,
    "Bookkeeper": _bookkeeper,
    "Croupier": _croupier,
    "Ward Boss": _ward_boss,
    "Go-between": _go_between,
    "Lawyer": _lawyer,
    "Singer": _singer,
    "Showgirl": _showgirl,
    "Accountant": _accountant,
}


@pytest.mark.parametrize("name", list(LOWER))
def test_design_11_2_each_helper_lower_benefit(name):
    """Design §11.2 table, seed 000:28.1: each Helper's lower-half benefit; the card then goes behind the Safe
    screen."""
    state = kit.paused()
    p, h = lower_ready(state, name)
    check = LOWER[name](state, p)
    kit.task(state, "helper_use", 0)
    kit.answer(state, f"use:{h}")
    assert p.screen == [h] and p.helpers == []
    assert check()
    walk(state)
    kit.ok(state)


def test_design_10_5_central_park_goal_words_in_the_view():
    """Design §10.5: the view says each Central Park goal with its number in place (issue 12: "Operating buildings
    i3 n Zones" came from replacing the first "n " of "in n Zones") and without the data's authoring notes."""
    from engine.speakeasy.view import _park_text

    assert _park_text("A2") == "Operating buildings in 3 Zones: 1 Operations card"
    assert _park_text("C2") == "Operating buildings in 6 districts: $10 to the safe"
    assert _park_text("B1") == "a Nightclub and a Casino: 1 Helper card"
    for g in kit.R().goals.park_goals:
        text = _park_text(g.id)
        assert " n " not in text and "ignored" not in text, text
        assert g.condition == "nightclub_and_casino" or str(g.n) in text.split(":")[0], text
