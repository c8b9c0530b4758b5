"""``locations.toml``: the Persons of Interest, the Restaurant with its booths, the Park, the action counts."""

from __future__ import annotations

from engine.data import at, fail, numbered, unique
from engine.schema import Table, distinct, vocabulary
from engine.speakeasy.components import Booth, Locations, ParkSpace, Person
from engine.speakeasy.schema.fields import Effects, Positive, StepKind, Text, Whole, effects, some

NAME = "locations.toml"
POSITIONS = ("left", "right")
Position = vocabulary(POSITIONS, "a position")


class PersonRow(Table):
    id: Text
    location: Text
    name: Text
    position: Position
    steps: distinct(StepKind, 1)


class BoothRow(Table):
    number: Positive
    leverage: Whole
    reward: Effects


class ParkSpaceRow(Table):
    number: Positive
    reward: Effects


class Restaurant(Table):
    maitre_d: PersonRow
    first_place: PersonRow
    booths: some(BoothRow)


class Park(Table):
    copy_discards: Whole
    spaces: some(ParkSpaceRow)


class Actions(Table):
    build_times: Positive
    upgrade_times: Positive
    cook_books: Positive


class LocationsFile(Table):
    persons: some(PersonRow)
    restaurant: Restaurant
    park: Park
    actions: Actions


def locations(f: LocationsFile) -> Locations:
    """The locations; every Person id and name once, a left and a right Person at each two-Person location."""
    everyone = [*at("persons", f.persons), ("restaurant.maitre_d", f.restaurant.maitre_d)]
    everyone.append(("restaurant.first_place", f.restaurant.first_place))
    unique(NAME, ((f"{path}.id", row.id) for path, row in everyone))
    unique(NAME, ((f"{path}.name", row.name) for path, row in everyone))
    places: dict[str, set[str]] = {}
    for path, row in at("persons", f.persons):
        if row.location in ("Restaurant", "Park"):
            fail(NAME, f"{path}.location", f"{row.location!r}: the Restaurant is in [restaurant], the Park in [park]")
        taken = places.setdefault(row.location, set())
        if row.position in taken:
            fail(NAME, f"{path}.position", f"{row.position!r} is taken twice at {row.location}")
        taken.add(row.position)
    for location, taken in places.items():
        if taken != set(POSITIONS):
            fail(NAME, "persons", f"{location} needs a left and a right Person")
    numbered(NAME, "restaurant.booths", (row.number for row in f.restaurant.booths), "booths")
    numbered(NAME, "park.spaces", (row.number for row in f.park.spaces), "Park spaces")
    return Locations(
        persons=tuple(_person(row) for row in f.persons),
        maitre_d=_person(f.restaurant.maitre_d),
        first_place=_person(f.restaurant.first_place),
        booths=tuple(Booth(row.number, row.leverage, effects(row.reward)) for row in f.restaurant.booths),
        park=tuple(ParkSpace(row.number, effects(row.reward)) for row in f.park.spaces),
        park_copy_discards=f.park.copy_discards,
        build_times=f.actions.build_times,
        upgrade_times=f.actions.upgrade_times,
        cook_books=f.actions.cook_books,
    )


def _person(row: PersonRow) -> Person:
    return Person(row.id, row.location, row.name, row.position, row.steps)
