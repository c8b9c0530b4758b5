"""Every Speakeasy data file (data/speakeasy/, Jo's jo.toml too), mutated: an unknown key, a missing key, a value
of the wrong type, a negative number, a duplicated id or name, a level left out of a level table. Each mutation
must be refused with a DataError naming the file and the key (tests/engine/data_mutations.py makes them)."""

from __future__ import annotations

import shutil
import tomllib
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import msgspec
import pytest

from engine.data import DataError, data_dir
from engine.speakeasy.jo.data import jo_rules, load_jo
from engine.speakeasy.loader import FILES, load_rules, rules
from engine.speakeasy.schema import files
from tests.engine.data_mutations import Mutation, Spec, mutations, to_toml

FOLDER = data_dir() / "speakeasy"

SPECS: dict[str, Spec] = {
    "board.toml": Spec(keyed_by_data=("sides",), sets=("cops.districts", "sides.*.blocked", "sides.*.players")),
    "locations.toml": Spec(sets=("persons[].steps", "restaurant.*.steps")),
    "tracks.toml": Spec(
        keyed_by_data=("operations.discards", "strength.discards", "infamy.rewards"),
        level_tables=("operations.discards", "strength.discards"),
        sets=("infamy.family_on", "prices.bands"),
    ),
    "cards/operations.toml": Spec(sets=("decks.names",)),
    "buildings.toml": Spec(keyed_by_data=("upgrade.chain",), sets=("setup.kinds",)),
    "docks.toml": Spec(sets=("ports.districts",)),
    "goals.toml": Spec(keyed_by_data=("infamy_books.spaces",)),
    "city_tiles.toml": Spec(),
    "helpers.toml": Spec(keyed_by_data=("variety_bonus",), level_tables=("variety_bonus",)),
    "mobsters.toml": Spec(),
    "payouts.toml": Spec(
        keyed_by_data=("zones", "casino"), required_entries=("zones", "casino"), sets=("final.tie_breakers",)
    ),
    "jo.toml": Spec(
        level_arrays=("difficulty.levels",),
        sets=("orders.*", "districts.*", "numbers.act_decks"),
        optional=("cards[].strong",),
    ),
}
#: The words a refusal of each kind of mutation uses.
REASONS = {
    "unknown": ("is not a key", "is not", "names no value", "must be"),
    "missing": ("is missing",),
    "type": ("must be",),
    "negative": ("must not be negative", "must be at least"),
    "duplicate": ("appears twice", "must be", "must rise", "exactly once"),
    "level": ("is missing",),
}


@cache
def _doc(name: str) -> dict:
    """The shipped file, parsed (mutations copy it before they change it)."""
    return tomllib.loads((FOLDER / name).read_text(encoding="utf-8"))


CASES = [(name, m) for name in (*FILES, "jo.toml") for m in mutations(_doc(name), SPECS[name])]


class _ParsedOnce:
    """``tomllib`` for the loader, parsing each text once: a mutation changes one file, the other ten are the
    shipped ones. The mutated file is parsed by ``tomllib`` itself; every caller gets its own copy."""

    TOMLDecodeError = tomllib.TOMLDecodeError

    def __init__(self) -> None:
        self.parsed: dict[str, bytes] = {}

    def loads(self, text: str) -> dict:
        if text not in self.parsed:
            self.parsed[text] = msgspec.json.encode(tomllib.loads(text))
        return msgspec.json.decode(self.parsed[text])


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A copy of data/speakeasy, one per test worker; each test changes one file and puts it back."""
    copied = tmp_path_factory.mktemp("data") / "speakeasy"
    shutil.copytree(FOLDER, copied)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files, "tomllib", _ParsedOnce())
        yield copied


def _load(folder: Path, name: str) -> object:
    return load_jo(folder) if name == "jo.toml" else load_rules(folder)


def test_data_mutations_the_written_files_load_as_the_shipped_ones(folder):
    # the mutations are written by to_toml: unchanged, it must give the very same rules
    for name in (*FILES, "jo.toml"):
        (folder / name).write_text(to_toml(_doc(name)), encoding="utf-8")
    try:
        assert load_rules(folder) == rules()
        assert load_jo(folder) == jo_rules()
    finally:
        for name in (*FILES, "jo.toml"):
            shutil.copyfile(FOLDER / name, folder / name)


def test_data_mutations_cover_every_file_and_kind():
    kinds = Counter(m.kind for _, m in CASES)
    assert set(kinds) == set(REASONS), kinds
    assert {name for name, _ in CASES} == {*FILES, "jo.toml"}
    duplicates = {name for name, m in CASES if m.kind == "duplicate"}
    assert duplicates == {*FILES, "jo.toml"}  # every file has ids, names or lists of distinct items
    levels = {m.expected for _, m in CASES if m.kind == "level"}
    assert levels == {"operations.discards", "strength.discards", "variety_bonus", "difficulty.levels"}


@pytest.mark.parametrize(("name", "mutation"), CASES, ids=[f"{n}:{m.kind}:{m.expected}" for n, m in CASES])
def test_data_a_mutated_file_is_refused_naming_file_and_key(folder, name: str, mutation: Mutation):
    path = folder / name
    path.write_text(to_toml(mutation.apply(_doc(name))), encoding="utf-8")
    try:
        with pytest.raises(DataError) as caught:
            _load(folder, name)
    finally:
        path.write_bytes((FOLDER / name).read_bytes())
    message = str(caught.value)
    assert message.startswith(f"{name}: "), message
    assert mutation.expected in message, message
    assert any(reason in message for reason in REASONS[mutation.kind]), message
