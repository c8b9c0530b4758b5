"""Issue 25, Speakeasy's rules versions (the table option ``rules``, ``data/speakeasy/house.toml``): a version
changes only the project's own values, never one the seeds give; old records replay as version 1; and the parts
of the rules a version changes are read through the game's state (``rules(state)``), never as version 1."""

from __future__ import annotations

import dataclasses
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.core import Choice
from engine.data import DataError, data_dir
from engine.speakeasy import loader, locations
from engine.speakeasy.game import SpeakeasyGame
from engine.speakeasy.jo import data as jo_data
from engine.speakeasy.jo.data import jo_rules, load_jo
from engine.speakeasy.loader import latest_version, load_rules, rules
from engine.speakeasy.schema import house
from engine.speakeasy.setup import new_state

FOLDER = data_dir() / "speakeasy"
GAME = SpeakeasyGame()

#: The parts of ``Rules`` a version may change: each is read only where the game's state is at hand
#: (``rules(state)``). Read without a state (names, cards, tracks' levels, the safe's rate, buildings' rows), a
#: value would silently stay version 1's, so a version that changes anything else fails this test.
VERSIONED = ("mobsters", "goals", "final", "sides", "tracks.prices")
#: And a Person's steps (``locations.person(state, id)``, the Capo menu made per version); their names are read
#: without a state (the words layer's terms), so only the steps may change.
VERSIONED_PATTERNS = (re.compile(r"locations\.persons\[\d+\]\.steps(\[\d+\])?"),)


def _diff(a: Any, b: Any, path: str = "") -> list[str]:
    """The paths where two ``Rules`` differ (structs by field, tuples and dicts by item)."""
    if isinstance(a, msgspec.Struct) and type(a) is type(b):
        return [p for f in a.__struct_fields__ for p in _diff(getattr(a, f), getattr(b, f), f"{path}.{f}".lstrip("."))]
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b, strict=True)) for p in _diff(x, y, f"{path}[{i}]")]
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return [p for k in a for p in _diff(a[k], b[k], f"{path}.{k}")]
    return [] if a == b else [path]


def _copy_with(tmp_path: Path, text: str) -> Path:
    copied = tmp_path / "speakeasy"
    shutil.copytree(FOLDER, copied)
    (copied / house.NAME).write_text(text, encoding="utf-8")
    return copied


@pytest.mark.parametrize("version", range(2, latest_version() + 1))
def test_a_version_changes_only_parts_read_through_the_state(version: int) -> None:
    changed = _jo_diff(rules(1), rules(version))  # ``Rules`` is a dataclass of structs
    assert changed, f"version {version} changes nothing"
    stray = [
        p
        for p in changed
        if not any(p == v or p.startswith((v + ".", v + "[")) for v in VERSIONED)
        and not any(pattern.fullmatch(p) for pattern in VERSIONED_PATTERNS)
    ]
    assert not stray, f"version {version} changes parts read without a state: {stray}"
    assert rules(1).own_values == rules(version).own_values


def test_a_seed_value_cannot_change(tmp_path: Path) -> None:
    """Birdie Brown's strength 6 is seed 001:12.2: no version may change it."""
    folder = _copy_with(tmp_path, '[versions.2."mobsters.toml"]\n"mobsters[7].strength" = 5\n')
    with pytest.raises(DataError, match=r"mobsters\[7\]\.strength: only the project's own values may change"):
        load_rules(folder, 2)
    # the same file's own values may, within what the seeds fix (deck B attacks at 6-8: 001:12.3)
    folder = _copy_with(tmp_path / "b", '[versions.2."mobsters.toml"]\n"mobsters[6].strength" = 3\n')
    with pytest.raises(DataError, match="Dutch Schultz attacks at 4, outside deck B's attack range 6-8"):
        load_rules(folder, 2)
    text = '[versions.2."mobsters.toml"]\n"mobsters[6].strength" = 4\n"mobsters[6].modifier" = 2\n'
    folder = _copy_with(tmp_path / "c", text)
    assert load_rules(folder, 2).mobsters[6].strength == 4 and load_rules(folder, 1).mobsters[6].strength == 5


def test_a_change_names_a_value_that_exists_and_a_version_that_exists(tmp_path: Path) -> None:
    folder = _copy_with(tmp_path, '[versions.2."mobsters.toml"]\n"mobsters[40].strength" = 4\n')
    with pytest.raises(DataError, match=r"mobsters\[40\]\.strength: no such key"):
        load_rules(folder, 2)
    folder = _copy_with(tmp_path / "b", '[versions.2."nowhere.toml"]\n"x" = 1\n')
    with pytest.raises(DataError, match="'nowhere.toml' is not a data file"):
        load_rules(folder, 2)
    with pytest.raises(DataError, match="there is no rules version 7"):
        load_rules(FOLDER, 7)


def test_a_record_without_the_option_replays_as_version_1_and_a_new_table_gets_the_latest() -> None:
    assert GAME.new(["A", "B"], {}, 1).rules == 1
    new_default = next(s for s in GAME.option_specs if s.name == "rules").new_default
    assert new_default == latest_version()
    state = GAME.new(["A", "B"], {"rules": latest_version()}, 1)
    assert state.rules == latest_version()
    assert GAME.loads(GAME.dumps(state)).rules == latest_version()


