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

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Settings:
        """Settings from ``env`` (default: the process environment), with a ``.env`` file filling the gaps."""
        values = dict(read_dotenv(dotenv) if dotenv else {})
        values.update(os.environ if env is None else env)

        def hours(name: str, default: float) -> float:
            raw = values.get(name)
            if raw is None or raw == "":
                return default
            try:
                hours = float(raw)
            except ValueError:
                raise SystemExit(f"{name} must be a number of hours, not {raw!r}.") from None
            if hours <= 0:
                raise SystemExit(f"{name} must be more than 0 hours, not {raw!r}.")
            return hours * 3600.0

        guild = values.get("SPEAKEASY_DEV_GUILD", "")
        if guild and not guild.isdigit():
            raise SystemExit(f"SPEAKEASY_DEV_GUILD must be a server id (digits), not {guild!r}.")
        return cls(
            token=values.get("DISCORD_TOKEN", "").strip(),
            database=values.get("SPEAKEASY_DB", "") or cls.database,
            reminder_first_s=hours("SPEAKEASY_REMIND_AFTER_HOURS", cls.reminder_first_s / 3600),
            reminder_repeat_s=hours("SPEAKEASY_REMIND_EVERY_HOURS", cls.reminder_repeat_s / 3600),
            dev_guild_id=int(guild) if guild else None,
        )


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
