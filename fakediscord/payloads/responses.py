"""REST response bodies and the READY event: callbacks, application info and commands, errors."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .cast import APP_ID, BOT_USER, OWNER
from .ids import JSON


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
