"""The bot's settings, read from the environment (and a ``.env`` file), each documented in the README."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    """Every setting with its default."""

    token: str = ""
    database: str = "speakeasy.sqlite3"
    reminder_first_s: float = 12 * 3600.0
    reminder_repeat_s: float = 24 * 3600.0
    reminder_poll_s: float = 60.0
    dev_guild_id: int | None = None
    #: the first pause before a failed delivery to Discord is tried again (it doubles, up to 10 minutes)
    delivery_retry_s: float = 5.0
    #: how often the bot looks for anything not yet posted (a safety net beside the retries)
    delivery_sweep_s: float = 60.0
    #: render worker processes; 0 renders in a thread. ``from_env`` defaults to every core but one, code that
    #: builds ``Settings`` itself (the tests) renders in a thread unless it asks for workers
    render_workers: int = 0
    #: posts a channel gets in any 5 seconds (issue 24: Discord's own allowance is about 5; what goes over arrives
    #: late and out of order); 0: no pacing (a server without Discord's limit, and the tests of real processes)
    channel_burst: int = 5
    #: Discord gateway shards in all: None runs one unsharded connection (the default)
    shard_count: int | None = None
    #: the shards this process runs (None: all of ``shard_count``)
    shard_ids: tuple[int, ...] | None = None
    #: how often a process looks for race windows past their deadline that no timer of its own closes (a
    #: window armed by a process that died): the project's own value
    race_sweep_s: float = 5.0
    #: a due reminder is claimed by one process for this long; if that process dies before sending it, another
    #: sends it after this (the project's own value: inside Discord's few minutes of nonce memory)
    reminder_claim_s: float = 120.0
    #: ``/game status`` posts a game's board again at most this often (else it links the latest board): the
    #: project's own value, against a channel flooded with boards and pictures (issue 22)
    status_repost_s: float = 60.0
    #: how many open lobbies (not yet started) one user may host in one server at once (issue 22)
    lobbies_per_user: int = 3
    #: a lobby that has not started this long after it was opened closes itself (issue 22)
    lobby_expire_s: float = 7 * 86400.0
    #: one ``/hint`` (a bot's search) per user this often (issue 22)
    hint_cooldown_s: float = 30.0
    #: one ``/board`` (a picture drawn) per user this often (issue 22)
    board_cooldown_s: float = 10.0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Settings:
        """Settings from ``env`` (default: the process environment), with a ``.env`` file filling the gaps."""
        values = dict(read_dotenv(dotenv) if dotenv else {})
        values.update(os.environ if env is None else env)

        def span(name: str, default_s: float, unit: str = "seconds", unit_s: float = 1.0) -> float:
            """A length of time given in ``unit`` (seconds, hours, days; fractions allowed), as seconds:
            ``default_s`` (already in seconds) when it is not set."""
            raw = values.get(name, "").strip()
            if not raw:
                return default_s
            try:
                amount = float(raw)
            except ValueError:
                raise SystemExit(f"{name} must be a number of {unit}, not {raw!r}.") from None
            if not 0 < amount < float("inf"):
                raise SystemExit(f"{name} must be more than 0 {unit}, not {raw!r}.")
            return amount * unit_s

        def hours(name: str, default_s: float) -> float:
            return span(name, default_s, "hours", 3600.0)

        def days(name: str, default_s: float) -> float:
            return span(name, default_s, "days", 86400.0)

        seconds = span

        def whole(name: str, default: int) -> int:
            """A whole number of at least 1."""
            raw = values.get(name, "").strip()
            if not raw:
                return default
            if not raw.isdigit() or int(raw) < 1:
                raise SystemExit(f"{name} must be a whole number of 1 or more, not {raw!r}.")
            return int(raw)

        workers = values.get("SPEAKEASY_RENDER_WORKERS", "").strip()
        if workers and not workers.isdigit():
            raise SystemExit(f"SPEAKEASY_RENDER_WORKERS must be a number of processes (0 or more), not {workers!r}.")
        burst = values.get("SPEAKEASY_CHANNEL_BURST", "").strip()
        if burst and not burst.isdigit():
            raise SystemExit(f"SPEAKEASY_CHANNEL_BURST must be a number of posts (0 or more), not {burst!r}.")
        count, ids = shards(values.get("SPEAKEASY_SHARD_COUNT", ""), values.get("SPEAKEASY_SHARD_IDS", ""))
        guild = values.get("SPEAKEASY_DEV_GUILD", "")
        if guild and not guild.isdigit():
            raise SystemExit(f"SPEAKEASY_DEV_GUILD must be a server id (digits), not {guild!r}.")
        return cls(
            token=values.get("DISCORD_TOKEN", "").strip(),
            database=values.get("SPEAKEASY_DB", "") or cls.database,
            reminder_first_s=hours("SPEAKEASY_REMIND_AFTER_HOURS", cls.reminder_first_s),
            reminder_repeat_s=hours("SPEAKEASY_REMIND_EVERY_HOURS", cls.reminder_repeat_s),
            reminder_poll_s=seconds("SPEAKEASY_REMINDER_POLL_SECONDS", cls.reminder_poll_s),
            reminder_claim_s=seconds("SPEAKEASY_REMINDER_CLAIM_SECONDS", cls.reminder_claim_s),
            race_sweep_s=seconds("SPEAKEASY_RACE_SWEEP_SECONDS", cls.race_sweep_s),
            delivery_retry_s=seconds("SPEAKEASY_DELIVERY_RETRY_SECONDS", cls.delivery_retry_s),
            delivery_sweep_s=seconds("SPEAKEASY_DELIVERY_SWEEP_SECONDS", cls.delivery_sweep_s),
            status_repost_s=seconds("SPEAKEASY_STATUS_REPOST_SECONDS", cls.status_repost_s),
            lobbies_per_user=whole("SPEAKEASY_LOBBIES_PER_USER", cls.lobbies_per_user),
            lobby_expire_s=days("SPEAKEASY_LOBBY_EXPIRE_DAYS", cls.lobby_expire_s),
            hint_cooldown_s=seconds("SPEAKEASY_HINT_COOLDOWN_SECONDS", cls.hint_cooldown_s),
            board_cooldown_s=seconds("SPEAKEASY_BOARD_COOLDOWN_SECONDS", cls.board_cooldown_s),
            dev_guild_id=int(guild) if guild else None,
            render_workers=int(workers) if workers else default_workers(),
            channel_burst=int(burst) if burst else cls.channel_burst,
            shard_count=count,
            shard_ids=ids,
        )


def default_workers() -> int:
    """Every core but one (the event loop's own); none on a single core."""
    return max((os.cpu_count() or 1) - 1, 0)


def shards(count_raw: str, ids_raw: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``SPEAKEASY_SHARD_COUNT`` and ``SPEAKEASY_SHARD_IDS`` checked: (count or None, ids or None)."""
    count_raw, ids_raw = count_raw.strip(), ids_raw.strip()
    if not count_raw:
        if ids_raw:
            raise SystemExit("SPEAKEASY_SHARD_IDS needs SPEAKEASY_SHARD_COUNT (the number of shards in all).")
        return None, None
    if not count_raw.isdigit() or int(count_raw) < 1:
        raise SystemExit(f"SPEAKEASY_SHARD_COUNT must be a number of shards (1 or more), not {count_raw!r}.")
    count = int(count_raw)
    if not ids_raw:
        return count, None
    parts = [p.strip() for p in ids_raw.split(",")]
    if not all(p.isdigit() for p in parts):
        raise SystemExit(f"SPEAKEASY_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), not {ids_raw!r}.")
    ids = tuple(int(p) for p in parts)
    if len(set(ids)) != len(ids):
        raise SystemExit(f"SPEAKEASY_SHARD_IDS names a shard twice: {ids_raw!r}.")
    bad = [i for i in ids if i >= count]
    if bad:
        raise SystemExit(
            f"SPEAKEASY_SHARD_IDS {bad} are not below SPEAKEASY_SHARD_COUNT {count} (shards count from 0)."
        )
    return count, ids


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines of a ``.env`` file (``#`` comments, optional quotes); empty if there is none."""
    if not path.is_file():
        return {}
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        out[key.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return out
