"""The fixed test cast: a guild with a few text channels, an owner/admin, six players, an outsider and the
bot itself, with stable ids."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .constants import BOT_ROLE_PERMISSIONS, EVERYONE_PERMISSIONS, ChannelType, Perm
from .guilds import role, text_channel, user
from .ids import JSON, _fixed_id

APP_ID = _fixed_id(1)
"""Application id; the bot user has the same id, as for every modern Discord app."""
BOT_USER: JSON = user(APP_ID, "speakeasy-table", bot=True)
BOT_USER["global_name"] = None

GUILD_ID = _fixed_id(2)
GUILD_NAME = "Speakeasy Test Club"
ADMIN_ROLE_ID = _fixed_id(3)
BOT_ROLE_ID = _fixed_id(4)
CATEGORY_ID = _fixed_id(5)
GENERAL_CHANNEL_ID = _fixed_id(6)
GAMES_CHANNEL_ID = _fixed_id(7)
LOBBY_CHANNEL_ID = _fixed_id(8)

OWNER: JSON = user(_fixed_id(10), "olga", global_name="Olga")
"""Guild owner; also holds the Admin role (administrator permission)."""
ANNA: JSON = user(_fixed_id(11), "anna", global_name="Anna")
BEN: JSON = user(_fixed_id(12), "ben", global_name="Ben")
CLEO: JSON = user(_fixed_id(13), "cleo", global_name="Cleo")
DAN: JSON = user(_fixed_id(14), "dan", global_name="Dan")
EVE: JSON = user(_fixed_id(15), "eve", global_name="Eve")
FINN: JSON = user(_fixed_id(16), "finn", global_name="Finn")
OUTSIDER: JSON = user(_fixed_id(17), "zed", global_name="Zed")
"""A user who shares no guild with the bot (not in the guild's member list)."""

PLAYERS: tuple[JSON, ...] = (ANNA, BEN, CLEO, DAN, EVE, FINN)
"""The six ordinary guild members, in a stable order."""
GUILD_USERS: tuple[JSON, ...] = (OWNER, *PLAYERS)
"""Every human member of the guild (owner first)."""


def uid(user_or_id: Mapping[str, Any] | int | str) -> int:
    """Return the integer id of a user object (or pass an id through)."""
    if isinstance(user_or_id, Mapping):
        return int(user_or_id["id"])
    return int(user_or_id)


def default_roles() -> list[JSON]:
    """@everyone, Admin (administrator) and the bot's managed role."""
    bot_role = role(BOT_ROLE_ID, "Speakeasy Table", BOT_ROLE_PERMISSIONS, position=2)
    bot_role["managed"] = True
    bot_role["tags"] = {"bot_id": str(APP_ID)}
    return [
        role(GUILD_ID, "@everyone", EVERYONE_PERMISSIONS, position=0),
        role(ADMIN_ROLE_ID, "Admin", Perm.ADMINISTRATOR, position=1, hoist=True),
        bot_role,
    ]


def default_channels() -> list[JSON]:
    """A category plus three text channels: #general, #games and #lobby."""
    category = text_channel(CATEGORY_ID, GUILD_ID, "Text Channels")
    category["type"] = ChannelType.GUILD_CATEGORY
    return [
        category,
        text_channel(GENERAL_CHANNEL_ID, GUILD_ID, "general", position=0, parent_id=CATEGORY_ID),
        text_channel(GAMES_CHANNEL_ID, GUILD_ID, "games", position=1, parent_id=CATEGORY_ID),
        text_channel(LOBBY_CHANNEL_ID, GUILD_ID, "lobby", position=2, parent_id=CATEGORY_ID),
    ]


def default_member_roles() -> dict[int, list[int]]:
    """Role ids for each member of the default guild, keyed by user id."""
    roles: dict[int, list[int]] = {uid(u): [] for u in PLAYERS}
    roles[uid(OWNER)] = [ADMIN_ROLE_ID]
    roles[APP_ID] = [BOT_ROLE_ID]
    return roles
