"""``python -m store.ratings --rebuild [--db TARGET]`` (issue 26): every rating computed again from the rated
games, in the order they finished; the ratings themselves are ``store.rated``."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence

from .errors import StoreError
from .postgres import describe
from .rated import GLOBAL, MODEL, new_ratings, ordinal
from .store import Store

__all__ = ["GLOBAL", "MODEL", "main", "new_ratings", "ordinal"]


async def _rebuild(target: str) -> int:
    """Open ``target``, rebuild every rating, print what was done; the exit status."""
    try:
        async with await Store.open(target) as store:
            before = {r.ladder for r in await store.ratings_of_any()}
            counted = await store.rebuild_ratings()
            after = await store.ratings_of_any()
    except (StoreError, OSError) as exc:
        print(f"store.ratings: {exc}", file=sys.stderr)
        return 2
    ladders = sorted(before | {r.ladder for r in after})
    print(
        f"{describe(target)}: rebuilt {len(after)} ratings from {counted} rated games ({', '.join(ladders) or 'none'})"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m store.ratings --rebuild [--db TARGET]``: every rating computed again from the rated games, in
    the order they finished (the database of ``SPEAKEASY_DB``, or the bot's default file, unless ``--db``)."""
    parser = argparse.ArgumentParser(prog="python -m store.ratings", description=main.__doc__)
    parser.add_argument("--rebuild", action="store_true", help="compute every rating again from the rated games")
    parser.add_argument("--db", default=os.environ.get("SPEAKEASY_DB") or "speakeasy.sqlite3")
    args = parser.parse_args(argv)
    if not args.rebuild:
        parser.print_help()
        return 2
    return asyncio.run(_rebuild(args.db))


if __name__ == "__main__":
    sys.exit(main())
