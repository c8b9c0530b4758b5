"""Bench: Omerta seat bots snapping in each pace, and what the table's check for their standing orders costs.

    python -m bench.omerta_orders [--games 20] [--levels standard easy] [--seed 1]

Each game seats two scripted players (seats 0 and 1: they draw, discard or swap at random, and call OMERTA after
six turns of a round) and the bots at ``--levels``, played as the table plays them (``TableBots.run`` after
every scripted move; in ``live`` pace a window nobody else snaps is closed by the timer). Per pace it prints the
bots' right and wrong snaps per game (live: claims in windows; post: standing orders judged), the bots' order
answers per game, and the time of ``TableBots.optional_due`` (the service's check after every move of a post
table with bots: one replay of the record through the bots' eyes), p50/p99/max, with the share of checks that
found something to do. One JSON line per figure; the seed reproduces it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bots.table import BotTable, TableBots
from engine.core import TABLE, Choice
from engine.omerta.game import OmertaGame

GAME = OmertaGame()
#: A scripted player calls OMERTA at its turn after this many turns of a round (the bench's own value).
CALL_AFTER = 6


def _scripted(prompt, turns: int, rng: random.Random) -> Choice:  # noqa: ANN001
    """A scripted player's answer: draw until it calls OMERTA, any other question at random."""
    if prompt.kind == "turn":
        return Choice(prompt.seat, "turn", "omerta" if turns > CALL_AFTER else "draw")
    return Choice(prompt.seat, prompt.kind, rng.choice(prompt.options).id)


def play(pace: str, levels: list[str], seed: int, timings: list[float], dues: list[bool]) -> dict[str, int]:
    """One game; returns the bots' snaps and order answers, and appends the post pace's check times."""
    names = ["A", "B"] + [f"Bot {i}" for i in range(len(levels))]
    options = {"pace": pace, "rules": 2}
    state, _ = GAME.start(names, options, seed)
    bot_seats = {2 + i: lv for i, lv in enumerate(levels)}
    table = BotTable(GAME, names, options, seed, bot_seats)
    bots = TableBots()
    rng = random.Random(seed)
    counts = {"right": 0, "wrong": 0, "orders": 0}
    turns, round_seen = 0, 1
    while not GAME.is_over(state):
        if pace == "post":
            start = time.perf_counter()
            dues.append(bots.optional_due(table, state))
            timings.append(time.perf_counter() - start)
        done = bots.run(table, state)
        choices = [c for c, _ in done]
        events = [e for _, evs in done for e in evs]
        if not GAME.is_over(state):
            prompts = [p for p in GAME.prompts(state) if not p.optional]
            timer = next((p for p in prompts if p.seat == TABLE), None)
            if state.round != round_seen:
                round_seen, turns = state.round, 0
            if timer is not None:  # a window the bots let go: the scripted players let it go too
                choice = Choice(TABLE, timer.kind, timer.default_option())
            else:
                prompt = next(p for p in prompts if p.seat not in bot_seats)
                turns += prompt.kind == "turn"
                choice = _scripted(prompt, turns, rng)
            choices.append(choice)
            events += GAME.apply(state, choice)
        table.record += choices
        counts["orders"] += sum(c.kind == "order" for c in choices)
        for e in events:
            if e.kind == "snap" and e.data.get("seat") in bot_seats:
                counts["right" if e.data["right"] else "wrong"] += 1
    return counts


def main() -> None:
    """Run the bench and print one JSON line per figure."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--levels", nargs="+", default=["standard", "easy"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for pace in ("live", "post"):
        timings: list[float] = []
        dues: list[bool] = []
        total = {"right": 0, "wrong": 0, "orders": 0}
        for g in range(args.games):
            for k, v in play(pace, args.levels, args.seed + g, timings, dues).items():
                total[k] += v
        line = {"pace": pace, "games": args.games, "levels": args.levels}
        line |= {f"bot_{k}_per_game": round(v / args.games, 2) for k, v in total.items()}
        if timings:
            ms = sorted(t * 1000 for t in timings)
            line |= {
                "due_checks": len(ms),
                "due_share": round(sum(dues) / len(dues), 3),
                "due_check_ms_p50": round(statistics.median(ms), 1),
                "due_check_ms_p99": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 1),
                "due_check_ms_max": round(ms[-1], 1),
            }
        print(json.dumps(line))


if __name__ == "__main__":
    main()
