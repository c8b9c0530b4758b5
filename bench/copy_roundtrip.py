"""Bench (issue "scale out"): ``python -m store.copy`` round-trips a database of complete self-play games, both
games, SQLite -> PostgreSQL -> SQLite, every copied game replaying to the same state (store.copy checks each).

    python -m bench.copy_roundtrip [--games 1000] [--postgres postgresql://postgres@127.0.0.1:5432/test]

Half the games are Omerta (3-5 players), half Speakeasy (solo against Jo, 2-4 players), played to the end by
seeded random players and recorded as the bot records them (a lobby, seats, the start's snapshot, then the
choices and the final snapshot). Prints one JSON line: games, choices, the seconds each step took, and both
copies' exit codes (0: copied and every game checked). The PostgreSQL schema it uses is dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.core import Choice, dump_choice
from engine.options import resolve_options
from engine.registry import get_game
from store import Move, Store

POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


def _self_play(name: str, players: int, seed: int) -> tuple[dict, list[Choice], bytes, bytes]:
    """A complete random game: its options, choices, and the start's and the end's snapshots."""
    game = get_game(name)
    options = resolve_options(game.option_specs, {}, new=True)
    names = [f"P{i + 1}" for i in range(players)]
    state, _events = game.start(names, options, seed)
    start = game.dumps(state)
    rng = random.Random(seed)
    choices: list[Choice] = []
    while not game.is_over(state):
        pairs = [(p, o) for p in game.prompts(state) for o in p.options]
        prompt, option = rng.choice(pairs)
        choice = Choice(prompt.seat, prompt.kind, option.id)
        game.apply(state, choice)
        choices.append(choice)
    return options, choices, start, game.dumps(state)


async def fill(path: Path, games: int) -> int:
    """Record ``games`` complete games in a new SQLite store; the number of choices."""
    store = await Store.open(path)
    total = 0
    try:
        for g in range(games):
            name = "omerta" if g % 2 == 0 else "speakeasy"
            players = 3 + (g // 2) % 3 if name == "omerta" else 1 + (g // 2) % 4
            options, choices, start, end = _self_play(name, players, 10_000 + g)
            now = 1_800_000_000.0 + g
            gid = await store.create_game(
                game=name,
                guild_id=1,
                channel_id=2,
                host_id=1000,
                options_json=json.dumps(options),
                seed=10_000 + g,
                now=now,
            )
            for seat in range(players):
                await store.add_seat(gid, 1000 + seat, f"P{seat + 1}")
            await store.start_game(gid, start.decode(), now)
            record = [(dump_choice(c), 1000 + max(c.seat, 0)) for c in choices]
            move = Move(record, end.decode(), now, status="finished")
            assert await store.commit_move(gid, 0, move)
            total += len(choices)
    finally:
        await store.close()
    return total


def copy(src: str, dst: str) -> tuple[int, float, str]:
    """Run ``python -m store.copy``: (exit status, seconds, its last line)."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "store.copy", src, dst], capture_output=True, text=True, check=False)
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    return proc.returncode, time.perf_counter() - start, lines[-1] if lines else ""


async def drop_schema(url: str, schema: str) -> None:
    """Remove the bench's PostgreSQL schema."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


def main() -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--postgres", default=POSTGRES)
    args = parser.parse_args()
    schema = f"copy_roundtrip_{int(time.time())}"
    with tempfile.TemporaryDirectory() as tmp:
        src, back = Path(tmp) / "src.sqlite3", Path(tmp) / "back.sqlite3"
        t0 = time.perf_counter()
        choices = asyncio.run(fill(src, args.games))
        filled = time.perf_counter() - t0
        url = f"{args.postgres}?schema={schema}"
        try:
            up = copy(str(src), url)
            down = copy(url, str(back))
        finally:
            asyncio.run(drop_schema(args.postgres, schema))
    print(
        json.dumps(
            {
                "bench": "copy_roundtrip",
                "games": args.games,
                "choices": choices,
                "fill_s": round(filled, 1),
                "to_postgres": {"exit": up[0], "s": round(up[1], 1), "said": up[2]},
                "back_to_sqlite": {"exit": down[0], "s": round(down[1], 1), "said": down[2]},
            }
        )
    )


if __name__ == "__main__":
    main()
