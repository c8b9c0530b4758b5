"""Read, check and assemble the Speakeasy data files (``data/speakeasy/*.toml``) into ``Rules``.

The rules read only ``rules(state)``, never the TOML. Each file is decoded by its schema (``engine.speakeasy.schema``),
then checked across its fields and against the other files. ``load_rules`` refuses a file it cannot use with a
``DataError`` whose message names the file, the key and the reason, e.g.
``tracks.toml: operations.party.values: must have 5 whole numbers, got 4``.

Keys in messages and in ``[provenance]`` are dotted paths; an element of an array is ``name[i]`` (0-based), e.g.
``mobsters[7]`` or ``cards[3].benefit[0].kind``.

Provenance: every file ends with a ``[provenance]`` table mapping keys to their source, either seed sentence ids
(``"seed 000:19.8"``, from ../shared/seeds/rule-index.md) or the project's own value (``"own: design §6.1"``). Each
value in the file must be covered by an entry for its own key or for a key above it (``"prices"`` covers
``prices.casino``); a deeper entry refines a wider one (``"mobsters[7]"`` inside ``"mobsters"``). Every ``own:``
entry is listed in ``Rules.own_values`` as ``"file.toml: key"``: the values a group owning the printed game may
replace.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from engine.data import DataError, data_dir
from engine.speakeasy.components import Rules
from engine.speakeasy.schema import (
    board,
    buildings,
    city_tiles,
    docks,
    goals,
    helpers,
    house,
    locations,
    mobsters,
    operations,
    payouts,
    tracks,
)
from engine.speakeasy.schema.files import own_values, read, value_paths

if TYPE_CHECKING:
    from engine.speakeasy.state import SpeakeasyState

__all__ = ["FILES", "DataError", "city_tile_kinds", "latest_version", "load_rules", "rules", "value_paths"]

#: The data files, in the order they are read (paths under ``data/speakeasy/``), and their schemas.
SCHEMAS: dict[str, type] = {
    board.NAME: board.Board,
    locations.NAME: locations.LocationsFile,
    tracks.NAME: tracks.TracksFile,
    operations.NAME: operations.OperationsFile,
    buildings.NAME: buildings.BuildingsFile,
    docks.NAME: docks.DocksFile,
    goals.NAME: goals.GoalsFile,
    city_tiles.NAME: city_tiles.CityTilesFile,
    helpers.NAME: helpers.HelpersFile,
    mobsters.NAME: mobsters.MobstersFile,
    payouts.NAME: payouts.PayoutsFile,
}
FILES = tuple(SCHEMAS)


#: Jo's data file: its own loader (``jo.data``) applies a version's changes to it.
JO_FILE = "jo.toml"


def load_rules(folder: Path, version: int = 1) -> Rules:
    """Read and check every data file of ``folder`` and build the ``Rules`` of rules ``version`` (each version
    after 1 changes some of the project's own values: ``house.toml``); ``DataError`` names a bad value."""
    originals = {name: read(folder, name, schema) for name, schema in SCHEMAS.items()}
    changes = house.changes(folder, version, originals, elsewhere=(JO_FILE,))
    # a file no version changes is the one just read: parsed once (the first game of a process waits for this)
    files = {
        name: read(folder, name, schema, changes[name]) if changes.get(name) else originals[name]
        for name, schema in SCHEMAS.items()
    }
    data = {name: file.data for name, file in files.items()}
    the_board = data[board.NAME]
    # each file on its own first, then what one file says about another, then the provenance of every value
    the_tracks = tracks.tracks(data[tracks.NAME])
    districts = board.districts(the_board)
    cop_districts, cops_revealed, cops_face_down, cop_stacks = board.cops(the_board)
    years = board.years(the_board, the_tracks.capos_per_act)
    board.check_sides(the_board)
    the_locations = locations.locations(data[locations.NAME])
    cards = operations.cards(data[operations.NAME])
    the_buildings = buildings.buildings(data[buildings.NAME], the_tracks.start_pocket)
    the_docks = docks.docks(data[docks.NAME], districts)
    the_goals = goals.goals(data[goals.NAME], the_tracks.infamy_max)
    tiles = city_tiles.city_tiles(data[city_tiles.NAME])
    the_helpers = helpers.helpers(data[helpers.NAME])
    the_mobsters = mobsters.mobsters(data[mobsters.NAME])
    charts = payouts.payouts(data[payouts.NAME], the_board)
    final = payouts.final(data[payouts.NAME])
    sides = board.sides(the_board, charts, the_locations, the_goals, the_mobsters, tiles)
    own = tuple(key for file in files.values() for key in own_values(file))
    return Rules(
        districts=districts,
        sides=sides,
        setup_zone_goal_rule=the_board.setup.zone_goal_rule,
        cop_districts=cop_districts,
        cops_revealed=cops_revealed,
        cops_face_down=cops_face_down,
        cop_stacks=cop_stacks,
        years=years,
        locations=the_locations,
        tracks=the_tracks,
        cards=cards,
        buildings=the_buildings,
        docks=the_docks,
        goals=the_goals,
        city_tiles=tiles,
        helpers=the_helpers,
        mobsters=the_mobsters,
        final=final,
        own_values=own,
        tile_kinds=tuple(index for index, kind in enumerate(tiles) for _ in range(kind.count)),
    )


def rules(of: SpeakeasyState | int = 1) -> Rules:
    """The rules of a game: ``of`` is its state (the rules version its table was opened with, the table option
    ``rules``) or a version number. Values that no version changes (names, components) may be read without one
    (version 1); ``tests/engine/speakeasy/test_house_rules.py`` checks which parts a version may change."""
    if of.__class__ is int:  # asked some ten times a choice: the plain number first, without ``isinstance``
        return _rules(of)
    return _rules(of if isinstance(of, int) else of.rules)


@cache
def latest_version() -> int:
    """The newest rules version the data describes (a new table's; ``house.toml``)."""
    return house.latest(data_dir() / "speakeasy")


@cache
def _rules(version: int) -> Rules:
    """The rules of ``version`` from ``data_dir() / "speakeasy"`` (read once per process and version)."""
    return load_rules(data_dir() / "speakeasy", version)


def city_tile_kinds(rules: Rules) -> tuple[int, ...]:
    """City tile id -> index of its kind in ``rules.city_tiles``: the kinds expanded in file order (ids 0..59)."""
    return rules.tile_kinds
