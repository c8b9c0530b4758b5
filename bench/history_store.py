"""Issue 26's speed target: a server's leaderboard answers in under 50 ms with 100,000 finished games in the store,
on SQLite and on PostgreSQL; and a page of ``/game history`` (a server's, a person's) with them.

    python -m bench.history_store [--games 100000] [--players 5000] [--servers 20] [--postgres URL]

The store is filled directly (games, seats, rated games and the ratings they give, computed once in Python with
the same model), in large transactions, as years of play would leave it: ``--players`` people on ``--servers``
servers, three seats a game. Then the reads the commands make are timed, 50 times each: the leaderboard of the
busiest server and across all servers (ranked and newcomers, ``GameHistory.leaderboard``), a history page of a
server and of one person (``GameHistory.history``'s three queries). PostgreSQL is the server of
``SPEAKEASY_TEST_POSTGRES`` or 127.0.0.1:5432 (a schema of its own, dropped afterwards); skipped with a note if
none answers. Prints one JSON line per backend.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg

from service.history import NEWCOMER_ROWS, PER_PAGE, SETTLED
from store import Store, StoreError
from store.postgres import split_target
from store.rated import GLOBAL, new_ratings, ordinal

LOCAL = "postgresql://postgres@127.0.0.1:5432/test"
CHUNK = 5000
TARGET_MS = 50


def plan(games: int, players: int, servers: int, seed: int = 1) -> list[tuple[int, int, list[int], list[int]]]:
    """The games to write: (game id, server, the players' user ids, their places)."""
    rng = random.Random(seed)
    out = []
    for gid in range(1, games + 1):
        seated = rng.sample(range(1, players + 1), 3)
        places = [1, 2, 3]
        rng.shuffle(places)
        # most play on a few servers, as real servers differ in size
        server = 1000 + min(servers - 1, int(rng.expovariate(4 / servers)))
        out.append((gid, server, seated, places))
    return out


def ratings_of(games: list[tuple[int, int, list[int], list[int]]]) -> list[tuple[Any, ...]]:
    """Every rating row the games give (each server's and the global scope), as the live updates would."""
    state: dict[tuple[int, str], list[float]] = {}  # (scope, identity) -> mu, sigma, games, wins, last
    for gid, server, seated, places in games:
        ids = [f"u:{u}" for u in seated]
        pairs = list(zip(ids, places, strict=True))
        for scope in (server, GLOBAL):
            now = {i: tuple(state[(scope, i)][:2]) for i in ids if (scope, i) in state}
            after = new_ratings(now, pairs)  # type: ignore[arg-type]
            for i, p in pairs:
                old = state.get((scope, i), [0, 0, 0, 0, 0])
                state[(scope, i)] = [*after[i], old[2] + 1, old[3] + (p == 1), gid]
    return [
        ("omerta", scope, i, mu, sigma, ordinal(mu, sigma), int(n), int(w), int(last))
        for (scope, i), (mu, sigma, n, w, last) in state.items()
    ]


async def fill(s: Store, games: list[tuple[int, int, list[int], list[int]]], ratings: list[tuple[Any, ...]]) -> float:
    """Write the games, their seats, rated rows and the ratings; seconds taken."""
    t0 = time.perf_counter()
    game_rows, seat_rows, rated_rows, player_rows = [], [], [], []
    for gid, server, seated, places in games:
        at = 1_700_000_000.0 + gid * 600
        result = json.dumps({"scores": [10 * p for p in places], "winners": [places.index(1)]})
        game_rows.append((gid, "omerta", server, 1, seated[0], "finished", "{}", gid, 40, at - 3600, at, at, result))
        seat_rows += [(gid, k, u, f"Player {u}", 0) for k, u in enumerate(seated)]
        places_json = json.dumps([[f"u:{u}", p] for u, p in zip(seated, places, strict=True)])
        rated_rows.append((gid, gid, "omerta", server, at, places_json, 1))
        player_rows += [(f"u:{u}", gid) for u in seated]
    sqls = [
        (
            "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, options, seed, version, created_at,"
            " updated_at, last_move_at, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        ),
        ("INSERT INTO seats (game_id, seat, user_id, name, dm_blocked) VALUES (?, ?, ?, ?, ?)", seat_rows),
        (
            "INSERT INTO rated_games (id, game_id, ladder, guild_id, finished_at, places, counted)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            rated_rows,
        ),
        ("INSERT INTO rated_players (identity, game_id) VALUES (?, ?)", player_rows),
        (
            "INSERT INTO ratings (ladder, scope, identity, mu, sigma, ordinal, games, wins, last_game)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ratings,
        ),
    ]
    for sql, rows in sqls:
        for i in range(0, len(rows), CHUNK):
            async with s._write() as conn:
                await conn.executemany(sql, rows[i : i + CHUNK])
    return time.perf_counter() - t0


async def timed(fn: Callable[[], Awaitable[object]], n: int = 50) -> dict[str, float]:
    """Median and 95th percentile of ``fn``'s time, in ms (after one warm-up call)."""
    await fn()
    ms = []
    for _ in range(n):
        t0 = time.perf_counter()
        await fn()
        ms.append((time.perf_counter() - t0) * 1000)
    ms.sort()
    return {"median_ms": round(statistics.median(ms), 2), "p95_ms": round(ms[int(0.95 * len(ms))], 2)}


async def measure(target: str, games: list[tuple[int, int, list[int], list[int]]], ratings: list[Any]) -> dict:
    """Fill a fresh store at ``target`` and time the commands' reads."""
    async with await Store.open(target) as s:
        filled = await fill(s, games, ratings)
        busiest = max({g[1] for g in games}, key=lambda srv: sum(1 for g in games if g[1] == srv))
        person = games[-1][2][0]

        async def board(scope: int) -> None:
            await s.leaderboard("omerta", scope, 20, games=(SETTLED, 2**31 - 1))
            await s.leaderboard("omerta", scope, NEWCOMER_ROWS, games=(0, SETTLED))

        async def page(guild: int | None, user: int | None) -> None:
            rows, _ = await s.past_games(guild, user, PER_PAGE, 0)
            await s.seats_of([r.id for r in rows])
            await s.rated_games([r.id for r in rows])

        _, total = await s.past_games(None, None, 1, 0)
        assert total == len(games), f"the store holds {total} finished games, not {len(games)}"
        ranked = await s.leaderboard("omerta", GLOBAL, 20, games=(SETTLED, 2**31 - 1))
        assert len(ranked) == min(20, sum(1 for r in ratings if r[1] == GLOBAL and r[6] >= SETTLED))
        return {
            "backend": s.backend,
            "games": len(games),
            "ratings": len(ratings),
            "fill_s": round(filled, 1),
            "leaderboard_server": await timed(lambda: board(busiest)),
            "leaderboard_global": await timed(lambda: board(GLOBAL)),
            "history_server_page": await timed(lambda: page(busiest, None)),
            "history_person_page": await timed(lambda: page(None, person)),
            "target_ms": TARGET_MS,
        }


async def main() -> None:
    """Both backends; one JSON line each."""
    parser = argparse.ArgumentParser(prog="python -m bench.history_store")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--servers", type=int, default=20)
    parser.add_argument("--postgres", default=os.environ.get("SPEAKEASY_TEST_POSTGRES") or LOCAL)
    args = parser.parse_args()
    games = plan(args.games, args.players, args.servers)
    ratings = ratings_of(games)
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(await measure(str(Path(tmp) / "bench.sqlite3"), games, ratings)), flush=True)
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    target = f"{args.postgres}{'&' if '?' in args.postgres else '?'}schema={schema}"
    try:
        print(json.dumps(await measure(target, games, ratings)))
    except StoreError as exc:
        print(json.dumps({"backend": "postgres", "skipped": f"no server answers at {args.postgres}: {exc}"}))
    finally:
        try:
            conn = await asyncpg.connect(split_target(target)[0])
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            await conn.close()
        except OSError:
            pass


if __name__ == "__main__":
    asyncio.run(main())
