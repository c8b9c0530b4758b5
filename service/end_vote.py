"""Ending a game by agreement (issue 23, "Games that keep going for weeks"): ``/game end`` proposes to end a running
game with its standings at the current position, or agrees to the open proposal; the game ends when every human
player agrees, and any player's refusal cancels the vote.

Who votes: each person with a seat, and the player whose seat a bot plays for them (``/game botseat``: the seat
stays theirs, issue 22); seat bots do not vote. The vote is kept in the store (``end_votes``: who agreed, when),
so a restart knows it; it stays open across moves and lapses ``END_VOTE_HOURS`` after it was proposed (by the
service's clock). A vote is a matter of the game's own server: it is refused from a DM.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
from typing import Any

from bots.table import bot_level
from engine.core import Result
from engine.msg import Join, M, Msg
from service.access import SERVER
from service.host import Host
from service.notice import Notice, ServiceError, StaleClick, Table, User
from service.outcome import Written, end_game, written
from service.records import table_row
from store import Move, Store

#: Hours a vote to end a game stays open after its proposal (the project's own value: two days, time enough for
#: a game by post where people look in once a day; the game's moves go on meanwhile).
END_VOTE_HOURS = 48.0
#: What there is not when the game is not running.
NOTHING_TO_END = M("table.what.end", "nothing to end by agreement")


def not_a_voter(game_id: int) -> Msg:
    """The refusal of a vote by someone who plays no seat of the game."""
    return M(
        "table.err.end_not_player",
        "Only the players of game #{game} can vote to end it; you play no seat there.",
        game=game_id,
    )


def no_vote(game_id: int) -> Msg:
    """The refusal of an answer to a vote that is over."""
    return M(
        "table.err.end_no_vote",
        "There is no open vote to end game #{game} (it was refused or it lapsed); use /game end to propose one.",
        game=game_id,
    )


def opened_key(votes: dict[int, float]) -> int:
    """The number that names a vote on its buttons: the second it was proposed."""
    return math.floor(min(votes.values()))


def standings_now(table: Table) -> Result:
    """The standings at the game's current position: the engine's ``standings`` (e.g. Speakeasy's final scoring
    of the position, Omerta's totals so far); for an engine without one, everyone shares the place."""
    standings = getattr(table.game, "standings", None)
    if standings is not None:
        result: Result = standings(table.state)
        return result
    seats = tuple(range(len(table.seats)))
    return Result(tuple(0 for _ in seats), seats, False, ())


class EndVotes(Host):
    """``/game end`` and the vote's Agree / Refuse buttons."""

    async def voters(self, table: Table) -> dict[int, str]:
        """``{user_id: seat name}`` of the people who vote: each human player, and the player of a seat a bot
        plays for them (it stays theirs); seat bots do not vote."""
        claims = await self.seat_claims(table)
        out: dict[int, str] = {}
        for s in table.seats:
            if s.seat in claims:
                out[claims[s.seat]] = s.name
            elif s.user_id > 0 and bot_level(s.user_id) is None:
                out[s.user_id] = s.name
        return out

    async def open_votes(self, table: Table) -> dict[int, float]:
        """The open vote of the game, ``{user_id: agreed_at}``; empty when there is none or it lapsed."""
        votes = await self.store.get_end_votes(table.id)
        if votes and min(votes.values()) + END_VOTE_HOURS * 3600 <= self.clock():
            return {}
        return votes

    async def _voter_at(self, game_id: int, user: User) -> tuple[Table, dict[int, str], dict[int, float]]:
        """The running game a voter answers in (its own server only), its voters and the open vote's agreements;
        refused for anyone who is not a voter. Under the game's lock."""
        table = await self.load_for(game_id, user, SERVER)
        self.need_active(table, NOTHING_TO_END)
        voters = await self.voters(table)
        if user.id not in voters:
            raise ServiceError(not_a_voter(game_id))
        return table, voters, await self.open_votes(table)

    async def end_vote(self, game_id: int, user: User, opened: int | None = None) -> Notice:
        """A player proposes to end the game by agreement, or agrees to the open proposal (``opened``: the vote
        a button was made for; ``None``: ``/game end``, which proposes anew when no vote is open). When every
        voter agrees, the game ends with its standings now (status ``ended``)."""
        async with self.lock(game_id):
            table, voters, votes = await self._voter_at(game_id, user)
            if opened is not None and (not votes or opened_key(votes) != opened):
                raise ServiceError(no_vote(game_id))
            agreed = [u for u in votes if u in voters]  # a vote of someone whose seat changed hands counts no more
            if user.id in agreed:
                waiting = [u for u in voters if u not in agreed]
                raise ServiceError(
                    M(
                        "table.err.end_agreed_already",
                        "You already agreed to end game #{game}; waiting for {names}.",
                        game=game_id,
                        names=Join([voters[u] for u in waiting], "and"),
                    )
                )
            agreed.append(user.id)
            if len(agreed) == len(voters):
                return await self._end_by_agreement(table, voters)
            return await self._record_agreement(table, user, voters, agreed, fresh=not votes)

    async def refuse_end(self, game_id: int, user: User, opened: int | None = None) -> Notice:
        """A player refuses the open vote to end the game: the vote is over, the game goes on."""
        async with self.lock(game_id):
            table, voters, votes = await self._voter_at(game_id, user)
            if not votes or (opened is not None and opened_key(votes) != opened):
                raise ServiceError(no_vote(game_id))
            line = M(
                "table.end.refused",
                "{name} refuses to end game #{game} by agreement; the vote is over and the game goes on.",
                name=voters[user.id],
                game=game_id,
            )
            move = Move([], "", self.clock(), outbox=[("public", None, _body(line))])
            if await _write(self.store, self.store.clear_end_votes(game_id, move), game_id, move) is Written.REFUSED:
                raise StaleClick(no_vote(game_id))
            reply = M("table.reply.end_refused", "You refused; game #{game} goes on.", game=game_id)
            return Notice(table, reply=reply)

    async def _record_agreement(
        self, table: Table, user: User, voters: dict[int, str], agreed: list[int], *, fresh: bool
    ) -> Notice:
        """One more agreement (or the proposal), with its public line and the vote's buttons."""
        game_id, now = table.id, self.clock()
        n, total = len(agreed), len(voters)
        name = voters[user.id]
        if fresh:
            line = M(
                "table.end.proposed",
                "{name} proposes to end game #{game} by agreement: {n} of {total} agree.",
                name=name,
                game=game_id,
                n=n,
                total=total,
            )
        else:
            line = M(
                "table.end.agrees",
                "{name} agrees to end game #{game} by agreement: {n} of {total} agree.",
                name=name,
                game=game_id,
                n=n,
                total=total,
            )
        waiting = [u for u in voters if u not in agreed]
        opened = math.floor(now) if fresh else opened_key(await self.store.get_end_votes(game_id))
        ask = M(
            "table.end.ask",
            "{line} The game ends with the standings now when everyone agrees; one refusal keeps it going. Still to "
            "answer: {who} (until <t:{until}:f>).",
            line=line,
            who=Join([f"<@{u}>" for u in waiting], "and"),
            until=math.ceil(opened + END_VOTE_HOURS * 3600),
        )
        body = {"text": str(ask), "msg": ask.dump(), "opened": opened, "waiting": waiting}
        move = Move([], "", now, outbox=[("endvote", None, json.dumps(body))])
        write = self.store.agree_end(game_id, user.id, now, move, fresh=fresh)
        if await _write(self.store, write, game_id, move) is Written.REFUSED:
            raise StaleClick(M("table.err.end_changed", "Game #{game} changed meanwhile; try again.", game=game_id))
        reply = M("table.reply.end_agreed", "Your agreement to end game #{game} is counted.", game=game_id)
        return Notice(table, reply=reply)

    async def _end_by_agreement(self, table: Table, voters: dict[int, str]) -> Notice:
        """Every voter agreed: the game ends with its standings now, recorded as ended by agreement."""
        game_id, now = table.id, self.clock()
        result = await asyncio.to_thread(standings_now, table)
        line = M(
            "table.end.ended",
            "Game #{game} is ended by agreement of {names}. The standings now are its result:",
            game=game_id,
            names=Join(list(voters.values()), "and"),
        )
        winners = Join([table.name_of(s) for s in result.winners], "and")
        first = M("table.end.first", "First: {names}.", names=winners)
        lines: list[Any] = [line, *result.details, first]
        events = [table_row(table.version, line, "ended")]
        events += [table_row(table.version, x, "result") for x in [*result.details, first]]
        result_json = {"scores": list(result.scores), "winners": list(result.winners), "ended": "agreement"}
        move = Move([], "", now, events=events, result_json=json.dumps(result_json), clear_reminders=True)
        if await end_game(self.store, game_id, "ended", ("active",), move) is Written.REFUSED:
            raise StaleClick(M("table.err.just_ended", "Game #{game} has just ended.", game=game_id))
        row = dataclasses.replace(table.row, status="ended", updated_at=now, result=move.result_json)
        table = await self.reload(game_id, lambda: Table(row, table.seats, table.game, table.state))
        reply = M("table.reply.end_done", "Everyone agreed: game #{game} is over.", game=game_id)
        return Notice(table, public=lines, reply=reply, finished=True)


def _body(line: Msg) -> str:
    """An outbox entry of one public line in the table's thread."""
    return json.dumps({"text": str(line), "msg": line.dump()})


async def _write(store: Store, write: Any, game_id: int, move: Move) -> Written:
    """A vote's write, answered truthfully when the database fails: it was committed if its outbox entry is there
    (it waits there until it is posted, right after this request)."""

    async def landed() -> bool:
        entries = await store.outbox_due(math.inf, game_id)
        return any((r.kind, r.user_id, r.body) in move.outbox for r in entries)

    return await written(store, write, landed, f"a vote to end game {game_id}", move=False)
