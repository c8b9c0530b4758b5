"""Frozen dataclasses returned by the store.

Fields named ``options``, ``result``, ``state``, ``choice`` hold opaque JSON strings: the store never
parses them. Field order matches the SELECT column order used in ``store.sqlite``.
"""

from __future__ import annotations

from dataclasses import dataclass

GAME_STATUSES: tuple[str, ...] = ("lobby", "active", "finished", "abandoned")


@dataclass(frozen=True, slots=True)
class GameRow:
    """One hosted game."""

    id: int
    game: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    options: str
    seed: int
    version: int
    created_at: float
    updated_at: float
    last_move_at: float | None
    result: str | None


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A player's seat; ``seat`` is 0-based join order."""

    game_id: int
    seat: int
    user_id: int
    name: str
    dm_blocked: bool
    private_thread_id: int | None


@dataclass(frozen=True, slots=True)
class ChoiceRow:
    """One entry of the append-only choice record; ``actor_id`` is None for the bot/timer."""

    game_id: int
    idx: int
    choice: str
    created_at: float
    actor_id: int | None


@dataclass(frozen=True, slots=True)
class MessageRow:
    """A Discord message owned by a game (board, lobby, per-seat private message...)."""

    game_id: int
    kind: str
    key: str
    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class ReminderRow:
    """A pending reminder; ``count`` is how many were already sent."""

    game_id: int
    user_id: int
    kind: str
    due_at: float
    count: int


@dataclass(frozen=True, slots=True)
class ClaimRow:
    """A seat's claim in a real-time race; the earliest ``ts_ms`` wins."""

    game_id: int
    version: int
    seat: int
    choice: str
    ts_ms: int
    received_at: float


@dataclass(frozen=True, slots=True)
class RaceRow:
    """An open real-time race window for a game at ``version``."""

    game_id: int
    version: int
    deadline: float
