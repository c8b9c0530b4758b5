"""Bench: how strong the Speakeasy seat bots are, head to head, and how long ``hard`` thinks.

    python -m bench.bots_strength [--games 200] [--pairs easy:random standard:easy hard:standard]
                                  [--hard-nodes 400] [--timing 40] [--timing-nodes N] [--seed 1]
    python -m bench.bots_strength --pairs 'hard*4:hard' --hard-nodes 1500 --timing 0   # 4 times the playouts
    python -m bench.bots_strength --pairs hard:jo4 standard:jo4 --timing 0             # solo against Jo

Each pair plays ``games`` two-player games, the two players swapping seats every game (so neither gains from
sitting first); a pair's line gives the first player's win share with its 95% Wilson interval and whether the
interval excludes an even split. A pair ``LEVEL:joN`` plays solo games of the level against Jo at difficulty N
(seed 003) instead: the level's win share against him. ``hard`` plays with ``--hard-nodes`` (the node limit
binds, not the clock: reproducible; the table's default is 6000 nodes and 2 s). The timing line plays
``--timing`` decisions of ``hard`` at the table's default budget and prints the p50/p99/max decision time and
playouts per decision; ``--timing-nodes 1000000`` lets the 2 s clock bind instead (how many playouts the
engine's speed allows). Hard's tree search (issue 27) runs iterations until its node limit is spent, so
``hard*4`` plays about four times the playouts of ``hard``. ``hard+fitted`` is hard judging its lookahead and
leaves by the evaluation fitted on self-play (``bots.speakeasy_evaluation``; it won no more often, docs/bots.md).
One JSON line per figure; the seed reproduces it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time

from bots.speakeasy import GAME, Budget, SpeakeasyBot
from engine.core import TABLE, Choice


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def bot_of(level: str, salt: int, hard_nodes: int) -> SpeakeasyBot:
    """The bot of a level; ``hard*4`` is hard at 4 times ``hard_nodes`` (does more search help?), ``hard+fitted``
    hard judging by the evaluation fitted on self-play (``bots.speakeasy_evaluation``)."""
    level, plus, variant = level.partition("+")
    if plus and variant != "fitted":
        raise ValueError(f"unknown variant {variant!r} of {level!r}: the only one is '+fitted'")
    name, _, times = level.partition("*")
    budget = Budget(nodes=hard_nodes * int(times or 1), seconds=3600.0)
    return SpeakeasyBot(name, salt, budget, fitted=bool(plus))


def player(level: str, salt: int, hard_nodes: int):
    """A function (state, prompt) -> choice for a level, or the uniform random player."""
    if level == "random":
        rng = random.Random(salt)
        return lambda state, prompt: Choice(prompt.seat, prompt.kind, rng.choice(prompt.options).id)
    return bot_of(level, salt, hard_nodes).choose


def game(levels: tuple[str, str], seed: int, hard_nodes: int) -> int:
    """One two-player game; returns the winning seat."""
    players = [player(lv, seed * 2 + i, hard_nodes) for i, lv in enumerate(levels)]
    state = GAME.new(["A", "B"], {"settle": "auto"}, seed)
    for _ in range(20_000):
        if GAME.is_over(state):
            break
        prompt = next(p for p in GAME.prompts(state) if p.seat != TABLE)
        GAME.apply(state, players[prompt.seat](state, prompt))
    result = GAME.result(state)
    assert result is not None, f"seed {seed}: the game did not end"
    return result.winners[0]


def solo(level: str, difficulty: int, seed: int, hard_nodes: int) -> bool:
    """One solo game of a level against Jo at ``difficulty`` (seed 003); True when the bot is among the winners
    (as the balance report counts it)."""
    bot = player(level, seed * 2, hard_nodes)
    state = GAME.new(["A"], {"settle": "auto", "difficulty": difficulty}, seed)
    for _ in range(20_000):
        if GAME.is_over(state):
            break
        prompt = next(p for p in GAME.prompts(state) if p.seat != TABLE)
        GAME.apply(state, bot(state, prompt))
    result = GAME.result(state)
    assert result is not None, f"seed {seed}: the game did not end"
    return 0 in result.winners


def pair(first: str, second: str, games: int, seed: int, hard_nodes: int) -> dict:
    """``games`` games of ``first`` against ``second``, seats swapped every game; ``second`` ``joN``: solo games
    against Jo at difficulty N (the bot always seat 0: there is no seat to swap)."""
    wins = 0
    start = time.perf_counter()
    for g in range(games):
        swap = g % 2 == 1
        levels = (second, first) if swap else (first, second)
        if second.startswith("jo"):
            wins += solo(first, int(second[2:]), seed + g, hard_nodes)
        else:
            winner = game(levels, seed + g, hard_nodes)
            wins += (winner == 1) if swap else (winner == 0)
        # progress on stderr: a long pair (hard at the table's nodes takes hours) can be watched
        print(f"{first} vs {second}: game {g + 1}/{games} seed {seed + g}: {wins} wins", file=sys.stderr, flush=True)
    lo, hi = wilson(wins, games)
    return {
        "bench": "bots_strength",
        "pair": f"{first} vs {second}",
        "games": games,
        "seed": seed,
        "hard_nodes": hard_nodes,
        "win_share": round(wins / games, 3),
        "ci95": [round(lo, 3), round(hi, 3)],
        "beats": lo > 0.5,
        "seconds": round(time.perf_counter() - start, 1),
    }


def timing(decisions: int, seed: int, nodes: int | None = None) -> dict:
    """``hard`` at the table's default budget (or ``nodes`` instead of its node limit, the 2 s kept) on the
    positions of a game it plays against ``standard``."""
    budget = Budget() if nodes is None else Budget(nodes=nodes)
    hard = SpeakeasyBot("hard", seed, budget)
    standard = SpeakeasyBot("standard", seed + 1)
    state = GAME.new(["A", "B"], {"settle": "auto"}, seed)
    times: list[float] = []
    playouts: list[int] = []
    while not GAME.is_over(state) and len(times) < decisions:
        prompt = next(p for p in GAME.prompts(state) if p.seat != TABLE)
        if prompt.seat == 0 and len(prompt.options) > 1:
            t = time.perf_counter()
            decision = hard.decide(state, prompt)
            times.append(time.perf_counter() - t)
            playouts.append(decision.playouts)
            choice = decision.choice
        else:
            choice = standard.choose(state, prompt)
        GAME.apply(state, choice)
    times.sort()
    p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
    return {
        "bench": "bots_hard_time",
        "decisions": len(times),
        "seed": seed,
        "budget_s": budget.seconds,
        "budget_nodes": budget.nodes,
        "p50_s": round(statistics.median(times), 3),
        "p99_s": round(p99, 3),
        "max_s": round(times[-1], 3),
        "within_budget": p99 <= budget.seconds,
        "playouts_per_decision": round(statistics.mean(playouts), 1),
    }


def main(argv: list[str] | None = None) -> None:
    """Print one JSON line per pair and one for the timing."""
    parser = argparse.ArgumentParser(prog="python -m bench.bots_strength")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pairs", nargs="*", default=["easy:random", "standard:easy", "hard:standard"])
    parser.add_argument("--hard-nodes", type=int, default=400)
    parser.add_argument("--timing", type=int, default=40, help="hard decisions to time (0: none)")
    parser.add_argument(
        "--timing-nodes", type=int, help="the timed hard's node limit (default the table's; large: the clock binds)"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for spec in args.pairs:
        first, second = spec.split(":")
        print(json.dumps(pair(first, second, args.games, args.seed, args.hard_nodes)), flush=True)
    if args.timing:
        print(json.dumps(timing(args.timing, args.seed, args.timing_nodes)), flush=True)


if __name__ == "__main__":
    main()
