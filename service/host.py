"""Keeping a slow game moving and fixing mistakes: undo, the host's skip, and handing a seat over (only with
the new player's consent)."""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

from engine.core import Choice, Game, Prompt, dump_choice, load_choice, waits_for
from engine.msg import Join, M, Msg, P
from service.access import SEAT, SERVER
from service.core import MOVED_FIRST, OLD_BOARD, Core, status_word
from service.notice import MaybeTaken, Notice, NotTaken, ServiceError, StaleClick, Table, User
from service.outcome import (
    MAYBE_DONE,
    NOT_DONE,
    Written,
    agree_offer,
    announce,
    commit_move,
    put_offer,
    seated,
    take_offer,
    taken_reply,
)
from service.pace import absent_waits, timeouts_to_replace, wait_begins
from service.records import UNDO_KIND, effective_choices, label_of, table_row
from store import AlreadySeated, Move, OfferRow

#: At most this many default choices when the host skips a player's turn (a guard against a loop).
MAX_SKIP_CHOICES = 500
#: Event kinds that end a turn: a skip stops there.
TURN_BOUNDARIES = frozenset({"turn", "round", "act", "phase", "final"})
#: Undos between two fixed steps (a reveal or a new turn): enough to think twice, not to grow the record
#: without bound (each undo is a record entry).
MAX_UNDOS = 50
#: Hours a seat offer stays open for the invited player (the host's substitution).
OFFER_HOURS = 24.0


