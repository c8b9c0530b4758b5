"""Playing: a seated player's click, a claim in a real-time race, and the race window closing."""

from __future__ import annotations

from engine.core import TABLE, Choice, dump_choice, load_choice
from engine.msg import Join, M, Msg
from service.access import SEAT
from service.claims import ranked
from service.core import OLD_BOARD, Core
from service.notice import Notice, ServiceError, StaleClick, Table, User
from service.outcome import Written, add_claim
from service.plans import JOIN, parse_plan
from service.records import label_of


class Play(Core):
    """Clicks, claims and race windows."""

    async def act(self, game_id: int, user: User, version: int, kind: str, option: str, ts_ms: int = 0) -> Notice:
        """A seated player's click: a claim in an open race, or a choice applied now."""
        async with self.lock(game_id):
            table = await self.load_for(game_id, user, SEAT)
            self.need_active(table, M("table.what.play", "nothing to play"))
            seat = table.seat_of(user.id)
            back = None
            if seat is None and (claim := await self.claim_of(table, user.id)) is not None:
                # issue 23: a player whose seat a bot plays for them comes back with any click of theirs
                back = await self.take_back(table, user, claim)
                table, seat = back.table, claim
            if seat is None:
                raise ServiceError(
                    M(
                        "table.err.not_seated_buttons",
                        "You are not seated in game #{game}; only its players can use its buttons.",
                        game=game_id,
                    )
                )
            if back is None:
                return await self._act_at(table, seat, user, version, kind, option, ts_ms)
            name = table.name_of(seat)
            try:
                notice = await self._act_at(table, seat, user, version, kind, option, ts_ms)
            except ServiceError as exc:  # the seat is theirs again, whatever became of the click: say both
                why = exc.args[0] if exc.args else str(exc)
                raise type(exc)(
                    M("table.err.back_but", "You play {name}'s seat again. {why}", name=name, why=why)
                ) from None
            notice.reply = M(
                "table.reply.back_and", "You play {name}'s seat again. {reply}", name=name, reply=notice.reply
            )
            notice.public = list(back.public) + notice.public
            return notice

    async def _act_at(
        self, table: Table, seat: int, user: User, version: int, kind: str, option: str, ts_ms: int
    ) -> Notice:
        """``act`` for a seated player, under the game's lock."""
        optional = any(p.optional and p.kind == kind for p in table.prompts_for(seat))
        # an optional question (a standing order) is checked against the current prompts, whatever board
        # it was clicked on: nothing waits for it, so no board is outdated for it
        if version != table.version and not optional and not await self._still_open(table, version, seat, kind):
            raise StaleClick(OLD_BOARD)
        mine = table.prompts_for(seat)
        if not mine:
            waiting = sorted({table.name_of(p.seat) for p in table.prompts() if p.seat != TABLE})
            if not waiting:
                raise ServiceError(M("table.err.nothing_nobody", "Nothing to decide for you now."))
            raise ServiceError(
                M(
                    "table.err.nothing_waiting",
                    "Nothing to decide for you now; waiting for {names}.",
                    names=Join(waiting, "comma"),
                )
            )
        prompt = next((p for p in mine if p.kind == kind), None)
        if prompt is None:
            raise StaleClick(
                M(
                    "table.err.other_question",
                    "That button is not for the question you are being asked now. Use the latest message.",
                )
            )
        if JOIN in option and prompt.group is not None and prompt.race is None:  # a plan for the group
            choices = parse_plan(table, seat, kind, option)
            return await self.commit(table, [(c, user.id) for c in choices])
        chosen = prompt.option(option)
        if chosen is None and prompt.optional:  # e.g. a standing order that was used since
            raise ServiceError(
                M(
                    "table.err.choice_gone",
                    "That choice is no longer open; open **My options** again to see the current ones.",
                )
            )
        if chosen is None:
            # a long list (a standing-orders menu) is cut: the reply must fit in one message
            labels = [label_of(o) for o in prompt.options]
            allowed = Join(labels[:12] + (["…"] if len(labels) > 12 else []), "comma")
            raise ServiceError(
                M("table.err.illegal", "That is not a legal choice now. You may: {allowed}.", allowed=allowed)
            )
        choice = Choice(seat, kind, option)
        if prompt.race is not None:
            return await self._claim(table, choice, label_of(chosen), ts_ms)
        return await self.commit(table, [(choice, user.id)])

    async def _still_open(self, table: Table, version: int, seat: int, kind: str) -> bool:
        """An older button still counts if only other seats' answers to the same concurrent question, or to
        optional questions (standing orders), came since."""
        if version > table.version or version < 0:
            return False
        optional = {p.kind for p in table.prompts() if p.optional}
        since = [load_choice(c) for c in (await self.store.get_choices(table.id))[version:]]
        return all((c.kind == kind or c.kind in optional) and c.seat != seat for c in since)

    async def _claim(self, table: Table, choice: Choice, label: object, ts_ms: int) -> Notice:
        """A durable claim in the open race; the earliest Discord timestamp wins when the window closes. The
        store checks the window in the claim's own transaction, so an acknowledged claim is always judged."""
        now = self.clock()
        claim = (table.id, table.version, choice.seat, dump_choice(choice), ts_ms, now)
        if await add_claim(self.store, *claim) is Written.REFUSED:
            race = await self.store.get_race(table.id)
            if race is None or race.version != table.version:
                raise StaleClick(M("table.err.window_closed", "That window has closed."))
            raise ServiceError(
                M("table.err.claimed", "You already made a claim in this window; only your first one counts.")
            )
        reply = M(
            "table.reply.claim",
            "Claim in: {label}. The claims are judged earliest first when the window closes.",
            label=label,
        )
        return Notice(table, reply=reply)

    async def arm_race(self, game_id: int, version: int, deadline: float) -> bool:
        """Start the time of the race window at ``version``, now that the board showing it has been posted: it
        closes at ``deadline``. False if that race is gone or its time already runs (the first deadline stays)."""
        return await self.store.arm_race(game_id, version, deadline)

    async def close_race(self, game_id: int, version: int) -> Notice | None:
        """The window of a race closes: its claims are judged in the order of Discord's timestamps (exact ties:
        a draw seeded from the game) while the race stays open (the engine closes it at the first claim that
        settles it: under Omerta's version 2 a wrong snap leaves the window open for the next claim), then the
        table's default closes it if it is still open; all in the same transaction that closes the window.
        ``None`` if that race is already over."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            race = await self.store.get_race(game_id)
            if race is None or race.version != version or table.version != version or table.row.status != "active":
                return None
            claims = ranked(await self.store.get_claims(game_id, version), f"{table.row.seed}:{version}")
            game = table.game
            trial = game.loads(game.dumps(table.state))  # judged on a copy first: commit applies them for real
            race_id = next(p.race for p in game.prompts(trial) if p.race)
            moves: list[tuple[Choice, int | None]] = []
            judged = 0  # how many claims were judged (the first ones)
            for claim in claims:
                choice = load_choice(claim.choice)
                if not any(p.race == race_id and p.seat == choice.seat for p in game.prompts(trial)):
                    break  # the race is settled: later claims are not judged
                game.apply(trial, choice)
                moves.append((choice, table.user_of(choice.seat)))
                judged += 1
            still_open = [p for p in game.prompts(trial) if p.race == race_id and p.seat == TABLE]
            if still_open:
                moves.append((Choice(TABLE, still_open[0].kind, still_open[0].default_option()), None))
            lines: list[Msg] = []
            if len(claims) > 1:
                first = claims[0].ts_ms
                for i, c in enumerate(claims):
                    delay = c.ts_ms - first
                    name = table.name_of(c.seat)
                    if i == 0:
                        tag = M("table.log.claim_first", "first")
                    elif delay:
                        tag = M("table.log.claim_delay", "+{ms} ms", ms=delay)
                    else:
                        tag = M("table.log.claim_tied", "tied, drawn later")
                    if i >= judged:
                        tag = M("table.log.claim_unjudged", "{tag}, not judged", tag=tag)
                    lines.append(M("table.log.claim", "Claim by {name} ({tag}).", name=name, tag=tag))
            return await self.commit(table, moves, preface=lines)
