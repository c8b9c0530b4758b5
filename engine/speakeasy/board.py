"""Questions about the city: names, Zones, spaces, who owns what and what is Operating."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from engine.msg import M, Msg, T
from engine.speakeasy.components import ZONES
from engine.speakeasy.loader import rules
from engine.speakeasy.state import Building, District, SpeakeasyState

#: Building kinds and tracks as people read them (terms: translated by the words layer).
KIND_NAMES = {
    "stills": T("speakeasy.term.building", "Stills"),
    "speakeasy": T("speakeasy.term.building", "Speakeasy"),
    "nightclub": T("speakeasy.term.building", "Nightclub"),
    "casino": T("speakeasy.term.building", "Casino"),
}
TRACK_NAMES = {
    "vip": T("speakeasy.term.track", "VIP Room"),
    "party": T("speakeasy.term.track", "Party"),
    "stills": T("speakeasy.term.track", "Stills"),
    "fleet": T("speakeasy.term.track", "Fleet"),
    "strength": T("speakeasy.term.track", "Strength"),
}


@cache  # a term of the data files: named by every option in a district (its section) and many labels
def zone_name(zone: str) -> Msg:
    """A Zone as people read it: "Downtown" (a term)."""
    return T("speakeasy.term.zone", zone)


# The names and Zones below depend on the data files only (``rules()`` is loaded once): cached, since every
# question's options name districts and spaces.


@cache
def zone_index(number: int) -> int:
    """The Zone (index into ``ZONES``) of a district."""
    return ZONES.index(rules().district(number).zone)


@cache
def district_name(number: int) -> Msg:
    """A district as people read it: "Little Italy"."""
    return T("speakeasy.term.district", rules().district(number).name)


@cache
def space_name(number: int, index: int) -> Msg:
    """A space as people read it: "Little Italy, space 2"."""
    return M("speakeasy.term.space", "{district}, space {n}", district=district_name(number), n=index + 1)


def is_open(state: SpeakeasyState, number: int) -> bool:
    """Whether a district is in play on this board side."""
    return number not in rules(state).sides[state.side].blocked


def operating(district: District, building: Building) -> bool:
    """Design §1.2: Operating unless a Cop stands in the district and the building is not Protected."""
    return building.family or not district.cop


def buildings(state: SpeakeasyState, seat: int | None = None) -> Iterator[tuple[District, int, Building]]:
    """Every player building (of ``seat`` if given), in district then space order."""
    for d in state.districts:
        for i, sp in enumerate(d.spaces):
            b = sp.building
            if b is not None and (seat is None or b.owner == seat):
                yield d, i, b


def operating_count(state: SpeakeasyState, seat: int) -> int:
    """Operating buildings a seat owns (the final standings' second tie-breaker)."""
    return sum(1 for d, _i, b in buildings(state, seat) if operating(d, b))


def operating_buildings(state: SpeakeasyState, seat: int) -> Iterator[tuple[District, int, Building]]:
    """The seat's Operating buildings."""
    return ((d, i, b) for d, i, b in buildings(state, seat) if operating(d, b))


def free_spaces(state: SpeakeasyState) -> Iterator[tuple[District, int]]:
    """Spaces with no player building and no Mobster Speakeasy (design §1.1 "free")."""
    for d in state.districts:
        for i, sp in enumerate(d.spaces):
            if sp.building is None and not sp.mobster:
                yield d, i


def mobster_held(state: SpeakeasyState) -> Iterator[tuple[District, int]]:
    """Spaces with a Mobster Speakeasy beside them."""
    for d in state.districts:
        for i, sp in enumerate(d.spaces):
            if sp.building is None and sp.mobster:
                yield d, i


def stills_operating(state: SpeakeasyState, seat: int) -> bool:
    """Seed 000:45.1: whether the seat has an Operating Stills on the main board."""
    return any(b.kind == "stills" for _d, _i, b in operating_buildings(state, seat))


def barrel_targets(state: SpeakeasyState, seat: int, zone: int | None = None) -> list[tuple[District, int]]:
    """The seat's Operating Speakeasies, Nightclubs and Casinos without a barrel (in one Zone if given)."""
    return [
        (d, i)
        for d, i, b in operating_buildings(state, seat)
        if b.kind != "stills" and not b.barrel and (zone is None or zone_index(d.number) == zone)
    ]
