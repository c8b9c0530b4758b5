"""``bench.engine_speed --compare REV`` (issue 27): the same games on a commit and on the working tree."""

from __future__ import annotations

import shutil

import pytest

from bench.engine_speed import compare


@pytest.mark.skipif(shutil.which("git") is None, reason="--compare exports the commit with git")
def test_compare_with_this_very_commit_plays_the_same_games_at_the_same_speed():
    out = compare("HEAD", games=1, seed=3, rounds=1)
    assert out["same_digest"] is True and out["choices"] > 100
    # speed is the bench's to measure, not a test's (the machine is shared): only that both sides were timed
    assert out["speedup"] > 0 and out["commit_choices_per_second"] > 0


def test_compare_refuses_what_is_not_a_commit():
    with pytest.raises(SystemExit, match="is not a commit"):
        compare("no-such-rev-xyz", games=1, seed=3, rounds=1)
