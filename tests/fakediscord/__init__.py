"""The fake Discord, moved to the :mod:`fakediscord` package; these names stay for the tests that use them.

``tests.fakediscord.server`` and ``.payloads`` are the package's modules themselves; ``.fixtures`` adds the
pytest fixture ``fake_discord``.
"""

from fakediscord.payloads import (
    ANNA,
    APP_ID,
    BEN,
    BOT_USER,
    CLEO,
    DAN,
    EVE,
    FINN,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
    GUILD_USERS,
    LOBBY_CHANNEL_ID,
    OUTSIDER,
    OWNER,
    PLAYERS,
    snowflake,
    snowflake_ms,
    uid,
)
from fakediscord.server import (
    BotCrashed,
    BotLoggedError,
    FakeDiscordError,
    FakeDiscordServer,
    FakeDiscordTimeout,
    InteractionRecord,
    RecordedRequest,
    point_discord_at,
)

__all__ = [
    "ANNA",
    "APP_ID",
    "BEN",
    "BOT_USER",
    "CLEO",
    "DAN",
    "EVE",
    "FINN",
    "GAMES_CHANNEL_ID",
    "GENERAL_CHANNEL_ID",
    "GUILD_ID",
    "GUILD_USERS",
    "LOBBY_CHANNEL_ID",
    "OUTSIDER",
    "OWNER",
    "PLAYERS",
    "BotCrashed",
    "BotLoggedError",
    "FakeDiscordError",
    "FakeDiscordServer",
    "FakeDiscordTimeout",
    "InteractionRecord",
    "RecordedRequest",
    "point_discord_at",
    "snowflake",
    "snowflake_ms",
    "uid",
]