class Host(Core):
    """Undo, skip and substitution."""

    # --- undo ----------------------------------------------------------------------------------------------

    def undo_check(self, table: Table, seat: int, raw: list[str]) -> Msg | None:
        """Why ``seat`` may not undo now, or ``None`` when it may."""
        return undo_refusal(table, seat, raw)

    async def can_undo(self, table: Table, seat: int | None) -> bool:
        """Whether ``seat`` could undo its last step now (for showing the button)."""
        if seat is None or table.row.status != "active" or getattr(table.game, "undo_floor", None) is None:
            return False
        return self.undo_check(table, seat, await self.store.get_choices(table.id)) is None

    async def undo(self, game_id: int, user: User, version: int | None = None) -> Notice:
        """Take back the player's own last step of this turn (never past a reveal); logged, not hidden."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SEAT)
            self.need_active(table, M("table.what.undo", "nothing to undo"))
            seat = table.seat_of(user.id)
            if seat is None:
                raise ServiceError(not_seated(game_id))
            if version is not None and version != table.version:
                raise StaleClick(OLD_BOARD)
            raw = await self.store.get_choices(game_id)
            why = self.undo_check(table, seat, raw)
            if why is not None:
                raise ServiceError(why)
            effective = effective_choices(raw)
            before = await asyncio.to_thread(self.replay, table, effective[:-1])
            undone = effective[-1]
            prompt = next(
                (p for p in table.game.prompts(before) if p.seat == undone.seat and p.kind == undone.kind), None
            )
            opt = prompt.option(undone.option) if prompt else None
            # a private question's option may name what only that player knows: the log says less then
            name = table.name_of(seat)
            if opt is not None and prompt is not None and not prompt.secret:
                label = label_of(opt)
                line = M("table.log.undo_shown", "↩ {name} takes back: {label}.", name=name, label=label)
            else:
                line = M("table.log.undo", "↩ {name} takes back a step.", name=name)
            move = Move(
                [(dump_choice(Choice(seat, UNDO_KIND, "1")), user.id)],
                table.game.dumps(before).decode(),
                self.clock(),
                events=[table_row(table.version + 1, line, "undo")],
            )
            asked_before = table.prompts()
            notice = self.bookkeep(table, move, asked_before, table.game.prompts(before), [])
            outcome = await commit_move(self.store, game_id, table.version, move)
            if outcome is Written.REFUSED:
                raise StaleClick(MOVED_FIRST)
            notice.table = await self.reload(game_id, lambda: self.moved(table, move, before))
            notice.public = [line]
            notice.reply = taken_reply(outcome, notice.reply)
            return notice

    # --- skip ----------------------------------------------------------------------------------------------

    async def skip(self, game_id: int, user: User, version: int, seat: int) -> Notice:
        """The host (or an admin) skips the turn of the player the board waited for at ``version``: the table
        takes each of that player's questions' default option (the game marks it) until their turn is over.
        Refused if the game moved since (the player may have moved themselves)."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SERVER)
            self.need_active(table, NO_TURN_TO_SKIP)
            self.need_host(table, user, "skip")
            name = table.name_of(seat)
            if version != table.version:
                raise StaleClick(
                    M(
                        "table.err.skip_moved",
                        "The game moved on since that board; nothing was skipped ({name} may have played).",
                        name=name,
                    )
                )
            waiting = {p.seat for p in table.prompts() if waits_for(p)}
            if seat not in waiting:
                raise ServiceError(
                    M(
                        "table.err.skip_not_waited",
                        "{name} is not being waited for now; nothing was skipped.",
                        name=name,
                    )
                )
            moves, labels = await asyncio.to_thread(skip_moves, table.game, table.game.dumps(table.state), seat)
            shown = M("table.log.skip_more", "{items} …", items=Join(labels[:6], "comma")) if len(labels) > 6 else None
            preface = [
                M(
                    "table.log.skip",
                    "{host} skips {name}'s turn: {shown}.",
                    host=user.name,
                    name=name,
                    shown=shown or Join(labels, "comma"),
                )
            ]
            reply = P(
                "table.reply.skipped",
                "Skipped {name}'s turn ({n} default choice).",
                "Skipped {name}'s turn ({n} default choices).",
                len(moves),
                name=name,
            )
            try:
                return await self.commit(table, moves, preface=preface, reply=reply)
            except NotTaken as exc:  # the host's request, not their move: said so
                raise NotTaken(NOT_DONE) from exc
            except MaybeTaken as exc:
                raise MaybeTaken(MAYBE_DONE) from exc

    # --- substitution --------------------------------------------------------------------------------------

    async def offer_seat(self, game_id: int, user: User, seat_user: int, new: User) -> Notice:
        """The host (or an admin) offers a player's seat to someone else. It changes hands only with both
        people's consent within ``OFFER_HOURS`` (issue 22): the invited person presses "Take the seat" and the
        seat's player "Give up my seat", in either order; "Keep my seat" withdraws the offer. A seat a bot plays
        for its player (``/game botseat``) stays that player's and is offered to no one."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SERVER)
            if table.row.status not in ("lobby", "active"):
                raise ServiceError(is_status(game_id, table.row.status))
            self.need_host(table, user, "substitute")
            seat = table.seat_of(seat_user)
            claims = await self.seat_claims(table)
            held_for = claims.get(seat) if seat is not None else None
            if held_for is not None or seat_user in claims.values():
                raise ServiceError(seat_claimed(held_for if held_for is not None else seat_user))
            if seat is None:
                raise ServiceError(no_seat_of(seat_user, game_id))
            if new.id <= 0:
                raise ServiceError(M("table.err.offer_person", "A seat can only be offered to a person."))
            if table.seat_of(new.id) is not None:
                raise ServiceError(
                    M("table.err.has_seat", "{name} already has a seat in game #{game}.", name=new.name, game=game_id)
                )
            now = self.clock()
            # issue 23: after the player's timeouts in a row, their silence for a day counts as consent
            absent = absent_waits(await self.store.get_choice_rows(game_id), seat, seat_user)
            silent = (n := timeouts_to_replace(table)) > 0 and absent >= n and table.row.status == "active"
            silent_from = now + OFFER_HOURS * 3600 if silent else None
            expires = now + (2 if silent else 1) * OFFER_HOURS * 3600
            offer = OfferRow(game_id, seat, seat_user, new.id, new.name, user.id, expires, silent_from=silent_from)
            await put_offer(self.store, offer)
            name = table.name_of(seat)
            body = {
                "seat": seat,
                "from_user": seat_user,
                "to_user": new.id,
            }
            hours = f"{OFFER_HOURS:.0f}"
            if silent_from is not None:
                text = M(
                    "table.offer.silent",
                    "{host} offers {name}'s seat in game #{game} ({title}) to <@{to}>: {name}'s last {n} turns were "
                    "played for them. <@{seat_user}> may press **Keep my seat** to go on playing, or **Give up my "
                    "seat**; if they do not answer by <t:{at}:f>, the seat changes hands once <@{to}> presses **Take "
                    "the seat**.",
                    host=user.name,
                    name=name,
                    game=game_id,
                    title=table.game.title,
                    to=new.id,
                    n=absent,
                    seat_user=seat_user,
                    at=math.ceil(silent_from),
                )
            else:
                text = M(
                    "table.offer.consent",
                    "{host} offers {name}'s seat in game #{game} ({title}) to <@{to}>. It changes hands only when "
                    "both agree within {hours} h: <@{to}> presses **Take the seat**, <@{seat_user}> presses **Give "
                    "up my seat** (or **Keep my seat** to go on playing).",
                    host=user.name,
                    name=name,
                    game=game_id,
                    title=table.game.title,
                    to=new.id,
                    hours=hours,
                    seat_user=seat_user,
                )
            body |= {"text": str(text), "msg": text.dump()}
            move = Move([], "", self.clock(), outbox=[("offer", new.id, json.dumps(body))])
            if await announce(self.store, game_id, table.version, move) is Written.REFUSED:
                raise StaleClick(M("table.err.moved_try_again", "The game moved on; try again."))
            reply = M(
                "table.reply.offered_consent",
                "Seat offered to {name}; it changes hands when they and the seat's player both agree.",
                name=new.name,
            )
            return Notice(table, reply=reply)

    async def take_seat(self, game_id: int, user: User, seat: int) -> Notice:
        """The invited person accepts a seat offer: the seat is theirs now if its player already agreed to give
        it up, else as soon as they do."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SERVER)
            if table.row.status not in ("lobby", "active"):
                raise ServiceError(is_status(game_id, table.row.status))
            offer = await self.store.get_offer(game_id, seat)
            now = self.clock()
            if offer is None or offer.to_user != user.id or offer.expires_at <= now:
                raise ServiceError(
                    M(
                        "table.err.no_offer",
                        "There is no open offer of that seat for you (it may have expired or been refused).",
                    )
                )
            if table.seat_of(user.id) is not None:
                raise ServiceError(already_seated(game_id))
            offer = await agree_offer(self.store, game_id, seat, user.id, now)
            if offer is None:
                raise ServiceError(OFFER_GONE)
            name = table.name_of(seat)
            if not offer.from_agreed and await self.silence_consents(table, offer, now):
                reply = M(
                    "table.reply.took_seat_silent",
                    "You now play {name}'s seat in game #{game} ({name} did not answer the offer in time).",
                    name=name,
                    game=game_id,
                )
                return await self._hand_over(table, offer, now, reply)
            if not offer.from_agreed:
                reply = M(
                    "table.reply.take_waits",
                    "You accept {name}'s seat in game #{game}; it is yours as soon as <@{player}> agrees to give it "
                    "up.",
                    name=name,
                    game=game_id,
                    player=offer.from_user,
                )
                return Notice(table, reply=reply)
            reply = M("table.reply.took_seat", "You now play {name}'s seat in game #{game}.", name=name, game=game_id)
            return await self._hand_over(table, offer, now, reply)

    async def give_seat(self, game_id: int, user: User, seat: int) -> Notice:
        """The seat's player agrees to give their seat to the invited person: it changes hands now if they
        already accepted, else as soon as they do."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SEAT)
            if table.row.status not in ("lobby", "active"):
                raise ServiceError(is_status(game_id, table.row.status))
            offer = await self.store.get_offer(game_id, seat)
            now = self.clock()
            if offer is None or offer.from_user != user.id or offer.expires_at <= now:
                raise ServiceError(
                    M(
                        "table.err.no_offer_of_yours",
                        "There is no open offer of your seat (it may have expired or been withdrawn).",
                    )
                )
            offer = await agree_offer(self.store, game_id, seat, user.id, now)
            if offer is None:
                raise ServiceError(OFFER_GONE)
            if not offer.to_agreed:
                reply = M(
                    "table.reply.give_waits",
                    "You agree to give up your seat in game #{game}; it goes to {to} as soon as they take it.",
                    game=game_id,
                    to=offer.to_name,
                )
                return Notice(table, reply=reply)
            reply = M(
                "table.reply.gave_seat", "{to} now plays your seat in game #{game}.", to=offer.to_name, game=game_id
            )
            return await self._hand_over(table, offer, now, reply)

    async def silence_consents(self, table: Table, offer: OfferRow, now: float) -> bool:
        """Whether the seat's player's silence counts as consent to ``offer`` now (issue 23): it was offered after
        their timeouts in a row, a day has passed, and they have not played since (a player who is back keeps
        their seat unless they agree)."""
        if offer.silent_from is None or now < offer.silent_from:
            return False
        n = timeouts_to_replace(table)
        rows = await self.store.get_choice_rows(table.id)
        return n > 0 and absent_waits(rows, offer.seat, offer.from_user) >= n

    async def _hand_over(self, table: Table, offer: OfferRow, now: float, reply: Msg) -> Notice:
        """The seat of an offer both sides agreed to goes to the invited person (with its log line, the new
        player's reminder), in one transaction."""
        game_id, seat, taker = table.id, offer.seat, offer.to_user
        name = table.name_of(seat)
        line = M("table.log.takes_seat", "{user} now plays {name}'s seat.", user=offer.to_name, name=name)
        move = Move([], "", now, events=[table_row(table.version, line, "seat", seat=seat)])
        if any(p.seat == seat and waits_for(p) for p in table.prompts()):  # the new player's wait begins
            move.reminders_on += wait_begins(table, taker, now, self.settings.reminder_first_s)
        try:
            outcome = await take_offer(self.store, game_id, seat, taker, now, name, move)
        except AlreadySeated:
            raise ServiceError(already_seated(game_id)) from None
        if outcome is Written.REFUSED:
            raise ServiceError(OFFER_GONE)
        table = await self.reload(game_id, lambda: seated(table, seat, taker, name))
        notice = Notice(table, public=[line], reply=reply)
        if table.prompts_for(seat):
            notice.ping = [taker]
        return notice

    async def refuse_seat(self, game_id: int, user: User, seat: int) -> Notice:
        """The seat's player keeps their seat, or the invited player declines: the offer is withdrawn."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SEAT)
            offer = await self.store.get_offer(game_id, seat)
            if offer is None:
                raise ServiceError(M("table.err.offer_closed", "That offer is no longer open."))
            if user.id not in (offer.from_user, offer.to_user):
                raise ServiceError(
                    M("table.err.offer_whose", "Only the seat's player or the invited player can answer this offer.")
                )
            await self.store.drop_offer(game_id, seat)
            if user.id == offer.from_user:
                line = M("table.log.keeps_seat", "{name} keeps their seat.", name=user.name)
            else:
                line = M("table.log.declines_seat", "{name} declines the seat.", name=user.name)
            return Notice(table, public=[line], reply=M("table.reply.withdrawn", "The offer is withdrawn."))


#: The refusal when an offer was withdrawn, expired or its seat changed hands while a request was on its way.
OFFER_GONE = M("table.err.offer_gone", "That seat changed hands or the offer expired; nothing changed.")


def seat_claimed(player: int) -> Msg:
    """The refusal to offer a seat a bot plays for its player (issue 22: it stays theirs)."""
    return M(
        "table.err.seat_claimed",
        "A bot plays <@{user}>'s seat for them: it stays theirs, only they can take it back (/game reclaim), and it "
        "cannot be offered to anyone else meanwhile.",
        user=player,
    )


#: What the host's skip finds nothing to do for.
NO_TURN_TO_SKIP = M("table.what.skip", "no turn to skip")


def not_seated(game_id: int) -> Msg:
    """The refusal of a request only the game's players may make."""
    return M("table.err.not_seated", "You are not seated in game #{game}.", game=game_id)


def already_seated(game_id: int) -> Msg:
    """The refusal to seat someone twice."""
    return M("table.err.already_seated", "You already have a seat in game #{game}.", game=game_id)


def is_status(game_id: int, status: str) -> Msg:
    """``Game #3 is finished.``"""
    return M("table.err.is_status", "Game #{game} is {status}.", game=game_id, status=status_word(status))


def no_seat_of(user_id: int, game_id: int) -> Msg:
    """The refusal for a user who has no seat at the game."""
    return M("table.err.no_seat_of", "<@{user}> has no seat in game #{game}.", user=user_id, game=game_id)


def undo_refusal(table: Table, seat: int, raw: list[str]) -> Msg | None:
    """Why ``seat`` may not undo its last step of ``table`` (whose record is ``raw``) now, or ``None`` when it
    may. Public: it reads the record and the engine's undo floor, which moves by public steps only."""
    floor_of = getattr(table.game, "undo_floor", None)
    if floor_of is None:
        return M("table.err.no_undo", "{title} has no undo.", title=table.game.title)
    effective = effective_choices(raw)
    if not effective:
        return M("table.err.nothing_to_undo", "There is nothing to take back yet.")
    last = effective[-1]
    if last.seat != seat:
        return M(
            "table.err.undo_not_yours",
            "Only your own steps can be taken back; the last step was {name}'s.",
            name=table.name_of(last.seat),
        )
    floor = floor_of(table.state)
    if len(effective) <= floor:
        return M(
            "table.err.undo_fixed",
            "You cannot take back a step once a card, tile or chance was revealed, or from an earlier turn.",
        )
    if _undos_since(raw, floor) >= MAX_UNDOS:
        return M("table.err.undo_many", "You have taken back {n} steps here already; decide now, please.", n=MAX_UNDOS)
    return None


def _undos_since(raw: list[str], floor: int) -> int:
    """Undo records after the ``floor``-th choice in effect was made (how often this step was taken back)."""
    effective = 0
    undos = 0
    for item in raw:
        if load_choice(item).kind == UNDO_KIND:
            undos += 1
            effective -= 1
        else:
            effective += 1
            if effective <= floor:
                undos = 0
    return undos


def skip_moves(game: Game, state_json: bytes, seat: int) -> tuple[list[tuple[Choice, int | None]], list[str]]:
    """The default choices of a skipped turn, on a copy of the state (off the event loop), and their labels
    as the public may read them."""
    state = game.loads(state_json)
    moves: list[tuple[Choice, int | None]] = []
    labels: list[Any] = []
    for _ in range(MAX_SKIP_CHOICES):
        mine: list[Prompt] = [p for p in game.prompts(state) if p.seat == seat and waits_for(p)]
        if not mine or game.is_over(state):
            break
        prompt = mine[0]
        option = prompt.default_option()
        labels.append(
            M("table.log.private_choice", "a private choice") if prompt.secret else label_of(prompt.option(option))
        )
        events = game.apply(state, Choice(seat, prompt.kind, option))
        moves.append((Choice(seat, prompt.kind, option), None))
        if any(e.kind in TURN_BOUNDARIES for e in events):
            break  # the skipped turn is over: never play that player's next turn too
    return moves, labels
