"""Design §2 (Locations and Persons of Interest) and the Leverage the Restaurant booths cost (§8.1).

Each test is named after the design section it checks; seed sentences it also rests on are named in its docstring
(ids from ../shared/seeds/rule-index.md).
"""

from __future__ import annotations

import pytest

from engine.core import Choice
from engine.speakeasy.components import TRACKS
from tests.engine.speakeasy import kit

#: Design §2's table: each Person's steps, in printed order.
PERSON_STEPS = {
    "harbour_master": ("gain_family", "play_fleet"),
    "rum_runner": ("play_fleet", "ambush"),
    "mechanic": ("produce", "play_stills_or_fleet"),
    "dispatcher": ("raise_stills_or_fleet", "produce"),
    "alderman": ("gain_book", "cook"),
    "police_captain": ("play_vip", "cook"),
    "consigliere": ("raise_strength", "gain_family"),
    "caporegime": ("gain_family", "hire_associate", "hire_goons"),
    "foreman": ("hire_goons", "build"),
    "fixer": ("build", "take_city_tile"),
    "zoning_clerk": ("raise_ops_once_more", "upgrade"),
    "permit_officer": ("upgrade", "play_any"),
}

#: The prompts each Person asks when every decision step has something to offer (auto steps ask nothing).
PERSON_PROMPTS = {
    "harbour_master": ["place_family", "play"],
    "rum_runner": ["play", "ambush"],
    "mechanic": ["play"],  # Produce is automatic
    "dispatcher": ["raise_track"],  # then the automatic Produce
    "alderman": ["cook"],  # after the automatic Book
    "police_captain": ["play", "cook"],
    "consigliere": ["raise_track", "place_family"],
    "caporegime": ["place_family", "hire_associate", "hire_goons"],
    "foreman": ["hire_goons", "build"],
    "fixer": ["build", "take_tile"],
    "zoning_clerk": ["raise_ops_once_more", "upgrade"],
    "permit_officer": ["upgrade", "play"],
}


def calm(state, number: int) -> None:
    """Take any Cop or face-down Cop tile off a district (to the box, so the Cop tiles still add up)."""
    d = state.districts[number - 1]
    if d.cop or d.cop_tile:
        state.box["cop_tiles"].append(number)
        d.cop = d.cop_tile = False


def rich(state, seat: int = 0):
    """A position where every Person step has something to offer to ``seat``."""
    p = state.player(seat)
    for card in list(p.hand):
        state.decks[kit.R().cards[card].deck].append(card)
    p.hand.clear()
    for deck in TRACKS:
        kit.card_with(state, seat, deck)
    kit.give(state, seat, pocket=40, safe=30, leverage=6, goons=3)
    p.book_supply -= 1
    p.books += 1
    calm(state, 2)
    calm(state, 1)  # seat 0's Stills stands in district 1 after the Setup Round
    kit.build(state, seat, 2, kit.empty_space(state, 2))
    # Two of the seat's Family Members in Ship 1's Docks zone, so the Rum-runner can ambush.
    from engine.speakeasy.board import zone_index

    zone = zone_index(state.ships[0].port)
    slots = state.docks[zone]
    for _ in range(2):
        slots[slots.index(None)] = seat
        p.family_supply -= 1
    return p


def walk(state) -> list[str]:
    """Answer every prompt, declining when a decline is offered (else the first option); the prompt kinds asked."""
    asked = []
    while not kit.is_waiting(state):
        asked.append(kit.prompt(state).kind)
        kit.answer(state, "skip" if "skip" in kit.ids(state) else kit.ids(state)[0])
    return asked


def place(state, seat: int, option: str) -> None:
    """Ask ``seat`` to place a Capo and answer ``option``."""
    kit.task(state, "place", seat)
    kit.answer(state, option)


# ---- the Persons (design §2 general rules, table) ----


