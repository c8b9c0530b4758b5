"""Ratings (issue 26): OpenSkill's Plackett-Luce model over the games that finished by the rules.

Each finished game's places are written with its result, in the same transaction (``Move.rating``): a row of
``rated_games``, and, when the game counts, the new ratings of its seats on its ladder in two scopes, the server
it was played on and all servers (scope 0). A ladder is a game (``speakeasy``, ``omerta``) or Speakeasy's solo
game against Jo (``speakeasy_solo``), where Jo at each difficulty is an identity of his own.

The ratings are derived data: ``rebuild`` computes them again from ``rated_games`` in id order, the order the live
updates ran in, and gives the same numbers (the same arithmetic in the same order); ``python -m store.ratings
--rebuild`` runs it on a database. On PostgreSQL, where several
processes write, a transaction that rates takes a lock on its ladder first (``pg_advisory_xact_lock``), so the
updates of one ladder run one after another in id order there too; SQLite has one writer at a time anyway.

Why OpenSkill (the ``openskill`` package, MIT): one model for 2 to 5 players with ties as ties, a rating with its
uncertainty (mu, sigma) for new players, and an ordinal (mu - 3 sigma) that ranks a newcomer below a player who
has proven the same mu. Its defaults are kept (mu 25, sigma 25/3).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from .base import Base, _Conn, cols
from .rows import RatedGameRow, RatingRow

#: The model every rating is computed with (its default mu 25 and sigma 25/3).
MODEL = PlackettLuce()
#: The scope of the ratings across all servers.
GLOBAL = 0


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What a finished game writes for the ratings: its ladder and server, each seat's rating identity and place
    (1 is first; equal places are a tie), and whether it counts (``why``: a message's JSON when not)."""

    ladder: str
    guild_id: int
    places: tuple[tuple[str, int], ...]
    counted: bool
    why: str | None = None


