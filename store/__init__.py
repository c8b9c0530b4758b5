"""Persistence layer: SQLite (WAL, aiosqlite) or PostgreSQL (asyncpg), one versioned schema, opaque JSON game
data.

Open with ``store = await Store.open(target)`` (a SQLite path or a ``postgresql://`` URL) and
``await store.close()``, or ``async with await Store.open(target) as store: ...``.
"""

from .base import SimulatedCrash, WriteHook
from .errors import (
    AlreadySeated,
    BadValue,
    Conflict,
    GameNotFound,
    InvalidStatus,
    MigrationError,
    NotInLobby,
    OutcomeUnknown,
    SchemaTooNew,
    SeatNotFound,
    StoreBusy,
    StoreClosed,
    StoreError,
    StoreUnavailable,
    TooManyOpen,
)
from .migrations import MIGRATIONS, SCHEMA_VERSION, Migration
from .overview import SeatedRow
from .people import NOTIFY, PersonRow
from .rated import RatedGame
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
    RatedGameRow,
    RatingRow,
    ReminderRow,
    SeatRow,
)
from .store import Store

__all__ = [
    "GAME_STATUSES",
    "MIGRATIONS",
    "NOTIFY",
    "SCHEMA_VERSION",
    "AlreadySeated",
    "BadValue",
    "ChoiceRow",
    "ClaimRow",
    "Conflict",
    "EventRow",
    "GameNotFound",
    "GameRow",
    "InvalidStatus",
    "MessageRow",
    "Migration",
    "Move",
    "OfferRow",
    "OutboxRow",
    "PersonRow",
    "MigrationError",
    "NotInLobby",
    "OutcomeUnknown",
    "RaceRow",
    "RatedGame",
    "RatedGameRow",
    "RatingRow",
    "UNARMED",
    "ReminderRow",
    "SchemaTooNew",
    "SeatNotFound",
    "SeatedRow",
    "SeatRow",
    "SimulatedCrash",
    "Store",
    "StoreBusy",
    "StoreClosed",
    "StoreError",
    "StoreUnavailable",
    "TooManyOpen",
    "WriteHook",
]
