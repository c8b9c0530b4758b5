"""Bench: the bot process's memory while it hosts 10,000 games, opened and finished one after another (issue 22).

    python -m bench.memory_games [--games 10000] [--every 1000]

The real bot runs in a process of its own (``python -m bench.memory_games --bot``: ``bot.py``'s ``main`` with
tracemalloc started first), against the fake Discord in this process, on SQLite in a temporary folder, pictures
drawn in a thread of its own process (``SPEAKEASY_RENDER_WORKERS=0``, so they count), every other setting at its
default. Each game is played as players play it, by slash commands and clicks only: Anna opens an Omerta table
(``rounds=1 pace=post``) in #general, which opens a thread for it; Ben joins on the lobby's button and Anna seats
an easy bot on it; Anna starts it; everyone peeks (the players on the board, their cards by DM; the bot in its own
task); the bot plays its turns if it comes first; the first player whose turn it is asks ``/hint`` (a bot's search,
or, within half a minute of their last one, the cooldown's refusal) and calls OMERTA, confirmed; the round is
scored and the game is finished (final board, scoring picture, everyone pinged). Then Dan, who is not seated, asks
``/game status`` twice: the first reposts the final board with a fresh picture, the second is refused by the
once-a-minute limit and links it. A game is short, but it passes every place that keeps something per game or per
user: the service's and the publisher's locks, the bots' tasks, the outbox, the board and lobby messages, DMs,
threads, the cooldowns, and the end of a game. (Finishing, not abandoning: the end of a game is where the
publisher forgets a game.)

Every ``--every`` games (and after the first), once the bot has posted everything, the bot process is asked
(SIGUSR1) for its memory after a garbage collection: its resident set (RSS, from ``/proc``) and the size
tracemalloc traces (Python's own allocations). One JSON line each, then a summary line: the growth from the
first report at ``--every`` games to the last, in all and per 1,000 games.

What is not the bot's: the fake Discord keeps every message, picture and request it receives; this process drops
them after each game. A finished game's thread is archived, as Discord does after a week without a post, and
discord.py then drops it from its cache (as it does on Discord).

The figures of a run of 10,000 games are in ``docs/table.md`` ("Limits on spam, and memory").
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REPORT_ENV = "BENCH_MEMORY_REPORT"
#: with ``--top N``: the N places whose traced memory grew most between two reports, with this many frames each
TOP_ENV = "BENCH_MEMORY_TOP"
FRAMES = 12


# --- the bot's process ------------------------------------------------------------------------------------------


def rss_kib() -> int:
    """This process's resident set now (KiB), from ``/proc/self/status``."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def bot_process() -> int:
    """``bot.py``'s ``main``, with tracemalloc on from the start and a SIGUSR1 handler that appends this process's
    memory to the report file."""
    top = int(os.environ.get(TOP_ENV, "0"))
    tracemalloc.start(FRAMES if top else 1)
    report = Path(os.environ[REPORT_ENV])
    last: list[tracemalloc.Snapshot] = []

    def measure(signum: int, frame: Any) -> None:
        gc.collect()
        traced, peak = tracemalloc.get_traced_memory()
        line: dict[str, Any] = {"rss_kib": rss_kib(), "traced_kib": traced // 1024, "traced_peak_kib": peak // 1024}
        if top:  # where the traced memory grew since the last report (to find what keeps growing)
            snap = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
            if last:
                diff = snap.compare_to(last[0], "traceback")[:top]
                line["grew"] = [[s.size_diff // 1024, s.count_diff, s.traceback.format()[-20:]] for s in diff]
            last[:] = [snap]
        with report.open("a") as out:
            out.write(json.dumps(line) + "\n")

    signal.signal(signal.SIGUSR1, measure)
    sys.argv = [str(ROOT / "bot.py")]
    import bot

    return bot.main()


# --- the players' side ------------------------------------------------------------------------------------------


class Bot:
    """The bot process, started against the fake Discord."""

    def __init__(self, folder: Path, fake_url: str, top: int = 0) -> None:
        self.folder = folder
        self.db = folder / "bench.sqlite3"
        self.report = folder / "memory.jsonl"
        self.log_path = folder / "bot.log"
        env = {
            "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": "fake-token",
            "FAKE_DISCORD_URL": fake_url,
            "SPEAKEASY_DB": str(self.db),
            "SPEAKEASY_RENDER_WORKERS": "0",
            REPORT_ENV: str(self.report),
            TOP_ENV: str(top),
        }
        with self.log_path.open("wb") as log:
            # cwd: an empty folder, so no developer's .env is read
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bench.memory_games", "--bot"],
                cwd=folder,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def log(self) -> str:
        """What the bot logged."""
        return self.log_path.read_text(errors="replace")

    async def ready(self, timeout: float = 60.0) -> None:
        """Wait until the bot says it is ready."""
        deadline = time.monotonic() + timeout
        while "ready: shards" not in self.log():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the bot did not start:\n{self.log()}")
            await asyncio.sleep(0.1)

    async def memory(self) -> dict[str, int]:
        """The bot's memory now (it answers SIGUSR1 with one line in the report file)."""
        seen = len(self.report.read_text().splitlines()) if self.report.exists() else 0
        self.proc.send_signal(signal.SIGUSR1)
        for _ in range(3000):  # a snapshot of deep traces (--top) takes seconds
            await asyncio.sleep(0.02)
            if self.report.exists() and len(lines := self.report.read_text().splitlines()) > seen:
                return dict(json.loads(lines[-1]))
        raise SystemExit(f"the bot did not report its memory:\n{self.log()[-3000:]}")

    def errors(self) -> list[str]:
        """Lines the bot logged at ERROR (or tracebacks)."""
        return [ln for ln in self.log().splitlines() if " ERROR " in ln or ln.startswith("Traceback")]

    def stop(self) -> None:
        """A clean stop (SIGINT), a kill if it hangs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def forget(server: Any, threads: list[int]) -> None:
    """Drop what the fake Discord keeps of a game that is over (its memory is this process's, not the bot's)."""
    server.requests.clear()
    server.unhandled.clear()
    server.gateway_log.clear()
    server.attachment_data.clear()
    server.deleted_messages.clear()
    server.messages.clear()
    server.interactions.clear()
    server._by_token.clear()
    server._nonces.clear()
    for tid in threads:
        server.channels.pop(tid, None)
        server.thread_members.pop(tid, None)


async def open_table(d: Any, server: Any) -> int:
    """Anna opens the table, Ben joins and Anna seats an easy bot, both on the lobby's buttons and commands, and
    Anna starts it."""
    from tests.cogs.driver import ids_of
    from tests.fakediscord import payloads as p

    rec = await server.slash(
        p.ANNA, "game new", {"game": "omerta", "options": "rounds=1 pace=post"}, channel_id=d.channel
    )
    await rec.wait_followups(1, timeout=30)

    def lobby_posted() -> bool:
        last = server.last_message(d.channel)
        return last is not None and any(i.startswith("lb|") for i in ids_of(last))

    await server.wait_until(lobby_posted, 30, what="the lobby message")
    lobby = server.last_message(d.channel)
    d.gid = int(next(i for i in ids_of(lobby) if i.startswith("lb|")).split("|")[1])
    for user, command in ((p.BEN, "join"), (p.ANNA, "addbot"), (p.ANNA, "start")):
        click = await server.click(user, lobby["id"], f"lb|{d.gid}|{command}")
        await click.wait_followups(1, timeout=30)
    await d.settle()
    d.where = (await d.load()).row.table_channel
    return d.gid


async def one_game(d: Any, server: Any, watcher: dict[str, Any]) -> None:
    """Open, play and finish one short Omerta game (Anna, Ben and a bot; the player whose turn it is asks for a hint,
    then calls OMERTA); then ``/game status`` twice by someone not seated."""
    from tests.cogs.driver import answer

    gid = await open_table(d, server)
    for _ in range(2000):
        await d.settle()
        table = await d.load()
        if table.row.status != "active":
            break
        humans = [pr for pr in table.prompts() if pr.seat in (0, 1) and not pr.optional]
        if not humans:  # the bot is thinking (in its own task)
            await asyncio.sleep(0.02)
            continue
        pr = humans[0]
        if pr.kind != "turn":
            await answer(d, pr.seat, pr.kind, pr.options[0].id, pr.secret)
            continue
        hint = await server.slash(d.user_of_seat(pr.seat), "hint", {}, channel_id=d.where)
        (said,) = await hint.wait_followups(1, timeout=30)
        if not said["content"].startswith(("Hint: ", "You asked for a hint less than")):
            raise SystemExit(f"/hint in game {gid}: {said['content']!r}")
        rec = await d.click_board(pr.seat, "turn", "omerta")
        await d.done(await d.confirm(rec, pr.seat), table.version)
    else:
        raise SystemExit(f"game {gid} did not end")
    if table.row.status != "finished":
        raise SystemExit(f"game {gid} did not finish: {table.row.status}")
    for expect in ("Board posted", "It can be posted again"):
        rec = await server.slash(watcher, "game status", {"game": gid}, channel_id=d.where)
        (reply,) = await rec.wait_followups(1, timeout=30)
        if expect not in reply["content"]:
            raise SystemExit(f"/game status in game {gid}: {reply['content']!r}")
    await d.settle()
    if d.where != d.channel:
        await server.archive_thread(d.where)  # as Discord does after a week without posts


async def measure(games: int, every: int, top: int = 0, keep: Path | None = None) -> list[dict[str, Any]]:
    """Play ``games`` games, reporting the bot's memory after the first and every ``every`` (``top``: and the
    places that grew most; ``keep``: the folder for the database and the bot's log, kept afterwards)."""
    from engine.registry import GAMES
    from service import Settings, TableService
    from store import Store
    from tests.cogs.driver import Driver
    from tests.fakediscord import payloads as p
    from tests.fakediscord.fixtures import fake_server

    lines: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) if keep is None else keep
        folder.mkdir(parents=True, exist_ok=True)
        async with fake_server(heartbeat_interval_ms=30_000, default_timeout=30.0) as server:
            bot = Bot(folder, server.base_url, top)
            reader: Store | None = None
            try:
                await bot.ready()
                # the players read the game (to know what to click) on a connection of their own; they never write
                reader = await Store.open(bot.db)
                looker = SimpleNamespace(service=TableService(reader, Settings(), games=GAMES))
                start = time.monotonic()
                for n in range(1, games + 1):
                    d = Driver(server, looker, None, [p.ANNA, p.BEN])  # type: ignore[arg-type]
                    await one_game(d, server, p.DAN)
                    forget(server, [d.where] if d.where != d.channel else [])
                    if n == 1 or n % every == 0:
                        await asyncio.sleep(0.5)  # the bot's last tasks of the game end
                        line = {"games": n, **await bot.memory(), "s": round(time.monotonic() - start, 1)}
                        lines.append(line)
                        print(json.dumps({"bench": "memory_games", **line}), flush=True)
                errors = bot.errors()
                if errors:
                    raise SystemExit("the bot logged errors:\n" + "\n".join(errors[:20]))
            finally:
                if reader is not None:
                    await reader.close()
                bot.stop()
    return lines


def summary(lines: list[dict[str, Any]], every: int) -> dict[str, Any]:
    """The growth from the first report at ``every`` games to the last, in all and per 1,000 games."""
    base = next((ln for ln in lines if ln["games"] >= every), lines[0])
    last = lines[-1]
    span = max(last["games"] - base["games"], 1)
    out: dict[str, Any] = {"bench": "memory_games", "games": last["games"], "from": base["games"]}
    for key in ("rss_kib", "traced_kib"):
        grew = last[key] - base[key]
        out[f"{key}_growth"] = grew
        out[f"{key}_per_1000_games"] = round(grew * 1000 / span, 1)
    out["s_per_game"] = round(last["s"] / last["games"], 3)
    return out


def main() -> int:
    """Run the bench (or, with ``--bot``, be the bot's process)."""
    if "--bot" in sys.argv[1:]:
        return bot_process()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=1_000)
    parser.add_argument("--top", type=int, default=0, help="show the N places that grew most (slower: deep traces)")
    parser.add_argument("--keep", type=Path, help="keep the database and the bot's log in this folder")
    args = parser.parse_args()
    lines = asyncio.run(measure(args.games, args.every, args.top, args.keep))
    print(json.dumps(summary(lines, args.every)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
