"""Persistence layer: SQLite (WAL) via aiosqlite, versioned schema, opaque JSON game data.

Open with ``store = await Store.open(path)`` and ``await store.close()``, or
``async with await Store.open(path) as store: ...``.
"""

from .errors import (
    AlreadySeated,
    GameNotFound,
    InvalidStatus,
    MigrationError,
    NotInLobby,
    SchemaTooNew,
    SeatNotFound,
    StoreBusy,
    StoreClosed,
    StoreError,
)
from .migrations import MIGRATIONS, SCHEMA_VERSION
from .rows import GAME_STATUSES, ChoiceRow, ClaimRow, GameRow, MessageRow, RaceRow, ReminderRow, SeatRow
from .sqlite import Store

__all__ = [
    "GAME_STATUSES",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "AlreadySeated",
    "ChoiceRow",
    "ClaimRow",
    "GameNotFound",
    "GameRow",
    "InvalidStatus",
    "MessageRow",
    "MigrationError",
    "NotInLobby",
    "RaceRow",
    "ReminderRow",
    "SchemaTooNew",
    "SeatNotFound",
    "SeatRow",
    "Store",
    "StoreBusy",
    "StoreClosed",
    "StoreError",
]
