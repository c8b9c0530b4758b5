"""Seed 000 section 4, Player Actions (000:37.1-000:52.3): every action as the engine offers and applies it.

Tests are named after the seed sentence ids they check (../shared/seeds/rule-index.md); each starts from
``kit.paused`` (the Setup Round done, the turn flow frozen) and asks one step.
"""

from __future__ import annotations

import re

import pytest

from engine.core import Choice
from engine.speakeasy.components import LEVEL_TRACKS, TRACKS
from engine.speakeasy.steps import STEPS
from tests.engine.speakeasy import kit

# ---- helpers -----------------------------------------------------------------------------------------------------


def label_of(state, option: str) -> str:
    """The label of one option of the open prompt."""
    return next(o.label for o in kit.prompt(state).options if o.id == option)


def empty_hand(state, seat: int) -> None:
    """Put the seat's hand back at the bottom of the decks (so the tests choose every card held)."""
    p = state.player(seat)
    for card in list(p.hand):
        p.hand.remove(card)
        state.decks[kit.R().cards[card].deck].append(card)


def grab(state, seat: int, deck: str, kind: str | None = None) -> int:
    """Move a card of ``deck`` (whose top-left benefit has this kind) into the seat's hand, from a deck or from
    another player's hand."""
    cards = kit.R().cards
    places = [state.decks[deck]] + [p.hand for i, p in enumerate(state.players) if i != seat]
    for place in places:
        for card in place:
            c = cards[card]
            if c.deck == deck and (kind is None or any(e.kind == kind for e in c.benefit)):
                place.remove(card)
                state.player(seat).hand.append(card)
                return card
    raise AssertionError(f"no {deck} card with {kind} to grab")


free_space = kit.free_space
put = kit.put


def stills_at(state, seat: int) -> tuple[int, int]:
    """Where the seat's Stills stands."""
    for d in state.districts:
        for i, sp in enumerate(d.spaces):
            if sp.building is not None and sp.building.owner == seat and sp.building.kind == "stills":
                return d.number, i
    raise AssertionError("no Stills on the map")


def move_stills(state, seat: int, cop: bool) -> None:
    """Move the seat's Stills to a free space of a district with (or without) a Cop."""
    dn, i = stills_at(state, seat)
    building = state.districts[dn - 1].spaces[i].building
    state.districts[dn - 1].spaces[i].building = None
    tn, ti = free_space(state, cop)
    state.districts[tn - 1].spaces[ti].building = building


def lift_stills(state, seat: int) -> None:
    """Take the seat's Stills off the map, back onto its row."""
    dn, i = stills_at(state, seat)
    state.districts[dn - 1].spaces[i].building = None
    state.player(seat).rows["stills"][0] = True


def set_tile(state, dn: int, i: int, name: str) -> int:
    """Make the City tile on a space one of kind ``name``, swapping it with such a tile elsewhere."""
    r = kit.R()
    kinds = [ct.name for ct in r.city_tiles]
    want = kinds.index(name)
    target = state.districts[dn - 1].spaces[i]
    if target.tile is not None and r.tile_kinds[target.tile] == want:
        return target.tile
    for pile in state.city_piles:
        for k, t in enumerate(pile):
            if r.tile_kinds[t] == want:
                if target.tile is None:
                    pile.pop(k)
                else:
                    pile[k] = target.tile
                target.tile = t
                return t
    for d in state.districts:
        for k, sp in enumerate(d.spaces):
            if (d.number, k) != (dn, i) and sp.tile is not None and r.tile_kinds[sp.tile] == want:
                sp.tile, target.tile = target.tile, sp.tile
                return target.tile
    raise AssertionError(f"no {name} tile to swap in")


def clear_slot(state, seat: int, deck: str) -> None:
    """Put the card in the seat's slot of ``deck`` back under its deck."""
    p = state.player(seat)
    if p.slots[deck] is not None:
        state.decks[deck].append(p.slots[deck])
        p.slots[deck] = None


def clear_docks(state) -> None:
    """Empty Docks (every Family Member back to its owner's supply), so Ship prices and Docks places are plain."""
    for zone in state.docks:
        for k, s in enumerate(zone):
            if s is not None:
                state.player(s).family_supply += 1
                zone[k] = None


# ---- 000:37.1 the heading --------------------------------------------------------------------------------------


def test_000_37_1_player_actions_are_engine_steps():
    """000:37.1 "4. Player Actions": every action of section 4 is a step kind a Person, a card or a gain asks."""
    for kind in (
        "play",
        "raise_track",
        "discard_raise",
        "raise_ops_once_more",
        "once_more",
        "discard_copy",
        "take_card",
        "produce",
        "sell",
        "hire_goons",
        "place_family",
        "gain",
        "level_any",
        "take_helper",
        "build",
        "build_at",
    ):
        assert kind in STEPS, kind
    state = kit.paused()
    kit.task(state, "level_any", 0)
    assert kit.prompt(state).kind == "level_any"


# ---- 000:39 Play One Operations Card -----------------------------------------------------------------------------


