"""One or more tests for every bullet of ``shared/design/omerta-decisions.md`` and of the bot-specific decisions.

Test names: ``test_decision_<section>_<what>``. The sections follow the decisions file: cards (with
police_check for the Police Check), setup and later_round (round set-up), turn, snap, omerta, draw_pile and
round_ends (OMERTA and scoring), game, numbers (the values in data/omerta/cards.toml), and bot (the
bot-specific decisions listed in docs/rules/omerta.md). Positions are laid out with ``arrange``; every action
goes through ``OmertaGame.apply``.
"""

from __future__ import annotations

import tomllib
from collections import Counter

import pytest

from engine.core import TABLE, BadOptions, Choice
from engine.data import data_dir
from engine.omerta.cards import deck
from engine.omerta.scoring import score_round
from tests.engine.omerta.helpers import (
    GAME,
    NAMES,
    Pick,
    arrange,
    card_ids_in,
    card_of,
    cards_where,
    close_snap,
    finish_round_by_calling,
    hand,
    info,
    new_table,
    option_ids,
    play,
    private,
    prompt_of,
    refused,
    texts,
)

LIMIT = deck().numbers["omerta_limit"]
PENALTY = deck().numbers["caller_penalty"]


def _land(g, s, *, active=0, hands=None, draw=(), discard=(), safe=None):
    """Arrange the table, then the active player draws the top card and discards it."""
    arrange(s, active=active, hands=hands, draw=draw, discard=discard, safe=safe)
    play(g, s, active, "turn", "draw")
    return play(g, s, active, "place", "discard")


def _pass_turn(g, s):
    """The active player draws and discards (closing a snap window if one opens)."""
    seat = s.active
    play(g, s, seat, "turn", "draw")
    events = play(g, s, seat, "place", "discard")
    if s.phase == "snap":
        events += close_snap(g, s)
    while s.phase == "power":
        events += play(g, s, s.active, s.power, "decline" if s.power != "safe" else "keep")
    return events


# --- Cards (65) ----------------------------------------------------------------------------------------------


def test_decision_cards_sixty_five_cards():
    d = deck()
    kinds = Counter(c.kind for c in d.cards)
    assert kinds == {"gangster": 5, "bottle": 40, "character": 20}
    assert [c.id for c in d.cards] == list(range(65))


def test_decision_cards_five_named_gangsters():
    names = [info(c).name for c in cards_where("gangster")]
    assert names == ["Charles Luciano", "Al Capone", "Virginia Hill", "Johnny Torrio", "Meyer Lansky"]


def test_decision_cards_gangsters_only_seat_players_and_pick_the_first_start():
    d = deck()
    assert set(d.gangsters) == set(cards_where("gangster"))
    assert not set(d.gangsters) & set(d.playing)
    g, s = new_table(5, seed=9)
    assert sorted(p.gangster for p in s.players) == sorted(d.gangsters)
    assert s.box == []
    g, s = new_table(3, seed=9)
    assert sorted([p.gangster for p in s.players] + s.box) == sorted(d.gangsters)
    assert s.players[s.start_seat].gangster == d.starter


@pytest.mark.parametrize("players", [3, 4])
def test_decision_cards_al_capone_always_dealt_with_fewer_than_five_players(players):
    capone = card_of("Al Capone")
    others = Counter()
    for seed in range(40):
        s = GAME.new(list(NAMES[:players]), {}, seed)
        dealt = [p.gangster for p in s.players]
        assert capone in dealt and capone not in s.box
        others.update(dealt)
    assert len(others) == 5  # the other gangsters vary


def test_decision_cards_bottles_four_of_each_value():
    values = Counter(info(c).value for c in cards_where("bottle"))
    assert values == {v: 4 for v in range(1, 11)}


def test_decision_cards_bottle_points_equal_value():
    assert all(info(c).points == info(c).value for c in cards_where("bottle"))


@pytest.mark.parametrize(
    ("power", "label", "copies", "points_"),
    [
        ("traitor", "Traitor", 3, 20),
        ("mole", "Mole", 3, 10),
        ("lady", "Lady", 3, 15),
        ("chauffeur", "Chauffeur", 3, 15),
        ("police", "Police Check", 3, 15),
        ("mamma", "La Mamma", 2, 20),
        ("safecracker", "Safecracker", 2, 20),
        ("alibi", "Alibi", 1, 0),
    ],
)
def test_decision_cards_character_kinds_copies_and_points(power, label, copies, points_):
    cards = cards_where(power)
    assert len(cards) == copies
    assert {(info(c).name, info(c).points, info(c).kind) for c in cards} == {(label, points_, "character")}


def test_decision_cards_traitor_two_cards_to_one_opponent():
    g, s = new_table(3)
    p = Pick()
    top2 = p.many(3, 4)
    _land(g, s, draw=[*top2, p("traitor")])
    events = play(g, s, 0, "traitor", "give:2,2")
    assert hand(s, 2)[4:] == top2[::-1]  # the next two cards of the draw pile, into new slots 5 and 6
    assert len(hand(s, 1)) == 4
    assert "Anna (Traitor) deals 2 cards face down to Cleo." in texts(events)


def test_decision_cards_traitor_one_card_each_to_two_opponents():
    g, s = new_table(4)
    p = Pick()
    _land(g, s, draw=[p(3), p(4), p("traitor")])
    assert "give:0,0" not in option_ids(g, s, 0, "traitor") and "give:1,3" in option_ids(g, s, 0, "traitor")
    play(g, s, 0, "traitor", "give:1,3")
    assert [len(hand(s, i)) for i in range(4)] == [4, 5, 4, 5]