def _fields(a: Any) -> dict[str, Any]:
    """A dataclass's fields by name (``JoRules`` and its parts are dataclasses)."""
    return {f.name: getattr(a, f.name) for f in dataclasses.fields(a)}


def _jo_diff(a: Any, b: Any, path: str = "") -> list[str]:
    """The paths where two ``JoRules`` differ (dataclasses by field, tuples and dicts by item)."""
    if dataclasses.is_dataclass(a) and type(a) is type(b):
        fa, fb = _fields(a), _fields(b)
        return [p for k in fa for p in _jo_diff(fa[k], fb[k], f"{path}.{k}".lstrip("."))]
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return [p for k in a for p in _jo_diff(a[k], b[k], f"{path}.{k}")]
    return _diff(a, b, path)


@pytest.mark.parametrize("version", range(2, latest_version() + 1))
def test_a_version_changes_only_jos_difficulty_table(version: int) -> None:
    """Jo's rules are read through the game's state (``jo_rules(state)``) only at setup and in the view, where the
    difficulty is applied and shown: so a version may change his difficulty table and nothing else."""
    stray = [p for p in _jo_diff(jo_rules(1), jo_rules(version)) if not p.startswith("difficulties")]
    assert not stray, f"version {version} changes parts of Jo's rules read without a state: {stray}"


def test_jos_seed_values_cannot_change_and_his_own_values_may(tmp_path: Path) -> None:
    """Jo's 4 Capos are seed 003:11.1; his difficulty table is the project's own (design §15.4)."""
    folder = _copy_with(tmp_path, '[versions.2."jo.toml"]\n"numbers.capos" = 5\n')
    with pytest.raises(DataError, match=r"numbers\.capos: only the project's own values may change"):
        load_jo(folder, 2)
    folder = _copy_with(tmp_path / "b", '[versions.2."jo.toml"]\n"difficulty.levels[3].head_start" = 30\n')
    assert load_jo(folder, 2).difficulties[4].head_start == 30
    assert load_jo(folder, 1).difficulties[4].head_start == 0
    assert load_rules(folder, 2) == load_rules(folder, 1)  # the main loader leaves Jo's file to his


@pytest.fixture
def with_house(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """``with_house(text)``: games read a copy of the data whose ``house.toml`` is ``text`` (the per-process caches of
    the rules, Jo's rules and the Capo menu are emptied before and after)."""
    caches = (loader._rules, loader.latest_version, jo_data._jo_rules, locations._place_menu)

    def use(text: str) -> None:
        monkeypatch.setenv("SPEAKEASY_DATA_DIR", str(_copy_with(tmp_path, text).parent))
        for c in caches:
            c.cache_clear()

    yield use
    for c in caches:
        c.cache_clear()


def test_a_head_start_puts_money_in_jos_pool_and_says_so(with_house: Callable[[str], None]) -> None:
    """A version's head start (``jo.toml`` ``difficulty.levels[].head_start``) is Jo's start money, booked as such
    and told at setup; version 1 has none, so a record of version 1 replays as it was."""
    with_house('[versions.2."jo.toml"]\n"difficulty.levels[3].head_start" = 30\n')
    state, events = new_state(["Ann"], 5, 4, 2)  # the option's range was read at import
    assert state.jo is not None
    jo = state.players[state.jo.seat]
    assert jo.pocket == 30 and jo.ledger == {"start": 30}
    assert "At this difficulty Jo starts with $30." in [str(e.text) for e in events]
    old, old_events = new_state(["Ann"], 5, 4, 1)
    assert old.jo is not None and old.players[old.jo.seat].pocket == 0
    assert not any("starts with" in str(e.text) for e in old_events)
    # the same game otherwise: Jo's decks are dealt the same way
    assert old.jo.deck == state.jo.deck and old.jo.waiting == state.jo.waiting


def test_a_versions_person_steps_are_what_its_capo_menu_offers(with_house: Callable[[str], None]) -> None:
    """A Person's steps are read through the game's version (``locations.person(state, id)``, which the steps a
    Capo starts come from, and the Capo menu made per version): a version that lets the Permit Officer open
    buildings has those steps and offers them; version 1 does not."""
    from engine.speakeasy.locations import person

    with_house('[versions.2."locations.toml"]\n"persons[11].steps" = ["upgrade", "build"]\n')
    for version, last in ((2, "build"), (1, "play_any")):
        state, _ = new_state(["Ann", "Bob"], 3, 0, version)
        assert person(state, "permit_officer").steps[-1] == last
        while (asked := GAME.question(state)) is not None and asked[1] != "place":
            first = next(o for o in asked[2] if o.id != "back")
            GAME.apply(state, Choice(asked[0], asked[1], first.id))
        assert asked is not None
        option = next(o for o in asked[2] if o.id == "person:permit_officer")
        words = {1: "play any one Operations card", 2: "open a Speakeasy or Stills"}[version]
        assert words in str(option.detail)