def test_000_39_1_play_a_card_into_its_deck_slot():
    """000:39.1: the card leaves the hand for the slot of its own deck."""
    state = kit.paused()
    empty_hand(state, 0)
    card = grab(state, 0, "party", "pocket")
    clear_slot(state, 0, "party")
    kit.task(state, "play", 0, s="any")
    assert kit.ids(state) == [f"play:{card}", "skip"]
    kit.answer(state, f"play:{card}")
    p = state.player(0)
    assert p.slots["party"] == card
    assert card not in p.hand
    kit.ok(state)


def test_000_39_1_only_cards_of_the_named_deck_are_offered():
    """000:39.1: "Play a Fleet card" offers only the Fleet cards in hand."""
    state = kit.paused()
    empty_hand(state, 0)
    fleet = grab(state, 0, "fleet", "leverage")
    grab(state, 0, "party", "pocket")
    kit.task(state, "play", 0, s="fleet")
    assert kit.ids(state) == [f"play:{fleet}", "skip"]


def test_000_39_2_the_card_already_in_the_slot_goes_face_up_under_its_deck():
    """000:39.2 with design §2: the previous slot card is discarded face up to the bottom of its deck."""
    state = kit.paused()
    empty_hand(state, 0)
    p = state.player(0)
    clear_slot(state, 0, "vip")
    old = grab(state, 0, "vip", "leverage")
    p.hand.remove(old)
    p.slots["vip"] = old
    card = grab(state, 0, "vip", "book")
    deck_before = list(state.decks["vip"])
    kit.task(state, "play", 0, s="vip")
    kit.answer(state, f"play:{card}")
    assert p.slots["vip"] == card
    assert state.decks["vip"] == deck_before + [old]
    kit.ok(state)


@pytest.mark.parametrize(
    ("deck", "kind", "field", "delta"),
    [
        ("party", "pocket", "pocket", 3),
        ("vip", "leverage", "leverage", 2),
        ("vip", "book", "books", 1),
        ("stills", "goon_free", "goons", 1),
        ("vip", "family_vip", "family_vip", 1),
    ],
)
def test_000_39_3_gain_the_top_left_benefit(deck, kind, field, delta):
    """000:39.3: playing the card gains its top-left benefit."""
    state = kit.paused()
    empty_hand(state, 0)
    card = grab(state, 0, deck, kind)
    p = state.player(0)
    before = getattr(p, field)
    kit.task(state, "play", 0, s=deck)
    kit.answer(state, f"play:{card}")
    assert getattr(p, field) == before + delta
    kit.ok(state)


def test_000_39_3_the_top_left_benefit_not_the_setup_icon():
    """000:39.3: "Stills: Leverage and $2" gives 1 Leverage and $2 in play, not its setup icon (a Family Member
    to the Docks)."""
    state = kit.paused()
    clear_docks(state)
    empty_hand(state, 0)
    card = grab(state, 0, "stills", "pocket")
    p = state.player(0)
    pocket, leverage, supply = p.pocket, p.leverage, p.family_supply
    kit.task(state, "play", 0, s="stills")
    kit.answer(state, f"play:{card}")
    assert (p.pocket, p.leverage, p.family_supply) == (pocket + 2, leverage + 1, supply)
    assert all(s is None for zone in state.docks for s in zone)
    kit.ok(state)


def _action_position(state):
    """Seat 0 can do every deck action: a Family Member in the VIP area, a barrel to sell, a barrel to deliver."""
    empty_hand(state, 0)
    p = state.player(0)
    p.family_supply -= 1
    p.family_vip += 1
    put(state, 0, barrel=True)
    put(state, 0)
    p.stills_barrels = 2


@pytest.mark.parametrize(("deck", "step"), [("vip", "protect"), ("party", "sell"), ("fleet", "deliver")])
def test_000_39_4_perform_the_deck_action(deck, step):
    """000:39.4: VIP Room = Get Protection, Party = Sell, Fleet = Deliver, asked right after the play."""
    state = kit.paused()
    _action_position(state)
    card = grab(state, 0, deck, "leverage")
    kit.task(state, "play", 0, s=deck)
    kit.answer(state, f"play:{card}")
    assert kit.prompt(state).kind == step
    kit.answer(state, "skip" if step != "deliver" else "done")
    kit.ok(state)


def test_000_39_4_stills_card_produces():
    """000:39.4: the Stills card's action is Produce: its barrels land on the Stills area at once."""
    state = kit.paused()
    _action_position(state)
    p = state.player(0)
    card = grab(state, 0, "stills", "leverage")
    kit.task(state, "play", 0, s="stills")
    kit.answer(state, f"play:{card}")
    assert p.stills_barrels == 2 + 2  # Stills value at level 1 (design §3.1)
    kit.ok(state)


def test_000_39_4_benefit_first_then_the_action():
    """000:39.3-4 in order: the VIP card's Family Member is gained before Get Protection, so it can be placed."""
    state = kit.paused()
    empty_hand(state, 0)
    put(state, 0)
    p = state.player(0)
    assert p.family_vip == 0
    card = grab(state, 0, "vip", "family_vip")
    kit.task(state, "play", 0, s="vip")
    kit.answer(state, f"play:{card}")
    assert kit.prompt(state).kind == "protect"
    assert any(i.startswith("fm:") for i in kit.ids(state))
    kit.answer(state, next(i for i in kit.ids(state) if i.startswith("fm:")))
    assert p.family_vip == 0
    kit.ok(state)


