"""Hard's evaluation fitted on self-play (issue 27, docs/bots.md "An evaluation fitted on self-play"): the file
bench/fit_evaluation.py writes, what a leaf is scored with, and where the hand-made value stays."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

from bench.fit_evaluation import MIN_R2
from bots.common import view_rng
from bots.speakeasy import GAME, Budget, SpeakeasyBot
from bots.speakeasy_evaluation import FEATURES, WEIGHTS_FILE, Fit, fit, fitted_margins, parts
from bots.speakeasy_policy import lookahead, margins
from bots.speakeasy_worlds import copy, world
from bots.speakeasy_worth import PREPARE, Reading
from engine.core import TABLE, Choice


def a_position(act: int, seed: int = 3):
    """A two-player position early in ``act`` reached by random play, at a seat prompt of 3 options or more."""
    state = GAME.new(["A", "B"], {"settle": "auto"}, seed)
    rng = random.Random(seed)
    while True:
        prompt = rng.choice([p for p in GAME.prompts(state) if p.seat != TABLE])
        if state.act >= act and state.phase == "play" and len(prompt.options) >= 3:
            return state, prompt
        GAME.apply(state, Choice(prompt.seat, prompt.kind, rng.choice(prompt.options).id))


def test_the_kept_fit_names_every_part_and_only_acts_it_foretells():
    data = msgspec.toml.decode(WEIGHTS_FILE.read_bytes(), type=Fit)
    assert "bench.fit_evaluation" in data.made_by
    assert data.acts, "no Act fitted"
    assert "1" not in data.acts  # nothing read in Act 1 foretells the end (docs/bots.md)
    for act in data.acts.values():
        assert set(act.weights) == set(FEATURES)
        assert act.r2_fitted >= MIN_R2
        assert act.r2_fitted > act.r2_hand  # what the fit is for
        assert act.weights["money"] > 0  # a dollar kept foretells more


def test_a_file_missing_a_part_is_refused(tmp_path: Path):
    path = tmp_path / "fit.toml"
    weights = "\n".join(f"{f} = 1.0" for f in FEATURES if f != "books")
    path.write_text(
        'made_by = "test"\n[acts."2"]\noffset = 0.0\nr2_fitted = 0.5\nr2_hand = 0.1\npositions = 1\n'
        f'[acts."2".weights]\n{weights}\n'
    )
    with pytest.raises(msgspec.ValidationError, match="exactly the parts"):
        fit(path)


def test_a_fitted_act_scores_each_seat_by_its_weighted_parts_against_its_rival():
    state, _prompt = a_position(2)
    weights, offset = fit()[2]
    reading = Reading(state)
    worth = [offset + sum(w * x for w, x in zip(weights, parts(state, s, reading), strict=True)) for s in (0, 1)]
    assert fitted_margins(state) == pytest.approx([worth[0] - worth[1], worth[1] - worth[0]])
    richer = copy(state)
    richer.player(0).pocket += 10
    money = weights[FEATURES.index("money")]
    assert fitted_margins(richer)[0] == pytest.approx(fitted_margins(state)[0] + 10 * money)


def test_act_1_and_the_end_keep_the_hand_made_value_and_the_final_totals():
    state, _prompt = a_position(1)
    assert fitted_margins(state, PREPARE) == margins(state, PREPARE)
    bots = [SpeakeasyBot("easy", 1), SpeakeasyBot("easy", 2)]
    over = GAME.new(["A", "B"], {"settle": "auto"}, 4)
    while not GAME.is_over(over):
        prompt = next(p for p in GAME.prompts(over) if p.seat != TABLE)
        GAME.apply(over, bots[prompt.seat].choose(over, prompt))
    totals = [over.player(s).final["total"] for s in (0, 1)]
    assert fitted_margins(over) == [totals[0] - totals[1], totals[1] - totals[0]]


def test_a_search_cut_short_judges_as_its_evaluation_and_the_tables_hard_keeps_the_hand_made_one():
    """With ``fitted`` hard's prior is its lookahead judged by the fitted evaluation, as its leaves are; the
    table's hard (the fitted one won no more often, docs/bots.md) judges by the hand-made margin."""
    state, prompt = a_position(2, seed=5)
    sample = world(state, prompt.seat, view_rng(GAME, state, prompt, 1))
    by_fit = lookahead(sample, prompt, PREPARE, fitted_margins)
    by_hand = lookahead(sample, prompt, PREPARE)
    assert [v for v, _o in by_fit] != [v for v, _o in by_hand]  # the two judges differ here
    one = Budget(nodes=1, seconds=3600.0)
    fitted = SpeakeasyBot("hard", 1, one, fitted=True).decide(state, prompt)
    assert fitted.choice.option == by_fit[0][1].id
    hand = SpeakeasyBot("hard", 1, one).decide(state, prompt)
    assert hand.choice.option == by_hand[0][1].id
