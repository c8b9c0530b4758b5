"""``payouts.toml``: the Zone payouts and Casino payouts of each board side, and the final scoring values."""

from __future__ import annotations

from engine.data import fail, known, length, ordered
from engine.schema import Table, distinct, keyed, vocabulary
from engine.speakeasy.components import BUILDING_KINDS, ZONES, Final
from engine.speakeasy.schema.board import Board
from engine.speakeasy.schema.fields import Whole, Wholes

NAME = "payouts.toml"
TIE_BREAKERS = ("safe", "operating_buildings", "later_turn_order")

ZoneChart = keyed("ZoneChart", ZONES, Wholes, "a Zone")
Protected = keyed("Protected", BUILDING_KINDS, Whole, "a building kind")


class FinalTable(Table):
    protected: Protected
    tie_breakers: distinct(vocabulary(TIE_BREAKERS, "a tie-breaker"), 1)


class PayoutsFile(Table):
    zones: dict[str, ZoneChart]  # board side -> its chart
    casino: dict[str, Wholes]  # board side -> $ by new turn position
    final: FinalTable


def payouts(f: PayoutsFile, board: Board) -> dict[str, tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]:
    """Per board side of board.toml: (Zone payouts in ZONES order, Casino payouts)."""
    out = {}
    for table in ("zones", "casino"):
        for side in getattr(f, table):
            known(NAME, f"{table}.{side}", side, board.sides, "a board side of board.toml")
        for side in board.sides:
            if side not in getattr(f, table):
                fail(NAME, f"{table}.{side}", "is missing: every board side of board.toml needs its payouts")
    for name, side in board.sides.items():
        most = max(side.players)
        charts = []
        for zone in ZONES:
            values = getattr(f.zones[name], zone)
            where = f"zones.{name}.{zone}"
            length(NAME, where, values, most + 1, "whole numbers")  # the Mobster marker ranks too (seed 001:32.2)
            ordered(NAME, where, values, falling=True)
            charts.append(values)
        length(NAME, f"casino.{name}", f.casino[name], most, "whole numbers")
        out[name] = (tuple(charts), f.casino[name])
    return out


def final(f: PayoutsFile) -> Final:
    """The final scoring values."""
    return Final(
        protected={kind: getattr(f.final.protected, kind) for kind in BUILDING_KINDS},
        tie_breakers=f.final.tie_breakers,
    )