def test_decision_cards_traitor_cards_are_face_down_and_unseen():
    g, s = new_table(3)
    p = Pick()
    given = p.many(3, 4)
    _land(g, s, draw=[*given, p("traitor")])
    events = play(g, s, 0, "traitor", "give:1,1")
    assert not private(events)
    assert all("Bottle 3" not in t and "Bottle 4" not in t for t in texts(events))
    for seat in (None, 0, 1, 2):
        assert not set(card_ids_in(g.view(s, seat))) & set(given)
    assert g.view(s, None)["players"][1]["card_count"] == 6


def test_decision_cards_mole_looks_privately_at_one_own_card():
    g, s = new_table(3)
    p = Pick()
    own = p("alibi")
    events = _land(g, s, hands={0: [p(5), own, p(6), p(7)]}, draw=[p("mole")])
    assert prompt_of(g, s, 0).kind == "mole"
    assert not any(pr.seat != 0 for pr in g.prompts(s))
    events = play(g, s, 0, "mole", "look:1")
    assert [e.to for e in private(events)] == [(0,)]
    assert private(events)[0].data["card"] == own
    assert all("Alibi" not in t for t in texts(events, None) + texts(events, 1) + texts(events, 2))
    assert own not in set(card_ids_in(g.view(s, 0)))


def test_decision_cards_lady_shuffles_an_opponents_cards_among_their_slots():
    g, s = new_table(3, seed=2)
    p = Pick()
    ben = [p(1), None, p(2), p(3), p(4)]
    _land(g, s, hands={1: ben}, draw=[p("lady")])
    assert option_ids(g, s, 0, "lady") == ["lady:1", "lady:2", "decline"]
    play(g, s, 0, "lady", "lady:1")
    after = hand(s, 1)
    assert after[1] is None  # an emptied slot stays a gap
    assert sorted(c for c in after if c is not None) == sorted(c for c in ben if c is not None)
    assert len(after) == 5


def test_decision_cards_lady_needs_an_opponent_with_two_cards_to_shuffle():
    g, s = new_table(3)
    p = Pick()
    _land(g, s, hands={1: [p(1), None, None, None], 2: [None, p(2)]}, draw=[p("lady")])
    assert s.phase == "turn" and s.active == 1  # no possible target: skipped


def test_decision_cards_chauffeur_names_slots_by_memory_unseen():
    g, s = new_table(3)
    p = Pick()
    _land(g, s, hands={0: [p(1), None, p(2), p(3)]}, draw=[p("chauffeur")])
    pr = prompt_of(g, s, 0, "chauffeur")
    assert not pr.secret
    assert [o.id for o in pr.options] == [
        "drop:0",
        "drop:2",
        "drop:3",
        "drop:0,2",
        "drop:0,3",
        "drop:2,3",
        "decline",
    ]
    assert all("Bottle" not in o.label for o in pr.options)


def test_decision_cards_chauffeur_bottle_discarded_without_a_snap():
    g, s = new_table(3)
    p = Pick()
    four = p(4)
    _land(g, s, hands={0: [four, p(9), p(1), p(2)], 1: p.many(4, 4, 1, 1)}, draw=[p("chauffeur")])
    events = play(g, s, 0, "chauffeur", "drop:0")
    assert hand(s, 0)[0] is None and s.discard[-1] == four
    assert not any(e.kind == "snap_open" for e in events)
    assert s.phase == "turn" and s.active == 1  # no snap window: Ben's turn


def test_decision_cards_chauffeur_non_bottle_revealed_goes_back_with_a_penalty_card():
    g, s = new_table(3)
    p = Pick()
    mole, nine, penalty = p("mole"), p(9), p(2)
    _land(g, s, hands={0: [mole, nine, p(1), p(2)]}, draw=[penalty, p("chauffeur")])
    events = play(g, s, 0, "chauffeur", "drop:0,1")
    assert hand(s, 0) == [mole, None, hand(s, 0)[2], hand(s, 0)[3], penalty]
    assert any("slot 1: Mole, not a bottle; it goes back" in t for t in texts(events, None))
    assert any("penalty card face down into slot 5" in t for t in texts(events, None))
    assert penalty not in set(card_ids_in(g.view(s, 0)))


def test_decision_police_check_targets_any_card_own_or_opponent():
    g, s = new_table(3)
    p = Pick()
    _land(g, s, hands={0: [p(1), None, p(2), p(3)]}, draw=[p("police")])
    ids = option_ids(g, s, 0, "police")
    assert {"hold:0,0", "hold:0,2", "hold:1,0", "hold:2,3"} <= set(ids)
    assert "hold:0,1" not in ids  # an empty slot holds no card
    play(g, s, 0, "police", "hold:0,2")
    assert g.view(s, None)["players"][0]["slots"][2]["police"]


def _police(g, s, target, slot, *, hands, draw=(), safe=None):
    """Anna plays a Police Check on ``target``'s ``slot`` (the Police Check is the top card of the draw pile)."""
    _land(g, s, hands=hands, draw=[*draw, card_of("police")], safe=safe)
    play(g, s, 0, "police", f"hold:{target},{slot}")


def test_decision_police_check_card_cannot_be_swapped():
    g, s = new_table(3)
    p = Pick()
    _police(g, s, 1, 2, hands={1: p.many(1, 2, 3, 4)}, draw=[p("alibi")])
    assert s.active == 1
    play(g, s, 1, "turn", "take")
    assert option_ids(g, s, 1, "place") == ["swap:0", "swap:1", "swap:3"]
    refused(g, s, Choice(1, "place", "swap:2"))


def test_decision_police_check_card_cannot_be_snapped():
    g, s = new_table(3)
    p = Pick()
    _police(g, s, 1, 0, hands={1: p.many(5, 1, 2, 3)}, draw=[p(5)])
    play(g, s, 1, "turn", "draw")
    play(g, s, 1, "place", "discard")
    assert s.phase == "snap"
    assert option_ids(g, s, 1, "snap") == ["slot:1", "slot:2", "slot:3"]
    refused(g, s, Choice(1, "snap", "slot:0"))


