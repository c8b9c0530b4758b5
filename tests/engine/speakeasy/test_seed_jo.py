"""Speakeasy solo against Jo, the official solo bot: seed 003 (003:1.1-003:60.1), one or more tests per sentence.

Tests are named after the seed sentence (``test_003_L_S_...``, ids of ../shared/seeds/rule-index.md). Where the
seed leaves something open, design §15 and §2 ("When Jo bumps your Capo to the Park") decide; their own tests are
in ``test_design_jo.py``, which reuses the helpers below.
"""

from __future__ import annotations

import dataclasses
import random
import re
from functools import cache

import pytest

from engine.core import BadOptions, Choice
from engine.speakeasy import acts, flow, luciano
from engine.speakeasy import economy as eco
from engine.speakeasy import steps as steps_mod
from engine.speakeasy.board import buildings, operating
from engine.speakeasy.components import TRACKS
from engine.speakeasy.goals import zone_goal_met
from engine.speakeasy.jo import setup
from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.jo.orders import LEVEL_CODES
from tests.engine.speakeasy import kit

R = kit.R()
JR = jo_rules()
ANN, JO = 0, 1
DOWNTOWN, MIDTOWN, UPTOWN = 0, 1, 2
BLOCKED = (5, 9, 10, 15, 16)
OPS = ("vip", "party", "stills", "fleet")


# --- helpers (also used by test_design_jo.py) ---------------------------------------------------------------------


def solo_new(seed: int = 1, difficulty: int = 2):
    """A solo game right after setup (the Setup Round's first prompt is open)."""
    return kit.GAME.new(["Ann"], {"difficulty": difficulty}, seed)


def solo_paused(seed: int = 1, difficulty: int = 2):
    """A solo game after the Setup Round, turn flow frozen, Jo's action deck untouched: the first seed from
    ``seed`` on where Ann starts (so Jo has not taken a turn yet)."""
    for s in range(seed, seed + 200):
        state = solo_new(s, difficulty)
        if state.track[0] == ANN:
            break
    kit.setup_round(state)
    state.tasks.clear()
    state.phase = "paused"
    return state


def copy(state):
    return kit.GAME.loads(kit.GAME.dumps(state))


def clear_map(state, mobsters: bool = True) -> None:
    """Every player building back to its row (its Family Member to the supply); optionally no Mobster
    Speakeasies either: an empty city to arrange a test in."""
    for d in state.districts:
        for sp in d.spaces:
            b = sp.building
            if b is not None:
                p = state.player(b.owner)
                row = p.rows[b.kind]
                row[row.index(False)] = True
                if b.family:
                    p.family_supply += 1
                sp.building = None
            if mobsters:
                sp.mobster = False


def set_cop(state, number: int, on: bool = True) -> None:
    """Put a Cop in a district (taken from the boxed Cop tiles) or take it out (boxed), keeping the count."""
    d = state.districts[number - 1]
    if d.cop == on:
        return
    if on:
        if d.cop_tile:
            d.cop_tile = False
        elif state.box["cop_tiles"]:
            state.box["cop_tiles"].pop()
        else:
            next(s for s in state.cop_stacks if s).pop()
        d.cop = True
    else:
        d.cop = False
        state.box["cop_tiles"].append(number)


def no_cops(state) -> None:
    """No Cop stands anywhere (every building Operating)."""
    for d in state.districts:
        set_cop(state, d.number, False)


def jo_build(state, number: int, space: int, kind: str = "speakeasy", **kw):
    """One of Jo's buildings straight onto the map (from his row)."""
    b = kit.build(state, JO, number, space, kind, **kw)
    if kw.get("family"):
        state.player(JO).family_supply -= 1
    return b


def ann_build(state, number: int, space: int, kind: str = "speakeasy", **kw):
    b = kit.build(state, ANN, number, space, kind, **kw)
    if kw.get("family"):
        state.player(ANN).family_supply -= 1
    return b


def fill(state, number: int) -> None:
    """Ann's Speakeasies on every empty space of a district (so Jo can neither open nor take over there)."""
    for i, sp in enumerate(state.districts[number - 1].spaces):
        if sp.building is None:
            ann_build(state, number, i)


def top(state, *cards: str) -> None:
    """Put Jo's action cards, in this order, on top of his deck (taken from wherever they are)."""
    jo = state.jo
    for card in reversed(cards):
        for pile in [jo.deck, jo.discard, jo.boxed, *jo.waiting.values()]:
            if card in pile:
                pile.remove(card)
                break
        jo.deck.insert(0, card)


def jo_turn(state, *cards: str):
    """Jo's turn with these cards on top of his deck; returns the log."""
    top(state, *cards)
    return kit.task(state, "jo_turn", JO)


def jo_action(state, code: str):
    """One of Jo's card actions on its own."""
    return kit.task(state, "jo_action", JO, s=code)


def district_deck(state, *numbers: int) -> None:
    """Jo's District deck with these cards on top (the rest under them)."""
    jo = state.jo
    jo.districts = list(numbers) + [n for n in range(1, 17) if n not in numbers]
    jo.drawn = []


def capo(state, seat: int, person: str) -> None:
    """A Capo of ``seat`` on a Person (taken from the board)."""
    state.persons[person] = seat
    state.player(seat).capos -= 1


def park_capo(state, seat: int, k: int) -> None:
    state.park[k] = seat
    state.player(seat).capos -= 1


def dock(state, seat: int, zone: int) -> None:
    """A Family Member of ``seat`` (from the supply) on the next free space of a Docks zone."""
    slots = state.docks[zone]
    slots[slots.index(None)] = seat
    state.player(seat).family_supply -= 1


def set_port(state, ship: int, district: int) -> None:
    """Swap Port tiles so that Ship ``ship`` lies at ``district``."""
    sh = state.ships[ship - 1]
    if sh.port == district:
        return
    for other in state.ships:
        if other.port == district:
            other.port, sh.port = sh.port, district
            return
    for pile in (state.port_stack, state.port_box):
        if district in pile:
            pile[pile.index(district)] = sh.port
            sh.port = district
            return
    raise AssertionError(district)


def set_display(state, *helpers: int) -> None:
    """The Helper display shows these cards (swapped with the deck)."""
    for k, h in enumerate(helpers):
        old = state.helper_display[k]
        if old == h:
            continue
        if h in state.helper_display:
            j = state.helper_display.index(h)
            state.helper_display[j], state.helper_display[k] = old, h
        else:
            state.helper_deck[state.helper_deck.index(h)] = old
            state.helper_display[k] = h


def give_helper(state, seat: int, h: int) -> None:
    """Helper card ``h`` face up beside the seat's board (from the deck or the display)."""
    if h in state.helper_deck:
        state.helper_deck.remove(h)
    else:
        k = state.helper_display.index(h)
        state.helper_display[k] = state.helper_deck.pop(0)
    state.player(seat).helpers.append(h)


def give_tiles(state, seat: int, n: int) -> list[int]:
    """``n`` City tiles from the face-down piles onto the seat's board."""
    out = []
    for _ in range(n):
        pile = next(p for p in state.city_piles if p)
        out.append(pile.pop())
    state.player(seat).tiles += out
    return out


def tile_of(name: str) -> int:
    return next(k for k, ct in enumerate(R.city_tiles) if ct.name == name)


def put_tile(state, number: int, space: int, name: str) -> int:
    """A City tile of kind ``name`` onto a space (swapped with one lying in the piles)."""
    want = tile_of(name)
    sp = state.districts[number - 1].spaces[space]
    for pile in state.city_piles:
        for k, t in enumerate(pile):
            if R.tile_kinds[t] == want:
                pile[k], sp.tile = sp.tile, t
                return t
    raise AssertionError(name)


def mobster_of(deck: str, attack: int) -> int:
    return next(m.id for m in R.mobsters if m.deck == deck and m.strength + m.modifier == attack)


def lose(state, seat: int, kind: str) -> None:
    """One of the seat's buildings (from its row) lost in a Mob War."""
    p = state.player(seat)
    p.rows[kind][p.rows[kind].index(True)] = False
    p.lost_buildings = {**p.lost_buildings, kind: p.lost_buildings.get(kind, 0) + 1}


def pocket(state, seat: int = JO) -> int:
    return state.player(seat).pocket


def texts(events) -> list[str]:
    return [e.text for e in events]


# --- complete games ---------------------------------------------------------------------------------------------


@cache
def random_game(seed: int, difficulty: int):
    """A complete solo game, Ann answering at random; (final state, every event, the seats that were prompted)."""
    rng = random.Random(seed * 31 + difficulty)
    state, events = kit.GAME.start(["Ann"], {"difficulty": difficulty}, seed)
    seats = set()
    while state.phase != "over":
        p = kit.prompt(state)
        seats.add(p.seat)
        events += kit.GAME.apply(state, Choice(p.seat, p.kind, rng.choice(p.options).id))
    return state, events, seats


def jo_cards_by_act(events) -> dict[int, list[str]]:
    """The cards Jo flipped in each Act, read from the log."""
    act = 0
    out: dict[int, list[str]] = {1: [], 2: [], 3: [], 4: []}
    for e in events:
        m = re.match(r"(?:.*)Act (\d) begins", e.text)
        if m:
            act = int(m.group(1))
        m = re.match(r"Jo flips card (\w+)", e.text)
        if m:
            out[act].append(m.group(1))
    return out


