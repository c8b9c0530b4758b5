"""An offline fake Discord (REST + gateway on 127.0.0.1) that the real, unpatched bot talks to.

It serves the tests (``tests/fakediscord`` re-exports it) and the local table (``python bot.py --local``).
See :mod:`.server` (``FakeDiscordServer``, ``point_discord_at``), :mod:`.payloads` (Discord
object factories and the fixed test cast) and :mod:`.fixtures` (``running_bot``).
"""

from .payloads import (
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
from .server import (
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
