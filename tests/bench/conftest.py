"""The benches' tests keep nothing in the working folder: the balance report's games are kept per test."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _kept_games_per_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import bench.balance_report as report

    monkeypatch.setattr(report, "CACHE", str(tmp_path / "kept-games"))
