"""Snowflakes and timestamps: Discord's ids and the times they encode."""

from __future__ import annotations

import datetime as _dt
from typing import Any

JSON = dict[str, Any]

#: Discord's epoch (2015-01-01T00:00:00Z) in Unix milliseconds.
DISCORD_EPOCH_MS = 1420070400000

# ---------------------------------------------------------------------------
# Snowflakes and timestamps
# ---------------------------------------------------------------------------


def snowflake(ms_since_epoch: int, increment: int = 0, *, worker: int = 0, process: int = 0) -> int:
    """Build a Discord snowflake whose timestamp part is ``ms_since_epoch``.

    ``ms_since_epoch`` is Unix time in milliseconds (the Unix epoch, not Discord's).  The
    result satisfies ``(id >> 22) + DISCORD_EPOCH_MS == ms_since_epoch``.  ``increment``
    (0..4095), ``worker`` and ``process`` (0..31) fill the low bits so several ids can share
    a millisecond.
    """
    if ms_since_epoch < DISCORD_EPOCH_MS:
        raise ValueError(f"timestamp {ms_since_epoch} is before the Discord epoch")
    if not (0 <= increment < 4096 and 0 <= worker < 32 and 0 <= process < 32):
        raise ValueError("increment must be < 4096, worker and process < 32")
    return ((ms_since_epoch - DISCORD_EPOCH_MS) << 22) | (worker << 17) | (process << 12) | increment


def snowflake_ms(snowflake_id: int | str) -> int:
    """Return the Unix-millisecond timestamp encoded in a snowflake id."""
    return (int(snowflake_id) >> 22) + DISCORD_EPOCH_MS


def iso_timestamp(ms_since_epoch: int) -> str:
    """Format Unix milliseconds as the ISO-8601 string Discord uses (``+00:00`` offset)."""
    moment = _dt.datetime.fromtimestamp(ms_since_epoch / 1000, tz=_dt.UTC)
    return moment.isoformat(timespec="microseconds")


def snowflake_timestamp(snowflake_id: int | str) -> str:
    """ISO-8601 creation time of a snowflake, as used in message ``timestamp`` fields."""
    return iso_timestamp(snowflake_ms(snowflake_id))


_BASE_MS = 1577836800000  # 2020-01-01T00:00:00Z: when the fixed cast below was "created"


def _fixed_id(n: int) -> int:
    return snowflake(_BASE_MS + n * 60_000)
