"""A replay of a game (issue 26, ``/game replay``): the board as everyone saw it after each step, rebuilt from the
record by the engine (the record is the truth), with that step's public story lines.

A step is a choice in effect (an undone one and its undo are not steps): step 0 is the board dealt, step N the
board after the N-th choice. A step's picture outlines what changed as the table's did when it posted that step
(against the picture before the turn: ``outline_base``), so it is the picture the channel saw.
The pictures are the spectator's view, so a replay of a running game tells nothing a
spectator did not see; once a game is over, a table with ``reveal_after=yes`` (the default) lets its replay also
say, in words, every hand, safe and card at each step (``Game.revealed``). The points a reader may jump to (each
round's and each Act's first step) are found by one replay of the whole record, kept for the game's version
(``MARKS_KEPT``).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import Choice, load_choice, replay
from engine.msg import M, Msg
from service.access import SEAT
from service.core import Core
from service.notice import ServiceError, Table, User
from service.records import UNDO_KIND
from store import EventRow

#: How many games' jump points a process keeps (the project's own value: a few KB each).
MARKS_KEPT = 64
#: At most this many points in the jump menu (Discord's menu holds 25).
MENU_POINTS = 25
#: How many replay steps' pictures the store keeps (the project's own value: about 0.5 MB a Speakeasy step, so
#: some 100 MB at most; the steps used last stay).
REPLAY_STORED = 200


def not_started(game_id: int) -> Msg:
    """The refusal of a replay of a lobby."""
    return M("table.err.replay_lobby", "Game #{game} has not started; there is nothing to replay.", game=game_id)


def bad_step(step: int, last: int) -> Msg:
    """The refusal of a step past the end."""
    return M("table.err.replay_step", "There is no step {step}; steps 0 to {last}.", step=step, last=last)


@dataclass(frozen=True)
class Point:
    """A point to jump to: its step, and the round (and Act) it begins."""

    step: int
    act: int | None
    round: int | None


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: the spectator's view after it and the one before (what changed is outlined), the
    public events the step made, and the points of the whole game."""

    table: Table
    step: int
    last: int
    view: dict[str, Any]
    before: dict[str, Any] | None
    events: list[EventRow]
    points: list[Point]
    #: what was hidden at this step, in words: only for a game that is over, at a table with ``reveal_after=yes``
    revealed: list[Msg] = field(default_factory=list)
    #: whether the table posted this step's picture (then ``before`` is the view it outlined against)
    as_posted: bool = False


def reveals(table: Table) -> bool:
    """Whether a replay of ``table`` tells what was hidden: only once the game is over, and only if its table
    allows it (``reveal_after``, yes by default). Decided by the game's status and options, never by a hidden
    value."""
    over = table.row.status in ("finished", "ended")
    return over and json.loads(table.row.options).get("reveal_after", "yes") == "yes"


def outline_base(
    raw: Sequence[str], raw_index: Sequence[int], at: int, drawn: dict[int, int | None]
) -> tuple[list[Choice] | None, bool]:
    """What step ``at``'s picture outlines against: the choices in effect at the version whose picture the table
    compared with when it posted this step (``drawn``: ``Pictures.drawn_bases``), None when it outlined nothing;
    and whether the table posted this step's picture at all. A step the table did not draw (two moves delivered
    at once; a game from before versions were kept) outlines against the step before."""
    if at == 0:
        return None, False
    version = raw_index[at - 1] + 1
    if version in drawn:
        base = drawn[version]
        return (None if base is None else steps_of(raw[:base])[0]), True
    return steps_of(raw[: raw_index[at - 1]])[0], False


def steps_of(raw: Sequence[str]) -> tuple[list[Choice], list[int]]:
    """The choices in effect and, for each, its index in the raw record (its events are stored at that + 1)."""
    stack: list[tuple[Choice, int]] = []
    for k, item in enumerate(raw):
        choice = load_choice(item)
        if choice.kind == UNDO_KIND:
            if stack:
                stack.pop()
        else:
            stack.append((choice, k))
    return [c for c, _ in stack], [k for _, k in stack]


