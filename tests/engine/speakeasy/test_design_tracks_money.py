"""Design §3 (tracks, Operations cards), §4 (money), §5 (Infamy), §9 (Goons, Associates, Family Members).

The house rules are in ../shared/design/speakeasy-gaps.md; tests are named after the section they check. Each
test sets a position up from ``kit.paused`` and asks one step.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from engine.core import Choice
from engine.speakeasy import economy as eco
from engine.speakeasy.barrels import ship_price
from engine.speakeasy.board import is_open, zone_index
from engine.speakeasy.components import LEVEL_TRACKS, TRACKS
from engine.speakeasy.flow import advance
from engine.speakeasy.state import SpeakeasyState
from tests.engine.speakeasy import kit

# ---- helpers -----------------------------------------------------------------------------------------------------


def copy(state: SpeakeasyState) -> SpeakeasyState:
    return kit.GAME.loads(kit.GAME.dumps(state))


BASE = kit.paused()


def fresh() -> SpeakeasyState:
    """A paused 3-player game after the Setup Round (a copy, so each test has its own)."""
    return copy(BASE)


def label_of(state, option: str) -> str:
    """The label of one option of the open prompt."""
    return next(o.label for o in kit.prompt(state).options if o.id == option)


def empty_hand(state, seat: int) -> None:
    p = state.player(seat)
    for card in list(p.hand):
        p.hand.remove(card)
        state.decks[kit.R().cards[card].deck].append(card)


def clear_slots(state, seat: int) -> None:
    p = state.player(seat)
    for deck, card in p.slots.items():
        if card is not None:
            state.decks[deck].append(card)
            p.slots[deck] = None


def grab(state, seat: int, deck: str, kind: str | None = None) -> int:
    """Move a card of ``deck`` (whose benefit has this kind) into the seat's hand from a deck or another hand."""
    cards = kit.R().cards
    for place in [state.decks[deck]] + [p.hand for i, p in enumerate(state.players) if i != seat]:
        for card in place:
            c = cards[card]
            if c.deck == deck and (kind is None or any(e.kind == kind for e in c.benefit)):
                place.remove(card)
                state.player(seat).hand.append(card)
                return card
    raise AssertionError(f"no {deck} card with {kind}")


def give_card(state, seat: int, card: int) -> None:
    """Move one given card into the seat's hand from wherever it is."""
    for place in [*state.decks.values(), *(p.hand for p in state.players)]:
        if card in place:
            place.remove(card)
            state.player(seat).hand.append(card)
            return
    for p in state.players:
        for deck, c in p.slots.items():
            if c == card:
                p.slots[deck] = None
                state.player(seat).hand.append(card)
                return
    raise AssertionError(card)


free_space = kit.free_space
put = kit.put


def clear_docks(state) -> None:
    for zone in state.docks:
        for k, s in enumerate(zone):
            if s is not None:
                state.player(s).family_supply += 1
                zone[k] = None


def to_docks(state, seat: int, zone: int) -> None:
    p = state.player(seat)
    p.family_supply -= 1
    slots = state.docks[zone]
    slots[slots.index(None)] = seat


def give_crate(state, seat: int, name: str) -> int:
    """Move the Crate ``name`` to the seat (from a Ship or the stack)."""
    cid = next(i for i, c in enumerate(kit.R().docks.crates) if c.name == name)
    for sh in state.ships:
        if sh.crate == cid:
            sh.crate = None
    if cid in state.crate_stack:
        state.crate_stack.remove(cid)
    state.player(seat).crates.append(cid)
    return cid


def stills_to_quiet_district(state, seat: int) -> None:
    """Make sure the seat's Stills stands in a district without a Cop."""
    for d in state.districts:
        for sp in d.spaces:
            if sp.building is not None and sp.building.owner == seat and sp.building.kind == "stills":
                if not d.cop:
                    return
                b, sp.building = sp.building, None
                dn, k = free_space(state)
                state.districts[dn - 1].spaces[k].building = b
                return


