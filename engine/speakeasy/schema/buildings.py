"""``buildings.toml``: the building rows of the Operations board, capacity, the upgrade chain, setup, take-over."""

from __future__ import annotations

from engine.data import at, fail, length, unique
from engine.schema import Table, keyed
from engine.speakeasy.components import BUILDING_KINDS, Buildings, RowSpace
from engine.speakeasy.schema.fields import BuildingKind, Effects, Positive, SomeWholes, effects, some

NAME = "buildings.toml"


class Row(Table):
    costs: SomeWholes  # leftmost space first
    benefits: tuple[Effects, ...]  # one effect list per cost


Rows = keyed("Rows", BUILDING_KINDS, Row, "a building kind")


class Capacity(Table):
    barrel: Positive
    stills: Positive


class Upgrade(Table):
    chain: dict[BuildingKind, BuildingKind]  # from kind -> to kind


class Setup(Table):
    kinds: some(BuildingKind)


class Takeover(Table):
    kind: BuildingKind


class BuildingsFile(Table):
    rows: Rows
    capacity: Capacity
    upgrade: Upgrade
    setup: Setup
    takeover: Takeover


def buildings(f: BuildingsFile, start_pocket: int) -> Buildings:
    """The buildings; an upgrade leads up the value order, the Setup Round can afford what it may open."""
    rows: dict[str, tuple[RowSpace, ...]] = {}
    for kind in BUILDING_KINDS:
        row = getattr(f.rows, kind)
        length(NAME, f"rows.{kind}.benefits", row.benefits, len(row.costs), "effect lists, one per cost")
        rows[kind] = tuple(
            RowSpace(kind, i, cost, effects(benefit))
            for i, (cost, benefit) in enumerate(zip(row.costs, row.benefits, strict=True))
        )
    for kind, to in f.upgrade.chain.items():
        if BUILDING_KINDS.index(to) <= BUILDING_KINDS.index(kind):
            fail(NAME, f"upgrade.chain.{kind}", f"an upgrade must lead to a more valuable building, not {to!r}")
    unique(NAME, at("setup.kinds", f.setup.kinds))
    for kind in f.setup.kinds:
        if min(space.cost for space in rows[kind]) > start_pocket:
            fail(NAME, "setup.kinds", f"{kind!r} costs more than the starting pocket (${start_pocket}, tracks.toml)")
    return Buildings(
        rows=rows,
        barrel_capacity=f.capacity.barrel,
        stills_capacity=f.capacity.stills,
        upgrades=dict(f.upgrade.chain),
        setup_kinds=f.setup.kinds,
        takeover_kind=f.takeover.kind,
    )