def test_decision_police_check_card_is_not_shuffled_by_the_lady():
    for seed in range(1, 6):
        g, s = new_table(3, seed=seed)
        p = Pick()
        ben = p.many(1, 2, 3, 4)
        _police(g, s, 1, 1, hands={0: p.many(9, 9, 9, 9), 1: ben}, draw=[p("lady"), p(8), p(8)])
        _pass_turn(g, s)  # Ben
        _pass_turn(g, s)  # Cleo
        assert s.blocks
        play(g, s, 0, "turn", "draw")
        play(g, s, 0, "place", "discard")
        play(g, s, 0, "lady", "lady:1")
        assert hand(s, 1)[1] == ben[1]


def test_decision_police_check_card_is_not_given_to_the_safe():
    g, s = new_table(3)
    p = Pick()
    _police(g, s, 0, 0, hands={0: p.many(1, 2, 3, 4)}, draw=[p("safecracker"), p(8), p(8)])
    _pass_turn(g, s)
    _pass_turn(g, s)
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    play(g, s, 0, "safecracker", "look")
    play(g, s, 0, "safe", "take:0")
    assert option_ids(g, s, 0, "safe_slot") == ["slot:1", "slot:2", "slot:3"]


def test_decision_police_check_card_cannot_be_named_by_the_chauffeur():
    g, s = new_table(3)
    p = Pick()
    _police(g, s, 0, 3, hands={0: p.many(1, 2, 3, 4)}, draw=[p("chauffeur"), p(8), p(8)])
    _pass_turn(g, s)
    _pass_turn(g, s)
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    assert not [i for i in option_ids(g, s, 0, "chauffeur") if "3" in i]


def test_decision_police_check_lasts_until_users_turn_after_next():
    g, s = new_table(3)
    p = Pick()
    _police(g, s, 2, 0, hands={2: p.many(1, 2, 3, 4)}, draw=p.many(6, 6, 7, 7, 8, 8, 9))
    expected = [(1, True), (2, True), (0, True), (1, True), (2, True), (0, False)]
    seen = []
    for _ in expected:
        seen.append((s.active, bool(s.blocks)))
        if s.active == 2 and s.blocks:
            play(g, s, 2, "turn", "draw")
            assert "swap:0" not in option_ids(g, s, 2, "place")
            play(g, s, 2, "place", "discard")
            close_snap(g, s)
        else:
            _pass_turn(g, s)
    assert seen == expected
    assert not g.view(s, None)["players"][2]["slots"][0]["police"]


def test_decision_cards_mamma_skips_an_opponents_next_turn_no_draw_no_omerta():
    g, s = new_table(3)
    p = Pick()
    _land(g, s, hands={1: p.many(1)}, draw=[p("mamma")])
    assert option_ids(g, s, 0, "mamma") == ["mamma:1", "mamma:2", "decline"]
    draw_before = len(s.draw)
    events = play(g, s, 0, "mamma", "mamma:1")
    assert "Ben skips this turn (La Mamma)." in texts(events)
    assert s.active == 2 and len(s.draw) == draw_before
    refused(g, s, Choice(1, "turn", "omerta"))  # Ben (1 point) cannot call in the skipped turn
    assert not s.players[1].skips


