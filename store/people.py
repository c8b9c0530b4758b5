"""Each person's own settings (issue 23, ``/me`` and ``/away``): time zone, quiet hours, where they are told it is
their move, the daily digest, and until when they are away; and how long a game's deadlines were put off for
them while they were away (``away=pause``)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, fields
from typing import Any

from .base import Base, cols, marks
from .rows import ReminderRow

#: where a person is told it is their move
NOTIFY = ("ping", "dm", "both")


@dataclass(frozen=True, slots=True)
class PersonRow:
    """A person's settings (a person who never set any has the defaults: UTC, no quiet hours, pinged, no digest,
    not away)."""

    user_id: int
    #: an IANA time zone name (``Europe/Berlin``)
    tz: str = "UTC"
    #: quiet hours in ``tz``, as minutes after midnight (``None``: none)
    quiet_start: int | None = None
    quiet_end: int | None = None
    #: ``ping`` (in the game's channel), ``dm`` or ``both``
    notify: str = "ping"
    digest: bool = False
    #: when the last daily digest was sent (a Unix time)
    digest_at: float | None = None
    #: away until this Unix time (``None``: not away)
    away_until: float | None = None
    #: told by DM when the player before them begins their turn
    heads_up: bool = False
    updated_at: float = 0.0
    #: keeps their profile to themselves and stays off the leaderboards (issue 26)
    hidden: bool = False


def _person(row: Sequence[Any]) -> PersonRow:
    user_id, tz, start, end, notify, digest, digest_at, away, heads_up, updated, hidden = row
    return PersonRow(
        int(user_id),
        tz,
        start,
        end,
        notify,
        bool(digest),
        digest_at,
        away,
        bool(heads_up),
        float(updated),
        bool(hidden),
    )


_PERSON = cols(PersonRow)
_SET = ", ".join(f'"{f.name}" = excluded."{f.name}"' for f in fields(PersonRow) if f.name != "user_id")


class People(Base):
    """People's settings and away times."""

    async def get_person(self, user_id: int) -> PersonRow:
        """A person's settings (the defaults if they never set any)."""
        row = await self._fetchone(f"SELECT {_PERSON} FROM people WHERE user_id = ?", (user_id,))
        return _person(row) if row else PersonRow(user_id)

    async def get_people(self, user_ids: Collection[int]) -> dict[int, PersonRow]:
        """The settings of those of ``user_ids`` who set any."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        sql = f"SELECT {_PERSON} FROM people WHERE user_id IN ({marks(ids)})"
        return {p.user_id: p for p in map(_person, await self._fetchall(sql, ids))}

    async def put_person(self, person: PersonRow) -> None:
        """Store a person's settings (all of them, replacing what was stored)."""
        names = [f.name for f in fields(PersonRow)]
        values = [getattr(person, n) for n in names]
        values[names.index("digest")] = int(person.digest)
        values[names.index("heads_up")] = int(person.heads_up)
        values[names.index("hidden")] = int(person.hidden)
        sql = f"INSERT INTO people ({_PERSON}) VALUES ({marks(names)}) ON CONFLICT (user_id) DO UPDATE SET {_SET}"
        await self._execute(sql, values)

    async def digests_due(self, sent_before: float) -> list[PersonRow]:
        """People who asked for a daily digest and got none since ``sent_before``."""
        sql = (
            f"SELECT {_PERSON} FROM people WHERE digest = 1 AND (digest_at IS NULL OR digest_at <= ?) ORDER BY user_id"
        )
        return [_person(r) for r in await self._fetchall(sql, (sent_before,))]

    async def digest_sent(self, user_id: int, at: float, sent_before: float) -> bool:
        """Mark a person's digest sent at ``at`` if it was still due (False: another process sent it)."""
        sql = "UPDATE people SET digest_at = ? WHERE user_id = ? AND (digest_at IS NULL OR digest_at <= ?)"
        return bool(await self._execute(sql, (at, user_id, sent_before)))

    async def away_deadlines(self, now: float) -> list[tuple[ReminderRow, str, float]]:
        """The deadlines not yet due of players away at ``now``, each with its game's options (JSON) and when its
        player is back. Three small indexed reads (the away people, their deadlines, those games): one join let
        the planners start from every active game (bench/deadline_sweep.py)."""
        away = dict(await self._fetchall("SELECT user_id, away_until FROM people WHERE away_until > ?", (now,)))
        if not away:
            return []
        users = list(away)
        sql = (
            f"SELECT {cols(ReminderRow)} FROM reminders WHERE user_id IN ({marks(users)}) AND kind = 'deadline'"
            " AND due_at > ? ORDER BY due_at, game_id, user_id"
        )
        rows = [ReminderRow(*r) for r in await self._fetchall(sql, (*users, now))]
        if not rows:
            return []
        ids = sorted({r.game_id for r in rows})
        sql = f"SELECT id, options FROM games WHERE id IN ({marks(ids)}) AND status = 'active'"
        options = dict(await self._fetchall(sql, tuple(ids)))
        return [(r, str(options[r.game_id]), float(away[r.user_id])) for r in rows if r.game_id in options]

    async def claim_deadline_early(self, r: ReminderRow, until: float) -> bool:
        """Take a deadline that is not yet due (its player is away) for firing now: it is moved to ``until`` (the
        claim's lease) if it is still the one read (``r``: its due time, count and wait); False if it changed (it
        was answered, moved, or another process took it)."""
        sql = (
            "UPDATE reminders SET due_at = ? WHERE game_id = ? AND user_id = ? AND kind = ? AND due_at = ?"
            " AND count = ? AND since = ?"
        )
        return bool(await self._execute(sql, (until, r.game_id, r.user_id, r.kind, r.due_at, r.count, r.since)))

    async def pause_deadline(self, r: ReminderRow, until: float, paused_s: float) -> bool:
        """Put off a due deadline to ``until`` while its player is away, counting ``paused_s`` against the game's
        allowance, in one transaction; False if the deadline changed since it was read (nothing written)."""
        async with self._write() as conn:
            sql = (
                "UPDATE reminders SET due_at = ? WHERE game_id = ? AND user_id = ? AND kind = ? AND due_at = ?"
                " AND count = ? AND since = ?"
            )
            params = (until, r.game_id, r.user_id, r.kind, r.due_at, r.count, r.since)
            if not (await conn.execute(sql, params)).rowcount:
                return False
            sql = (
                "INSERT INTO away_pauses (game_id, user_id, paused_s) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id, user_id) DO UPDATE SET paused_s = away_pauses.paused_s + excluded.paused_s"
            )
            await conn.execute(sql, (r.game_id, r.user_id, paused_s))
            return True

    async def paused_s(self, game_id: int, user_id: int) -> float:
        """How long a player's deadlines in a game were put off while they were away."""
        row = await self._fetchone(
            "SELECT paused_s FROM away_pauses WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        return float(row[0]) if row else 0.0

    async def hold_reminder(self, game_id: int, user_id: int, due_at: float) -> bool:
        """Move a player's turn reminder to ``due_at`` if it is due later (a ping held through their quiet hours
        comes when they end); False if there is none or it is due sooner."""
        sql = "UPDATE reminders SET due_at = ? WHERE game_id = ? AND user_id = ? AND kind = 'turn' AND due_at > ?"
        return bool(await self._execute(sql, (due_at, game_id, user_id, due_at)))