def number(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    assert m, (pattern, text)
    return int(m.group(1))


def option_ids(state, prefix: str) -> list[str]:
    return [i for i in kit.ids(state) if i.startswith(prefix)]


# ---- §3.1 values under each level ----------------------------------------------------------------------------------

VALUES = {
    "vip": [1, 2, 2, 3, 4],
    "party": [2, 3, 4, 5, 6],
    "stills": [2, 3, 4, 5, 6],
    "fleet": [2, 3, 4, 5, 6],
}


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_design_3_1_vip_value_family_members_per_protection(level):
    """§3.1: Get Protection places up to 1/2/2/3/4 Family Members at VIP levels 1-5."""
    state = fresh()
    p = state.player(0)
    clear_docks(state)
    for _ in range(5):
        put(state, 0)
    p.family_vip, p.family_supply = p.family_supply, 0
    kit.give(state, 0, levels={"vip": level}, infamy=5)
    empty_hand(state, 0)
    card = grab(state, 0, "vip", "leverage")
    kit.task(state, "play", 0, s="vip")
    kit.answer(state, f"play:{card}")
    placed = 0
    while not kit.is_waiting(state) and kit.prompt(state).kind == "protect":
        kit.answer(state, option_ids(state, "fm:")[0])
        placed += 1
    assert placed == VALUES["vip"][level - 1]
    kit.ok(state)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_design_3_1_party_value_barrels_sold(level):
    """§3.1: Sell sells up to 2/3/4/5/6 barrels at Party levels 1-5."""
    state = fresh()
    for _ in range(7):
        put(state, 0, barrel=True)
    kit.give(state, 0, levels={"party": level})
    empty_hand(state, 0)
    card = grab(state, 0, "party", "leverage")
    kit.task(state, "play", 0, s="party")
    kit.answer(state, f"play:{card}")
    sold = 0
    while not kit.is_waiting(state) and kit.prompt(state).kind == "sell":
        kit.answer(state, option_ids(state, "sell:")[0])
        sold += 1
    assert sold == VALUES["party"][level - 1]
    kit.ok(state)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_design_3_1_stills_value_barrels_produced(level):
    """§3.1: Produce makes 2/3/4/5/6 barrels at Stills levels 1-5."""
    state = fresh()
    stills_to_quiet_district(state, 0)
    kit.give(state, 0, levels={"stills": level}, stills_barrels=0)
    kit.task(state, "produce", 0)
    assert state.player(0).stills_barrels == VALUES["stills"][level - 1]
    kit.ok(state)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_design_3_1_fleet_value_barrels_moved(level):
    """§3.1: Deliver moves up to 2/3/4/5/6 barrels at Fleet levels 1-5."""
    state = fresh()
    for _ in range(7):
        put(state, 0, zone=0)
    kit.give(state, 0, levels={"fleet": level}, stills_barrels=8)
    empty_hand(state, 0)
    card = grab(state, 0, "fleet", "leverage")
    kit.task(state, "play", 0, s="fleet")
    kit.answer(state, f"play:{card}")
    kit.answer(state, "src:0")
    moved = 0
    while not kit.is_waiting(state) and option_ids(state, "to:"):
        kit.answer(state, option_ids(state, "to:")[0])
        moved += 1
    assert moved == VALUES["fleet"][level - 1]
    assert state.player(0).stills_barrels == 8 - moved
    kit.ok(state)


@pytest.mark.parametrize(("level", "trucks"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 2)])
def test_design_3_1_trucks_one_then_two_from_fleet_3(level, trucks):
    """§3.1: 1/1/2/2/2 Trucks; each Truck is one trip unloading in one Zone, so a second Zone needs the second."""
    state = fresh()
    put(state, 0, zone=0)
    put(state, 0, zone=2)
    kit.give(state, 0, levels={"fleet": level}, stills_barrels=2)
    empty_hand(state, 0)
    card = grab(state, 0, "fleet", "leverage")
    kit.task(state, "play", 0, s="fleet")
    kit.answer(state, f"play:{card}")
    assert number(r"(\d+) trips? left", kit.prompt(state).text) == trucks
    trips = 0
    while not kit.is_waiting(state) and "src:0" in kit.ids(state):
        kit.answer(state, "src:0")
        kit.answer(state, option_ids(state, "to:")[0])
        trips += 1
        if not kit.is_waiting(state) and kit.prompt(state).kind == "deliver" and "end" in kit.ids(state):
            kit.answer(state, "end")
    assert trips == trucks
    kit.ok(state)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_design_3_1_strength_value_is_the_level(level):
    """§3.1: the Strength value is the level: a Strength tile equal to the level is taken over with no Goon."""
    state = fresh()
    kit.give(state, 0, levels={"strength": level}, goons=0, associate=None, pocket=20)
    d = next(d for d in state.districts if any(sp.mobster and sp.building is None for sp in d.spaces))
    i = next(k for k, sp in enumerate(d.spaces) if sp.mobster and sp.building is None)
    d.strength = level
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    assert f"take:{d.number}:{i}:g0" in kit.ids(state)
    d.strength = level + 1
    assert not any(x.startswith(f"take:{d.number}:") for x in kit.ids(state))


@pytest.mark.parametrize(
    ("kind", "option", "track"),
    [
        ("level_any", "raise:party", "party"),  # Operations-board, Casino, City tile Permit, booth 3 rewards
        ("raise_strength", "raise:strength", "strength"),  # Helper Enforcer
        ("raise_ops", "raise:fleet", "fleet"),  # Helper Ward Boss
    ],
)
def test_design_3_1_every_step_raises_infamy_whatever_the_cause(kind, option, track):
    """§3.1: a level step from a reward or a Helper raises Infamy by 1, like the action does."""
    state = fresh()
    p = state.player(0)
    infamy, level = p.infamy, p.levels[track]
    kit.task(state, "gain", 0, n=2, s=kind)
    kit.answer(state, option)
    kit.answer(state, option)
    assert (p.levels[track], p.infamy) == (level + 2, infamy + 2)
    kit.ok(state)


@pytest.mark.parametrize(
    ("kind", "s", "track", "start"),
    [
        ("gain", "level_any", "strength", 3),
        ("gain", "raise_strength", "strength", 3),
        ("gain", "raise_ops", "party", 4),
        ("raise_track", "stills,fleet", "fleet", 4),
    ],
)
def test_design_3_1_discards_apply_to_every_source(kind, s, track, start):
    """§3.1: a reward, a Helper or a Person's raise to Strength 4 or an Operations 5 still needs its discard."""
    state = fresh()
    empty_hand(state, 0)
    kit.give(state, 0, levels={t: 4 for t in TRACKS} | {"strength": 3} | {track: start})
    if kind == "gain":
        kit.task(state, "gain", 0, n=1, s=s)
    else:
        kit.task(state, kind, 0, s=s)
    assert f"raise:{track}" not in kit.ids(state)
    assert state.player(0).levels[track] == start
    # With a card in hand the same step asks for it.
    state = fresh()
    empty_hand(state, 0)
    card = grab(state, 0, "vip")
    kit.give(state, 0, levels={t: 4 for t in TRACKS} | {"strength": 3} | {track: start})
    if kind == "gain":
        kit.task(state, "gain", 0, n=1, s=s)
    else:
        kit.task(state, kind, 0, s=s)
    kit.answer(state, f"raise:{track}")
    assert kit.prompt(state).kind == "discard_raise"
    kit.answer(state, f"discard:{card}")
    assert state.player(0).levels[track] == start + 1
    kit.ok(state)


def test_design_3_1_reward_goes_to_another_track():
    """§3.1: a "+1 any level" that cannot pay for VIP Room 5 may go to another track."""
    state = fresh()
    empty_hand(state, 0)
    kit.give(state, 0, levels={"vip": 4})
    kit.task(state, "gain", 0, n=1, s="level_any")
    ids = kit.ids(state)
    assert "raise:vip" not in ids
    assert {"raise:party", "raise:stills", "raise:fleet", "raise:strength"} <= set(ids)