def test_design_2_twelve_persons_with_the_printed_steps():
    """Design §2 table: the 12 Persons of the six two-Person locations and their steps in printed order."""
    persons = kit.R().locations.persons
    assert len(persons) == 12
    assert {p.id: p.steps for p in persons} == PERSON_STEPS


@pytest.mark.parametrize("pid", list(PERSON_PROMPTS))
def test_design_2_person_steps_are_asked_in_printed_order(pid):
    """Design §0.9, §2: on your Person you do the steps in the order listed (seed 000:29.2 "perform the actions of
    that person")."""
    state = kit.paused()
    p = rich(state)
    barrels = p.stills_barrels
    place(state, 0, f"person:{pid}")
    assert state.persons[pid] == 0
    asked = []
    while not kit.is_waiting(state):
        kind = kit.prompt(state).kind
        asked.append(kind)
        if pid == "mechanic":
            assert p.stills_barrels > barrels, "Mechanic: Produce comes before the card"
        if pid == "dispatcher":
            assert p.stills_barrels == barrels, "Dispatcher: the raise comes before Produce"
        if pid == "alderman":
            assert p.books == 2, "Alderman: the Book is gained before Cook the Books"
        kit.answer(state, "skip" if "skip" in kit.ids(state) else kit.ids(state)[0])
    assert asked == PERSON_PROMPTS[pid]
    if pid == "dispatcher":
        assert p.stills_barrels > barrels
    kit.ok(state)


def test_design_2_every_asked_person_step_can_be_declined():
    """Design §0.9, §2: "Every step is optional": each step a Person asks about offers a decline option."""
    refused = []
    for pid in PERSON_PROMPTS:
        state = kit.paused()
        rich(state)
        place(state, 0, f"person:{pid}")
        while not kit.is_waiting(state):
            pr = kit.prompt(state)
            if "skip" not in kit.ids(state):
                refused.append(f"{pid}: {pr.kind}")
            kit.answer(state, "skip" if "skip" in kit.ids(state) else kit.ids(state)[0])
    assert refused == [], f"Person steps asked without a decline option: {refused}"


@pytest.mark.parametrize(
    ("pid", "later"),
    [("rum_runner", "ambush"), ("police_captain", "cook"), ("foreman", "build"), ("zoning_clerk", "upgrade")],
)
def test_design_2_skipping_a_step_keeps_the_later_ones(pid, later):
    """Design §2: skipping one step does not cancel the later ones."""
    state = kit.paused()
    rich(state)
    place(state, 0, f"person:{pid}")
    first = kit.prompt(state).kind
    kit.answer(state, "skip")
    assert kit.prompt(state).kind == later
    assert kit.prompt(state).kind != first
    kit.ok(state)


def test_design_2_a_step_with_no_legal_option_is_skipped_and_the_capo_still_placed():
    """Design §0.9, §2: a step with no legal option is skipped (no prompt has zero options); you may place a Capo
    even when you can do no step."""
    state = kit.paused()
    p = state.player(0)
    kit.give(state, 0, family_supply=0, family_vip=p.family_vip + p.family_supply)
    kit.give(state, 0, levels={"strength": kit.R().tracks.max_level})
    place(state, 0, "person:consigliere")  # Strength at the top, no Family Member left: neither step can be done
    assert state.persons["consigliere"] == 0
    assert kit.is_waiting(state)
    kit.ok(state)


def test_decision_a_private_step_is_asked_whenever_the_public_cannot_rule_it_out():
    """Design §4 (the safe and the hand are hidden): a private step that has no option for this seat is still
    asked, with only its decline, when the public cannot know that (here: no money, but nobody else knows the safe
    is empty); one the public knows is impossible is skipped (a full Goon track, an empty hand)."""
    state = kit.paused()
    kit.give(state, 0, pocket=0, safe=0)
    place(state, 0, "person:foreman")
    for kind in ("hire_goons", "build"):
        prompt = kit.prompt(state)
        assert prompt.kind == kind and prompt.secret and kit.ids(state) == ["skip"]
        kit.answer(state, "skip")
    assert kit.is_waiting(state)
    state = kit.paused()
    kit.give(state, 0, pocket=0, safe=0, goons=len(kit.R().tracks.goon_costs))
    kit.task(state, "hire_goons", 0)
    assert kit.is_waiting(state)
    for card in state.player(0).hand:
        state.decks[kit.R().cards[card].deck].append(card)
    state.player(0).hand.clear()
    kit.task(state, "play", 0, s="fleet")
    assert kit.is_waiting(state)
    kit.ok(state)


