"""docs/rules/speakeasy.md and the rule tests cover every sentence of seed 000, cite only tests that exist,
and list every project value of the data files."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.loader import rules

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "speakeasy.md"
HERE = Path(__file__).resolve().parent
RULE_INDEX = ROOT.parent / "shared" / "seeds" / "rule-index.md"

#: Every sentence id of seed 000 in shared/seeds/rule-index.md.
SEED_IDS = [
    "000:1.1",
    "000:3.1",
    "000:3.2",
    "000:3.3",
    "000:4.1",
    "000:6.1",
    "000:8.1",
    "000:10.1",
    "000:11.1",
    "000:11.2",
    "000:11.3",
    "000:11.4",
    "000:11.5",
    "000:11.6",
    "000:11.7",
    "000:12.1",
    "000:12.2",
    "000:12.3",
    "000:12.4",
    "000:13.1",
    "000:13.2",
    "000:13.3",
    "000:13.4",
    "000:14.1",
    "000:14.2",
    "000:14.3",
    "000:15.1",
    "000:15.2",
    "000:16.1",
    "000:16.2",
    "000:16.3",
    "000:16.4",
    "000:17.1",
    "000:17.2",
    "000:17.3",
    "000:17.4",
    "000:18.1",
    "000:19.1",
    "000:19.2",
    "000:19.3",
    "000:19.4",
    "000:19.5",
    "000:19.6",
    "000:19.7",
    "000:19.8",
    "000:19.9",
    "000:19.10",
    "000:19.11",
    "000:20.1",
    "000:20.2",
    "000:20.3",
    "000:20.4",
    "000:20.5",
    "000:20.6",
    "000:20.7",
    "000:20.8",
    "000:22.1",
    "000:24.1",
    "000:24.2",
    "000:25.1",
    "000:26.1",
    "000:26.2",
    "000:26.3",
    "000:26.4",
    "000:27.1",
    "000:27.2",
    "000:28.1",
    "000:29.1",
    "000:29.2",
    "000:29.3",
    "000:29.4",
    "000:30.1",
    "000:30.2",
    "000:31.1",
    "000:32.1",
    "000:32.2",
    "000:32.3",
    "000:32.4",
    "000:32.5",
    "000:32.6",
    "000:33.1",
    "000:33.2",
    "000:34.1",
    "000:34.2",
    "000:34.3",
    "000:34.4",
    "000:34.5",
    "000:35.1",
    "000:37.1",
    "000:39.1",
    "000:39.2",
    "000:39.3",
    "000:39.4",
    "000:40.1",
    "000:40.2",
    "000:40.3",
    "000:41.1",
    "000:41.2",
    "000:41.3",
    "000:41.4",
    "000:42.1",
    "000:43.1",
    "000:43.2",
    "000:44.1",
    "000:45.1",
    "000:45.2",
    "000:46.1",
    "000:46.2",
    "000:47.1",
    "000:48.1",
    "000:49.1",
    "000:50.1",
    "000:51.1",
    "000:51.2",
    "000:52.1",
    "000:52.2",
    "000:52.3",
]


#: Every sentence id of seed 001 (the Lucky Luciano phase).
SEED_001_IDS = [
    "001:1.1",
    "001:2.1",
    "001:3.1",
    "001:4.1",
    "001:5.1",
    "001:5.2",
    "001:6.1",
    "001:7.1",
    "001:8.1",
    "001:9.1",
    "001:10.1",
    "001:11.1",
    "001:12.1",
    "001:12.2",
    "001:12.3",
    "001:13.1",
    "001:14.1",
    "001:14.2",
    "001:14.3",
    "001:14.4",
    "001:15.1",
    "001:16.1",
    "001:17.1",
    "001:17.2",
    "001:18.1",
    "001:19.1",
    "001:19.2",
    "001:20.1",
    "001:21.1",
    "001:22.1",
    "001:23.1",
    "001:24.1",
    "001:25.1",
    "001:25.2",
    "001:26.1",
    "001:27.1",
    "001:28.1",
    "001:29.1",
    "001:30.1",
    "001:30.2",
    "001:30.3",
    "001:31.1",
    "001:32.1",
    "001:32.2",
    "001:32.3",
    "001:32.4",
    "001:33.1",
    "001:34.1",
    "001:34.2",
]


#: Every sentence id of seed 003 (solo: Jo).
SEED_003_IDS = [
    "003:1.1",
    "003:3.1",
    "003:5.1",
    "003:5.2",
    "003:7.1",
    "003:9.1",
    "003:11.1",
    "003:11.2",
    "003:12.1",
    "003:13.1",
    "003:14.1",
    "003:15.1",
    "003:16.1",
    "003:18.1",
    "003:20.1",
    "003:20.2",
    "003:22.1",
    "003:22.2",
    "003:22.3",
    "003:24.1",
    "003:26.1",
    "003:26.2",
    "003:26.3",
    "003:28.1",
    "003:30.1",
    "003:30.2",
    "003:30.3",
    "003:32.1",
    "003:33.1",
    "003:34.1",
    "003:36.1",
    "003:38.1",
    "003:39.1",
    "003:39.2",
    "003:40.1",
    "003:41.1",
    "003:41.2",
    "003:42.1",
    "003:42.2",
    "003:43.1",
    "003:44.1",
    "003:46.1",
    "003:48.1",
    "003:49.1",
    "003:50.1",
    "003:50.2",
    "003:50.3",
    "003:50.4",
    "003:50.5",
    "003:51.1",
    "003:52.1",
    "003:52.2",
    "003:52.3",
    "003:53.1",
    "003:53.2",
    "003:54.1",
    "003:56.1",
    "003:58.1",
    "003:58.2",
    "003:58.3",
    "003:60.1",
]


def _tests() -> dict[str, str]:
    """Test name -> docstring, for every test of the Speakeasy engine."""
    out: dict[str, str] = {}
    for path in HERE.rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                out[node.name] = ast.get_docstring(node) or ""
    return out


def _cites(seed_id: str, name: str, doc: str) -> bool:
    seed = seed_id.split(":")[0]
    line, sentence = seed_id.split(":")[1].split(".")
    return f"{seed}_{line}_{sentence}_" in name or re.search(re.escape(seed_id) + r"(?![\d])", doc) is not None


def test_coverage_seed_ids_match_the_rule_index():
    if not RULE_INDEX.exists():
        pytest.skip(f"{RULE_INDEX} is not here")
    text = RULE_INDEX.read_text(encoding="utf-8")
    assert re.findall(r"^- `(000:\d+\.\d+)`", text, re.M) == SEED_IDS
    assert re.findall(r"^- `(001:\d+\.\d+)`", text, re.M) == SEED_001_IDS
    assert re.findall(r"^- `(003:\d+\.\d+)`", text, re.M) == SEED_003_IDS


def test_coverage_every_sentence_of_003_has_a_rule_test_and_a_doc_row():
    tests = _tests()
    doc = DOC.read_text(encoding="utf-8")
    untested = [i for i in SEED_003_IDS if not any(_cites(i, n, d) for n, d in tests.items())]
    undocumented = [i for i in SEED_003_IDS if not re.search(re.escape(i) + r"(?![\d])", doc)]
    assert not untested and not undocumented


def test_coverage_every_sentence_of_001_has_a_rule_test_and_a_doc_row():
    tests = _tests()
    doc = DOC.read_text(encoding="utf-8")
    untested = [i for i in SEED_001_IDS if not any(_cites(i, n, d) for n, d in tests.items())]
    undocumented = [i for i in SEED_001_IDS if not re.search(re.escape(i) + r"(?![\d])", doc)]
    assert not untested and not undocumented


def test_coverage_every_seed_sentence_of_000_has_a_rule_test():
    tests = _tests()
    missing = [i for i in SEED_IDS if not any(_cites(i, n, d) for n, d in tests.items())]
    assert not missing


def test_coverage_the_rules_doc_cites_every_seed_sentence_of_000():
    doc = DOC.read_text(encoding="utf-8")
    missing = [i for i in SEED_IDS if not re.search(re.escape(i) + r"(?![\d])", doc)]
    assert not missing


def test_coverage_the_rules_doc_cites_only_tests_that_exist_and_every_rule_test():
    doc = DOC.read_text(encoding="utf-8")
    cited = set(re.findall(r"`(test_\w+)`", doc))
    names = set(_tests())
    assert not cited - names, "the doc cites tests that do not exist"
    rule_tests = {n for n in names if n.startswith(("test_000_", "test_001_", "test_design_", "test_decision_"))}
    assert not rule_tests - cited, "rule tests the doc does not cite"


def test_coverage_the_rules_doc_lists_every_project_value():
    doc = DOC.read_text(encoding="utf-8")
    missing = [v for v in rules().own_values + jo_rules().own_values if f"`{v}`" not in doc]
    assert not missing