def test_decision_cards_mamma_skips_do_not_stack():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, draw=[p(4), p("mamma"), p("mamma")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    play(g, s, 0, "mamma", "mamma:2")
    play(g, s, 1, "turn", "draw")
    play(g, s, 1, "place", "discard")
    events = play(g, s, 1, "mamma", "mamma:2")  # Cleo's next turn is the same turn: skipped once
    assert texts(events).count("Cleo skips this turn (La Mamma).") == 1
    assert s.active == 0
    _pass_turn(g, s)
    _pass_turn(g, s)
    assert s.active == 2


def test_decision_police_check_ends_with_the_round():
    g, s = new_table(3)
    p = Pick()
    _police(g, s, 1, 0, hands={0: p.many(1)}, draw=[p(9)])
    assert s.blocks
    play(g, s, 1, "turn", "draw")
    play(g, s, 1, "place", "discard")
    close_snap(g, s)
    play(g, s, 2, "turn", "omerta")
    assert s.round == 2 and s.blocks == []
    assert not any(sl["police"] for pl in g.view(s, None)["players"] for sl in pl["slots"])


def test_decision_cards_safecracker_looks_at_the_safe_privately():
    g, s = new_table(3)
    p = Pick()
    safe = p.many(1, 2, 3, 4)
    _land(g, s, safe=safe, draw=[p("safecracker")])
    events = play(g, s, 0, "safecracker", "look")
    (look,) = private(events)
    assert look.to == (0,)
    assert [c["id"] for c in g.view(s, 0)["look"]["safe"]] == safe
    for seat in (None, 1, 2):
        assert g.view(s, seat)["look"] is None
        assert not set(card_ids_in(g.view(s, seat))) & set(safe)
    assert prompt_of(g, s, 0, "safe").secret


def test_decision_cards_safecracker_own_card_goes_to_the_safe_unseen_safe_card_seen():
    g, s = new_table(3)
    p = Pick()
    safe = p.many(1, 2, 3, 4)
    mine = p("traitor")
    _land(g, s, hands={0: [p(5), mine, p(6), p(7)]}, safe=safe, draw=[p("safecracker")])
    play(g, s, 0, "safecracker", "look")
    play(g, s, 0, "safe", "take:3")
    events = play(g, s, 0, "safe_slot", "slot:1")
    assert hand(s, 0)[1] == safe[3] and s.safe[3] == mine
    assert [e.to for e in private(events)] == [(0,)]
    assert "Bottle 4" in private(events)[0].text
    assert all("Traitor" not in t and "Bottle 4" not in t for t in texts(events, None))
    assert s.phase == "turn" and s.active == 1
    assert g.view(s, 0)["look"] is None  # shown once, then gone


def test_decision_cards_safecracker_may_keep_the_safe_as_it_is():
    g, s = new_table(3)
    p = Pick()
    safe = p.many(1, 2, 3, 4)
    _land(g, s, safe=safe, draw=[p("safecracker")])
    play(g, s, 0, "safecracker", "look")
    assert option_ids(g, s, 0, "safe")[-1] == "keep"
    play(g, s, 0, "safe", "keep")
    assert s.safe == safe and s.active == 1


def test_decision_cards_alibi_has_no_power():
    g, s = new_table(3)
    p = Pick()
    events = _land(g, s, draw=[p("alibi")])
    assert "The Alibi has no power." in texts(events)
    assert (s.phase, s.active) == ("turn", 1)


@pytest.mark.parametrize("power", ["traitor", "mole", "lady", "chauffeur", "police", "mamma", "safecracker"])
def test_decision_cards_using_a_power_is_optional(power):
    g, s = new_table(3)
    p = Pick()
    _land(g, s, hands={0: p.many(1, 2, 3, 4)}, draw=[p(power)])
    assert option_ids(g, s, 0, power)[-1] == "decline"
    before = [hand(s, i) for i in range(3)], list(s.draw), list(s.safe)
    events = play(g, s, 0, power, "decline")
    assert f"Anna does not use the {info(card_of(power)).name}." in texts(events)
    assert ([hand(s, i) for i in range(3)], list(s.draw), list(s.safe)) == before
    assert not s.blocks and not any(pl.skips for pl in s.players)
    assert (s.phase, s.active) == ("turn", 1)


# --- Round set-up ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_decision_setup_deal_four_each_four_to_the_safe_one_face_up_rest_to_draw(players):
    s = GAME.new(list(NAMES[:players]), {}, 21)
    assert all(len(p.slots) == 4 for p in s.players)
    assert len(s.safe) == 4 and len(s.discard) == 1
    assert len(s.draw) == 60 - 4 * players - 4 - 1
    everything = [c for p in s.players for c in p.slots] + s.safe + s.discard + s.draw
    assert sorted(everything) == sorted(deck().playing)  # bottles and characters shuffled together
    view = GAME.view(s, None)
    assert view["discard_top"]["id"] == s.discard[-1]
    assert (view["safe_count"], view["draw_count"]) == (4, len(s.draw))


@pytest.mark.parametrize("kind", ["bottle", "character"])
def test_decision_setup_first_face_up_card_triggers_nothing(kind):
    for seed in range(200):
        s = GAME.new(list(NAMES[:3]), {}, seed)
        if info(s.discard[-1]).kind == kind and info(s.discard[-1]).power != "alibi":
            break
    else:
        pytest.fail(f"no seed turns up a {kind}")
    events = []
    for seat in range(3):
        events += play(GAME, s, seat, "peek", "2,3")
    assert s.phase == "turn" and s.power == "" and s.snap_value == 0
    assert not any(e.kind in ("snap_open", "power") for e in events)


def test_decision_setup_peek_at_two_cards_of_your_choice_all_at_once():
    g, s = new_table(4, peek=False)
    prompts = g.prompts(s)
    assert sorted(pr.seat for pr in prompts) == [0, 1, 2, 3]
    assert all(len(pr.options) == 6 and all(len(o.id.split(",")) == 2 for o in pr.options) for pr in prompts)
    play(g, s, 2, "peek", "0,3")
    assert sorted(pr.seat for pr in g.prompts(s)) == [0, 1, 3]
    assert s.phase == "peek"
    for seat in (0, 1, 3):
        play(g, s, seat, "peek", "1,2")
    assert s.phase == "turn"


def test_decision_setup_slots_fixed_and_numbered_from_one():
    g, s = new_table(3)
    before = [hand(s, i) for i in range(3)]
    for _ in range(3):
        _pass_turn(g, s)  # drawing and discarding moves nothing
    assert [hand(s, i) for i in range(3)] == before
    view = g.view(s, None)
    assert [sl["index"] for sl in view["players"][0]["slots"]] == [0, 1, 2, 3]
    labels = [o.label for o in prompt_of(GAME, GAME.new(list(NAMES[:3]), {}, 1), 0, "peek").options]
    assert labels[0] == "Peek at slot 1 and slot 2"


def test_decision_setup_first_round_al_capone_starts():
    for seed in range(10):
        g, s = new_table(4, seed=seed)
        assert s.players[s.active].gangster == card_of("Al Capone") == s.players[s.start_seat].gangster


def test_decision_later_round_highest_total_starts_tie_earliest_after_previous_start():
    g, s = new_table(4)
    p = Pick()
    # Ben (seat 1) starts and calls; Anna and Dino tie for the highest score
    arrange(s, active=1, hands={0: p.many(10, 9), 1: p.many(1), 2: p.many(5), 3: p.many(10, 9)})
    s.start_seat = 1
    play(g, s, 1, "turn", "omerta")
    assert [pl.total for pl in s.players] == [19, 0, 5, 19]
    assert s.start_seat == 3  # after Ben comes Cleo, then Dino (19) before Anna (19)
    for seat in range(4):
        play(g, s, seat, "peek", "0,1")
    assert s.active == 3
    p = Pick()
    arrange(s, active=3, hands={0: p.many(1), 1: p.many(10, 10, 10), 2: p.many(2), 3: p.many(1)})
    play(g, s, 3, "turn", "omerta")
    assert s.start_seat == 1  # Ben now has the highest total (30)


def test_decision_setup_play_passes_in_seat_order():
    g, s = new_table(5, seed=3)
    order = []
    for _ in range(7):
        order.append(s.active)
        _pass_turn(g, s)
    start = order[0]
    assert order == [(start + k) % 5 for k in range(7)]


# --- A turn ---------------------------------------------------------------------------------------------------


def test_decision_turn_omerta_only_before_taking_a_card():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(1)}, discard=[p(2)])
    assert "omerta" in option_ids(g, s, 0, "turn")
    play(g, s, 0, "turn", "take")
    assert "omerta" not in option_ids(g, s, 0, "place")
    message = refused(g, s, Choice(0, "turn", "omerta"))
    assert "it is asked: place" in message