def test_design_2_a_step_without_option_is_skipped_and_the_next_is_asked():
    """Design §0.9: Harbour Master with no Fleet card: Gain a Family Member is asked, the card step is skipped."""
    state = kit.paused()
    p = state.player(0)
    for card in list(p.hand):
        state.decks[kit.R().cards[card].deck].append(card)
    p.hand.clear()
    place(state, 0, "person:harbour_master")
    assert kit.prompt(state).kind == "place_family"
    kit.answer(state, "vip")
    assert kit.is_waiting(state)
    assert p.family_vip == 1
    kit.ok(state)


def test_design_2_one_capo_per_person_per_act():
    """Design §2, seed 000:29.2-3: each Person holds one Capo per Act; a taken Person is not offered."""
    state = kit.paused()
    place(state, 0, "person:alderman")
    state.tasks.clear()
    kit.task(state, "place", 1)
    assert "person:alderman" not in kit.ids(state)
    assert "person:police_captain" in kit.ids(state)


def test_design_2_refused_placing_on_a_person_that_already_has_a_capo():
    """Design §2, seed 000:29.2-3: the refusal says that Person already has a Capo this Act."""
    state = kit.paused()
    place(state, 0, "person:alderman")
    state.tasks.clear()
    kit.task(state, "place", 1)
    msg = kit.refuse(state, Choice(1, "place", "person:alderman"))
    assert "Alderman" in msg
    assert "already" in msg and "Capo" in msg
    assert "this Act" in msg


def test_design_2_play_a_card_slots_it_gains_its_benefit_and_does_the_deck_action():
    """Design §2 "Play a X card", seed 000:39.1-4: the card goes to its slot, the previous slot card face up to the
    bottom of its deck, the top-left benefit is gained, then the deck action at the current value."""
    state = kit.paused()
    p = state.player(0)
    kit.give(state, 0, leverage=0, levels={"fleet": 1})
    old = kit.card_with(state, 0, "fleet", "value_bonus")
    p.hand.remove(old)
    if p.slots["fleet"] is not None:
        state.decks["fleet"].insert(0, p.slots["fleet"])
    p.slots["fleet"] = old
    card = kit.card_with(state, 0, "fleet", "leverage")
    calm(state, 2)
    kit.build(state, 0, 2, kit.empty_space(state, 2))
    kit.give(state, 0, stills_barrels=3)
    kit.task(state, "play", 0, s="fleet")
    name = kit.R().cards[card].name
    kit.answer(state, next(o for o in kit.ids(state) if o != "skip" and kit.R().cards[int(o[5:])].name == name))
    played = p.slots["fleet"]
    assert kit.R().cards[played].name == name
    assert state.decks["fleet"][-1] == old  # the previous card, at the bottom of its deck
    assert p.leverage == 2  # top-left benefit
    assert kit.prompt(state).kind == "deliver"  # Fleet: Deliver
    assert state.tasks[-1].n == 2  # at the current value, the old card's +1 has no lasting effect
    walk(state)
    kit.ok(state)


# ---- the Restaurant ----


def test_design_2_booth_leverage_costs_and_rewards_data():
    """Design §2 booth table, §8.1: booths cost 0/1/2/3 Leverage; rewards 2 Leverage / a Helper / +1 level /
    a City tile and a Book."""
    booths = kit.R().locations.booths
    assert [b.leverage for b in booths] == [0, 1, 2, 3]
    assert [[(e.kind, e.n) for e in b.reward] for b in booths] == [
        [("leverage", 2)],
        [("helper", 1)],
        [("level_any", 1)],
        [("city_tile", 1), ("book", 1)],
    ]


