"""Issue 23, quiet hours acceptance: "no message mentions a player in their quiet hours (checked over a simulated
week of 10 games with players in 3 time zones); the pings arrive when their hours end." The suite runs a smaller
stretch (3 games over 2 days) through the fake Discord; ``python -m bench.quiet_week`` runs the full week and
prints its figures."""

from __future__ import annotations

from tests.cogs.quiet_week import simulate


async def test_nobody_is_pinged_in_their_quiet_hours_and_held_pings_arrive_when_they_end(tmp_path):
    """Issue 23: over 2 simulated days, 3 Omerta games played by their deadlines (the bot plays each wait when its
    3 hours run out) with 5 players in Berlin, New York and Tokyo, 4 of them with quiet hours: no message pings
    anyone in their quiet hours, no DM notifies them then (it is sent silent), every board that named someone in
    them without a ping is followed by the ping when their hours end (while the game still waits for them)."""
    fig = await simulate(tmp_path, games=3, days=2, step_s=1800, deadline="3h")
    assert fig.failures == []
    assert fig.pinged > 10 and fig.held > 3 and fig.held_arrived > 0 and fig.dms > 0, fig
