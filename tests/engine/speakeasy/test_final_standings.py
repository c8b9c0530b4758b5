"""The final standings and the money ledger (issue 11: a final message worth keeping).

Every dollar a player gains or loses is booked by source (engine/speakeasy/money.py); at the end the sources
sum to the final total exactly. Ties on money are reported with the tie-breaker that settled them (design §14
ties) or as standing; solo, a tie on money is Jo's win (seed 003:58.3).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.speakeasy import standings
from engine.speakeasy.board import operating_count
from engine.speakeasy.state import SpeakeasyState
from tests.engine.speakeasy import kit
from tests.engine.speakeasy.finished import random_game


def _ledger_holds(state: SpeakeasyState) -> None:
    for p in state.players:
        assert sum(p.ledger.values()) == p.pocket + p.safe, (p.name, p.ledger, p.pocket, p.safe)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_money_by_source_sums_to_the_final_total_in_self_play(players):
    """Six complete games per player count (solo: Jo at each difficulty): the ledger sums to pocket + safe,
    and the sources in the view sum to each final total, start money and costs included."""
    for seed in range(6):
        state = random_game(players, 100 * players + seed)
        view = kit.GAME.view(state, None)
        for p, entry in zip(state.players, view["players"], strict=True):
            assert sum(p.ledger.values()) == p.final["pocket"] + p.final["safe"]
            assert sum(amount for _source, amount in entry["sources"]) == p.final["total"], entry["sources"]
            assert all(amount for _source, amount in entry["sources"])  # nothing worth $0 is listed
            assert "unrecorded" not in dict(entry["sources"])
        if players > 1:
            assert (
                dict(view["players"][0]["sources"])["start"] == kit.R().tracks.start_pocket + kit.R().tracks.start_safe
            )


def test_every_step_keeps_the_ledger_equal_to_pocket_plus_safe():
    """Not only at the end: after every choice of a 3-player and a solo game, every dollar is booked."""
    random_game(3, 11, each_step=_ledger_holds)
    random_game(1, 12, each_step=_ledger_holds)


def test_standings_follow_the_ranking_and_the_result():
    for players, seed in ((2, 3), (3, 4), (4, 5), (1, 6)):
        state = random_game(players, seed)
        table = standings.standings(state)
        result = kit.GAME.result(state)
        assert [pl["place"] for pl in table["places"]][0] == 1
        assert table["places"][0]["seat"] in result.winners
        if players > 1:
            assert [pl["seat"] for pl in table["places"]] == standings.ranking(state)


def _tied_at_97(state: SpeakeasyState, a: int, b: int) -> None:
    for seat in (a, b):
        state.player(seat).final["total"] = 97
    for seat in range(len(state.players)):
        if seat not in (a, b):
            state.player(seat).final["total"] = 10 + seat


def test_design_14_a_tie_at_97_is_broken_by_safe_money_and_says_so():
    state = random_game(3, 21)
    _tied_at_97(state, 0, 1)
    state.player(0).safe, state.player(1).safe = 45, 60
    table = standings.standings(state)
    assert [pl["seat"] for pl in table["places"]][:2] == [1, 0]
    assert [pl["place"] for pl in table["places"]] == [1, 2, 3]
    assert table["ties"] == [
        {"total": 97, "seats": [1, 0], "steps": [{"ahead": 1, "behind": 0, "by": "safe", "values": [60, 45]}]}
    ]
    view = kit.GAME.view(state, None)
    assert view["standings"] == table


def test_design_14_equal_safes_go_to_operating_buildings_then_the_later_turn_order():
    state = random_game(4, 22)
    _tied_at_97(state, 1, 2)
    state.player(1).safe = state.player(2).safe = 30
    step = standings.standings(state)["ties"][0]["steps"][0]
    ops = {s: operating_count(state, s) for s in (1, 2)}
    if ops[1] != ops[2]:
        ahead = max((1, 2), key=ops.get)
        assert step["by"] == "operating_buildings" and step["ahead"] == ahead
        assert step["values"] == [ops[ahead], ops[3 - ahead]]
    else:
        late = {s: state.track.index(s) + 1 for s in (1, 2)}
        ahead = max((1, 2), key=late.get)
        assert step == {
            "ahead": ahead,
            "behind": 3 - ahead,
            "by": "later_turn_order",
            "values": sorted(late.values())[::-1],
        }


def test_design_14_three_tied_players_each_step_is_explained():
    state = random_game(4, 23)
    for seat, safe in ((0, 10), (1, 30), (2, 20)):
        state.player(seat).final["total"] = 97
        state.player(seat).safe = safe
    state.player(3).final["total"] = 5
    tie = standings.standings(state)["ties"][0]
    assert tie["seats"] == [1, 2, 0]
    assert [(s["ahead"], s["behind"], s["by"], s["values"]) for s in tie["steps"]] == [
        (1, 2, "safe", [30, 20]),
        (2, 0, "safe", [20, 10]),
    ]


def test_a_tie_with_no_tie_breaker_left_stands_and_shares_the_place(monkeypatch):
    """With no tie-breaker in the data (a house rule), equal money shares the place and the tie stands."""
    real = kit.R()
    bare = dataclasses.replace(real, final=dataclasses.replace(real.final, tie_breakers=()))
    monkeypatch.setattr(standings, "rules", lambda *_: bare)
    state = random_game(3, 24)
    _tied_at_97(state, 0, 2)
    table = standings.standings(state)
    assert [(pl["seat"], pl["place"]) for pl in table["places"]][:2] == [(0, 1), (2, 1)]
    assert table["places"][2]["place"] == 3
    assert table["ties"][0]["steps"] == [{"ahead": 0, "behind": 2, "by": None, "values": []}]


def test_003_58_3_solo_a_tie_on_money_is_jos_win_and_says_so():
    state = random_game(1, 25)
    jo = state.jo.seat
    human = 1 - jo
    p, bot = state.player(human), state.player(jo)
    p.final["achievements"] = 10
    p.final["total"] = bot.final["total"] + 10  # equal money; the achievements come after the win
    table = standings.standings(state)
    assert [pl["seat"] for pl in table["places"]] == [jo, human]
    assert table["ties"][0]["steps"] == [
        {"ahead": jo, "behind": human, "by": standings.SOLO_TIE, "values": [bot.final["total"]] * 2}
    ]
    assert table["margin"] == 0


def test_a_record_older_than_the_ledger_shows_the_difference_as_unrecorded():
    """A game saved before the ledger existed has an empty one: the sources still sum to the total."""
    state = random_game(2, 26)
    data = kit.GAME.dumps(state).replace(b'"ledger":', b'"old_ledger":')
    old = kit.GAME.loads(data)  # unknown fields are ignored, the ledger defaults to empty
    assert old.players[0].ledger == {}
    sources = dict(kit.GAME.view(old, None)["players"][0]["sources"])
    assert sources["unrecorded"] == old.players[0].pocket + old.players[0].safe
    assert sum(sources.values()) == old.players[0].final["total"]


def test_during_the_game_no_view_shows_the_sources_and_a_scramble_hides_the_ledger():
    """Costs paid from the safe (2:1) would tell its content: sources and standings appear only at the end."""
    state = kit.played(3, 27)
    for seat in (None, 0, 1):
        view = kit.GAME.view(state, seat)
        assert view["standings"] is None
        assert all("sources" not in p and "ledger" not in p for p in view["players"])
    copy = kit.GAME.scramble(state, 0, random.Random(5))
    assert copy.players[0].ledger == state.players[0].ledger
    assert list(copy.players[1].ledger) == ["hidden"]
    assert sum(copy.players[1].ledger.values()) == copy.players[1].pocket + copy.players[1].safe
