"""Messages: a message object, its attachments, its interaction metadata, and embeds as Discord returns them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .ids import JSON, snowflake_timestamp


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