GAMES = [(seed, diff) for diff in (1, 2, 3, 4) for seed in range(1, 6)]


# --- 003:1.1-5.2 Solo: Jo ---------------------------------------------------------------------------------------


def test_003_1_1_one_seat_is_a_solo_game_against_jo():
    """003:1.1 Solo: Jo. A game created with one seat is played against Jo: the seats become [you, "Jo"] and the
    state carries Jo's own state in seat 1."""
    state = solo_new()
    assert state.seats == ["Ann", "Jo"]
    assert [p.name for p in state.players] == ["Ann", "Jo"]
    assert state.jo is not None and state.jo.seat == JO
    assert kit.new(2).jo is None
    kit.ok(state)


def test_003_3_1_solo_game_runs_setup_turns_and_solo_scoring():
    """003:3.1 The solo mode covers setup and difficulty, Jo's turn, his actions and solo scoring: a complete
    solo game ends with a result for both seats and a rank for you."""
    state, events, _ = random_game(1, 2)
    result = kit.GAME.result(state)
    assert result is not None and len(result.scores) == 2 and len(result.winners) == 1
    assert state.jo.rank in {JR.loss_rank, *(name for _f, name in JR.ranks)}
    assert any(t.startswith("Jo plays at difficulty 2") for t in texts(events))
    assert any(t.startswith("Jo flips card") for t in texts(events))
    kit.ok(state)


def test_003_5_1_jo_is_a_bot_and_never_gets_a_prompt():
    """003:5.1 Jo is a mobster bot: over complete games no prompt is ever open for his seat."""
    for seed, diff in GAMES:
        state, _events, seats = random_game(seed, diff)
        assert seats == {ANN}, (seed, diff)
        assert state.phase == "over"


def test_003_5_2_you_play_the_normal_two_player_game():
    """003:5.2 You play the normal 2-player game (the 1-2 player side, 4 Operations cards, every Person open to
    you); Jo follows his own cards (his turn is his flipped card, never a prompt)."""
    assert solo_new(1).side == kit.new(2, 1).side == "small"
    assert len(solo_new(1).player(ANN).hand) == len(kit.new(2, 1).player(0).hand) == len(TRACKS)
    state = solo_paused(1)
    kit.task(state, "place", ANN)
    ids = kit.ids(state)
    assert {f"person:{per.id}" for per in R.locations.persons} <= set(ids)
    assert {"first", "park:0", "park:1", "park:2", "booth:1"} <= set(ids)
    state.tasks.clear()
    events = jo_turn(state, "2d")
    assert "Jo flips card 2d" in texts(events)[0]
    assert kit.is_waiting(state)
    kit.ok(state)


# --- 003:7.1-16.1 Setup Jo --------------------------------------------------------------------------------------


def test_003_7_1_jo_is_set_up_with_the_game():
    """003:7.1 Setup Jo: a new solo game already holds Jo's District deck, his action deck and his pieces."""
    state = solo_new()
    jo = state.jo
    assert len(jo.districts) + len(jo.drawn) == 16
    assert jo.deck and jo.waiting and jo.boxed
    assert state.player(JO).capos == JR.numbers["capos"]
    kit.ok(state)


def test_003_9_1_solo_is_set_up_as_for_two_players():
    """003:9.1 Set the game up for two players, then add Jo: the same board side, Mob War stacks, Central Park
    layout, City tile piles and booths as a 2-player game."""
    for seed in (1, 2, 3):
        solo, duo = solo_new(seed), kit.new(2, seed)
        assert solo.side == duo.side
        assert sum(d.war_tile for d in solo.districts) == sum(d.war_tile for d in duo.districts) == 2
        assert [len(s) for s in solo.war_stacks] == [len(s) for s in duo.war_stacks]
        assert len(solo.park_goals) == len(duo.park_goals) == 4
        assert [len(p) for p in solo.city_piles] == [len(p) for p in duo.city_piles]
        assert sum(d.mobster is not None for d in solo.districts) == 4
        assert len(solo.booths) == len(duo.booths)
        assert [len(z) for z in solo.docks] == [len(z) for z in duo.docks]


def test_003_11_1_jo_takes_capos_family_books_stills_and_buildings():
    """003:11.1 Jo has 4 Capos, Family Members (8, design §15.1), Books (10), his Stills, 8 Speakeasies,
    3 Nightclubs and 3 Casinos, his Operations board with markers, his Infamy and Turn Order markers."""
    state = solo_new()
    p = state.player(JO)
    assert p.capos == 4
    assert p.family_supply == 8 and p.book_supply == 10
    assert [len(p.rows[k]) for k in ("stills", "speakeasy", "nightclub", "casino")] == [1, 8, 3, 3]
    assert set(p.levels) >= set(OPS)
    assert JO in state.track
    kit.ok(state)


def test_003_11_2_jo_has_no_strength_trucks_associate_safe_or_money():
    """003:11.2 No Strength marker, Trucks, Associate marker or safe, and no money: he starts with $0, no
    Leverage, no Goons, no Associate, no cards; his Strength never moves in a whole game and nothing fills a safe."""
    state = solo_new()
    p = state.player(JO)
    assert p.pocket == 0 and p.safe == 0 and p.leverage == 0
    assert p.goons == 0 and p.associate is None and p.hand == []
    for seed, diff in GAMES[:8]:
        end, _e, _s = random_game(seed, diff)
        q = end.player(JO)
        assert q.levels["strength"] == 1 and q.safe == 0 and q.goons == 0 and q.associate is None
    # "No Trucks": a Fleet level-3 Deliver reaches three Zones at once (a player's Truck serves one Zone a trip).
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    for n in (1, 6, 11):
        jo_build(state, n, 0)
    kit.give(state, JO, levels={"fleet": 3}, stills_barrels=3)
    jo_action(state, "DEL")
    assert [state.districts[n - 1].spaces[0].building.barrel for n in (1, 6, 11)] == [True, True, True]
    kit.ok(state)


def test_003_12_1_family_books_stills_beside_board_and_zone_markers_at_bottom():
    """003:12.1 His Family Members, Books and Stills go beside his board (supply: none on the Infamy track, none
    placed), one Zone Control marker at the bottom of each Zone track."""
    state = solo_new()
    p = state.player(JO)
    assert p.family_track == [] and p.family_vip == 0 and p.family_supply == 8
    assert p.books == 0 and p.book_supply == 10
    assert p.zone_markers == [0, 0, 0]
    kit.ok(state)


def test_003_13_1_capos_beside_board_levels_at_1_buildings_left_to_right():
    """003:13.1 His Capos beside his board; his Operations markers on level 1 (deck 0's setup raise puts exactly
    one at 2); his Speakeasies, Nightclubs and Casinos on his rows, taken left to right."""
    for seed in range(1, 8):
        state = solo_new(seed)
        p = state.player(JO)
        assert sorted(p.levels[t] for t in OPS) == [1, 1, 1, 2]
        assert all(p.rows[k] == [True] * len(p.rows[k]) for k in ("speakeasy", "nightclub", "casino"))
    state = solo_paused()
    district_deck(state, 1)
    clear_map(state)
    jo_action(state, "B-S")
    assert state.player(JO).rows["speakeasy"] == [False] + [True] * 7
    kit.ok(state)


def test_003_14_1_sixteen_district_cards_shuffled():
    """003:14.1 Shuffle his 16 District cards face down: one card per district, in a different order per game."""
    orders = set()
    for seed in range(1, 6):
        jo = solo_new(seed).jo
        assert sorted(jo.districts + jo.drawn) == list(range(1, 17))
        orders.add(tuple(jo.districts))
    assert len(orders) > 1


def test_003_15_1_deck_0_setup_raise_one_level_no_infamy():
    """003:15.1 Deck 0 is revealed until a card raises an Operations level: that level of Jo's goes up by 1 (his
    Infamy stays on 5) and the card is boxed."""
    for seed in range(1, 13):
        state, events = kit.GAME.start(["Ann"], {"difficulty": 2}, seed)
        p = state.player(JO)
        raised = [t for t in OPS if p.levels[t] == 2]
        assert len(raised) == 1
        card = JR.card(state.jo.boxed[0])
        assert card.deck == 0
        first = next(a for a in card.actions if a.startswith("+"))
        assert LEVEL_CODES[first] == raised[0]
        assert any("setup card raises" in t for t in texts(events))
        assert p.infamy == 5


def test_003_16_1_jo_infamy_starts_on_5():
    """003:16.1 His Infamy marker on space 5."""
    for diff in (1, 2, 3, 4):
        assert solo_new(1, diff).player(JO).infamy == 5


# --- 003:18.1-22.3 Jo's action decks and difficulty --------------------------------------------------------------


def deck_of(card: str) -> int:
    return JR.card(card).deck