@pytest.mark.parametrize(
    "levels", [{t: 5 for t in LEVEL_TRACKS}, {t: 4 for t in LEVEL_TRACKS}], ids=["all_at_5", "all_need_cards"]
)
def test_design_3_1_reward_no_track_can_take_is_lost(levels):
    """§3.1: with no track able to rise (at 5, or needing cards the player lacks) a "+1 any level" is lost."""
    state = fresh()
    empty_hand(state, 0)
    kit.give(state, 0, levels=levels)
    p = state.player(0)
    infamy = p.infamy
    kit.task(state, "gain", 0, n=1, s="level_any")
    assert kit.is_waiting(state) and state.tasks == []
    assert p.levels == levels and p.infamy == infamy
    kit.ok(state)


def test_design_3_1_named_track_increase_is_skipped():
    """§3.1: the Enforcer's Strength step at Strength 5 (or Strength 4 without two cards) is skipped."""
    for strength, cards in ((5, 3), (4, 1)):
        state = fresh()
        empty_hand(state, 0)
        for _ in range(cards):
            grab(state, 0, "party")
        kit.give(state, 0, levels={"strength": strength})
        kit.task(state, "gain", 0, n=1, s="raise_strength")
        assert kit.is_waiting(state)
        assert state.player(0).levels["strength"] == strength
        assert len(state.player(0).hand) == cards


def test_design_3_1_track_maximum_is_level_5():
    """§3.1: no track goes past level 5."""
    state = fresh()
    empty_hand(state, 0)
    grab(state, 0, "party")
    grab(state, 0, "party")
    kit.give(state, 0, levels={"vip": 5, "strength": 5})
    kit.task(state, "level_any", 0)
    assert "raise:vip" not in kit.ids(state) and "raise:strength" not in kit.ids(state)
    msg = kit.refuse(state, Choice(0, "level_any", "raise:vip"))
    assert "level 5" in msg, msg


def test_design_3_1_card_value_bonus_is_for_that_play_only():
    """§3.1: "+1 Stills value" makes that Produce 3 barrels at level 1; the track stays; the next Produce makes 2."""
    state = fresh()
    stills_to_quiet_district(state, 0)
    empty_hand(state, 0)
    kit.give(state, 0, stills_barrels=0)
    p = state.player(0)
    card = grab(state, 0, "stills", "value_bonus")
    kit.task(state, "play", 0, s="stills")
    kit.answer(state, f"play:{card}")
    assert p.stills_barrels == 3 and p.levels["stills"] == 1
    kit.task(state, "produce", 0)
    assert p.stills_barrels == 5
    kit.ok(state)


@pytest.mark.parametrize(("crate", "track"), [("Copper Coils", "stills"), ("Jazz Records", "party")])
def test_design_3_1_crate_value_bonus_for_every_action(crate, track):
    """§3.1: a Crate's "+1 value" counts for every such action and leaves the track alone."""
    state = fresh()
    stills_to_quiet_district(state, 0)
    give_crate(state, 0, crate)
    p = state.player(0)
    if track == "stills":
        for total in (3, 6):
            kit.task(state, "produce", 0)
            assert p.stills_barrels == 2 + total  # the Setup Round left 2 barrels
    else:
        for _ in range(4):
            put(state, 0, barrel=True)
        kit.task(state, "sell_or_party", 0)
        assert "Sell up to 3 barrels" in kit.labels(state)[0]
    assert p.levels[track] == 1
    kit.ok(state)


def test_design_3_1_no_draw_when_every_deck_is_empty():
    """§3.1: the end-of-turn draw takes nothing when all four decks are empty."""
    state = fresh()
    for deck in TRACKS:
        state.player(1).hand.extend(state.decks[deck])
        state.decks[deck] = []
    hand = list(state.player(0).hand)
    kit.task(state, "draw", 0)
    assert kit.is_waiting(state)
    assert state.player(0).hand == hand
    kit.ok(state)


def test_design_3_1_draw_from_any_non_empty_deck_no_hand_limit():
    """§3.1: the draw must take the top card of a non-empty deck (no decline), whatever the hand size."""
    state = fresh()
    state.player(1).hand.extend(state.decks["vip"])
    state.decks["vip"] = []
    for deck in ("party", "stills"):
        for _ in range(6):
            state.player(0).hand.append(state.decks[deck].pop(0))
    size = len(state.player(0).hand)
    kit.task(state, "draw", 0)
    assert kit.ids(state) == ["deck:party", "deck:stills", "deck:fleet"]
    top = state.decks["fleet"][0]
    kit.answer(state, "deck:fleet")
    assert len(state.player(0).hand) == size + 1 and state.player(0).hand[-1] == top
    kit.ok(state)


# ---- §3.2 the 48 Operations cards -----------------------------------------------------------------------------------

# Design §3.2 as (deck, count, top-left benefit as played, setup icon as played). A signature is the set of
# (what changed, by how much): value = +action value this play, ship = Ship barrels cheaper this play.
DESIGN_CARDS = [
    ("vip", 3, {("value", 1)}, {("docks", 1)}),
    ("vip", 3, {("family_vip", 1)}, {("family_vip", 1)}),
    ("vip", 3, {("leverage", 2)}, {("leverage", 2)}),
    ("vip", 3, {("books", 1)}, {("books", 1)}),
    ("party", 3, {("value", 1)}, {("pocket", 3)}),
    ("party", 3, {("pocket", 3)}, {("pocket", 3)}),
    ("party", 2, {("leverage", 2)}, {("leverage", 2)}),
    ("party", 2, {("books", 1)}, {("books", 1)}),
    ("party", 2, {("hand", 1)}, {("docks", 1)}),
    ("stills", 3, {("value", 1)}, {("stills_barrels", 2)}),
    ("stills", 3, {("goons", 1)}, {("goons", 1)}),
    ("stills", 2, {("books", 1)}, {("books", 1)}),
    ("stills", 2, {("leverage", 1), ("pocket", 2)}, {("docks", 1)}),
    ("stills", 2, {("hand", 1)}, {("leverage", 2)}),
    ("fleet", 3, {("value", 1)}, {("docks", 1)}),
    ("fleet", 3, {("ship", 1)}, {("pocket", 3)}),
    ("fleet", 3, {("docks", 1)}, {("docks", 1)}),
    ("fleet", 3, {("leverage", 2)}, {("leverage", 2)}),
]

