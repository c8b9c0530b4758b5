"""Waiting for the bot: conditions re-checked on every request and gateway frame, request lookups, and the
bot's health (its task, the errors it logged)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import BotCrashed, BotLoggedError, FakeDiscordTimeout
from .records import RecordedRequest

if TYPE_CHECKING:
    from .core import FakeDiscordServer


T = TypeVar("T")


class _ErrorLogCollector(logging.Handler):
    def __init__(self, server: FakeDiscordServer) -> None:
        super().__init__(logging.ERROR)
        self._server = server

    def emit(self, record: logging.LogRecord) -> None:
        self._server._on_error_log(record)


class WaitingMixin:
    """Request lookups, waits, and the bot's health.

    It is a mixin of :class:`~fakediscord.server.FakeDiscordServer`: it uses the state that class's
    ``__init__`` sets up (``requests``, ``unhandled``, ``error_logs``, ``_reported_errors``,
    ``raise_on_error_logs``, ``default_timeout``, ``_watched``, ``_changed``, ``_loop``; ``connected`` of the
    gateway mixin).
    """

    def mark(self) -> int:
        """Index of the next request; pass as ``since`` to only match later requests."""
        return len(self.requests)

    def requests_matching(self, method: str, path_regex: str, *, since: int = 0) -> list[RecordedRequest]:
        """Recorded requests with this method whose path fully matches the regex."""
        rx = re.compile(path_regex)
        return [r for r in self.requests[since:] if r.method == method.upper() and rx.fullmatch(r.path)]

    async def wait_for_request(
        self, method: str, path_regex: str, timeout: float | None = None, *, since: int = 0
    ) -> RecordedRequest:
        """First request (index >= ``since``) matching method + full-path regex, waiting if needed."""

        def find() -> RecordedRequest | None:
            found = self.requests_matching(method, path_regex, since=since)
            return found[0] if found else None

        result = await self.wait_until(find, timeout, what=f"{method} {path_regex}")
        assert result is not None
        return result

    def take_error_logs(self) -> list[logging.LogRecord]:
        """Return ERROR records logged so far and stop them from failing later waits."""
        self._reported_errors = len(self.error_logs)
        return list(self.error_logs)

    def check_health(self) -> None:
        """Raise if the watched bot task ended or an unreported ERROR was logged."""
        task = self._watched
        if task is not None and task.done():
            exc = None if task.cancelled() else task.exception()
            raise BotCrashed(f"the bot task ended while waiting: {exc!r}") from exc
        self.raise_pending_error_logs()

    def raise_pending_error_logs(self) -> None:
        """Raise :class:`BotLoggedError` for ERROR records not yet raised or taken."""
        if self.raise_on_error_logs and len(self.error_logs) > self._reported_errors:
            new = self.error_logs[self._reported_errors :]
            self._reported_errors = len(self.error_logs)
            lines = []
            for rec in new:
                line = f"{rec.name}: {rec.getMessage()}"
                if rec.exc_info and rec.exc_info[1] is not None:
                    line += f" -> {rec.exc_info[1]!r}"
                lines.append(line)
            first = new[0].exc_info[1] if new[0].exc_info else None
            raise BotLoggedError("ERROR logged during the test:\n  " + "\n  ".join(lines)) from first

    async def wait_until(
        self, predicate: Callable[[], T], timeout: float | None = None, *, what: str = "condition"
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value.

        Re-checked on every recorded request/gateway frame and at least every 50 ms.
        Raises :class:`BotCrashed` / :class:`BotLoggedError` as soon as those happen, and
        :class:`FakeDiscordTimeout` after ``timeout`` (default ``self.default_timeout``).
        """
        loop = asyncio.get_running_loop()
        limit = self.default_timeout if timeout is None else timeout
        deadline = loop.time() + limit
        while True:
            event = self._changed
            self.check_health()
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FakeDiscordTimeout(f"timed out after {limit}s waiting for {what}.{self._diagnostics()}")
            waiter = asyncio.ensure_future(event.wait())
            aws: set[asyncio.Future[Any]] = {waiter}
            if self._watched is not None:
                aws.add(self._watched)
            try:
                await asyncio.wait(aws, timeout=min(remaining, 0.05), return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiter.cancel()

    def _diagnostics(self) -> str:
        tail = self.requests[-8:]
        lines = [f"  {r.method} {r.path} -> {r.status}" for r in tail]
        out = "\nlast requests:\n" + ("\n".join(lines) if lines else "  (none)")
        if self.unhandled:
            out += "\nunhandled routes: " + ", ".join(f"{r.method} {r.path}" for r in self.unhandled)
        if not self.connected:
            out += "\ngateway: not connected/identified"
        return out

    async def changed(self, timeout: float) -> bool:
        """Wait until anything happens (a REST request, a gateway frame), at most ``timeout`` seconds;
        return whether it did (the local table's live updates wait on this)."""
        event = self._changed
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _on_error_log(self, record: logging.LogRecord) -> None:
        self.error_logs.append(record)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._notify)
