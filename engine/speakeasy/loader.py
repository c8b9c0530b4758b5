"""Read, check and assemble the Speakeasy data files (``data/speakeasy/*.toml``) into ``Rules``.

The rules read only ``rules()``, never the TOML. ``load_rules`` refuses a file it cannot use with a ``DataError``
whose message names the file, the key and the reason, e.g.
``tracks.toml: operations.party.values must have 5 whole numbers, got 4``.

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

import re
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, NoReturn

from engine.data import DataError, data_dir
from engine.speakeasy.components import (
    BOTTLES,
    BUILDING_KINDS,
    CRATE_POWERS,
    EFFECT_KINDS,
    PARK_CONDITIONS,
    STEP_KINDS,
    TRACKS,
    ZONES,
    Booth,
    Buildings,
    CityTile,
    Crate,
    District,
    Docks,
    Effect,
    Final,
    Goals,
    Helper,
    Helpers,
    Locations,
    Mobster,
    OpsCard,
    ParkGoal,
    ParkSpace,
    Person,
    RowSpace,
    Rules,
    Side,
    Track,
    Tracks,
    ZoneGoal,
)

#: The data files, in the order they are read (paths under ``data/speakeasy/``).
FILES = (
    "board.toml",
    "locations.toml",
    "tracks.toml",
    "cards/operations.toml",
    "buildings.toml",
    "docks.toml",
    "goals.toml",
    "city_tiles.toml",
    "helpers.toml",
    "mobsters.toml",
    "payouts.toml",
)
ACTS = 4  # seed 000:24.1: "The game is divided into 4 ACTS"
ZONE_GOAL_TYPES = ("districts", "buildings", "barrels", "protected")
TIE_BREAKERS = ("safe", "operating_buildings", "later_turn_order")
MOBSTER_DECKS = ("A", "B", "C", "D")  # A: Setup Mobsters; B, C, D: the Mob Wars after Acts 1, 2, 3
PARK_LETTERS = ("A", "B", "C")
POSITIONS = ("left", "right")
SALE_KINDS = tuple(kind for kind in BUILDING_KINDS if kind != "stills")  # buildings that sell barrels
YEAR_KEYS = ("setup", *(f"act{n}" for n in range(1, ACTS + 1)), "final")

_SEED_SOURCE = re.compile(r"^seed \d{3}:\d+\.\d+")
_OWN_SOURCE = re.compile(r"^own: \S")
_TOML_AT = re.compile(r"at line (\d+)")
_CUT = re.compile(r"[.\[]")


# --- reading and checking one file ----------------------------------------------------------------------------


def _show(value: Any) -> str:
    """A value as it would look in the file, for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _choice_list(choices: Any) -> str:
    return ", ".join(str(c) for c in choices)


class _File:
    """One data file: its name for messages, its TOML, its provenance and the keys the loader has read."""

    def __init__(self, folder: Path, name: str) -> None:
        self.name = name
        try:
            text = (folder / name).read_text(encoding="utf-8")
        except OSError as exc:
            raise DataError(f"{name}: cannot be read ({exc.strerror or exc})") from None
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise DataError(f"{name}: is not valid TOML: {exc}{_toml_line(text, str(exc))}") from None
        self.provenance: Any = raw.pop("provenance", None)
        self.read: set[str] = set()
        self.root = _Table(self, "", raw)

    def fail(self, path: str, reason: str) -> NoReturn:
        """Refuse the file: ``DataError("file: path reason")``."""
        raise DataError(f"{self.name}: {path} {reason}")


def _toml_line(text: str, message: str) -> str:
    """The offending line of a TOML syntax error, so that the message shows the key."""
    found = _TOML_AT.search(message)
    if not found:
        return ""
    lines = text.splitlines()
    number = int(found.group(1))
    return f": {lines[number - 1].strip()!r}" if 0 < number <= len(lines) else ""