FIELDS = ("pocket", "safe", "leverage", "books", "goons", "family_vip", "stills_barrels")


def _card_base() -> SpeakeasyState:
    """Seat 0 can do every deck action: a Family Member to protect with, a barrel to sell, a building to deliver
    to, a Stills to produce with; Ship 4 (the dearest) loaded."""
    state = fresh()
    clear_docks(state)
    stills_to_quiet_district(state, 0)
    empty_hand(state, 0)
    clear_slots(state, 0)
    p = state.player(0)
    p.family_supply -= 1
    p.family_vip += 1
    put(state, 0, barrel=True)
    put(state, 0)
    kit.give(state, 0, pocket=20, stills_barrels=0)
    return state


CARD_BASE = _card_base()


def _snapshot(state) -> dict[str, int]:
    p = state.player(0)
    out = {f: getattr(p, f) for f in FIELDS}
    out["hand"] = len(p.hand)
    out["docks"] = sum(z.count(0) for z in state.docks)
    return out


def _signature(before: dict[str, int], after: dict[str, int]) -> set[tuple[str, int]]:
    return {(k, after[k] - before[k]) for k in before if after[k] != before[k]}


def _play_normally(card: int) -> set[tuple[str, int]]:
    state = copy(CARD_BASE)
    give_card(state, 0, card)
    deck = kit.R().cards[card].deck
    before = _snapshot(state)
    before["hand"] -= 1  # the played card leaves the hand
    kit.task(state, "play", 0, s=deck)
    kit.answer(state, f"play:{card}")
    while not kit.is_waiting(state) and kit.prompt(state).kind in ("take_card", "place_family"):
        kit.answer(state, kit.ids(state)[0])
    after = _snapshot(state)
    p = state.player(0)
    if deck == "stills":  # Produce ran at once: its barrels are the action's value
        value = after.pop("stills_barrels") - before.pop("stills_barrels")
        sig = _signature(before, after)
        extra = value - eco.action_value(p, "stills")
    else:
        sig = _signature(before, after)
        text = kit.prompt(state).text
        if deck == "vip":
            extra = number(r"up to (\d+)", text) - eco.action_value(p, "vip")
        elif deck == "party":
            extra = number(r"\((\d+) more", text) - eco.action_value(p, "party")
        else:
            extra = number(r"\((\d+) barrels", text) - eco.action_value(p, "fleet")
            label = label_of(state, "src:4")
            cheaper = ship_price(state, 0, 4) - number(r"\$(\d+) a barrel", label)
            if cheaper:
                sig.add(("ship", cheaper))
    if extra:
        sig.add(("value", extra))
    kit.ok(state)
    return sig


def _play_for_setup(card: int) -> set[tuple[str, int]]:
    state = copy(CARD_BASE)
    give_card(state, 0, card)
    before = _snapshot(state)
    before["hand"] -= 1
    kit.task(state, "setup_card", 0)
    kit.answer(state, f"play:{card}")
    while not kit.is_waiting(state) and kit.prompt(state).kind == "place_family":
        assert "vip" not in kit.ids(state)  # the icons with a Family Member send it to a Docks zone
        kit.answer(state, kit.ids(state)[0])
    assert kit.is_waiting(state), "a setup card has no deck action"
    assert state.player(0).slots[kit.R().cards[card].deck] == card
    kit.ok(state)
    return _signature(before, _snapshot(state))


def test_design_3_2_four_decks_of_twelve():
    """§3.2: 4 decks of 12 cards, 48 in all, each card in its deck."""
    cards = kit.R().cards
    assert len(cards) == 48
    assert Counter(c.deck for c in cards) == {d: 12 for d in TRACKS}


@pytest.mark.parametrize("deck", TRACKS)
def test_design_3_2_cards_as_played(deck):
    """§3.2: playing each of the deck's 12 cards normally and in the Setup Round gives the benefit and the setup
    icon of the design's table, with the counts it gives."""
    cards = [c.id for c in kit.R().cards if c.deck == deck]
    seen = Counter((frozenset(_play_normally(c)), frozenset(_play_for_setup(c))) for c in cards)
    want = Counter()
    for d, count, benefit, setup in DESIGN_CARDS:
        if d == deck:
            want[(frozenset(benefit), frozenset(setup))] += count
    assert seen == want


def test_design_3_2_free_goon_takes_the_cheapest_space_without_paying():
    """§3.2: "Hire 1 Goon free" fills the cheapest empty Goon space and costs nothing."""
    state = fresh()
    empty_hand(state, 0)
    kit.give(state, 0, goons=3, pocket=0, safe=0)
    card = grab(state, 0, "stills", "goon_free")
    kit.task(state, "play", 0, s="stills")
    kit.answer(state, f"play:{card}")
    p = state.player(0)
    assert (p.goons, p.pocket, p.safe) == (4, 0, 0)
    kit.give(state, 0, pocket=10)
    kit.task(state, "hire_goons", 0)
    assert "$4" in kit.labels(state)[0]


def test_design_3_2_fleet_card_discount_floor_zero():
    """§3.2 with §7.2: the Fleet card's $1 off may bring a Ship barrel to $0."""
    state = copy(CARD_BASE)
    to_docks(state, 0, zone_index(state.ships[0].port))  # Ship 1: $2 - $1 Family Member
    card = grab(state, 0, "fleet", "ship_discount")
    kit.task(state, "play", 0, s="fleet")
    kit.answer(state, f"play:{card}")
    label = label_of(state, "src:1")
    assert "$0 a barrel" in label


# ---- §4 money ----------------------------------------------------------------------------------------------------


def _upgrade_position(pocket: int, safe: int) -> tuple[SpeakeasyState, str]:
    state = fresh()
    dn, i = put(state, 0)
    kit.give(state, 0, pocket=pocket, safe=safe)
    return state, f"up:{dn}:{i}:1"  # the second Nightclub space: $7


