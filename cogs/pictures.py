"""Which picture and words each game's table shows (render functions run off the event loop: in a pool of worker
processes, or in a thread)."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from render import omerta as omerta_render
from render import omerta_text, speakeasy_final_text, speakeasy_text
from render import speakeasy as speakeasy_render

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GamePictures:
    """A game's renderers: the table picture, extra pictures per event kind, and the words."""

    table: Callable[[dict[str, Any]], bytes]
    on_event: dict[str, tuple[str, Callable[[dict[str, Any]], bytes], Callable[[dict[str, Any]], str]]]
    headline: Callable[[dict[str, Any]], str]
    summary: Callable[[dict[str, Any]], str]
    private_note: Callable[[dict[str, Any]], str]
    #: the standing private screen (e.g. Speakeasy's safe screen) from a seat's own view; None: no screen
    screen: Callable[[dict[str, Any]], str] | None = None
    #: one player's board on demand, from the asker's view (their own board shows their private things)
    player_board: Callable[[dict[str, Any], int], bytes] | None = None
    #: what each kind of private question is about, in public words (the board shows it instead)
    private_questions: dict[str, str] = field(default_factory=dict)
    #: the public pictures as (file name, PNG), given the marks of the last ones posted (None: none known), posted
    #: instead of ``table`` when set
    pictures: Callable[[dict[str, Any], list[str] | None], list[tuple[str, bytes]]] | None = None
    #: the marks of a public view: kept with the posted message, so the next pictures outline what changed since
    marks: Callable[[dict[str, Any]], list[str]] | None = None


PICTURES: dict[str, GamePictures] = {
    "omerta": GamePictures(
        table=omerta_render.render_table,
        on_event={"reveal": ("reveal.png", omerta_render.render_reveal, omerta_text.reveal_summary)},
        headline=omerta_text.headline,
        summary=omerta_text.summary,
        private_note=omerta_text.private_note,
        private_questions=omerta_text.PRIVATE_QUESTIONS,
        # the table picture outlines what changed since the last one posted (as Speakeasy's)
        pictures=omerta_render.render_pictures,
        marks=omerta_render.marks,
    ),
    "speakeasy": GamePictures(
        table=speakeasy_render.render_board,
        # the final message (issue 11): standings, ties and money by source, as a picture and in words
        on_event={"final": ("final.png", speakeasy_render.render_final, speakeasy_final_text.final_message)},
        headline=speakeasy_text.headline,
        summary=speakeasy_text.summary,
        private_note=speakeasy_text.private_note,
        screen=speakeasy_text.private_note,
        player_board=speakeasy_render.render_player_board,
        private_questions=speakeasy_text.PRIVATE_QUESTIONS,
        pictures=speakeasy_render.render_pictures,
        marks=speakeasy_render.marks,
    ),
}


class Renderer:
    """Renders pictures off the event loop: in ``workers`` worker processes (so one bot process can use every
    core), or in a thread when ``workers`` is 0. A worker that dies is replaced and the picture retried once."""

    def __init__(self, workers: int) -> None:
        if workers < 0:
            raise ValueError(f"the number of render workers must be 0 or more, not {workers}")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        #: pools replaced after a worker died (for the log and the tests)
        self.replaced = 0

    def _live_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: forking a process that runs an event loop and threads can copy held locks
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
        return self._pool

    async def render(self, fn: Callable[..., bytes], view: dict[str, Any], *args: Any) -> bytes:
        """``fn(view, *args)``, off the event loop: PNG encoding would otherwise stall heartbeats and acks."""
        if self.workers == 0:
            return await asyncio.to_thread(fn, view, *args)
        loop = asyncio.get_running_loop()
        pool = self._live_pool()
        try:
            return await loop.run_in_executor(pool, fn, view, *args)
        except BrokenProcessPool:
            # a worker died (killed, out of memory): the whole pool is unusable; a fresh one gets one more try
            self._replace(pool)
            return await loop.run_in_executor(self._live_pool(), fn, view, *args)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        if self._pool is broken:  # several renders may fail at once: replace the pool only once
            log.warning("a render worker died; starting a new pool and trying the picture once more")
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self.replaced += 1

    def close(self) -> None:
        """Stop the workers (renders still running are abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