def _whole(file: _File, path: str, value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        file.fail(path, f"must be a whole number, got {_show(value)}")
    if value < low:
        file.fail(path, f"must not be negative, got {value}" if low == 0 else f"must be at least {low}, got {value}")
    return value


def _effects(file: _File, path: str, value: Any) -> tuple[Effect, ...]:
    if not isinstance(value, list):
        file.fail(path, f'must be a list of effects such as [{{ kind = "leverage", n = 2 }}], got {_show(value)}')
    out: list[Effect] = []
    for i, item in enumerate(value):
        at = f"{path}[{i}]"
        if not isinstance(item, dict):
            file.fail(at, f"must be an effect {{ kind = ..., n = ... }}, got {_show(item)}")
        for extra in item:
            if extra not in ("kind", "n"):
                file.fail(f"{at}.{extra}", "is not part of an effect (only kind and n)")
        effect = _Table(file, at, item)
        out.append(Effect(effect.text("kind", EFFECT_KINDS, "an effect kind"), effect.whole("n", low=1)))
    return tuple(out)


class _Table:
    """A TOML table of one file at a dotted path, with typed getters that refuse bad values."""

    def __init__(self, file: _File, path: str, raw: dict[str, Any]) -> None:
        self.file = file
        self.path = path
        self.raw = raw

    def where(self, key: str) -> str:
        """The dotted path of ``key`` in this table."""
        return f"{self.path}.{key}" if self.path else key

    def fail(self, key: str, reason: str) -> NoReturn:
        """Refuse the file at ``key`` of this table."""
        self.file.fail(self.where(key), reason)

    def value(self, key: str) -> Any:
        """The raw value of ``key``, which must be present; the key counts as read."""
        if key not in self.raw:
            self.fail(key, "is missing")
        self.file.read.add(self.where(key))
        return self.raw[key]

    def only(self, allowed: Any, what: str) -> None:
        """Refuse any key of this table that is not in ``allowed``."""
        for key in self.raw:
            if key not in allowed:
                self.fail(key, f"is not {what} (one of {_choice_list(allowed)})")

    def whole(self, key: str, low: int = 0) -> int:
        """A whole number (not a bool) of at least ``low``."""
        return _whole(self.file, self.where(key), self.value(key), low)

    def wholes(self, key: str, length: int | None = None, low: int = 0) -> tuple[int, ...]:
        """A list of whole numbers of at least ``low``, of exactly ``length`` items if given."""
        value = self.value(key)
        path = self.where(key)
        if not isinstance(value, list):
            self.file.fail(path, f"must be a list of whole numbers, got {_show(value)}")
        if length is not None and len(value) != length:
            self.file.fail(path, f"must have {length} whole numbers, got {len(value)}")
        return tuple(_whole(self.file, f"{path}[{i}]", item, low) for i, item in enumerate(value))

    def text(self, key: str, choices: Any = None, what: str = "") -> str:
        """A non-empty string, one of ``choices`` if given."""
        value = self.value(key)
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"must be a non-empty string, got {_show(value)}")
        if choices is not None and value not in choices:
            self.fail(key, f"{value!r} is not {what} (one of {_choice_list(choices)})")
        return value

    def texts(self, key: str, choices: Any, what: str) -> tuple[str, ...]:
        """A non-empty list of distinct strings, each one of ``choices``."""
        value = self.value(key)
        path = self.where(key)
        if not isinstance(value, list) or not value:
            self.file.fail(path, f"must be a non-empty list of strings, got {_show(value)}")
        for i, item in enumerate(value):
            if item not in choices:
                self.file.fail(f"{path}[{i}]", f"{_show(item)} is not {what} (one of {_choice_list(choices)})")
            if item in value[:i]:
                self.file.fail(f"{path}[{i}]", f"{item!r} appears twice")
        return tuple(value)

    def flag(self, key: str) -> bool:
        """A bool (true or false)."""
        value = self.value(key)
        if not isinstance(value, bool):
            self.fail(key, f"must be true or false, got {_show(value)}")
        return value

    def table(self, key: str) -> _Table:
        """The sub-table ``key``."""
        if key not in self.raw:
            self.fail(key, "is missing")
        value = self.raw[key]
        if not isinstance(value, dict):
            self.fail(key, f"must be a table, got {_show(value)}")
        return _Table(self.file, self.where(key), value)

    def rows(self, key: str) -> list[_Table]:
        """A non-empty array of tables."""
        if key not in self.raw:
            self.fail(key, "is missing")
        value = self.raw[key]
        if not isinstance(value, list) or not value or not all(isinstance(row, dict) for row in value):
            self.fail(key, f"must be a non-empty array of tables, got {_show(value)}")
        return [_Table(self.file, f"{self.where(key)}[{i}]", row) for i, row in enumerate(value)]

    def effects(self, key: str) -> tuple[Effect, ...]:
        """A list of effects ``[{kind, n}, ...]`` (``[]`` for none)."""
        return _effects(self.file, self.where(key), self.value(key))

    def number_map(self, key: str, keys: range, what: str, low: int = 0) -> dict[int, int]:
        """A table with whole-number keys written as strings (``{"5" = 1}``) in ``keys``, sorted by key."""
        value = self.value(key)
        path = self.where(key)
        if not isinstance(value, dict):
            self.file.fail(path, f'must be a table such as {{ "5" = 1 }}, got {_show(value)}')
        out: dict[int, int] = {}
        for name, amount in value.items():
            number = _number_key(self.file, f"{path}.{name}", name, keys, what)
            out[number] = _whole(self.file, f"{path}.{name}", amount, low)
        return dict(sorted(out.items()))


def _number_key(file: _File, path: str, name: str, keys: range, what: str) -> int:
    if not name.isdigit() or int(name) not in keys:
        file.fail(path, f"{name!r} is not {what} ({keys.start}..{keys.stop - 1})")
    return int(name)


def _prefixes(path: str) -> list[str]:
    """``a.b[2].c`` -> ``a``, ``a.b``, ``a.b[2]``, ``a.b[2].c``."""
    return [path[: m.start()] for m in _CUT.finditer(path) if m.start() > 0] + [path]


