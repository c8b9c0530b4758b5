"""Interactions: options and subcommands, and the INTERACTION_CREATE payloads of slash commands,
autocomplete, components and modal submits."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from .cast import APP_ID
from .constants import BOT_ROLE_PERMISSIONS, ComponentType, InteractionType, OptionType
from .guilds import member
from .ids import JSON


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
