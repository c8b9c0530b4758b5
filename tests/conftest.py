"""Fixtures every test folder may use: the databases the store runs on (see ``tests/backends.py``)."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from store import Store
from store.postgres import is_postgres
from store.sqlite import MEMORY
from tests.backends import BACKENDS, Targets, drop_schema, probe_server, targets_fixture, with_schema


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests (marked ``slow``) first, in their order, then the rest: with ``--dist worksteal`` (the
    project's default) the workers then end together, not one waiting for the other's last long test."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


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


@pytest.fixture(autouse=True)
def _every_store_on(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``SPEAKEASY_TEST_BACKEND=postgres`` runs any test folder on PostgreSQL: every ``Store.open`` of a SQLite
    path opens a schema of its own instead (the same path: the same schema, so a "restart" finds its data;
    ``":memory:"``: a fresh one each time), dropped when the test ends. Tests that choose their backends
    themselves (the store tests, any test with the ``backend`` fixture) are left alone."""
    chooses = request.path.parent.name == "store" or "backend" in request.fixturenames
    if os.environ.get("SPEAKEASY_TEST_BACKEND", "sqlite") != "postgres" or chooses:
        yield
        return
    server = request.getfixturevalue("postgres_server")
    schemas: dict[str, str] = {}
    made: list[str] = []
    original = Store.open.__func__  # type: ignore[attr-defined]

    async def open_on_postgres(cls: type[Store], target: str | Path, **kw: Any) -> Store:
        name = str(target)
        if not is_postgres(name):
            if name == MEMORY or name not in schemas:
                made.append(with_schema(server, f"t_{uuid.uuid4().hex[:16]}"))
                schemas[name] = made[-1]
            name = schemas[name]
        return await original(cls, name, **kw)

    monkeypatch.setattr(Store, "open", classmethod(open_on_postgres))
    yield
    if made:  # a synchronous teardown runs outside the test's event loop
        asyncio.run(_drop_all(made))


async def _drop_all(targets: list[str]) -> None:
    for target in targets:
        await drop_schema(target)
