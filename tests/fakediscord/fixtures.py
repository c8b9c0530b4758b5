"""The fake's async context managers (moved to :mod:`fakediscord.fixtures`) and the pytest fixture.

Pytest fixtures defined here are only visible where they are imported (there is no
conftest.py), e.g. ``from tests.fakediscord.fixtures import fake_discord  # noqa: F401``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from fakediscord.fixtures import ClientT, _shutdown, fake_server, running_bot
from fakediscord.server import FakeDiscordServer

__all__ = ["ClientT", "_shutdown", "fake_discord", "fake_server", "running_bot"]


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscordServer]:
    """Pytest fixture: a started fake Discord that discord.py points at (no bot)."""
    async with fake_server() as server:
        yield server
