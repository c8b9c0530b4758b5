"""Fixtures every test folder may use: the databases the store runs on (see ``tests/backends.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.backends import BACKENDS, Targets, probe_server, targets_fixture


@pytest.fixture(scope="session")
def postgres_server() -> str | None:
    """The PostgreSQL server's URL; skips (or fails under SPEAKEASY_REQUIRE_POSTGRES=1) when none answers."""
    return probe_server()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each test that asks for it runs once per backend: ``"sqlite"`` and ``"postgres"``."""
    if request.param == "postgres":
        request.getfixturevalue("postgres_server")
    return str(request.param)


@pytest.fixture
async def targets(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Targets]:
    """Fresh databases of the test's backend (PostgreSQL schemas are dropped when the test ends)."""
    server = request.getfixturevalue("postgres_server") if backend == "postgres" else None
    async for made in targets_fixture(backend, tmp_path, server):
        yield made
