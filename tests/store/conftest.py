"""Shared fixtures for the store tests: each test that takes ``store`` or ``db_target`` runs on SQLite and on
PostgreSQL (see ``tests/backends.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from store import Store
from tests.backends import Targets


@pytest.fixture
async def store(backend: str, targets: Targets) -> AsyncIterator[Store]:
    """A fresh store: in memory on SQLite, in a schema of its own on PostgreSQL."""
    s = await Store.open(":memory:" if backend == "sqlite" else targets.new())
    yield s
    await s.close()


@pytest.fixture
def db_target(targets: Targets) -> str:
    """A database that does not exist yet, which several stores may open: a SQLite file or a PostgreSQL schema."""
    return targets.new()


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    """Path of a not-yet-existing database file."""
    return str(tmp_path / "table.db")


async def make_game(s: Store, *, guild_id: int = 10, channel_id: int = 20, now: float = 100.0) -> int:
    """Create a lobby game with default fields."""
    return await s.create_game(
        game="omerta",
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=1,
        options_json='{"players": 4}',
        seed=42,
        now=now,
    )


async def make_active_game(s: Store, now: float = 100.0) -> int:
    """Create a game, seat two players and start it with snapshot ``"s0"``."""
    game_id = await make_game(s, now=now)
    await s.add_seat(game_id, 1, "Alice")
    await s.add_seat(game_id, 2, "Bob")
    assert await s.start_game(game_id, '"s0"', now)
    return game_id
