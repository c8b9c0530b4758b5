"""Persistence layer: SQLite (WAL) via aiosqlite, versioned schema, opaque JSON game data.

Open with ``store = await Store.open(path)`` and ``await store.close()``, or
``async with await Store.open(path) as store: ...``.
"""

from .base import SimulatedCrash, WriteHook
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
from .record import Move
from .rows import (
    GAME_STATUSES,
    UNARMED,
    ChoiceRow,
    ClaimRow,
    EventRow,
    GameRow,
    MessageRow,
    OfferRow,
    OutboxRow,
    RaceRow,
    ReminderRow,
    SeatRow,
)
from .sqlite import Store

__all__ = [
    "GAME_STATUSES",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "AlreadySeated",
    "ChoiceRow",
    "ClaimRow",
    "EventRow",
    "GameNotFound",
    "GameRow",
    "InvalidStatus",
    "MessageRow",
    "Move",
    "OfferRow",
    "OutboxRow",
    "MigrationError",
    "NotInLobby",
    "RaceRow",
    "UNARMED",
    "ReminderRow",
    "SchemaTooNew",
    "SeatNotFound",
    "SeatRow",
    "SimulatedCrash",
    "Store",
    "StoreBusy",
    "StoreClosed",
    "StoreError",
    "WriteHook",
]
