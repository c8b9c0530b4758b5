"""Issue 26's acceptance at full size: a server where 30 games of both titles were played through the fake
Discord (scripted people and seat bots), then its history, leaderboards and a profile as players read them, and
the ratings rebuilt from the history compared with the live ones.

    python -m bench.history_games [--omerta 20] [--solo 10]

Omerta tables seat Anna and Ben with a standard bot, Anna hosting and starting every other game for Ben; solo
Speakeasy games alternate Anna and Ben against Jo at difficulty 1 to 4. Every check is an assertion (a failure
stops the run); the run prints one JSON line with what was played and how long the reads took. The small version
of this runs in the suite (``tests/cogs/test_history.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from service.history import PER_PAGE
from service.ratings import identity_of
from store.rated import GLOBAL
from tests.cogs.driver import CHANNEL, Driver, ids_of, play_speakeasy, play_to_end, table
from tests.fakediscord import payloads as p


async def _said(rec) -> str:  # noqa: ANN001
    await rec.wait_callback()
    if rec.callback_type in (5, 6):
        return (await rec.wait_followups(1, timeout=60))[-1]["content"]
    return rec.message["content"]


async def _open(d: Driver, host: dict, others: list[dict], game: str, options: str, bots: int) -> int:
    """The host opens a table, the others join, the host seats ``bots`` standard bots and starts."""
    before = {int(i.split("|")[1]) for m in d.server.messages_in(CHANNEL) for i in ids_of(m) if i.startswith("lb|")}
    rec = await d.server.slash(host, "game new", {"game": game, "options": options}, channel_id=CHANNEL)
    await rec.wait_followups(1)

    def lobby() -> dict | None:
        last = d.server.last_message(CHANNEL)
        ids = [i for i in ids_of(last) if i.startswith("lb|")]
        return last if ids and int(ids[0].split("|")[1]) not in before else None

    await d.server.wait_until(lambda: lobby() is not None, 10, what="the lobby")
    message = lobby()
    assert message is not None
    d.gid = int(next(i for i in ids_of(message) if i.startswith("lb|")).split("|")[1])
    for user in others:
        await (await d.server.click(user, message["id"], f"lb|{d.gid}|join")).wait_followups(1)
    for _ in range(bots):
        assert "is seated" in await _said(
            await d.server.slash(host, "game addbot", {"game": d.gid}, channel_id=CHANNEL)
        )
    await (await d.server.click(host, message["id"], f"lb|{d.gid}|start")).wait_followups(1, timeout=120)
    await d.settle()
    d.where = (await d.load()).row.table_channel
    return d.gid


async def run(omerta: int, solo: int) -> dict[str, object]:
    """Play the games, check what the commands show; the figures."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        async with table(Path(tmp)) as (server, bot, clock):
            store = bot.service.store
            played: list[int] = []
            for n in range(omerta):
                host, other = (p.ANNA, p.BEN) if n % 2 == 0 else (p.BEN, p.ANNA)
                d = Driver(server, bot, clock, [host, other])
                played.append(await _open(d, host, [other], "omerta", "pace=live", 1))
                await play_to_end(d)
                clock.now += 600
            for n in range(solo):
                who = p.ANNA if n % 2 == 0 else p.BEN
                d = Driver(server, bot, clock, [who])
                played.append(await _open(d, who, [], "speakeasy", f"difficulty={1 + n % 4}", 0))
                await play_speakeasy(d, max_steps=3000)
                clock.now += 600
            for gid in played:
                assert (await bot.service.load(gid)).row.status == "finished", gid
            games_s = time.perf_counter() - started

            # the history: every game, newest first, a page at a time
            t0 = time.perf_counter()
            first = await _said(await server.slash(p.CLEO, "game history", {}, channel_id=CHANNEL))
            pages = -(-len(played) // PER_PAGE)
            assert f"page 1 of {pages} ({len(played)} games)" in first, first[:200]
            order = [int(line.split("#")[1].split(" ")[0]) for line in first.splitlines() if line.startswith("**[#")]
            assert order == sorted(played, reverse=True)[:PER_PAGE], order
            history_ms = (time.perf_counter() - t0) * 1000

            # the leaderboards: Omerta's counts every game of Anna, Ben and the bot; solo's has Jo at each difficulty
            t0 = time.perf_counter()
            board = await _said(await server.slash(p.CLEO, "leaderboard", {"game": "omerta"}, channel_id=CHANNEL))
            board_ms = (time.perf_counter() - t0) * 1000
            rows = {r.identity: r for r in await store.leaderboard("omerta", GLOBAL, 100)}
            anna, ben = identity_of(int(p.ANNA["id"])), identity_of(int(p.BEN["id"]))
            assert rows[anna].games == rows[ben].games == rows["bot:standard"].games == omerta
            assert f"<@{p.ANNA['id']}>" in board and "Bot (standard)" in board
            solo_rows = {r.identity for r in await store.leaderboard("speakeasy_solo", GLOBAL, 100)}
            if solo:
                assert {f"jo:{k}" for k in range(1, 1 + min(4, solo))} | {anna} <= solo_rows, solo_rows

            # a profile: Anna's games on both ladders
            t0 = time.perf_counter()
            profile = await _said(await server.slash(p.ANNA, "profile", {}, channel_id=CHANNEL))
            profile_ms = (time.perf_counter() - t0) * 1000
            assert f"{omerta} rated games ({omerta} counted)" in profile, profile
            assert "Speakeasy solo" in profile or not solo
            assert "**Speakeasy money by source**" in profile or not solo
            assert "**Omerta**: OMERTA called" in profile or not omerta

            # the rebuild from the history gives the live ratings
            live = await store.ratings_of_any()
            counted = await store.rebuild_ratings()
            assert counted == len(played) and await store.ratings_of_any() == live
    return {
        "bench": "history_games",
        "omerta_games": omerta,
        "solo_games": solo,
        "games_s": round(games_s, 1),
        "history_ms": round(history_ms, 1),
        "leaderboard_ms": round(board_ms, 1),
        "profile_ms": round(profile_ms, 1),
        "ratings": len(live),
        "rebuild_equal": True,
    }


def main() -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m bench.history_games")
    parser.add_argument("--omerta", type=int, default=20)
    parser.add_argument("--solo", type=int, default=10)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.omerta, args.solo))))


if __name__ == "__main__":
    main()