def _leaves(value: Any, path: str) -> Iterator[str]:
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list) and value and all(isinstance(item, (dict, list)) for item in value):
        for i, item in enumerate(value):
            yield from _leaves(item, f"{path}[{i}]")
    elif path:
        yield path


def value_paths(table: dict[str, Any]) -> frozenset[str]:
    """Every key path of a parsed data file (its leaves and every table or array above them)."""
    return frozenset(prefix for leaf in _leaves(table, "") for prefix in _prefixes(leaf))


def _finish(file: _File) -> list[str]:
    """Refuse keys the loader did not read and values without provenance; return the file's ``own:`` keys."""
    leaves = list(_leaves(file.root.raw, ""))
    for leaf in leaves:
        if not any(prefix in file.read for prefix in _prefixes(leaf)):
            file.fail(leaf, "is not a key of this file (misspelt or misplaced?)")
    provenance = file.provenance
    if provenance is None:
        raise DataError(f"{file.name}: [provenance] is missing: every value must name its source")
    if not isinstance(provenance, dict):
        raise DataError(f"{file.name}: provenance must be a table, got {_show(provenance)}")
    paths = value_paths(file.root.raw)
    own: list[str] = []
    for key, source in provenance.items():
        if key not in paths:
            raise DataError(f"{file.name}: [provenance] {key!r} names no value of the file")
        if not isinstance(source, str) or not (_SEED_SOURCE.match(source) or _OWN_SOURCE.match(source)):
            raise DataError(
                f'{file.name}: [provenance] {key!r} must be "seed FFF:L.S ..." or "own: ...", got {_show(source)}'
            )
        if source.startswith("own:"):
            own.append(f"{file.name}: {key}")
    for leaf in leaves:
        if not any(prefix in provenance for prefix in _prefixes(leaf)):
            file.fail(leaf, f'has no [provenance] entry (add "{leaf}" or a key above it: "seed ..." or "own: ...")')
    return own


# --- the files --------------------------------------------------------------------------------------------------


def _board(root: _Table) -> tuple[tuple[District, ...], dict[str, dict[str, Any]]]:
    districts: list[District] = []
    for i, row in enumerate(root.rows("districts")):
        number = row.whole("number", low=1)
        if number != i + 1:
            row.fail("number", f"must be {i + 1}: districts are numbered 1, 2, 3 ... in file order, got {number}")
        districts.append(
            District(
                number=number,
                name=row.text("name"),
                zone=row.text("zone", ZONES, "a Zone"),
                spaces=row.whole("spaces", low=1),
                port=row.flag("port"),
            )
        )
    for zone in ZONES:
        if not any(d.zone == zone for d in districts):
            root.fail("districts", f"have no district in {zone}")
    sides: dict[str, dict[str, Any]] = {}
    table = root.table("sides")
    seen_players: dict[int, str] = {}
    for name in table.raw:
        side = table.table(name)
        players = side.wholes("players", low=1)
        if not players:
            side.fail("players", "must list at least one player count")
        for count in players:
            if count in seen_players:
                side.fail("players", f"{count} players already use the {seen_players[count]!r} side")
            seen_players[count] = name
        blocked = side.wholes("blocked", low=1)
        for i, number in enumerate(blocked):
            if number > len(districts) or number in blocked[:i]:
                side.fail(f"blocked[{i}]", f"{number} is not a district 1..{len(districts)} or appears twice")
        booths = side.whole("booths", low=1)
        park = side.table("central_park")
        park.only(PARK_LETTERS, "a Central Park letter")
        mobsters = side.table("mobsters")
        mobsters.only(MOBSTER_DECKS, "a Mobster deck letter")
        cap = side.table("zone_goal_districts_cap")
        cap.only(ZONES, "a Zone")
        piles = side.wholes("city_piles", low=0)
        if not piles:
            side.fail("city_piles", "must list at least one pile")
        open_districts = [d for d in districts if d.number not in blocked]
        caps = tuple(cap.whole(zone, low=1) for zone in ZONES)
        for zone, most in zip(ZONES, caps, strict=True):
            count = sum(1 for d in open_districts if d.zone == zone)
            if most > count:
                cap.fail(zone, f"is {most}, but the side has only {count} open districts in {zone}")
        draws = tuple((letter, mobsters.whole(letter)) for letter in MOBSTER_DECKS)
        if sum(n for _, n in draws) != len(open_districts):
            side.fail(
                "mobsters",
                f"draw {sum(n for _, n in draws)} Mobster District tiles, but the side has "
                f"{len(open_districts)} open districts (one tile each)",
            )
        sides[name] = {
            "table": side,
            "name": name,
            "players": players,
            "blocked": frozenset(blocked),
            "booths": booths,
            "central_park": tuple((letter, park.whole(letter)) for letter in PARK_LETTERS),
            "city_piles": piles,
            "mobsters": draws,
            "zone_goal_districts_cap": caps,
            "map_spaces": sum(d.spaces for d in open_districts),
        }
    if not sides:
        root.fail("sides", "must hold at least one board side")
    return tuple(districts), sides


