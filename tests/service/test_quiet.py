"""Issue 23, away and quiet hours: reading a person's hours (pure)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from service.quiet import BadSetting, away_until, clock_minutes, quiet_until, zone, zones_like
from store import PersonRow

BERLIN = ZoneInfo("Europe/Berlin")


def at(text: str, tz: ZoneInfo = BERLIN) -> float:
    """A local time as a Unix time."""
    return datetime.fromisoformat(text).replace(tzinfo=tz).timestamp()


def test_zones_are_iana_names_and_autocomplete_finds_them() -> None:
    """Issue 23: a time zone is an IANA name, validated with zoneinfo; others are refused with what is allowed."""
    assert str(zone("Europe/Berlin")) == "Europe/Berlin" and str(zone("UTC")) == "UTC"
    for bad in ("Berlin", "Mars/Olympus", "CET", "", "../etc/passwd"):
        with pytest.raises(BadSetting, match="IANA"):
            zone(bad)
    assert zones_like("berl")[0] == "Europe/Berlin"
    assert "America/New_York" in zones_like("new york")
    assert len(zones_like("")) == 25


def test_times_of_day_are_read_or_refused() -> None:
    """Issue 23: quiet hours are given as times of day."""
    assert [clock_minutes(t) for t in ("22:00", "7:30", "8", "00:00", "23:59")] == [1320, 450, 480, 0, 1439]
    for bad in ("24:00", "7:60", "noon", "", "7.30"):
        with pytest.raises(BadSetting, match="time of day"):
            clock_minutes(bad)


def test_quiet_hours_over_midnight_end_in_the_persons_zone_across_a_clock_change() -> None:
    """Issue 23: quiet hours 22:00 to 08:00 in Berlin: in them at 23:00 and at 03:00 (ending at 08:00 local, also
    the night the clocks go back), not at 08:00 or 21:59; hours within a day too; none set: never quiet."""
    anna = PersonRow(1, "Europe/Berlin", 22 * 60, 8 * 60)
    assert quiet_until(anna, at("2026-06-01T23:00")) == at("2026-06-02T08:00")
    assert quiet_until(anna, at("2026-06-02T03:00")) == at("2026-06-02T08:00")
    assert quiet_until(anna, at("2026-06-02T08:00")) is None
    assert quiet_until(anna, at("2026-06-02T21:59")) is None
    assert quiet_until(anna, at("2026-10-24T23:30")) == at("2026-10-25T08:00")  # 25 hours that night
    assert at("2026-10-25T08:00") - at("2026-10-24T23:30") == 9.5 * 3600
    siesta = PersonRow(1, "America/New_York", 13 * 60, 15 * 60)
    ny = ZoneInfo("America/New_York")
    assert quiet_until(siesta, at("2026-06-01T14:00", ny)) == at("2026-06-01T15:00", ny)
    assert quiet_until(siesta, at("2026-06-01T15:00", ny)) is None
    assert quiet_until(PersonRow(1), at("2026-06-01T03:00")) is None


def test_away_is_a_number_of_days_or_a_date_at_most_14_days_ahead() -> None:
    """Issue 23: /away until: 3d or a date (through that day in the person's zone), at most 14 days ahead."""
    now = at("2026-06-01T12:00")
    assert away_until("3d", "Europe/Berlin", now) == now + 3 * 86400
    assert away_until(" 14D ", "Europe/Berlin", now) == now + 14 * 86400
    assert away_until("2026-06-03", "Europe/Berlin", now) == at("2026-06-04T00:00")
    assert away_until("2026-06-01", "Europe/Berlin", now) == at("2026-06-02T00:00")
    assert away_until("2026-06-15", "Europe/Berlin", now) == at("2026-06-16T00:00")
    for bad in ("15d", "0d", "2026-06-16", "2026-05-31", "2026-02-30", "tomorrow", "3"):
        with pytest.raises(BadSetting, match="away until") as info:
            away_until(bad, "Europe/Berlin", now)
        assert info.value.msg.args["last"] == "2026-06-15"


def test_the_seat_after_follows_each_games_turn_order() -> None:
    """Issue 23, heads-up: Omerta's turns go round the seats; Speakeasy's follow the round's order in the view."""
    from service.people import seat_after

    three = {"players": [{}, {}, {}]}
    assert [seat_after("omerta", three, s) for s in range(3)] == [1, 2, 0]
    assert [seat_after("speakeasy", {**three, "order": [2, 0, 1]}, s) for s in (2, 0, 1)] == [0, 1, 2]
    assert seat_after("omerta", {"players": [{}]}, 0) is None and seat_after("omerta", None, 0) is None
