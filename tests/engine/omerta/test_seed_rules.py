"""One or more tests for every sentence of seed 002 (the German Omerta rules), named by its id ``002:LINE.SENTENCE``.

The ids are those of ``shared/seeds/rule-index.md``. Flavour sentences (the story, the gangster headings) are
tested for what they imply about the game.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import Choice
from engine.omerta.cards import deck
from tests.engine.omerta.helpers import (
    GAME,
    NAMES,
    Pick,
    arrange,
    card_ids_in,
    card_of,
    card_points,
    cards_where,
    close_snap,
    finish_round_by_calling,
    hand,
    info,
    new_table,
    option_ids,
    play,
    points,
    private,
    prompt_of,
    refused,
    texts,
)


def _gangster_in_play(name: str) -> None:
    """``name`` is one of the 5 gangster cards; in a 5-player game one player represents it."""
    gangster = card_of(name)
    assert info(gangster).kind == "gangster"
    g, s = new_table(5, seed=3)
    assert [p.gangster for p in s.players].count(gangster) == 1
    seat = next(i for i, p in enumerate(s.players) if p.gangster == gangster)
    assert g.view(s, None)["players"][seat]["gangster"] == name


# --- 002:1-6, the story: reduce your stock of booze ------------------------------------------------------------


def test_002_1_1_the_night_of_the_call_opens_round_one_with_the_peek():
    s = GAME.new(list(NAMES[:4]), {}, 7)
    view = GAME.view(s, None)
    assert (view["round"], view["rounds"], view["phase"]) == (1, 4, "peek")
    assert {p.seat for p in GAME.prompts(s)} == {0, 1, 2, 3}
    assert all(p.kind == "peek" for p in GAME.prompts(s))


def test_002_2_1_a_call_bodes_ill_omerta_ends_the_round_for_everyone_at_once():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(1, 2), 1: p.many(10, 9), 2: p.many(8, 7)})
    events = play(g, s, 0, "turn", "omerta")
    assert "Anna calls OMERTA!" in texts(events)
    assert len([e for e in events if e.kind == "reveal"]) == 3
    assert s.history[-1].caller == 0
    assert (s.round, s.phase) == (2, "peek")


def test_002_3_1_the_warehouses_are_full_of_booze_forty_bottle_cards():
    d = deck()
    bottles = cards_where("bottle")
    assert len(bottles) == 40
    assert {info(c).value for c in bottles} == set(range(1, 11))
    assert len(bottles) > len(d.playing) / 2  # most of what is dealt is liquor


def test_002_3_2_reduce_your_stock_lowest_total_wins():
    g, s = new_table(3, seed=11)
    while not g.is_over(s):
        finish_round_by_calling(g, s)
    result = g.result(s)
    assert result is not None and result.lower_is_better
    assert result.winners == tuple(i for i, t in enumerate(result.scores) if t == min(result.scores))


def test_002_4_1_swap_much_for_little_lowers_your_points():
    g, s = new_table(3)
    p = Pick()
    ten, one = p(10), p(1)
    arrange(s, active=0, hands={0: [ten, *p.many(2, 3, 4)]}, draw=[one])
    before = card_points(s, 0)
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "swap:0")
    assert card_points(s, 0) == before - 9
    assert s.discard[-1] == ten


def test_002_5_1_destroy_the_booze_a_snapped_bottle_leaves_your_warehouse():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={1: p.many(5, 2, 3, 4)}, draw=[p(5)])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    play(g, s, 1, "snap", "slot:0")
    assert hand(s, 1)[0] is None
    assert card_points(s, 1) == 9
    assert info(s.discard[-1]).value == 5


def test_002_6_1_drinking_yourself_every_kept_bottle_counts_against_you():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(1, 1), 1: p.many(6, 7, 8), 2: p.many(9, 2)})
    play(g, s, 0, "turn", "omerta")
    assert s.history[-1].scores == [0, 21, 11]


# --- 002:8-11, gangsters and the deal --------------------------------------------------------------------------


def test_002_8_1_charles_luciano_is_a_gangster_card():
    _gangster_in_play("Charles Luciano")


def test_002_10_1_each_player_is_a_gangster_without_special_abilities():
    g, s = new_table(4, seed=5)
    gangsters = [p.gangster for p in s.players]
    assert len(set(gangsters)) == 4
    assert all(info(c).kind == "gangster" and info(c).power == "" and info(c).points == 0 for c in gangsters)
    # gangster cards are never dealt into play, so they can never fire anything
    assert not set(cards_where("gangster")) & set(deck().playing)
    in_play = {c for p in s.players for c in p.slots} | set(s.draw) | set(s.discard) | set(s.safe)
    assert not in_play & set(cards_where("gangster"))


def test_002_10_2_four_cards_face_down_each_from_a_well_shuffled_deck():
    deals = []
    for seed in (1, 2, 3):
        s = GAME.new(list(NAMES[:3]), {}, seed)
        for p in s.players:
            assert len(p.slots) == 4
            assert all(info(c).kind in ("bottle", "character") for c in p.slots)
        view = GAME.view(s, None)
        assert all(len(p["slots"]) == 4 and p["card_count"] == 4 for p in view["players"])
        assert set(card_ids_in(view)) == {s.discard[-1]}  # nothing dealt face down is shown
        deals.append([p.slots for p in s.players])
    assert deals[0] != deals[1] != deals[2]
    again = GAME.new(list(NAMES[:3]), {}, 1)
    assert [p.slots for p in again.players] == deals[0]


def test_002_11_1_everyone_secretly_looks_at_two_of_their_cards():
    g, s = new_table(3, peek=False)
    assert option_ids(g, s, 0, "peek") == ["0,1", "0,2", "0,3", "1,2", "1,3", "2,3"]
    events = play(g, s, 0, "peek", "1,3")
    (look,) = private(events)
    assert look.to == (0,)
    assert look.data["cards"] == {"1": s.players[0].slots[1], "3": s.players[0].slots[3]}
    assert texts(events, None) == ["Anna has peeked at 2 cards."]
    assert texts(events, 1) == texts(events, None)
    refused(g, s, Choice(0, "peek", "0,2"))  # once only
    assert not set(card_ids_in(g.view(s, 0))) - {s.discard[-1]}  # memorised, not shown again


# --- 002:13-21, Al Capone starts; a turn ----------------------------------------------------------------------


def test_002_13_1_al_capone_is_a_gangster_card_and_the_starter():
    _gangster_in_play("Al Capone")
    assert deck().starter == card_of("Al Capone")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_002_15_1_whoever_represents_al_capone_starts(players):
    for seed in range(1, 9):
        g, s = new_table(players, seed=seed)
        assert s.phase == "turn"
        assert s.players[s.active].gangster == card_of("Al Capone")
        assert prompt_of(g, s, s.active).kind == "turn"


def test_002_16_1_a_turn_is_simple_draw_take_or_call():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, draw=[p("alibi")], discard=[p(3)])
    assert option_ids(g, s, 0) == ["draw", "take", "omerta"]
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")  # the Alibi has no power: the turn is over
    assert (s.active, s.phase) == (1, "turn")


def test_002_17_1_draw_and_swap_with_own_card():
    g, s = new_table(3)
    p = Pick()
    own, drawn = p.many(9, 2)
    arrange(s, active=0, hands={0: [p(4), own, p(6), p(7)]}, draw=[drawn])
    play(g, s, 0, "turn", "draw")
    assert s.held == drawn and s.phase == "drawn"
    play(g, s, 0, "place", "swap:1")
    assert hand(s, 0)[1] == drawn
    assert s.discard[-1] == own


def test_002_18_1_swapped_out_card_unseen_before_then_face_up_on_discard():
    g, s = new_table(3)
    p = Pick()
    own = p("mole")
    arrange(s, active=0, hands={0: [own, *p.many(4, 6, 7)]}, draw=[p(2)])
    events = play(g, s, 0, "turn", "draw")
    place = prompt_of(g, s, 0, "place")
    # the player chooses a slot by number only: no option, label or event names what is in it
    assert [o.label for o in place.options if o.id.startswith("swap:")] == [
        "Swap it into slot 1",
        "Swap it into slot 2",
        "Swap it into slot 3",
        "Swap it into slot 4",
    ]
    assert all("Mole" not in t for t in texts(events, 0))
    events = play(g, s, 0, "place", "swap:0")
    assert g.view(s, None)["discard_top"]["id"] == own
    assert any("out comes Mole" in t for t in texts(events, None))


def test_002_19_1_drawn_card_may_go_straight_to_the_discard_pile():
    g, s = new_table(3)
    p = Pick()
    drawn = p("alibi")
    arrange(s, active=0, hands={0: p.many(1, 2, 3, 4)}, draw=[drawn])
    before = hand(s, 0)
    play(g, s, 0, "turn", "draw")
    assert "discard" in option_ids(g, s, 0, "place")
    play(g, s, 0, "place", "discard")
    assert hand(s, 0) == before
    assert s.discard[-1] == drawn
    assert g.view(s, 1)["discard_top"]["name"] == "Alibi"


def test_002_20_1_take_the_top_discard_card_and_swap_it_in():
    g, s = new_table(3)
    p = Pick()
    top, own = p.many(1, 8)
    arrange(s, active=0, hands={0: [p(4), p(5), own, p(6)]}, discard=[p(9), top])
    play(g, s, 0, "turn", "take")
    assert s.phase == "taken" and s.held == top
    assert g.view(s, 2)["holding"]["id"] == top  # it was face up: everyone knows it
    play(g, s, 0, "place", "swap:2")
    assert hand(s, 0)[2] == top
    assert s.discard[-1] == own


def test_002_21_1_taken_card_also_swapped_without_looking_and_not_discarded_again():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(4, 5, 6, 7)}, discard=[p(1)])
    play(g, s, 0, "turn", "take")
    place = prompt_of(g, s, 0, "place")
    assert [o.id for o in place.options] == ["swap:0", "swap:1", "swap:2", "swap:3"]
    assert all("Bottle" not in o.label for o in place.options)
    message = refused(g, s, Choice(0, "place", "discard"))
    assert "swap:0" in message


# --- 002:23-31, every card landing face up takes effect ------------------------------------------------------


def test_002_23_1_virginia_hill_is_a_gangster_card():
    # the seed spells the heading "Virgina Hill"; the decisions file and the card data say Virginia
    _gangster_in_play("Virginia Hill")


@pytest.mark.parametrize(
    ("landing", "how", "phase"),
    [(6, "discard", "snap"), (6, "swap:0", "snap"), ("mole", "discard", "power"), ("mole", "swap:0", "power")],
)
def test_002_25_1_every_card_landing_face_up_takes_effect(landing, how, phase):
    g, s = new_table(3)
    p = Pick()
    card = p(landing)
    if how == "discard":
        arrange(s, active=0, hands={0: p.many(1, 2, 3, 4)}, draw=[card])
    else:
        arrange(s, active=0, hands={0: [card, *p.many(2, 3, 4)]}, draw=[p(1)])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", how)
    assert s.discard[-1] == card
    assert s.phase == phase
    if phase == "snap":
        assert s.snap_value == 6
    else:
        assert s.power == "mole" and prompt_of(g, s, 0).kind == "mole"


def test_002_26_1_a_bottle_lets_one_more_identical_card_be_discarded():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={2: p.many(3, 8, 7, 6)}, draw=[p(8)])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    events = play(g, s, 2, "snap", "slot:1")
    assert hand(s, 2)[1] is None
    assert [info(c).value for c in s.discard[-2:]] == [8, 8]
    assert any("Cleo snaps slot 2: Bottle 8" in t for t in texts(events))
    assert s.phase == "turn"  # one more card, not a chain


def test_002_27_1_only_the_fastest_player_may_snap():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={1: p.many(5, 2, 3, 4), 2: p.many(5, 1, 3, 4)}, draw=[p(5)])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    play(g, s, 2, "snap", "slot:0")  # Cleo was faster
    refused(g, s, Choice(1, "snap", "slot:0"))
    assert info(hand(s, 1)[0]).value == 5
    assert hand(s, 2)[0] is None


def test_002_28_1_a_wrongly_discarded_card_earns_a_penalty_card():
    g, s = new_table(3)
    p = Pick()
    wrong = p(6)
    arrange(s, active=0, hands={1: [wrong, *p.many(2, 3, 4)]}, draw=[p(1), p(5)])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    events = play(g, s, 1, "snap", "slot:0")
    assert hand(s, 1)[0] == wrong
    assert len(hand(s, 1)) == 5
    assert any(e.kind == "penalty" for e in events)


def test_002_29_1_a_character_on_the_discard_pile_uses_its_power():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, draw=[p("lady")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    assert (s.phase, s.power) == ("power", "lady")
    assert prompt_of(g, s, 0).kind == "lady"


def test_002_30_1_a_power_can_be_very_good_for_the_active_player():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(9, 8, 1, 2)}, draw=[p("chauffeur")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    play(g, s, 0, "chauffeur", "drop:0,1")
    assert card_points(s, 0) == 3


def test_002_31_1_or_very_bad_for_the_opponents():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={1: p.many(1, 1, 2, 2)}, draw=[p(10), p(9), p("traitor")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    play(g, s, 0, "traitor", "give:1,1")
    assert len(hand(s, 1)) == 6
    assert card_points(s, 1) == 6 + 19


# --- 002:33-42, the characters ---------------------------------------------------------------------------------


def test_002_33_1_johnny_torrio_is_a_gangster_card():
    _gangster_in_play("Johnny Torrio")


def test_002_35_1_the_traitor_deals_opponents_two_cards_in_total():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, draw=[p(1), p(2), p("traitor")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    assert sorted(option_ids(g, s, 0, "traitor")) == ["decline", "give:1,1", "give:1,2", "give:2,2"]
    before = len(s.draw)
    play(g, s, 0, "traitor", "give:1,2")
    assert [len(hand(s, i)) for i in range(3)] == [4, 5, 5]
    assert len(s.draw) == before - 2


def test_002_36_1_the_mole_looks_at_one_of_your_own_cards():
    g, s = new_table(3)
    p = Pick()
    secret = p(7)
    arrange(s, active=0, hands={0: [p(1), p(2), secret, p(3)]}, draw=[p("mole")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    assert option_ids(g, s, 0, "mole") == ["look:0", "look:1", "look:2", "look:3", "decline"]
    events = play(g, s, 0, "mole", "look:2")
    (look,) = private(events)
    assert look.to == (0,) and {k: v for k, v in look.data.items() if k != "msg"} == {"slot": 2, "card": secret}
    assert "Bottle 7" in look.text
    assert all("Bottle 7" not in t for t in texts(events, 1))


def test_002_37_1_the_lady_shuffles_an_opponents_cards():
    changed = False
    for seed in range(1, 7):
        g, s = new_table(3, seed=seed)
        p = Pick()
        ben = p.many(1, 2, 3, 4, 5)
        arrange(s, active=0, hands={1: ben}, draw=[p("lady")])
        play(g, s, 0, "turn", "draw")
        play(g, s, 0, "place", "discard")
        assert "lady:0" not in option_ids(g, s, 0, "lady")  # an opponent's, never your own
        events = play(g, s, 0, "lady", "lady:1")
        assert sorted(hand(s, 1)) == sorted(ben)
        assert not private(events)  # nobody learns the new order
        changed |= hand(s, 1) != ben
    assert changed


def test_002_38_1_the_chauffeur_discards_up_to_two_own_bottles():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(6, 7, 1, 2)}, draw=[p("chauffeur")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    ids = option_ids(g, s, 0, "chauffeur")
    assert "drop:0" in ids and "drop:0,1" in ids
    assert max(len(i.split(",")) for i in ids if i.startswith("drop:")) == 2
    play(g, s, 0, "chauffeur", "drop:0,1")
    assert hand(s, 0)[:2] == [None, None]
    assert [info(c).value for c in s.discard[-2:]] == [6, 7]


def test_002_39_1_the_safecracker_looks_at_the_four_safe_cards_and_swaps_one():
    g, s = new_table(3)
    p = Pick()
    safe = p.many(1, 2, "alibi", 3)
    mine = p(10)
    arrange(s, active=0, hands={0: [mine, *p.many(4, 5, 6)]}, safe=safe, draw=[p("safecracker")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    events = play(g, s, 0, "safecracker", "look")
    (look,) = private(events)
    assert look.to == (0,) and look.data["safe"] == safe
    play(g, s, 0, "safe", "take:2")
    play(g, s, 0, "safe_slot", "slot:0")
    assert hand(s, 0)[0] == safe[2]
    assert s.safe == [safe[0], safe[1], mine, safe[3]]


def test_002_40_1_la_mamma_blocks_a_player_for_one_round():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, draw=[p("mamma")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    events = play(g, s, 0, "mamma", "mamma:1")
    assert "Ben skips this turn (La Mamma)." in texts(events)
    assert s.active == 2
    # only the one turn: next time round Ben plays again
    play(g, s, 2, "turn", "draw")
    play(g, s, 2, "place", "discard")
    close_snap(g, s)
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    close_snap(g, s)
    assert (s.active, s.phase) == (1, "turn")


def test_002_41_1_the_police_check_blocks_a_card_for_two_rounds():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, draw=[p(1), p(2), p(3), p(4), p(5), p(6), p("police")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    play(g, s, 0, "police", "hold:1,0")
    assert g.view(s, None)["players"][1]["slots"][0]["police"]
    laps = held_turns = 0
    while s.blocks:
        seat = s.active
        play(g, s, seat, "turn", "draw")
        if seat == 1:
            assert "swap:0" not in option_ids(g, s, 1, "place")
            held_turns += 1
        play(g, s, seat, "place", "discard")
        close_snap(g, s)
        laps += seat == 0
    # two rounds of the table: Ben's card was held in two of his turns, and the check ended as Anna's second
    # turn after playing it began (the decisions count the rounds in the user's turns)
    assert held_turns == 2 and laps == 1
    assert s.active == 0


def test_002_42_1_some_characters_three_times_others_twice_or_once():
    copies = Counter(info(c).power for c in cards_where("character"))
    assert sum(copies.values()) == 20 and len(copies) == 8
    assert set(copies.values()) == {3, 2, 1}


# --- 002:44-56, OMERTA and the scoring -------------------------------------------------------------------------


def test_002_44_1_meyer_lansky_is_a_gangster_card():
    _gangster_in_play("Meyer Lansky")


def test_002_46_1_omerta_only_in_your_own_turn_before_taking_a_card():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(1, 1, 2)}, draw=[p(3)])
    assert "omerta" in option_ids(g, s, 0, "turn")
    assert "nothing to decide" in refused(g, s, Choice(1, "turn", "omerta"))  # not Ben's turn
    play(g, s, 0, "turn", "draw")
    refused(g, s, Choice(0, "turn", "omerta"))
    assert all(o.id != "omerta" for pr in g.prompts(s) for o in pr.options)


@pytest.mark.parametrize(("caller_cards", "made_it"), [((3, 4), True), ((5, 2), True), ((5, 3), False)])
def test_002_47_1_the_caller_may_have_at_most_seven_points(caller_cards, made_it):
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(*caller_cards), 1: p.many(10, 9), 2: p.many(8, 9)})
    play(g, s, 0, "turn", "omerta")
    reveal = s.history[-1]
    assert reveal.caller_made_it is made_it
    caller_points = sum(caller_cards)
    assert reveal.scores[0] == (0 if made_it else caller_points + 20)


def test_002_48_1_characters_ten_to_twenty_points_the_alibi_zero():
    for c in cards_where("character"):
        card = info(c)
        if card.power == "alibi":
            assert card.points == 0
        else:
            assert 10 <= card.points <= 20
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many("alibi", 3), 1: p.many("mole", 1), 2: p.many("traitor")})
    play(g, s, 0, "turn", "omerta")
    assert s.history[-1].points == [3, 11, 20]


def test_002_49_1_so_the_characters_must_go_first():
    limit = deck().numbers["omerta_limit"]
    assert all(info(c).points > limit for c in cards_where("character") if info(c).power != "alibi")
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many("mole"), 1: p.many(10, 9), 2: p.many(10, 8)})
    play(g, s, 0, "turn", "omerta")
    assert s.history[-1].scores[0] == 10 + 20  # one Mole alone makes the call fail


def test_002_50_1_after_omerta_everyone_reveals_and_the_round_is_scored():
    g, s = new_table(3)
    p = Pick()
    hands = {0: p.many(1, 2), 1: p.many("lady", 4, 9), 2: p.many(3, 3, 5)}
    arrange(s, active=0, hands=hands)
    events = play(g, s, 0, "turn", "omerta")
    reveal = g.view(s, None)["reveal"]
    assert reveal["caller"] == 0
    for seat in range(3):
        assert [c["id"] for c in reveal["players"][seat]["cards"]] == hands[seat]
        assert reveal["players"][seat]["points"] == points(hands[seat])
    assert sum(e.kind == "reveal" and e.to is None for e in events) == 3
    assert any("Ben: Lady, Bottle 4, Bottle 9 = 28 points" in t for t in texts(events, None))


def test_002_52_1_caller_really_seven_or_fewer_and_nobody_fewer():
    g, s = new_table(3)
    p = Pick()
    # a tie for fewest is not "fewer": the caller still makes it
    arrange(s, active=0, hands={0: p.many(2, 3), 1: p.many(1, 4), 2: p.many(10)})
    play(g, s, 0, "turn", "omerta")
    assert s.history[-1].caller_made_it
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(2, 3), 1: p.many(1, 3), 2: p.many(10)})
    play(g, s, 0, "turn", "omerta")
    assert not s.history[-1].caller_made_it  # Ben has fewer


def test_002_53_1_then_zero_points_are_noted_for_the_caller():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=1, hands={0: p.many(10, 2), 1: p.many(4, 3), 2: p.many(9, "alibi")})
    events = play(g, s, 1, "turn", "omerta")
    assert s.players[1].round_scores == [0] and s.players[1].total == 0
    assert "Ben makes it and scores 0." in texts(events)
    assert g.view(s, None)["players"][1]["round_scores"] == [0]


def test_002_54_1_otherwise_caller_takes_twenty_and_the_fewest_scores_zero():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(6), 1: p.many(1, 2), 2: p.many(10, 2)})
    events = play(g, s, 0, "turn", "omerta")
    assert s.history[-1].scores == [26, 0, 12]
    assert "Anna fails and takes 20 penalty points." in texts(events)


def test_002_55_1_all_others_count_their_points():
    g, s = new_table(4)
    p = Pick()
    arrange(s, active=2, hands={0: p.many(10, "mole"), 1: p.many(5, 5), 2: p.many(1), 3: p.many("alibi", 7, 2)})
    play(g, s, 2, "turn", "omerta")
    assert s.history[-1].scores == [20, 10, 0, 9]


def test_002_56_1_points_add_up_over_the_rounds_then_the_overall_winner():
    g, s = new_table(3, seed=4)
    rounds = 0
    while not g.is_over(s):
        finish_round_by_calling(g, s)
        rounds += 1
    assert rounds == 3
    for player, seat_scores in zip(s.players, zip(*(r.scores for r in s.history), strict=True), strict=True):
        assert player.round_scores == list(seat_scores)
        assert player.total == sum(seat_scores)
    result = g.result(s)
    assert result is not None
    assert result.scores == tuple(p.total for p in s.players)
    assert g.view(s, None)["winners"] == list(result.winners)
    refused(g, s, Choice(s.active, "turn", "draw"))
