"""``docks.toml``: the City Docks: Docks zones, Ships, Port tiles, Crates and the Ambush."""

from __future__ import annotations

from engine.data import at, fail, unique
from engine.schema import Table, distinct
from engine.speakeasy.components import Crate, District, Docks
from engine.speakeasy.schema.fields import CratePower, Positive, SomeWholes, Text, Whole, some

NAME = "docks.toml"


class DocksZones(Table):
    family_spaces: Positive
    book_reward: Whole


class Ships(Table):
    prices: SomeWholes  # $ per barrel on Ships 1, 2, ...
    barrels: Whole
    family_discount: Whole
    floor: Whole
    floor_with_card: Whole


class Ports(Table):
    districts: distinct(Positive)


class CrateRow(Table):
    name: Text
    cash: Whole
    power: CratePower
    n: Positive


class Ambush(Table):
    strength_base: Whole
    family: Positive
    rival_fee: Whole


class DocksFile(Table):
    docks_zones: DocksZones
    ships: Ships
    ports: Ports
    crates: some(CrateRow)
    ambush: Ambush


def docks(f: DocksFile, districts: tuple[District, ...]) -> Docks:
    """The Docks; the ports are board.toml's port districts, enough of them and of the Crates for every Ship."""
    ships, ports = f.ships, f.ports.districts
    if ships.floor_with_card > ships.floor:
        fail(NAME, "ships.floor_with_card", f"must be at most floor ({ships.floor}), got {ships.floor_with_card}")
    expected = [d.number for d in districts if d.port]
    if sorted(ports) != expected:
        fail(NAME, "ports.districts", f"must be the port districts of board.toml ({expected}), got {list(ports)}")
    if len(ports) < len(ships.prices):
        fail(NAME, "ports.districts", f"{len(ports)} ports cannot place {len(ships.prices)} Ships")
    unique(NAME, at("crates", (row.name for row in f.crates), "name"))
    if len(f.crates) < len(ships.prices):
        fail(NAME, "crates", f"{len(f.crates)} Crates cannot stock {len(ships.prices)} Ships")
    return Docks(
        family_spaces=f.docks_zones.family_spaces,
        ship_prices=ships.prices,
        ship_barrels=ships.barrels,
        family_discount=ships.family_discount,
        price_floor=ships.floor,
        price_floor_with_card=ships.floor_with_card,
        ports=ports,
        crates=tuple(Crate(i, row.name, row.cash, row.power, row.n) for i, row in enumerate(f.crates)),
        ambush_strength_base=f.ambush.strength_base,
        ambush_family=f.ambush.family,
        ambush_rival_fee=f.ambush.rival_fee,
        docks_book_reward=f.docks_zones.book_reward,
    )