def _cops(root: _Table, districts: int) -> tuple[tuple[int, ...], int, int, tuple[int, ...]]:
    cops = root.table("cops")
    tiles = cops.wholes("districts", low=1)
    if sorted(tiles) != list(range(1, districts + 1)):
        cops.fail("districts", f"must hold each district 1..{districts} exactly once")
    revealed = cops.whole("revealed")
    face_down = cops.whole("face_down")
    stacks = cops.wholes("stacks", low=1)
    if revealed + face_down + sum(stacks) != len(tiles):
        cops.fail(
            "stacks", f"with revealed and face_down use {revealed + face_down + sum(stacks)} of {len(tiles)} tiles"
        )
    return tiles, revealed, face_down, stacks


def _years(root: _Table, per_act: tuple[int, ...]) -> dict[str, int]:
    table = root.table("years")
    years = {key: table.whole(key, low=1) for key in YEAR_KEYS}
    if years["act1"] != years["setup"] + 1:
        table.fail("act1", f"must be the year after the Setup Round ({years['setup'] + 1}), got {years['act1']}")
    for act in range(1, ACTS):
        start, end = years[f"act{act}"], years[f"act{act + 1}"]
        if end - start != per_act[act - 1]:
            table.fail(
                f"act{act + 1}", f"must be {start + per_act[act - 1]}: Act {act} has {per_act[act - 1]} rounds (years)"
            )
    if years["final"] <= years[f"act{ACTS}"]:
        table.fail("final", f"must come after act{ACTS} ({years[f'act{ACTS}']})")
    return years


def _person(row: _Table, ids: set[str]) -> Person:
    person = Person(
        id=row.text("id"),
        location=row.text("location"),
        name=row.text("name"),
        position=row.text("position", POSITIONS, "a position"),
        steps=row.texts("steps", STEP_KINDS, "a step kind"),
    )
    if person.id in ids:
        row.fail("id", f"{person.id!r} appears twice")
    ids.add(person.id)
    return person


def _locations(root: _Table) -> Locations:
    ids: set[str] = set()
    persons: list[Person] = []
    places: dict[str, set[str]] = {}
    for row in root.rows("persons"):
        person = _person(row, ids)
        if person.location in ("Restaurant", "Park"):
            row.fail("location", f"{person.location!r}: the Restaurant is in [restaurant], the Park in [park]")
        taken = places.setdefault(person.location, set())
        if person.position in taken:
            row.fail("position", f"{person.position!r} is taken twice at {person.location}")
        taken.add(person.position)
        persons.append(person)
    for location, taken in places.items():
        if taken != set(POSITIONS):
            root.fail("persons", f"{location} needs a left and a right Person")
    restaurant = root.table("restaurant")
    maitre_d = _person(restaurant.table("maitre_d"), ids)
    first_place = _person(restaurant.table("first_place"), ids)
    booths: list[Booth] = []
    for i, row in enumerate(restaurant.rows("booths")):
        if row.whole("number", low=1) != i + 1:
            row.fail("number", f"must be {i + 1}: booths are numbered 1, 2, 3 ... in file order")
        booths.append(Booth(i + 1, row.whole("leverage"), row.effects("reward")))
    park = root.table("park")
    spaces: list[ParkSpace] = []
    for i, row in enumerate(park.rows("spaces")):
        if row.whole("number", low=1) != i + 1:
            row.fail("number", f"must be {i + 1}: Park spaces are numbered 1, 2, 3 ... in file order")
        spaces.append(ParkSpace(i + 1, row.effects("reward")))
    actions = root.table("actions")
    return Locations(
        persons=tuple(persons),
        maitre_d=maitre_d,
        first_place=first_place,
        booths=tuple(booths),
        park=tuple(spaces),
        park_copy_discards=park.whole("copy_discards"),
        build_times=actions.whole("build_times", low=1),
        upgrade_times=actions.whole("upgrade_times", low=1),
        cook_books=actions.whole("cook_books", low=1),
    )


def _ordered(table: _Table, key: str, values: tuple[int, ...], strict: bool = False, falling: bool = False) -> None:
    """Refuse ``values`` unless they rise (``falling``: fall) from left to right; ``strict``: no two equal."""
    steps = [(b - a) * (-1 if falling else 1) for a, b in zip(values, values[1:], strict=False)]
    if any(step < 0 or (strict and step == 0) for step in steps):
        how = ("fall" if falling else "rise") if strict else ("never rise" if falling else "never fall")
        table.fail(key, f"must {how} from left to right, got {list(values)}")