def test_000_39_4_card_benefit_prompt_comes_before_the_sale():
    """000:39.3-4 in order: "Party: Operations card" asks which card to take, then Sell."""
    state = kit.paused()
    _action_position(state)
    card = grab(state, 0, "party", "card")
    kit.task(state, "play", 0, s="party")
    kit.answer(state, f"play:{card}")
    assert kit.prompt(state).kind == "take_card"
    kit.answer(state, "deck:vip")
    assert kit.prompt(state).kind == "sell"


# ---- 000:40 Increase an Operations level ---------------------------------------------------------------------------


def test_000_40_1_raise_an_operations_level_one_space():
    """000:40.1: the chosen track moves one space right, the others stay."""
    state = kit.paused()
    p = state.player(0)
    before = dict(p.levels)
    kit.task(state, "raise_track", 0, s="ops")
    assert {i for i in kit.ids(state) if i != "skip"} == {f"raise:{t}" for t in TRACKS}
    kit.answer(state, "raise:fleet")
    assert p.levels == {**before, "fleet": before["fleet"] + 1}
    kit.ok(state)


def test_000_40_2_level_5_takes_a_discard():
    """000:40.2: raising to level 5 asks for one card and discards it face up under its deck."""
    state = kit.paused()
    empty_hand(state, 0)
    p = state.player(0)
    kit.give(state, 0, levels={"party": 4})
    card = grab(state, 0, "stills")
    kit.task(state, "raise_track", 0, s="ops")
    label = label_of(state, "raise:party")
    assert "discard 1 card" in label
    kit.answer(state, "raise:party")
    assert kit.prompt(state).kind == "discard_raise"
    assert p.levels["party"] == 4
    kit.answer(state, f"discard:{card}")
    assert p.levels["party"] == 5
    assert p.hand == [] and state.decks["stills"][-1] == card
    kit.ok(state)


def test_000_40_2_level_4_needs_no_discard():
    """000:40.2: only level 5 costs a card."""
    state = kit.paused()
    empty_hand(state, 0)
    kit.give(state, 0, levels={"party": 3})
    kit.task(state, "raise_track", 0, s="ops")
    kit.answer(state, "raise:party")
    assert state.player(0).levels["party"] == 4
    assert kit.is_waiting(state)


def test_000_40_2_level_5_refused_without_a_card():
    """000:40.2: with no card in hand the level-5 raise is not offered, and choosing it is refused saying why."""
    state = kit.paused()
    empty_hand(state, 0)
    kit.give(state, 0, levels={"party": 4})
    kit.task(state, "raise_track", 0, s="ops")
    assert "raise:party" not in kit.ids(state)
    assert "raise:vip" in kit.ids(state)
    msg = kit.refuse(state, Choice(0, "raise_track", "raise:party"))
    assert "discard" in msg.lower(), msg
    assert state.player(0).levels["party"] == 4


@pytest.mark.parametrize("steps", [1, 2])
def test_000_40_3_infamy_rises_with_each_operations_step(steps):
    """000:40.3: Infamy goes up by the amount the Operations level went up."""
    state = kit.paused()
    p = state.player(0)
    infamy = p.infamy
    for _ in range(steps):
        kit.task(state, "raise_track", 0, s="ops")
        kit.answer(state, "raise:stills")
    assert p.infamy == infamy + steps
    kit.ok(state)


# ---- 000:41 Increase your Strength level -------------------------------------------------------------------------


def test_000_41_1_raise_strength_one_space():
    """000:41.1: the Strength marker moves one space right (the Consigliere's step)."""
    state = kit.paused()
    p = state.player(0)
    kit.task(state, "raise_track", 0, s="strength")
    assert kit.ids(state) == ["raise:strength", "skip"]
    kit.answer(state, "raise:strength")
    assert p.levels["strength"] == 2
    kit.ok(state)


def test_000_41_2_strength_4_takes_one_discard():
    """000:41.2: Strength 4 costs any one Operations card."""
    state = kit.paused()
    empty_hand(state, 0)
    kit.give(state, 0, levels={"strength": 3})
    card = grab(state, 0, "fleet")
    p = state.player(0)
    kit.task(state, "raise_track", 0, s="strength")
    kit.answer(state, "raise:strength")
    assert kit.prompt(state).kind == "discard_raise"
    kit.answer(state, f"discard:{card}")
    assert p.levels["strength"] == 4
    assert p.hand == [] and state.decks["fleet"][-1] == card
    kit.ok(state)


def test_000_41_2_strength_4_refused_without_a_card():
    """000:41.2: with no card in hand, Strength 4 is not offered and choosing it is refused saying why."""
    state = kit.paused()
    empty_hand(state, 0)
    kit.give(state, 0, levels={"strength": 3})
    kit.task(state, "level_any", 0)
    assert "raise:strength" not in kit.ids(state)
    assert "raise:vip" in kit.ids(state)
    msg = kit.refuse(state, Choice(0, "level_any", "raise:strength"))
    assert "discard" in msg.lower(), msg
    assert state.player(0).levels["strength"] == 3


def test_000_41_2_strength_step_without_a_card_is_skipped():
    """000:41.2: the Consigliere's Strength step has no legal answer without a card, so it is not asked."""
    state = kit.paused()
    empty_hand(state, 0)
    kit.give(state, 0, levels={"strength": 3})
    kit.task(state, "raise_track", 0, s="strength")
    assert kit.is_waiting(state)
    assert state.player(0).levels["strength"] == 3