def test_003_18_1_action_decks_hold_only_jo_cards():
    """003:18.1 Jo's action decks and difficulty: every one of his 26 cards is in his deck, waiting for its Act,
    done or boxed."""
    state = solo_new()
    jo = state.jo
    allc = jo.deck + jo.discard + jo.boxed + [c for w in jo.waiting.values() for c in w]
    assert sorted(allc) == sorted(c.id for c in JR.cards) and len(allc) == 26


def test_003_20_1_decks_1_to_4_shuffled_two_random_deck_2_cards_boxed():
    """003:20.1 Shuffle decks 1-4 separately and box 2 random cards of deck 2, so each has 3 cards."""
    boxed_pairs, orders3 = set(), set()
    for seed in range(1, 16):
        jo = solo_new(seed, 2).jo
        in_act1 = [c for c in jo.deck]
        assert sorted(deck_of(c) for c in in_act1) == [1, 1, 1, 2, 2, 2]
        assert len(jo.waiting["3"]) == len(jo.waiting["4"]) == 3
        assert all(deck_of(c) == 3 for c in jo.waiting["3"]) and all(deck_of(c) == 4 for c in jo.waiting["4"])
        boxed2 = sorted(c for c in jo.boxed if deck_of(c) == 2)
        assert len(boxed2) == 2
        boxed_pairs.add(tuple(boxed2))
        orders3.add(tuple(jo.waiting["3"]))
    assert len(boxed_pairs) > 2  # random cards
    assert len(orders3) > 1  # shuffled


def test_003_20_2_difficulty_is_chosen():
    """003:20.2 Then choose (the difficulty): option "difficulty" 1-4, default 2 (Standard); anything else is
    refused."""
    assert solo_new(1, 3).jo.difficulty == 3
    assert kit.GAME.new(["Ann"], {}, 1).jo.difficulty == 2
    with pytest.raises(BadOptions):
        kit.GAME.new(["Ann"], {"difficulty": 5}, 1)
    with pytest.raises(BadOptions):
        kit.GAME.new(["Ann"], {"difficulty": 0}, 1)


def test_003_22_1_swapped_out_cards_and_rest_of_deck_0_boxed():
    """003:22.1 Box the swapped-out cards and the rest of deck 0: at Hard one card of each of decks 2, 3 and 4
    is boxed (on top of deck 2's two), and every deck-0 card not swapped in is boxed."""
    for seed in range(1, 8):
        jo = solo_new(seed, 3).jo
        in_play = jo.deck + [c for w in jo.waiting.values() for c in w]
        boxed = set(jo.boxed)
        assert sum(1 for c in boxed if deck_of(c) == 2) == 3
        assert sum(1 for c in boxed if deck_of(c) == 3) == 1
        assert sum(1 for c in boxed if deck_of(c) == 4) == 1
        zero_in = [c for c in in_play if deck_of(c) == 0]
        assert len(zero_in) == 3
        assert {c.id for c in JR.cards if c.deck == 0} - set(zero_in) <= boxed
        assert len(in_play) + len(boxed) == 26


def test_003_22_2_deck_per_act_leftovers_plus_next_deck():
    """003:22.2 Act 1: decks 1 + 2 shuffled; Act 2: the 2 cards left plus deck 3; Act 3: the 2 left plus deck 4,
    used to the end."""
    state = solo_paused()
    jo = state.jo
    assert len(jo.deck) == 6 and {deck_of(c) for c in jo.deck} == {1, 2}
    deck3, deck4 = list(jo.waiting["3"]), list(jo.waiting["4"])
    left = jo.deck[:2]
    jo.discard += jo.deck[2:]
    jo.deck = list(left)
    state.act = 2
    setup.start_act(state, [])
    assert sorted(jo.deck) == sorted(left + deck3) and "3" not in jo.waiting
    left = jo.deck[:2]
    jo.discard += jo.deck[2:]
    jo.deck = list(left)
    state.act = 3
    setup.start_act(state, [])
    assert sorted(jo.deck) == sorted(left + deck4) and jo.waiting == {}
    left = jo.deck[:2]
    jo.discard += jo.deck[2:]
    jo.deck = list(left)
    state.act = 4
    setup.start_act(state, [])
    assert sorted(jo.deck) == sorted(left)
    kit.ok(state)


def test_003_22_2_complete_games_flip_cards_of_the_right_decks():
    """003:22.2 In complete games Jo flips 4/3/3/1 cards; Act 1's come from decks 1-2, Act 2's from Act 1's
    leftovers or deck 3, Act 3's from the leftovers or deck 4, Act 4's from Act 3's leftovers."""
    for seed in range(1, 6):
        state, events, _ = random_game(seed, 2)
        by_act = jo_cards_by_act(events)
        assert [len(by_act[a]) for a in (1, 2, 3, 4)] == [4, 3, 3, 1]
        assert {deck_of(c) for c in by_act[1]} <= {1, 2}
        assert {deck_of(c) for c in by_act[2]} <= {1, 2, 3}
        assert sum(deck_of(c) in (1, 2) for c in by_act[2] + by_act[3] + by_act[4]) <= 2
        assert {deck_of(c) for c in by_act[3]} <= {1, 2, 3, 4}
        assert sum(deck_of(c) in (3,) for c in by_act[3] + by_act[4]) <= 2
        assert len(state.jo.deck) == 1


def test_003_22_3_every_card_is_in_the_data():
    """003:22.3 Every card is pictured: all 26 cards are in ``jo.toml`` with a location and their actions."""
    assert len(JR.cards) == 26
    assert len({c.id for c in JR.cards}) == 26
    assert all(c.location and c.actions for c in JR.cards)
    assert [sum(c.deck == d for c in JR.cards) for d in range(5)] == [12, 3, 5, 3, 3]


# --- 003:24.1-26.3 Setup Round ----------------------------------------------------------------------------------


def test_003_24_1_jo_takes_part_in_the_setup_round():
    """003:24.1 Setup Round: after it Jo has his Stills on the map."""
    state = solo_paused(3)
    stills = [
        (d.number, i)
        for d in state.districts
        for i, sp in enumerate(d.spaces)
        if sp.building and sp.building.owner == JO
    ]
    assert len(stills) == 1
    d = state.districts[stills[0][0] - 1]
    assert d.spaces[stills[0][1]].building.kind == "stills"
    kit.ok(state)


def test_003_26_1_turn_order_is_random():
    """003:26.1 Turn order is random: over a few seeds either seat starts."""
    firsts = {solo_new(seed).track[0] for seed in range(1, 20)}
    assert firsts == {ANN, JO}


def test_003_26_2_setup_round_in_reverse_order():
    """003:26.2 In reverse turn order each follows the Setup Round: when Ann starts, Jo sets up first (his Stills
    is on the map when Ann is asked); when Jo starts, Ann is asked first and Jo follows."""
    seen = set()
    for seed in range(1, 20):
        state = solo_new(seed)
        assert state.order == list(reversed(state.track))
        jo_on_map = any(sp.building and sp.building.owner == JO for d in state.districts for sp in d.spaces)
        assert kit.prompt(state).seat == ANN
        assert jo_on_map == (state.track[0] == ANN)
        seen.add(state.track[0])
        if state.track[0] == JO:
            kit.setup_round(state)
            assert any(sp.building and sp.building.owner == JO for d in state.districts for sp in d.spaces)
    assert seen == {ANN, JO}


def test_003_26_2_jo_setup_stills_on_first_district_with_free_space():
    """003:26.2 For Jo, District cards are drawn until one shows a district with an empty space; his Stills goes
    on its leftmost/top free space, the City tile there onto his board; then the District deck is reshuffled."""
    state = solo_paused()
    clear_map(state)
    fill(state, 3)
    state.districts[5].spaces[0].mobster = True  # Chelsea: space 1 Mobster-held, spaces 2-3 free
    tile = put_tile(state, 6, 1, "Permit")  # +1 level for a player: nothing for Jo
    district_deck(state, 5, 3, 6, 1)
    p = state.player(JO)
    before = (dict(p.levels), p.infamy, p.pocket, p.leverage, p.books, p.goons)
    kit.task(state, "jo_setup", JO)
    assert (dict(p.levels), p.infamy, p.pocket, p.leverage, p.books, p.goons) == before
    b = state.districts[5].spaces[1].building
    assert b is not None and b.owner == JO and b.kind == "stills"
    assert state.player(JO).tiles[-1] == tile and state.districts[5].spaces[1].tile is None
    assert state.jo.drawn == [] and sorted(state.jo.districts) == list(range(1, 17))
    kit.ok(state)


def test_003_26_3_jo_ignores_card_bonuses_and_places_no_family_at_docks():
    """003:26.3 Jo ignores card bonuses in the Setup Round (no card, no money, Leverage, Book or level from his
    City tile) and puts no Family Member at the Docks."""
    checked = 0
    for seed in range(1, 20):
        state = solo_new(seed)
        if state.track[0] != ANN:
            continue  # Jo sets up first when Ann starts: look right after his Setup Round turn
        checked += 1
        p = state.player(JO)
        assert p.hand == [] and all(c is None for c in p.slots.values())
        assert p.pocket == 0 and p.leverage == 0 and p.books == 0 and p.goons == 0
        assert sorted(p.levels[t] for t in OPS) == [1, 1, 1, 2] and p.infamy == 5
        assert all(JO not in z for z in state.docks) and p.family_supply == 8
        assert len(p.tiles) == 1
    assert checked >= 3


