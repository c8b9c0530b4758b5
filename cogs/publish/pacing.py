"""Pacing: at most ``BURST`` posts in any ``WINDOW_S`` seconds in one channel (Discord allows about 5 messages in
5 seconds a channel; what goes over arrives late and out of order, after a 429)."""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable

#: posts in one channel within ``WINDOW_S`` seconds (Discord's own per-channel allowance)
BURST = 5
#: the window those posts share, in seconds
WINDOW_S = 5.0
#: how many channels' recent posts are kept before the quiet ones are dropped (the project's own value: a channel
#: whose last post is older than the window needs no record)
KEEP = 1000


class Pacer:
    """Hands out the times posts may be made at, per channel: the sixth post of a burst waits until the first is
    ``WINDOW_S`` seconds old. Time comes from the service's clock and the wait from ``sleep`` (both faked in
    tests); the slot is taken before the wait, so two posts waiting at once get slots of their own."""

    def __init__(
        self,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[object]],
        burst: int = BURST,
        window: float = WINDOW_S,
    ) -> None:
        self.clock, self.sleep, self.burst, self.window = clock, sleep, burst, window
        #: each channel's last ``burst`` post times (slots taken), oldest first
        self._times: dict[int, deque[float]] = {}

    async def slot(self, channel_id: int) -> float:
        """Wait until a post may be made in ``channel_id``; returns the time it was given (at once when the burst
        is 0: no pacing)."""
        now = self.clock()
        if self.burst <= 0:
            return now
        times = self._times.get(channel_id)
        if times is None:
            self._forget_quiet(now)
            times = self._times[channel_id] = deque(maxlen=self.burst)
        at = max(now, times[0] + self.window) if len(times) == self.burst else now
        times.append(at)
        if at > now:
            await self.sleep(at - now)
        return at

    def _forget_quiet(self, now: float) -> None:
        if len(self._times) < KEEP:
            return
        for channel_id in [c for c, t in self._times.items() if not t or t[-1] <= now - self.window]:
            del self._times[channel_id]
