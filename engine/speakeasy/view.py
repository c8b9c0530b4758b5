"""What a seat may see (seed 000:19.7, design §4): hands, safe money and the Helpers behind the Safe screen are
the owner's alone; everyone else sees counts, as at the table."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from engine.core import TABLE
from engine.speakeasy import standings
from engine.speakeasy.board import KIND_NAMES, district_name, zone_index
from engine.speakeasy.components import ZONES
from engine.speakeasy.gains import tile_kind
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState


def _card(card: int) -> dict[str, Any]:
    deck, name = _card_faces()[card]
    return {"id": card, "deck": deck, "name": name}


def _helper(h: int) -> dict[str, Any]:
    name, bottle = _helper_faces()[h]
    return {"id": h, "name": name, "bottle": bottle}


@cache
def _card_faces() -> tuple[tuple[str, str], ...]:
    """Each Operations card's deck and name (no rules version changes them; read once: views are built at every
    step of the differential tests)."""
    return tuple((c.deck, c.name) for c in rules().cards)


@cache
def _helper_faces() -> tuple[tuple[str, str], ...]:
    """Each Helper's name and bottle (as ``_card_faces``)."""
    return tuple((c.name, c.bottle) for c in rules().helpers.cards)


@cache
def _tile_names() -> tuple[str, ...]:
    """The kind name of each City tile id (read once: views are built often, e.g. by the differential tests)."""
    r = rules()
    return tuple(r.city_tiles[tile_kind(t)].name for t in range(len(r.tile_kinds)))


@cache
def _kind_names() -> dict[str, str]:
    """Each building kind's English name as plain text (views are plain JSON)."""
    return {k: str(v) for k, v in KIND_NAMES.items()}


def _tile(t: int | None) -> dict[str, Any] | None:
    if t is None:
        return None
    return {"id": t, "kind": _tile_names()[t]}


def view(state: SpeakeasyState, seat: int | None) -> dict[str, Any]:
    """JSON-ready data for ``seat`` (``None``: a spectator)."""
    return views(state, (seat,))[0]


