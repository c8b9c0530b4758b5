"""data/omerta/cards.toml, mutated: an unknown key, a missing key, a value of the wrong type, a negative number,
a duplicated kind, label or name. Each mutation must be refused with a DataError naming the file and the key
(tests/engine/data_mutations.py makes them)."""

from __future__ import annotations

import tomllib
from collections import Counter

import pytest

from engine.data import DataError, data_dir
from engine.omerta.cards import deck, load_deck
from tests.engine.data_mutations import Mutation, Spec, mutations, to_toml

CARDS_TOML = data_dir() / "omerta" / "cards.toml"
SPEC = Spec(extra_ids=("kind", "german"))
REASONS = {
    "unknown": ("is not a key of this file",),
    "missing": ("is missing",),
    "type": ("must be",),
    "negative": ("must not be negative", "must be at least"),
    "duplicate": ("appears twice",),
}
DOC = tomllib.loads(CARDS_TOML.read_text(encoding="utf-8"))
CASES = mutations(DOC, SPEC)


def test_data_mutations_the_written_file_loads_as_the_shipped_one(tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text(to_toml(DOC), encoding="utf-8")
    assert load_deck(path) == deck()


def test_data_mutations_cover_every_kind():
    kinds = Counter(m.kind for m in CASES)
    assert set(kinds) == set(REASONS), kinds
    assert {m.expected for m in CASES if m.kind == "duplicate"} >= {
        "gangsters.names",
        "bottles.values",
        "characters[1].kind",
        "characters[1].label",
        "characters[1].german",
    }


@pytest.mark.parametrize("mutation", CASES, ids=[f"{m.kind}:{m.expected}" for m in CASES])
def test_data_a_mutated_cards_file_is_refused_naming_file_and_key(tmp_path, mutation: Mutation):
    path = tmp_path / "cards.toml"
    path.write_text(to_toml(mutation.apply(DOC)), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_deck(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: "), message
    assert mutation.expected in message, message
    assert any(reason in message for reason in REASONS[mutation.kind]), message
