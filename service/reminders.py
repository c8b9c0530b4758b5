"""Reminders for players who must act and have not (the reminder loop asks for the due ones)."""

from __future__ import annotations

from service.notice import Table
from service.pace import PARKED, deadline_s, next_reminder
from service.people import People
from service.quiet import quiet_until


class Reminders(People):
    """Due reminders."""

    async def due_reminders(self) -> list[tuple[Table, int, int, int]]:
        """Reminders that are due, each claimed for this process: (table, user id, how many were sent before, the
        game's version when the wait began; the last two name the reminder's message).
        The caller sends each and then calls ``reminder_sent``; one no longer needed is dropped here. A
        reminder another process claimed first is left to it; one whose claimer died before sending is due
        again once its claim lapses (``reminder_claim_s``)."""
        now = self.clock()
        out = []
        due = await self.store.due_reminders(now, "turn")
        people = await self.store.get_people({r.user_id for r in due})
        for r in due:
            table = await self.load(r.game_id)
            seat = table.seat_of(r.user_id)
            if table.row.status != "active" or seat is None or not table.prompts_for(seat):
                await self.store.clear_reminders(r.game_id, r.user_id, r.kind)
                continue
            lease = now + self.settings.reminder_claim_s
            quiet = quiet_until(people[r.user_id], now) if r.user_id in people else None
            if quiet is not None:  # issue 23: it waits until their quiet hours end (moved there, as claimed)
                await self.store.claim_reminder(r.game_id, r.user_id, r.kind, r.count, now, quiet)
                continue
            if not await self.store.claim_reminder(r.game_id, r.user_id, r.kind, r.count, now, lease):
                continue  # another process sends this one
            out.append((table, r.user_id, r.count, r.since))
        return out

    async def reminder_sent(self, table: Table, user_id: int) -> None:
        """Count a sent reminder and arm the next one: at a table with a deadline (issue 23), the one near its
        end, then none (the deadline comes next); without one, every ``reminder_repeat_s``."""
        now = self.clock()
        game_id = table.id  # (the table as the due reminder was read: only its options are used, never changed)
        deadline = deadline_s(table)
        rows = {r.kind: r for r in await self.store.get_reminders(game_id) if r.user_id == user_id}
        turn, due = rows.get("turn"), rows.get("deadline")
        if deadline is not None and due is None:  # the wait ended meanwhile (or began before the option)
            deadline = None
        started = due.due_at - deadline if due is not None and deadline is not None else now
        sent = turn.count if turn is not None else 0
        after = next_reminder(deadline, started, sent, now, self.settings.reminder_repeat_s)
        # none before the deadline: the reminder waits, counted, for the wait's end (or for a firmer ping when the
        # deadline passes at an on_timeout=remind table: its next message must be a new one)
        await self.store.bump_reminder(game_id, user_id, "turn", PARKED if after is None else after)

    async def deadline_of(self, table: Table, user_id: int) -> float | None:
        """When the wait for ``user_id`` at ``table`` runs out (None: no deadline is running for them)."""
        rows = await self.store.get_reminders(table.id)
        return next((r.due_at for r in rows if r.user_id == user_id and r.kind == "deadline"), None)
