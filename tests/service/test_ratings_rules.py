"""Issue 26: what a finished game gives the ratings (service/ratings.py): ladders, identities, places with ties,
and the rule that a person's seat played by others more than a quarter of the time leaves the game unrated."""

from __future__ import annotations

import json
from types import SimpleNamespace

from bots.table import bot_user_id
from engine.core import TABLE, Choice, Result, dump_choice
from service.ratings import COVER_SHARE, decisions, identity_of, ladder_of, places_of, rated_game
from service.records import UNDO_KIND
from store import ChoiceRow, SeatRow

ANNA, BEN = 101, 102


def seat(k: int, user: int, name: str) -> SeatRow:
    return SeatRow(1, k, user, name, False, None)


def row(idx: int, seat_no: int, actor: int | None, kind: str = "turn", cause: str | None = None) -> ChoiceRow:
    return ChoiceRow(1, idx, dump_choice(Choice(seat_no, kind, "x")), 0.0, actor, cause)


def test_places_put_the_winners_first_and_share_equal_scores() -> None:
    assert places_of([10, 30, 20, 20], [1], lower_is_better=False) == [4, 1, 2, 2]
    assert places_of([10, 30, 20, 20], [0], lower_is_better=True) == [1, 4, 2, 2]
    assert places_of([5, 5, 1], [0, 1], lower_is_better=False) == [1, 1, 3]  # a shared win is a tie


def test_decisions_leave_out_undone_choices_and_the_tables_timers() -> None:
    rows = [row(0, 0, ANNA), row(1, 1, None), row(2, 0, ANNA), row(3, 0, ANNA, UNDO_KIND), row(4, TABLE, None)]
    rows.append(row(5, 1, None, cause="deadline"))
    assert decisions(rows, [(Choice(1, "turn", "y"), BEN)]) == [(0, ANNA), (1, None), (1, None), (1, BEN)]


def _game(made: list[tuple[int, int | None]], claims: dict[int, int] | None = None):  # noqa: ANN202
    seats = [seat(0, ANNA, "Anna"), seat(1, BEN, "Ben"), seat(2, bot_user_id(0, "hard"), "Bot Nora (hard)")]
    result = Result((30, 20, 20), (0,), False)
    return rated_game("omerta", 7, seats, result, None, made, claims or {})


def test_identities_places_and_a_quarter_of_decisions_by_others_still_counts() -> None:
    made = [(0, ANNA)] * 4 + [(1, BEN)] * 3 + [(1, None)] + [(2, None)] * 5  # Ben: 1 of 4 by the bot
    rated = _game(made)
    assert rated.places == ((f"u:{ANNA}", 1), (f"u:{BEN}", 2), ("bot:hard", 2)) and rated.counted
    assert rated.ladder == "omerta" and rated.guild_id == 7 and COVER_SHARE == 0.25


def test_more_than_a_quarter_by_others_leaves_the_game_unrated_with_why() -> None:
    made = [(0, ANNA)] * 4 + [(1, BEN)] * 2 + [(1, None)] * 1 + [(2, None)] * 5  # Ben: 1 of 3 by the bot
    rated = _game(made)
    assert not rated.counted
    why = json.loads(rated.why or "{}")
    assert why["a"]["name"] == "Ben" and why["a"]["share"] == 33


def test_a_seat_a_bot_plays_for_a_person_is_theirs_even_without_a_decision() -> None:
    """``/game botseat`` at the start: the bot made every decision of Ben's seat, whose row now names the bot."""
    seats = [seat(0, ANNA, "Anna"), seat(1, bot_user_id(1, "easy"), "Bot Vito (easy)")]
    made = [(0, ANNA)] * 3 + [(1, None)] * 3
    rated = rated_game("omerta", 7, seats, Result((5, 9), (0,), True), None, made, {1: BEN})
    assert rated.places[1] == (f"u:{BEN}", 2) and not rated.counted


def test_solo_is_a_ladder_of_its_own_and_jo_is_rated_by_difficulty() -> None:
    seats = [seat(0, ANNA, "Anna")]
    jo = SimpleNamespace(seat=1, difficulty=3)
    rated = rated_game("speakeasy", 7, seats, Result((80, 95), (1,), False), jo, [(0, ANNA)] * 10, {})
    assert ladder_of("speakeasy", seats) == rated.ladder == "speakeasy_solo"
    assert rated.places == ((f"u:{ANNA}", 2), ("jo:3", 1)) and rated.counted
    assert identity_of(bot_user_id(2, "standard")) == "bot:standard" and identity_of(ANNA) == f"u:{ANNA}"