def test_000_41_3_strength_5_takes_two_discards():
    """000:41.3: Strength 5 costs any two Operations cards, each discarded under its deck."""
    state = kit.paused()
    empty_hand(state, 0)
    kit.give(state, 0, levels={"strength": 4})
    a = grab(state, 0, "vip")
    b = grab(state, 0, "party")
    p = state.player(0)
    kit.task(state, "raise_track", 0, s="strength")
    label = label_of(state, "raise:strength")
    assert "discard 2 cards" in label
    kit.answer(state, "raise:strength")
    kit.answer(state, f"discard:{a}")
    assert p.levels["strength"] == 4
    assert kit.prompt(state).kind == "discard_raise"
    kit.answer(state, f"discard:{b}")
    assert p.levels["strength"] == 5
    assert p.hand == [] and state.decks["vip"][-1] == a and state.decks["party"][-1] == b
    kit.ok(state)


def test_000_41_3_strength_5_refused_with_one_card():
    """000:41.3: one card is not enough for Strength 5: not offered, and refused saying why."""
    state = kit.paused()
    empty_hand(state, 0)
    kit.give(state, 0, levels={"strength": 4})
    grab(state, 0, "vip")
    kit.task(state, "level_any", 0)
    assert "raise:strength" not in kit.ids(state)
    msg = kit.refuse(state, Choice(0, "level_any", "raise:strength"))
    assert "discard" in msg.lower(), msg


def test_000_41_4_infamy_rises_with_each_strength_step():
    """000:41.4: each Strength step raises Infamy by one."""
    state = kit.paused()
    p = state.player(0)
    infamy = p.infamy
    kit.task(state, "raise_track", 0, s="strength")
    kit.answer(state, "raise:strength")
    kit.task(state, "raise_track", 0, s="strength")
    kit.answer(state, "raise:strength")
    assert (p.levels["strength"], p.infamy) == (3, infamy + 2)
    kit.ok(state)


# ---- 000:42 Discard a card to raise an Operations level once more (Zoning Clerk) -----------------------------------


def test_000_42_1_discard_to_raise_the_same_level_once_more():
    """000:42.1: after the Zoning Clerk's raise, one discarded card raises that same level once more."""
    state = kit.paused()
    empty_hand(state, 0)
    card = grab(state, 0, "fleet")
    p = state.player(0)
    before = dict(p.levels)
    infamy = p.infamy
    kit.task(state, "raise_ops_once_more", 0)
    kit.answer(state, "raise:party")
    assert kit.prompt(state).kind == "once_more"
    assert kit.ids(state) == [f"discard:{card}", "skip"]
    kit.answer(state, f"discard:{card}")
    assert p.levels == {**before, "party": before["party"] + 2}
    assert p.infamy == infamy + 2
    assert p.hand == [] and state.decks["fleet"][-1] == card
    kit.ok(state)


def test_000_42_1_keeping_the_cards_stops_after_one_raise():
    """000:42.1: the once-more raise is optional."""
    state = kit.paused()
    empty_hand(state, 0)
    card = grab(state, 0, "fleet")
    kit.task(state, "raise_ops_once_more", 0)
    kit.answer(state, "raise:vip")
    level = state.player(0).levels["vip"]
    kit.answer(state, "skip")
    assert state.player(0).levels["vip"] == level
    assert state.player(0).hand == [card]


def test_000_42_1_once_more_discard_counts_for_level_5():
    """000:42.1 with 000:40.2 and design §3.1: the once-more card is also the level-5 discard (one card, not two)."""
    state = kit.paused()
    empty_hand(state, 0)
    card = grab(state, 0, "vip")
    kit.give(state, 0, levels={"stills": 3})
    kit.task(state, "raise_ops_once_more", 0)
    kit.answer(state, "raise:stills")
    kit.answer(state, f"discard:{card}")
    assert state.player(0).levels["stills"] == 5
    assert state.player(0).hand == []
    kit.ok(state)


# ---- 000:43 Discard one Operations card ------------------------------------------------------------------------


def test_000_43_1_discard_a_card_from_the_hand():
    """000:43.1: the Park's copy starts by discarding one card from the hand."""
    state = kit.paused()
    empty_hand(state, 0)
    a = grab(state, 0, "stills")
    b = grab(state, 0, "vip")
    kit.task(state, "discard_copy", 0)
    assert set(kit.ids(state)) == {f"discard:{a}", f"discard:{b}"}
    kit.answer(state, f"discard:{a}")
    assert state.player(0).hand == [b]
    kit.ok(state)


@pytest.mark.parametrize("deck", TRACKS)
def test_000_43_2_discarded_card_goes_face_up_under_its_own_deck(deck):
    """000:43.2: the card is placed at the bottom of the deck it belongs to (decks are face up)."""
    state = kit.paused()
    empty_hand(state, 0)
    card = grab(state, 0, deck)
    others = {d: list(state.decks[d]) for d in TRACKS if d != deck}
    kit.task(state, "discard_copy", 0)
    kit.answer(state, f"discard:{card}")
    assert state.decks[deck][-1] == card
    assert {d: state.decks[d] for d in TRACKS if d != deck} == others
    kit.ok(state)