def _tracks(root: _Table) -> Tracks:
    ops = root.table("operations")
    max_level = ops.whole("max_level", low=2)
    levels = range(2, max_level + 1)
    trucks = ops.wholes("trucks_by_fleet", max_level, low=1)
    _ordered(ops, "trucks_by_fleet", trucks)
    ops_discards = ops.number_map("discards", levels, "a level above 1")
    tracks = {name: Track(name, ops.table(name).wholes("values", max_level)) for name in TRACKS}
    strength = root.table("strength")
    strength_values = strength.wholes("values", max_level)
    strength_discards = strength.number_map("discards", levels, "a level above 1")

    infamy = root.table("infamy")
    infamy_max = infamy.whole("max", low=1)
    start = infamy.whole("start")
    if start > infamy_max:
        infamy.fail("start", f"must be at most max ({infamy_max}), got {start}")
    spaces = range(1, infamy_max + 1)
    rewards_table = infamy.table("rewards")
    rewards: dict[int, tuple[Effect, ...]] = {}
    for name in rewards_table.raw:
        space = _number_key(infamy.file, rewards_table.where(name), name, spaces, "an Infamy space")
        rewards[space] = rewards_table.effects(name)
    family_on = infamy.wholes("family_on", low=1)
    for i, space in enumerate(family_on):
        if not any(e.kind == "family" for e in rewards.get(space, ())):
            infamy.fail(f"family_on[{i}]", f"space {space} has no family reward in infamy.rewards")

    prices = root.table("prices")
    prices.only(("bands", *SALE_KINDS), "a building kind that sells barrels")
    bands = prices.wholes("bands")
    if not bands or bands[0] != 0 or bands[-1] > infamy_max:
        prices.fail("bands", f"must start at 0 and stay within the Infamy track (0..{infamy_max}), got {list(bands)}")
    _ordered(prices, "bands", bands, strict=True)
    price_lists = {kind: prices.wholes(kind, len(bands)) for kind in SALE_KINDS}

    heat = root.table("heat")
    heat_infamy = heat.whole("infamy")
    if heat_infamy > infamy_max:
        heat.fail("infamy", f"must be at most the Infamy track's max ({infamy_max}), got {heat_infamy}")
    leverage = root.table("leverage")
    money = root.table("money")
    goons = root.table("goons")
    goon_costs = goons.wholes("costs")
    if not goon_costs:
        goons.fail("costs", "must list at least one Goon space")
    _ordered(goons, "costs", goon_costs)
    start_goons = goons.whole("start")
    if start_goons > len(goon_costs):
        goons.fail("start", f"is {start_goons}, but there are only {len(goon_costs)} Goon spaces")

    capos = root.table("capos")
    count = capos.whole("count", low=1)
    per_act = capos.wholes("per_act", ACTS, low=1)
    returned = capos.wholes("returned", ACTS)
    boxed = capos.wholes("boxed", ACTS)
    if per_act[0] != count:
        capos.fail("per_act[0]", f"must be count ({count}): Act 1 places every Capo, got {per_act[0]}")
    if returned[0] or boxed[0]:
        capos.fail("returned[0]", "and boxed[0] must be 0: nothing is returned or boxed before Act 1")
    for act in range(1, ACTS):
        if returned[act] + boxed[act] != per_act[act - 1]:
            capos.fail(
                f"returned[{act}]",
                f"+ boxed[{act}] must be the {per_act[act - 1]} Capos placed in Act {act}, "
                f"got {returned[act]} + {boxed[act]}",
            )
        if returned[act] != per_act[act]:
            capos.fail(
                f"per_act[{act}]",
                f"must be {returned[act]}, the Capos returned at the start of Act {act + 1}, got {per_act[act]}",
            )

    return Tracks(
        ops=tracks,
        max_level=max_level,
        trucks_by_fleet=trucks,
        strength_values=strength_values,
        ops_discards=ops_discards,
        strength_discards=strength_discards,
        infamy_per_step=infamy.whole("per_step"),
        infamy_max=infamy_max,
        infamy_start=start,
        infamy_rewards=dict(sorted(rewards.items())),
        family_on_infamy=family_on,
        price_bands=bands,
        prices=price_lists,
        heat_infamy=heat_infamy,
        heat_leverage=heat.whole("leverage"),
        cop_protect_leverage=leverage.whole("cop_protect"),
        safe_ratio=money.whole("safe_ratio", low=1),
        goon_costs=goon_costs,
        start_goons=start_goons,
        start_pocket=money.whole("pocket"),
        start_safe=money.whole("safe"),
        start_leverage=leverage.whole("start"),
        start_books=root.table("books").whole("supply"),
        start_family_supply=root.table("family").whole("supply"),
        capos=count,
        capos_per_act=per_act,
        capos_returned=returned,
        capos_boxed=boxed,
    )


def _cards(root: _Table) -> tuple[OpsCard, ...]:
    decks = root.table("decks")
    names = decks.texts("names", TRACKS, "an Operations deck")
    if set(names) != set(TRACKS):
        decks.fail("names", f"must name the {len(TRACKS)} decks {_choice_list(TRACKS)}")
    size = decks.whole("size", low=1)
    cards: list[OpsCard] = []
    for row in root.rows("cards"):
        deck = row.text("deck", names, "an Operations deck")
        copies = row.whole("copies", low=1)
        name, benefit, setup = row.text("name"), row.effects("benefit"), row.effects("setup")
        first = len(cards)
        cards.extend(OpsCard(first + k, deck, name, benefit, setup) for k in range(copies))
    for deck in names:
        count = sum(1 for card in cards if card.deck == deck)
        if count != size:
            root.fail("cards", f"hold {count} {deck!r} cards, but decks.size is {size}")
    return tuple(cards)


