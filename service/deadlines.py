"""Deadlines (issue 23): when the time a table gives a player for a wait runs out, the table acts for them as
its option ``on_timeout`` says. A deadline is a row of the reminders table (kind ``deadline``), armed and moved in
the same transaction as the move that began the wait (``Core.bookkeep``); each due one is claimed by one
process (a lease, as reminders are: issue 14), and what the table does is committed as a move whose choices
carry their cause (``deadline``) in the record, with the move re-arming or dropping the deadline. A process that
dies after its claim leaves the deadline due again when the lease runs out; a deadline that passed while no
process ran fires once, at the first sweep after a start."""

from __future__ import annotations

import asyncio
import logging

from engine.core import Choice, Event, waits_for
from engine.msg import Join, M, Msg
from service.bot_seats import BotSeats
from service.host import TURN_BOUNDARIES, skip_moves
from service.notice import Notice, ServiceError, StaleClick, Table
from service.pace import absent_waits, deadline_s, on_timeout, timeouts_to_replace
from service.people import People
from service.records import private_body, table_row
from store import Move, OfferRow, ReminderRow

log = logging.getLogger(__name__)

#: the cause a timeout's choices carry in the record
DEADLINE = "deadline"
#: how often a deadline is tried again at once when another process's move at its game came first
TRIES = 3
#: the level of the bot that covers for a player whose time ran out (issue 23: the standard level)
COVER_LEVEL = "standard"


def wait_ended(events: list[Event]) -> bool:
    """Whether a choice's events end the wait it answered: its turn, round, act or phase is over (the bot that
    covers for a player plays that wait only, as the host's skip does)."""
    return any(e.kind in TURN_BOUNDARIES for e in events)