def views(state: SpeakeasyState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """``view`` for each of ``seats``, the public part built once. A seat's view differs from the spectator's
    only in its ``seat`` and in its own player entry (hand, safe, screen); the views share every other part, so
    they are to be read, not changed (``view`` alone shares nothing)."""
    public = _public(state)
    out = []
    for seat in seats:
        v = dict(public)
        v["seat"] = seat
        if seat is not None and 0 <= seat < len(state.players):
            p = state.players[seat]
            entry = dict(public["players"][seat])
            entry["hand"] = [_card(c) for c in p.hand]
            entry["safe"] = p.safe
            entry["screen"] = [_helper(h) for h in p.screen]
            players = list(public["players"])
            players[seat] = entry
            v["players"] = players
        out.append(v)
    return out


def _public(state: SpeakeasyState) -> dict[str, Any]:
    """The spectator's view."""
    r = rules(state)
    players = []
    for i, p in enumerate(state.players):
        entry: dict[str, Any] = {
            "seat": i,
            "name": p.name,
            "pocket": p.pocket,
            "leverage": p.leverage,
            "infamy": p.infamy,
            "levels": dict(p.levels),
            "goons": p.goons,
            "associate": r.mobsters[p.associate].name if p.associate is not None else None,
            "capos": p.capos,
            "hand_count": len(p.hand),
            "slots": {k: _card(c) if c is not None else None for k, c in p.slots.items()},
            "books": p.books,
            "book_supply": p.book_supply,
            "family_supply": p.family_supply,
            "family_vip": p.family_vip,
            "family_track": list(p.family_track),
            "rows": {k: list(v) for k, v in p.rows.items()},
            "stills_barrels": p.stills_barrels,
            "city_tiles": [_tile(t) for t in p.tiles],
            "helpers": [_helper(h) for h in p.helpers],
            "screen_count": len(p.screen),
            "crates": [r.docks.crates[c].name for c in p.crates],
            "zone_markers": list(p.zone_markers),
        }
        if state.phase == "over":
            entry["final"] = dict(p.final)  # the final scoring reveals every part, the safe included
            # and where the money came from: costs paid from the safe tell its content, so only now
            entry["sources"] = standings.sources(state, i)
        if state.jo is not None:
            entry["bot"] = i == state.jo.seat
        players.append(entry)
    districts = []
    blocked = r.sides[state.side].blocked
    names = _tile_names()
    kinds = _kind_names()
    for d in state.districts:
        info = r.districts[d.number - 1]
        cop = d.cop
        spaces = [
            {
                "building": (
                    None
                    if (b := sp.building) is None
                    else {
                        "owner": b.owner,
                        "kind": b.kind,
                        "name": kinds[b.kind],
                        "barrel": b.barrel,
                        "family": b.family,
                        "operating": b.family or not cop,  # ``board.operating``, inlined: every space of every view
                    }
                ),
                "mobster": sp.mobster,
                "tile": None if (t := sp.tile) is None else {"id": t, "kind": names[t]},
            }
            for sp in d.spaces
        ]
        districts.append(
            {
                "number": d.number,
                "name": info.name,
                "zone": info.zone,
                "open": bool(d.spaces) or d.number not in blocked,
                "cop": cop,
                "cop_tile": d.cop_tile,
                "war_tile": d.war_tile,
                "strength": d.strength if not d.strength_down else None,
                "mobster": r.mobsters[d.mobster].name if d.mobster is not None else None,
                "spaces": spaces,
            }
        )
    goals = r.goals
    return {
        "game": "speakeasy",
        "seat": None,
        "side": state.side,
        "phase": state.phase,
        "act": state.act,
        "round": state.round,
        "year": state.year,
        "track": list(state.track),
        "order": list(state.order),
        "current": state.tasks[-1].seat if state.tasks and state.tasks[-1].seat != TABLE else None,
        "players": players,
        "districts": districts,
        "persons": dict(state.persons),
        "booths": list(state.booths),
        "first_place": list(state.first_place),
        "park": list(state.park),
        "decks": {k: {"count": len(v), "top": _card(v[0]) if v else None} for k, v in state.decks.items()},
        "helper_display": [_helper(h) if h is not None else None for h in state.helper_display],
        "helper_deck": len(state.helper_deck),
        "city_display": [_tile(t) for t in state.city_face],
        "city_piles": [len(p) for p in state.city_piles],
        "zone_goals": [
            {
                "zone": z,
                "type": goals.zone_goals[t].type,
                "number": goals.zone_goals[t].number,
                "books": list(state.zone_books[i]),
            }
            for i, (z, t) in enumerate(zip(ZONES, state.zone_goals, strict=True))
        ],
        "city_hall_books": [list(x) for x in state.city_hall_books],
        "docks_books": [list(x) for x in state.docks_books],
        "infamy_books": {k: list(v) for k, v in state.infamy_books.items()},
        "central_park": [
            {"tile": t, "book": state.park_books[j], "text": _park_text(t)} for j, t in enumerate(state.park_goals)
        ],
        "mobster_markers": list(state.mobster_markers),
        # a Mobster that opened no Speakeasy leaves the game (seed 001:17.1): everyone saw which
        "mobsters_gone": [r.mobsters[m].name for m in state.mobster_gone],
        "booths_open": r.sides[state.side].booths,
        "war": _war(state),
        "docks": [list(z) for z in state.docks],
        "ships": [
            {
                "number": s.number,
                "port": s.port,
                "port_name": str(district_name(s.port)),
                "zone": ZONES[zone_index(s.port)],
                "barrels": s.barrels,
                "price": r.docks.ship_prices[s.number - 1],
                "crate": r.docks.crates[s.crate].name if s.crate is not None else None,
            }
            for s in state.ships
        ],
        "crate_stack": len(state.crate_stack),
        "war_stacks": [len(s) for s in state.war_stacks],
        "cop_stacks": [len(s) for s in state.cop_stacks],
        "undo_mark": state.undo_mark,
        "jo": _jo(state),
        "standings": standings.standings(state) if state.phase == "over" else None,
    }


@cache
def _park_text(tile: str) -> str:
    """A Central Park goal as people read it: "3 Operating Speakeasies: 2 Leverage"."""
    from engine.speakeasy.components import PARK_CONDITIONS
    from engine.speakeasy.economy import describe

    g = next(x for x in rules().goals.park_goals if x.id == tile)
    # the count is the word "n" alone: a plain replace of "n " would hit "in " ("Operating buildings i3 n Zones")
    # "(n ignored)" is a note for the data's authors, not words for players
    condition = re.sub(r" \(n ignored[^)]*\)", "", PARK_CONDITIONS[g.condition])
    condition = re.sub(r"\bn\b", str(g.n), condition, count=1)
    return f"{condition}: {describe(g.benefit)}"


def _war(state: SpeakeasyState) -> dict[str, Any] | None:
    """The Mob War defence being asked now: its district, space and attack."""
    if state.phase != "luciano" or not state.tasks or state.tasks[-1].kind not in ("defend", "jo_defend"):
        return None
    from engine.speakeasy.luciano import attack

    t = state.tasks[-1]
    return {"district": t.n, "space": t.m, "attack": attack(state, state.districts[t.n - 1]), "seat": t.seat}


def _jo(state: SpeakeasyState) -> dict[str, Any] | None:
    """Jo's public side: his difficulty, the cards he has done (face up) and how many are left, never their order
    (seed 003:30.1: his deck is face down)."""
    jo = state.jo
    if jo is None:
        return None
    from engine.speakeasy.jo.data import jo_rules

    level = jo_rules(state).difficulties[jo.difficulty]
    return {
        "seat": jo.seat,
        "difficulty": jo.difficulty,
        "difficulty_name": level.name,
        "card": jo.card or None,
        "done": list(jo.discard),
        "deck_count": len(jo.deck),
        "district_count": len(jo.districts),
        "achievements": list(jo.achievements),
        "rank": jo.rank or None,
    }