def test_design_2_booth_is_offered_only_if_its_leverage_can_be_paid():
    """Design §2, §8.1: no payment, no placement."""
    state = kit.paused()
    kit.give(state, 0, leverage=1)
    kit.task(state, "place", 0)
    assert [i for i in kit.ids(state) if i.startswith("booth:")] == ["booth:1", "booth:2"]


def test_design_2_booth_leverage_is_paid_on_placement_before_the_main_action():
    """Design §2, §8.1: the booth is chosen and its Leverage paid on placement; then M; then the reward."""
    state = kit.paused()
    kit.give(state, 0, leverage=5)
    party = kit.card_with(state, 0, "party", "pocket")
    place(state, 0, "booth:3")
    p = state.player(0)
    assert state.booths[2] == 0
    assert p.leverage == 3  # paid at once
    assert kit.prompt(state).kind == "sell_or_party"  # M comes before the reward
    assert f"play:{party}" in kit.ids(state)
    kit.answer(state, "skip")
    assert kit.prompt(state).kind == "level_any"  # booth 3's reward, after M
    kit.answer(state, "raise:party")
    assert p.levels["party"] == 2
    kit.ok(state)


def test_design_2_booth_1_reward_two_leverage():
    """Design §2, §8.1: booth 1 costs nothing and gives 2 Leverage after M."""
    state = kit.paused()
    kit.give(state, 0, leverage=0)
    place(state, 0, "booth:1")
    if not kit.is_waiting(state):
        assert state.player(0).leverage == 0
        walk(state)
    assert state.player(0).leverage == 2
    kit.ok(state)


def test_design_2_booth_2_reward_a_helper_card():
    """Design §2: booth 2 costs 1 Leverage and gives one Helper card."""
    state = kit.paused()
    kit.give(state, 0, leverage=1)
    place(state, 0, "booth:2")
    assert state.player(0).leverage == 0
    if kit.prompt(state).kind == "sell_or_party":
        kit.answer(state, "skip")
    assert kit.prompt(state).kind == "take_helper"
    shown = [h for h in state.helper_display if h is not None]
    kit.answer(state, f"helper:{shown[0]}")
    assert shown[0] in state.player(0).helpers
    walk(state)
    kit.ok(state)


def test_design_2_booth_4_reward_a_city_tile_and_a_book():
    """Design §2: booth 4 costs 3 Leverage and gives a City tile from the display and a Book."""
    state = kit.paused()
    kit.give(state, 0, leverage=3)
    p = state.player(0)
    books, tiles = p.books, len(p.tiles)
    place(state, 0, "booth:4")
    assert p.leverage == 0
    if kit.prompt(state).kind == "sell_or_party":
        kit.answer(state, "skip")
    assert kit.prompt(state).kind == "take_tile"
    kit.answer(state, "tile:0")
    walk(state)  # the tile's own benefit, if it asks anything
    assert len(p.tiles) == tiles + 1
    assert p.books >= books + 1
    kit.ok(state)


def test_design_2_one_capo_per_booth_per_act():
    """Design §2: one Capo per booth per Act."""
    state = kit.paused()
    kit.give(state, 0, leverage=5)
    kit.give(state, 1, leverage=5)
    place(state, 0, "booth:2")
    state.tasks.clear()
    kit.task(state, "place", 1)
    booths = [i for i in kit.ids(state) if i.startswith("booth:")]
    assert "booth:2" not in booths
    assert booths == ["booth:1", "booth:3", "booth:4"]
    msg = kit.refuse(state, Choice(1, "place", "booth:2"))
    assert "Booth 2" in msg


