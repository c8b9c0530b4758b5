"""Issue 25, Speakeasy's rules versions (the table option ``rules``, ``data/speakeasy/house.toml``): a version
changes only the project's own values, never one the seeds give; old records replay as version 1; and the parts
of the rules a version changes are read through the game's state (``rules(state)``), never as version 1."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.data import DataError, data_dir
from engine.speakeasy.game import SpeakeasyGame
from engine.speakeasy.loader import latest_version, load_rules, rules
from engine.speakeasy.schema import house

FOLDER = data_dir() / "speakeasy"
GAME = SpeakeasyGame()

#: The parts of ``Rules`` a version may change: each is read only where the game's state is at hand
#: (``rules(state)``). Read without a state (names, cards, tracks' levels, the safe's rate, buildings' rows), a
#: value would silently stay version 1's, so a version that changes anything else fails this test.
VERSIONED = ("mobsters", "goals", "final", "sides", "tracks.prices")


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
    changed = _diff(rules(1), rules(version))
    assert changed, f"version {version} changes nothing"
    stray = [p for p in changed if not any(p == v or p.startswith((v + ".", v + "[")) for v in VERSIONED)]
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
