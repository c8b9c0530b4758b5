"""What must hold after every choice (issue "engine I", self-play): every piece in exactly one place."""

from __future__ import annotations

from collections import Counter
from functools import cache

from engine.speakeasy.components import BUILDING_KINDS, LEVEL_TRACKS, ZONES
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState


def _once(name: str, places: list[int], expected: int, bad: list[str]) -> None:
    if len(places) == expected and set(places) == _every(expected):  # the usual case, told cheaply
        return
    counts = Counter(places)
    doubled = sorted(k for k, v in counts.items() if v > 1)
    missing = sorted(set(range(expected)) - set(counts))
    extra = sorted(k for k in counts if not 0 <= k < expected)
    if doubled or missing or extra:
        bad.append(f"{name}: doubled {doubled}, missing {missing}, unknown {extra}")


@cache
def _every(n: int) -> frozenset[int]:
    return frozenset(range(n))


def check(state: SpeakeasyState) -> list[str]:
    """Broken invariants, empty when everything holds."""
    r = rules(state)
    t = r.tracks
    bad: list[str] = []
    n = len(state.players)
    # Money, Leverage, barrels and counts never negative.
    for i, p in enumerate(state.players):
        for field in (
            "pocket",
            "safe",
            "leverage",
            "stills_barrels",
            "books",
            "book_supply",
            "family_supply",
            "family_vip",
            "goons",
            "capos",
        ):
            if getattr(p, field) < 0:
                bad.append(f"seat {i}: {field} is {getattr(p, field)}")
        for track in LEVEL_TRACKS:
            if not 1 <= p.levels[track] <= t.max_level:
                bad.append(f"seat {i}: {track} level {p.levels[track]}")
        if not t.infamy_start <= p.infamy <= t.infamy_max:
            bad.append(f"seat {i}: Infamy {p.infamy} outside {t.infamy_start}..{t.infamy_max} (it never falls)")
        if p.goons > len(t.goon_costs):
            bad.append(f"seat {i}: {p.goons} Goons on {len(t.goon_costs)} spaces")
        if p.stills_barrels > r.buildings.stills_capacity:
            bad.append(f"seat {i}: {p.stills_barrels} barrels on the Stills area")
    for sh in state.ships:
        if sh.barrels < 0:
            bad.append(f"Ship {sh.number} has {sh.barrels} barrels")
    # Operations cards: hands, slots and decks hold each of the 48 once.
    cards = [c for p in state.players for c in p.hand]
    cards += [c for p in state.players for c in p.slots.values() if c is not None]
    cards += [c for deck in state.decks.values() for c in deck]
    _once("Operations cards", cards, len(r.cards), bad)
    for p in state.players:
        for deck, c in p.slots.items():
            if c is not None and r.cards[c].deck != deck:
                bad.append(f"{p.name}: card {c} in the {deck} slot")
    # Helper cards.
    helpers = list(state.helper_deck) + [h for h in state.helper_display if h is not None]
    helpers += [h for p in state.players for h in p.helpers + p.screen]
    _once("Helper cards", helpers, len(r.helpers.cards), bad)
    # City tiles.
    tiles = [sp.tile for d in state.districts for sp in d.spaces if sp.tile is not None]
    tiles += [x for x in state.city_face if x is not None] + [x for pile in state.city_piles for x in pile]
    tiles += [x for p in state.players for x in p.tiles]
    _once("City tiles", tiles, sum(ct.count for ct in r.city_tiles), bad)
    # Crates and Port tiles.
    crates = [s.crate for s in state.ships if s.crate is not None] + state.crate_stack
    crates += [c for p in state.players for c in p.crates]
    _once("Crates", crates, len(r.docks.crates), bad)
    ports = [s.port for s in state.ships] + state.port_stack + state.port_box
    if sorted(ports) != sorted(r.docks.ports):
        bad.append(f"Port tiles: {sorted(ports)}")
    # Mobster tiles: on the board, in their decks, or boxed.
    mobsters = [d.mobster for d in state.districts if d.mobster is not None]
    mobsters += [m for deck in state.mobster_decks.values() for m in deck] + state.mobster_box + state.mobster_gone
    _once("Mobster tiles", mobsters, len(r.mobsters), bad)
    # Buildings: each player's 15 are on their rows or on the map (or lost in a Mob War, issue II).
    for i, p in enumerate(state.players):
        on_map = Counter(b.kind for d in state.districts for sp in d.spaces if (b := sp.building) and b.owner == i)
        for kind in BUILDING_KINDS:
            total = sum(p.rows[kind]) + on_map[kind] + p.lost_buildings.get(kind, 0)
            if total != len(r.buildings.rows[kind]):
                bad.append(f"seat {i}: {total} {kind} buildings, not {len(r.buildings.rows[kind])}")
    for d in state.districts:
        for sp in d.spaces:
            if sp.building is not None and sp.mobster:
                bad.append(f"district {d.number}: a building and a Mobster Speakeasy on one space")
            if sp.building is not None and sp.building.kind == "stills" and sp.building.barrel:
                bad.append(f"district {d.number}: a barrel beside a Stills")
    # Family Members: 8 each in supply, VIP area, Infamy track, Docks, buildings, or lost.
    for i, p in enumerate(state.players):
        placed = sum(1 for d in state.districts for sp in d.spaces if (b := sp.building) and b.owner == i and b.family)
        docks = sum(z.count(i) for z in state.docks)
        total = p.family_supply + p.family_vip + len(p.family_track) + placed + docks + p.lost_family
        expected = t.start_family_supply + len(t.family_on_infamy)
        if total != expected:
            bad.append(f"seat {i}: {total} Family Members, not {expected}")
    # Books: 10 each in supply, on the Books space, or on a target.
    for i, p in enumerate(state.players):
        placed = sum(z.count(i) for z in state.zone_books) + sum(z.count(i) for z in state.docks_books)
        placed += sum(1 for s, _a in state.city_hall_books if s == i)
        placed += sum(v.count(i) for v in state.infamy_books.values())
        placed += state.park_books.count(i)
        if p.book_supply + p.books + placed != t.start_books:
            bad.append(f"seat {i}: {p.book_supply + p.books + placed} Books, not {t.start_books}")
        for z in state.zone_books + state.docks_books + list(state.infamy_books.values()):
            if z.count(i) > 1:
                bad.append(f"seat {i}: two Books on one target")
    # Capos: on the board, at a location, or boxed.
    at = Counter(state.persons.values()) + Counter(s for s in state.booths if s is not None)
    at += Counter(state.first_place) + Counter(s for s in state.park if s is not None) + Counter(state.beside_park)
    for i, p in enumerate(state.players):
        if p.capos + at[i] + p.capos_boxed != t.capos:
            bad.append(f"seat {i}: {p.capos} + {at[i]} + {p.capos_boxed} Capos, not {t.capos}")
    # One Capo per Person per Act is structural (a dict); booths and Park spaces hold one each.
    # Cop District tiles: 16, each face down on the board, replaced by the Cop standing in its district (which
    # stands for it in this count), on the Time track, or boxed; a Cop never beside a tile.
    tiles = sum(1 for d in state.districts if d.cop_tile or d.cop)
    if any(d.cop and d.cop_tile for d in state.districts):
        bad.append("a district holds a Cop and a Cop tile")
    if tiles + sum(len(s) for s in state.cop_stacks) + len(state.box.get("cop_tiles", [])) != len(r.cop_districts):
        bad.append("Cop District tiles do not add up")
    # Jo's action cards: each in his deck, waiting, done or boxed; his money never negative (checked above).
    if state.jo is not None:
        from engine.speakeasy.jo.data import jo_rules

        jo = state.jo
        cards = jo.deck + jo.discard + jo.boxed + [c for w in jo.waiting.values() for c in w]
        if sorted(cards) != sorted(c.id for c in jo_rules().cards):
            bad.append(f"Jo's action cards: {sorted(cards)}")
        if sorted(jo.districts + jo.drawn) != [d.number for d in r.districts]:
            bad.append("Jo's District cards do not add up")
        bot = state.player(jo.seat)
        if bot.hand or bot.goons or bot.associate is not None or bot.safe:
            bad.append("Jo holds cards, Goons, an Associate or safe money")
    # Turn order track: every seat once.
    if sorted(state.track) != list(range(n)):
        bad.append(f"Turn Order track {state.track}")
    if len(state.zone_goals) != len(ZONES) or len({r.goals.zone_goals[g].number for g in state.zone_goals}) != 3:
        bad.append("Zone goals must show three different numbers")
    return bad