@pytest.mark.parametrize(("players", "booths"), [(2, ["booth:1", "booth:2", "booth:3"]), (3, None), (4, None)])
def test_design_2_small_side_has_booths_1_to_3_only(players, booths):
    """Design §2: the 1-2 player side has booths 1-3 only; the 3-4 side has 4."""
    state = kit.paused(players)
    kit.give(state, 0, leverage=10)
    kit.task(state, "place", 0)
    offered = [i for i in kit.ids(state) if i.startswith("booth:")]
    assert offered == (booths or ["booth:1", "booth:2", "booth:3", "booth:4"])


def test_design_2_first_place_is_always_open_and_unlimited():
    """Design §0.9, §2, seed 000:29.4: Lucky's table takes any number of Capos; a Capo can always be placed."""
    state = kit.paused()
    for seat in range(3):
        state.tasks.clear()
        kit.task(state, "place", seat)
        assert "first" in kit.ids(state)
        kit.answer(state, "first")
    assert state.first_place == [0, 1, 2]
    # Every Person, booth and Park space taken: first place is still offered.
    state.tasks.clear()
    for per in kit.R().locations.persons:
        state.persons[per.id] = 1
    state.booths = [1, 1, 1, 1]
    state.park = [1, 1, 1]
    kit.task(state, "place", 0)
    assert kit.ids(state) == ["first"]


def test_design_2_first_place_moves_the_marker_to_first_at_once():
    """Design §2, §8.2: the move at Lucky's table is not optional and happens on placement, before M; the last to
    arrive ends up first; the current round's order is unchanged."""
    state = kit.paused()
    order = list(state.order)
    last = state.track[-1]
    party = kit.card_with(state, last, "party", "pocket")
    place(state, last, "first")
    assert state.track[0] == last
    assert kit.prompt(state).kind == "sell_or_party"  # M comes after the move
    assert f"play:{party}" in kit.ids(state)
    kit.answer(state, "skip")
    other = state.track[-1]
    place(state, other, "first")
    walk(state)
    assert state.track[:2] == [other, last]
    assert state.order == order
    kit.ok(state)


def test_design_2_restaurant_main_action_sell_barrels():
    """Design §2: the Restaurant's M sells barrels at the Party value (seed 000:46.1)."""
    state = kit.paused()
    calm(state, 2)
    b = kit.build(state, 0, 2, kit.empty_space(state, 2), barrel=True)
    p = state.player(0)
    pocket = p.pocket
    place(state, 0, "first")
    assert "sell" in kit.ids(state)
    kit.answer(state, "sell")
    assert kit.prompt(state).kind == "sell"
    assert state.tasks[-1].n == 2  # Party value at level 1
    kit.answer(state, "sell:2:")
    assert not b.barrel
    assert p.pocket == pocket + 3  # Speakeasy at Infamy 5-7
    kit.ok(state)


def test_design_2_restaurant_play_a_party_card_instead():
    """Design §2: instead of selling, play a Party card (it goes to the Party slot and its action Sells)."""
    state = kit.paused()
    calm(state, 2)
    kit.build(state, 0, 2, kit.empty_space(state, 2), barrel=True)
    p = state.player(0)
    card = kit.card_with(state, 0, "party", "value_bonus")
    place(state, 0, "first")
    kit.answer(state, f"play:{card}")
    assert p.slots["party"] == card
    assert card not in p.hand
    assert kit.prompt(state).kind == "sell"
    assert state.tasks[-1].n == 3  # Party value 2, +1 from the card
    walk(state)
    kit.ok(state)


# ---- the Park ----


def test_design_2_park_three_spaces_one_capo_each_per_act():
    """Design §2: the Park has 3 spaces, one Capo each per Act."""
    state = kit.paused()
    place(state, 0, "park:0")
    kit.answer(state, "reward")
    state.tasks.clear()
    kit.task(state, "place", 1)
    assert [i for i in kit.ids(state) if i.startswith("park:")] == ["park:1", "park:2"]
    msg = kit.refuse(state, Choice(1, "place", "park:0"))
    assert "Park space 1" in msg


