"""The engine's own decisions where neither the seeds nor the design file say how (docs/rules/speakeasy.md §8)."""

from __future__ import annotations

from engine.core import Choice
from tests.engine.speakeasy import kit


def test_decision_payment_takes_the_pocket_first_then_the_safe_at_2_to_1():
    state = kit.paused(3)
    kit.give(state, 0, pocket=2, safe=10, goons=1)
    kit.task(state, "hire_goons", 0)  # the Goon on the $1 space
    kit.answer(state, "hire")
    assert (state.player(0).pocket, state.player(0).safe) == (1, 10)
    kit.answer(state, "hire")  # $2: $1 from the pocket, $1 more as $2 from the safe
    assert (state.player(0).pocket, state.player(0).safe) == (0, 8)
    kit.ok(state)


def test_decision_identical_cards_are_one_option():
    state = kit.paused(3)
    kit.empty_hand(state, 0)
    a = kit.card_with(state, 0, "fleet", "leverage")
    b = kit.card_with(state, 0, "fleet", "leverage")
    assert kit.R().cards[a].name == kit.R().cards[b].name
    kit.task(state, "play", 0, s="fleet")
    assert [o for o in kit.ids(state) if o.startswith("play:")] == [f"play:{a}"]


def test_decision_the_setup_round_reverse_order_is_not_a_turn_order_change():
    """Design §8.2/§8.3: Casinos pay on a change; the Setup Round is played in reverse but the track is unchanged."""
    state = kit.new(3, 3)
    kit.setup_round(state)
    assert state.order == state.track
    for p in state.players:
        assert p.pocket <= 15


def test_decision_ambush_uses_rival_family_members_in_slot_order():
    state = kit.paused(3)
    ship = state.ships[0]
    zone = kit.R().district(ship.port).zone
    z = ("Downtown", "Midtown", "Uptown").index(zone)
    state.docks[z][:3] = [2, 0, 1]
    for seat in (0, 1, 2):
        kit.give(state, seat, family_supply=state.player(seat).family_supply - 1)
    kit.give(state, 0, pocket=5, levels={"strength": 5})
    before = [state.player(s).pocket for s in (1, 2)]
    state.act = 1
    kit.task(state, "ambush", 0)
    kit.answer(state, f"amb:{ship.number}:")
    # One rival Family Member is needed (P1 has one there): P3's comes first in slot order and earns $1.
    assert [state.player(s).pocket for s in (1, 2)] == [before[0], before[1] + 1]
    kit.ok(state)


def test_decision_the_build_step_can_go_back_to_choose_another_building():
    state = kit.paused(3)
    kit.give(state, 0, pocket=20)
    kit.task(state, "build", 0, n=2)
    kit.answer(state, "row:speakeasy:0")
    assert "back" in kit.ids(state)
    kit.answer(state, "back")
    assert kit.prompt(state).kind == "build" and "row:speakeasy:0" in kit.ids(state)
    assert state.player(0).pocket == 20


def test_decision_a_refused_choice_names_the_reason_and_what_is_allowed():
    state = kit.paused(3)
    kit.task(state, "place", 0)
    msg = kit.refuse(state, Choice(0, "place", "booth:4"))
    assert "Booth 4 costs 3 Leverage; you have 0." in msg and "allowed:" in msg


def test_decision_undo_mark_moves_when_a_card_is_drawn():
    state = kit.played(3, 2)
    before = state.undo_mark
    while kit.prompt(state).kind != "draw":
        kit.answer(state, kit.prompt(state).options[0].id)
    kit.answer(state, kit.prompt(state).options[0].id)
    assert state.undo_mark > before


def test_decision_a_card_put_under_a_deck_shows_nothing_and_stays_undoable():
    """A discard goes face up to the bottom of its deck (000:43.2): nothing face down moved, no chance was used,
    so the choice stays open to undo (the floor does not move past it)."""
    state = kit.paused(3)
    state.last_chooser = 0
    kit.task(state, "discard_copy", 0)
    card = state.player(0).hand[0]
    kit.answer(state, f"discard:{card}")
    assert state.decks[kit.R().cards[card].deck][-1] == card
    assert kit.GAME.undo_floor(state) < state.log_count