def new_ratings(
    current: Mapping[str, tuple[float, float]], places: Sequence[tuple[str, int]]
) -> dict[str, tuple[float, float]]:
    """The ``(mu, sigma)`` of each identity after a game with these places, from ``current`` (an identity not in
    it starts at the model's default). Each seat is a team of one; an identity at several seats (two bots of one
    level) gets the mean of its seats' new ratings."""
    teams = []
    for identity, _ in places:
        mu, sigma = current.get(identity, (MODEL.mu, MODEL.sigma))
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in places])
    seats: dict[str, list[tuple[float, float]]] = {}
    for (identity, _), team in zip(places, rated, strict=True):
        seats.setdefault(identity, []).append((team[0].mu, team[0].sigma))
    return {i: (sum(m for m, _ in v) / len(v), sum(s for _, s in v) / len(v)) for i, v in seats.items()}


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating leaderboards sort by (OpenSkill's ordinal)."""
    return mu - 3 * sigma


def _lock_key(ladder: str) -> int:
    """A stable 31-bit key for a ladder's advisory lock (Python's own hash changes between processes)."""
    return zlib.crc32(ladder.encode()) & 0x7FFFFFFF


class Ratings(Base):
    """Rated games, ratings, leaderboards and the rebuild."""

    async def _rate(self, conn: _Conn, game_id: int, now: float, rated: RatedGame) -> None:
        """Inside the transaction of a game's result: its row of ``rated_games`` and, if it counts, the new
        ratings of its seats in its server's scope and across all servers."""
        if self.backend == "postgres":
            await conn.execute("SELECT pg_advisory_xact_lock(?)", (_lock_key(rated.ladder),))
        sql = (
            "INSERT INTO rated_games (game_id, ladder, guild_id, finished_at, places, counted, why)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id"
        )
        places = json.dumps([list(p) for p in rated.places])
        cursor = await conn.execute(
            sql, (game_id, rated.ladder, rated.guild_id, now, places, int(rated.counted), rated.why)
        )
        row = cursor.fetchone()
        assert row is not None
        sql = "INSERT INTO rated_players (identity, game_id) VALUES (?, ?)"
        await conn.executemany(sql, [(i, game_id) for i in sorted({i for i, _ in rated.places})])
        if rated.counted:
            await self._apply(conn, int(row[0]), rated.ladder, rated.guild_id, rated.places)

    async def _apply(
        self, conn: _Conn, seq: int, ladder: str, guild_id: int, places: Sequence[tuple[str, int]]
    ) -> None:
        """One counted game's rating updates, in each of its scopes."""
        identities = sorted({i for i, _ in places})
        best = min(p for _, p in places)
        won = {i for i, p in places if p == best}
        for scope in dict.fromkeys((guild_id, GLOBAL)):  # a game outside a server is rated once, globally
            marks = ", ".join("?" * len(identities))
            sql = (
                f"SELECT identity, mu, sigma, games, wins FROM ratings"
                f" WHERE ladder = ? AND scope = ? AND identity IN ({marks})"
            )
            rows = (await conn.execute(sql, (ladder, scope, *identities))).rows
            known = {r[0]: (float(r[1]), float(r[2]), int(r[3]), int(r[4])) for r in rows}
            after = new_ratings({i: (v[0], v[1]) for i, v in known.items()}, places)
            sql = (
                "INSERT INTO ratings (ladder, scope, identity, mu, sigma, ordinal, games, wins, last_game)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (ladder, scope, identity) DO UPDATE SET"
                " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games,"
                " wins = excluded.wins, last_game = excluded.last_game"
            )
            step = "INSERT INTO rating_steps (ladder, scope, identity, rated_id, mu, sigma) VALUES (?, ?, ?, ?, ?, ?)"
            for identity in identities:
                mu, sigma = after[identity]
                _, _, games, wins = known.get(identity, (0.0, 0.0, 0, 0))
                params = (ladder, scope, identity, mu, sigma, ordinal(mu, sigma), games + 1, wins + (identity in won))
                await conn.execute(sql, (*params, seq))
                await conn.execute(step, (ladder, scope, identity, seq, mu, sigma))

    async def rated_game(self, game_id: int) -> RatedGameRow | None:
        """A game's row of ``rated_games`` (None: it did not finish by the rules, or finished before issue 26)."""
        row = await self._fetchone(f"SELECT {cols(RatedGameRow)} FROM rated_games WHERE game_id = ?", (game_id,))
        return _rated_row(row) if row else None

    async def rated_games(self, game_ids: Sequence[int]) -> dict[int, RatedGameRow]:
        """The ``rated_games`` rows of several games, by game id."""
        if not game_ids:
            return {}
        marks = ", ".join("?" * len(game_ids))
        sql = f"SELECT {cols(RatedGameRow)} FROM rated_games WHERE game_id IN ({marks})"
        return {int(r[1]): _rated_row(r) for r in await self._fetchall(sql, tuple(game_ids))}

    async def leaderboard(
        self, ladder: str, scope: int, limit: int = 25, offset: int = 0, *, games: tuple[int, int] = (0, 2**31 - 1)
    ) -> list[RatingRow]:
        """A ladder's ratings in a scope, the highest ordinal first (ties: more games, then identity), of the
        identities with ``games[0] <= games < games[1]`` rated games; people who hid their profile are left out
        (they are still rated: a leaderboard is what is shown)."""
        sql = (
            f"SELECT {cols(RatingRow)} FROM ratings WHERE ladder = ? AND scope = ? AND games >= ? AND games < ?"
            " AND identity NOT IN (SELECT 'u:' || CAST(user_id AS TEXT) FROM people WHERE hidden = 1)"
            " ORDER BY ordinal DESC, games DESC, identity LIMIT ? OFFSET ?"
        )
        params = (ladder, scope, games[0], games[1], limit, offset)
        return [_rating_row(r) for r in await self._fetchall(sql, params)]

    async def ratings_of(self, identity: str) -> list[RatingRow]:
        """Every rating of one identity (each ladder and scope)."""
        sql = f"SELECT {cols(RatingRow)} FROM ratings WHERE identity = ? ORDER BY ladder, scope"
        return [_rating_row(r) for r in await self._fetchall(sql, (identity,))]

    async def games_of_identity(self, identity: str) -> list[RatedGameRow]:
        """The rated games an identity played (counted or not), in the order they finished."""
        sql = (
            f"SELECT {cols(RatedGameRow, 'r.')} FROM rated_games r JOIN rated_players p ON p.game_id = r.game_id"
            " WHERE p.identity = ? ORDER BY r.id"
        )
        return [_rated_row(r) for r in await self._fetchall(sql, (identity,))]

    async def rating_steps(self, identity: str, scope: int) -> list[tuple[str, int, float, float]]:
        """An identity's rating after each counted game in a scope: ``(ladder, rated id, mu, sigma)`` in order."""
        sql = (
            "SELECT ladder, rated_id, mu, sigma FROM rating_steps WHERE identity = ? AND scope = ?"
            " ORDER BY ladder, rated_id"
        )
        rows = await self._fetchall(sql, (identity, scope))
        return [(str(r[0]), int(r[1]), float(r[2]), float(r[3])) for r in rows]

    async def ratings_of_any(self) -> list[RatingRow]:
        """Every rating of every ladder and scope (for the rebuild's report and its tests)."""
        sql = f"SELECT {cols(RatingRow)} FROM ratings ORDER BY ladder, scope, identity"
        return [_rating_row(r) for r in await self._fetchall(sql)]

    async def rebuild_ratings(self) -> int:
        """Compute every rating again from ``rated_games`` in id order (the order of the live updates), in one
        transaction; the number of counted games."""
        async with self._write() as conn:
            if self.backend == "postgres":  # every ladder's lock, so no live update runs beside the rebuild
                ladders = (await conn.execute("SELECT DISTINCT ladder FROM rated_games ORDER BY ladder")).rows
                for (ladder,) in ladders:
                    await conn.execute("SELECT pg_advisory_xact_lock(?)", (_lock_key(str(ladder)),))
            rows = (await conn.execute(f"SELECT {cols(RatedGameRow)} FROM rated_games ORDER BY id")).rows
            games = [_rated_row(r) for r in rows]
            await conn.execute("DELETE FROM ratings")
            await conn.execute("DELETE FROM rating_steps")
            for g in games:
                if g.counted:
                    places = [(str(i), int(p)) for i, p in json.loads(g.places)]
                    await self._apply(conn, g.id, g.ladder, g.guild_id, places)
        return sum(g.counted for g in games)


def _rated_row(row: Sequence[object]) -> RatedGameRow:
    values = list(row)
    values[6] = bool(values[6])
    return RatedGameRow(*values)  # type: ignore[arg-type]


def _rating_row(row: Sequence[object]) -> RatingRow:
    return RatingRow(*row)  # type: ignore[arg-type]
