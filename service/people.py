"""Each person's own hours (issue 23, "Games that keep going for weeks"): ``/me`` (time zone, quiet hours, where
they are told it is their move, a daily digest) and ``/away``.

* Quiet hours: nobody is pinged or told by DM in them. A board posted then names them without a ping, and their
  turn reminder is moved to the end of their quiet hours (the ping arrives then); a reminder that comes due in
  them waits until they end. The deadline does not stop.
* Away: the board says so (it is public: the player chose to share it). With ``on_timeout`` bot or hold and the
  table's ``away`` option ``act``, their deadline is due at once (the table acts for them at the next sweep); with
  ``away=pause`` a deadline that comes due while they are away is put off until they are back (and a tenth of
  the table's deadline more), at most ``AWAY_PAUSE_MAX_S`` a game; the ping comes when they are back.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from engine.msg import M
from engine.options import AWAY_PAUSE_MAX_S
from service.core import Core
from service.notice import ServiceError
from service.overview import YOURS, Overview, SeatedGame
from service.pace import DEFAULT_ON_TIMEOUT, REMIND_AT, deadline_s
from service.quiet import BadSetting, away_until, clock_minutes, quiet_until, zone
from store import NOTIFY, PersonRow, ReminderRow

#: the deadlines' kind of reminder row (as ``service.deadlines.DEADLINE``)
DEADLINE = "deadline"
#: a daily digest comes at most once in this long
DIGEST_EVERY_S = 86400.0


def _refuse(exc: BadSetting) -> ServiceError:
    return ServiceError(exc.msg)


class People(Core):
    """A person's settings, their quiet hours and away time as the table uses them."""

    async def my_settings(self, user_id: int) -> PersonRow:
        """A person's settings (the defaults if they never set any)."""
        return await self.store.get_person(user_id)

    async def set_my_settings(
        self,
        user_id: int,
        *,
        tz: str | None = None,
        quiet_start: str | None = None,
        quiet_end: str | None = None,
        quiet_off: bool = False,
        notify: str | None = None,
        digest: bool | None = None,
        heads_up: bool | None = None,
        hidden: bool | None = None,
    ) -> PersonRow:
        """Change some of a person's settings (``None``: unchanged) and return them all. Everything is checked
        before anything is written: a bad value refuses the whole request (``ServiceError`` saying what is
        allowed). Quiet hours need both a start and an end (one given changes it, the other kept)."""
        person = await self.store.get_person(user_id)
        try:
            if tz is not None:
                person = dataclasses.replace(person, tz=str(zone(tz.strip())))
            if quiet_off:
                person = dataclasses.replace(person, quiet_start=None, quiet_end=None)
            elif quiet_start is not None or quiet_end is not None:
                start = clock_minutes(quiet_start) if quiet_start is not None else person.quiet_start
                end = clock_minutes(quiet_end) if quiet_end is not None else person.quiet_end
                if start is None or end is None:
                    raise ServiceError(
                        M(
                            "table.me.quiet_both",
                            "Quiet hours need a start and an end, such as quiet_start:22:00 quiet_end:08:00.",
                        )
                    )
                if start == end:
                    raise ServiceError(
                        M("table.me.quiet_same", "Quiet hours must end at another time than they start.")
                    )
                person = dataclasses.replace(person, quiet_start=start, quiet_end=end)
        except BadSetting as exc:
            raise _refuse(exc) from None
        if notify is not None:
            if notify not in NOTIFY:
                raise ServiceError(
                    M("table.me.bad_notify", "{value} is not a way to be told. Choose ping, dm or both.", value=notify)
                )
            person = dataclasses.replace(person, notify=notify)
        if digest is not None:
            person = dataclasses.replace(person, digest=digest)
        if heads_up is not None:
            person = dataclasses.replace(person, heads_up=heads_up)
        if hidden is not None:
            person = dataclasses.replace(person, hidden=hidden)
        person = dataclasses.replace(person, updated_at=self.clock())
        await self.store.put_person(person)
        return person

    async def set_away(self, user_id: int, until: str) -> PersonRow:
        """``/away until:`` (``3d``, a date in the person's zone, or ``off``): stored and returned; a bad value is
        refused with what is allowed. Going away makes a table with ``on_timeout`` bot or hold (and ``away=act``)
        act for them at its next sweep."""
        person = await self.store.get_person(user_id)
        now = self.clock()
        if until.strip().lower() in ("off", "back", "no"):
            back = None
        else:
            try:
                back = away_until(until, person.tz, now)
            except BadSetting as exc:
                raise _refuse(exc) from None
        person = dataclasses.replace(person, away_until=back, updated_at=now)
        await self.store.put_person(person)
        return person

    async def quiet_ends(self, user_ids: list[int]) -> dict[int, float]:
        """Those of ``user_ids`` in their quiet hours now, with when those end."""
        now = self.clock()
        people = await self.store.get_people([u for u in user_ids if u > 0])
        return {u: end for u, p in people.items() if (end := quiet_until(p, now)) is not None}

    async def hold_pings(self, game_id: int, ends: dict[int, float]) -> None:
        """Pings left out of a board because their players are in their quiet hours: each one's turn reminder comes
        when their quiet hours end (unless it comes sooner anyway), so the ping arrives then."""
        for user_id, end in ends.items():
            await self.store.hold_reminder(game_id, user_id, end)

    async def wants_heads_up(self, user_id: int) -> bool:
        """Whether a person asked to be told when the player before them begins their turn, and may be told now
        (not in their quiet hours: a heads-up after them would be late news)."""
        person = await self.store.get_person(user_id)
        return person.heads_up and quiet_until(person, self.clock()) is None

    async def told_by(self, user_ids: list[int]) -> dict[int, str]:
        """Where each of ``user_ids`` is told it is their move: ``ping``, ``dm`` or ``both``."""
        people = await self.store.get_people([u for u in user_ids if u > 0])
        return {u: people[u].notify if u in people else "ping" for u in user_ids}

    # ------------------------------------------------------------------ away, and deadlines

    async def deadlines_due(self, now: float) -> list[ReminderRow]:
        """The deadlines to act on now (``fire_deadlines``): the due ones, less those put off because their player
        is away at a table with ``away=pause``; and the not yet due ones of players away at a table that acts at
        once (``away=act`` with ``on_timeout`` bot or hold)."""
        due = await self.store.due_reminders(now, DEADLINE)
        people = await self.store.get_people({r.user_id for r in due})
        out = []
        for r in due:
            p = people.get(r.user_id)
            if p is not None and p.away_until is not None and p.away_until > now and await self._pause(r, p, now):
                continue
            out.append(r)
        for r, options, _back in await self.store.away_deadlines(now):
            opts = json.loads(options)
            if opts.get("away", "act") == "act" and opts.get("on_timeout", DEFAULT_ON_TIMEOUT) in ("bot", "hold"):
                out.append(r)
        return out

    async def claim_deadline(self, r: ReminderRow, now: float, lease: float) -> bool:
        """Claim a deadline from ``deadlines_due`` for this process (False: another process has it): a due one as
        reminders are claimed, an early one (an away player's) only if it is still the one read."""
        if r.due_at > now:
            return await self.store.claim_deadline_early(r, lease)
        return await self.store.claim_reminder(r.game_id, r.user_id, r.kind, r.count, now, lease)

    async def _pause(self, r: ReminderRow, person: PersonRow, now: float) -> bool:
        """``away=pause``: put a due deadline of an away player off until they are back, plus a tenth of the
        table's deadline (the time its last reminder gives), within what is left of the game's 7 days; their turn
        reminder pings them when they are back. False: the table does not pause, or the 7 days are used up (the
        deadline fires)."""
        table = await self.load(r.game_id)
        if json.loads(table.row.options).get("away", "act") != "pause" or table.row.status != "active":
            return False
        left = AWAY_PAUSE_MAX_S - await self.store.paused_s(r.game_id, r.user_id)
        if left <= 0:
            return False
        assert person.away_until is not None
        grace = (deadline_s(table) or 0) * (1 - REMIND_AT[-1])
        until = min(person.away_until + grace, now + left)
        if not await self.store.pause_deadline(r, until, until - now):
            return True  # it changed since it was read: the next sweep sees it as it is
        if until > person.away_until:
            await self.store.set_reminder(r.game_id, r.user_id, "turn", person.away_until)
        return True

    async def away_of(self, user_ids: list[int]) -> dict[int, float]:
        """Those of ``user_ids`` away now, with when they are back."""
        now = self.clock()
        people = await self.store.get_people([u for u in user_ids if u > 0])
        return {u: p.away_until for u, p in people.items() if p.away_until is not None and p.away_until > now}