def _buildings(root: _Table, start_pocket: int) -> Buildings:
    table = root.table("rows")
    table.only(BUILDING_KINDS, "a building kind")
    rows: dict[str, tuple[RowSpace, ...]] = {}
    for kind in BUILDING_KINDS:
        row = table.table(kind)
        costs = row.wholes("costs")
        if not costs:
            row.fail("costs", "must list at least one space")
        benefits = row.value("benefits")
        if not isinstance(benefits, list) or len(benefits) != len(costs):
            got = len(benefits) if isinstance(benefits, list) else _show(benefits)
            row.fail("benefits", f"must have {len(costs)} effect lists, one per cost, got {got}")
        rows[kind] = tuple(
            RowSpace(kind, i, cost, _effects(row.file, f"{row.where('benefits')}[{i}]", benefits[i]))
            for i, cost in enumerate(costs)
        )
    capacity = root.table("capacity")
    chain = root.table("upgrade").table("chain")
    upgrades: dict[str, str] = {}
    for kind in chain.raw:
        if kind not in BUILDING_KINDS:
            chain.fail(kind, f"is not a building kind (one of {_choice_list(BUILDING_KINDS)})")
        to = chain.text(kind, BUILDING_KINDS, "a building kind")
        if BUILDING_KINDS.index(to) <= BUILDING_KINDS.index(kind):
            chain.fail(kind, f"an upgrade must lead to a more valuable building, not {to!r}")
        upgrades[kind] = to
    setup = root.table("setup")
    setup_kinds = setup.texts("kinds", BUILDING_KINDS, "a building kind")
    for kind in setup_kinds:
        if min(space.cost for space in rows[kind]) > start_pocket:
            setup.fail("kinds", f"{kind!r} costs more than the starting pocket (${start_pocket}, tracks.toml)")
    return Buildings(
        rows=rows,
        barrel_capacity=capacity.whole("barrel", low=1),
        stills_capacity=capacity.whole("stills", low=1),
        upgrades=upgrades,
        setup_kinds=setup_kinds,
        takeover_kind=root.table("takeover").text("kind", BUILDING_KINDS, "a building kind"),
    )


def _docks(root: _Table, districts: tuple[District, ...]) -> Docks:
    zones = root.table("docks_zones")
    ships = root.table("ships")
    prices = ships.wholes("prices")
    if not prices:
        ships.fail("prices", "must list at least one Ship")
    floor, floor_with_card = ships.whole("floor"), ships.whole("floor_with_card")
    if floor_with_card > floor:
        ships.fail("floor_with_card", f"must be at most floor ({floor}), got {floor_with_card}")
    ports_table = root.table("ports")
    ports = ports_table.wholes("districts", low=1)
    expected = [d.number for d in districts if d.port]
    if sorted(ports) != expected or len(set(ports)) != len(ports):
        ports_table.fail("districts", f"must be the port districts of board.toml ({expected}), got {list(ports)}")
    if len(ports) < len(prices):
        ports_table.fail("districts", f"{len(ports)} ports cannot place {len(prices)} Ships")
    crates: list[Crate] = []
    for i, row in enumerate(root.rows("crates")):
        crates.append(
            Crate(
                id=i,
                name=row.text("name"),
                cash=row.whole("cash"),
                power=row.text("power", CRATE_POWERS, "a Crate power"),
                n=row.whole("n", low=1),
            )
        )
    if len(crates) < len(prices):
        root.fail("crates", f"{len(crates)} Crates cannot stock {len(prices)} Ships")
    ambush = root.table("ambush")
    return Docks(
        family_spaces=zones.whole("family_spaces", low=1),
        ship_prices=prices,
        ship_barrels=ships.whole("barrels"),
        family_discount=ships.whole("family_discount"),
        price_floor=floor,
        price_floor_with_card=floor_with_card,
        ports=ports,
        crates=tuple(crates),
        ambush_strength_base=ambush.whole("strength_base"),
        ambush_family=ambush.whole("family", low=1),
        ambush_rival_fee=ambush.whole("rival_fee"),
        docks_book_reward=zones.whole("book_reward"),
    )


