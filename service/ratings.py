"""What a finished game gives the ratings (issue 26): its ladder, each seat's rating identity and place, and
whether it counts.

- **Ladders.** Speakeasy and Omerta each have one; Speakeasy solo against Jo is a ladder of its own, where Jo at
  each difficulty is an identity ("jo:3"), so a person's solo rating says which Jo they beat.
- **Identities.** A person is ``u:<user id>``; each bot level is one identity (``bot:easy``, ``bot:standard``,
  ``bot:hard``), rated like a player, so a person can see where they stand against each level.
- **Places.** The winners are first; the others follow by score (higher is better, lower in Omerta), equal
  scores sharing a place: ties as ties.
- **What counts.** A game counts when it finished by the rules (not ended by agreement, not abandoned) and no
  person's seat had more than a quarter of its decisions made by others than that person (the bot that covers
  for a player whose time ran out, the table's defaults, a bot given the seat): ``COVER_SHARE``, the issue's
  number. Undone choices are not decisions. An unrated game stays in the history with why.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bots.table import bot_level
from engine.core import TABLE, Choice, Result, load_choice
from engine.msg import M, Msg
from service.records import UNDO_KIND
from store import ChoiceRow, RatedGame, SeatRow

#: A person's seat played by others for more than this share of its decisions makes the game unrated.
COVER_SHARE = 0.25


def ladder_of(game: str, seats: Sequence[SeatRow]) -> str:
    """The ladder a game is rated on: its name, or ``speakeasy_solo`` for one person against Jo."""
    return "speakeasy_solo" if game == "speakeasy" and len(seats) == 1 else game


def identity_of(user_id: int) -> str:
    """A seat's rating identity: the bot level's for a bot, else the person's."""
    level = bot_level(user_id)
    return f"bot:{level}" if level is not None else f"u:{user_id}"


def places_of(scores: Sequence[float], winners: Sequence[int], lower_is_better: bool) -> list[int]:
    """Each seat's place: the winners 1st, then by score, equal scores sharing a place (1, 2, 2, 4)."""
    sign = 1 if lower_is_better else -1
    others = [s for s in range(len(scores)) if s not in winners]
    out = [1] * len(scores)
    for s in others:
        better = sum(1 for o in others if sign * scores[o] < sign * scores[s])
        out[s] = 1 + len(winners) + better
    return out


def decisions(rows: Sequence[ChoiceRow], new: Sequence[tuple[Choice, int | None]]) -> list[tuple[int, int | None]]:
    """``(seat, actor)`` of each decision in effect (an undo takes back the latest one; the table's own timer
    choices are not a seat's), from the stored rows and this move's choices; ``actor`` None for a bot."""
    stack: list[tuple[int, int | None]] = []
    items = [(load_choice(r.choice), r.actor_id, r.cause) for r in rows]
    items += [(c, actor, None) for c, actor in new]
    for choice, actor, cause in items:
        if choice.kind == UNDO_KIND:
            if stack:
                stack.pop()
            continue
        if choice.seat != TABLE:
            stack.append((choice.seat, None if cause is not None else actor))
    return stack


def unrated_why(name: str, share: float) -> Msg:
    """Why a game is unrated: someone else made too many of a person's decisions."""
    return M(
        "table.history.unrated_cover",
        "unrated: {name}'s decisions were made by the bot or the table {share}% of the time (more than a quarter)",
        name=name,
        share=round(100 * share),
    )


def rated_game(
    game: str,
    guild_id: int,
    seats: Sequence[SeatRow],
    result: Result,
    state_jo: Any,
    made: Sequence[tuple[int, int | None]],
    claims: Mapping[int, int],
) -> RatedGame:
    """The ratings' part of a game that finished by the rules: ``made`` is ``decisions``; ``state_jo`` the
    solo game's Jo (his seat and difficulty), None otherwise; ``claims`` the seats a bot plays for a person
    (``/game botseat``), whose person is theirs even if they never decided anything."""
    places = places_of(result.scores, result.winners, result.lower_is_better)
    by_seat = {s.seat: s for s in seats}
    identities: list[str] = []
    why: Msg | None = None
    for seat in range(len(result.scores)):
        if state_jo is not None and seat == state_jo.seat:
            identities.append(f"jo:{state_jo.difficulty}")
            continue
        mine = [actor for s, actor in made if s == seat]
        people = [a for a in mine if a is not None and a > 0]
        row = by_seat.get(seat)
        person = claims.get(seat) or (max(set(people), key=people.count) if people else None)
        if person is None and row is not None and row.user_id > 0:
            person = row.user_id
        if person is None:  # a bot's seat all game
            identities.append(identity_of(row.user_id if row is not None else 0))
            continue
        identities.append(identity_of(person))
        others = sum(1 for a in mine if a != person)
        share = others / len(mine) if mine else 0.0
        if share > COVER_SHARE and why is None:
            name = next((s.name for s in seats if s.user_id == person), row.name if row else "?")
            why = unrated_why(name, share)
    return RatedGame(
        ladder_of(game, seats),
        guild_id,
        tuple(zip(identities, places, strict=True)),
        why is None,
        json.dumps(why.dump()) if why is not None else None,
    )
