"""Pictures uploaded and messages posted in one complete 4-player Speakeasy game through the fake Discord
(issue "The channel tells the story": target at most 15 MB of pictures a game).

    python -m bench.uploads_speakeasy [--players 4] [--seeds 1 2 3]

Each game is dealt from a fixed seed (``--seeds``, one game each; the figures are their mean), so a change is
measured on the same games.

The scripted players answer every question through the board (or "My options"), as in the end-to-end tests.
Prints one JSON line: megabytes of files uploaded, messages posted and edited, and how many of them pinged.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
from pathlib import Path
from unittest import mock

from tests.cogs.driver import Driver, play_speakeasy, table
from tests.fakediscord import payloads as p

PLAYERS = [p.ANNA, p.BEN, p.CLEO, p.DAN]


async def measure(players: int, seed: int) -> dict[str, object]:
    """Play one complete game dealt from ``seed`` and count what went to Discord."""
    with tempfile.TemporaryDirectory() as tmp, mock.patch("service.lobby.secrets.randbits", lambda _bits: seed):
        async with table(Path(tmp)) as (server, bot, clock):
            d = Driver(server, bot, clock, PLAYERS[:players])
            await d.open_and_start(game="speakeasy")
            await play_speakeasy(d)
            uploads = sum(len(data) for r in server.requests for data in r.files.values())
            posts = [
                r for r in server.requests if r.method == "POST" and "/messages" in r.path and "/channels/" in r.path
            ]
            edits = [r for r in server.requests if r.method == "PATCH" and "/messages/" in r.path]
            pinged = [
                r for r in posts if isinstance(r.json, dict) and (r.json.get("allowed_mentions") or {}).get("users")
            ]
            choices = len(await bot.service.store.get_choices(d.gid))
    return {
        "bench": "uploads_speakeasy",
        "players": players,
        "seed": seed,
        "choices": choices,
        "picture_mb": round(uploads / 1e6, 2),
        "target_mb": 15,
        "messages_posted": len(posts),
        "messages_edited": len(edits),
        "posts_that_ping": len(pinged),
    }


def main() -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args()
    games = [asyncio.run(measure(args.players, seed)) for seed in args.seeds]
    for game in games:
        print(json.dumps(game))
    mean = round(statistics.mean(float(g["picture_mb"]) for g in games), 2)  # type: ignore[arg-type]
    print(
        json.dumps(
            {
                "bench": "uploads_speakeasy",
                "players": args.players,
                "games": len(games),
                "picture_mb": mean,
                "max_mb": max(float(g["picture_mb"]) for g in games),
                "target_mb": 15,
            }
        )
    )


if __name__ == "__main__":
    main()