def test_decision_turn_drawn_card_seen_only_by_the_active_player():
    g, s = new_table(3)
    p = Pick()
    drawn = p("safecracker")
    arrange(s, active=0, draw=[drawn])
    events = play(g, s, 0, "turn", "draw")
    (look,) = private(events)
    assert look.to == (0,) and look.data["card"] == drawn
    assert texts(events, 1) == texts(events, None) == ["Anna draws a card."]
    assert g.view(s, 0)["holding"]["id"] == drawn
    for seat in (None, 1, 2):
        view = g.view(s, seat)
        assert view["holding"] is None and view["holding_hidden"]
        assert drawn not in set(card_ids_in(view))
    assert prompt_of(g, s, 0, "place").secret


def test_decision_turn_drawn_card_swapped_or_discarded():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(1, 2, 3, 4)}, draw=[p(5)])
    play(g, s, 0, "turn", "draw")
    assert option_ids(g, s, 0, "place") == ["swap:0", "swap:1", "swap:2", "swap:3", "discard"]


def test_decision_turn_take_any_discard_card_including_a_character_without_its_power():
    g, s = new_table(3)
    p = Pick()
    mamma = p("mamma")
    arrange(s, active=0, hands={0: p.many(1, 2, 3, 4)}, discard=[p(7), mamma])
    assert "Take La Mamma from the discard pile" in [o.label for o in prompt_of(g, s, 0, "turn").options]
    events = play(g, s, 0, "turn", "take")
    assert s.phase == "taken" and s.power == ""
    assert not any(e.kind == "power" for e in events)
    play(g, s, 0, "place", "swap:0")  # Bottle 1 lands: a snap window, not La Mamma
    assert hand(s, 0)[0] == mamma and s.phase == "snap"
    close_snap(g, s)
    assert not any(pl.skips for pl in s.players)


def test_decision_turn_cannot_take_with_no_card_that_may_leave_its_slot():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: [None, None]}, discard=[p(2)])
    assert option_ids(g, s, 0, "turn") == ["draw", "omerta"]
    play(g, s, 0, "turn", "draw")
    assert option_ids(g, s, 0, "place") == ["discard"]


def test_decision_turn_swapped_out_card_is_not_looked_at_and_lands_face_up():
    g, s = new_table(3)
    p = Pick()
    out = p(9)
    arrange(s, active=0, hands={0: [p(1), p(2), out, p(3)]}, draw=[p(4)])
    play(g, s, 0, "turn", "draw")
    before_swap = g.view(s, 0)
    assert out not in set(card_ids_in(before_swap))
    events = play(g, s, 0, "place", "swap:2")
    assert not private(events)  # nothing private: the card shows only as it lands, face up for all
    assert "Anna swaps a card into slot 3; out comes Bottle 9." in texts(events, None)
    assert g.view(s, None)["discard_top"]["id"] == out


@pytest.mark.parametrize("card", [7, "mole"])
def test_decision_turn_landing_bottle_opens_a_snap_character_fires_for_the_active_player(card):
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=1, hands={1: [p(card), *p.many(1, 2, 3)]}, draw=[p(4)])
    play(g, s, 1, "turn", "draw")
    events = play(g, s, 1, "place", "swap:0")
    if card == 7:
        assert s.phase == "snap" and s.snap_value == 7
        assert "Snap window: anyone may discard a Bottle 7." in texts(events)
    else:
        assert s.phase == "power" and s.power == "mole"
        assert [pr.seat for pr in g.prompts(s)] == [1]


# --- The snap -------------------------------------------------------------------------------------------------


def _open_snap(g, s, value, *, active=0, hands=None, draw=()):
    p = Pick()
    for h in (hands or {}).values():
        p.used.update(c for c in h if c is not None)
    p.used.update(draw)
    arrange(s, active=active, hands=hands, draw=[*draw, p(value)])
    play(g, s, active, "turn", "draw")
    return play(g, s, active, "place", "discard")


def test_decision_snap_any_player_including_the_active_one_may_claim():
    g, s = new_table(3)
    p = Pick()
    _open_snap(g, s, 3, hands={0: p.many(3, 1, 2, 4)})
    prompts = g.prompts(s)
    assert sorted(pr.seat for pr in prompts) == [TABLE, 0, 1, 2]
    assert len({pr.race for pr in prompts}) == 1 and prompts[0].race is not None
    assert all(pr.kind == "snap" for pr in prompts)
    play(g, s, 0, "snap", "slot:0")
    assert hand(s, 0)[0] is None
    assert s.active == 1