def test_design_4_pocket_first_then_safe_at_two_to_one():
    """§4: a $7 cost with $4 in the pocket takes the $4 and $6 from the safe."""
    state, up = _upgrade_position(4, 30)
    kit.task(state, "upgrade", 0, n=1)
    assert up in kit.ids(state)
    kit.answer(state, up)
    p = state.player(0)
    assert (p.pocket, p.safe) == (0, 24)
    kit.ok(state)


def test_design_4_a_cost_that_cannot_be_covered_is_not_offered():
    """§4: $4 pocket and $5 safe cover $6 but not $7: the $7 Nightclub is not offered, the $6 one is."""
    state, up = _upgrade_position(4, 5)
    kit.task(state, "upgrade", 0, n=1)
    assert up not in kit.ids(state)
    assert up[:-1] + "0" in kit.ids(state)
    kit.refuse(state, Choice(0, "upgrade", up))


def test_design_4_whole_pocket_is_used_before_the_safe():
    """§4: with enough in the pocket the safe is not touched."""
    state, up = _upgrade_position(7, 30)
    kit.task(state, "upgrade", 0, n=1)
    kit.answer(state, up)
    assert (state.player(0).pocket, state.player(0).safe) == (0, 30)


def test_design_4_no_change_odd_dollar_stays_in_the_safe():
    """§4: a $3 Speakeasy paid from a $7 safe removes $6; the odd dollar stays."""
    state = fresh()
    kit.give(state, 0, pocket=0, safe=7)
    dn, i = free_space(state)
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    kit.answer(state, f"open:{dn}:{i}")
    assert state.player(0).safe == 1
    assert state.player(0).pocket >= 0
    kit.ok(state)


def test_design_4_income_to_pocket_or_safe():
    """§4: barrel sales and the card "$3" go to the pocket; Infamy money spaces go to the safe."""
    state = fresh()
    put(state, 0, barrel=True)
    p = state.player(0)
    pocket, safe = p.pocket, p.safe
    kit.task(state, "sell", 0, n=1)
    kit.answer(state, option_ids(state, "sell:")[0])
    assert p.safe == safe and p.pocket > pocket
    pocket = p.pocket
    kit.task(state, "gain", 0, n=3, s="pocket")
    assert (p.pocket, p.safe) == (pocket + 3, safe)
    kit.give(state, 0, infamy=11, rewards=[8, 10])
    kit.task(state, "gain", 0, n=1, s="level_any")
    kit.answer(state, "raise:vip")
    assert (p.pocket, p.safe) == (pocket + 3, safe + 10)


def test_design_4_bagman_moves_safe_to_pocket_one_to_one():
    """§4, §11.2: the Bagman moves up to $6 from the safe to the pocket at 1:1."""
    state = fresh()
    kit.give(state, 0, pocket=0, safe=10)
    kit.task(state, "gain", 0, n=6, s="bagman")
    assert option_ids(state, "move:") == [f"move:{k}" for k in range(6, 0, -1)]
    kit.answer(state, "move:6")
    assert (state.player(0).pocket, state.player(0).safe) == (6, 4)
    kit.ok(state)


def test_design_4_never_from_pocket_to_safe():
    """§4: nothing moves pocket money into the safe: the Bagman with an empty safe offers nothing but its
    decline (it is still asked: only its owner knows the safe is empty)."""
    state = fresh()
    kit.give(state, 0, pocket=50, safe=0)
    kit.task(state, "gain", 0, n=6, s="bagman")
    assert kit.ids(state) == ["skip"]
    kit.answer(state, "skip")
    assert kit.is_waiting(state)
    assert (state.player(0).pocket, state.player(0).safe) == (50, 0)


def test_design_4_safe_is_shown_only_to_its_owner():
    """§4: pocket money is public; the safe is in its owner's view only."""
    state = fresh()
    kit.give(state, 1, pocket=12, safe=34)
    own = kit.GAME.view(state, 1)["players"][1]
    other = kit.GAME.view(state, 0)["players"][1]
    public = kit.GAME.view(state, None)["players"][1]
    assert own["safe"] == 34 and own["pocket"] == 12
    assert "safe" not in other and "safe" not in public
    assert other["pocket"] == public["pocket"] == 12


def _ambush_position(pocket: int):
    state = fresh()
    clear_docks(state)
    kit.give(state, 0, levels={"strength": 4}, pocket=pocket, safe=30, associate=None)
    zone = zone_index(state.ships[0].port)
    to_docks(state, 0, zone)
    to_docks(state, 1, zone)
    return state


def test_design_4_payments_to_players_from_the_pocket_only():
    """§4 with §7.4: the $1 for a rival's Family Member comes from the pocket; a full safe does not help."""
    state = _ambush_position(0)
    kit.task(state, "ambush", 0)
    assert not any(i.startswith("amb:1:") for i in kit.ids(state))
    state = _ambush_position(1)
    rival = state.player(1).pocket
    crate = state.ships[0].crate
    cash = kit.R().docks.crates[crate].cash if crate is not None else 0
    kit.task(state, "ambush", 0)
    kit.answer(state, next(i for i in kit.ids(state) if i.startswith("amb:1:")))
    p = state.player(0)
    assert (p.pocket, p.safe) == (1 - 1 + cash, 30)
    assert state.player(1).pocket == rival + 1
    kit.ok(state)


# ---- §5 Infamy -------------------------------------------------------------------------------------------------------


def test_design_5_infamy_starts_at_5():
    """§5: every player starts on Infamy 5."""
    state = kit.new(4)
    assert [p.infamy for p in state.players] == [5, 5, 5, 5]


def test_design_5_infamy_stops_at_25_and_never_falls():
    """§5: at 25 a level step raises no more Infamy; the track has no way down."""
    state = fresh()
    kit.give(state, 0, infamy=24, rewards=[8, 10, 12, 14, 16, 18, 20, 22, 24], family_track=[])
    p = state.player(0)
    p.family_supply += 2
    for track in ("vip", "party", "stills"):
        kit.task(state, "raise_track", 0, s="ops")
        kit.answer(state, f"raise:{track}")
        assert p.infamy == 25
    assert p.levels["stills"] == 2
    kit.ok(state)


