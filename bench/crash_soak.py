"""Random-kill soak: 100 games played through the service by a subprocess that is killed at random, also inside
transactions; after each restart it goes on. Prints lost acknowledged moves, stuck games and corrupt games,
which must all be 0 (issue "trust" 3).

    python -m bench.crash_soak [--games 100] [--seed 1]

The worker prints a line for every request the service acknowledged (a move, a claim, a window closed) and
flushes it before doing anything else, so the parent knows exactly what a player was told. Half the kills are
a SIGKILL at a random moment; the other half make the worker die (``os._exit``) at a random write boundary of
the store, which lands inside transactions and just after commits.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# --- the worker (a "bot process") ---------------------------------------------------------------------------


async def _worker(db: str, games: int, seed: int, die_at: int) -> int:
    from engine.core import TABLE, Choice, dump_choice
    from engine.registry import GAMES
    from service import ServiceError, Settings, TableService, User
    from store import Store

    clock_skew = [0.0]

    def clock() -> float:
        return time.time() + clock_skew[0]

    store = await Store.open(db)
    if die_at:
        seen = [0]

        def hook(label: str) -> None:
            seen[0] += 1
            if seen[0] >= die_at:
                os._exit(9)  # the process dies here, mid-transaction or just after a commit

        store.write_hook = hook
    svc = TableService(store, Settings(), clock=clock, games=GAMES)
    await svc.recover()
    rng = random.Random(seed)
    users = [User(i + 1, f"P{i + 1}", guild_id=1) for i in range(3)]

    def ack(**line: object) -> None:
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()

    while True:
        rows = await store.list_games(1, None)
        if len(rows) < games:
            kind = "speakeasy" if len(rows) % 4 == 0 else "omerta"
            n = await svc.create(1, 2 + len(rows), users[0], kind, {})  # a channel each: at most 10 open per channel
            gid = n.table.id
            for u in users[1 : 2 if kind == "speakeasy" else 3]:
                await svc.join(gid, u)
            await svc.start(gid, users[0])
            ack(op="start", game=gid)
            continue
        lobby = [r for r in rows if r.status == "lobby"]
        if lobby:  # a restart after the table was opened but before it started: seat the rest and start
            row = lobby[0]
            table = await svc.load(row.id)
            for u in users[len(table.seats) : 2 if row.game == "speakeasy" else 3]:
                await svc.join(row.id, u)
            await svc.start(row.id, users[0])
            ack(op="start", game=row.id)
            continue
        active = [r for r in rows if r.status == "active"]
        if not active:
            await store.close()
            return 0
        row = rng.choice(active)
        table = await svc.load(row.id)
        race = await store.get_race(row.id)
        prompts = table.prompts()
        if race is not None and race.version == table.version:
            claimers = [p for p in prompts if p.race is not None and p.seat != TABLE]
            if claimers and rng.random() < 0.5:
                p = rng.choice(claimers)
                opt = rng.choice(p.options).id
                try:
                    await svc.act(row.id, users[p.seat], table.version, p.kind, opt, ts_ms=rng.randrange(1000))
                except ServiceError:
                    continue
                ack(op="claim", game=row.id, version=table.version, seat=p.seat)
                continue
            clock_skew[0] = max(clock_skew[0], race.deadline - time.time())
            notice = await svc.close_race(row.id, race.version)
            if notice is not None:
                ack(op="close", game=row.id, version=race.version)
            continue
        waiting = [p for p in prompts if p.seat != TABLE and p.race is None]
        if not waiting:
            ack(op="stuck", game=row.id, version=table.version)
            return 3
        p = rng.choice(waiting)
        opt = p.default_option() if rng.random() < 0.6 else rng.choice(p.options).id
        if opt == "omerta" and rng.random() < 0.9:
            opt = p.default_option()
        try:
            await svc.act(row.id, users[p.seat], table.version, p.kind, opt)
        except ServiceError:
            continue
        ack(op="move", game=row.id, index=table.version, choice=dump_choice(Choice(p.seat, p.kind, opt)))


# --- the parent ----------------------------------------------------------------------------------------------


def _check(db: str, acked: list[dict]) -> dict[str, int]:
    """Lost acknowledged moves and claims, stuck and corrupt games, from the database after the soak."""
    return asyncio.run(_check_async(db, acked))


async def _check_async(db: str, acked: list[dict]) -> dict[str, int]:
    from engine.core import TABLE, load_choice
    from engine.registry import GAMES
    from service import Settings, TableService
    from service.records import effective_choices
    from store import Store

    store = await Store.open(db)
    svc = TableService(store, Settings(), games=GAMES)
    await svc.recover()
    lost = stuck = corrupt = 0
    records = {}
    for row in await store.list_games(1, None):
        records[row.id] = await store.get_choices(row.id)
        if row.status == "lobby":
            stuck += 1  # the worker starts every table it opened
            continue
        table = await svc.load(row.id)
        replayed = svc.replay(table, effective_choices(records[row.id]))
        if table.game.dumps(replayed) != table.game.dumps(table.state) or table.game.invariants(table.state):
            corrupt += 1
        if row.status == "active":
            prompts = table.prompts()
            race = await store.get_race(row.id)
            has_race = any(p.race for p in prompts)
            waiting = [p for p in prompts if p.race is None and p.seat != TABLE]
            if (
                not prompts
                or (has_race and (race is None or race.version != table.version))
                or (not has_race and not waiting)
            ):
                stuck += 1
    for line in acked:
        record = records.get(line["game"], [])
        if line["op"] == "move":
            if len(record) <= line["index"] or record[line["index"]] != line["choice"]:
                lost += 1
        elif line["op"] in ("claim", "close"):
            # the window at that version was closed by a snap; after an acknowledged claim, by a claim (the
            # table's "nobody snaps" would mean the claim was dropped)
            v = line["version"]
            applied = load_choice(record[v]) if len(record) > v else None
            if applied is None or applied.kind != "snap" or (line["op"] == "claim" and applied.seat == TABLE):
                lost += 1
    await store.close()
    return {"lost_acknowledged": lost, "stuck_games": stuck, "corrupt_games": corrupt}


def main() -> int:
    """Run the soak and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.crash_soak")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--die-at", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return asyncio.run(_worker(args.worker, args.games, args.seed, args.die_at))
    rng = random.Random(args.seed)
    acked: list[dict] = []
    kills = boundary_deaths = runs = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "soak.sqlite3")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        while True:
            runs += 1
            die_at = rng.randrange(20, 400) if runs % 2 == 0 else 0
            cmd = [sys.executable, "-m", "bench.crash_soak", "--worker", db, "--games", str(args.games)]
            cmd += ["--seed", str(args.seed * 1000 + runs), "--die-at", str(die_at)]
            proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE)
            lines: list[bytes] = []
            assert proc.stdout is not None
            reader = threading.Thread(target=lines.extend, args=(proc.stdout,), daemon=True)
            reader.start()
            deadline = time.monotonic() + rng.uniform(0.3, 3.0)
            killed = False
            watchdog = time.monotonic() + 120
            while proc.poll() is None:
                if not die_at and time.monotonic() > deadline:
                    proc.send_signal(signal.SIGKILL)
                    killed = True
                    break
                if time.monotonic() > watchdog:
                    proc.send_signal(signal.SIGKILL)
                    print(json.dumps({"error": "a worker made no progress for 2 minutes", "last": acked[-1:]}))
                    return 1
                time.sleep(0.005)
            proc.wait()
            reader.join()
            # a line is acknowledged only once it is whole (the worker flushes after each one)
            acked += [json.loads(line) for line in lines if line.endswith(b"\n")]
            kills += killed
            boundary_deaths += proc.returncode == 9
            if proc.returncode == 0:
                break
            if proc.returncode == 3:
                print(json.dumps({"error": "the worker found a game it could not continue", "last": acked[-1:]}))
                return 1
            if proc.returncode not in (9, -signal.SIGKILL):
                print(json.dumps({"error": f"worker exited with {proc.returncode}"}))
                return 1
        figures = _check(db, acked)
    figures |= {
        "bench": "crash_soak",
        "games": args.games,
        "worker_runs": runs,
        "sigkills": kills,
        "deaths_at_a_write_boundary": boundary_deaths,
        "acknowledged": len(acked),
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(figures))
    return 0 if not (figures["lost_acknowledged"] or figures["stuck_games"] or figures["corrupt_games"]) else 1


if __name__ == "__main__":
    sys.exit(main())
