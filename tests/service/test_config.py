"""Settings read from the environment: render workers and shards, with clear errors for bad values."""

from __future__ import annotations

import os

import pytest

from service.config import Settings


def _env(**values: str) -> Settings:
    return Settings.from_env(values, dotenv=None)


def test_defaults_run_one_unsharded_process_with_a_render_pool() -> None:
    s = _env()
    assert (s.shard_count, s.shard_ids) == (None, None)
    assert s.render_workers == max((os.cpu_count() or 1) - 1, 0)
    assert Settings().render_workers == 0  # settings built in code (the tests) render in a thread


def test_render_workers_and_shards_are_read() -> None:
    s = _env(SPEAKEASY_RENDER_WORKERS="0", SPEAKEASY_SHARD_COUNT="4", SPEAKEASY_SHARD_IDS="2, 3")
    assert (s.render_workers, s.shard_count, s.shard_ids) == (0, 4, (2, 3))
    assert _env(SPEAKEASY_SHARD_COUNT="2").shard_ids is None  # every shard in this process


def test_timers_are_read_in_seconds_and_reminders_in_hours() -> None:
    s = _env(
        SPEAKEASY_REMIND_AFTER_HOURS="0.001",
        SPEAKEASY_REMINDER_POLL_SECONDS="0.25",
        SPEAKEASY_REMINDER_CLAIM_SECONDS="3",
        SPEAKEASY_RACE_SWEEP_SECONDS="0.5",
        SPEAKEASY_DELIVERY_RETRY_SECONDS="0.1",
        SPEAKEASY_DELIVERY_SWEEP_SECONDS="2",
    )
    assert s.reminder_first_s == pytest.approx(3.6)
    assert (s.reminder_poll_s, s.reminder_claim_s, s.race_sweep_s) == (0.25, 3.0, 0.5)
    assert (s.delivery_retry_s, s.delivery_sweep_s) == (0.1, 2.0)
    d = _env()
    assert (d.reminder_poll_s, d.reminder_claim_s, d.race_sweep_s) == (60.0, 120.0, 5.0)
    assert (d.delivery_retry_s, d.delivery_sweep_s) == (5.0, 60.0)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"SPEAKEASY_RACE_SWEEP_SECONDS": "0"}, "SPEAKEASY_RACE_SWEEP_SECONDS must be more than 0 seconds"),
        ({"SPEAKEASY_REMINDER_POLL_SECONDS": "soon"}, "must be a number of seconds, not 'soon'"),
        ({"SPEAKEASY_DELIVERY_SWEEP_SECONDS": "inf"}, "must be more than 0 seconds"),
        ({"SPEAKEASY_RENDER_WORKERS": "-1"}, "SPEAKEASY_RENDER_WORKERS must be a number"),
        ({"SPEAKEASY_SHARD_COUNT": "0"}, "SPEAKEASY_SHARD_COUNT must be a number of shards"),
        ({"SPEAKEASY_SHARD_IDS": "0"}, "needs SPEAKEASY_SHARD_COUNT"),
        ({"SPEAKEASY_SHARD_COUNT": "2", "SPEAKEASY_SHARD_IDS": "0;1"}, "separated by commas"),
        ({"SPEAKEASY_SHARD_COUNT": "2", "SPEAKEASY_SHARD_IDS": "1,1"}, "names a shard twice"),
        ({"SPEAKEASY_SHARD_COUNT": "2", "SPEAKEASY_SHARD_IDS": "1,2"}, r"\[2\] are not below"),
    ],
)
def test_bad_values_are_refused_clearly(values: dict[str, str], message: str) -> None:
    with pytest.raises(SystemExit, match=message):
        _env(**values)


def test_only_the_process_of_shard_0_syncs_commands() -> None:
    import bot

    assert bot.build_bot(Settings()).syncs_commands
    zero = bot.build_bot(Settings(shard_count=2, shard_ids=(0,)))
    one = bot.build_bot(Settings(shard_count=2, shard_ids=(1,)))
    assert isinstance(zero, bot.ShardedTableBot) and zero.shard_count == 2 and zero.shard_ids == [0]
    assert zero.syncs_commands and not one.syncs_commands
