"""Write the Omerta version-2 replay fixtures: recorded games whose replay must not change (issue 22).

python -m bench.omerta_fixtures [--out DIR]

Rules version 3 (decisions 2.1) changed two things for new tables: a standing order is withdrawn when its slot's
card moves, and a wrong snap always costs a card. Games recorded under version 2 must replay exactly as they were
played. Each fixture is a one-round, three-player game under ``rules=2`` (one at ``pace=live``, one at
``pace=post``) by random players who never call OMERTA (so the draw pile runs out, and late wrong claims find no
penalty card) and set standing orders now and then (so some orders hit a card that was moved into their slot).
A fixture keeps the seed, the options, every choice, the SHA-256 of the final state and of the whole log, and how
often each case the new version changes came up; ``tests/engine/omerta/test_decisions_2_1.py`` replays them.

The fixtures were written by the engine before version 3 existed (the commit before it, with this file on the
path): re-run this only when a version-2 rule changes on purpose, and say so in the commit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path
from typing import Any

from engine.core import Choice
from engine.omerta.game import OmertaGame

GAME = OmertaGame()
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "engine" / "omerta" / "fixtures"
NAMES = ["Anna", "Ben", "Cleo"]
#: The first seed tried for each pace (the first seed from there whose game has every case is kept).
START = {"live": 2200, "post": 2100}


def record(pace: str, seed: int) -> dict[str, Any]:
    """One random game under version 2 at ``pace``, with its counts of the cases version 3 changes."""
    options = {"rules": 2, "pace": pace, "rounds": 1}
    state, events = GAME.start(NAMES, options, seed)
    rng = random.Random(seed)
    choices: list[Choice] = []
    set_on: dict[tuple[int, int], int | None] = {}  # the card in a slot when its order was set
    stale = 0
    while not GAME.is_over(state) and len(choices) < 5_000:
        prompts = GAME.prompts(state)
        orders = [p for p in prompts if p.optional and p.options]
        if orders and rng.random() < 0.15:
            prompt = rng.choice(orders)
            option = rng.choice(prompt.options).id
        else:
            prompt = rng.choice([p for p in prompts if not p.optional])
            option = rng.choice([o.id for o in prompt.options if o.id != "omerta"])  # never call: a long round
        choice = Choice(prompt.seat, prompt.kind, option)
        if choice.kind == "order":
            slot = int(option.split(":")[1])
            set_on[choice.seat, slot] = state.players[choice.seat].slots[slot] if option.startswith("set:") else None
        step = GAME.apply(state, choice)
        for e in step:
            if e.kind == "snap" and "standing order" in e.text:
                card = state.shown[e.data["shown"]]
                stale += set_on.pop((e.data["seat"], e.data["slot"]), card) != card
        events += step
        choices.append(choice)
    log = [[e.kind, e.text, list(e.to) if e.to is not None else None] for e in events]
    return {
        "game": "omerta",
        "seats": NAMES,
        "options": options,
        "seed": seed,
        "choices": [[c.seat, c.kind, c.option] for c in choices],
        "state_sha256": hashlib.sha256(GAME.dumps(state)).hexdigest(),
        "log_sha256": hashlib.sha256(json.dumps(log).encode()).hexdigest(),
        "free_wrong_claims": sum(k == "penalty" and "would take a penalty card" in t for k, t, _ in log),
        "stale_order_hits": stale,
    }


def main() -> None:
    """Find, for each pace, the first seed whose game has every case, and write it."""
    parser = argparse.ArgumentParser(prog="python -m bench.omerta_fixtures", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=FIXTURES)
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    for pace, start in START.items():
        for seed in range(start, start + 500):
            data = record(pace, seed)
            if data["free_wrong_claims"] and (pace == "live" or data["stale_order_hits"]):
                break
        else:
            raise SystemExit(f"no {pace} game with every case in 500 seeds from {start}")
        (out / f"v2_{pace}.json").write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
        print(
            f"v2_{pace}.json: seed {seed}, {len(data['choices'])} choices, "
            f"{data['free_wrong_claims']} free wrong claims, {data['stale_order_hits']} stale order hits"
        )


if __name__ == "__main__":
    main()
