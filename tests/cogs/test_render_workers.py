"""Pictures render in a pool of worker processes; a worker that dies is replaced and the picture retried once."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from cogs.pictures import Renderer


def slow_first_attempt(view: dict[str, Any]) -> bytes:
    """A render that marks each attempt with its worker's pid; the first attempt hangs (to be killed)."""
    folder = Path(view["dir"])
    attempt = len(list(folder.iterdir())) + 1
    (folder / f"{attempt}.pid").write_text(str(os.getpid()))
    if attempt == 1:
        time.sleep(60)
    return f"picture from attempt {attempt} in {os.getpid()}".encode()


def always_dies(view: dict[str, Any]) -> bytes:
    """A render whose worker dies every time."""
    Path(view["dir"], f"{time.monotonic_ns()}.pid").write_text(str(os.getpid()))
    os._exit(1)


async def _first_pid(folder: Path) -> int:
    for _ in range(600):  # a spawned worker imports the project first: allow it some seconds
        marker = folder / "1.pid"
        if marker.exists() and marker.read_text():
            return int(marker.read_text())
        await asyncio.sleep(0.02)
    raise AssertionError("the render never started in a worker")


async def test_killed_worker_is_replaced_and_the_picture_retried(tmp_path: Path) -> None:
    renderer = Renderer(1)
    try:
        job = asyncio.create_task(renderer.render(slow_first_attempt, {"dir": str(tmp_path)}))
        pid = await _first_pid(tmp_path)
        assert pid != os.getpid()  # it runs in another process, not in a thread of this one
        os.kill(pid, signal.SIGKILL)
        png = await asyncio.wait_for(job, 60)
        assert png.startswith(b"picture from attempt 2 in ")
        assert int(png.rsplit(b" ", 1)[1]) not in (pid, os.getpid())  # a new worker drew it
        assert renderer.replaced == 1
        # the new pool keeps serving
        assert (await renderer.render(slow_first_attempt, {"dir": str(tmp_path)})).startswith(b"picture from attempt 3")
    finally:
        renderer.close()


async def test_a_picture_is_retried_only_once(tmp_path: Path) -> None:
    renderer = Renderer(1)
    try:
        with pytest.raises(BrokenProcessPool):
            await asyncio.wait_for(renderer.render(always_dies, {"dir": str(tmp_path)}), 60)
        assert len(list(tmp_path.iterdir())) == 2  # the first try and one retry, no more
    finally:
        renderer.close()


async def test_no_workers_renders_in_a_thread(tmp_path: Path) -> None:
    renderer = Renderer(0)
    (tmp_path / "0.pid").write_text("")  # the first attempt must not hang: pretend one happened
    png = await renderer.render(slow_first_attempt, {"dir": str(tmp_path)})
    assert png == f"picture from attempt 2 in {os.getpid()}".encode()


def test_negative_worker_count_is_refused() -> None:
    with pytest.raises(ValueError, match="0 or more"):
        Renderer(-1)


async def test_a_worker_draws_the_same_board_as_a_thread() -> None:
    from engine.omerta import OmertaGame
    from render import omerta

    game = OmertaGame()
    view = game.view(game.new(["Anna", "Ben", "Cleo"], {}, seed=3), None)
    pool, thread = Renderer(1), Renderer(0)
    try:
        assert await pool.render(omerta.render_table, view) == await thread.render(omerta.render_table, view)
    finally:
        pool.close()
