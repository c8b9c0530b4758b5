"""Bench: how fast the Speakeasy engine runs for the seat bots (issue 13), with a digest of every game played.

    python -m bench.engine_speed [--random-games 100] [--copies 2000] [--easy-games 2] [--standard-games 1]

Prints one JSON line: choices per second in four-player random self-play (one core, no checks), the mean cost
of the bots' state copy and of one sampled world (``bots.speakeasy_worlds``) over the states of those games,
and the seconds per complete four-player game with every seat an ``easy`` or a ``standard`` bot (seeds 1, 2,
...; the balance report's bots, ``bench.balance_report.play``). ``digest`` hashes every final state, and the
choices of ``--hard-decisions`` decisions of ``hard`` at a node limit of 300 against ``standard``: a faster
engine must print the same digest for the same arguments (same seeds, same games). Hard's decision time and
playouts at the table's budget come from ``python -m bench.bots_strength --pairs --timing 40``.

    python -m bench.engine_speed --compare REV [--random-games 30] [--rounds 3]

(issue 27) runs the same random four-player games (seeds ``--seed``...) on the commit ``REV`` (exported to a
temporary folder with ``git archive``) and on the working tree, each in a process of its own, side by side:
``--rounds`` times each, alternating, the best rate of each side kept (the least disturbed by the machine). Only
the engine's public contract is used (``engine.registry``, ``Game.new / prompts / apply / is_over / result``),
so any commit of the project can be compared. Prints one JSON line: each side's choices per second, ``speedup``
(the working tree's over the commit's) and ``same_digest``: whether both played the same games (a digest of
every choice made and every result).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.balance_report import play
from bots.speakeasy import GAME, Budget, SpeakeasyBot
from bots.speakeasy_worlds import copy, world
from engine.core import TABLE, Choice
from engine.speakeasy.state import SpeakeasyState

PLAYERS = 4
ROOT = Path(__file__).resolve().parent.parent

#: What each side of ``--compare`` runs (argv: games, seed): random four-player games through the engine's public
#: contract only, timed around the engine's calls; prints choices per second, choices and the games' digest.
SIDE = """
import hashlib, json, random, sys, time
from engine.core import Choice
from engine.registry import get_game
game = get_game("speakeasy")
games, seed = int(sys.argv[1]), int(sys.argv[2])
digest = hashlib.sha256()
choices, elapsed = 0, 0.0
for g in range(games):
    rng = random.Random(seed + g)
    t0 = time.perf_counter()
    state = game.new([f"P{i + 1}" for i in range(4)], {}, seed + g)
    while not game.is_over(state):
        pairs = [(p, o) for p in game.prompts(state) for o in p.options]
        prompt, option = rng.choice(pairs)
        game.apply(state, Choice(prompt.seat, prompt.kind, option.id))
        digest.update(f"{prompt.seat}|{prompt.kind}|{option.id};".encode())
        choices += 1
    result = game.result(state)
    elapsed += time.perf_counter() - t0
    digest.update(repr((result.scores, result.winners)).encode())
print(json.dumps({"cps": choices / elapsed, "choices": choices, "digest": digest.hexdigest()[:16]}))
"""


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
        state, seen = play(PLAYERS, 1 + g, level)
        digest.update(GAME.dumps(state))
        digest.update(repr(seen["zones"] if isinstance(seen, dict) else seen).encode())
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


def run_side(tree: Path, games: int, seed: int) -> dict[str, float | int | str]:
    """One side of ``--compare``: :data:`SIDE` run in a fresh process on the code in ``tree``."""
    out = subprocess.run(
        [sys.executable, "-c", SIDE, str(games), str(seed)],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(rev: str, games: int, seed: int, rounds: int) -> dict[str, object]:
    """The working tree's engine against commit ``rev``'s on the same games (see the module's docstring)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, capture_output=True, text=True
    )
    if commit.returncode != 0:
        raise SystemExit(f"--compare: {rev!r} is not a commit of this repository")
    with tempfile.TemporaryDirectory(prefix="engine-speed-") as tmp:
        old = Path(tmp)
        archive = subprocess.run(["git", "archive", commit.stdout.strip()], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        sides: dict[str, list[dict[str, float | int | str]]] = {"commit": [], "tree": []}
        for _ in range(rounds):
            sides["commit"].append(run_side(old, games, seed))
            sides["tree"].append(run_side(ROOT, games, seed))
    best = {k: max(float(r["cps"]) for r in v) for k, v in sides.items()}
    digests = {str(r["digest"]) for v in sides.values() for r in v}
    return {
        "bench": "engine_speed_compare",
        "commit": commit.stdout.strip()[:12],
        "games": games,
        "seed": seed,
        "rounds": rounds,
        "choices": sides["tree"][0]["choices"],
        "commit_choices_per_second": round(best["commit"], 1),
        "tree_choices_per_second": round(best["tree"], 1),
        "speedup": round(best["tree"] / best["commit"], 3),
        "same_digest": len(digests) == 1,
    }


def main(argv: list[str] | None = None) -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m bench.engine_speed")
    parser.add_argument("--random-games", type=int, default=100)
    parser.add_argument("--copies", type=int, default=2000)
    parser.add_argument("--easy-games", type=int, default=2)
    parser.add_argument("--standard-games", type=int, default=1)
    parser.add_argument("--hard-decisions", type=int, default=10, help="hard decisions digested (node limit 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", metavar="REV", help="compare the working tree's engine with this commit's")
    parser.add_argument("--rounds", type=int, default=3, help="with --compare: runs of each side (best kept)")
    args = parser.parse_args(argv)
    if args.compare:
        games = args.random_games if "--random-games" in (argv or sys.argv) else 30
        print(json.dumps(compare(args.compare, games, args.seed, max(1, args.rounds))), flush=True)
        return
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