# ---- 000:44 Take an Operations card -----------------------------------------------------------------------------


def test_000_44_1_take_the_top_card_of_any_deck():
    """000:44.1: every non-empty deck is offered; the top card of the chosen one goes to the hand."""
    state = kit.paused()
    p = state.player(0)
    kit.task(state, "take_card", 0)
    assert kit.ids(state) == [f"deck:{d}" for d in TRACKS]
    top = state.decks["stills"][0]
    kit.answer(state, "deck:stills")
    assert p.hand[-1] == top and top not in state.decks["stills"]
    kit.ok(state)


def test_000_44_1_an_empty_deck_is_not_offered():
    """000:44.1: a card is drawn from a deck that has one."""
    state = kit.paused()
    moved = state.decks["party"]
    state.player(1).hand.extend(moved)
    state.decks["party"] = []
    kit.task(state, "take_card", 0)
    assert "deck:party" not in kit.ids(state)
    assert len(moved) > 0


# ---- 000:45 Produce barrels -----------------------------------------------------------------------------------------


def test_000_45_1_produce_with_an_operating_stills():
    """000:45.1: a Stills in a district without a Cop is Operating and produces."""
    state = kit.paused()
    move_stills(state, 0, cop=False)
    p = state.player(0)
    p.stills_barrels = 0
    kit.task(state, "produce", 0)
    assert p.stills_barrels == 2
    kit.ok(state)


def test_000_45_1_no_production_from_a_stills_that_is_not_operating():
    """000:45.1: an unprotected Stills in a Cop's district produces nothing."""
    state = kit.paused()
    move_stills(state, 0, cop=True)
    p = state.player(0)
    p.stills_barrels = 0
    kit.task(state, "produce", 0)
    assert p.stills_barrels == 0
    kit.ok(state)


def test_000_45_1_a_protected_stills_under_a_cop_produces():
    """000:45.1 with design §1.2: a Protected Stills is Operating even beside a Cop."""
    state = kit.paused()
    move_stills(state, 0, cop=True)
    dn, i = stills_at(state, 0)
    p = state.player(0)
    p.family_supply -= 1
    state.districts[dn - 1].spaces[i].building.family = True
    p.stills_barrels = 0
    kit.task(state, "produce", 0)
    assert p.stills_barrels == 2
    kit.ok(state)


def test_000_45_1_no_stills_on_the_map_no_production():
    """000:45.1: without a Stills on the main board, Produce does nothing."""
    state = kit.paused()
    lift_stills(state, 0)
    p = state.player(0)
    p.stills_barrels = 0
    kit.task(state, "produce", 0)
    assert p.stills_barrels == 0
    kit.ok(state)


@pytest.mark.parametrize(("level", "made"), [(1, 2), (3, 4), (5, 6)])
def test_000_45_2_barrels_under_the_stills_marker(level, made):
    """000:45.2: the number under the Stills marker goes onto the Stills area."""
    state = kit.paused()
    move_stills(state, 0, cop=False)
    kit.give(state, 0, levels={"stills": level}, stills_barrels=1)
    kit.task(state, "produce", 0)
    assert state.player(0).stills_barrels == 1 + made
    kit.ok(state)


# ---- 000:46 Sell barrels -----------------------------------------------------------------------------------------


def _sell_all(state) -> int:
    sold = 0
    while kit.prompt(state).kind == "sell" and any(i.startswith("sell:") for i in kit.ids(state)):
        kit.answer(state, next(i for i in kit.ids(state) if i.startswith("sell:")))
        sold += 1
        if kit.is_waiting(state):
            break
    return sold


def test_000_46_1_sell_up_to_the_party_value():
    """000:46.1: at Party level 1 (value 2) two of three barrels are sold; the third stays."""
    state = kit.paused()
    for _ in range(3):
        put(state, 0, barrel=True)
    kit.task(state, "sell", 0, n=2)
    assert len([i for i in kit.ids(state) if i.startswith("sell:")]) == 3
    assert _sell_all(state) == 2
    left = sum(1 for d in state.districts for sp in d.spaces if sp.building and sp.building.barrel)
    assert left == 1
    kit.ok(state)


def test_000_46_1_party_card_sells_at_the_party_value():
    """000:46.1: the Party card's Sell allows as many barrels as the value under the Party marker."""
    state = kit.paused()
    empty_hand(state, 0)
    for _ in range(6):
        put(state, 0, barrel=True)
    kit.give(state, 0, levels={"party": 3})
    card = grab(state, 0, "party", "leverage")
    kit.task(state, "play", 0, s="party")
    kit.answer(state, f"play:{card}")
    assert _sell_all(state) == 4
    kit.ok(state)


def test_000_46_1_only_barrels_beside_operating_buildings_sell():
    """000:46.1: a barrel beside an unprotected building in a Cop's district is not for sale, nor the Stills
    area's barrels."""
    state = kit.paused()
    here = put(state, 0, barrel=True)
    put(state, 0, cop=True, barrel=True)
    state.player(0).stills_barrels = 5
    kit.task(state, "sell", 0, n=4)
    assert [i for i in kit.ids(state) if i.startswith("sell:")] == [f"sell:{here[0]}:{here[1]}"]