REWARDS = {8: "family", 10: "helper", 12: ("safe", 10), 14: "family", 16: "helper", 18: ("safe", 15)}
REWARDS |= {20: "helper", 22: ("safe", 20), 24: ("safe", 25)}


@pytest.mark.parametrize("space", sorted(REWARDS))
def test_design_5_reward_on_reaching_a_space(space):
    """§5: reaching 8/14 places the Family Member waiting there, 10/16/20 a Helper, 12/18/22/24 safe money."""
    state = fresh()
    clear_docks(state)
    p = state.player(0)
    below = [s for s in REWARDS if s < space]
    kit.give(state, 0, infamy=space - 1, rewards=below)
    for s in below:
        if s in p.family_track:
            p.family_track.remove(s)
            p.family_supply += 1
    safe = p.safe
    kit.task(state, "raise_track", 0, s="ops")
    kit.answer(state, "raise:vip")
    assert p.infamy == space and space in p.rewards
    reward = REWARDS[space]
    if reward == "family":
        assert space not in p.family_track
        assert kit.prompt(state).kind == "place_family"
        assert kit.ids(state) == ["vip", "docks:0", "docks:1", "docks:2"]
        kit.answer(state, "docks:1")
        assert state.docks[1][0] == 0
    elif reward == "helper":
        assert kit.prompt(state).kind == "take_helper"
    else:
        assert p.safe == safe + reward[1]
        assert kit.is_waiting(state)
    kit.ok(state)


def test_design_5_each_reward_is_collected_once():
    """§5: passing 12 pays $10 once; the next steps pay nothing more."""
    state = fresh()
    kit.give(state, 0, infamy=11, rewards=[8, 10])
    p = state.player(0)
    safe = p.safe
    for track in ("vip", "party", "stills"):
        kit.task(state, "raise_track", 0, s="ops")
        kit.answer(state, f"raise:{track}")
    assert p.infamy == 14
    # 14 is a Family Member reward: answer it, then nothing else is pending.
    kit.answer(state, "vip")
    assert p.safe == safe + 10 and p.rewards.count(12) == 1
    assert kit.is_waiting(state)
    kit.ok(state)


def test_design_5_jump_collects_every_space_passed_lowest_first():
    """§5: a marker passing several spaces collects each, the lowest first (8, then 10, then 12)."""
    state = fresh()
    clear_docks(state)
    p = state.player(0)
    kit.give(state, 0, infamy=7, rewards=[])
    safe = p.safe
    log: list = []
    eco.gain_infamy(state, 0, 5, log)
    advance(state, log)
    assert p.infamy == 12 and p.rewards == [8, 10, 12]
    assert kit.prompt(state).kind == "place_family"
    kit.answer(state, "vip")
    assert kit.prompt(state).kind == "take_helper"
    kit.answer(state, kit.ids(state)[0])
    while not kit.is_waiting(state):
        kit.answer(state, kit.ids(state)[0])
    assert p.safe == safe + 10
    kit.ok(state)


def test_design_5_family_member_from_the_track_even_with_an_empty_supply():
    """§5, §9.3: the Family Member at 8 is the one placed at setup, so it comes even when the supply is empty."""
    state = fresh()
    p = state.player(0)
    p.lost_family += p.family_supply  # the supply is empty (counted as gone, so the 8 still add up)
    p.family_supply = 0
    kit.give(state, 0, infamy=7, rewards=[])
    vip = p.family_vip
    kit.task(state, "raise_track", 0, s="ops")
    kit.answer(state, "raise:party")
    kit.answer(state, "vip")
    assert p.family_vip == vip + 1 and p.family_track == [14]
    kit.ok(state)


PRICES = {
    "speakeasy": [3, 4, 5, 6, 7],
    "nightclub": [5, 6, 8, 9, 10],
    "casino": [7, 9, 11, 13, 15],
}
BANDS = [(0, 7), (8, 11), (12, 15), (16, 19), (20, 25)]


@pytest.mark.parametrize("kind", sorted(PRICES))
@pytest.mark.parametrize("band", range(5))
def test_design_5_barrel_price_table(kind, band):
    """§5: the price of a barrel by building and Infamy band, at both ends of each band."""
    for infamy in BANDS[band]:
        state = fresh()
        put(state, 0, kind, barrel=True)
        kit.give(state, 0, infamy=infamy)
        p = state.player(0)
        pocket = p.pocket
        kit.task(state, "sell", 0, n=1)
        kit.answer(state, option_ids(state, "sell:")[0])
        assert p.pocket == pocket + PRICES[kind][band], (kind, infamy)


def test_design_5_stills_area_barrels_are_not_sold():
    """§5: barrels on the Stills area cannot be sold."""
    state = fresh()
    kit.give(state, 0, stills_barrels=8)
    kit.task(state, "sell", 0, n=6)
    assert kit.is_waiting(state)


@pytest.mark.parametrize(("infamy", "cop", "cost"), [(14, False, 0), (15, False, 1), (20, False, 1), (15, True, 2)])
def test_design_5_heat_costs_one_leverage_per_family_member_from_15(infamy, cop, cost):
    """§5 Heat: from Infamy 15 each Family Member placed with Get Protection costs +1 Leverage, on top of the
    Cop's 1 (§8.1)."""
    state = fresh()
    dn, i = put(state, 0, cop=cop)
    p = state.player(0)
    p.family_supply -= 1
    p.family_vip += 1
    kit.give(state, 0, infamy=infamy, leverage=5)
    kit.task(state, "protect", 0, n=1)
    kit.answer(state, f"fm:{dn}:{i}")
    assert p.leverage == 5 - cost
    assert state.districts[dn - 1].spaces[i].building.family
    kit.ok(state)


def test_design_5_heat_without_leverage_no_protection():
    """§5 Heat: at Infamy 15 with no Leverage, Get Protection offers nothing."""
    state = fresh()
    put(state, 0)
    p = state.player(0)
    p.family_supply -= 1
    p.family_vip += 1
    kit.give(state, 0, infamy=15, leverage=0)
    kit.task(state, "protect", 0, n=1)
    assert kit.is_waiting(state)


# ---- §9.1 Goons ----------------------------------------------------------------------------------------------------


