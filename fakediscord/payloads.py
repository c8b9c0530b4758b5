"""Factories for Discord API objects, as Discord sends them (API v10).

Everything here models *Discord's* JSON (gateway events and REST bodies), not discord.py
internals, so the same payloads work across discord.py versions.  All ids are strings,
as on the wire.  The module also defines a small, stable cast for tests: a guild with a
few text channels, an owner/admin, six players and the bot itself.
"""

from __future__ import annotations

import datetime as _dt
import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

JSON = dict[str, Any]

#: Discord's epoch (2015-01-01T00:00:00Z) in Unix milliseconds.
DISCORD_EPOCH_MS = 1420070400000

# ---------------------------------------------------------------------------
# Snowflakes and timestamps
# ---------------------------------------------------------------------------


def snowflake(ms_since_epoch: int, increment: int = 0, *, worker: int = 0, process: int = 0) -> int:
    """Build a Discord snowflake whose timestamp part is ``ms_since_epoch``.

    ``ms_since_epoch`` is Unix time in milliseconds (the Unix epoch, not Discord's).  The
    result satisfies ``(id >> 22) + DISCORD_EPOCH_MS == ms_since_epoch``.  ``increment``
    (0..4095), ``worker`` and ``process`` (0..31) fill the low bits so several ids can share
    a millisecond.
    """
    if ms_since_epoch < DISCORD_EPOCH_MS:
        raise ValueError(f"timestamp {ms_since_epoch} is before the Discord epoch")
    if not (0 <= increment < 4096 and 0 <= worker < 32 and 0 <= process < 32):
        raise ValueError("increment must be < 4096, worker and process < 32")
    return ((ms_since_epoch - DISCORD_EPOCH_MS) << 22) | (worker << 17) | (process << 12) | increment


def snowflake_ms(snowflake_id: int | str) -> int:
    """Return the Unix-millisecond timestamp encoded in a snowflake id."""
    return (int(snowflake_id) >> 22) + DISCORD_EPOCH_MS


def iso_timestamp(ms_since_epoch: int) -> str:
    """Format Unix milliseconds as the ISO-8601 string Discord uses (``+00:00`` offset)."""
    moment = _dt.datetime.fromtimestamp(ms_since_epoch / 1000, tz=_dt.UTC)
    return moment.isoformat(timespec="microseconds")


def snowflake_timestamp(snowflake_id: int | str) -> str:
    """ISO-8601 creation time of a snowflake, as used in message ``timestamp`` fields."""
    return iso_timestamp(snowflake_ms(snowflake_id))


_BASE_MS = 1577836800000  # 2020-01-01T00:00:00Z: when the fixed cast below was "created"


def _fixed_id(n: int) -> int:
    return snowflake(_BASE_MS + n * 60_000)


# ---------------------------------------------------------------------------
# Permissions (bit values from the Discord docs)
# ---------------------------------------------------------------------------


class Perm:
    """A few Discord permission bits."""

    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    #: every permission bit Discord currently defines (what admins and owners get)
    ALL = (1 << 53) - 1


EVERYONE_PERMISSIONS = (
    Perm.CREATE_INSTANT_INVITE
    | Perm.ADD_REACTIONS
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.CONNECT
    | Perm.SPEAK
    | Perm.CHANGE_NICKNAME
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
)
BOT_ROLE_PERMISSIONS = EVERYONE_PERMISSIONS | Perm.MANAGE_MESSAGES | Perm.MANAGE_THREADS | Perm.MENTION_EVERYONE


class ChannelType:
    """Discord channel type numbers."""

    GUILD_TEXT = 0
    DM = 1
    GUILD_CATEGORY = 4
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


class OptionType:
    """Application command option type numbers."""

    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


