"""The rule tests and docs/rules/omerta.md cover every sentence of seed 002 and cite only tests that exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "omerta.md"
RULE_INDEX = ROOT.parent / "shared" / "seeds" / "rule-index.md"

#: Every sentence id of seed 002 in shared/seeds/rule-index.md (lines 184-230 of the Omerta seed).
SEED_IDS = [
    "002:1.1",
    "002:2.1",
    "002:3.1",
    "002:3.2",
    "002:4.1",
    "002:5.1",
    "002:6.1",
    "002:8.1",
    "002:10.1",
    "002:10.2",
    "002:11.1",
    "002:13.1",
    "002:15.1",
    "002:16.1",
    "002:17.1",
    "002:18.1",
    "002:19.1",
    "002:20.1",
    "002:21.1",
    "002:23.1",
    "002:25.1",
    "002:26.1",
    "002:27.1",
    "002:28.1",
    "002:29.1",
    "002:30.1",
    "002:31.1",
    "002:33.1",
    "002:35.1",
    "002:36.1",
    "002:37.1",
    "002:38.1",
    "002:39.1",
    "002:40.1",
    "002:41.1",
    "002:42.1",
    "002:44.1",
    "002:46.1",
    "002:47.1",
    "002:48.1",
    "002:49.1",
    "002:50.1",
    "002:52.1",
    "002:53.1",
    "002:54.1",
    "002:55.1",
    "002:56.1",
]


def _test_names() -> set[str]:
    names: set[str] = set()
    # the table's tests (tests/service, tests/cogs) check decisions too, many of them async
    for path in (ROOT / "tests").rglob("test_*.py"):
        if "speakeasy" in path.parts:  # another game's rule tests (tests/engine/speakeasy/test_coverage.py)
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = (ast.FunctionDef, ast.AsyncFunctionDef)
        names |= {n.name for n in tree.body if isinstance(n, functions) and n.name.startswith("test_")}
    return names


def _test_name_of(seed_id: str) -> str:
    line, sentence = seed_id.split(":")[1].split(".")
    return f"test_002_{line}_{sentence}_"


def test_coverage_seed_ids_match_the_rule_index():
    if not RULE_INDEX.exists():
        pytest.skip(f"{RULE_INDEX} is not here")
    index = re.findall(r"`(002:\d+\.\d+)`", RULE_INDEX.read_text(encoding="utf-8"))
    assert index == SEED_IDS


def test_coverage_every_seed_sentence_of_002_has_a_rule_test():
    names = _test_names()
    missing = [i for i in SEED_IDS if not any(n.startswith(_test_name_of(i)) for n in names)]
    assert not missing


def test_coverage_the_rules_doc_cites_every_seed_sentence_of_002():
    doc = DOC.read_text(encoding="utf-8")
    missing = [i for i in SEED_IDS if not re.search(re.escape(i) + r"(?![\d])", doc)]
    assert not missing


def test_coverage_the_rules_doc_cites_only_tests_that_exist_and_every_rule_test():
    doc = DOC.read_text(encoding="utf-8")
    cited = set(re.findall(r"`(test_\w+)`", doc))
    names = _test_names()
    assert not cited - names, "the doc cites tests that do not exist"
    rule_tests = {n for n in names if n.startswith(("test_002_", "test_decision_"))}
    assert not rule_tests - cited, "rule tests the doc does not cite"