class Deadlines(BotSeats, People):
    """Firing due deadlines."""

    async def fire_deadlines(self) -> list[int]:
        """Act on every due deadline this process claims first; returns the games that changed (to be
        delivered). A deadline whose wait ended meanwhile is dropped; one that fails is left to its lease."""
        now = self.clock()
        changed: list[int] = []
        # issue 23: less those put off for away players, with those away players' that are due at once (People)
        for r in await self.deadlines_due(now):
            lease = now + self.settings.reminder_claim_s
            if not await self.claim_deadline(r, now, lease):
                continue  # another process has it
            for _ in range(TRIES):
                try:
                    if await self.time_out(r, lease):
                        changed.append(r.game_id)
                    break
                except StaleClick:  # another process's move at this game came first: look again
                    continue
                except Exception:  # noqa: BLE001 - one game's failure must not stop the others' deadlines
                    log.exception("the deadline of user %s in game %s failed; due again later", r.user_id, r.game_id)
                    break
        for offer in await self.store.silent_offers_due(now):
            try:
                if await self.silent_hand_over(offer, now):
                    changed.append(offer.game_id)
            except ServiceError:  # the offer or the seat changed meanwhile: nothing to do
                continue
        return changed

    async def silent_hand_over(self, offer: OfferRow, now: float) -> bool:
        """Issue 23: a seat offered after its player's timeouts in a row, accepted by the invited person, whose
        player did not answer for a day (nor play since) changes hands. False if that no longer holds."""
        async with self.lock(offer.game_id):
            table = await self.load(offer.game_id)
            if table.row.status != "active" or await self.store.get_offer(offer.game_id, offer.seat) != offer:
                return False
            if not await self.silence_consents(table, offer, now):
                return False
            reply = M("table.reply.silent_hand_over", "The seat changed hands.")
            await self._hand_over(table, offer, now, reply)
            return True

    async def time_out(self, r: ReminderRow, lease: float) -> bool:
        """Act on one claimed deadline (``lease``: the claim); False if nothing was to be done."""
        async with self.lock(r.game_id):
            table = await self.load(r.game_id)
            seat = table.seat_of(r.user_id)
            mine = [
                x for x in await self.store.get_reminders(r.game_id) if x.user_id == r.user_id and x.kind == DEADLINE
            ]
            still = mine and mine[0].due_at == lease and mine[0].since == r.since
            if table.row.status != "active" or seat is None or not still:
                if still or (mine and table.row.status != "active"):
                    await self.store.clear_reminders(r.game_id, r.user_id, DEADLINE)
                return False
            if not any(p.seat == seat and waits_for(p) for p in table.prompts()):
                await self.store.clear_reminders(r.game_id, r.user_id, DEADLINE)
                return False
            mode = on_timeout(table)
            if mode in ("bot", "hold") and not self.bots.plays(table.game.name):
                mode = "skip"  # a game without a seat bot: the default choices (none today: both games have one)
            in_row = await self.timeouts_in_row(table, seat) + 1
            if mode == "remind":
                await self._remind_firmly(table, seat, r)
            elif mode == "hold":
                table, line, _bot = await self.bot_takes_seat(table, seat, r.user_id, COVER_LEVEL, 0, timeout=True)
                await self.bots_after(Notice(table, public=[line]))
            else:
                await self._play_for(table, seat, mode)
            if (n := timeouts_to_replace(table)) and in_row == n:
                await self._tell_host(table, seat, in_row)
            return True

    async def timeouts_in_row(self, table: Table, seat: int) -> int:
        """The seat's waits answered by others than its player, back to their own last choice (``absent_waits``)."""
        player = table.user_of(seat)
        rows = await self.store.get_choice_rows(table.id)
        return absent_waits(rows, seat, player) if player is not None else 0

    async def _play_for(self, table: Table, seat: int, mode: str) -> None:
        """``bot``: the standard bot plays this wait for the player, from their seat's view; ``skip``: the
        default choices, as the host's skip takes them. Either way until the seat is no longer waited for or its
        turn ends; the choices carry the cause ``deadline``."""
        name = table.name_of(seat)
        cover = [(c, None) for c in await self.cover_choices(table, seat)] if mode == "bot" else []
        if mode == "bot" and not cover:
            mode = "skip"  # the bot found nothing to answer (it never should): the defaults, never a stuck wait
        if mode == "skip":
            moves, labels = await asyncio.to_thread(skip_moves, table.game, table.game.dumps(table.state), seat)
            line: Msg = M(
                "table.log.timeout_skip",
                "{name}'s time ran out: the table takes the default choices ({shown}).",
                name=name,
                shown=Join(labels[:6], "comma"),
            )
        else:
            moves = list(cover)
            line = M("table.log.timeout_bot", "{name}'s time ran out: the bot plays for {name}.", name=name)
        if not moves:
            return
        await self.commit(table, moves, preface=[line], cause=DEADLINE)

    async def cover_choices(self, table: Table, seat: int) -> list[Choice]:
        """The standard bot's answers for ``seat`` until it is no longer waited for, decided from that seat's
        own view (the seat bots' fair-play rule), on a copy of the state."""
        bots = await self.bot_table(table, {seat: COVER_LEVEL})
        state = table.game.loads(table.game.dumps(table.state))
        done = await asyncio.to_thread(self.bots.run, bots, state, wait_ended)
        return [c for c, _ in done if c.seat == seat]

    async def _remind_firmly(self, table: Table, seat: int, r: ReminderRow) -> None:
        """``remind``: the log says the time ran out and that the host may act; the player is pinged again at
        once (the reminder loop's next round, "waiting for you again"); the deadline comes round again after as
        long (the wait goes on)."""
        now = self.clock()
        line = M(
            "table.log.timeout_remind",
            "{name}'s time ran out; the game waits for {name}. The host may skip the turn "
            "(/game skip) or hand the seat to a bot (/game botseat).",
            name=table.name_of(seat),
        )
        move = Move([], "", now, events=[table_row(table.version, line, seat=seat)])
        move.reminders_on.append((r.user_id, DEADLINE, now + (deadline_s(table) or 0)))
        move.reminders_again.append((r.user_id, "turn", now))  # "waiting for you again", a message of its own
        if not await self.store.table_event(table.id, table.version, move):
            log.info("game %s moved before the timeout line of seat %s was written", table.id, seat)

    async def _tell_host(self, table: Table, seat: int, n: int) -> None:
        """After ``timeouts_to_replace`` timeouts in a row: the host is told privately that they may offer the
        seat to someone else (the player's consent rule holds: issue 22)."""
        host = table.row.host_id
        line = M(
            "table.private.timeouts",
            "{name}'s time ran out {n} times in a row in game #{game}. You may offer the seat to someone else "
            "with /game substitute (they keep it unless they agree).",
            name=table.name_of(seat),
            n=n,
            game=table.id,
        )
        move = Move([], "", self.clock())
        move.outbox.append(("private", host, private_body([line])))
        table = await self.load(table.id)
        if not await self.store.table_event(table.id, table.version, move):
            log.info("game %s moved before its host was told of the timeouts", table.id)
