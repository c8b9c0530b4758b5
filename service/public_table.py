"""What everyone may know of a game: the one place that decides what is public.

A ``PublicTable`` holds the spectator's view, the public side of every open question (a secret question keeps
only who is asked which kind of question) and the table's public facts. Every public output (the board's
words and buttons, the picture, reminders, thread names) is made from a ``PublicTable`` alone: it has no
state to read, so nothing hidden can reach the channel by accident.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import PublicPrompt, waits_for
from service.host import Host
from service.notice import Table


def in_lang(view: dict[str, Any] | None, lang: str) -> dict[str, Any] | None:
    """A view for the renderers, with the language their words are made in (``view["lang"]``)."""
    return None if view is None else {**view, "lang": lang}


@dataclass(frozen=True)
class PublicSeat:
    """Who sits where (bot seats have a user id of 0 or below)."""

    seat: int
    name: str
    user_id: int


@dataclass(frozen=True)
class PublicTable:
    """A game as everyone may see it at one version."""

    id: int
    game: str
    title: str
    version: int
    status: str
    guild_id: int
    channel_id: int
    host_id: int
    seats: tuple[PublicSeat, ...]
    #: the engine's spectator view (``None`` before the start)
    view: dict[str, Any] | None
    prompts: tuple[PublicPrompt, ...]
    #: whether the player being waited for may take back their last step (the board's Undo button)
    undo: bool = False
    #: when the open race window (a snap) closes, as a Unix time; ``None``: no window, or its time has not
    #: started (the board that shows it is being posted)
    race_closes: float | None = None
    #: the table's language (its option ``lang``): every public word and picture is made in it
    lang: str = "en"
    #: ``(seat, when)``: when each waited-for seat's time runs out (issue 23's ``deadline``), as a Unix time
    deadlines: tuple[tuple[int, float], ...] = ()
    #: ``(seat, until)``: the seated players who are away (issue 23, ``/away``: they chose to share it), as Unix times
    away: tuple[tuple[int, float], ...] = ()

    def deadline_of(self, seat: int) -> float | None:
        """When ``seat``'s time runs out (None: no deadline runs for it)."""
        return next((at for s, at in self.deadlines if s == seat), None)

    def name_of(self, seat: int) -> str:
        """A seat's name (a seat the game adds itself, such as Jo, is named by the view)."""
        name = next((s.name for s in self.seats if s.seat == seat), None)
        if name is None and self.view is not None:
            name = next((p.get("name") for p in self.view.get("players", []) if p.get("seat") == seat), None)
        return name or f"seat {seat + 1}"

    def user_of(self, seat: int) -> int | None:
        """The user in a seat, or ``None``."""
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    def seat_of(self, user_id: int) -> int | None:
        """A user's seat, or ``None``."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def waiting(self) -> list[PublicPrompt]:
        """The questions someone must answer now (not a race window, not the table's timer)."""
        return [p for p in self.prompts if waits_for(p)]

    def waiting_users(self) -> list[int]:
        """The people being waited for, in seat order."""
        seats = sorted({p.seat for p in self.waiting()})
        return [u for s in seats if (u := self.user_of(s)) is not None and u > 0]


def public_table(
    table: Table,
    *,
    undo: bool,
    race_closes: float | None = None,
    deadlines: tuple[tuple[int, float], ...] = (),
    away: tuple[tuple[int, float], ...] = (),
) -> PublicTable:
    """The public side of ``table`` at its version (``undo``: whether the waited-for player may undo;
    ``race_closes``: when its race window closes; ``away``: who is away until when)."""
    prompts = tuple(p.public() for p in table.prompts())
    seats = tuple(PublicSeat(s.seat, s.name, s.user_id) for s in table.seats)
    view = table.view(None)
    return PublicTable(
        id=table.id,
        game=table.game.name,
        title=table.game.title,
        version=table.version,
        status=table.row.status,
        guild_id=table.row.guild_id,
        channel_id=table.row.channel_id,
        host_id=table.row.host_id,
        seats=seats,
        # the renderers read the language of what they draw from the view they get
        view=in_lang(view, table.lang),
        prompts=prompts,
        undo=undo,
        race_closes=race_closes,
        lang=table.lang,
        deadlines=deadlines,
        away=away,
    )


class PublicTables(Host):
    """Building the public side of a game."""

    async def public(self, table: Table) -> PublicTable:
        """The public side of ``table`` at its version."""
        waiting = next((p.seat for p in table.prompts() if waits_for(p)), None)
        race = await self.store.get_race(table.id) if any(p.race for p in table.prompts()) else None
        closes = race.deadline if race is not None and race.version == table.version and race.armed else None
        seats = {s.user_id: s.seat for s in table.seats}
        deadlines = tuple(
            sorted(
                (seats[r.user_id], r.due_at)
                for r in await self.store.get_reminders(table.id)
                if r.kind == "deadline" and r.user_id in seats
            )
        )
        undo = await self.can_undo(table, waiting)
        now = self.clock()
        people = await self.store.get_people([u for u in seats if u > 0]) if table.row.status == "active" else {}
        away = tuple(sorted((seats[u], p.away_until) for u, p in people.items() if p.away_until and p.away_until > now))
        return public_table(table, undo=undo, race_closes=closes, deadlines=deadlines, away=away)