def test_design_9_1_one_goon_on_the_0_space_at_setup():
    """§9.1: each player starts with 1 Goon (on the $0 space)."""
    state = kit.new(3)
    assert [p.goons for p in state.players] == [1, 1, 1]


def test_design_9_1_six_spaces_cost_0_to_5():
    """§9.1: hiring pays $1, $2, $3, $4, $5 for spaces 2-6 (several in one action); then no more."""
    state = fresh()
    kit.give(state, 0, pocket=20, goons=1)
    p = state.player(0)
    kit.task(state, "hire_goons", 0)
    for cost in (1, 2, 3, 4, 5):
        assert f"${cost}" in kit.labels(state)[0]
        pocket = p.pocket
        kit.answer(state, "hire")
        assert p.pocket == pocket - cost
    assert p.goons == 6 and kit.is_waiting(state)
    kit.ok(state)


def test_design_9_1_a_seventh_goon_is_refused():
    """§9.1: with all 6 spaces full, the Foreman's hire is not asked, and a hire is refused saying why."""
    state = fresh()
    kit.give(state, 0, pocket=20, goons=6)
    kit.task(state, "place", 0)
    kit.answer(state, "person:foreman")
    assert kit.prompt(state).kind == "build"
    msg = kit.refuse(state, Choice(0, "hire_goons", "hire"))
    assert "goon" in msg.lower() and "full" in msg.lower(), msg
    assert state.player(0).goons == 6


def test_design_9_1_a_free_goon_is_lost_with_a_full_track():
    """§9.1: a free Goon with all 6 spaces full is lost."""
    state = fresh()
    kit.give(state, 0, goons=6)
    kit.task(state, "gain", 0, n=1, s="goon_free")
    assert state.player(0).goons == 6
    kit.ok(state)


def test_design_9_1_goons_return_from_the_most_expensive_space():
    """§9.1: returning 2 of 5 Goons empties the $4 and $3 spaces: the next hire costs $3."""
    state = fresh()
    kit.give(state, 0, pocket=20, goons=5, associate=None)
    d = next(d for d in state.districts if any(sp.mobster and sp.building is None for sp in d.spaces))
    i = next(k for k, sp in enumerate(d.spaces) if sp.mobster and sp.building is None)
    d.strength = 3
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:3")
    kit.answer(state, f"take:{d.number}:{i}:g2")
    assert state.player(0).goons == 3
    kit.task(state, "hire_goons", 0)
    assert "$3" in kit.labels(state)[0]
    kit.ok(state)


def test_design_9_1_each_returned_goon_adds_one_strength():
    """§9.1: Strength 1 and a Strength-4 tile: exactly 3 Goons are returned."""
    state = fresh()
    kit.give(state, 0, pocket=20, goons=4, associate=None)
    d = next(d for d in state.districts if any(sp.mobster and sp.building is None for sp in d.spaces))
    i = next(k for k, sp in enumerate(d.spaces) if sp.mobster and sp.building is None)
    d.strength = 4
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    takes = [x for x in kit.ids(state) if x.startswith(f"take:{d.number}:{i}:")]
    assert takes == [f"take:{d.number}:{i}:g3"]


def test_design_9_1_brass_knuckles_one_dollar_off_each_hire():
    """§9.1 with §7.3: Brass Knuckles make each hire $1 cheaper, never below $0."""
    state = fresh()
    give_crate(state, 0, "Brass Knuckles")
    kit.give(state, 0, pocket=20, goons=0)
    p = state.player(0)
    kit.task(state, "hire_goons", 0)
    for cost in (0, 0, 1, 2):
        pocket = p.pocket
        kit.answer(state, "hire")
        assert p.pocket == pocket - cost
    kit.ok(state)


# ---- §9.2 Associates -----------------------------------------------------------------------------------------------


def _board_mobsters(state) -> list[int]:
    return [d.mobster for d in state.districts if d.mobster is not None and not d.strength_down]


def test_design_9_2_hire_onto_a_mobster_tile_of_the_board_for_free():
    """§9.2: the Associate marker goes on a Mobster tile of the Mobster board; hiring costs nothing."""
    state = fresh()
    kit.give(state, 1, associate=None)
    p = state.player(1)
    pocket, safe = p.pocket, p.safe
    kit.task(state, "hire_associate", 1)
    offered = sorted(int(i.split(":")[1]) for i in option_ids(state, "mobster:"))
    assert offered == sorted(_board_mobsters(state))
    kit.answer(state, f"mobster:{offered[0]}")
    assert p.associate == offered[0]
    assert (p.pocket, p.safe) == (pocket, safe)
    kit.ok(state)


def test_design_9_2_hiring_again_moves_the_marker():
    """§9.2: a player with an Associate may move the marker to another free Mobster tile (not the same one)."""
    state = fresh()
    mobs = _board_mobsters(state)
    kit.give(state, 0, associate=mobs[0])
    for p in state.players[1:]:
        p.associate = None
    kit.task(state, "hire_associate", 0)
    assert f"mobster:{mobs[0]}" not in kit.ids(state)
    kit.answer(state, f"mobster:{mobs[1]}")
    assert state.player(0).associate == mobs[1]
    kit.ok(state)


def test_design_9_2_not_a_tile_with_another_players_marker():
    """§9.2: a Mobster tile carrying another player's marker is not offered."""
    state = fresh()
    m = _board_mobsters(state)[0]
    kit.give(state, 1, associate=m)
    kit.give(state, 0, associate=None)
    kit.task(state, "hire_associate", 0)
    assert f"mobster:{m}" not in kit.ids(state)
    assert option_ids(state, "mobster:")


def test_design_9_2_no_free_tile_no_hire():
    """§9.2: with every board Mobster taken, the hire is not asked."""
    state = fresh()
    mobs = _board_mobsters(state)
    kit.give(state, 0, associate=None)
    for k, m in enumerate(mobs[:2]):
        kit.give(state, 1 + k, associate=m)
    for d in state.districts:
        if d.mobster is not None and d.mobster not in mobs[:2]:
            d.strength_down = True  # as if it had left the game
    kit.task(state, "hire_associate", 0)
    assert kit.is_waiting(state)
    assert state.player(0).associate is None