# --- 003:28.1-34.1 Jo's turn and actions -------------------------------------------------------------------------


def test_003_28_1_jos_turn_runs_by_itself():
    """003:28.1 Jo's turn and actions: after Ann's turn, Jo's runs without a prompt and Ann is asked again."""
    state = solo_new(1)
    for s in range(1, 50):
        state = solo_new(s)
        if state.track[0] == ANN:
            break
    kit.setup_round(state)
    while state.turn == 0 and state.round == 1:
        p = kit.prompt(state)
        kit.answer(state, "skip" if "skip" in kit.ids(state) else p.options[0].id)
    assert kit.prompt(state).seat == ANN and state.round == 2
    assert state.player(JO).capos == 3 and len(state.jo.discard) == 1
    kit.ok(state)


def test_003_30_1_jo_flips_the_top_card():
    """003:30.1 Flip the top card of Jo's action deck: it is the card he plays, and it leaves the deck."""
    state = solo_paused()
    top(state, "2d")
    before = len(state.jo.deck)
    stills = state.player(JO).levels["stills"]
    kit.task(state, "jo_turn", JO)
    assert state.jo.card == "2d" and "2d" not in state.jo.deck and len(state.jo.deck) == before - 1
    assert state.persons.get("consigliere") == JO
    assert state.player(JO).levels["stills"] == stills + 1 and pocket(state) == 5
    kit.ok(state)


def test_003_30_2_left_person_if_free_else_right():
    """003:30.2 Jo's Capo goes on the left Person of the card's location if free, otherwise the right one."""
    state = solo_paused()
    jo_turn(state, "1b")
    assert state.persons["mechanic"] == JO and "dispatcher" not in state.persons
    state = solo_paused()
    capo(state, ANN, "mechanic")
    jo_turn(state, "1b")
    assert state.persons["mechanic"] == ANN and state.persons["dispatcher"] == JO
    state = solo_paused()
    capo(state, JO, "mechanic")
    jo_turn(state, "1b")
    assert state.persons["mechanic"] == JO and state.persons["dispatcher"] == JO
    assert state.player(JO).capos == 2
    kit.ok(state)


def test_003_30_3_card_actions_in_order_instead_of_the_location():
    """003:30.3 Jo ignores the location's actions and does the card's, top to bottom, then discards the card:
    Garage card 3b (Produce, Deliver, Sell) produces, delivers that barrel and sells it in one turn; the
    Mechanic's own second step (play a card) is not done and nothing is asked."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 2, 0, "stills")
    jo_build(state, 3, 0, "speakeasy")
    kit.give(state, JO, levels={"stills": 1, "fleet": 1, "party": 1}, stills_barrels=0, pocket=0)
    ships = [s.barrels for s in state.ships]
    jo_turn(state, "3b")
    assert state.persons["mechanic"] == JO
    assert state.player(JO).stills_barrels == 0  # produced 1, delivered 1
    assert not state.districts[2].spaces[0].building.barrel  # delivered, then sold
    assert pocket(state) == 3 and [s.barrels for s in state.ships] == ships
    assert state.jo.discard[-1] == "3b" and kit.is_waiting(state)
    kit.ok(state)


def test_003_30_3_order_matters_produce_before_deliver():
    """003:30.3 Top to bottom: with no barrel anywhere but a Stills, card 1b (Produce, then Deliver) delivers from
    the Stills barrels just produced (no Ship barrel is taken)."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 2, 0, "stills")
    jo_build(state, 3, 0)
    kit.give(state, JO, levels={"stills": 2, "fleet": 1}, stills_barrels=0)
    ships = [s.barrels for s in state.ships]
    jo_turn(state, "1b")
    assert state.districts[2].spaces[0].building.barrel
    assert state.player(JO).stills_barrels == 1 and [s.barrels for s in state.ships] == ships
    kit.ok(state)


def test_003_32_1_both_persons_yours_your_leftmost_capo_goes_to_the_park():
    """003:32.1 Both Persons hold your Capos: your leftmost Capo there moves to the Park, you take one of the three
    Park rewards, and Jo takes the spot."""
    state = solo_paused()
    capo(state, ANN, "mechanic")
    capo(state, ANN, "dispatcher")
    lev = state.player(ANN).leverage
    jo_turn(state, "1b")
    assert state.persons["mechanic"] == JO and state.persons["dispatcher"] == ANN
    assert state.park[0] == ANN
    p = kit.prompt(state)
    assert p.seat == ANN and p.kind == "park_bump"
    assert kit.ids(state) == ["reward:0", "reward:1", "reward:2"]
    kit.answer(state, "reward:1")
    assert state.player(ANN).leverage == lev + 2
    assert state.jo.discard[-1] == "1b"
    kit.ok(state)


def test_003_33_1_own_capos_on_both_persons_draw_on_unused_to_bottom():
    """003:33.1 All spaces blocked by Jo's own Capos: he draws until he can go somewhere, then the unused card goes
    to the bottom of his deck."""
    state = solo_paused()
    capo(state, JO, "mechanic")
    capo(state, JO, "dispatcher")
    jo_turn(state, "1b", "2d")
    assert state.jo.card == "2d" and state.persons["consigliere"] == JO
    assert state.jo.deck[-1] == "1b"
    kit.ok(state)


def test_003_33_1_park_full_draw_on_unused_cards_to_bottom():
    """003:33.1 The Park full: Park card 2e cannot be placed; with the Garage also blocked by his own Capos he
    draws on to card 2d; both unused cards go to the bottom."""
    state = solo_paused()
    for k in range(3):
        park_capo(state, ANN, k)
    capo(state, JO, "mechanic")
    capo(state, JO, "dispatcher")
    jo_turn(state, "2e", "1b", "2d")
    assert state.jo.card == "2d"
    assert sorted(state.jo.deck[-2:]) == ["1b", "2e"]
    assert "2e" not in state.jo.discard and state.park == [ANN, ANN, ANN]
    kit.ok(state)