def test_decision_snap_only_the_earliest_claim_counts():
    g, s = new_table(3)
    p = Pick()
    _open_snap(g, s, 3, hands={0: p.many(3, 1, 2, 4), 1: p.many(3, 5, 6, 7), 2: p.many(3, 8, 9, 1)})
    race = prompt_of(g, s, 2, "snap").race
    play(g, s, 1, "snap", "slot:0")
    for seat in (0, 2):
        refused(g, s, Choice(seat, "snap", "slot:0"))
    refused(g, s, Choice(TABLE, "snap", "close"))
    assert all(pr.race != race for pr in g.prompts(s))
    assert [info(hand(s, i)[0]).value if hand(s, i)[0] is not None else None for i in range(3)] == [3, None, 3]


def test_decision_snap_right_value_revealed_discarded_one_card_fewer_no_new_snap():
    g, s = new_table(3)
    p = Pick()
    _open_snap(g, s, 8, hands={2: p.many(1, 2, 8, 3)})
    events = play(g, s, 2, "snap", "slot:2")
    assert hand(s, 2)[2] is None
    view = g.view(s, None)
    assert view["players"][2]["card_count"] == 3 and view["players"][2]["slots"][2]["empty"]
    assert view["discard_top"]["value"] == 8
    assert not any(e.kind == "snap_open" for e in events)
    assert s.phase == "turn" and s.active == 1


def test_decision_snap_wrong_value_revealed_to_all_and_back_in_its_slot():
    g, s = new_table(3)
    p = Pick()
    wrong = p("lady")
    _open_snap(g, s, 8, hands={1: [p(1), wrong, p(2), p(3)]})
    events = play(g, s, 1, "snap", "slot:1")
    assert "Ben snaps slot 2: Lady, wrong! It goes back face down." in texts(events, None)
    assert hand(s, 1)[1] == wrong
    view = g.view(s, 1)
    assert [c["id"] for c in view["shown"]] == [wrong]  # everyone saw it: the picture shows it with the line
    assert wrong not in set(card_ids_in({**view, "shown": []}))  # and it lies face down again
    assert s.phase == "turn"  # the Lady's power does not fire


def test_decision_snap_wrong_value_penalty_card_into_new_slot():
    g, s = new_table(3)
    p = Pick()
    penalty = p(10)
    _open_snap(g, s, 8, hands={1: [p(1), None, p(2), p(3)]}, draw=[penalty])
    events = play(g, s, 1, "snap", "slot:0")
    assert hand(s, 1) == [hand(s, 1)[0], None, hand(s, 1)[2], hand(s, 1)[3], penalty]
    assert "Ben takes a penalty card face down into slot 5." in texts(events, None)
    assert not private(events)  # unseen, even by Ben
    for seat in (None, 0, 1, 2):
        assert penalty not in set(card_ids_in(g.view(s, seat)))
    assert g.view(s, None)["players"][1]["slots"][4] == {"index": 4, "empty": False, "police": False, "moved": 0}


def test_decision_snap_chauffeur_bottles_open_no_snap():
    g, s = new_table(3)
    p = Pick()
    _land(g, s, hands={0: p.many(6, 6, 1, 2), 1: p.many(6, 6, 1, 2)}, draw=[p("chauffeur")])
    events = play(g, s, 0, "chauffeur", "drop:0,1")
    assert s.phase == "turn" and s.active == 1
    assert not any(e.kind == "snap_open" for e in events)


def test_decision_snap_window_blocks_everything_else_until_it_closes():
    g, s = new_table(3)
    _open_snap(g, s, 3)
    assert s.phase == "snap"
    for bad in (Choice(0, "turn", "draw"), Choice(1, "turn", "draw"), Choice(0, "turn", "omerta")):
        refused(g, s, bad)
    events = close_snap(g, s)
    assert "Nobody snaps." in texts(events)
    assert (s.phase, s.active) == ("turn", 1)


def test_decision_snap_window_is_a_table_option_default_five_from_two_to_thirty():
    (spec,) = [o for o in GAME.option_specs if o.name == "snap_window"]
    assert (spec.default, spec.minimum, spec.maximum) == (5, 2, 30)
    assert GAME.new(list(NAMES[:3]), {}, 1).options["snap_window"] == 5
    assert GAME.new(list(NAMES[:3]), {"snap_window": 12}, 1).options["snap_window"] == 12
    for bad in (1, 31, "5"):
        with pytest.raises(BadOptions, match="snap_window"):
            GAME.new(list(NAMES[:3]), {"snap_window": bad}, 1)


# --- OMERTA and scoring ---------------------------------------------------------------------------------------


def test_decision_omerta_calling_ends_the_round_at_once_everyone_reveals():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=2, hands={0: p.many(4), 1: p.many(5), 2: p.many(3)})
    events = play(g, s, 2, "turn", "omerta")
    kinds = [e.kind for e in events]
    assert kinds[:5] == ["omerta", "reveal", "reveal", "reveal", "verdict"]
    assert "turn" not in kinds  # nobody plays again in this round
    assert s.round == 2 and s.phase == "peek"


def test_decision_omerta_card_points_bottles_at_value_characters_at_their_points():
    g, s = new_table(3)
    p = Pick()
    arrange(
        s,
        active=0,
        hands={0: p.many(1, "alibi"), 1: p.many("traitor", "mole", "lady"), 2: [p("mamma"), p(7), None]},
    )
    play(g, s, 0, "turn", "omerta")
    assert s.history[-1].points == [1, 45, 27]


def test_decision_omerta_caller_seven_or_fewer_and_nobody_fewer_scores_zero_others_their_points():
    assert score_round([7, 8, 30], 0, LIMIT, PENALTY) == ([0, 8, 30], True)
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(3, 4), 1: p.many(8), 2: p.many("traitor", 10)})
    play(g, s, 0, "turn", "omerta")
    assert s.history[-1].scores == [0, 8, 30]


def test_decision_omerta_caller_tied_for_fewest_still_scores_zero():
    assert score_round([5, 5, 9], 0, LIMIT, PENALTY) == ([0, 5, 9], True)
    assert score_round([0, 0, 0], 1, LIMIT, PENALTY) == ([0, 0, 0], True)


