"""The bot's bookkeeping beside the record: the messages a game owns (with the version each shows), reminders,
real-time claims and race windows, the outbox of what must still be said, seat offers, and guild settings."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .base import Rollback, cols
from .record import ARM_REMINDER, Move, Record
from .rows import UNARMED, ClaimRow, MessageRow, OfferRow, OutboxRow, RaceRow, ReminderRow


class Bookkeeping(Record):
    """Messages, reminders, claims, races, the outbox, offers and guild settings."""

    # ------------------------------------------------------------------ messages

    async def set_message(
        self,
        game_id: int,
        kind: str,
        channel_id: int,
        message_id: int,
        key: str = "",
        *,
        version: int = -1,
        upto: int = 0,
        data: str = "{}",
    ) -> None:
        """Remember (or replace) the message of this kind/key that the game owns, the version and the last
        event it shows."""
        sql = (
            'INSERT INTO messages (game_id, kind, "key", channel_id, message_id, version, upto, data)'
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            ' ON CONFLICT (game_id, kind, "key") DO UPDATE SET channel_id = excluded.channel_id,'
            " message_id = excluded.message_id, version = excluded.version, upto = excluded.upto,"
            " data = excluded.data"
        )
        await self._execute(sql, (game_id, kind, key, channel_id, message_id, version, upto, data))

    async def set_message_shown(
        self, game_id: int, kind: str, version: int, upto: int, key: str = "", data: str | None = None
    ) -> bool:
        """Record that an owned message now shows ``version`` up to event ``upto`` (never moving back)."""
        sql = (
            "UPDATE messages SET version = ?, upto = ?, data = COALESCE(?, data)"
            ' WHERE game_id = ? AND kind = ? AND "key" = ? AND version <= ? AND upto <= ?'
        )
        return bool(await self._execute(sql, (version, upto, data, game_id, kind, key, version, upto)))

    async def get_message(self, game_id: int, kind: str, key: str = "") -> MessageRow | None:
        """The owned message of this kind/key, or None."""
        sql = f'SELECT {cols(MessageRow)} FROM messages WHERE game_id = ? AND kind = ? AND "key" = ?'
        row = await self._fetchone(sql, (game_id, kind, key))
        return MessageRow(*row) if row else None

    async def find_message(self, message_id: int) -> MessageRow | None:
        """The owned-message record for a Discord message id (e.g. to route a button click), or None."""
        sql = f"SELECT {cols(MessageRow)} FROM messages WHERE message_id = ? LIMIT 1"
        row = await self._fetchone(sql, (message_id,))
        return MessageRow(*row) if row else None

    async def list_messages(self, game_id: int) -> list[MessageRow]:
        """All messages the game owns, ordered by kind then key."""
        sql = f'SELECT {cols(MessageRow)} FROM messages WHERE game_id = ? ORDER BY kind, "key"'
        return [MessageRow(*row) for row in await self._fetchall(sql, (game_id,))]

    async def delete_message(self, game_id: int, kind: str, key: str = "") -> bool:
        """Forget an owned message; False if there was none."""
        sql = 'DELETE FROM messages WHERE game_id = ? AND kind = ? AND "key" = ?'
        return bool(await self._execute(sql, (game_id, kind, key)))

    async def games_behind(self, kind: str = "board") -> list[int]:
        """Started games whose ``kind`` message shows an older version than the game has (or none at all):
        what a restart must still post."""
        sql = (
            "SELECT g.id FROM games g LEFT JOIN messages m ON m.game_id = g.id AND m.kind = ? AND m.\"key\" = ''"
            " WHERE g.status <> 'lobby' AND (g.status = 'active' OR m.game_id IS NOT NULL) AND (m.game_id IS NULL"
            " OR m.version < g.version OR m.upto < (SELECT COALESCE(MAX(e.id), 0) FROM events e"
            " WHERE e.game_id = g.id)) ORDER BY g.id"
        )
        return [int(r[0]) for r in await self._fetchall(sql, (kind,))]

    # ------------------------------------------------------------------ reminders

    async def set_reminder(self, game_id: int, user_id: int, kind: str, due_at: float) -> None:
        """Schedule (or reschedule) a reminder: its sent count back to 0, its wait beginning at the game's current
        version."""
        await self._execute(ARM_REMINDER, (game_id, user_id, kind, due_at, game_id))

    async def get_reminders(self, game_id: int) -> list[ReminderRow]:
        """The game's pending reminders."""
        sql = f"SELECT {cols(ReminderRow)} FROM reminders WHERE game_id = ? ORDER BY user_id, kind"
        return [ReminderRow(*row) for row in await self._fetchall(sql, (game_id,))]

    async def due_reminders(self, now: float, kind: str | None = None) -> list[ReminderRow]:
        """Reminders with ``due_at <= now`` (of ``kind`` only, if given: ``turn`` or ``deadline``), earliest
        first."""
        sql = (
            f"SELECT {cols(ReminderRow)} FROM reminders WHERE due_at <= ? AND (CAST(? AS TEXT) IS NULL OR kind = ?)"
            " ORDER BY due_at, game_id, user_id, kind"
        )
        return [ReminderRow(*row) for row in await self._fetchall(sql, (now, kind, kind))]

    async def claim_reminder(self, game_id: int, user_id: int, kind: str, count: int, now: float, until: float) -> bool:
        """Take a due reminder for sending: it is moved to ``until`` (the claim's lease) if it is still due and
        still at ``count`` sent; False if another process took it first. If the claimer dies before
        ``bump_reminder``, the reminder is due again at ``until`` and another process sends it (with the same
        ``count``, so the same message nonce)."""
        sql = (
            "UPDATE reminders SET due_at = ? WHERE game_id = ? AND user_id = ? AND kind = ? AND count = ?"
            " AND due_at <= ?"
        )
        return bool(await self._execute(sql, (until, game_id, user_id, kind, count, now)))

    async def bump_reminder(self, game_id: int, user_id: int, kind: str, next_due_at: float) -> bool:
        """Mark one more reminder sent and move it to ``next_due_at``; False if there is none."""
        sql = "UPDATE reminders SET count = count + 1, due_at = ? WHERE game_id = ? AND user_id = ? AND kind = ?"
        return bool(await self._execute(sql, (next_due_at, game_id, user_id, kind)))

    async def clear_reminders(self, game_id: int, user_id: int | None = None, kind: str | None = None) -> int:
        """Delete the game's reminders, optionally only a user's and/or a kind; return how many."""
        # CAST: PostgreSQL must know a parameter's type, and ``? IS NULL`` alone does not tell it
        sql = (
            "DELETE FROM reminders WHERE game_id = ? AND (CAST(? AS BIGINT) IS NULL OR user_id = ?)"
            " AND (CAST(? AS TEXT) IS NULL OR kind = ?)"
        )
        return await self._execute(sql, (game_id, user_id, user_id, kind, kind))

    # ------------------------------------------------------------------ real-time races

    async def add_claim(self, game_id: int, version: int, seat: int, choice_json: str, ts_ms: int, now: float) -> bool:
        """Record a seat's claim in the race open at ``version``; False if that seat already claimed or no
        window of that version is open (checked in the same transaction). Durable when it returns."""
        async with self._write() as conn:
            sql = "SELECT 1 FROM races WHERE game_id = ? AND version = ?"
            cursor = await conn.execute(sql, (game_id, version))
            if cursor.fetchone() is None:
                raise Rollback
            sql = (
                "INSERT INTO claims (game_id, version, seat, choice, ts_ms, received_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, version, seat) DO NOTHING"
            )
            cursor = await conn.execute(sql, (game_id, version, seat, choice_json, ts_ms, now))
            if cursor.rowcount != 1:
                raise Rollback
            return True
        return False

    async def get_claims(self, game_id: int, version: int) -> list[ClaimRow]:
        """Claims of the race at ``version``, earliest Discord timestamp first (then arrival, seat)."""
        sql = f"SELECT {cols(ClaimRow)} FROM claims WHERE game_id = ? AND version = ? ORDER BY ts_ms, received_at, seat"
        return [ClaimRow(*row) for row in await self._fetchall(sql, (game_id, version))]

    async def clear_claims(self, game_id: int, version: int | None = None) -> int:
        """Delete the game's claims (only those of ``version`` if given); return how many."""
        sql = "DELETE FROM claims WHERE game_id = ? AND (CAST(? AS BIGINT) IS NULL OR version = ?)"
        return await self._execute(sql, (game_id, version, version))

    async def open_race(self, game_id: int, version: int, deadline: float) -> None:
        """Open (or replace) the game's race window for ``version`` closing at ``deadline``."""
        sql = (
            "INSERT INTO races (game_id, version, deadline) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, deadline = excluded.deadline"
        )
        await self._execute(sql, (game_id, version, deadline))

    async def arm_race(self, game_id: int, version: int, deadline: float) -> bool:
        """Start the time of the race window at ``version`` (opened ``UNARMED`` by its move): it closes at
        ``deadline``. False if that race is gone or its time already runs (the first deadline is kept)."""
        sql = "UPDATE races SET deadline = ? WHERE game_id = ? AND version = ? AND deadline = ?"
        return bool(await self._execute(sql, (deadline, game_id, version, UNARMED)))

    async def get_race(self, game_id: int) -> RaceRow | None:
        """The game's open race, or None."""
        row = await self._fetchone(f"SELECT {cols(RaceRow)} FROM races WHERE game_id = ?", (game_id,))
        return RaceRow(*row) if row else None

    async def close_race(self, game_id: int) -> bool:
        """Close the game's race window (claims are kept); False if none was open."""
        return bool(await self._execute("DELETE FROM races WHERE game_id = ?", (game_id,)))

    async def reopen_race(self, game_id: int, version: int, deadline: float) -> bool:
        """Open the race window of ``version`` only if the game is still at ``version`` (checked in the same
        transaction, so a move committed meanwhile by another process is never undone); False otherwise."""
        async with self._write() as conn:
            if not await self._at_version(conn, game_id, version):
                raise Rollback
            sql = (
                "INSERT INTO races (game_id, version, deadline) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, deadline = excluded.deadline"
            )
            await conn.execute(sql, (game_id, version, deadline))
            return True
        return False

    async def drop_stale_race(self, game_id: int, version: int) -> bool:
        """Close the game's race window only if the game is still at ``version`` (whose state has no race);
        False if there was none or the game has moved on (its new window is live)."""
        async with self._write() as conn:
            if not await self._at_version(conn, game_id, version):
                raise Rollback
            return bool((await conn.execute("DELETE FROM races WHERE game_id = ?", (game_id,))).rowcount)
        return False

    @staticmethod
    async def _at_version(conn: Any, game_id: int, version: int) -> bool:
        cursor = await conn.execute("SELECT 1 FROM games WHERE id = ? AND version = ?", (game_id, version))
        return cursor.fetchone() is not None

    async def open_races(self) -> list[RaceRow]:
        """All open races, earliest deadline first (to restart timers after a restart)."""
        rows = await self._fetchall(f"SELECT {cols(RaceRow)} FROM races ORDER BY deadline, game_id")
        return [RaceRow(*row) for row in rows]

    # ------------------------------------------------------------------ the outbox

    async def outbox_due(self, now: float, game_id: int | None = None) -> list[OutboxRow]:
        """What must still be said and is due (of one game, or of all), oldest first."""
        sql = (
            f"SELECT {cols(OutboxRow)} FROM outbox WHERE due_at <= ?"
            " AND (CAST(? AS BIGINT) IS NULL OR game_id = ?) ORDER BY id"
        )
        return [OutboxRow(*row) for row in await self._fetchall(sql, (now, game_id, game_id))]

    async def outbox_done(self, entry_id: int) -> bool:
        """Forget an outbox entry once it was delivered."""
        return bool(await self._execute("DELETE FROM outbox WHERE id = ?", (entry_id,)))

    async def outbox_retry(self, entry_id: int, due_at: float) -> bool:
        """Count a failed delivery and try again at ``due_at``."""
        sql = "UPDATE outbox SET attempts = attempts + 1, due_at = ? WHERE id = ?"
        return bool(await self._execute(sql, (due_at, entry_id)))

    # ------------------------------------------------------------------ seat offers (substitution)

    async def put_offer(self, offer: OfferRow) -> None:
        """Offer a seat to someone (replacing an earlier offer of that seat, and whatever was agreed to it)."""
        sql = (
            "INSERT INTO offers (game_id, seat, from_user, to_user, to_name, by_user, expires_at, to_agreed,"
            " from_agreed, silent_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE"
            " SET from_user = excluded.from_user, to_user = excluded.to_user, to_name = excluded.to_name,"
            " by_user = excluded.by_user, expires_at = excluded.expires_at, to_agreed = excluded.to_agreed,"
            " from_agreed = excluded.from_agreed, silent_from = excluded.silent_from"
        )
        o = offer
        params = (o.game_id, o.seat, o.from_user, o.to_user, o.to_name, o.by_user, o.expires_at)
        await self._execute(sql, (*params, int(o.to_agreed), int(o.from_agreed), o.silent_from))

    async def get_offer(self, game_id: int, seat: int) -> OfferRow | None:
        """The open offer of a seat, or None."""
        sql = f"SELECT {cols(OfferRow)} FROM offers WHERE game_id = ? AND seat = ?"
        row = await self._fetchone(sql, (game_id, seat))
        return OfferRow(*row[:-3], bool(row[-3]), bool(row[-2]), row[-1]) if row else None

    async def silent_offers_due(self, now: float) -> list[OfferRow]:
        """Open offers the invited person accepted whose seat's player has not answered and whose silence counts
        as consent by now (issue 23)."""
        sql = (
            f"SELECT {cols(OfferRow)} FROM offers WHERE to_agreed = 1 AND from_agreed = 0 AND silent_from <= ?"
            " AND expires_at > ? ORDER BY game_id, seat"
        )
        rows = await self._fetchall(sql, (now, now))
        return [OfferRow(*r[:-3], bool(r[-3]), bool(r[-2]), r[-1]) for r in rows]

    async def agree_offer(self, game_id: int, seat: int, user_id: int, now: float) -> bool:
        """Record one side's consent to the open offer of a seat: the invited person's (``user_id`` is its
        ``to_user``) or the seat's player's (its ``from_user``); False if there is no unexpired offer between that
        person and the seat. (A write only: the service reads the offer after it, so that a failure of that read
        is never taken for a failure of the write.)"""
        sql = (
            "UPDATE offers SET to_agreed = CASE WHEN to_user = ? THEN 1 ELSE to_agreed END,"
            " from_agreed = CASE WHEN from_user = ? THEN 1 ELSE from_agreed END"
            " WHERE game_id = ? AND seat = ? AND expires_at > ? AND (to_user = ? OR from_user = ?)"
        )
        return bool(await self._execute(sql, (user_id, user_id, game_id, seat, now, user_id, user_id)))

    async def take_offer(self, game_id: int, seat: int, to_user: int, now: float, name: str, move: Move) -> bool:
        """Accept an offer: the seat goes to ``to_user`` (the host role too, if the old player hosted), the
        offer and the old player's reminders are gone and ``move``'s events, reminders and outbox are added,
        in one transaction; False if there is no such unexpired offer or the seat changed hands since."""
        async with self._write() as conn:
            sql = "SELECT from_user FROM offers WHERE game_id = ? AND seat = ? AND to_user = ? AND expires_at > ?"
            cursor = await conn.execute(sql, (game_id, seat, to_user, now))
            row = cursor.fetchone()
            if row is None:
                raise Rollback
            sql = (
                "UPDATE seats SET user_id = ?, name = ?, dm_blocked = 0, private_thread_id = NULL"
                " WHERE game_id = ? AND seat = ? AND user_id = ?"
            )
            cursor = await conn.execute(sql, (to_user, name, game_id, seat, row[0]))
            if cursor.rowcount != 1:
                raise Rollback
            await conn.execute("DELETE FROM offers WHERE game_id = ? AND seat = ?", (game_id, seat))
            await conn.execute("DELETE FROM reminders WHERE game_id = ? AND user_id = ?", (game_id, row[0]))
            await conn.execute("UPDATE games SET host_id = ? WHERE id = ? AND host_id = ?", (to_user, game_id, row[0]))
            await self._insert_events(conn, game_id, move.events)
            await self._bookkeeping(conn, game_id, move)
            return True
        return False

    async def drop_offer(self, game_id: int, seat: int) -> bool:
        """Withdraw or refuse an offer; False if there was none."""
        return bool(await self._execute("DELETE FROM offers WHERE game_id = ? AND seat = ?", (game_id, seat)))

    # ------------------------------------------------------------------ languages

    async def get_user_lang(self, user_id: int) -> str | None:
        """A person's language as last seen (``None``: never seen)."""
        row = await self._fetchone("SELECT lang FROM user_langs WHERE user_id = ?", (user_id,))
        return str(row[0]) if row else None

    async def set_user_lang(self, user_id: int, lang: str, now: float) -> None:
        """Remember a person's language (from their latest interaction)."""
        sql = (
            "INSERT INTO user_langs (user_id, lang, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang, updated_at = excluded.updated_at"
        )
        await self._execute(sql, (user_id, lang, now))

    # ------------------------------------------------------------------ cooldowns (limits on spam)

    async def claim_cooldown(self, kind: str, key: int, now: float, ends_at: float) -> float | None:
        """Start the cooldown ``kind`` of ``key`` (a game, a user), running until ``ends_at``, unless one runs
        already: ``None`` when it was started (the caller goes ahead), else when the running one ends. A running
        cooldown is read first, without writing (a flood of refused requests takes no write lock); else one
        transaction deletes the expired cooldowns and inserts this one, so of two processes asking at once exactly
        one gets ``None``."""
        sql = 'SELECT ends_at FROM cooldowns WHERE kind = ? AND "key" = ? AND ends_at > ?'
        row = await self._fetchone(sql, (kind, key, now))
        if row is not None:
            return float(row[0])
        async with self._write() as conn:
            await conn.execute("DELETE FROM cooldowns WHERE ends_at <= ?", (now,))
            sql = 'INSERT INTO cooldowns (kind, "key", ends_at) VALUES (?, ?, ?) ON CONFLICT (kind, "key") DO NOTHING'
            if (await conn.execute(sql, (kind, key, ends_at))).rowcount == 1:
                return None
            found = await conn.execute('SELECT ends_at FROM cooldowns WHERE kind = ? AND "key" = ?', (kind, key))
            row = found.fetchone()
            assert row is not None
            return float(row[0])

    async def count_cooldowns(self) -> int:
        """How many cooldowns the table holds (expired ones included until the next claim deletes them)."""
        row = await self._fetchone("SELECT COUNT(*) FROM cooldowns")
        return int(row[0]) if row else 0

    # ------------------------------------------------------------------ guild settings

    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The guild's settings dict ({} if never set)."""
        row = await self._fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return dict(json.loads(row[0])) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: Mapping[str, Any]) -> None:
        """Replace the guild's settings with a JSON-serialisable mapping."""
        sql = (
            "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings"
        )
        await self._execute(sql, (guild_id, json.dumps(dict(settings), sort_keys=True)))
