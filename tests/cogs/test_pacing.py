"""The publisher's pace (issue 24): at most 5 posts in any 5 seconds a channel, on a fake clock."""

from __future__ import annotations

from cogs.publish.pacing import Pacer


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


async def test_the_sixth_post_waits_until_the_first_is_five_seconds_old():
    t = FakeTime()
    pacer = Pacer(t.clock, t.sleep)
    got = [await pacer.slot(1) for _ in range(12)]
    assert got == [100.0] * 5 + [105.0] * 5 + [110.0] * 2
    assert t.slept == [5.0, 5.0]
    assert await pacer.slot(2) == 110.0  # another channel is not held up


async def test_posts_spread_out_in_time_never_wait():
    t = FakeTime()
    pacer = Pacer(t.clock, t.sleep)
    for _ in range(20):
        await pacer.slot(1)
        t.now += 1.0
    assert t.slept == []


async def test_a_burst_of_0_paces_nothing():
    """``SPEAKEASY_CHANNEL_BURST=0``: no pacing (a server without Discord's limit; the real-process tests)."""
    from cogs.publish.pacing import Pacer

    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    pacer = Pacer(lambda: 100.0, sleep, burst=0)
    assert [await pacer.slot(7) for _ in range(20)] == [100.0] * 20 and waited == []
