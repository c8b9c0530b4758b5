"""The fake Discord's exceptions: the harness's failures (AssertionErrors, for pytest) and Discord's own
REST errors."""

from __future__ import annotations

from .. import payloads as p


class FakeDiscordError(AssertionError):
    """Base class for harness failures (an AssertionError, so pytest shows it as a failure)."""


class BotCrashed(FakeDiscordError):
    """The watched bot task ended (usually a gateway parse error) while a test was waiting."""


class BotLoggedError(FakeDiscordError):
    """Something logged at ERROR level (e.g. an exception in a command or view callback)."""


class FakeDiscordTimeout(FakeDiscordError, TimeoutError):
    """A wait ran out of time; the message lists the latest requests to help debugging."""


class _DiscordError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.body = p.error_body(code, message)