def _goals(root: _Table, infamy_max: int) -> Goals:
    zone_goals: list[ZoneGoal] = []
    for i, row in enumerate(root.rows("zone_goals")):
        goal = ZoneGoal(i, row.text("type", ZONE_GOAL_TYPES, "a Zone goal type"), row.whole("number", low=1))
        if any((g.type, g.number) == (goal.type, goal.number) for g in zone_goals):
            row.fail("number", f"{goal.type} {goal.number} appears twice")
        zone_goals.append(goal)
    numbers = {kind: sorted(g.number for g in zone_goals if g.type == kind) for kind in ZONE_GOAL_TYPES}
    first = numbers[ZONE_GOAL_TYPES[0]]
    for kind, found in numbers.items():
        if found != first or len(found) < len(ZONES):
            root.fail(
                "zone_goals",
                f"every type needs the same {len(ZONES)} or more numbers (one per Zone): "
                f"{ZONE_GOAL_TYPES[0]} has {first}, {kind} has {found}",
            )
    zone = root.table("zone_goal")
    city_hall = root.table("city_hall")
    books = root.table("infamy_books")
    park = root.table("central_park")
    park_goals: list[ParkGoal] = []
    for row in park.rows("tiles"):
        tile_id = row.text("id")
        if not re.fullmatch(r"[A-Z]\d+", tile_id) or tile_id[0] not in PARK_LETTERS:
            row.fail("id", f"{tile_id!r} must be a letter {_choice_list(PARK_LETTERS)} and a number, e.g. 'A1'")
        if any(g.id == tile_id for g in park_goals):
            row.fail("id", f"{tile_id!r} appears twice")
        park_goals.append(
            ParkGoal(
                id=tile_id,
                letter=tile_id[0],
                condition=row.text("condition", PARK_CONDITIONS, "a Central Park condition"),
                n=row.whole("n", low=1),
                benefit=row.effects("benefit"),
            )
        )
    return Goals(
        zone_goals=tuple(zone_goals),
        zone_goal_reward=zone.whole("reward"),
        zone_goal_level=zone.whole("level"),
        city_hall_leverage=city_hall.whole("leverage"),
        city_hall_reward=city_hall.whole("reward"),
        city_hall_per_act=city_hall.whole("per_act", low=1),
        infamy_books=books.number_map("spaces", range(0, infamy_max + 1), "an Infamy space"),
        infamy_book_level=books.whole("level"),
        park_goals=tuple(park_goals),
        park_reward=park.whole("reward"),
    )


def _city_tiles(root: _Table) -> tuple[CityTile, ...]:
    total = root.whole("total", low=1)
    kinds = tuple(
        CityTile(row.text("name"), row.whole("count", low=1), row.effects("benefit")) for row in root.rows("kinds")
    )
    if sum(kind.count for kind in kinds) != total:
        root.fail("kinds", f"counts add up to {sum(kind.count for kind in kinds)}, but total is {total}")
    return kinds


def _helpers(root: _Table) -> Helpers:
    bottles = root.table("bottles")
    bottles.only(BOTTLES, "a bottle")
    cards = tuple(
        Helper(
            id=i,
            name=row.text("name"),
            bottle=row.text("bottle", BOTTLES, "a bottle"),
            upper=row.effects("upper"),
            lower=row.effects("lower"),
        )
        for i, row in enumerate(root.rows("helpers"))
    )
    display = root.whole("display", low=1)
    if display > len(cards):
        root.fail("display", f"is {display}, but there are only {len(cards)} Helper cards")
    return Helpers(
        cards=cards,
        display=display,
        bottle_values={bottle: bottles.whole(bottle) for bottle in BOTTLES},
        variety_bonus=root.number_map("variety_bonus", range(1, len(BOTTLES) + 1), "a number of bottle types"),
    )


def _mobsters(root: _Table) -> tuple[Mobster, ...]:
    mobsters: list[Mobster] = []
    for i, row in enumerate(root.rows("mobsters")):
        deck = row.text("deck", MOBSTER_DECKS, "a Mobster deck")
        if mobsters and MOBSTER_DECKS.index(deck) < MOBSTER_DECKS.index(mobsters[-1].deck):
            row.fail("deck", f"{deck!r} comes after deck {mobsters[-1].deck!r}: list deck A, then B, C, D")
        mobsters.append(Mobster(i, deck, row.text("name"), row.whole("strength", low=1), row.whole("modifier")))
    ranges = root.table("attack_ranges")
    ranges.only(MOBSTER_DECKS, "a Mobster deck")
    for deck in ranges.raw:
        low, high = ranges.wholes(deck, 2)
        if low > high:
            ranges.fail(deck, f"must be [lowest, highest], got [{low}, {high}]")
        for mobster in mobsters:
            if mobster.deck == deck and not low <= mobster.strength + mobster.modifier <= high:
                root.fail(
                    f"mobsters[{mobster.id}]",
                    f"{mobster.name} attacks at {mobster.strength + mobster.modifier}, "
                    f"outside deck {deck}'s attack range {low}-{high}",
                )
    associates = root.table("associates")
    associates.text("fee")
    associates.text("zone_bonus")
    return tuple(mobsters)


