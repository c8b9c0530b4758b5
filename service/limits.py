"""Limits on spam (issue 22): cooldowns of ``/game status``, ``/hint`` and ``/board``, and lobbies that were never
started closing themselves.

Every limit is decided in the database (``Store.claim_cooldown``, ``Store.end_game``), so it holds across the
processes that share one PostgreSQL database, and keeps nothing in a process's memory. Time is the service's
clock. The settings: ``Settings.status_repost_s``, ``hint_cooldown_s``, ``board_cooldown_s``, ``lobby_expire_s``
(``lobbies_per_user`` is checked when a lobby opens: ``service.lobby``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable

from engine.msg import M, Msg
from service.core import Core
from service.notice import ServiceError, Table, User
from service.records import table_row
from store import Move, StoreBusy

#: the cooldowns' kinds (``cooldowns.kind``): a game's board posted again by ``/game status`` (key: the game),
#: a user's ``/hint`` and ``/board`` (key: the user)
STATUS, HINT, BOARD = "status", "hint", "board"
#: the kind of a log line of a lobby that closed itself
EXPIRED = "expired"
#: how many old lobbies one pass closes at most (the next pass, a poll later, takes the rest)
EXPIRE_BATCH = 100


#: the refusal of a user's ``/hint`` or ``/board`` within its cooldown: (the cooldown's seconds, when it ends)
USER_COOLDOWNS: dict[str, Callable[[str, int], Msg]] = {
    HINT: lambda seconds, when: M(
        "table.err.hint_cooldown",
        "You asked for a hint less than {seconds} seconds ago; ask again <t:{at}:R>.",
        seconds=seconds,
        at=when,
    ),
    BOARD: lambda seconds, when: M(
        "table.err.board_cooldown",
        "You looked at a board less than {seconds} seconds ago; ask again <t:{at}:R>.",
        seconds=seconds,
        at=when,
    ),
}


class TooSoon(ServiceError):
    """A request refused because the same was done a moment ago; ``again_at`` is when it is allowed again (the
    service's clock)."""

    def __init__(self, msg: Msg, again_at: float) -> None:
        super().__init__(msg)
        self.again_at = again_at


def at(when: float) -> int:
    """A time as Discord's timestamps take it (whole seconds, rounded up: never earlier than the time meant)."""
    return math.ceil(when)


def secs(seconds: float) -> str:
    """A number of seconds as a player reads it (``30``, ``0.5``)."""
    return f"{seconds:g}"


def public_body(line: Msg, *, lobby: bool = False) -> str:
    """An outbox entry of one public line for the table's thread or channel (``kind="public"``): its English
    and its message, so it is posted in the table's language; ``lobby``: the lobby message is redrawn as well (its
    buttons go once the lobby is closed)."""
    return json.dumps({"text": str(line), "msg": line.dump(), "lobby": lobby})


class Limits(Core):
    """Cooldowns and the closing of old lobbies."""

    async def cooldown(self, kind: str, key: int, seconds: float) -> float | None:
        """Start the cooldown ``kind`` of ``key`` for ``seconds`` unless one runs: ``None`` when it started (go
        ahead), else when the running one ends."""
        now = self.clock()
        return await self.store.claim_cooldown(kind, key, now, now + seconds)

    async def user_cooldown(self, kind: str, user: User) -> None:
        """A user's ``/hint`` (``HINT``) or ``/board`` (``BOARD``), at most one per cooldown: call it just before
        the work (a search, a picture), after every other check, so a refused request costs nothing. Raises
        ``TooSoon`` saying when to ask again."""
        if kind not in USER_COOLDOWNS:
            raise ValueError(f"no user cooldown {kind!r}")
        seconds = {HINT: self.settings.hint_cooldown_s, BOARD: self.settings.board_cooldown_s}[kind]
        again = await self.cooldown(kind, user.id, seconds)
        if again is not None:
            raise TooSoon(USER_COOLDOWNS[kind](secs(seconds), at(again)), again)

    async def claim_repost(self, table: Table) -> float | None:
        """``/game status`` posts the game's board again at most once per ``status_repost_s``, whoever asks (it
        draws a picture and posts in the channel): ``None`` when this request may (the time is taken), else when
        the board may be posted again (the caller links the latest board instead)."""
        return await self.cooldown(STATUS, table.id, self.settings.status_repost_s)

    def board_recent(self, table: Table, link: str, again_at: float) -> Msg:
        """The answer to ``/game status`` while the board may not be posted again: where it is, and when."""
        return M(
            "table.reply.board_recent",
            "Game #{game}'s board was posted less than {seconds} seconds ago: {link}\n"
            "It can be posted again <t:{at}:R>.",
            game=table.id,
            seconds=secs(self.settings.status_repost_s),
            link=link,
            at=at(again_at),
        )

    async def expire_lobbies(self) -> list[int]:
        """Close every lobby not started ``lobby_expire_s`` after it was opened (abandoned): a line in the log and
        one for its thread or channel (the outbox, committed with the status, so it is posted even if this process
        dies), and its lobby message loses its buttons when that line is delivered. Safe with several processes:
        the status changes only from lobby (a compare-and-set), so each lobby closes once. Returns the games this
        process closed (the caller delivers them)."""
        now = self.clock()
        days = secs(self.settings.lobby_expire_s / 86400)
        closed: list[int] = []
        for row in await self.store.stale_lobbies(now - self.settings.lobby_expire_s, EXPIRE_BATCH):
            line = M(
                "table.lobby.expired",
                "Game #{game} has closed itself: it was not started within {days} days of being opened. Open a new "
                "table with /game new when you are ready to play.",
                game=row.id,
                days=days,
            )
            move = Move(
                [],
                "",
                now,
                events=[table_row(row.version, line, EXPIRED)],
                outbox=[("public", None, public_body(line, lobby=True))],
            )
            try:
                async with self.lock(row.id):
                    if await self.store.end_game(row.id, "abandoned", now, ("lobby",), move):
                        closed.append(row.id)
            except StoreBusy:
                continue  # another process holds the game (e.g. someone joins): the next pass closes it
        return closed