@pytest.mark.parametrize(
    ("kind", "infamy", "price"),
    [("speakeasy", 5, 3), ("speakeasy", 12, 5), ("nightclub", 9, 6), ("casino", 20, 15)],
)
def test_000_46_2_price_by_infamy_and_building(kind, infamy, price):
    """000:46.2: the money depends on the seller's Infamy and the building; it goes to the pocket."""
    state = kit.paused()
    put(state, 0, kind, barrel=True)
    kit.give(state, 0, infamy=infamy)
    p = state.player(0)
    pocket, safe = p.pocket, p.safe
    kit.task(state, "sell", 0, n=2)
    kit.answer(state, "sell:")
    assert (p.pocket, p.safe) == (pocket + price, safe)
    kit.ok(state)


# ---- 000:47 Hire one or more Goons -----------------------------------------------------------------------------------


def test_000_47_1_hire_at_the_cheapest_empty_space_again_and_again():
    """000:47.1: each Goon costs the cheapest empty Goon space; hiring repeats until the player stops."""
    state = kit.paused()
    kit.give(state, 0, pocket=10, goons=1)
    p = state.player(0)
    kit.task(state, "hire_goons", 0)
    assert kit.ids(state) == ["hire", "skip"]
    assert "$1" in kit.labels(state)[0]
    kit.answer(state, "hire")
    assert (p.goons, p.pocket) == (2, 9)
    assert "$2" in kit.labels(state)[0]
    kit.answer(state, "hire")
    assert (p.goons, p.pocket) == (3, 7)
    kit.answer(state, "skip")
    assert kit.is_waiting(state) and p.goons == 3
    kit.ok(state)


def test_000_47_1_the_first_space_costs_nothing():
    """000:47.1: the $0 space is free."""
    state = kit.paused()
    kit.give(state, 0, pocket=0, safe=0, goons=0)
    kit.task(state, "hire_goons", 0)
    assert "$0" in kit.labels(state)[0]
    kit.answer(state, "hire")
    assert state.player(0).goons == 1 and state.player(0).pocket == 0
    kit.ok(state)


# ---- 000:48 Gain one Family Member -----------------------------------------------------------------------------


def test_000_48_1_family_member_to_the_vip_area():
    """000:48.1: a gained Family Member may go to the VIP area."""
    state = kit.paused()
    clear_docks(state)
    p = state.player(0)
    supply, vip = p.family_supply, p.family_vip
    kit.task(state, "place_family", 0)
    assert kit.ids(state) == ["vip", "docks:0", "docks:1", "docks:2"]
    kit.answer(state, "vip")
    assert (p.family_supply, p.family_vip) == (supply - 1, vip + 1)
    kit.ok(state)


def test_000_48_1_family_member_to_the_docks():
    """000:48.1: ...or to the Docks (a Docks zone of the player's choice)."""
    state = kit.paused()
    clear_docks(state)
    p = state.player(0)
    supply = p.family_supply
    kit.task(state, "place_family", 0)
    kit.answer(state, "docks:2")
    assert state.docks[2][0] == 0 and p.family_supply == supply - 1
    kit.ok(state)


# ---- 000:49 Gain one Book ----------------------------------------------------------------------------------------


def test_000_49_1_book_from_supply_to_the_books_space():
    """000:49.1: a Book moves from the supply onto the Books space."""
    state = kit.paused()
    p = state.player(0)
    books, supply = p.books, p.book_supply
    kit.task(state, "gain", 0, n=1, s="book")
    assert (p.books, p.book_supply) == (books + 1, supply - 1)
    kit.ok(state)


# ---- 000:50 Increase any one Operations or Strength level --------------------------------------------------------


def test_000_50_1_any_of_the_five_levels_is_offered():
    """000:50.1: all four Operations tracks and Strength are offered."""
    state = kit.paused()
    kit.task(state, "level_any", 0)
    assert [i for i in kit.ids(state) if i != "skip"] == [f"raise:{t}" for t in LEVEL_TRACKS]


@pytest.mark.parametrize("track", LEVEL_TRACKS)
def test_000_50_1_the_chosen_level_rises_by_one(track):
    """000:50.1: the chosen level, and only it, rises by 1."""
    state = kit.paused()
    p = state.player(0)
    before = dict(p.levels)
    kit.task(state, "level_any", 0)
    kit.answer(state, f"raise:{track}")
    assert p.levels == {**before, track: before[track] + 1}
    kit.ok(state)


# ---- 000:51 Gain one Helper card ------------------------------------------------------------------------------------


def _helper_first(state, name: str) -> int:
    """Put the Helper ``name`` at the first place of the display (swapping it with the deck if needed)."""
    hs = kit.R().helpers.cards
    hid = next(h.id for h in hs if h.name == name)
    if hid in state.helper_display:
        k = state.helper_display.index(hid)
        state.helper_display[0], state.helper_display[k] = state.helper_display[k], state.helper_display[0]
    else:
        k = state.helper_deck.index(hid)
        state.helper_deck[k], state.helper_display[0] = state.helper_display[0], hid
    return hid