def _payouts(root: _Table, sides: dict[str, dict[str, Any]]) -> Final:
    zones = root.table("zones")
    casino = root.table("casino")
    zones.only(sides, "a board side of board.toml")
    casino.only(sides, "a board side of board.toml")
    for name, side in sides.items():
        most = max(side["players"])
        chart = zones.table(name)
        chart.only(ZONES, "a Zone")
        payouts = []
        for zone in ZONES:
            values = chart.wholes(zone, most + 1)  # the Mobster marker ranks too (seed 001:32.2)
            _ordered(chart, zone, values, falling=True)
            payouts.append(values)
        side["zone_payouts"] = tuple(payouts)
        side["casino_payouts"] = casino.wholes(name, most)
    final = root.table("final")
    protected = final.table("protected")
    protected.only(BUILDING_KINDS, "a building kind")
    return Final(
        protected={kind: protected.whole(kind) for kind in BUILDING_KINDS},
        tie_breakers=final.texts("tie_breakers", TIE_BREAKERS, "a tie-breaker"),
    )


def _check_sides(
    sides: dict[str, dict[str, Any]],
    locations: Locations,
    goals: Goals,
    mobsters: tuple[Mobster, ...],
    city_tiles: tuple[CityTile, ...],
) -> None:
    total = sum(kind.count for kind in city_tiles)
    for side in sides.values():
        table: _Table = side["table"]
        if side["booths"] > len(locations.booths):
            table.fail("booths", f"is {side['booths']}, but locations.toml has {len(locations.booths)} booths")
        for letter, count in side["central_park"]:
            have = sum(1 for goal in goals.park_goals if goal.letter == letter)
            if count > have:
                table.fail(f"central_park.{letter}", f"lays out {count} tiles, but goals.toml has {have}")
        for letter, count in side["mobsters"]:
            have = sum(1 for mobster in mobsters if mobster.deck == letter)
            if count > have:
                table.fail(f"mobsters.{letter}", f"draws {count} tiles, but mobsters.toml has {have}")
        piles = side["city_piles"]
        needed = side["map_spaces"] + len(piles) + sum(piles)  # map spaces + one face-up tile per row + the piles
        if needed > total:
            table.fail(
                "city_piles",
                f"{side['map_spaces']} map spaces + {len(piles)} face up + {sum(piles)} in piles need {needed} "
                f"City tiles, but city_tiles.toml has {total}",
            )


# --- the rules ----------------------------------------------------------------------------------------------------


def load_rules(folder: Path) -> Rules:
    """Read and check every data file of ``folder`` and build the ``Rules``; ``DataError`` names a bad value."""
    files = {name: _File(folder, name) for name in FILES}
    board = files["board.toml"].root
    tracks = _tracks(files["tracks.toml"].root)
    districts, sides = _board(board)
    cop_districts, cops_revealed, cops_face_down, cop_stacks = _cops(board, len(districts))
    years = _years(board, tracks.capos_per_act)
    zone_goal_rule = board.table("setup").text("zone_goal_rule")
    locations = _locations(files["locations.toml"].root)
    cards = _cards(files["cards/operations.toml"].root)
    buildings = _buildings(files["buildings.toml"].root, tracks.start_pocket)
    docks = _docks(files["docks.toml"].root, districts)
    goals = _goals(files["goals.toml"].root, tracks.infamy_max)
    city_tiles = _city_tiles(files["city_tiles.toml"].root)
    helpers = _helpers(files["helpers.toml"].root)
    mobsters = _mobsters(files["mobsters.toml"].root)
    final = _payouts(files["payouts.toml"].root, sides)
    _check_sides(sides, locations, goals, mobsters, city_tiles)
    own: list[str] = []
    for file in files.values():
        own += _finish(file)
    return Rules(
        districts=districts,
        sides={
            name: Side(
                name=name,
                players=side["players"],
                blocked=side["blocked"],
                booths=side["booths"],
                central_park=side["central_park"],
                city_piles=side["city_piles"],
                mobsters=side["mobsters"],
                zone_payouts=side["zone_payouts"],
                casino_payouts=side["casino_payouts"],
                zone_goal_districts_cap=side["zone_goal_districts_cap"],
            )
            for name, side in sides.items()
        },
        setup_zone_goal_rule=zone_goal_rule,
        cop_districts=cop_districts,
        cops_revealed=cops_revealed,
        cops_face_down=cops_face_down,
        cop_stacks=cop_stacks,
        years=years,
        locations=locations,
        tracks=tracks,
        cards=cards,
        buildings=buildings,
        docks=docks,
        goals=goals,
        city_tiles=city_tiles,
        helpers=helpers,
        mobsters=mobsters,
        final=final,
        own_values=tuple(own),
        tile_kinds=tuple(index for index, kind in enumerate(city_tiles) for _ in range(kind.count)),
    )


@cache
def rules() -> Rules:
    """The rules from ``data_dir() / "speakeasy"`` (read once per process)."""
    return load_rules(data_dir() / "speakeasy")


def city_tile_kinds(rules: Rules) -> tuple[int, ...]:
    """City tile id -> index of its kind in ``rules.city_tiles``: the kinds expanded in file order (ids 0..59)."""
    return rules.tile_kinds
