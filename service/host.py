"""Keeping a slow game moving and fixing mistakes: undo, the host's skip, and handing a seat over (only with
the new player's consent)."""

from __future__ import annotations

import asyncio
import json

from engine.core import Choice, Game, Prompt, dump_choice, load_choice, waits_for
from service.core import UNDO_KIND, Core, effective_choices, table_row
from service.notice import Notice, ServiceError, StaleClick, Table, User
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

    def undo_check(self, table: Table, seat: int, raw: list[str]) -> str | None:
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
            table = await self.load(game_id)
            self.need_active(table, "nothing to undo")
            seat = table.seat_of(user.id)
            if seat is None:
                raise ServiceError(f"You are not seated in game #{game_id}.")
            if version is not None and version != table.version:
                raise StaleClick(
                    "That button belongs to an older board; the game has moved on. Use the latest message."
                )
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
            what = f": {opt.label}" if opt is not None and prompt is not None and not prompt.secret else " a step"
            line = f"↩ {table.name_of(seat)} takes back{what}."
            move = Move(
                [(dump_choice(Choice(seat, UNDO_KIND, "1")), user.id)],
                table.game.dumps(before).decode(),
                self.clock(),
                events=[table_row(table.version + 1, line, "undo")],
            )
            asked_before = table.prompts()
            notice = self.bookkeep(table, move, asked_before, table.game.prompts(before), [])
            if not await self.store.commit_move(game_id, table.version, move):
                raise StaleClick("Someone else moved first; the board has changed. Use the latest message.")
            notice.table = await self.load(game_id)
            notice.public = [line]
            return notice

    # --- skip ----------------------------------------------------------------------------------------------

    async def skip(self, game_id: int, user: User, version: int, seat: int) -> Notice:
        """The host (or an admin) skips the turn of the player the board waited for at ``version``: the table
        takes each of that player's questions' default option (the game marks it) until their turn is over.
        Refused if the game moved since (the player may have moved themselves)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            self.need_active(table, "no turn to skip")
            self.need_host(table, user, "skip a turn in")
            name = table.name_of(seat)
            if version != table.version:
                raise StaleClick(f"The game moved on since that board; nothing was skipped ({name} may have played).")
            waiting = {p.seat for p in table.prompts() if waits_for(p)}
            if seat not in waiting:
                raise ServiceError(f"{name} is not being waited for now; nothing was skipped.")
            moves, labels = await asyncio.to_thread(_skip_moves, table.game, table.game.dumps(table.state), seat)
            shown = "; ".join(labels[:6]) + (" …" if len(labels) > 6 else "")
            preface = [f"{user.name} skips {name}'s turn: {shown}."]
            reply = f"Skipped {name}'s turn ({len(moves)} default choices)."
            return await self.commit(table, moves, preface=preface, reply=reply)

    # --- substitution --------------------------------------------------------------------------------------

    async def offer_seat(self, game_id: int, user: User, seat_user: int, new: User) -> Notice:
        """The host (or an admin) offers a player's seat to someone else. Nothing changes until that person
        presses "Take the seat" within ``OFFER_HOURS``; the seat's player is told and may refuse."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status not in ("lobby", "active"):
                raise ServiceError(f"Game #{game_id} is {table.row.status}.")
            self.need_host(table, user, "substitute a player in")
            seat = table.seat_of(seat_user)
            if seat is None:
                raise ServiceError(f"<@{seat_user}> has no seat in game #{game_id}.")
            if new.id <= 0:
                raise ServiceError("A seat can only be offered to a person.")
            if table.seat_of(new.id) is not None:
                raise ServiceError(f"{new.name} already has a seat in game #{game_id}.")
            expires = self.clock() + OFFER_HOURS * 3600
            await self.store.put_offer(OfferRow(game_id, seat, seat_user, new.id, new.name, user.id, expires))
            name = table.name_of(seat)
            body = {
                "seat": seat,
                "from_user": seat_user,
                "to_user": new.id,
                "text": (
                    f"{user.name} offers {name}'s seat in game #{game_id} ({table.game.title}) to <@{new.id}>. "
                    f"<@{new.id}>: press **Take the seat** within {OFFER_HOURS:.0f} h to play it. "
                    f"<@{seat_user}>: press **Keep my seat** if you want to go on playing."
                ),
            }
            move = Move([], "", self.clock(), outbox=[("offer", new.id, json.dumps(body))])
            if not await self.store.table_event(game_id, table.version, move):
                raise StaleClick("The game moved on; try again.")
            return Notice(table, reply=f"Seat offered to {new.name}; it changes hands when they accept.")

    async def take_seat(self, game_id: int, user: User, seat: int) -> Notice:
        """The invited player accepts a seat offer."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status not in ("lobby", "active"):
                raise ServiceError(f"Game #{game_id} is {table.row.status}.")
            offer = await self.store.get_offer(game_id, seat)
            now = self.clock()
            if offer is None or offer.to_user != user.id or offer.expires_at <= now:
                raise ServiceError("There is no open offer of that seat for you (it may have expired or been refused).")
            if table.seat_of(user.id) is not None:
                raise ServiceError(f"You already have a seat in game #{game_id}.")
            name = table.name_of(seat)
            line = f"{user.name} now plays {name}'s seat."
            move = Move([], "", now, events=[table_row(table.version, line, "seat", seat=seat)])
            if any(p.seat == seat for p in table.prompts()):
                move.reminders_on.append((user.id, "turn", now + self.settings.reminder_first_s))
            try:
                ok = await self.store.take_offer(game_id, seat, user.id, now, name, move)
            except AlreadySeated:
                raise ServiceError(f"You already have a seat in game #{game_id}.") from None
            if not ok:
                raise ServiceError("That seat changed hands or the offer expired; nothing changed.")
            table = await self.load(game_id)
            notice = Notice(table, public=[line], reply=f"You now play {name}'s seat in game #{game_id}.")
            if table.prompts_for(seat):
                notice.ping = [user.id]
            return notice

    async def refuse_seat(self, game_id: int, user: User, seat: int) -> Notice:
        """The seat's player keeps their seat, or the invited player declines: the offer is withdrawn."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            offer = await self.store.get_offer(game_id, seat)
            if offer is None:
                raise ServiceError("That offer is no longer open.")
            if user.id not in (offer.from_user, offer.to_user):
                raise ServiceError("Only the seat's player or the invited player can answer this offer.")
            await self.store.drop_offer(game_id, seat)
            who = "keeps their seat" if user.id == offer.from_user else "declines the seat"
            return Notice(table, public=[f"{user.name} {who}."], reply="The offer is withdrawn.")


