"""A player's profile (issue 26, ``/profile``): games, wins and places per ladder, the rating with its uncertainty
and its history, how long they take to move, and how they fared against the players they met most. Read from the
rated games (``store.rated``) and the record; a person who hid their profile (``/me hide_profile``) shows it only
to themselves."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from engine.msg import M, Msg
from service.core import Core
from service.notice import ServiceError
from service.ratings import identity_of
from store import RatedGameRow, RatingRow
from store.rated import GLOBAL

#: The players met most that a profile compares against.
RIVALS = 5
#: The finished games a profile reads for its per-game figures (money by source, calls and snaps).
TELLING_GAMES = 20


def hidden_profile(user_id: int) -> Msg:
    """The refusal to show someone's hidden profile."""
    return M("table.err.profile_hidden", "<@{user}> keeps their profile to themselves.", user=user_id)


@dataclass
class LadderStats:
    """One ladder of a profile: rated games played (``counted`` of them rated), wins, how often each place, and
    the rating in the asked scope and across all servers."""

    ladder: str
    games: int = 0
    counted: int = 0
    wins: int = 0
    places: Counter[int] = field(default_factory=Counter)
    here: RatingRow | None = None
    everywhere: RatingRow | None = None


@dataclass
class Rival:
    """Another identity met in rated games: how many, and how often this player placed ahead or behind."""

    identity: str
    games: int = 0
    ahead: int = 0
    behind: int = 0


@dataclass
class Profile:
    """What ``/profile`` shows."""

    user_id: int
    scope: int
    ladders: list[LadderStats]
    rivals: list[Rival]
    #: (ladder, rated id, mu, sigma) after each counted game, in the asked scope
    steps: list[tuple[str, int, float, float]]
    #: average seconds to move and over how many moves
    move_s: float
    moves: int
    #: games that ended with them seated, rated or not (ended by agreement, abandoned)
    ended_games: int
    #: Speakeasy: their money by source, summed over their last ``TELLING_GAMES`` finished games (source ->
    #: dollars, as the final scoring counts it), and how many games that is
    sources: dict[str, int] = field(default_factory=dict)
    source_games: int = 0
    #: Omerta: OMERTA calls and how many made it; snaps judged right and wrong
    calls: int = 0
    calls_made: int = 0
    snaps_right: int = 0
    snaps_wrong: int = 0


class Profiles(Core):
    """``/profile``."""

    async def profile(self, viewer: int, user_id: int, guild_id: int | None) -> Profile:
        """``user_id``'s profile as ``viewer`` may see it (ratings of this server, or across all servers from a
        DM). Raises ``ServiceError`` when it is someone else's hidden profile."""
        if viewer != user_id and (await self.store.get_person(user_id)).hidden:
            raise ServiceError(hidden_profile(user_id))
        me = identity_of(user_id)
        scope = GLOBAL if guild_id is None else guild_id
        ladders: dict[str, LadderStats] = {}
        rivals: dict[str, Rival] = {}
        for game in await self.store.games_of_identity(me):
            if game.guild_id != guild_id and guild_id is not None:
                continue
            stats = ladders.setdefault(game.ladder, LadderStats(game.ladder))
            places = [(str(i), int(p)) for i, p in json.loads(game.places)]
            mine = min(p for i, p in places if i == me)
            stats.games += 1
            stats.counted += game.counted
            stats.wins += mine == 1
            stats.places[mine] += 1
            for other, place in places:
                if other == me:
                    continue
                rival = rivals.setdefault(other, Rival(other))
                rival.games += 1
                rival.ahead += mine < place
                rival.behind += mine > place
        for row in await self.store.ratings_of(me):
            stats = ladders.setdefault(row.ladder, LadderStats(row.ladder))
            if row.scope == scope:
                stats.here = row
            if row.scope == GLOBAL:
                stats.everywhere = row
        met = sorted(rivals.values(), key=lambda r: (-r.games, r.identity))[:RIVALS]
        move_s, moves = await self.store.move_times(user_id)
        _, ended = await self.store.past_games(guild_id, user_id, 1, 0)
        steps = await self.store.rating_steps(me, scope)
        profile = Profile(
            user_id, scope, sorted(ladders.values(), key=lambda s: s.ladder), met, steps, move_s, moves, ended
        )
        played = [g for g in await self.store.games_of_identity(me) if guild_id is None or g.guild_id == guild_id]
        await self._telling(profile, me, played[-TELLING_GAMES:])
        return profile

    async def _telling(self, profile: Profile, me: str, games: list[RatedGameRow]) -> None:
        """The per-game figures: Speakeasy's money by source from each final scoring (public at the end), and
        Omerta's calls and snaps from the public log."""
        seat_in = {g.game_id: [i for i, _ in json.loads(g.places)].index(me) for g in games}
        for g in games:
            if not g.ladder.startswith("speakeasy"):
                continue
            snap = await self.store.get_snapshot(g.game_id)
            if snap is None:
                continue
            game = self.game_of("speakeasy")
            view = game.view(game.loads(snap[1]), None)
            players = view.get("players", [])
            seat = seat_in[g.game_id]
            if seat >= len(players) or "sources" not in players[seat]:
                continue
            profile.source_games += 1
            for source, dollars in players[seat]["sources"]:
                profile.sources[source] = profile.sources.get(source, 0) + int(dollars)
        omerta = [g.game_id for g in games if g.ladder == "omerta"]
        names = {gid: [s.name for s in seats] for gid, seats in (await self.store.seats_of(omerta)).items()}
        called: dict[int, bool] = {}  # the game of a call awaiting its verdict
        for gid, kind, data in await self.store.events_of(omerta, ("snap", "omerta", "verdict")):
            d = json.loads(data)
            msg = d.get("msg") or {}
            who = (msg.get("a") or {}).get("name")
            seat = seat_in[gid]
            mine = seat < len(names.get(gid, [])) and who == names[gid][seat]
            if kind == "snap" and d.get("seat") == seat and "right" in d:
                profile.snaps_right += bool(d["right"])
                profile.snaps_wrong += not d["right"]
            elif kind == "omerta" and mine:
                profile.calls += 1
                called[gid] = True
            elif kind == "verdict" and called.pop(gid, False):
                profile.calls_made += msg.get("m") == "omerta.log.made_it"