def test_003_34_1_an_impossible_action_is_skipped_the_rest_done():
    """003:34.1 If he cannot do one action on the card he skips it and does the rest: card 2c (+Fleet, Build a
    Speakeasy) with his Fleet at 5 still builds; card 1b (Produce, Deliver) without a Stills still delivers from
    a Ship."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    district_deck(state, 1)
    kit.give(state, JO, levels={"fleet": 5})
    infamy = state.player(JO).infamy
    jo_turn(state, "2c")
    assert state.player(JO).levels["fleet"] == 5 and state.player(JO).infamy == infamy
    assert state.districts[0].spaces[0].building.owner == JO
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 3, 0)
    kit.give(state, JO, levels={"fleet": 1}, stills_barrels=0)
    total = sum(s.barrels for s in state.ships)
    jo_turn(state, "1b")
    assert state.player(JO).stills_barrels == 0
    assert state.districts[2].spaces[0].building.barrel and sum(s.barrels for s in state.ships) == total - 1
    kit.ok(state)


# --- 003:36.1-44.1 Jo's general rules ----------------------------------------------------------------------------


def test_003_36_1_general_rules_hold_over_complete_games():
    """003:36.1 Jo's general rules: over complete games he never holds a card, Goon, Associate, Leverage or safe
    money, and never uses a Helper."""
    for seed, diff in GAMES:
        state, _e, _s = random_game(seed, diff)
        p = state.player(JO)
        assert p.hand == [] and p.goons == 0 and p.associate is None and p.safe == 0
        assert p.leverage == 0 and p.screen == [] and all(c is None for c in p.slots.values())


def test_003_38_1_no_helper_benefits():
    """003:38.1 No Helper benefits: taking a Helper (Build's Helper icon) gives him neither its upper gain nor a
    later use."""
    state = solo_paused()
    clear_map(state)
    set_display(state, 18, 0, 4)  # Showgirl (Champagne: $3 and ...), Driver, Bartender
    district_deck(state, 2)  # Lower East Side: a Helper icon
    before = pocket(state), state.player(JO).leverage, len(state.player(JO).hand)
    jo_action(state, "B-S")
    p = state.player(JO)
    assert 18 in p.helpers
    assert (p.pocket, p.leverage, len(p.hand)) == before
    kit.ok(state)


def test_003_38_1_no_city_tile_benefits():
    """003:38.1 No City tile benefits: building on a space with a Cash ($3), Permit (+1 level) or Ledger (Book)
    tile, Jo takes the tile and nothing else."""
    for name in ("Cash", "Permit", "Ledger", "Favours", "Muscle"):
        state = solo_paused()
        clear_map(state)
        t = put_tile(state, 4, 0, name)
        district_deck(state, 4)
        p = state.player(JO)
        before = (p.pocket, dict(p.levels), p.book_supply, p.books, p.leverage, p.goons, p.infamy)
        jo_action(state, "B-S")
        assert t in p.tiles
        assert (p.pocket, dict(p.levels), p.book_supply, p.books, p.leverage, p.goons, p.infamy) == before
        kit.ok(state)


def test_003_38_1_enough_strength_to_take_over_and_ambush():
    """003:38.1 No Goons, no Associates, yet he always has enough strength: he takes over a Mobster Speakeasy of a
    strength-5 Mobster and ambushes in Act 4 (strength 7 needed by players) with Strength 1 and no Goons."""
    state = solo_paused()
    clear_map(state)
    d = state.districts[3]
    for sp in d.spaces:
        sp.mobster = True
    d.strength = 5
    district_deck(state, 4)
    jo_action(state, "B-S")
    assert d.spaces[0].building.owner == JO and not d.spaces[0].mobster
    state.act = 4
    before = pocket(state)
    jo_action(state, "AMB")
    assert pocket(state) == before + 15 and state.player(JO).ambushes == 1
    assert state.player(JO).goons == 0 and state.player(JO).levels["strength"] == 1
    kit.ok(state)


def test_003_38_1_no_operations_cards_dealt_to_jo():
    """003:38.1 No Operations cards, no Goons, no Associates: Jo is never dealt or draws a card."""
    state = solo_new()
    assert state.player(JO).hand == []
    assert len(state.player(ANN).hand) == 4
    dealt = sum(len(d) for d in state.decks.values())
    assert dealt == len(R.cards) - 4


def test_003_39_1_never_pays_for_buildings_or_barrels():
    """003:39.1 He never pays for buildings or barrels: a Casino build and a Deliver from a Ship leave his money
    alone."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    kit.give(state, JO, pocket=40)
    district_deck(state, 6)
    jo_action(state, "B-C")
    assert state.districts[5].spaces[0].building.kind == "casino" and pocket(state) == 40
    kit.give(state, JO, stills_barrels=0)
    total = sum(s.barrels for s in state.ships)
    jo_action(state, "DEL")
    assert state.districts[5].spaces[0].building.barrel
    assert sum(s.barrels for s in state.ships) == total - 1 and pocket(state) == 40
    kit.ok(state)


def test_003_39_1_always_gains_cash():
    """003:39.1 He always gains cash: Zone payouts, Cook the Books and Infamy safe-money rewards go to his one
    (pocket) pool; his safe stays empty."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 1, 0)
    kit.task(state, "payout", -1)
    assert pocket(state) == R.sides["small"].zone_payouts[0][0] and state.player(JO).safe == 0
    kit.give(state, JO, infamy=11)
    eco.gain_infamy(state, JO, 1, [])
    assert pocket(state) == 30 + 10 and state.player(JO).safe == 0
    kit.ok(state)


def jo_war(state, number: int, buildings: list[tuple[int, str]], money: int, attack: int = 7):
    """A Mob War in a district against Jo's buildings, through the Lucky Luciano step."""
    clear_map(state)
    no_cops(state)
    for i, kind in buildings:
        jo_build(state, number, i, kind)
    kit.give(state, JO, pocket=money)
    m = mobster_of("B", attack)
    state.mobster_decks["B"] = [m] + [x for x in state.mobster_decks.get("B", []) if x != m]
    if m in state.mobster_box:
        state.mobster_box.remove(m)
    state.districts[number - 1].war_tile = True
    state.act = 1
    state.war_stats = [[0, 0]]
    return kit.task(state, "war_district", -1, n=number)


def test_003_39_2_mob_war_pays_the_attack_per_building():
    """003:39.2 He spends money only in Mob Wars: for each building he defends he pays the Mobster's Mob War
    strength in dollars (attack 7: $7) and keeps it."""
    state = solo_paused()
    jo_war(state, 3, [(0, "speakeasy"), (1, "nightclub")], 20)
    assert pocket(state) == 20 - 14
    assert [sp.building.owner for sp in state.districts[2].spaces[:2]] == [JO, JO]
    assert not state.districts[2].spaces[0].mobster
    kit.ok(state)


def test_003_39_2_mob_war_all_he_has_then_loses_like_a_player():
    """003:39.2 Short of the attack he pays all he has and keeps the building; with nothing to pay he loses it
    like a player (a Mobster Speakeasy takes the space)."""
    state = solo_paused()
    jo_war(state, 3, [(0, "speakeasy"), (1, "casino")], 3)
    d = state.districts[2]
    assert pocket(state) == 0
    assert d.spaces[1].building is not None and d.spaces[1].building.owner == JO  # Casino first: paid $3
    assert d.spaces[0].building is None and d.spaces[0].mobster
    assert state.player(JO).lost_buildings == {"speakeasy": 1}
    kit.ok(state)


def test_003_40_1_jo_at_the_park_gains_5():
    """003:40.1 Jo at the Park gains $5: card 2e puts his Capo on the leftmost free Park space and pays $5 (then
    its Sell)."""
    state = solo_paused()
    park_capo(state, ANN, 0)
    jo_turn(state, "2e")
    assert state.park == [ANN, JO, None] and pocket(state) == 5
    kit.ok(state)


def test_003_41_1_restaurant_lowest_booth_without_leverage_or_reward():
    """003:41.1 At the Restaurant Jo takes the lower-row space with the lowest Leverage cost (paying none, taking no
    reward)."""
    state = solo_paused()
    jo_turn(state, "1c")
    p = state.player(JO)
    assert state.booths[0] == JO and p.leverage == 0 and state.track[0] == ANN
    state = solo_paused()
    state.booths[0] = ANN
    state.player(ANN).capos -= 1
    helpers = len(state.player(JO).helpers)
    jo_turn(state, "1c")
    assert state.booths[1] == JO and len(state.player(JO).helpers) == helpers
    assert state.player(JO).leverage == 0
    kit.ok(state)


def test_003_41_1_restaurant_first_place_when_booths_taken():
    """003:41.1 Otherwise (every booth taken) he takes first place, and his Turn Order marker moves first."""
    state = solo_paused()
    for k in range(3):
        state.booths[k] = ANN
        state.player(ANN).capos -= 1
    jo_turn(state, "1c")
    assert state.first_place == [JO] and state.track[0] == JO
    assert state.order[0] == ANN  # this round still finishes in its starting order
    kit.ok(state)


def test_003_41_2_operating_casinos_pay_5_each_on_turn_order_change():
    """003:41.2 His Operating Casinos pay $5 each when turn order changes, whatever his position (a non-Operating
    one pays nothing); a player's Casinos pay by the chart."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 1, 0, "casino")
    jo_build(state, 2, 0, "casino")
    jo_build(state, 3, 0, "casino")
    set_cop(state, 3)
    ann_build(state, 4, 0, "casino")
    state.order = [ANN, JO]
    state.track = [JO, ANN]
    kit.give(state, JO, pocket=0)
    a = pocket(state, ANN)
    flow.start_round(state, [])
    assert pocket(state) == 10
    assert pocket(state, ANN) == a + R.sides["small"].casino_payouts[1]
    state.tasks.clear()
    flow.start_round(state, [])  # no change: nothing paid
    assert pocket(state) == 10
    state.tasks.clear()
    kit.ok(state)


def test_003_42_1_building_value_casino_nightclub_speakeasy_stills():
    """003:42.1 Building value: Casino > Nightclub > Speakeasy > Stills: Sell at Party 1 sells at the Casino, a
    Deliver at Fleet 1 fills the Casino, Protect at VIP 1 protects a Speakeasy before a Stills."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 1, 0, "speakeasy", barrel=True)
    jo_build(state, 2, 0, "casino", barrel=True)
    jo_build(state, 3, 0, "nightclub", barrel=True)
    kit.give(state, JO, levels={"party": 1})
    jo_action(state, "SEL")
    assert [state.districts[n - 1].spaces[0].building.barrel for n in (1, 2, 3)] == [True, False, True]
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 1, 0, "speakeasy")
    jo_build(state, 2, 0, "nightclub")
    jo_build(state, 3, 0, "casino")
    kit.give(state, JO, levels={"fleet": 1}, stills_barrels=1)
    jo_action(state, "DEL")
    assert [state.districts[n - 1].spaces[0].building.barrel for n in (1, 2, 3)] == [False, False, True]
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 1, 0, "stills")
    jo_build(state, 2, 0, "speakeasy")
    kit.give(state, JO, levels={"vip": 1})
    jo_action(state, "PROT")
    assert not state.districts[0].spaces[0].building.family and state.districts[1].spaces[0].building.family
    kit.ok(state)


