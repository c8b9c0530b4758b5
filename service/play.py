"""Playing: a seated player's click, a claim in a real-time race, and the race window closing."""

from __future__ import annotations

import random

from engine.core import TABLE, Choice, dump_choice, load_choice
from service.core import Core
from service.notice import Notice, ServiceError, StaleClick, Table, User
from service.plans import JOIN, parse_plan


class Play(Core):
    """Clicks, claims and race windows."""

    async def act(self, game_id: int, user: User, version: int, kind: str, option: str, ts_ms: int = 0) -> Notice:
        """A seated player's click: a claim in an open race, or a choice applied now."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            self.need_active(table, "nothing to play")
            seat = table.seat_of(user.id)
            if seat is None:
                raise ServiceError(f"You are not seated in game #{game_id}; only its players can use its buttons.")
            if version != table.version and not await self._still_open(table, version, seat, kind):
                raise StaleClick(
                    "That button belongs to an older board; the game has moved on. Use the latest message."
                )
            mine = table.prompts_for(seat)
            if not mine:
                waiting = sorted({table.name_of(p.seat) for p in table.prompts() if p.seat != TABLE})
                raise ServiceError(f"Nothing to decide for you now; waiting for {', '.join(waiting) or 'nobody'}.")
            prompt = next((p for p in mine if p.kind == kind), None)
            if prompt is None:
                raise StaleClick("That button is not for the question you are being asked now. Use the latest message.")
            if JOIN in option and prompt.group is not None and prompt.race is None:  # a plan for the group
                choices = parse_plan(table, seat, kind, option)
                return await self.commit(table, [(c, user.id) for c in choices])
            chosen = prompt.option(option)
            if chosen is None:
                allowed = "; ".join(o.label for o in prompt.options)
                raise ServiceError(f"That is not a legal choice now. You may: {allowed}.")
            choice = Choice(seat, kind, option)
            if prompt.race is not None:
                return await self._claim(table, choice, chosen.label, ts_ms)
            return await self.commit(table, [(choice, user.id)])

    async def _still_open(self, table: Table, version: int, seat: int, kind: str) -> bool:
        """An older button still counts if only other seats' answers to the same concurrent question came since."""
        if version > table.version or version < 0:
            return False
        since = [load_choice(c) for c in (await self.store.get_choices(table.id))[version:]]
        return all(c.kind == kind and c.seat != seat for c in since)

    async def _claim(self, table: Table, choice: Choice, label: str, ts_ms: int) -> Notice:
        """A durable claim in the open race; the earliest Discord timestamp wins when the window closes. The
        store checks the window in the claim's own transaction, so an acknowledged claim is always judged."""
        now = self.clock()
        if not await self.store.add_claim(table.id, table.version, choice.seat, dump_choice(choice), ts_ms, now):
            race = await self.store.get_race(table.id)
            if race is None or race.version != table.version:
                raise StaleClick("That window has closed.")
            raise ServiceError("You already made a claim in this window; only your first one counts.")
        return Notice(table, reply=f"Claim in: {label}. The earliest claim wins when the window closes.")

    async def close_race(self, game_id: int, version: int) -> Notice | None:
        """The window of a race closes: the earliest claim (Discord's timestamp) is applied, or the table's
        default, in the same transaction that closes the window. ``None`` if that race is already over."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            race = await self.store.get_race(game_id)
            if race is None or race.version != version or table.version != version or table.row.status != "active":
                return None
            claims = await self.store.get_claims(game_id, version)
            lines: list[str] = []
            if claims:
                first = claims[0].ts_ms
                tied = [c for c in claims if c.ts_ms == first]
                # exact ties are broken by a draw seeded from the game, so a replay of the log can explain it
                winner = random.Random(f"{table.row.seed}:{version}").choice(tied) if len(tied) > 1 else tied[0]
                for c in claims:
                    delay = c.ts_ms - first
                    tag = "first" if c is winner else f"+{delay} ms" if delay else "tied, lost the draw"
                    lines.append(f"Claim by {table.name_of(c.seat)} ({tag}).")
                moves = [(load_choice(winner.choice), table.user_of(winner.seat))]
            else:
                prompt = next(p for p in table.prompts() if p.seat == TABLE)
                moves = [(Choice(TABLE, prompt.kind, prompt.default_option()), None)]
            return await self.commit(table, moves, preface=lines if len(claims) > 1 else [])
