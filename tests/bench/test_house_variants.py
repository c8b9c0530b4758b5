"""The house-variant experiments (bench/house_variants.py, issue 25): a variant is played as the whole rules of its
games (every read sees it, Jo's file too), the base is the data as it is, and a figure "moved" only when the 95%
interval of its difference from the base excludes 0."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from bench.house_variants import (
    _worker,
    compare,
    data_copy,
    figures,
    house_text,
    load_variants,
)
from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.loader import latest_version, load_rules, rules

CHANGES = {
    "goals.toml": {"zone_goal.reward": 12},
    "jo.toml": {"difficulty.levels[3].head_start": 25},
}


def _seen() -> tuple[int, int, int]:
    """In a worker: what the rules read without a version show (the Zone-goal reward, Jo's head start at 4)."""
    from engine.speakeasy.jo.data import jo_rules
    from engine.speakeasy.loader import rules

    return rules().goals.zone_goal_reward, rules(1).goals.zone_goal_reward, jo_rules().difficulties[4].head_start


def test_every_variant_in_the_file_loads_as_a_version(tmp_path: Path) -> None:
    """Each variant names only own values that exist (the loader refuses anything else)."""
    for name, variant in load_variants().items():
        folder, version = data_copy(tmp_path / name, latest_version(), variant["changes"])
        assert version == latest_version() + 1
        load_rules(folder / "speakeasy", version)


def test_a_variant_is_what_every_read_sees_in_its_worker(tmp_path: Path) -> None:
    folder, version = data_copy(tmp_path / "v", latest_version(), CHANGES)
    text = (folder / "speakeasy" / "house.toml").read_text()
    assert f'[versions.{version}."goals.toml"]\n"zone_goal.reward" = 12' in text
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=ctx, initializer=_worker, initargs=(str(folder), version)) as pool:
        assert pool.submit(_seen).result() == (12, 12, 25)
    base, same = data_copy(tmp_path / "base", latest_version(), {})
    assert same == latest_version()  # no changes: the base is the data as it is
    with ProcessPoolExecutor(1, mp_context=ctx, initializer=_worker, initargs=(str(base), same)) as pool:
        latest = latest_version()  # the base is the newest version as the data has it
        expected = (rules(latest).goals.zone_goal_reward,) * 2 + (jo_rules(latest).difficulties[4].head_start,)
        assert pool.submit(_seen).result() == expected


def test_house_text_adds_after_what_is_there() -> None:
    text = house_text('[versions.2."goals.toml"]\n"city_hall.reward" = 15\n', 3, {"tracks.toml": {"a.b": [1, 2]}})
    assert text.startswith('[versions.2."goals.toml"]') and '[versions.3."tracks.toml"]\n"a.b" = [1, 2]' in text


def _game(kept: int, attacked: int, books: int, sales: int) -> dict:
    return {
        "war": [[0, 0], [attacked, attacked - kept], [0, 0]],
        "defence": [4, 2, 1, 2, 1],
        "late": [6, 3],
        "income": {"books": books, "sales": sales, "zones": 10},
        "winners": [0],
        "standing": [2, 2],
    }


def test_a_figure_moved_only_when_its_interval_excludes_zero() -> None:
    base = [_game(1, 10, 40, 2) for _ in range(30)]
    same = [_game(1, 10, 40, 2) for _ in range(30)]
    more = [_game(6, 10, 20, 12) for _ in range(30)]
    assert figures(base, 2)["kept_late"] == pytest.approx(0.1)
    unmoved = compare(base, same)
    diff, low, high = unmoved["kept_late"]  # type: ignore[misc]
    assert diff == 0 and low < 0 < high  # the same share on both sides: the interval spans 0
    assert unmoved["books"] == (0.0, 0.0, 0.0)  # paired, the same games: no difference at all
    moved = compare(base, more)
    diff, low, high = moved["kept_late"]  # type: ignore[misc]
    assert diff == pytest.approx(0.5) and low > 0
    books, low, high = moved["books"]  # type: ignore[misc]
    assert books < 0 and high < 0
    sales, low, _high = moved["sales_casinos"]  # type: ignore[misc]
    assert sales > 0 and low > 0


def test_kept_games_are_reused_only_for_the_same_settings_and_changes(tmp_path: Path) -> None:
    import argparse
    import json

    from bench.house_variants import _reused

    variants = {"books_15": {"why": "", "changes": {"goals.toml": {"zone_goal.reward": 15}}}}
    settings = {"games": 3, "solo_games": 0, "level": "standard", "seed": 1, "base": 1}
    kept = {
        "meta": settings,
        "games": {"base": {"2:2": [{"x": 1}]}, "books_15": {"2:2": [{"x": 2}]}, "gone": {"2:2": []}},
        "changes": {"books_15": {"goals.toml": {"zone_goal.reward": 15}}, "gone": {}},
    }
    path = tmp_path / "kept.json"
    path.write_text(json.dumps(kept))
    args = argparse.Namespace(reuse=str(path), **settings)
    assert _reused(args, variants) == {"base": {(2, 2): [{"x": 1}]}, "books_15": {(2, 2): [{"x": 2}]}}
    changed = {"books_15": {"why": "", "changes": {"goals.toml": {"zone_goal.reward": 10}}}}
    assert list(_reused(args, changed)) == ["base"]  # a variant whose changes differ now is played again
    assert _reused(argparse.Namespace(reuse=str(path), **(settings | {"seed": 2})), variants) == {}


def test_a_variant_of_an_older_version_leaves_the_later_ones_out(tmp_path: Path) -> None:
    """Round 1 and 2 were played on version 1: they replay so after version 2 shipped (its values left out)."""
    folder, version = data_copy(tmp_path / "v", 1, {"goals.toml": {"city_hall.reward": 12}})
    assert version == 2
    variant = load_rules(folder / "speakeasy", 2)
    assert variant.goals.city_hall_reward == 12
    assert variant.goals.zone_goal_reward == rules(1).goals.zone_goal_reward  # version 2's own change is not there
    assert variant.tracks.prices == rules(1).tracks.prices
