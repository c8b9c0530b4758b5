"""Pictures uploaded and messages posted in one complete 4-player Speakeasy game through the fake Discord
(issue "The channel tells the story": target at most 15 MB of pictures a game).

    python -m bench.uploads_speakeasy [--seed-players 4]

The scripted players answer every question through the board (or "My options"), as in the end-to-end tests.
Prints one JSON line: megabytes of files uploaded, messages posted and edited, and how many of them pinged.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path

from tests.cogs.driver import Driver, play_speakeasy, table
from tests.fakediscord import payloads as p

PLAYERS = [p.ANNA, p.BEN, p.CLEO, p.DAN]


async def measure(players: int) -> dict[str, object]:
    """Play one complete game and count what went to Discord."""
    with tempfile.TemporaryDirectory() as tmp:
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
        "choices": choices,
        "picture_mb": round(uploads / 1e6, 1),
        "target_mb": 15,
        "messages_posted": len(posts),
        "messages_edited": len(edits),
        "posts_that_ping": len(pinged),
    }


def main() -> None:
    """Print one JSON line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.players))))


if __name__ == "__main__":
    main()