def test_decision_omerta_failed_caller_takes_points_plus_twenty_fewest_other_scores_zero():
    assert score_round([6, 4, 9], 0, LIMIT, PENALTY) == ([26, 0, 9], False)


def test_decision_omerta_failed_caller_all_tied_fewest_others_score_zero():
    assert score_round([6, 4, 4, 9], 0, LIMIT, PENALTY) == ([26, 0, 0, 9], False)
    g, s = new_table(4)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(6), 1: p.many(4), 2: p.many(1, 3), 3: p.many(9)})
    play(g, s, 0, "turn", "omerta")
    assert s.history[-1].scores == [26, 0, 0, 9]


def test_decision_omerta_caller_over_seven_but_lowest_still_fails_next_lowest_scores_zero():
    assert score_round([8, 9, 12], 0, LIMIT, PENALTY) == ([28, 0, 12], False)


def test_decision_omerta_player_with_no_cards_has_zero_points_and_may_call():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=1, hands={0: p.many(1), 1: [None, None, None, None], 2: p.many(2)})
    assert "omerta" in option_ids(g, s, 1, "turn")
    play(g, s, 1, "turn", "omerta")
    assert s.history[-1].points[1] == 0 and s.history[-1].scores == [1, 0, 2]
    assert s.history[-1].cards[1] == []


def test_decision_draw_pile_empty_reshuffle_except_top():
    g, s = new_table(3)
    p = Pick()
    top = p(2)
    last = p("alibi")
    arrange(s, active=0, draw=[last], discard=[p(5), p(6), p(7), top], rest="discard")
    discard_before = set(s.discard)
    play(g, s, 0, "turn", "draw")
    assert s.draw == []
    events = play(g, s, 0, "place", "discard")  # the Alibi lands: Ben's turn begins with an empty draw pile
    assert any(e.kind == "reshuffle" for e in events)
    assert s.discard == [last]
    assert set(s.draw) == discard_before  # the old pile, all but the card on top (the Alibi), reshuffled
    assert s.active == 1 and s.phase == "turn"
    assert g.invariants(s) == []


def test_decision_draw_pile_reshuffled_when_a_penalty_needs_a_card():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={1: p.many(1, 2, 3, 4)}, draw=[p(5)], discard=[p(9), p(8)], rest="discard")
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")  # the Bottle 5 is on top
    events = play(g, s, 1, "snap", "slot:0")  # wrong: a penalty card from the reshuffled pile
    assert [e.kind for e in events][:3] == ["snap", "reshuffle", "penalty"]
    assert len(hand(s, 1)) == 5 and info(s.discard[-1]).value == 5


def test_decision_bot_no_penalty_card_when_no_card_is_left():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={1: p.many(1, 2, 3, 4)}, draw=[p(5)], rest=2)
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    ben = hand(s, 1)
    events = play(g, s, 1, "snap", "slot:0")  # wrong, but there is no card to give
    assert "Ben would take a penalty card, but no card is left to draw." in texts(events)
    assert s.history[-1].cards[1] == ben  # and the round ends: nothing left to draw
    assert s.history[-1].caller is None


def test_decision_round_ends_without_caller_when_no_card_left():
    g, s = new_table(3)
    p = Pick()
    last = p(1)
    arrange(s, active=0, hands={0: p.many(2), 1: p.many(3), 2: [p(4)]}, draw=[last], rest=2)
    play(g, s, 0, "turn", "draw")
    events = play(g, s, 0, "place", "discard")  # one card on the discard pile: nothing to reshuffle
    assert s.phase == "snap"
    events = close_snap(g, s)
    assert "No card is left to draw: the round ends without a caller." in texts(events)
    reveal = s.history[-1]
    assert reveal.caller is None and not reveal.caller_made_it
    assert reveal.scores == reveal.points
    assert reveal.points[:2] == [2, 3]
    assert score_round([4, 9, 0], None, LIMIT, PENALTY) == ([4, 9, 0], False)
    assert s.round == 2


# --- Game -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_decision_game_as_many_rounds_as_players(players):
    g, s = new_table(players, seed=players)
    assert s.rounds == players
    rounds = 0
    while not g.is_over(s):
        finish_round_by_calling(g, s)
        rounds += 1
    assert rounds == players and len(s.history) == players
    assert g.prompts(s) == []


def test_decision_game_rounds_table_option():
    assert GAME.new(list(NAMES[:3]), {"rounds": 1}, 1).rounds == 1
    assert GAME.new(list(NAMES[:3]), {"rounds": 0}, 1).rounds == 3


def test_decision_game_lowest_total_wins():
    g, s = new_table(3, options={"rounds": 1})
    p = Pick()
    arrange(s, active=0, hands={0: p.many(9), 1: p.many(2), 2: p.many(5)})
    events = play(g, s, 0, "turn", "omerta")
    result = g.result(s)
    assert result is not None and result.scores == (29, 0, 5) and result.winners == (1,)
    assert "Game over. Ben wins with 0 points." in texts(events)


def test_decision_game_tie_is_a_shared_win():
    g, s = new_table(3, options={"rounds": 1})
    p = Pick()
    arrange(s, active=0, hands={0: p.many(9), 1: p.many(2), 2: p.many(1, 1)})
    play(g, s, 0, "turn", "omerta")
    result = g.result(s)
    assert result is not None and result.scores == (29, 0, 0) and result.winners == (1, 2)
    assert g.view(s, None)["winners"] == [1, 2]


# --- Bot-specific decisions -----------------------------------------------------------------------------------