def seat_after(game: str, view: dict[str, Any] | None, seat: int) -> int | None:
    """The seat whose turn comes after ``seat``'s, read from the public view (``heads_up``): Omerta's turns go
    round the seats in order; Speakeasy's follow the round's turn order (the view's ``order``; after the last seat
    of a round, the first of that order: the next round's order may differ). ``None``: unknown."""
    players = len((view or {}).get("players", []))
    if view is None or players < 2:
        return None
    order = view.get("order") if game == "speakeasy" else None
    if isinstance(order, list) and seat in order:
        return int(order[(order.index(seat) + 1) % len(order)])
    return (seat + 1) % players


class Digests(People, Overview):
    """The daily digest: a DM once a day to a person who asked for it and has games waiting for them."""

    async def due_digests(self) -> list[tuple[int, list[SeatedGame]]]:
        """The digests to send now, each claimed for this process (marked sent: a process that dies before
        sending loses that day's digest rather than sending it twice): a person who asked for one, got none for a
        day, is not in their quiet hours and has games waiting for them (one without any is checked again the
        next day)."""
        now = self.clock()
        out = []
        for person in await self.store.digests_due(now - DIGEST_EVERY_S):
            if quiet_until(person, now) is not None:
                continue  # it comes when their quiet hours end
            if not await self.store.digest_sent(person.user_id, now, now - DIGEST_EVERY_S):
                continue  # another process has it
            waiting = [g for g in await self.my_games(person.user_id) if g.kind == YOURS]
            if waiting:
                out.append((person.user_id, waiting))
        return out