def test_000_51_1_take_a_helper_face_up_beside_the_board():
    """000:51.1: the Helper goes face up next to the Operations board (and its upper half is gained, design §11.2)."""
    state = kit.paused()
    bagman = _helper_first(state, "Bagman")
    p = state.player(0)
    pocket = p.pocket
    kit.task(state, "take_helper", 0)
    assert f"helper:{bagman}" in kit.ids(state)
    kit.answer(state, f"helper:{bagman}")
    assert p.helpers == [bagman] and p.screen == []
    assert p.pocket == pocket + 3
    kit.ok(state)


def test_000_51_2_the_display_is_refilled():
    """000:51.2: the empty place takes the top card of the Helper deck."""
    state = kit.paused()
    taken = state.helper_display[1]
    top = state.helper_deck[0]
    kit.task(state, "take_helper", 0)
    kit.answer(state, f"helper:{taken}")
    assert state.helper_display[1] == top
    assert top not in state.helper_deck
    assert len([h for h in state.helper_display if h is not None]) == 3


def test_000_51_2_no_refill_from_an_empty_deck():
    """000:51.2 with design §11.2: with the Helper deck used up the place stays empty."""
    state = kit.paused()
    state.player(2).helpers.extend(state.helper_deck)
    state.helper_deck = []
    taken = state.helper_display[0]
    kit.task(state, "take_helper", 0)
    kit.answer(state, f"helper:{taken}")
    assert state.helper_display[0] is None


# ---- 000:52 Open a Speakeasy or Stills, or take over a Mobster Speakeasy -----------------------------------------


def test_000_52_1_open_up_to_two_times():
    """000:52.1: the Contractor's action asks twice, then stops."""
    state = kit.paused()
    kit.give(state, 0, pocket=30)
    a = free_space(state)
    set_tile(state, *a, "Cash")
    kit.task(state, "build", 0, n=2)
    kit.answer(state, "row:speakeasy:0")
    kit.answer(state, f"open:{a[0]}:{a[1]}")
    assert kit.prompt(state).kind == "build"
    b = free_space(state)
    set_tile(state, *b, "Cash")
    kit.answer(state, "row:speakeasy:1")
    kit.answer(state, f"open:{b[0]}:{b[1]}")
    while not kit.is_waiting(state):
        assert kit.prompt(state).kind != "build"
        kit.answer(state, kit.ids(state)[0])
    built = [
        (d.number, i)
        for d in state.districts
        for i, sp in enumerate(d.spaces)
        if sp.building and sp.building.owner == 0
    ]
    assert a in built and b in built
    kit.ok(state)


@pytest.mark.parametrize(("row", "cost"), [(0, 3), (3, 5), (6, 8)])
def test_000_52_1_speakeasy_costs_3_5_or_8(row, cost):
    """000:52.1: a Speakeasy costs the $3, $5 or $8 printed on its row space."""
    state = kit.paused()
    kit.give(state, 0, pocket=20)
    dn, i = free_space(state)
    set_tile(state, dn, i, "Nest egg")
    kit.task(state, "build", 0, n=1)
    assert f"${cost}" in label_of(state, f"row:speakeasy:{row}")
    kit.answer(state, f"row:speakeasy:{row}")
    kit.answer(state, f"open:{dn}:{i}")
    p = state.player(0)
    assert p.pocket == 20 - cost
    assert state.districts[dn - 1].spaces[i].building.kind == "speakeasy"
    assert p.rows["speakeasy"][row] is False
    kit.ok(state)


def test_000_52_1_stills_costs_5():
    """000:52.1: the Stills costs $5."""
    state = kit.paused()
    lift_stills(state, 0)
    kit.give(state, 0, pocket=20)
    dn, i = free_space(state)
    set_tile(state, dn, i, "Nest egg")
    kit.task(state, "build", 0, n=1)
    assert "$5" in label_of(state, "row:stills:0")
    kit.answer(state, "row:stills:0")
    kit.answer(state, f"open:{dn}:{i}")
    assert state.player(0).pocket == 15
    assert state.districts[dn - 1].spaces[i].building.kind == "stills"
    kit.ok(state)


def test_000_52_1_only_empty_spaces_are_offered():
    """000:52.1: a Speakeasy opens on an empty space: never beside a building, never on a Mobster-held space
    (that one is a take-over)."""
    state = kit.paused()
    kit.give(state, 0, pocket=20)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    opens = {tuple(int(x) for x in i.split(":")[1:]) for i in kit.ids(state) if i.startswith("open:")}
    for d in state.districts:
        for i, sp in enumerate(d.spaces):
            assert ((d.number, i) in opens) == (sp.building is None and not sp.mobster)


def test_000_52_1_unaffordable_building_refused():
    """000:52.1 with design §4: a $5 Speakeasy with $4 in pocket and $1 in the safe is not offered; choosing it is
    refused saying why."""
    state = kit.paused()
    kit.give(state, 0, pocket=4, safe=1)
    kit.task(state, "build", 0, n=1)
    ids = kit.ids(state)
    assert "row:speakeasy:0" in ids
    assert "row:speakeasy:3" not in ids and "row:speakeasy:6" not in ids
    msg = kit.refuse(state, Choice(0, "build", "row:speakeasy:3"))
    low = msg.lower()
    assert any(w in low for w in ("afford", "cannot pay", "can't pay", "not enough", "$5")), msg