def test_decision_another_seats_choice_fixes_every_earlier_choice():
    """Seat 1 decides after seeing seat 0's choices: none of them may be taken back any more (the undo floor
    moves up to seat 1's choice), while seat 1's own choice stays open."""
    state = kit.paused(3)
    state.last_chooser = 0
    kit.task(state, "place_family", 1)
    kit.task(state, "place_family", 0)
    kit.answer(state, "vip")
    assert kit.GAME.undo_floor(state) < state.log_count
    kit.answer(state, "vip")
    assert kit.GAME.undo_floor(state) == state.log_count - 1


def test_decision_the_end_of_the_game_fixes_every_choice():
    """The final scoring shows every safe: after the last choice nothing can be undone."""
    state = kit.new(1, 3)
    while not kit.GAME.is_over(state):
        kit.answer(state, kit.prompt(state).options[0].id)
    assert kit.GAME.undo_floor(state) == state.log_count


def test_decision_the_safe_part_of_a_payment_is_told_to_the_payer_only():
    state = kit.paused(3)
    kit.give(state, 0, pocket=0, safe=10, goons=1)
    events = kit.task(state, "hire_goons", 0) + kit.answer(state, "hire")  # $1 from the safe, as $2
    public = [e.text for e in events if e.to is None]
    private = [e.text for e in events if e.to == (0,)]
    assert any("hires a Goon for $1" in t for t in public)
    assert not any("safe" in t for t in public)
    assert private == ["You paid $1: $0 from your pocket and $2 from your safe (2:1)."]
    assert state.player(0).safe == 8


def test_decision_an_unaffordable_upgrade_is_refused_with_its_cost():
    state = kit.paused(3)
    d = next(d for d in state.districts if any(sp.building is None and not sp.mobster for sp in d.spaces))
    kit.build(state, 0, d.number, kit.empty_space(state, d.number))
    kit.give(state, 0, pocket=3, safe=1)
    kit.task(state, "upgrade", 0, n=2)
    space = next(i for i, sp in enumerate(d.spaces) if sp.building and sp.building.owner == 0)
    msg = kit.refuse(state, Choice(0, "upgrade", f"up:{d.number}:{space}:0"))
    assert "That upgrade costs $6; you can spend at most $3" in msg


def test_decision_the_associate_helps_once_per_contractor_action():
    """Design §9.2: "one use per take-over action"; the second take-over of the same action gets no Associate."""
    state = kit.paused(3)
    held = next(d for d in state.districts if d.strength and sum(sp.mobster for sp in d.spaces) >= 2)
    kit.give(state, 0, pocket=40, goons=0, associate=held.mobster, levels={"strength": 1})
    kit.task(state, "build", 0, n=2)
    kit.answer(state, "row:speakeasy:0")
    first = next(i for i, sp in enumerate(held.spaces) if sp.mobster)
    kit.answer(state, f"take:{held.number}:{first}:ag0")
    assert held.spaces[first].building is not None
    assert kit.prompt(state).kind == "build"
    kit.answer(state, "row:speakeasy:1")
    # Strength 1 and no Goons cannot reach the tile alone, and the Associate has helped this action already.
    assert not any(o.startswith("take:") for o in kit.ids(state))
    assert any(o.startswith("open:") for o in kit.ids(state))
    kit.ok(state)


def test_decision_every_game_of_the_engine_is_offered_at_the_table():
    from cogs.pictures import PICTURES
    from engine.registry import GAMES, TABLE_GAMES

    assert set(TABLE_GAMES) == set(GAMES) == {"omerta", "speakeasy"}
    assert set(PICTURES) >= set(TABLE_GAMES)  # each game the table offers can be shown
