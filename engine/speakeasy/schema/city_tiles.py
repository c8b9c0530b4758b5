"""``city_tiles.toml``: the kinds of City tile, their counts and benefits."""

from __future__ import annotations

from engine.data import at, fail, unique
from engine.schema import Table
from engine.speakeasy.components import CityTile
from engine.speakeasy.schema.fields import Effects, Positive, Text, effects, some

NAME = "city_tiles.toml"


class KindRow(Table):
    name: Text
    count: Positive
    benefit: Effects


class CityTilesFile(Table):
    total: Positive
    kinds: some(KindRow)


def city_tiles(f: CityTilesFile) -> tuple[CityTile, ...]:
    """The kinds, in file order; their counts add up to ``total``."""
    unique(NAME, at("kinds", (row.name for row in f.kinds), "name"))
    counted = sum(row.count for row in f.kinds)
    if counted != f.total:
        fail(NAME, "kinds", f"counts add up to {counted}, but total is {f.total}")
    return tuple(CityTile(row.name, row.count, effects(row.benefit)) for row in f.kinds)
