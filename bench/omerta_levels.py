"""Bench: how strong the Omerta seat bots are, level against level (issue 27: a hard level that weighs snaps and
the OMERTA call by the odds of what it has not seen).

    python -m bench.omerta_levels [--games 400] [--pair hard:standard] [--seed 1]

Each four-player game seats the two levels alternately (``A B A B``; every other game ``B A B A``, so neither gains from
sitting first), the game at its default options (live snap windows, closed by the table's timer when no bot
snaps). A game's win goes to the level of the seat with the fewest points (a shared win is split). Prints one
JSON line: the first level's win share with its 95% Wilson interval, whether the interval is above 50%, and how
often each level called OMERTA and made it.
"""

from __future__ import annotations

import argparse
import json
import time

from bench.bots_strength import wilson
from bots.omerta import Memory, OmertaBot
from engine.core import TABLE, Choice
from engine.omerta.game import OmertaGame

GAME = OmertaGame()
#: seats a game: an even count, so each level sits as often in each place
PLAYERS = 4


def game(levels: list[str], seed: int) -> tuple[list[int], list[tuple[int, bool]]]:
    """One game; returns each seat's total and every OMERTA call ``(seat, made)``."""
    bots = [OmertaBot(lv, salt=seed * 10 + i) for i, lv in enumerate(levels)]
    state, _ = GAME.start([f"P{i}" for i in range(len(levels))], {}, seed)
    memories = [Memory(i) for i in range(len(levels))]
    views = [GAME.view(state, i) for i in range(len(levels))]
    while not GAME.is_over(state):
        choice = None
        for p in GAME.prompts(state):
            if p.seat != TABLE and not p.optional:
                choice = bots[p.seat].choose(GAME, state, p, memories[p.seat])
                if choice is not None:
                    break
        if choice is None:  # a snap window nobody took: the table's timer closes it
            timer = next(p for p in GAME.prompts(state) if p.seat == TABLE)
            choice = Choice(TABLE, timer.kind, timer.default_option())
        events = GAME.apply(state, choice)
        for i, m in enumerate(memories):
            after = GAME.view(state, i)
            m.observe(views[i], choice, after, events)
            views[i] = after
    calls = [(r.caller, r.caller_made_it) for r in state.history if r.caller is not None]
    return [p.total for p in state.players], calls


def main(argv: list[str] | None = None) -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--pair", default="hard:standard")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    first, second = args.pair.split(":")
    wins = 0.0
    called = {first: [0, 0], second: [0, 0]}
    start = time.perf_counter()
    for g in range(args.games):
        order = [first, second] if g % 2 == 0 else [second, first]
        levels = [order[i % 2] for i in range(PLAYERS)]
        totals, calls = game(levels, args.seed + g)
        best = min(totals)
        winners = [levels[i] for i, t in enumerate(totals) if t == best]
        wins += winners.count(first) / len(winners)
        for seat, made in calls:
            called[levels[seat]][0] += 1
            called[levels[seat]][1] += made
    lo, hi = wilson(wins, args.games)
    print(
        json.dumps(
            {
                "bench": "omerta_levels",
                "pair": f"{first} vs {second}",
                "players": PLAYERS,
                "games": args.games,
                "seed": args.seed,
                "win_share": round(wins / args.games, 3),
                "ci95": [round(lo, 3), round(hi, 3)],
                "beats": lo > 0.5,
                "calls_made": {lv: f"{made}/{n}" for lv, (n, made) in called.items()},
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