class InteractionType:
    """Interaction type numbers."""

    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType:
    """Interaction callback (response) type numbers."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


class ComponentType:
    """Message component type numbers."""

    ACTION_ROW = 1
    BUTTON = 2
    STRING_SELECT = 3
    TEXT_INPUT = 4
    USER_SELECT = 5
    ROLE_SELECT = 6
    MENTIONABLE_SELECT = 7
    CHANNEL_SELECT = 8
    SECTION = 9
    TEXT_DISPLAY = 10
    CONTAINER = 17
    LABEL = 18


class MessageFlag:
    """Message flag bits."""

    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    IS_COMPONENTS_V2 = 1 << 15


# ---------------------------------------------------------------------------
# Users, roles, members, channels, guild
# ---------------------------------------------------------------------------


def user(user_id: int | str, username: str, *, global_name: str | None = None, bot: bool = False) -> JSON:
    """A Discord user object."""
    obj: JSON = {
        "id": str(user_id),
        "username": username,
        "discriminator": "0",
        "global_name": global_name if global_name is not None else username.capitalize(),
        "avatar": None,
        "public_flags": 0,
    }
    if bot:
        obj["bot"] = True
        obj["discriminator"] = "0001"
        obj["global_name"] = None
    return obj


def role(role_id: int | str, name: str, permissions: int, *, position: int = 0, hoist: bool = False) -> JSON:
    """A Discord role object (``permissions`` as a string, as on the wire)."""
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": hoist,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def member(
    user_obj: Mapping[str, Any],
    *,
    roles: Iterable[int | str] = (),
    joined_at: str | None = None,
    nick: str | None = None,
    permissions: int | None = None,
    include_user: bool = True,
) -> JSON:
    """A guild member object.

    ``permissions`` is only present on members that come with an interaction (Discord
    then sends the member's computed permissions in the channel).
    """
    obj: JSON = {
        "roles": [str(r) for r in roles],
        "nick": nick,
        "avatar": None,
        "banner": None,
        "joined_at": joined_at or iso_timestamp(_BASE_MS),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if include_user:
        obj["user"] = dict(user_obj)
    if permissions is not None:
        obj["permissions"] = str(permissions)
    return obj


def text_channel(
    channel_id: int | str,
    guild_id: int | str,
    name: str,
    *,
    position: int = 0,
    parent_id: int | str | None = None,
    topic: str | None = None,
) -> JSON:
    """A guild text channel object."""
    return {
        "id": str(channel_id),
        "type": ChannelType.GUILD_TEXT,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "topic": topic,
        "nsfw": False,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": str(parent_id) if parent_id is not None else None,
        "default_auto_archive_duration": 1440,
        "flags": 0,
    }


def thread_channel(
    thread_id: int | str,
    guild_id: int | str,
    parent_id: int | str,
    owner_id: int | str,
    name: str,
    *,
    thread_type: int = ChannelType.PRIVATE_THREAD,
    invitable: bool = True,
    auto_archive_duration: int = 1440,
    archived: bool = False,
    locked: bool = False,
    member_count: int = 1,
) -> JSON:
    """A thread channel object (type 12 private by default, 11 public)."""
    created = snowflake_timestamp(thread_id)
    metadata: JSON = {
        "archived": archived,
        "auto_archive_duration": auto_archive_duration,
        "archive_timestamp": created,
        "locked": locked,
        "create_timestamp": created,
    }
    if thread_type == ChannelType.PRIVATE_THREAD:
        metadata["invitable"] = invitable
    return {
        "id": str(thread_id),
        "type": thread_type,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "total_message_sent": 0,
        "member_count": member_count,
        "flags": 0,
        "thread_metadata": metadata,
    }


def dm_channel(channel_id: int | str, recipient: Mapping[str, Any]) -> JSON:
    """A DM channel object with one recipient."""
    return {
        "id": str(channel_id),
        "type": ChannelType.DM,
        "last_message_id": None,
        "flags": 0,
        "recipients": [dict(recipient)],
    }


def guild_create(
    guild_id: int | str,
    name: str,
    *,
    owner_id: int | str,
    roles: Sequence[Mapping[str, Any]],
    channels: Sequence[Mapping[str, Any]],
    members: Sequence[Mapping[str, Any]],
    threads: Sequence[Mapping[str, Any]] = (),
    joined_at: str | None = None,
    preferred_locale: str = "en-US",
) -> JSON:
    """A full GUILD_CREATE ``d`` object (guild plus the gateway-only extra fields).

    Channels are sent without ``guild_id``, as Discord does inside GUILD_CREATE.
    """
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 1,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": preferred_locale,
        "system_channel_id": channels[0]["id"] if channels else None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "application_id": None,
        "features": [],
        "roles": [dict(r) for r in roles],
        "emojis": [],
        "stickers": [],
        "incidents_data": None,
        # gateway-only GUILD_CREATE fields
        "joined_at": joined_at or iso_timestamp(_BASE_MS),
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "voice_states": [],
        "members": [dict(m) for m in members],
        "channels": [{k: v for k, v in c.items() if k != "guild_id"} for c in channels],
        "threads": [dict(t) for t in threads],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "lazy": True,
    }


# ---------------------------------------------------------------------------
# The fixed test cast
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# Messages
# ---------------------------------------------------------------------------


def attachment(
    attachment_id: int | str,
    filename: str,
    *,
    size: int,
    url: str,
    content_type: str | None = None,
    description: str | None = None,
    ephemeral: bool = False,
) -> JSON:
    """A message attachment object."""
    obj: JSON = {
        "id": str(attachment_id),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
    }
    if description is not None:
        obj["description"] = description
    if ephemeral:
        obj["ephemeral"] = True
    return obj


def interaction_metadata(
    interaction_id: int | str,
    interaction_type: int,
    user_obj: Mapping[str, Any],
    *,
    guild_id: int | str | None = None,
    original_response_message_id: int | str | None = None,
    interacted_message_id: int | str | None = None,
    name: str | None = None,
) -> JSON:
    """The ``interaction_metadata`` Discord stamps on messages created by an interaction."""
    owners = {"0": str(guild_id) if guild_id is not None else "0"}
    obj: JSON = {
        "id": str(interaction_id),
        "type": interaction_type,
        "user": dict(user_obj),
        "authorizing_integration_owners": owners,
    }
    if name is not None:
        obj["name"] = name
    if original_response_message_id is not None:
        obj["original_response_message_id"] = str(original_response_message_id)
    if interacted_message_id is not None:
        obj["interacted_message_id"] = str(interacted_message_id)
    return obj


def message(
    message_id: int | str,
    channel_id: int | str,
    author: Mapping[str, Any],
    content: str = "",
    *,
    embeds: Sequence[Mapping[str, Any]] = (),
    components: Sequence[Mapping[str, Any]] = (),
    attachments: Sequence[Mapping[str, Any]] = (),
    flags: int = 0,
    message_type: int = 0,
    webhook_id: int | str | None = None,
    application_id: int | str | None = None,
    metadata: Mapping[str, Any] | None = None,
    mentions: Sequence[Mapping[str, Any]] = (),
    edited_timestamp: str | None = None,
) -> JSON:
    """A message object as returned by REST (no ``guild_id``/``member``, as Discord does)."""
    obj: JSON = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "type": message_type,
        "author": dict(author),
        "content": content,
        "timestamp": snowflake_timestamp(message_id),
        "edited_timestamp": edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [dict(m) for m in mentions],
        "mention_roles": [],
        "attachments": [dict(a) for a in attachments],
        "embeds": [dict(e) for e in embeds],
        "pinned": False,
        "flags": flags,
        "components": [dict(c) for c in components],
    }
    if webhook_id is not None:
        obj["webhook_id"] = str(webhook_id)
    if application_id is not None:
        obj["application_id"] = str(application_id)
    if metadata is not None:
        obj["interaction_metadata"] = dict(metadata)
    return obj


def normalize_embed(embed: Mapping[str, Any]) -> JSON:
    """What Discord echoes back for an embed the bot sent (adds ``type: rich``)."""
    out = dict(embed)
    out.setdefault("type", "rich")
    return out


# ---------------------------------------------------------------------------
# Interactions
# ---------------------------------------------------------------------------


def option(name: str, value: Any, option_type: int = OptionType.STRING, *, focused: bool = False) -> JSON:
    """A command interaction data option (a leaf value)."""
    obj: JSON = {"name": name, "type": option_type, "value": value}
    if focused:
        obj["focused"] = True
    return obj


def subcommand(name: str, options: Sequence[Mapping[str, Any]] = ()) -> JSON:
    """A type 1 (subcommand) option wrapping leaf options."""
    return {"name": name, "type": OptionType.SUB_COMMAND, "options": [dict(o) for o in options]}


def subcommand_group(name: str, subcommands: Sequence[Mapping[str, Any]]) -> JSON:
    """A type 2 (subcommand group) option wrapping one subcommand."""
    return {"name": name, "type": OptionType.SUB_COMMAND_GROUP, "options": [dict(s) for s in subcommands]}


def nest_options(path: Sequence[str], leaf_options: Sequence[Mapping[str, Any]]) -> list[JSON]:
    """Wrap leaf options for ``path`` = [command, (group,) (subcommand)].

    ``["game", "new"]`` gives ``[subcommand("new", leaf)]``;
    ``["game", "admin", "kick"]`` gives ``[subcommand_group("admin", [subcommand("kick", leaf)])]``.
    """
    if len(path) == 1:
        return [dict(o) for o in leaf_options]
    if len(path) == 2:
        return [subcommand(path[1], leaf_options)]
    if len(path) == 3:
        return [subcommand_group(path[1], [subcommand(path[2], leaf_options)])]
    raise ValueError(f"a command path has at most 3 parts, got {list(path)}")


_token_counter = itertools.count(1)


def interaction_token(interaction_id: int | str) -> str:
    """A unique, URL-safe fake interaction token."""
    return f"fake-token-{interaction_id}-{next(_token_counter)}"


def interaction(
    interaction_type: int,
    interaction_id: int | str,
    *,
    user_obj: Mapping[str, Any],
    channel: Mapping[str, Any],
    data: Mapping[str, Any] | None = None,
    guild_id: int | str | None = None,
    member_obj: Mapping[str, Any] | None = None,
    message_obj: Mapping[str, Any] | None = None,
    token: str | None = None,
    application_id: int | str = APP_ID,
    app_permissions: int = BOT_ROLE_PERMISSIONS,
    locale: str = "en-US",
    guild_locale: str = "en-US",
    attachment_size_limit: int = 10 * 1024 * 1024,
) -> JSON:
    """The ``d`` of an INTERACTION_CREATE event (any type).

    In a guild pass ``guild_id`` and ``member_obj`` (a member with ``user`` and
    ``permissions``); in a DM the ``user_obj`` is sent as ``user`` instead. ``locale`` is the
    user's client language, ``guild_locale`` the server's preferred one (sent only in a guild).
    """
    payload: JSON = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": interaction_type,
        "token": token or interaction_token(interaction_id),
        "version": 1,
        "channel": dict(channel),
        "channel_id": str(channel["id"]),
        "app_permissions": str(app_permissions),
        "locale": locale,
        "entitlements": [],
        "attachment_size_limit": attachment_size_limit,
    }
    if data is not None:
        payload["data"] = dict(data)
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
        payload["guild"] = {"id": str(guild_id), "locale": guild_locale, "features": []}
        payload["guild_locale"] = guild_locale
        payload["member"] = dict(member_obj) if member_obj is not None else member(user_obj)
        payload["authorizing_integration_owners"] = {"0": str(guild_id)}
        payload["context"] = 0
    else:
        payload["user"] = dict(user_obj)
        # guild-installed app used in the bot's DM: Discord sends "0" as the guild id
        payload["authorizing_integration_owners"] = {"0": "0"}
        payload["context"] = 1
    if message_obj is not None:
        payload["message"] = dict(message_obj)
    return payload


def command_data(
    command_id: int | str,
    name: str,
    options: Sequence[Mapping[str, Any]] = (),
    *,
    command_guild_id: int | str | None = None,
    resolved: Mapping[str, Any] | None = None,
    command_type: int = 1,
) -> JSON:
    """``data`` of an application command / autocomplete interaction."""
    data: JSON = {"id": str(command_id), "name": name, "type": command_type}
    if options:
        data["options"] = [dict(o) for o in options]
    if command_guild_id is not None:
        data["guild_id"] = str(command_guild_id)
    if resolved:
        data["resolved"] = dict(resolved)
    return data


def slash_interaction(
    interaction_id: int | str,
    name: str,
    options: Sequence[Mapping[str, Any]] = (),
    *,
    command_id: int | str = 0,
    command_guild_id: int | str | None = None,
    resolved: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> JSON:
    """A type 2 (slash command) interaction.  ``kwargs`` go to :func:`interaction`.

    ``options`` is the already nested ``data.options`` list (see :func:`nest_options`).
    """
    data = command_data(command_id, name, options, command_guild_id=command_guild_id, resolved=resolved)
    return interaction(InteractionType.APPLICATION_COMMAND, interaction_id, data=data, **kwargs)


def autocomplete_interaction(
    interaction_id: int | str,
    name: str,
    options: Sequence[Mapping[str, Any]],
    *,
    command_id: int | str = 0,
    command_guild_id: int | str | None = None,
    **kwargs: Any,
) -> JSON:
    """A type 4 (autocomplete) interaction; exactly one leaf option should be ``focused``."""
    data = command_data(command_id, name, options, command_guild_id=command_guild_id)
    return interaction(InteractionType.AUTOCOMPLETE, interaction_id, data=data, **kwargs)


def component_interaction(
    interaction_id: int | str,
    custom_id: str,
    message_obj: Mapping[str, Any],
    *,
    component_type: int = ComponentType.BUTTON,
    values: Sequence[str] | None = None,
    resolved: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> JSON:
    """A type 3 (component) interaction: a button click (2) or a select choice (3, with ``values``)."""
    data: JSON = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = list(values)
    if resolved:
        data["resolved"] = dict(resolved)
    return interaction(InteractionType.MESSAGE_COMPONENT, interaction_id, data=data, message_obj=message_obj, **kwargs)


def modal_submit_interaction(
    interaction_id: int | str,
    custom_id: str,
    components: Sequence[Mapping[str, Any]],
    **kwargs: Any,
) -> JSON:
    """A type 5 (modal submit) interaction.  ``components`` as built by :func:`modal_submit_components`."""
    data: JSON = {"custom_id": custom_id, "components": [dict(c) for c in components]}
    return interaction(InteractionType.MODAL_SUBMIT, interaction_id, data=data, **kwargs)


def modal_submit_components(
    modal_components: Sequence[Mapping[str, Any]], values: Mapping[str, str | Sequence[str]]
) -> list[JSON]:
    """Mirror a modal's layout as Discord's submit ``components``, filled with ``values``.

    Text inputs (type 4) get ``value`` (``""`` when not given); selects get ``values``.
    Action rows (1) and labels (18) keep their shape; display-only components are dropped.
    """

    def fill(comp: Mapping[str, Any]) -> JSON | None:
        ctype = comp.get("type")
        if ctype == ComponentType.ACTION_ROW:
            inner = [c for c in (fill(x) for x in comp.get("components", [])) if c is not None]
            return {"type": ctype, "components": inner}
        if ctype == ComponentType.LABEL:
            inner_comp = fill(comp["component"])
            return None if inner_comp is None else {"type": ctype, "component": inner_comp}
        custom_id = comp.get("custom_id")
        if custom_id is None:
            return None
        given = values.get(custom_id)
        if ctype == ComponentType.TEXT_INPUT:
            return {"type": ctype, "custom_id": custom_id, "value": "" if given is None else str(given)}
        if given is None:
            chosen: list[str] = []
        elif isinstance(given, str):
            chosen = [given]
        else:
            chosen = [str(v) for v in given]
        return {"type": ctype, "custom_id": custom_id, "values": chosen}

    return [c for c in (fill(x) for x in modal_components) if c is not None]


# ---------------------------------------------------------------------------
# REST response bodies
# ---------------------------------------------------------------------------


def callback_response(
    interaction_id: int | str,
    interaction_type: int,
    callback_type: int,
    *,
    message_obj: Mapping[str, Any] | None = None,
    loading: bool = False,
    ephemeral: bool = False,
) -> JSON:
    """Body of ``POST /interactions/{id}/{token}/callback?with_response=1``."""
    inter: JSON = {
        "id": str(interaction_id),
        "type": interaction_type,
        "activity_instance_id": None,
        "response_message_id": message_obj["id"] if message_obj is not None else None,
        "response_message_loading": loading,
        "response_message_ephemeral": ephemeral,
    }
    resource: JSON = {"type": callback_type}
    if message_obj is not None:
        resource["message"] = dict(message_obj)
    return {"interaction": inter, "resource": resource}


def app_info(owner: Mapping[str, Any] = OWNER, *, app_id: int | str = APP_ID) -> JSON:
    """Body of ``GET /oauth2/applications/@me``."""
    return {
        "id": str(app_id),
        "name": "Speakeasy Table",
        "icon": None,
        "description": "Board games by post",
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": dict(owner),
        "verify_key": "0" * 64,
        "flags": 0,
        "team": None,
        "summary": "",
        "bot": dict(BOT_USER),
    }


def app_command(
    command: Mapping[str, Any],
    command_id: int | str,
    *,
    app_id: int | str = APP_ID,
    guild_id: int | str | None = None,
) -> JSON:
    """Discord's echo of one application command after a PUT (adds ids and defaults)."""
    out: JSON = {
        "type": 1,
        "description": "",
        "options": [],
        "default_member_permissions": None,
        "nsfw": False,
        **dict(command),
        "id": str(command_id),
        "application_id": str(app_id),
        "version": str(command_id),
    }
    if guild_id is not None:
        out["guild_id"] = str(guild_id)
    return out


def ready(session_id: str, resume_gateway_url: str, guild_ids: Iterable[int | str]) -> JSON:
    """The ``d`` of READY."""
    return {
        "v": 10,
        "user": dict(BOT_USER),
        "session_id": session_id,
        "resume_gateway_url": resume_gateway_url,
        "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
        "application": {"id": str(APP_ID), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "user_settings": {},
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": [],
        "shard": [0, 1],
        "_trace": ["fake-discord"],
    }


def error_body(code: int, message: str) -> JSON:
    """A Discord JSON error body, e.g. ``error_body(50007, "Cannot send messages to this user")``."""
    return {"code": code, "message": message}
