"""The balance report's bench (bench/balance_report.py): its figures do not depend on how many worker processes
play the games, and the report is written whole from every level's kept figures."""

from __future__ import annotations

import json
from pathlib import Path

from bench.balance_report import gather, run_level, write


def test_the_figures_are_the_same_in_worker_processes():
    one = gather(2, 2, "easy", seed=5)
    two = gather(2, 2, "easy", seed=5, jobs=2)
    assert one == two
    assert one["seeds"] == [5, 6] and sum(one["wins"]) >= 2


def test_the_report_has_a_section_per_level_kept(tmp_path: Path):
    charts = tmp_path / "balance"
    easy = run_level(charts, "easy", 1, 1)
    # a second level's kept figures (the same games, named hard: playing them would only take longer)
    (charts / "hard.json").write_text(json.dumps(easy | {"level": "hard", "hard_nodes": 50}))
    path = tmp_path / "balance.md"
    assert write(path) == ["easy", "hard"]
    text = path.read_text()
    assert "## Every seat `easy`" in text and "## Every seat `hard`" in text
    assert "| hard | 1 | 1 | 50 |" in text and "node limit 50 a decision" in text
    assert (charts / "money_by_source_hard.png").exists() and (charts / "win_share_by_seat_easy.png").exists()
    assert "--bots easy --games 1 --solo-games 1 --write" in text and "--hard-nodes 50" in text