class Replays(Core):
    """``/game replay`` and its buttons."""

    _points: OrderedDict[tuple[int, int], list[Point]]

    def _points_cache(self) -> OrderedDict[tuple[int, int], list[Point]]:
        if not hasattr(self, "_points"):
            self._points = OrderedDict()
        return self._points

    async def replay_step(self, game_id: int, user: User, step: int | None) -> ReplayStep:
        """The replay of ``game_id`` at ``step`` (None: the last). Asked in the game's server (or, from a DM, by a
        player of it); a lobby has nothing to replay; a step past the end is refused with the range."""
        table = await self.load_for(game_id, user, SEAT)
        if table.row.status == "lobby" or (table.row.status == "abandoned" and table.version == 0):
            raise ServiceError(not_started(game_id))
        raw = await self.store.get_choices(game_id)
        choices, raw_index = steps_of(raw)
        last = len(choices)
        at = last if step is None else step
        if not 0 <= at <= last:
            raise ServiceError(bad_step(at, last))
        names = [s.name for s in table.seats]
        options = json.loads(table.row.options)

        reveal = reveals(table)
        # the outline as the table drew it: against the picture it compared with then (see ``outline_base``)
        drawn = await self.store.drawn_bases(game_id) if at > 0 else {}
        base, as_posted = outline_base(raw, raw_index, at, drawn)

        def views() -> tuple[dict[str, Any], dict[str, Any] | None, list[Msg]]:
            start = len(base) if base is not None and base == choices[: len(base)] and len(base) < at else 0
            state = replay(table.game, names, options, table.row.seed, choices[:start])
            before = None
            if base is not None and start == len(base):
                before = table.game.view(state, None)
            elif base is not None:  # the base is not on the way to this step (an undo between): its own replay
                before = table.game.view(replay(table.game, names, options, table.row.seed, base), None)
            for choice in choices[start:at]:
                table.game.apply(state, choice)
            hidden = list(table.game.revealed(state)) if reveal and hasattr(table.game, "revealed") else []
            return table.game.view(state, None), before, hidden

        view, before, hidden = await asyncio.to_thread(views)
        events: list[EventRow] = []
        if at > 0:
            pos = raw_index[at - 1] + 1
            events = await self.store.get_events(game_id, since=pos, until=pos, public_only=True)
        points = await self._jump_points(table, choices, names, options)
        return ReplayStep(table, at, last, view, before, events, points, hidden, as_posted)

    async def picture_drawn(self, game_id: int, version: int, base: int | None) -> None:
        """The table posted a board picture of ``version``, outlined against the one of ``base`` (None: nothing
        outlined): a replay draws that step the same way."""
        await self.store.picture_drawn(game_id, version, base)

    async def cached_replay_pictures(self, game_id: int, step: int, lang: str) -> list[tuple[str, bytes]] | None:
        """A replay step's pictures from the store's cache, or None."""
        return await self.store.replay_pictures(game_id, step, lang, self.clock())

    async def keep_replay_pictures(self, r: ReplayStep, lang: str, pngs: Sequence[tuple[str, bytes]]) -> None:
        """Keep a replay step's pictures in the store's cache (the ``REPLAY_STORED`` used last stay). Only a step
        whose pictures cannot change: drawn as the table posted it, or of a game that is over."""
        if r.as_posted or r.table.row.status in ("finished", "ended", "abandoned"):
            await self.store.keep_replay_pictures(r.table.id, r.step, lang, pngs, self.clock(), REPLAY_STORED)

    async def _jump_points(
        self, table: Table, choices: list[Choice], names: list[str], options: dict[str, Any]
    ) -> list[Point]:
        """The first step of each round (and Act) of the game, from one replay, kept per game and version."""
        cache = self._points_cache()
        key = (table.id, table.version)
        if key in cache:
            cache.move_to_end(key)
            return cache[key]

        def walk() -> list[Point]:
            state = replay(table.game, names, options, table.row.seed, [])
            seen: tuple[Any, Any] | None = None
            found: list[Point] = []
            for k in range(len(choices) + 1):
                if k:
                    table.game.apply(state, choices[k - 1])
                view = table.game.view(state, None)
                mark = (view.get("act"), view.get("round"))
                if mark != seen:
                    found.append(Point(k, view.get("act"), view.get("round")))
                    seen = mark
            return found

        points = await asyncio.to_thread(walk)
        if len(points) > MENU_POINTS:  # keep the Acts' starts and as many rounds as fit, evenly
            keep = [p for p in points if p.round in (None, 1)] or points[:1]
            rest = [p for p in points if p not in keep]
            room = max(0, MENU_POINTS - len(keep))
            picked = rest[:: max(1, -(-len(rest) // room))][:room] if room else []
            points = sorted(keep + picked, key=lambda p: p.step)[:MENU_POINTS]
        cache[key] = points
        while len(cache) > MARKS_KEPT:
            cache.popitem(last=False)
        return points
