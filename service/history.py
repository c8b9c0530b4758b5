"""Every game remembered (issue 26): the history of finished games and the leaderboards, read from the store."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

from engine.msg import M, Msg, load
from service.core import Core
from service.notice import ServiceError, Table
from store import RatedGameRow, RatingRow
from store.rated import GLOBAL

#: Games a page of the history shows.
PER_PAGE = 8
#: Rated games an identity needs to be ranked on a leaderboard; those with fewer are listed apart (the issue's 5).
SETTLED = 5
#: Rows a leaderboard shows (and newcomers listed apart under it).
BOARD_ROWS = 20
NEWCOMER_ROWS = 10
#: The ladders, as ``/leaderboard`` offers them.
LADDERS = ("speakeasy", "omerta", "speakeasy_solo")


def no_ladder(ladder: str) -> Msg:
    """The refusal of an unknown ladder."""
    return M(
        "table.err.no_ladder",
        "There is no leaderboard {ladder}; choose speakeasy, omerta or speakeasy_solo.",
        ladder=repr(ladder),
    )


def bad_page(page: int, pages: int) -> Msg:
    """The refusal of a page past the end."""
    return M("table.err.history_page", "There is no page {page}; pages 1 to {pages}.", page=page, pages=pages)


@dataclass(frozen=True)
class PastGame:
    """A game that ended: its table (without its state) and, if it finished by the rules, its rated row."""

    table: Table
    rated: RatedGameRow | None

    @property
    def places(self) -> list[int]:
        """Each seat's place, from the rated row (1 is first)."""
        if self.rated is None:
            return []
        return [int(p) for _, p in json.loads(self.rated.places)]

    @property
    def why_unrated(self) -> Msg | None:
        """Why a game that finished by the rules does not count for the ratings (None: it counts)."""
        if self.rated is None or self.rated.counted or not self.rated.why:
            return None
        return load(json.loads(self.rated.why))


@dataclass(frozen=True)
class HistoryPage:
    """A page of the history, newest game first (``page`` counts from 1)."""

    games: list[PastGame]
    page: int
    pages: int
    total: int


@dataclass(frozen=True)
class Board:
    """A leaderboard: the ranked identities (``SETTLED`` rated games or more) and the newcomers."""

    ladder: str
    scope: int
    ranked: list[RatingRow]
    newcomers: list[RatingRow]


class GameHistory(Core):
    """``/game history`` and ``/leaderboard``."""

    async def history(self, guild_id: int | None, user_id: int | None, page: int = 1) -> HistoryPage:
        """A page of the games that ended, newest first: a server's (``guild_id``), a person's (``user_id``), or a
        person's in one server. Raises ``ServiceError`` for a page past the end."""
        if page < 1:
            raise ServiceError(bad_page(page, 1))
        rows, total = await self.store.past_games(guild_id, user_id, PER_PAGE, (page - 1) * PER_PAGE)
        pages = max(1, math.ceil(total / PER_PAGE))
        if page > pages:
            raise ServiceError(bad_page(page, pages))
        seats = await self.store.seats_of([r.id for r in rows])
        rated = await self.store.rated_games([r.id for r in rows])
        games = [PastGame(Table(r, seats.get(r.id, []), self.game_of(r.game)), rated.get(r.id)) for r in rows]
        return HistoryPage(games, page, pages, total)

    async def leaderboard(self, ladder: str, guild_id: int | None) -> Board:
        """A ladder's leaderboard in a server (``guild_id``) or across all servers (None)."""
        if ladder not in LADDERS:
            raise ServiceError(no_ladder(ladder))
        scope = GLOBAL if guild_id is None else guild_id
        ranked = await self.store.leaderboard(ladder, scope, BOARD_ROWS, games=(SETTLED, 2**31 - 1))
        newcomers = await self.store.leaderboard(ladder, scope, NEWCOMER_ROWS, games=(0, SETTLED))
        return Board(ladder, scope, ranked, newcomers)
