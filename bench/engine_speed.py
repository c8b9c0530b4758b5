"""Bench: how fast the Speakeasy engine runs for the seat bots (issue 13), with a digest of every game played.

    python -m bench.engine_speed [--random-games 100] [--copies 2000] [--easy-games 2] [--standard-games 1]

Prints one JSON line: choices per second in four-player random self-play (one core, no checks), the mean cost
of the bots' state copy and of one sampled world (``bots.speakeasy_worlds``) over the states of those games,
and the seconds per complete four-player game with every seat an ``easy`` or a ``standard`` bot (seeds 1, 2,
...; the balance report's bots, ``bench.balance_report.play``). ``digest`` hashes every final state, and the
choices of ``--hard-decisions`` decisions of ``hard`` at a node limit of 300 against ``standard``: a faster
engine must print the same digest for the same arguments (same seeds, same games). Hard's decision time and
playouts at the table's budget come from ``python -m bench.bots_strength --pairs --timing 40``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

from bench.balance_report import play
from bots.speakeasy import GAME, Budget, SpeakeasyBot
from bots.speakeasy_worlds import copy, world
from engine.core import TABLE, Choice
from engine.speakeasy.state import SpeakeasyState

PLAYERS = 4


def random_games(games: int, seed: int, digest: hashlib._Hash) -> tuple[float, int, list[SpeakeasyState]]:
    """(choices per second, choices, every 25th state seen) of plain random four-player play."""
    seats = [f"P{i + 1}" for i in range(PLAYERS)]
    choices = 0
    elapsed = 0.0
    kept: list[SpeakeasyState] = []
    for g in range(games):
        rng = random.Random(seed + g)
        state = GAME.new(seats, {}, seed + g)
        while not GAME.is_over(state):
            t0 = time.perf_counter()
            pairs = [(p, o) for p in GAME.prompts(state) for o in p.options]
            prompt, option = rng.choice(pairs)
            GAME.apply(state, Choice(prompt.seat, prompt.kind, option.id))
            elapsed += time.perf_counter() - t0
            choices += 1
            if choices % 25 == 0:
                kept.append(GAME.loads(GAME.dumps(state)))
        digest.update(GAME.dumps(state))
    return choices / elapsed, choices, kept


def copy_cost(states: list[SpeakeasyState], copies: int) -> tuple[float, float]:
    """Mean microseconds of one bot copy and of one sampled world, over ``copies`` of the given states."""
    picks = [states[i % len(states)] for i in range(copies)]
    t0 = time.perf_counter()
    for s in picks:
        copy(s)
    copied = time.perf_counter() - t0
    rng = random.Random(1)
    worlds = picks[: max(1, copies // 10)]
    t0 = time.perf_counter()
    for s in worlds:
        world(s, s.tasks[-1].seat if s.tasks else 0, rng)
    sampled = time.perf_counter() - t0
    return copied / len(picks) * 1e6, sampled / len(worlds) * 1e6


def bot_games(level: str, games: int, digest: hashlib._Hash) -> float:
    """Seconds per complete four-player game with every seat a bot at ``level`` (seeds 1, 2, ...)."""
    t0 = time.perf_counter()
    for g in range(games):
        state, zones = play(PLAYERS, 1 + g, level)
        digest.update(GAME.dumps(state))
        digest.update(repr(zones).encode())
    return (time.perf_counter() - t0) / max(1, games)


def hard_decisions(decisions: int, nodes: int, digest: hashlib._Hash) -> None:
    """Digest ``decisions`` choices of ``hard`` (node limit ``nodes``: reproducible) against ``standard``."""
    hard = SpeakeasyBot("hard", 1, Budget(nodes=nodes, seconds=3600.0))
    standard = SpeakeasyBot("standard", 2)
    state = GAME.new(["A", "B"], {"settle": "auto"}, 1)
    done = 0
    while not GAME.is_over(state) and done < decisions:
        prompt = next(p for p in GAME.prompts(state) if p.seat != TABLE)
        if prompt.seat == 0:
            decision = hard.decide(state, prompt)
            digest.update(f"{decision.choice}|{decision.expected}|{decision.playouts}|{decision.nodes}".encode())
            choice = decision.choice
            done += 1
        else:
            choice = standard.choose(state, prompt)
        GAME.apply(state, choice)


def main(argv: list[str] | None = None) -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m bench.engine_speed")
    parser.add_argument("--random-games", type=int, default=100)
    parser.add_argument("--copies", type=int, default=2000)
    parser.add_argument("--easy-games", type=int, default=2)
    parser.add_argument("--standard-games", type=int, default=1)
    parser.add_argument("--hard-decisions", type=int, default=10, help="hard decisions digested (node limit 300)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.random_games < 1:
        parser.error("--random-games must be at least 1 (the copies are taken from its states)")
    digest = hashlib.sha256()
    rate, choices, states = random_games(args.random_games, args.seed, digest)
    copy_us, world_us = copy_cost(states, args.copies)
    easy_s = bot_games("easy", args.easy_games, digest)
    standard_s = bot_games("standard", args.standard_games, digest)
    hard_decisions(args.hard_decisions, 300, digest)
    print(
        json.dumps(
            {
                "bench": "engine_speed",
                "players": PLAYERS,
                "random_games": args.random_games,
                "choices": choices,
                "choices_per_second": round(rate, 1),
                "copy_us": round(copy_us, 1),
                "world_us": round(world_us, 1),
                "easy_game_s": round(easy_s, 2),
                "standard_game_s": round(standard_s, 2),
                "digest": digest.hexdigest()[:16],
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
