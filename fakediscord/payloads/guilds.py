"""Users, roles, members, channels (text, threads, DMs) and a guild, as GUILD_CREATE sends them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .constants import ChannelType
from .ids import _BASE_MS, JSON, iso_timestamp, snowflake_timestamp


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
