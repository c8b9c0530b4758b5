"""Settings read from the environment: render workers and shards, with clear errors for bad values."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

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
        ({"SPEAKEASY_CHANNEL_BURST": "five"}, "SPEAKEASY_CHANNEL_BURST must be a number of posts"),
        ({"SPEAKEASY_LOBBIES_PER_USER": "0"}, "SPEAKEASY_LOBBIES_PER_USER must be a whole number of 1 or more"),
        ({"SPEAKEASY_LOBBIES_PER_USER": "2.5"}, "must be a whole number of 1 or more, not '2.5'"),
        ({"SPEAKEASY_LOBBY_EXPIRE_DAYS": "0"}, "SPEAKEASY_LOBBY_EXPIRE_DAYS must be more than 0 days"),
        ({"SPEAKEASY_LOBBY_EXPIRE_DAYS": "a week"}, "must be a number of days, not 'a week'"),
        ({"SPEAKEASY_HINT_COOLDOWN_SECONDS": "-5"}, "SPEAKEASY_HINT_COOLDOWN_SECONDS must be more than 0 seconds"),
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


def test_the_spam_limits_are_read() -> None:
    """Issue 22: each limit is a setting."""
    s = _env(
        SPEAKEASY_STATUS_REPOST_SECONDS="120",
        SPEAKEASY_LOBBIES_PER_USER="5",
        SPEAKEASY_LOBBY_EXPIRE_DAYS="0.5",
        SPEAKEASY_HINT_COOLDOWN_SECONDS="45",
        SPEAKEASY_BOARD_COOLDOWN_SECONDS="2.5",
    )
    assert (s.status_repost_s, s.lobbies_per_user, s.lobby_expire_s) == (120.0, 5, 43200.0)
    assert (s.hint_cooldown_s, s.board_cooldown_s) == (45.0, 2.5)


def test_only_the_process_of_shard_0_syncs_commands() -> None:
    import bot

    assert bot.build_bot(Settings()).syncs_commands
    zero = bot.build_bot(Settings(shard_count=2, shard_ids=(0,)))
    one = bot.build_bot(Settings(shard_count=2, shard_ids=(1,)))
    assert isinstance(zero, bot.ShardedTableBot) and zero.shard_count == 2 and zero.shard_ids == [0]
    assert zero.syncs_commands and not one.syncs_commands


# --- every default, as a deployment that follows the README gets it (issue 22) --------------------------------

README = Path(__file__).resolve().parents[2] / "README.md"
HOUR = 3600.0
DAY = 24 * HOUR

#: each setting of the README's table that ``Settings`` reads: its field, and the README's default as that
#: field's value (a unit, or the words the README gives for "not set")
README_FIELDS: dict[str, tuple[str, Any]] = {
    "DISCORD_TOKEN": ("token", {"(none: the local table)": ""}),
    "SPEAKEASY_DB": ("database", str),
    "SPEAKEASY_REMIND_AFTER_HOURS": ("reminder_first_s", HOUR),
    "SPEAKEASY_REMIND_EVERY_HOURS": ("reminder_repeat_s", HOUR),
    "SPEAKEASY_REMINDER_POLL_SECONDS": ("reminder_poll_s", 1.0),
    "SPEAKEASY_REMINDER_CLAIM_SECONDS": ("reminder_claim_s", 1.0),
    "SPEAKEASY_RACE_SWEEP_SECONDS": ("race_sweep_s", 1.0),
    "SPEAKEASY_DELIVERY_RETRY_SECONDS": ("delivery_retry_s", 1.0),
    "SPEAKEASY_DELIVERY_SWEEP_SECONDS": ("delivery_sweep_s", 1.0),
    "SPEAKEASY_STATUS_REPOST_SECONDS": ("status_repost_s", 1.0),
    "SPEAKEASY_LOBBIES_PER_USER": ("lobbies_per_user", 1),
    "SPEAKEASY_LOBBY_EXPIRE_DAYS": ("lobby_expire_s", DAY),
    "SPEAKEASY_HINT_COOLDOWN_SECONDS": ("hint_cooldown_s", 1.0),
    "SPEAKEASY_BOARD_COOLDOWN_SECONDS": ("board_cooldown_s", 1.0),
    "SPEAKEASY_DEV_GUILD": ("dev_guild_id", {"(none)": None}),
    "SPEAKEASY_RENDER_WORKERS": ("render_workers", {"cores - 1": max((os.cpu_count() or 1) - 1, 0)}),
    "SPEAKEASY_CHANNEL_BURST": ("channel_burst", 1),
    "SPEAKEASY_SHARD_COUNT": ("shard_count", {"(none)": None}),
    "SPEAKEASY_SHARD_IDS": ("shard_ids", {"(all)": None}),
}
#: README settings that are not fields of ``Settings`` (read where they are used)
ELSEWHERE = {"SPEAKEASY_LOCAL_PORT": "fakediscord/local.py", "FAKE_DISCORD_URL": "bot.py"}


def readme_defaults() -> dict[str, str]:
    """The README's settings table: ``{name: default as written}``."""
    out: dict[str, str] = {}
    in_table = False
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("| setting | default |"):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        if in_table and cells[0].startswith("`"):
            out[cells[0].strip("`")] = cells[1].strip("`")
    return out


def expected(name: str, written: str) -> Any:
    """The field's value a README default means."""
    _, unit = README_FIELDS[name]
    if isinstance(unit, dict):
        return unit[written]
    if unit is str:
        return written
    return float(written) * unit


def test_every_readme_setting_is_read_with_the_readme_default() -> None:
    """Issue 22: with nothing set, each setting is the README's default in the field's own unit (the reminder
    defaults were 12 and 24 seconds instead of hours, and no test built ``Settings`` from the environment)."""
    table = readme_defaults()
    assert set(table) == set(README_FIELDS) | set(ELSEWHERE), "the README table and this test name other settings"
    named = {field for field, _ in README_FIELDS.values()}
    assert named == {f.name for f in fields(Settings)}, "a setting is missing from the README's table"
    s = Settings.from_env({}, dotenv=None)
    for name, written in table.items():
        if name in README_FIELDS:
            field_name = README_FIELDS[name][0]
            assert getattr(s, field_name) == expected(name, written), (name, written)
    assert s.reminder_first_s == 12 * HOUR and s.reminder_repeat_s == 24 * HOUR


def test_a_bot_started_with_an_empty_environment_and_no_dotenv_gets_the_readme_defaults(tmp_path: Path) -> None:
    """The same from a real process: ``env -i`` in an empty folder (no ``.env``), ``Settings.from_env()`` as
    ``bot.py`` calls it."""
    code = (
        "import json, dataclasses; from service.config import Settings; "
        "print(json.dumps(dataclasses.asdict(Settings.from_env())))"
    )
    root = str(README.parent)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env={"PYTHONPATH": root}, capture_output=True, text=True, check=True
    )
    got = json.loads(out.stdout)
    for name, written in readme_defaults().items():
        if name in README_FIELDS:
            field_name = README_FIELDS[name][0]
            want = expected(name, written)
            assert got[field_name] == (list(want) if isinstance(want, tuple) else want), (name, got[field_name])


def test_reminder_hours_are_checked() -> None:
    for bad in ("0", "-1", "nan", "inf", "soon"):
        with pytest.raises(SystemExit, match="SPEAKEASY_REMIND_EVERY_HOURS must be"):
            _env(SPEAKEASY_REMIND_EVERY_HOURS=bad)
    assert _env(SPEAKEASY_REMIND_EVERY_HOURS=" 0.5 ").reminder_repeat_s == 1800.0