def test_003_42_2_ties_lowest_district_number():
    """003:42.2 Unresolved ties go to the lowest district number: two Speakeasies with barrels, Party 1: the one in
    district 3 sells before district 7's; Deliver at Fleet 1 fills district 2 before 12."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 7, 0, barrel=True)
    jo_build(state, 3, 0, barrel=True)
    kit.give(state, JO, levels={"party": 1})
    jo_action(state, "SEL")
    assert not state.districts[2].spaces[0].building.barrel and state.districts[6].spaces[0].building.barrel
    jo_build(state, 12, 0)
    jo_build(state, 2, 1)
    kit.give(state, JO, levels={"fleet": 1}, stills_barrels=2)
    jo_action(state, "DEL")
    assert state.districts[1].spaces[1].building.barrel and not state.districts[11].spaces[0].building.barrel
    kit.ok(state)


def test_003_43_1_family_at_docks_left_to_right_top_to_bottom():
    """003:43.1 His Family Members at the Docks go left to right, top to bottom: the next free space of the zone."""
    state = solo_paused()
    clear_map(state)
    for _ in range(5):
        dock(state, ANN, DOWNTOWN)
    district_deck(state, 1)  # a Family Member icon, Downtown
    jo_action(state, "B-S")
    assert state.docks[DOWNTOWN][:6] == [ANN] * 5 + [JO]
    state.docks[DOWNTOWN][1] = None
    state.player(ANN).family_supply += 1
    state.jo.icons = []
    district_deck(state, 3)
    jo_action(state, "B-S")
    assert state.docks[DOWNTOWN][1] == JO
    kit.ok(state)


def test_003_44_1_levels_limit_him():
    """003:44.1 His Operations levels limit him like a player: Party 2 sells 2 of 3 barrels, VIP 1 protects one
    building, Stills 2 produces 2 barrels."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    for n in (1, 2, 3):
        jo_build(state, n, 0, barrel=True)
    jo_build(state, 4, 0, "stills")
    kit.give(state, JO, levels={"party": 2, "vip": 1, "stills": 2}, stills_barrels=0)
    jo_action(state, "SEL")
    assert sum(state.districts[n - 1].spaces[0].building.barrel for n in (1, 2, 3)) == 1
    jo_action(state, "PROT")
    assert sum(b.family for _d, _i, b in buildings(state, JO)) == 1
    jo_action(state, "PRO")
    assert state.player(JO).stills_barrels == 2
    kit.ok(state)


def test_003_44_1_only_operating_buildings_produce_receive_sell_control():
    """003:44.1 His buildings must be Operating to produce, receive, sell or control (score: count for goals):
    everything in a Cop district without protection is left out."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 3, 0, "stills")
    jo_build(state, 3, 1, "speakeasy", barrel=True)
    jo_build(state, 3, 2, "casino")
    set_cop(state, 3)
    d = state.districts[2]
    assert not any(operating(d, sp.building) for sp in d.spaces)
    kit.give(state, JO, levels={"stills": 3, "party": 3, "fleet": 3}, stills_barrels=2)
    jo_action(state, "PRO")
    assert state.player(JO).stills_barrels == 2  # no Operating Stills
    jo_action(state, "SEL")
    assert d.spaces[1].building.barrel and pocket(state) == 0
    jo_action(state, "DEL")
    assert not d.spaces[2].building.barrel and state.player(JO).stills_barrels == 2
    assert luciano.controllers(state, d) == []
    state.zone_goals = [3, 1, 2]  # Downtown: 2 buildings
    assert not zone_goal_met(state, JO, DOWNTOWN)
    kit.ok(state)


# --- 003:46.1-54.1 Jo's common choices --------------------------------------------------------------------------


def test_003_46_1_common_choices_are_automatic():
    """003:46.1 Jo's common choices need no decision: each of his actions runs with no prompt."""
    state = solo_paused()
    clear_map(state)
    district_deck(state, 1, 2)
    for code in ("B-S", "PRO", "DEL", "SEL", "PROT", "AMB", "COOK", "+V", "$3"):
        jo_action(state, code)
        assert kit.is_waiting(state), code
    kit.ok(state)


def test_003_48_1_deliver_from_stills_then_cheapest_ship_up_to_fleet_level():
    """003:48.1 Deliver: up to his Fleet level in barrels, first from his Stills, then from the cheapest Ship
    (Ship 1 empty: Ship 2 at $3 before Ship 3 at $3 and Ship 4 at $4), to his most valuable Operating buildings
    without a barrel."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 1, 0, "speakeasy")
    jo_build(state, 2, 0, "nightclub")
    jo_build(state, 3, 0, "casino")
    jo_build(state, 4, 0, "speakeasy", barrel=True)
    jo_build(state, 6, 0, "speakeasy")
    state.ships[0].barrels = 0
    before = [s.barrels for s in state.ships]
    kit.give(state, JO, levels={"fleet": 3}, stills_barrels=1, pocket=0)
    jo_action(state, "DEL")
    filled = [n for n in (1, 2, 3, 6) if state.districts[n - 1].spaces[0].building.barrel]
    assert filled == [1, 2, 3]  # Casino, Nightclub, then the Speakeasy of the lower district
    assert state.player(JO).stills_barrels == 0
    assert [s.barrels for s in state.ships] == [before[0], before[1] - 2, before[2], before[3]]
    assert pocket(state) == 0
    kit.ok(state)


def test_003_49_1_sell_up_to_party_level_at_infamy_price():
    """003:49.1 Sell: up to his Party level, at his Infamy price, most valuable buildings first: Infamy 12, Party
    2: the Casino ($11) and the Nightclub ($8), not the Speakeasy."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 1, 0, "speakeasy", barrel=True)
    jo_build(state, 2, 0, "nightclub", barrel=True)
    jo_build(state, 3, 0, "casino", barrel=True)
    kit.give(state, JO, levels={"party": 2}, infamy=12, pocket=0)
    jo_action(state, "SEL")
    assert pocket(state) == 11 + 8
    assert state.districts[0].spaces[0].building.barrel
    kit.ok(state)


def test_003_50_1_build_draws_until_he_can_open_or_take_over():
    """003:50.1 Build: draw a District card; if he cannot open or take over there (a blocked district, a full
    one), keep drawing."""
    state = solo_paused()
    clear_map(state)
    fill(state, 4)
    district_deck(state, 5, 4, 8, 1)
    jo_action(state, "B-S")
    assert state.jo.drawn == [5, 4, 8]
    assert state.districts[7].spaces[0].building.owner == JO
    kit.ok(state)


def test_003_50_2_never_pays_no_benefit_no_upgrade_left_to_right_takes_tile():
    """003:50.2 He never pays, gains no building benefit (the row space's Leverage, card...), never upgrades (his
    Speakeasy stays while a Nightclub is opened beside it), builds on the leftmost/top free space and takes the
    City tile."""
    state = solo_paused()
    clear_map(state)
    jo_build(state, 8, 0, "speakeasy")
    tile = state.districts[7].spaces[1].tile
    district_deck(state, 8)
    p = state.player(JO)
    kit.give(state, JO, pocket=7)
    before = (p.leverage, p.books, p.family_vip, len(p.helpers), dict(p.levels), p.goons, len(p.hand))
    jo_action(state, "B-N")
    d = state.districts[7]
    assert d.spaces[0].building.kind == "speakeasy" and d.spaces[1].building.kind == "nightclub"
    assert d.spaces[2].building is None
    assert p.rows["nightclub"] == [False, True, True] and p.rows["speakeasy"] == [False] + [True] * 7
    assert tile in p.tiles and p.pocket == 7
    assert (p.leverage, p.books, p.family_vip, len(p.helpers), dict(p.levels), p.goons, len(p.hand)) == before
    kit.ok(state)


def test_003_50_3_family_icon_sends_a_family_member_to_that_docks_zone():
    """003:50.3 The first card with a Family Member icon sends one of his Family Members to that Docks Zone:
    Garment District (7) is Midtown."""
    state = solo_paused()
    clear_map(state)
    district_deck(state, 7)
    jo_action(state, "B-S")
    assert state.docks[MIDTOWN].count(JO) == 1 and state.player(JO).family_supply == 7
    assert state.docks[DOWNTOWN].count(JO) == state.docks[UPTOWN].count(JO) == 0
    kit.ok(state)


def test_003_50_3_helper_icon_takes_most_valuable_bottle_he_lacks():
    """003:50.3 The first card with a Helper icon takes the most valuable bottle he lacks from the display: Gin,
    Champagne, Moonshine shown: the Champagne; owning a Champagne already, the Gin; two of one bottle: the left
    one."""
    state = solo_paused()
    clear_map(state)
    set_display(state, 4, 16, 0)
    district_deck(state, 2)
    jo_action(state, "B-S")
    assert state.player(JO).helpers == [16] and 16 not in state.helper_display
    assert None not in state.helper_display
    state = solo_paused()
    clear_map(state)
    give_helper(state, JO, 17)
    set_display(state, 4, 16, 0)
    district_deck(state, 6)
    jo_action(state, "B-S")
    assert state.player(JO).helpers == [17, 4]
    state = solo_paused()
    clear_map(state)
    set_display(state, 1, 13, 12)
    district_deck(state, 11)
    jo_action(state, "B-S")
    assert state.player(JO).helpers == [13]
    kit.ok(state)


def test_003_50_4_later_icons_that_turn_are_ignored():
    """003:50.4 Later icons that turn are ignored: card 1a (Build, Build) drawing district 1 then district 3 (both
    Family Member icons) sends one Family Member only; the next turn's first icon counts again."""
    state = solo_paused()
    clear_map(state)
    district_deck(state, 1, 3, 12)
    jo_turn(state, "1a")
    assert sum(z.count(JO) for z in state.docks) == 1 and state.docks[DOWNTOWN].count(JO) == 1
    assert state.districts[0].spaces[0].building.owner == JO and state.districts[2].spaces[0].building.owner == JO
    district_deck(state, 12)
    jo_turn(state, "0W5")
    assert state.docks[UPTOWN].count(JO) == 1
    kit.ok(state)