def test_decision_bot_peek_mole_safecracker_shown_once_privately_never_again():
    g, s = new_table(3, peek=False)
    p = Pick()
    peeked = s.players[0].slots[:2]
    events = play(g, s, 0, "peek", "0,1")
    assert private(events)[0].data["cards"] == {"0": peeked[0], "1": peeked[1]}
    for seat in (1, 2):
        play(g, s, seat, "peek", "0,1")
    assert not set(card_ids_in(g.view(s, 0))) & set(peeked)
    mole_target = p(6)
    arrange(s, active=0, hands={0: [mole_target, *p.many(1, 2, 3)]}, draw=[p("mole")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    play(g, s, 0, "mole", "look:0")
    assert mole_target not in set(card_ids_in(g.view(s, 0)))


def test_decision_bot_emptied_slot_stays_a_gap_new_cards_go_into_new_slots():
    g, s = new_table(3)
    p = Pick()
    _open_snap(g, s, 4, hands={1: p.many(4, 1, 2, 3)})
    play(g, s, 1, "snap", "slot:0")
    assert hand(s, 1)[0] is None and len(hand(s, 1)) == 4
    play(g, s, 1, "turn", "draw")
    assert "swap:0" not in option_ids(g, s, 1, "place")  # a gap is not refilled by a swap
    slots = [sl["index"] for sl in g.view(s, None)["players"][1]["slots"]]
    assert slots == [0, 1, 2, 3]


def test_decision_bot_skipped_turn_counts_as_a_police_check_users_turn():
    g, s = new_table(3)
    p = Pick()
    # Anna holds Cleo's slot 1; then Ben plays La Mamma on Anna
    _police(g, s, 2, 0, hands={0: p.many(1, 2, 3, 4)}, draw=[p(6), p("mamma")])
    play(g, s, 1, "turn", "draw")
    play(g, s, 1, "place", "discard")
    play(g, s, 1, "mamma", "mamma:0")
    _pass_turn(g, s)  # Cleo
    assert s.active == 1  # Anna's turn was skipped ...
    assert s.blocks and s.blocks[0].turns == 1  # ... and counted
    _pass_turn(g, s)  # Ben
    _pass_turn(g, s)  # Cleo
    assert s.active == 0 and not s.blocks  # Anna's next turn: the check has ended


def test_decision_bot_traitor_deals_as_many_cards_as_are_left():
    g, s = new_table(3)
    p = Pick()
    traitor = p("traitor")
    last = p(3)
    # one card left to draw after the Traitor, and only the Traitor on the discard pile afterwards
    arrange(s, active=0, hands={2: [p(5)]}, draw=[last, traitor], rest=2)
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    ben = hand(s, 1)
    events = play(g, s, 0, "traitor", "give:1,1")
    assert "No card is left to deal." in texts(events)
    assert "Anna (Traitor) deals 1 card face down to Ben." in texts(events)
    # nothing is left to draw, so the round ends at once (decision "round ends without a caller")
    assert s.history[-1].caller is None
    assert s.history[-1].cards[1] == [*ben, last]
    assert g.invariants(s) == []


def test_decision_bot_power_without_a_possible_target_is_skipped_with_a_log_line():
    g, s = new_table(3)
    p = Pick()
    events = _land(g, s, hands={0: [None, None]}, draw=[p("mole")])
    assert "Mole: Anna has no possible target, so nothing happens." in texts(events)
    assert (s.phase, s.active) == ("turn", 1)


# --- The numbers live in the data file ------------------------------------------------------------------------


def test_decision_numbers_live_in_the_data_file_marked_as_the_projects_own():
    raw = tomllib.loads((data_dir() / "omerta" / "cards.toml").read_text(encoding="utf-8"))
    assert raw["bottles"]["copies"] == 4 and raw["bottles"]["own_copies"] is True
    for ch in raw["characters"]:
        if ch["kind"] == "alibi":
            assert ch["points"] == 0  # the seed's own number (002:48.1)
        else:
            assert ch["own"] is True, ch["kind"]


def test_decision_numbers_in_the_data_are_the_ones_the_rules_play():
    n = deck().numbers
    g, s = new_table(5, peek=False)
    assert all(len(pl.slots) == n["hand_size"] for pl in s.players) and len(s.safe) == n["safe_size"]
    assert all(len(o.id.split(",")) == n["peek"] for o in prompt_of(g, s, 0, "peek").options)
    assert score_round([n["omerta_limit"], 99, 99], 0, n["omerta_limit"], n["caller_penalty"])[1]
    assert (GAME.min_players, GAME.max_players) == (n["min_players"], n["max_players"])
    for seats in (["A", "B"], ["A", "B", "C", "D", "E", "F"]):
        with pytest.raises(BadOptions, match="3 to 5 players"):
            GAME.new(seats, {}, 1)
    # numbers the code plays as fixed rules: they must agree with the data
    g, s = new_table(4)
    p = Pick()
    arrange(s, active=0, hands={0: p.many(1, 2, 3, 4)}, draw=[p("traitor")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    gives = [o.id for o in prompt_of(g, s, 0, "traitor").options if o.id.startswith("give:")]
    assert {len(i.split(",")) for i in gives} == {n["traitor_cards"]}
    play(g, s, 0, "traitor", "decline")
    arrange(s, active=0, hands={0: p.many(5, 6, 7, 8)}, draw=[card_of("chauffeur")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    drops = [o.id for o in prompt_of(g, s, 0, "chauffeur").options if o.id.startswith("drop:")]
    assert max(len(i.split(",")) for i in drops) == n["chauffeur_max"]
    assert n["police_turns"] == 2 and n["mamma_turns"] == 1 and n["wrong_snap_penalty_cards"] == 1
    assert n["snaps_per_discard"] == 1  # one snap per discarded bottle (002:26.1), no chain
