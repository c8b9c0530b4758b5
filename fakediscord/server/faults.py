"""Injected failures: a request answered with an error instead of being handled (once, n times, forever, or
every n-th time)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import payloads as p
from .records import RecordedRequest, UserRef


@dataclass
class Fault:
    """An injected failure; ``times`` is how many more requests it hits (None: forever)."""

    method: str
    pattern: re.Pattern[str]
    status: int
    body: Any
    times: int | None = None
    hits: int = 0
    #: fail only every n-th matching request (1: every one); statuses cycle through ``cycle`` if given
    every: int = 1
    seen: int = 0
    cycle: tuple[int, ...] = ()


class FaultsMixin:
    """Injecting and applying faults.

    It is a mixin of :class:`~fakediscord.server.FakeDiscordServer`: it uses the state that class's
    ``__init__`` sets up (``faults``, and ``dm_channel_id`` of the guilds mixin).
    """

    def fail(
        self, method: str, path_regex: str, status: int, json_body: Any = None, *, times: int | None = None
    ) -> Fault:
        """Answer matching requests with ``status`` and ``json_body`` instead of handling them.

        Example: ``server.fail("POST", rf"/channels/{dm}/messages", 403,
        {"code": 50007, "message": "Cannot send messages to this user"})``.  Avoid 5xx
        statuses: discord.py retries those with multi-second sleeps.
        """
        if json_body is None:
            json_body = p.error_body(0, f"{status}: injected failure")
        fault = Fault(method.upper(), re.compile(path_regex), status, json_body, times)
        self.faults.append(fault)
        return fault

    def fail_dm(self, ref: UserRef, *, times: int | None = None) -> int:
        """Make DMs to a user fail with 403 / 50007 (DMs closed); returns the DM channel id."""
        channel_id = self.dm_channel_id(ref)
        self.fail(
            "POST",
            rf"/channels/{channel_id}/messages",
            403,
            p.error_body(50007, "Cannot send messages to this user"),
            times=times,
        )
        return channel_id

    def clear_faults(self) -> None:
        """Remove every injected fault."""
        self.faults.clear()

    def flaky(self, method: str, path_regex: str, *, every: int, statuses: Sequence[int] = (503, 429)) -> Fault:
        """Fail every ``every``-th matching request, cycling through ``statuses`` (a 429 carries a short
        ``retry_after``, which discord.py waits out and retries; a 503 reaches the bot as an error)."""
        fault = Fault(method.upper(), re.compile(path_regex), 0, None, every=every, cycle=tuple(statuses))
        self.faults.append(fault)
        return fault

    def _apply_fault(self, req: RecordedRequest) -> tuple[int, Any]:
        for fault in self.faults:
            if fault.method == req.method and fault.pattern.fullmatch(req.path):
                if fault.times is not None and fault.hits >= fault.times:
                    continue
                fault.seen += 1
                if fault.seen % fault.every:
                    continue
                fault.hits += 1
                if fault.cycle:
                    status = fault.cycle[(fault.hits - 1) % len(fault.cycle)]
                    if status == 429:
                        return 429, {"message": "You are being rate limited.", "retry_after": 0.01, "global": False}
                    return status, p.error_body(0, f"{status}: injected failure")
                return fault.status, fault.body
        return 0, None