def test_003_50_5_district_deck_reshuffled_at_acts_1_to_3_and_when_empty():
    """003:50.5 The District deck is reshuffled at the start of Acts 1-3 (all 16 back) or when empty; not at Act
    4."""
    state = solo_paused()
    assert state.jo.drawn == [] and len(state.jo.districts) == 16  # Act 1 starts with a full deck
    for act in (2, 3):
        state.jo.drawn = state.jo.districts[:5]
        state.jo.districts = state.jo.districts[5:]
        state.act = act
        setup.start_act(state, [])
        assert state.jo.drawn == [] and len(state.jo.districts) == 16
    state.jo.drawn = state.jo.districts[:5]
    state.jo.districts = state.jo.districts[5:]
    state.act = 4
    setup.start_act(state, [])
    assert len(state.jo.drawn) == 5 and len(state.jo.districts) == 11
    state.jo.drawn = list(range(1, 17))
    state.jo.districts = []
    card = setup.draw_district(state)
    assert 1 <= card <= 16 and state.jo.drawn == [card] and len(state.jo.districts) == 15
    kit.ok(state)


def test_003_51_1_get_protection_up_to_vip_level_ignoring_leverage():
    """003:51.1 Get Protection: up to his VIP level of Family Members from his supply, ignoring Leverage (Cop
    districts and Heat cost him nothing)."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    for n in (1, 2, 3, 4):
        jo_build(state, n, 0)
    set_cop(state, 1)
    set_cop(state, 2)
    kit.give(state, JO, levels={"vip": 3}, infamy=16, leverage=0)
    jo_action(state, "PROT")
    p = state.player(JO)
    assert sum(b.family for _d, _i, b in buildings(state, JO)) == 3
    assert p.family_supply == 5 and p.leverage == 0 and p.family_vip == 0
    kit.ok(state)


def test_003_51_1_protection_order_cops_barrels_value_zone():
    """003:51.1 First buildings in Cop districts, then buildings with barrels, then more valuable ones, then
    Uptown, Downtown, Midtown."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    jo_build(state, 1, 0, "casino")  # Downtown Casino
    jo_build(state, 2, 0, "speakeasy", barrel=True)  # barrel
    jo_build(state, 3, 0, "speakeasy")  # Cop district
    jo_build(state, 6, 0, "speakeasy")  # Midtown
    jo_build(state, 11, 0, "speakeasy")  # Uptown
    jo_build(state, 4, 0, "speakeasy")  # Downtown
    set_cop(state, 3)
    order = []
    for _ in range(6):
        kit.give(state, JO, levels={"vip": 1})
        before = {(d.number, i) for d, i, b in buildings(state, JO) if b.family}
        jo_action(state, "PROT")
        now = {(d.number, i) for d, i, b in buildings(state, JO) if b.family}
        order += [n for n, _i in now - before]
    assert order == [3, 2, 1, 11, 4, 6]
    kit.ok(state)


def ambush_setup(state, barrels=(1, 5, 5, 2), ports=(2, 13, 4, 11)):
    for sh, n, port in zip(state.ships, barrels, ports, strict=True):
        sh.barrels = n
        set_port(state, sh.number, port)


def test_003_52_1_jo_ambushes_the_ship_with_most_barrels():
    """003:52.1 Ambush: no strength, no Family Members needed; the Ship with most barrels, the lowest district on
    a tie (Ships 2 and 3 hold 5: Ship 3 lies at district 4, Ship 2 at 13)."""
    state = solo_paused()
    clear_map(state)
    ambush_setup(state)
    jo_action(state, "AMB")
    assert state.ships[2].barrels == 4 and state.ships[1].barrels == 5
    assert state.ships[2].port != 4
    assert state.player(JO).ambushes == 1
    kit.ok(state)


@pytest.mark.parametrize(("act", "money"), [(1, 5), (2, 10), (3, 15), (4, 15)])
def test_003_52_1_ambush_pays_5_10_15_by_act_instead_of_crate_cash(act, money):
    """003:52.1 He gains $5 in Act 1, $10 in Act 2, $15 in Acts 3-4 instead of the Crate's cash."""
    state = solo_paused()
    clear_map(state)
    ambush_setup(state)
    state.act = act
    kit.give(state, JO, pocket=0)
    crate = state.ships[2].crate
    jo_action(state, "AMB")
    assert pocket(state) == money
    assert crate is None or crate in state.player(JO).crates
    kit.ok(state)


def test_003_52_2_keeps_crate_places_barrel_returns_family_moves_ship():
    """003:52.2 He keeps the Crate, puts the barrel at his best Operating building without one (or his Stills
    area), returns one of his Family Members from that Dock to his supply and moves the Ship."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    ambush_setup(state)
    state.ships[2].crate = state.crate_stack.pop(0) if state.ships[2].crate is None else state.ships[2].crate
    crate = state.ships[2].crate
    jo_build(state, 1, 0, "speakeasy")
    jo_build(state, 2, 0, "nightclub")
    dock(state, JO, DOWNTOWN)
    jo_action(state, "AMB")
    p = state.player(JO)
    assert crate in p.crates and state.ships[2].crate is None
    assert state.districts[1].spaces[0].building.barrel and not state.districts[0].spaces[0].building.barrel
    assert JO not in state.docks[DOWNTOWN] and p.family_supply == 8
    assert state.ships[2].port != 4 and 4 in state.port_box
    # No room at a building: the barrel goes to his Stills area.
    state.districts[0].spaces[0].building.barrel = True
    kit.give(state, JO, stills_barrels=0)
    jo_action(state, "AMB")
    assert p.stills_barrels == 1
    kit.ok(state)


def test_003_52_3_you_pay_jo_1_per_jo_family_member_you_use():
    """003:52.3 When you ambush, Jo gets $1 from your pocket per Jo Family Member you use."""
    state = solo_paused()
    clear_map(state)
    ambush_setup(state)
    dock(state, ANN, DOWNTOWN)
    dock(state, JO, DOWNTOWN)
    kit.give(state, ANN, pocket=10, goons=3)
    kit.give(state, JO, pocket=0)
    kit.task(state, "ambush", ANN)
    option = next(i for i in kit.ids(state) if i.startswith("amb:3:"))
    crate = state.ships[2].crate
    kit.answer(state, option)
    cash = R.docks.crates[crate].cash if crate is not None else 0
    assert pocket(state) == 1
    assert pocket(state, ANN) == 10 - 1 + cash
    kit.ok(state)


def test_003_52_3_jo_ambush_pays_you_1_per_your_family_member_there():
    """003:52.3 When Jo ambushes, you get $1 from the bank for each of your Family Members at that Dock."""
    state = solo_paused()
    clear_map(state)
    ambush_setup(state)
    dock(state, ANN, DOWNTOWN)
    dock(state, ANN, DOWNTOWN)
    dock(state, ANN, UPTOWN)
    kit.give(state, ANN, pocket=4)
    jo_action(state, "AMB")  # Ship 3, Downtown (district 4)
    assert pocket(state, ANN) == 6
    kit.ok(state)


def cook_state():
    """A paused solo game for Cook the Books: an empty city, Downtown goal 2 buildings, Midtown 3 districts,
    Uptown 4 barrels; Jo's levels all 1 but Fleet 2."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    state.zone_goals = [3, 1, 8]
    kit.give(state, JO, levels={"vip": 1, "party": 1, "stills": 1, "fleet": 2}, pocket=0, infamy=5)
    return state


def test_003_53_1_cook_zone_goals_first_then_city_hall():
    """003:53.1 Cook Books: up to 3 Books in this order: Zone goals (+$20 each and his lowest Operations level
    goes up), then City Hall (+$20)."""
    state = cook_state()
    jo_build(state, 1, 0)
    jo_build(state, 2, 0)
    jo_action(state, "COOK")
    p = state.player(JO)
    assert state.zone_books[DOWNTOWN] == [JO]
    assert [JO, state.act] in state.city_hall_books
    assert p.levels["vip"] == 2 and p.levels["party"] == 1  # one Zone goal, one level (the lowest: VIP)
    # Zone goal $20 + City Hall $20; only 2 placed, so also one Central Park Book ($10).
    assert p.pocket == 20 + 20 + 10 and p.book_supply == 7 and state.park_books.count(JO) == 1
    kit.ok(state)


def test_003_53_1_cook_city_hall_then_docks_then_infamy():
    """003:53.1 With no Zone goal met: City Hall (+$20), then the Docks (+$15, where he has a Family Member), then
    the Infamy track (the space's money and his lowest level goes up)."""
    state = cook_state()
    dock(state, JO, MIDTOWN)
    kit.give(state, JO, infamy=12)
    jo_action(state, "COOK")
    p = state.player(JO)
    assert [JO, state.act] in state.city_hall_books
    assert state.docks_books[MIDTOWN] == [JO]
    assert state.infamy_books.get("11") == [JO]
    assert p.pocket == 20 + 15 + 10
    assert p.levels["vip"] == 2 and p.book_supply == 7
    assert state.park_books.count(JO) == 0  # 3 placed: no Central Park Book
    kit.ok(state)


