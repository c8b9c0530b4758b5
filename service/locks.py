"""Locks by key (a game id) that exist only while someone holds or waits for them, so a process that has served
ten thousand games keeps no lock for any of them (issue 22)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class _Entry:
    """A key's lock and how many coroutines hold it or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class KeyedLocks(Generic[K]):
    """``async with locks(key):`` one coroutine at a time per key.

    A key's entry is counted up before its lock is awaited and down after it is released (or the wait is
    cancelled), both without an await in between that could let another coroutine see a wrong count; the entry is
    dropped when the count reaches 0. So a lock is never dropped while a coroutine waits on it: dropping one then
    would let the next comer take a fresh lock while the waiter still takes the old one, two at once.
    """

    def __init__(self) -> None:
        self._entries: dict[K, _Entry] = {}

    @asynccontextmanager
    async def __call__(self, key: K) -> AsyncIterator[None]:
        """Hold the lock of ``key`` for the block."""
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._entries[key]

    def __len__(self) -> int:
        """How many keys are held or waited for now."""
        return len(self._entries)

    def held(self, key: K) -> bool:
        """Whether someone holds (or waits for) the lock of ``key``."""
        return key in self._entries
