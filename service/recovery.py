"""After a restart: whatever a move should have left in the store beside the record is derived again from the
game state, so no game waits on something a crash lost (a race window, a reminder)."""

from __future__ import annotations

from engine.core import waits_for
from service.claims import race_window
from service.core import Core
from store import UNARMED


class Recovery(Core):
    """Start-up checks of every running game."""

    async def recover(self) -> dict[str, int]:
        """Re-open race windows the state has but the store lacks (and drop stale ones), start the time of a
        window whose board was posted before a crash could start it, and re-arm the
        reminder of every player being waited for who has none. Returns what it fixed, by kind."""
        fixed = {"races_opened": 0, "races_armed": 0, "races_dropped": 0, "reminders": 0}
        now = self.clock()
        for row in await self.store.list_active_games():
            async with self.lock(row.id):
                table = await self.load(row.id)
                prompts = table.prompts()
                race = await self.store.get_race(row.id)
                open_race = any(p.race for p in prompts)
                board = await self.store.get_message(row.id, "board")
                # a board already showing this version will not be posted again: its window starts now; else
                # the window waits for its board, as after any move (the publisher arms it)
                posted = board is not None and board.version >= table.version
                if open_race and (race is None or race.version != table.version):
                    deadline = now + race_window(table) if posted else UNARMED
                    # only if no other process moved the game meanwhile (several processes share PostgreSQL)
                    if await self.store.reopen_race(row.id, table.version, deadline):
                        fixed["races_opened"] += 1
                elif open_race and race is not None and not race.armed and posted:
                    if await self.store.arm_race(row.id, table.version, now + race_window(table)):
                        fixed["races_armed"] += 1
                elif not open_race and race is not None and await self.store.drop_stale_race(row.id, table.version):
                    fixed["races_dropped"] += 1
                have = {(r.user_id, r.kind) for r in await self.store.get_reminders(row.id)}
                acting = {p.seat for p in prompts if waits_for(p)}
                since = table.row.last_move_at or table.row.updated_at
                for seat in sorted(acting):
                    user = table.user_of(seat)
                    if user is not None and user > 0 and (user, "turn") not in have:
                        await self.store.set_reminder(row.id, user, "turn", since + self.settings.reminder_first_s)
                        fixed["reminders"] += 1
            if await self.bots_wanted(table):  # a crash between a move and its bots' answers: they answer now
                if self.bots_later is not None:
                    self.spawn_bots(table)
                else:
                    await self._bots_now(row.id)
                fixed["bots"] = fixed.get("bots", 0) + 1
        return fixed

    async def _bots_now(self, game_id: int) -> None:
        async with self.lock(game_id):
            table = await self.load(game_id)
            if await self.bots_wanted(table):
                await self.commit(table, [], inline_bots=True)
