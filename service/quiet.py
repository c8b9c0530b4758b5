"""A person's hours (issue 23, "Games that keep going for weeks"): their time zone, quiet hours in it, and an away
time as ``/away`` reads it. Pure: every time is a Unix time passed in (the service's clock), every zone an IANA
name read with ``zoneinfo``.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from engine.msg import M, Msg
from store import PersonRow

#: the longest one may be away at once (issue 23)
AWAY_MAX_DAYS = 14
_CLOCK = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*$")
_DAYS = re.compile(r"^\s*(\d{1,2})\s*d\s*$", re.IGNORECASE)
_DATE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})\s*$")


class BadSetting(ValueError):
    """A setting that cannot be read; ``msg`` says what was wrong and what is allowed."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(msg.template)
        self.msg = msg


def zone(name: str) -> ZoneInfo:
    """The time zone of an IANA name (``Europe/Berlin``); ``BadSetting`` if there is none of that name."""
    try:
        if "/" not in name and name not in ("UTC", "GMT"):  # "Berlin", "CET": not what the issue asks for
            raise ZoneInfoNotFoundError(name)
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise BadSetting(
            M(
                "table.me.bad_tz",
                "There is no time zone called {name}. Give its IANA name, such as Europe/Berlin, America/New_York "
                "or UTC.",
                name=name[:60],
            )
        ) from None


def zones_like(text: str, limit: int = 25) -> list[str]:
    """IANA zone names containing ``text`` (case-insensitive), for autocomplete: those starting with it first."""
    needle = text.strip().lower().replace(" ", "_")
    names = sorted(n for n in available_timezones() if "/" in n or n == "UTC")
    hits = [n for n in names if needle in n.lower()]
    hits.sort(key=lambda n: (not n.lower().startswith(needle) and not n.lower().split("/")[-1].startswith(needle), n))
    return hits[:limit]


def clock_minutes(text: str) -> int:
    """``22:00`` (or ``22``, ``7:30``) as minutes after midnight; ``BadSetting`` if it is not a time of day."""
    m = _CLOCK.match(text)
    if m is not None:
        hours, minutes = int(m.group(1)), int(m.group(2) or 0)
        if hours < 24 and minutes < 60:
            return hours * 60 + minutes
    raise BadSetting(
        M(
            "table.me.bad_clock",
            "{text} is not a time of day. Give it as hours and minutes, such as 22:00 or 7:30.",
            text=text[:20],
        )
    )


def clock_text(minutes: int) -> str:
    """Minutes after midnight as ``22:00``."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _at(day: date, minutes: int, tz: ZoneInfo) -> float:
    """The Unix time of a local time of day (a time a clock change skips is read as the zone reads it)."""
    return datetime.combine(day, time(minutes // 60, minutes % 60), tzinfo=tz).timestamp()


def quiet_until(person: PersonRow, now: float) -> float | None:
    """When the quiet hours ``now`` falls in end (a Unix time), or ``None`` if ``now`` is not in them (or the person
    has none). Quiet hours may span midnight (22:00 to 08:00)."""
    start, end = person.quiet_start, person.quiet_end
    if start is None or end is None or start == end:
        return None
    tz = zone(person.tz)
    local = datetime.fromtimestamp(now, tz)
    today = local.date()
    minute = local.hour * 60 + local.minute + local.second / 60
    if start < end:  # within one day
        return _at(today, end, tz) if start <= minute < end else None
    if minute >= start:  # the evening part: they end tomorrow
        return _at(today + timedelta(days=1), end, tz)
    if minute < end:  # the morning part
        return _at(today, end, tz)
    return None


def away_until(text: str, tz_name: str, now: float) -> float:
    """When an away time given as ``/away until:`` reads ends: ``3d`` (3 days from now) or ``2026-12-10`` (through
    that day, in the person's time zone: back the day after at midnight); at most ``AWAY_MAX_DAYS`` days ahead.
    ``BadSetting`` if it cannot be read or is out of range."""
    tz = zone(tz_name)
    today = datetime.fromtimestamp(now, tz).date()
    if (m := _DAYS.match(text)) is not None:
        days = int(m.group(1))
        if 1 <= days <= AWAY_MAX_DAYS:
            return now + days * 86400.0
    elif (m := _DATE.match(text)) is not None:
        try:
            day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            day = None
        if day is not None and today <= day <= today + timedelta(days=AWAY_MAX_DAYS):
            return _at(day + timedelta(days=1), 0, tz)
    last = (today + timedelta(days=AWAY_MAX_DAYS)).isoformat()
    raise BadSetting(
        M(
            "table.me.bad_away",
            "{text} is not a time to be away until. Give a number of days from 1 to {n}, such as 3d, or a date "
            "from today to {last}, such as {today} (in your time zone, {tz}), or off.",
            text=text[:20],
            n=AWAY_MAX_DAYS,
            last=last,
            today=today.isoformat(),
            tz=tz_name,
        )
    )