@pytest.mark.parametrize(
    ("space", "check"),
    [
        (0, lambda before, p: p.pocket == before.pocket + 5 and p.safe == before.safe),
        (1, lambda before, p: p.leverage == before.leverage + 2),
        (2, lambda before, p: p.books == before.books + 1 and len(p.hand) == len(before.hand) + 1),
    ],
)
def test_design_2_park_space_rewards(space, check):
    """Design §2: P1 $5 to the pocket, P2 2 Leverage, P3 one Book and one Operations card."""
    import copy

    state = kit.paused()
    before = copy.deepcopy(state.player(0))
    place(state, 0, f"park:{space}")
    assert kit.prompt(state).kind == "park"
    kit.answer(state, "reward")
    if space == 2:
        assert kit.prompt(state).kind == "take_card"
        kit.answer(state, "deck:vip")
    assert kit.is_waiting(state)
    assert check(before, state.player(0))
    kit.ok(state)


def test_design_2_park_copy_offers_only_persons_holding_an_opponents_capo():
    """Design §2: copy a Person that holds an opponent's Capo this Act; not your own, not the Restaurant."""
    state = kit.paused()
    kit.give(state, 1, leverage=3)
    place(state, 0, "person:mechanic")
    state.tasks.clear()
    place(state, 1, "person:alderman")
    state.tasks.clear()
    place(state, 1, "booth:1")
    state.tasks.clear()
    place(state, 2, "first")
    state.tasks.clear()
    place(state, 0, "park:0")
    assert sorted(kit.ids(state)) == ["copy:alderman", "reward"]


def test_design_2_park_copy_needs_a_card_to_discard():
    """Design §2: the copy costs one discarded Operations card; with an empty hand only the reward is offered."""
    state = kit.paused()
    place(state, 1, "person:alderman")
    state.tasks.clear()
    p = state.player(0)
    for card in list(p.hand):
        state.decks[kit.R().cards[card].deck].append(card)
    p.hand.clear()
    place(state, 0, "park:1")
    assert kit.ids(state) == ["reward"]


def test_design_2_park_copy_discards_then_does_all_steps_and_the_opponents_capo_stays():
    """Design §2: discard one card (seed 000:43.1-2), then do all the steps of the Person as if your Capo stood
    there; the opponent's Capo stays where it is."""
    state = kit.paused()
    place(state, 1, "person:alderman")
    walk(state)
    p = state.player(0)
    kit.give(state, 0, leverage=2)
    books = p.books
    hand = len(p.hand)
    place(state, 0, "park:2")
    kit.answer(state, "copy:alderman")
    assert kit.prompt(state).kind == "discard_copy"  # the discard comes first
    card = p.hand[0]
    kit.answer(state, f"discard:{card}")
    assert card not in p.hand
    assert state.decks[kit.R().cards[card].deck][-1] == card  # face up at the bottom of its deck
    assert len(p.hand) == hand - 1
    assert p.books == books + 1  # the Alderman's Gain one Book
    assert kit.prompt(state).kind == "cook"  # then his Cook the Books
    kit.answer(state, "hall")
    assert state.persons["alderman"] == 1
    assert state.park[2] == 0
    kit.ok(state)


# ---- Leverage (design §8.1) ----


def test_design_8_1_no_leverage_limit_and_booth_1_gives_two():
    """Design §8.1: there is no personal Leverage limit; booth 1 gives +2."""
    state = kit.paused()
    kit.give(state, 0, leverage=40)
    place(state, 0, "booth:1")
    walk(state)
    assert state.player(0).leverage == 42
    kit.ok(state)


@pytest.mark.parametrize("booth", [2, 3, 4])
def test_design_8_1_booths_cost_1_2_3_leverage(booth):
    """Design §8.1 sink 1: Restaurant booths cost 0, 1, 2 or 3 Leverage."""
    state = kit.paused()
    kit.give(state, 0, leverage=5)
    place(state, 0, f"booth:{booth}")
    assert state.player(0).leverage == 5 - (booth - 1)
    walk(state)
    kit.ok(state)