def test_003_53_1_zone_goal_pays_20_and_raises_lowest_level():
    """003:53.1 A Zone goal: +$20 and his lowest Operations level goes up (with Infamy)."""
    state = cook_state()
    jo_build(state, 1, 0)
    jo_build(state, 2, 0)
    state.city_hall_books.append([JO, state.act])
    state.player(JO).book_supply -= 1
    jo_action(state, "COOK")
    p = state.player(JO)
    assert state.zone_books[DOWNTOWN] == [JO]
    assert p.levels["vip"] == 2 and p.infamy == 6
    # Zone goal $20, and (fewer than 3 placed) the Central Park Book $10.
    assert p.pocket == 20 + 10
    kit.ok(state)


def test_003_53_2_fewer_than_three_one_central_park_book():
    """003:53.2 If fewer than 3 were placed he puts exactly one Book on the leftmost free Central Park space for
    $10, ignoring its goal and benefit."""
    state = cook_state()
    state.park_books[0] = ANN
    state.player(ANN).book_supply -= 1
    jo_action(state, "COOK")  # City Hall only
    p = state.player(JO)
    assert state.park_books == [ANN, JO, None, None]
    assert p.pocket == 20 + 10 and p.book_supply == 8
    assert p.leverage == 0 and p.hand == [] and p.goons == 0  # no benefit
    jo_action(state, "COOK")  # nothing left but the Park: still exactly one
    assert state.park_books == [ANN, JO, JO, None] and p.pocket == 40 and p.book_supply == 7
    kit.ok(state)


def test_003_54_1_infamy_rewards_only_helper_and_safe_money():
    """003:54.1 Infamy track: Jo takes only the Helper card and safe-money rewards: from 7 to 13 he passes 8
    (Family Member: nothing), 10 (a Helper) and 12 ($10, to his one pool)."""
    state = solo_paused()
    kit.give(state, JO, infamy=7, pocket=0)
    set_display(state, 0, 4, 8)
    eco.gain_infamy(state, JO, 6, [])
    p = state.player(JO)
    assert p.infamy == 13
    assert p.family_supply == 8 and p.family_vip == 0 and all(JO not in z for z in state.docks)
    assert p.helpers == [8]
    assert p.pocket == 10 and p.safe == 0
    assert sorted(p.rewards) == [8, 10, 12]
    kit.ok(state)


# --- 003:56.1-60.1 Solo scoring --------------------------------------------------------------------------------


def end_state():
    """A paused solo game with both players' money, buildings and Helpers cleared for scoring."""
    state = solo_paused()
    clear_map(state)
    no_cops(state)
    for seat in (ANN, JO):
        p = state.player(seat)
        p.pocket = p.safe = 0
        for h in list(p.helpers):
            p.helpers.remove(h)
            state.helper_deck.append(h)
        state.city_piles[0] += p.tiles
        p.tiles = []
    state.act = 4
    return state


def score(state):
    acts.final_scoring(state, [])
    return kit.GAME.result(state)


def test_003_56_1_solo_scoring_at_the_end_of_a_game():
    """003:56.1 Solo scoring: a complete game's Jo total is his 2-player total plus $1 per City tile."""
    for seed, diff in GAMES[:6]:
        state, _e, _s = random_game(seed, diff)
        j = state.player(JO).final
        parts = j["pocket"] + j["safe"] + j["protected"] + j["bottles"] + j["variety"] + j["city_tiles"]
        assert j["total"] == parts and j["city_tiles"] == len(state.player(JO).tiles)


def test_003_58_1_both_scored_as_in_a_two_player_game():
    """003:58.1 Score both as in a 2-player game: money, Protected buildings, Helper bottles (with variety)."""
    state = end_state()
    kit.give(state, ANN, pocket=12, safe=8)
    ann_build(state, 1, 0, "casino", family=True)
    give_helper(state, ANN, 0)
    give_helper(state, ANN, 4)
    give_helper(state, ANN, 8)
    kit.give(state, JO, pocket=30)
    jo_build(state, 2, 0, "nightclub", family=True)
    jo_build(state, 3, 0, "speakeasy")  # not protected: nothing
    give_helper(state, JO, 16)
    score(state)
    a, j = state.player(ANN).final, state.player(JO).final
    assert a["total"] - a["achievements"] == 12 + 8 + 15 + (1 + 2 + 3) + 5
    assert j["total"] == 30 + 10 + 5 + 0
    kit.ok(state)


def test_003_58_2_jo_gets_1_per_city_tile():
    """003:58.2 Jo also gets $1 per City tile on his board (you do not)."""
    state = end_state()
    give_tiles(state, JO, 7)
    give_tiles(state, ANN, 4)
    kit.give(state, JO, pocket=10)
    kit.give(state, ANN, pocket=10)
    score(state)
    assert state.player(JO).final["city_tiles"] == 7 and state.player(JO).final["total"] == 17
    assert state.player(ANN).final["total"] - state.player(ANN).final["achievements"] == 10
    kit.ok(state)


def test_003_58_3_you_win_only_with_more_money():
    """003:58.3 You win only with more money than Jo: a tie is Jo's win; one dollar more is yours."""
    for extra, winner in ((0, JO), (1, ANN)):
        state = end_state()
        kit.give(state, JO, pocket=40)
        kit.give(state, ANN, pocket=0, safe=40 + extra, infamy=5)
        lose(state, ANN, "speakeasy")  # no achievement (not Untouchable)
        result = score(state)
        assert result.winners == (winner,)
        assert state.player(ANN).final["achievements"] == 0
    kit.ok(state)


def test_003_60_1_achievements_add_10_after_the_win_is_decided():
    """003:60.1 Each achievement adds $10 after scoring: tied with Jo, two achievements (+$20) do not make a win
    and the rank is Goon."""
    state = end_state()
    kit.give(state, JO, pocket=50)
    kit.give(state, ANN, pocket=50, infamy=20, ambushes=3)
    result = score(state)
    assert set(state.jo.achievements) >= {"public_enemy", "rum_pirate"}
    bonus = 10 * len(state.jo.achievements)
    assert state.player(ANN).final["achievements"] == bonus and state.player(ANN).final["total"] == 50 + bonus
    assert result.winners == (JO,) and state.jo.rank == "Goon"
    kit.ok(state)


def test_003_60_1_margin_gives_a_rank_from_goon_to_godfather():
    """003:60.1 Your margin over Jo (achievements included) gives a rank: a $5 win with one achievement is a $15
    margin: Associate; a $95 win with Untouchable ($10) is $105: Godfather."""
    for lead, expect in ((5, "Associate"), (95, "Godfather"), (30, "Capo")):
        state = end_state()
        kit.give(state, JO, pocket=20)
        kit.give(state, ANN, pocket=20 + lead)
        result = score(state)
        assert state.jo.achievements == ["untouchable"]
        assert result.winners == (ANN,)
        assert state.jo.rank == expect, (lead, state.jo.rank)
        assert f"Rank: {expect}" in result.details
    kit.ok(state)


# --- Jo spends money only in Mob Wars (003:39.1-2, over complete games) -------------------------------------------


def test_jo_spends_money_only_in_mob_wars(monkeypatch):
    """003:39.1-2 Over complete random solo games (20 seeds at each difficulty), Jo's money never decreases except
    in his Mob War defences (``jo_defend``, never more than the attack or what he has), and is never negative."""
    problems: list[str] = []
    defences = [0]

    def wrap(kind, fn):
        def run(state, *args):
            jo = state.jo.seat if state.jo is not None else None
            before = state.player(jo).pocket + state.player(jo).safe if jo is not None else 0
            out = fn(state, *args)
            if jo is not None:
                after = state.player(jo).pocket + state.player(jo).safe
                if after < 0:
                    problems.append(f"{kind}: Jo's money {after}")
                if after < before:
                    if kind != "jo_defend":
                        problems.append(f"{kind}: Jo's money {before} -> {after}")
                    else:
                        task = args[0]
                        need = luciano.attack(state, state.districts[task.n - 1])
                        defences[0] += 1
                        if before - after != min(need, before):
                            problems.append(f"jo_defend paid {before - after}, attack {need}, had {before}")
            return out

        return run

    for kind, step in list(steps_mod.STEPS.items()):
        changes = {}
        if step.auto is not None:
            changes["auto"] = wrap(kind, step.auto)
        if step.choose is not None:
            changes["choose"] = wrap(kind, step.choose)
        monkeypatch.setitem(steps_mod.STEPS, kind, dataclasses.replace(step, **changes))
    for diff in (1, 2, 3, 4):
        for seed in range(1, 21):
            rng = random.Random(seed)
            state = kit.GAME.new(["Ann"], {"difficulty": diff}, 500 + seed)
            last = 0
            while state.phase != "over":
                p = kit.prompt(state)
                kit.GAME.apply(state, Choice(p.seat, p.kind, rng.choice(p.options).id))
                money = state.player(JO).pocket
                assert money >= 0
                last = money
            assert last >= 0
    assert problems == []
    assert defences[0] > 0  # Mob Wars did take his money