def undo_refusal(table: Table, seat: int, raw: list[str]) -> str | None:
    """Why ``seat`` may not undo its last step of ``table`` (whose record is ``raw``) now, or ``None`` when it
    may. Public: it reads the record and the engine's undo floor, which moves by public steps only."""
    floor_of = getattr(table.game, "undo_floor", None)
    if floor_of is None:
        return f"{table.game.title} has no undo."
    effective = effective_choices(raw)
    if not effective:
        return "There is nothing to take back yet."
    last = effective[-1]
    if last.seat != seat:
        return f"Only your own steps can be taken back; the last step was {table.name_of(last.seat)}'s."
    floor = floor_of(table.state)
    if len(effective) <= floor:
        return "You cannot take back a step once a card, tile or chance was revealed, or from an earlier turn."
    if _undos_since(raw, floor) >= MAX_UNDOS:
        return f"You have taken back {MAX_UNDOS} steps here already; decide now, please."
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


def _skip_moves(game: Game, state_json: bytes, seat: int) -> tuple[list[tuple[Choice, int | None]], list[str]]:
    """The default choices of a skipped turn, on a copy of the state (off the event loop), and their labels
    as the public may read them."""
    state = game.loads(state_json)
    moves: list[tuple[Choice, int | None]] = []
    labels: list[str] = []
    for _ in range(MAX_SKIP_CHOICES):
        mine: list[Prompt] = [p for p in game.prompts(state) if p.seat == seat and waits_for(p)]
        if not mine or game.is_over(state):
            break
        prompt = mine[0]
        option = prompt.default_option()
        label = prompt.option(option).label  # type: ignore[union-attr]
        labels.append("a private choice" if prompt.secret else label)
        events = game.apply(state, Choice(seat, prompt.kind, option))
        moves.append((Choice(seat, prompt.kind, option), None))
        if any(e.kind in TURN_BOUNDARIES for e in events):
            break  # the skipped turn is over: never play that player's next turn too
    return moves, labels
