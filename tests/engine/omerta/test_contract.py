"""Omerta against the engine contract (engine/core.py): refusals, privacy, races, JSON, replay, data, invariants."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import TABLE, Choice, IllegalChoice, replay
from engine.data import DataError, data_dir
from engine.omerta.cards import deck, load_deck
from tests.engine.omerta.helpers import (
    GAME,
    NAMES,
    Pick,
    arrange,
    card_ids_in,
    close_snap,
    face_down,
    info,
    new_table,
    play,
    prompt_of,
    refused,
)

# --- playing random legal games ------------------------------------------------------------------------------


def random_game(players: int, seed: int, steps: int = 10_000, check=None):
    """Play random legal choices (seeded); ``check(state, events, choice)`` runs after every one.

    OMERTA is called and powers are declined only now and then, so that rounds last and powers get used.
    """
    rng = random.Random(seed)
    s = GAME.new(list(NAMES[:players]), {}, seed)
    choices = []
    for _ in range(steps):
        if GAME.is_over(s):
            break
        pairs = [(p, o) for p in GAME.prompts(s) for o in p.options]
        calm = [(p, o) for p, o in pairs if o.id not in ("omerta", "decline")]
        if calm and rng.random() < 0.95:
            pairs = calm
        prompt, option = rng.choice(pairs)
        choice = Choice(prompt.seat, prompt.kind, option.id)
        events = GAME.apply(s, choice)
        choices.append(choice)
        if check is not None:
            check(s, events, choice)
    return s, choices


# --- illegal and malformed choices ---------------------------------------------------------------------------


def _positions():
    """A table in each phase (name, game, state)."""
    out = []
    g, s = new_table(3, peek=False)
    out.append(("peek", g, s))
    g, s = new_table(3)
    out.append(("turn", g, s))
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, draw=[p(5)])
    play(g, s, 0, "turn", "draw")
    out.append(("drawn", g, s))
    g, s = new_table(3)
    arrange(s, active=0, draw=[Pick()(5)])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    out.append(("snap", g, s))
    g, s = new_table(3)
    arrange(s, active=0, draw=[Pick()("mamma")])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    out.append(("power", g, s))
    g, s = new_table(3, options={"rounds": 1})
    play(g, s, s.active, "turn", "omerta")
    out.append(("over", g, s))
    return out


BAD_CHOICES = [
    Choice(0, "turn", "no-such-option"),
    Choice(0, "nonsense", "draw"),
    Choice(1, "turn", "draw"),
    Choice(9, "turn", "draw"),
    Choice(-5, "turn", "draw"),
    Choice(TABLE, "snap", "slot:0"),
    Choice(0, "place", "swap:99"),
    Choice(0, "place", "swap:-1"),
    Choice(0, "place", "swap:x"),
    Choice(0, "mamma", "mamma:0"),
    Choice(0, "peek", "0,0"),
    Choice(0, "peek", "0,1,2"),
    Choice(0, "turn", 3),  # type: ignore[arg-type]
    Choice("0", "turn", "draw"),  # type: ignore[arg-type]
    ("not", "a", "choice"),
    None,
]


@pytest.mark.parametrize(("phase", "game", "state"), _positions(), ids=lambda x: x if isinstance(x, str) else "")
def test_illegal_and_malformed_choices_are_refused_with_a_message_and_nothing_changes(phase, game, state):
    assert state.phase == phase
    legal = {(p.seat, p.kind, o.id) for p in game.prompts(state) for o in p.options}
    for bad in BAD_CHOICES:
        if isinstance(bad, Choice) and (bad.seat, bad.kind, bad.option) in legal:
            continue
        message = refused(game, state, bad)
        assert len(message) > 15


def test_refusal_messages_say_what_is_allowed():
    g, s = new_table(3)
    arrange(s, active=0)
    assert refused(g, s, Choice(0, "turn", "fly")) == "'fly' is not a legal answer to 'turn'; allowed: draw, omerta."
    assert refused(g, s, Choice(2, "turn", "draw")) == "Seat 2 has nothing to decide now; waiting for seat 0."
    assert "it is asked: turn" in refused(g, s, Choice(0, "place", "discard"))
    assert "must be a Choice" in refused(g, s, {"seat": 0})
    _, _, over = _positions()[-1]
    assert refused(g, over, Choice(0, "turn", "draw")) == "The game is over; nothing can be played."


# --- privacy ---------------------------------------------------------------------------------------------------

_NAMES_RE = re.compile(
    r"Bottle \d+|Traitor|Mole|Lady|Chauffeur|Police Check|La Mamma|Safecracker|Alibi",
)


def _shown(view) -> set[int]:
    """Card ids the view shows, leaving out the reveal of a finished round (public history)."""
    return set(card_ids_in({k: v for k, v in view.items() if k != "reveal"}))


def _check_privacy(s, events, choice):
    players = len(s.players)
    public = {s.discard[-1]} if s.discard else set()
    public |= set(s.shown)  # revealed to everyone by this choice (a snap, the Chauffeur), even if back face down
    if s.phase == "taken":
        public.add(s.held)
    spectator = GAME.view(s, None)
    assert _shown(spectator) <= public, "the spectator sees a hidden card"
    assert not (_shown(spectator) - set(s.shown)) & face_down(s)
    for seat in range(players):
        view = GAME.view(s, seat)
        allowed = set(public)
        if seat == s.active and s.phase == "drawn":
            allowed.add(s.held)
        if seat == s.active and s.phase == "power" and s.power in ("safe", "safe_slot"):
            allowed |= set(s.safe)
        assert _shown(view) <= allowed, f"seat {seat} sees more than it may"
        if allowed == public:
            assert {**view, "viewer": None} == spectator  # a seat with nothing private sees what everyone sees
    if s.held is not None and s.phase == "drawn":
        for seat in [None, *range(players)]:
            if seat != s.active:
                assert s.held not in _shown(GAME.view(s, seat))
    for e in events:
        if e.kind == "look":
            assert e.to is not None and len(e.to) == 1, f"a look event for several seats: {e}"
        if e.to is None:
            assert not {"card", "cards", "safe"} & e.data.keys(), f"a public event carries a card: {e}"
    public_names = {info(c).name for c in public}
    for prompt in GAME.prompts(s):
        if prompt.secret:
            continue
        words = " ".join([prompt.text, *(o.label + " " + o.detail for o in prompt.options)])
        named = set(_NAMES_RE.findall(words))
        assert named <= public_names, f"public prompt {prompt.kind} names {named - public_names}"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_privacy_no_view_event_or_public_prompt_shows_a_face_down_card(players):
    for seed in range(3):
        random_game(players, seed * 31 + players, check=_check_privacy)


_LOOK_SOURCES = {
    "peek": "peek",
    "mole": "mole",
    "safecracker": "safecracker",
    "safe_slot": "safecracker",
    "turn": "draw",
}


def test_privacy_peek_mole_safecracker_events_go_only_to_that_seat():
    seen = {"peek": 0, "mole": 0, "safecracker": 0, "draw": 0}

    def check(s, events, choice):
        for e in events:
            if e.kind != "look":
                continue
            assert e.to == (choice.seat,)
            key = _LOOK_SOURCES.get(choice.kind)
            if key:
                seen[key] += 1

    for seed in range(6):
        random_game(4, seed, check=check)
    assert all(seen.values()), seen


# --- the snap race --------------------------------------------------------------------------------------------


def test_snap_race_every_seat_and_the_table_share_one_race_id():
    g, s = new_table(4)
    p = Pick()
    arrange(s, active=2, draw=[p(4), p(4)])
    play(g, s, 2, "turn", "draw")
    play(g, s, 2, "place", "discard")
    prompts = g.prompts(s)
    assert sorted(pr.seat for pr in prompts) == [TABLE, 0, 1, 2, 3]
    race = prompts[0].race
    assert race and all(pr.race == race and pr.kind == "snap" for pr in prompts)
    assert [o.id for o in prompt_of(g, s, TABLE).options] == ["close"]
    assert [o.id for o in prompt_of(g, s, 2).options] == ["slot:0", "slot:1", "slot:2", "slot:3"]
    close_snap(g, s)
    play(g, s, 3, "turn", "draw")
    play(g, s, 3, "place", "discard")
    assert prompt_of(g, s, TABLE).race != race  # every window is a new race


def test_snap_race_seat_without_a_card_gets_no_prompt():
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=0, hands={1: [None, None]}, draw=[p(4)])
    play(g, s, 0, "turn", "draw")
    play(g, s, 0, "place", "discard")
    assert sorted(pr.seat for pr in g.prompts(s)) == [TABLE, 0, 2]


# --- JSON and replay ------------------------------------------------------------------------------------------


def test_json_round_trip_at_every_step():
    def check(s, events, choice):
        data = GAME.dumps(s)
        back = GAME.loads(data)
        assert back == s
        assert GAME.dumps(back) == data
        assert GAME.prompts(back) == GAME.prompts(s)
        for seat in (None, 0, 1, 2):
            assert GAME.view(back, seat) == GAME.view(s, seat)
            json.dumps(GAME.view(s, seat))
        json.loads(data)

    random_game(3, 5, check=check)


def test_replay_same_seed_and_choices_give_the_same_state():
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        s, choices = random_game(players, seed)
        assert GAME.is_over(s)
        again = replay(GAME, list(NAMES[:players]), {}, seed, choices)
        assert GAME.dumps(again) == GAME.dumps(s)
        assert GAME.result(again) == GAME.result(s)


def test_replay_stops_at_an_illegal_choice():
    s, choices = random_game(3, 8, steps=40)
    with pytest.raises(IllegalChoice):
        replay(GAME, list(NAMES[:3]), {}, 9, choices)  # another seed: another deal, so other legal options


def test_different_seeds_give_different_games():
    dumps = {GAME.dumps(GAME.new(list(NAMES[:3]), {}, seed)) for seed in range(20)}
    assert len(dumps) == 20
    assert GAME.dumps(GAME.new(list(NAMES[:3]), {}, 4)) == GAME.dumps(GAME.new(list(NAMES[:3]), {}, 4))


# --- the card data ---------------------------------------------------------------------------------------------

CARDS_TOML = data_dir() / "omerta" / "cards.toml"


def _bad_file(tmp_path: Path, old: str, new: str) -> Path:
    text = CARDS_TOML.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_data_the_real_file_loads():
    assert load_deck(CARDS_TOML) == deck()


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"),
    [
        ("peek = 2 ", "", "numbers.peek", "is missing"),
        ("hand_size = 4 ", 'hand_size = "four" ', "numbers.hand_size", "must be a whole number, got 'four'"),
        ("safe_size = 4 ", "safe_size = -4 ", "safe_size", "must not be negative"),
        ("omerta_limit = 7 ", "omerta_limit = true ", "numbers.omerta_limit", "whole number, got true"),
        (
            'starter = "Al Capone"',
            'starter = "Bugsy Siegel"',
            "gangsters.starter",
            "is not a gangster of gangsters.names",
        ),
        ("values = [1, 2,", "values = [0, 2,", "bottles.values[0]", "must be at least 1, got 0"),
        ("copies = 4\n", 'copies = "4"\n', "bottles.copies", "must be a whole number, got '4'"),
        ('kind = "mole"', 'kind = "robber"', "characters[1].kind", "'robber' is not a character power (one of"),
        ('kind = "mole"', 'kind = "traitor"', "characters[1].kind", "'traitor' appears twice"),
        ("points = 10\n", "", "characters[1].points", "is missing"),
        ("[gangsters]", "[gangs]", "gangs", "is not a key of this file"),
        ("[numbers]", "[numbers", "TOML", "cannot be read"),
        ("snaps_per_discard = 1", "snaps_per_discard = 2", "snaps_per_discard", "must be 1"),
        ("min_players = 3", "min_players = 6", "min_players", "at most max_players"),
        ("points = 10\n", "points = -10\n", "points", "must not be negative"),
        ("copies = 4\n", "copies = 0\n", "bottles.copies", "must be at least 1, got 0"),
        ("hand_size = 4 ", "hand_size = 12 ", "bottles and characters", "cannot deal a full table"),
    ],
)
def test_data_a_bad_cards_file_is_refused_naming_file_key_and_reason(tmp_path, old, new, key, reason):
    path = _bad_file(tmp_path, old, new)
    with pytest.raises(DataError) as caught:
        load_deck(path)
    message = str(caught.value)
    assert str(path) in message
    assert key in message
    assert reason in message


# --- invariants under random play -----------------------------------------------------------------------------


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large],
)
@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 2**64 - 1),
    picks=st.lists(st.integers(0, 2**16), min_size=60, max_size=300),
)
def test_random_legal_play_keeps_every_invariant(players, seed, picks):
    s = GAME.new(list(NAMES[:players]), {}, seed)
    assert GAME.invariants(s) == []
    for pick in picks:
        if GAME.is_over(s):
            assert GAME.result(s) is not None and GAME.prompts(s) == []
            break
        pairs = [(p, o) for p in GAME.prompts(s) for o in p.options]
        assert pairs, "no prompt open but the game is not over"
        calm = [(p, o) for p, o in pairs if o.id not in ("omerta", "decline")]
        if calm and pick % 16:  # call OMERTA and decline powers only now and then, so rounds last
            pairs = calm
        prompt, option = pairs[pick % len(pairs)]
        GAME.apply(s, Choice(prompt.seat, prompt.kind, option.id))
        assert GAME.invariants(s) == []
        assert s.phase in ("peek", "turn", "drawn", "taken", "snap", "power", "over")
        for seat in (None, *range(players)):
            json.dumps(GAME.view(s, seat))
