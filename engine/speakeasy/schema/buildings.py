"""``buildings.toml``: the building rows of the Operations board, capacity, the upgrade chain, setup, take-over."""

from __future__ import annotations

from engine.data import fail, length, listing
from engine.schema import Table, distinct, keyed, vocabulary
from engine.speakeasy.components import BUILDING_KINDS, Buildings, RowSpace
from engine.speakeasy.schema.fields import BuildingKind, Effects, Positive, SomeWholes, effects

NAME = "buildings.toml"
NONE = "none"  # in upgrade.chain: a kind that is not upgraded


class Row(Table):
    costs: SomeWholes  # leftmost space first
    benefits: tuple[Effects, ...]  # one effect list per cost


Rows = keyed("Rows", BUILDING_KINDS, Row, "a building kind")


class Capacity(Table):
    barrel: Positive
    stills: Positive


#: from kind -> to kind, naming every kind ("none": not upgraded), so that a link left out of the chain is refused
#: rather than read as a building that cannot be upgraded.
Chain = keyed(
    "Chain", BUILDING_KINDS, vocabulary((*BUILDING_KINDS, NONE), f"a building kind or {NONE!r}"), "a building kind"
)


class Upgrade(Table):
    chain: Chain


class Setup(Table):
    kinds: distinct(BuildingKind, 1)


class Takeover(Table):
    kind: BuildingKind


class BuildingsFile(Table):
    rows: Rows
    capacity: Capacity
    upgrade: Upgrade
    setup: Setup
    takeover: Takeover


def buildings(f: BuildingsFile, start_pocket: int) -> Buildings:
    """The buildings; an upgrade leads up the value order (so the chain has no loop), the Setup Round can afford
    what it may open."""
    rows: dict[str, tuple[RowSpace, ...]] = {}
    for kind in BUILDING_KINDS:
        row = getattr(f.rows, kind)
        length(NAME, f"rows.{kind}.benefits", row.benefits, len(row.costs), "effect lists, one per cost")
        rows[kind] = tuple(
            RowSpace(kind, i, cost, effects(benefit))
            for i, (cost, benefit) in enumerate(zip(row.costs, row.benefits, strict=True))
        )
    upgrades = {kind: to for kind in BUILDING_KINDS if (to := getattr(f.upgrade.chain, kind)) != NONE}
    for kind, to in upgrades.items():
        if BUILDING_KINDS.index(to) <= BUILDING_KINDS.index(kind):
            fail(
                NAME,
                f"upgrade.chain.{kind}",
                f"an upgrade must lead to a more valuable building ({listing(BUILDING_KINDS)}, lowest first) "
                f"or be {NONE!r}, not {to!r}",
            )
    for kind in f.setup.kinds:
        if min(space.cost for space in rows[kind]) > start_pocket:
            fail(NAME, "setup.kinds", f"{kind!r} costs more than the starting pocket (${start_pocket}, tracks.toml)")
    return Buildings(
        rows=rows,
        barrel_capacity=f.capacity.barrel,
        stills_capacity=f.capacity.stills,
        upgrades=upgrades,
        setup_kinds=f.setup.kinds,
        takeover_kind=f.takeover.kind,
    )
