"""Every Speakeasy data file (data/speakeasy/, Jo's jo.toml too), mutated: an unknown key, a missing key or entry
of a table keyed by data, a value of the wrong type, a negative number, a duplicated id, name or list item, a level
or Infamy space left out. Each mutation must be refused with a DataError naming the file and the key
(tests/engine/data_mutations.py makes them; issue 22 made every list a set unless ``repeats`` says otherwise)."""

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
    "board.toml": Spec(keyed_by_data=("sides",), repeats=("sides.*.city_piles", "cops.stacks")),
    "locations.toml": Spec(),
    "tracks.toml": Spec(
        keyed_by_data=("operations.discards", "strength.discards", "infamy.rewards"),
        level_tables=("operations.discards", "strength.discards", "infamy.rewards"),
        repeats=(
            "operations.trucks_by_fleet",
            "operations.*.values",
            "strength.values",
            "prices.speakeasy",
            "prices.nightclub",
            "prices.casino",
            "goons.costs",
            "capos.*",
        ),
    ),
    "cards/operations.toml": Spec(),
    "buildings.toml": Spec(repeats=("rows.*.costs", "rows.*.benefits")),  # two spaces may cost or give the same
    "docks.toml": Spec(repeats=("ships.prices",)),
    "goals.toml": Spec(keyed_by_data=("infamy_books.spaces",), level_tables=("infamy_books.spaces",)),
    "city_tiles.toml": Spec(),
    "helpers.toml": Spec(keyed_by_data=("variety_bonus",), level_tables=("variety_bonus",)),
    "mobsters.toml": Spec(repeats=("attack_ranges.*",)),  # [lowest, highest]: one value is a range too
    "payouts.toml": Spec(keyed_by_data=("zones", "casino"), repeats=("zones.*.*", "casino.*")),
    "jo.toml": Spec(
        level_arrays=("difficulty.levels",),
        repeats=("cards[].actions", "numbers.ambush_money"),  # "B-S", "B-S": build twice
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
    assert levels == {
        "operations.discards",
        "strength.discards",
        "infamy.rewards",
        "infamy_books.spaces",
        "variety_bonus",
        "difficulty.levels",
    }


def test_data_mutations_cover_the_cases_issue_22_found_accepted():
    """Issue 22: a link of the upgrade chain, an Infamy space and a repeated benefit entry were accepted."""
    found = {(name, m.kind, m.expected) for name, m in CASES}
    assert ("buildings.toml", "missing", "upgrade.chain.nightclub") in found
    assert ("tracks.toml", "level", "infamy.rewards") in found
    assert ("goals.toml", "level", "infamy_books.spaces") in found
    assert ("cards/operations.toml", "duplicate", "cards[0].benefit") in found
    assert ("city_tiles.toml", "duplicate", "kinds[0].benefit") in found
    assert ("board.toml", "missing", "sides") in found


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
