"""What every part of publishing uses: Discord's failures worth a retry, mentions, message nonces, and the words
of stored lines and events."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
from typing import Any

import aiohttp
import discord

from engine.msg import load
from store import EventRow, StoreBusy, StoreUnavailable
from words import words

# the package's logger: records keep the name they had before the package was split
log = logging.getLogger("cogs.publish")

#: Discord's error code for an action in an archived thread.
ARCHIVED = 50083
#: How long a delivery waits for another process delivering the same game (the project's own value; then it is
#: retried later like a failed one).
DELIVER_WAIT_S = 30.0
#: Failures of Discord (or of the way to it), and of the database (gone, or busy), after which a delivery is tried
#: again later: what is still to be posted stays in the store meanwhile.
TRANSIENT = (
    discord.HTTPException,
    discord.RateLimited,
    aiohttp.ClientError,
    OSError,
    asyncio.TimeoutError,
    StoreUnavailable,
    StoreBusy,
)


def mentions(user_ids: list[int]) -> discord.AllowedMentions:
    """Ping exactly these users, nobody else."""
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in user_ids])


def private_lines(body: dict[str, Any]) -> list[Any]:
    """The lines of an outbox entry: each as its message when the entry kept one (``msgs``), else its text (an
    entry written before messages were kept)."""
    lines = list(body.get("lines", []))
    msgs = list(body.get("msgs") or [])
    return [load(m) if i < len(msgs) and (m := msgs[i]) else line for i, line in enumerate(lines)]


def said_in(lang: str, rows: list[EventRow]) -> list[EventRow]:
    """Public events with their text in ``lang`` (each from the message its data keeps, else as stored), so the
    story of the board is told in the table's words."""
    w = words(lang)
    out = []
    for e in rows:
        text = w.stored(json.loads(e.data or "{}"), e.text)
        out.append(e if text == e.text else dataclasses.replace(e, text=text))
    return out


def message_nonce(*parts: Any) -> str:
    """A message nonce (at most 25 characters) that names one thing to post: Discord refuses a second
    message with the same nonce for a few minutes, so a retry after a crash does not post twice."""
    return "n" + hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()
