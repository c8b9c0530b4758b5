"""Run every bench and print their JSON lines: ``python bench/run.py`` from the repository root."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHES = (
    ["-m", "bench.selfplay_speed"],
    ["-m", "bench.speakeasy_engine"],
    ["-m", "bench.jo"],
    ["-m", "bench.balance"],
    ["-m", "bench.omerta_rounds"],
    ["-m", "bench.render_omerta"],
    ["-m", "bench.click_roundtrip"],
    ["-m", "bench.render_speakeasy"],
    ["-m", "bench.click_speakeasy"],
    ["-m", "bench.store_backends"],
    ["-m", "bench.local_table"],
    ["-m", "bench.quiet_week"],
)


def main() -> int:
    """Each bench in its own process (the fake Discord patches process-wide state)."""
    status = 0
    for args in BENCHES:
        status |= subprocess.call([sys.executable, *args], cwd=ROOT)
    return status


if __name__ == "__main__":
    sys.exit(main())