def _mobster_space(state, strength: int) -> tuple[int, int]:
    """A Mobster-held space in an open district whose Strength tile is set to ``strength``."""
    for d in state.districts:
        for i, sp in enumerate(d.spaces):
            if sp.building is None and sp.mobster:
                d.strength = strength
                return d.number, i
    dn, i = free_space(state)
    state.districts[dn - 1].spaces[i].mobster = True
    state.districts[dn - 1].strength = strength
    return dn, i


def test_000_52_1_take_over_a_mobster_speakeasy():
    """000:52.1: a take-over places the player's Speakeasy on the Mobster-held space, paying its cost; the Mobster
    Speakeasy goes (design §6.2)."""
    state = kit.paused()
    kit.give(state, 0, pocket=20, goons=3, associate=None)
    dn, i = _mobster_space(state, 4)
    set_tile(state, dn, i, "Nest egg")
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:3")
    assert f"take:{dn}:{i}:g3" in kit.ids(state)
    kit.answer(state, f"take:{dn}:{i}:g3")
    sp = state.districts[dn - 1].spaces[i]
    assert sp.building is not None and sp.building.owner == 0 and sp.building.kind == "speakeasy"
    assert not sp.mobster
    p = state.player(0)
    assert (p.pocket, p.goons) == (15, 0)
    kit.ok(state)


def test_000_52_1_two_take_overs_in_one_action():
    """000:52.1: "up to 2 times" counts take-overs too."""
    state = kit.paused()
    kit.give(state, 0, pocket=20, goons=6, associate=None)
    a = _mobster_space(state, 3)
    set_tile(state, *a, "Nest egg")
    kit.task(state, "build", 0, n=2)
    kit.answer(state, "row:speakeasy:0")
    kit.answer(state, f"take:{a[0]}:{a[1]}:g2")
    b = _mobster_space(state, 3)
    set_tile(state, *b, "Nest egg")
    kit.answer(state, "row:speakeasy:3")
    kit.answer(state, f"take:{b[0]}:{b[1]}:g2")
    assert kit.is_waiting(state)
    p = state.player(0)
    assert (p.pocket, p.goons) == (12, 2)
    kit.ok(state)


def test_000_52_2_the_city_tile_moves_to_the_board_and_pays():
    """000:52.2: the space's City tile goes onto the Operations board and its benefit is gained."""
    state = kit.paused()
    kit.give(state, 0, pocket=20)
    dn, i = free_space(state)
    tile = set_tile(state, dn, i, "Favours")
    p = state.player(0)
    leverage = p.leverage
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:3")  # benefit: 1 Book, no Leverage
    kit.answer(state, f"open:{dn}:{i}")
    assert p.tiles[-1] == tile
    assert state.districts[dn - 1].spaces[i].tile is None
    assert p.leverage == leverage + 2
    kit.ok(state)


def test_000_52_2_city_tile_benefit_before_the_building_benefit():
    """000:52.2-3 with design §6.2: the City tile's gain is asked before the uncovered building benefit."""
    state = kit.paused()
    clear_docks(state)
    kit.give(state, 0, pocket=20)
    dn, i = free_space(state)
    set_tile(state, dn, i, "Cousin")  # gain 1 Family Member: asks where
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:1")  # benefit: take 1 Operations card
    kit.answer(state, f"open:{dn}:{i}")
    assert kit.prompt(state).kind == "place_family"
    kit.answer(state, "vip")
    assert kit.prompt(state).kind == "take_card"


@pytest.mark.parametrize(
    ("kind", "row", "field", "delta"),
    [
        ("speakeasy", 0, "leverage", 1),
        ("speakeasy", 2, "goons", 1),
        ("speakeasy", 3, "books", 1),
        ("speakeasy", 4, "family_vip", 1),
        ("speakeasy", 5, "leverage", 2),
        ("stills", 0, "stills_barrels", 2),
    ],
)
def test_000_52_3_gain_the_benefit_of_the_building(kind, row, field, delta):
    """000:52.3 with design §6.1: the benefit uncovered on the building's row space is gained."""
    state = kit.paused()
    if kind == "stills":
        lift_stills(state, 0)
    kit.give(state, 0, pocket=20, stills_barrels=0)
    dn, i = free_space(state)
    set_tile(state, dn, i, "Nest egg")
    p = state.player(0)
    before = getattr(p, field)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, f"row:{kind}:{row}")
    kit.answer(state, f"open:{dn}:{i}")
    assert getattr(p, field) == before + delta
    kit.ok(state)


def test_000_52_3_benefit_with_a_choice_is_asked():
    """000:52.3: the $3 Speakeasy on the second space uncovers "take 1 Operations card", which is asked."""
    state = kit.paused()
    kit.give(state, 0, pocket=20)
    dn, i = free_space(state)
    set_tile(state, dn, i, "Nest egg")
    hand = len(state.player(0).hand)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:1")
    kit.answer(state, f"open:{dn}:{i}")
    assert kit.prompt(state).kind == "take_card"
    kit.answer(state, "deck:fleet")
    assert len(state.player(0).hand) == hand + 1
    kit.ok(state)


def test_000_52_1_open_options_name_the_cost():
    """000:52.1: the open options say what is paid."""
    state = kit.paused()
    kit.give(state, 0, pocket=20)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:6")
    details = [o.detail for o in kit.prompt(state).options if o.id.startswith("open:")]
    assert details and all(re.search(r"pay \$8", d) for d in details)
