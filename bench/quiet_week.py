"""Bench: issue 23's quiet hours acceptance over a full simulated week, printing its figures as one JSON line.

    python -m bench.quiet_week [--games 10] [--days 7] [--deadline 6h] [--step 1800]

Ten Omerta games played by their deadlines through the fake Discord (the bot plays each wait when its time runs
out), five players in Berlin, New York and Tokyo, four with quiet hours (``tests/cogs/quiet_week.py``). It checks
every message as it comes: nobody is pinged in their quiet hours, no DM notifies them then, and a ping left out of
a board in someone's quiet hours arrives when those hours end (while the game still waits for them). Exits 1 if
any check failed (the failures are printed). The suite runs a smaller stretch (``tests/cogs/test_quiet_hours.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from tests.cogs.quiet_week import simulate


async def measure(games: int, days: float, deadline: str, step: float) -> dict[str, object]:
    """Run the week and return its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        fig = await simulate(Path(tmp), games=games, days=days, step_s=step, deadline=deadline)
        seconds = time.perf_counter() - started
    figures = {k: v for k, v in vars(fig).items() if k != "failures"}
    return {
        "bench": "quiet_week",
        **figures,
        "deadline": deadline,
        "seconds": round(seconds, 1),
        "failures": len(fig.failures),
        "first_failures": fig.failures[:5],
    }


def main() -> int:
    """Print the figures; 1 if the acceptance failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--days", type=float, default=7.0)
    parser.add_argument("--deadline", default="6h")
    parser.add_argument("--step", type=float, default=1800.0, help="seconds of fake time between sweeps")
    args = parser.parse_args()
    out = asyncio.run(measure(args.games, args.days, args.deadline, args.step))
    print(json.dumps(out))
    return 1 if out["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