def _associate_position():
    """Seat 0's Associate is a board Mobster; one Mobster-held space in its Zone, one in another Zone."""
    state = fresh()
    r = kit.R()
    home = next(d for d in state.districts if d.mobster is not None)
    m = r.mobsters[home.mobster]
    zone = zone_index(home.number)
    kit.give(state, 0, associate=home.mobster, goons=0, pocket=30, safe=0, levels={"strength": 1})
    for p in state.players[1:]:
        p.associate = None
    need = 1 + m.strength + m.modifier  # Strength level 1 + the Associate + its own-Zone bonus
    targets = {}
    for want_zone in (True, False):
        d = next(
            d
            for d in state.districts
            if is_open(state, d.number)
            and (zone_index(d.number) == zone) == want_zone
            and any(sp.building is None for sp in d.spaces)
        )
        i = next(k for k, sp in enumerate(d.spaces) if sp.building is None)
        d.spaces[i].mobster = True
        d.strength = need
        targets[want_zone] = (d.number, i)
    return state, m, targets


def test_design_9_2_fee_is_the_strength_and_the_modifier_counts_in_its_own_zone():
    """§9.2: the Associate adds its strength, plus its modifier in its own Zone, for a fee of its strength in $."""
    state, m, targets = _associate_position()
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    home, away = targets[True], targets[False]
    assert f"take:{home[0]}:{home[1]}:ag0" in kit.ids(state)
    assert not any(x.startswith(f"take:{away[0]}:{away[1]}:") for x in kit.ids(state))  # no Goons to make up
    p = state.player(0)
    kit.answer(state, f"take:{home[0]}:{home[1]}:ag0")
    assert p.pocket == 30 - 3 - m.strength
    kit.ok(state)


def test_design_9_2_outside_its_zone_goons_make_up_the_modifier():
    """§9.2: away from its Zone the Associate lacks the modifier; Goons make up the rest."""
    state, m, targets = _associate_position()
    kit.give(state, 0, goons=6)
    away = targets[False]
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    assert f"take:{away[0]}:{away[1]}:ag{m.modifier}" in kit.ids(state)


def test_design_9_2_fee_may_come_from_the_safe():
    """§9.2: the fee is a bank cost: safe money at 2:1 is allowed."""
    state, m, targets = _associate_position()
    kit.give(state, 0, pocket=3, safe=2 * m.strength)
    home = targets[True]
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:0")
    kit.answer(state, f"take:{home[0]}:{home[1]}:ag0")
    assert (state.player(0).pocket, state.player(0).safe) == (0, 0)
    kit.ok(state)


def test_design_9_2_one_use_per_contractor_action():
    """§9.2: after the Associate helped the first take-over, the second one of the action may not use it."""
    state, m, targets = _associate_position()
    home, away = targets[True], targets[False]
    d = state.districts[away[0] - 1]
    d.strength = 1 + m.strength  # reachable with the Associate outside its Zone, or with Goons
    kit.give(state, 0, goons=0)
    kit.task(state, "build", 0, n=2)
    kit.answer(state, "row:speakeasy:0")
    kit.answer(state, f"take:{home[0]}:{home[1]}:ag0")
    assert kit.prompt(state).kind == "build"
    kit.answer(state, "row:speakeasy:3")
    assert not any(x.startswith(f"take:{away[0]}:") for x in kit.ids(state))
    kit.answer(state, "back")
    # A new Contractor action may use it again.
    state.tasks.clear()
    kit.task(state, "build", 0, n=1)
    kit.answer(state, "row:speakeasy:3")
    assert f"take:{away[0]}:{away[1]}:ag0" in kit.ids(state)


# ---- §9.3 Family Members ------------------------------------------------------------------------------------------


def test_design_9_3_eight_family_members_each():
    """§9.3: 8 each: 2 on the Infamy track (at 8 and 14) and 6 in the supply."""
    state = kit.new(4)
    for p in state.players:
        assert (p.family_supply, sorted(p.family_track), p.family_vip) == (6, [8, 14], 0)


def test_design_9_3_docks_zones_fill_left_to_right():
    """§9.3, §1.4: Family Members sent to a Docks zone take its next free space, left to right."""
    state = fresh()
    clear_docks(state)
    for seat in (0, 1, 0):
        kit.task(state, "place_family", seat)
        kit.answer(state, "docks:1")
    assert state.docks[1][:4] == [0, 1, 0, None]
    kit.ok(state)


def test_design_9_3_a_full_docks_zone_is_not_offered():
    """§9.3: a Docks zone with no free space is not offered."""
    state = fresh()
    clear_docks(state)
    for k in range(8):
        to_docks(state, k % 3, 2)
    kit.task(state, "place_family", 0)
    assert kit.ids(state) == ["vip", "docks:0", "docks:1"]
    kit.ok(state)


def test_design_9_3_empty_supply_gains_nothing():
    """§9.3: with an empty supply a gained Family Member is not there: no prompt, nothing moves."""
    state = fresh()
    p = state.player(0)
    p.lost_family += p.family_supply
    p.family_supply = 0
    vip = p.family_vip
    kit.task(state, "place_family", 0)
    assert kit.is_waiting(state)
    kit.task(state, "gain", 0, n=1, s="family_vip")
    assert p.family_vip == vip
    kit.ok(state)


def test_design_9_3_vip_area_is_a_reserve_for_protection():
    """§9.3: Get Protection moves Family Members from the VIP area onto different unprotected buildings."""
    state = fresh()
    a = put(state, 0)
    b = put(state, 0)
    p = state.player(0)
    p.family_supply -= 2
    p.family_vip += 2
    kit.give(state, 0, infamy=5)
    kit.task(state, "protect", 0, n=2)
    kit.answer(state, f"fm:{a[0]}:{a[1]}")
    assert f"fm:{a[0]}:{a[1]}" not in kit.ids(state)
    kit.answer(state, f"fm:{b[0]}:{b[1]}")
    assert p.family_vip == 0
    kit.ok(state)
