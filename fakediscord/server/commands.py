"""Application commands: syncing them (refusing what Discord refuses in localised names), and building a
slash command's options from the synced schema, checked as the Discord client checks them."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .. import payloads as p
from .errors import _DiscordError
from .records import JSON, RecordedRequest, Upload

#: Discord's rule for a chat-input command or option name, in any language: lower case (where the script has
#: case), letters, digits, ``-`` or ``_``, 1 to 32 characters.
_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _localization_problems(item: Mapping[str, Any], where: str) -> list[str]:
    """What Discord refuses in a command's (or option's, or choice's) localised names and descriptions."""
    out = []
    is_choice = "value" in item and "type" not in item
    for locale, name in (item.get("name_localizations") or {}).items():
        if is_choice:
            if not 1 <= len(name) <= 100:
                out.append(f"{where}: choice name_localizations.{locale} must be 1-100 characters")
        elif not _COMMAND_NAME.fullmatch(name) or name != name.lower():
            out.append(f"{where}: name_localizations.{locale} {name!r} is not a valid command name")
    for locale, text in (item.get("description_localizations") or {}).items():
        if not 1 <= len(text) <= 100:
            out.append(f"{where}: description_localizations.{locale} must be 1-100 characters")
    for child in item.get("options") or []:
        out += _localization_problems(child, f"{where} {child.get('name', '?')}")
    for choice in item.get("choices") or []:
        out += _localization_problems(choice, f"{where} choice {choice.get('name', '?')}")
    return out


class CommandsMixin:
    """Synced commands and option building.

    It is a mixin of :class:`~fakediscord.server.FakeDiscordServer`: it uses the state that class's
    ``__init__`` sets up (``commands``, ``_command_ids``, ``users``, ``roles``, ``channels``) and the other
    mixins' ``new_id``, ``is_member`` and ``member_payload``.
    """

    def _command_schema(self, name: str, guild_id: int | None) -> tuple[JSON | None, int | None]:
        if guild_id is not None and name in self.commands.get(guild_id, {}):
            return self.commands[guild_id][name], guild_id
        if name in self.commands.get(None, {}):
            return self.commands[None][name], None
        return None, None

    def _fallback_command_id(self, name: str) -> int:
        key = (None, name, 1)
        if key not in self._command_ids:
            self._command_ids[key] = self.new_id()
        return self._command_ids[key]

    def _build_options(
        self,
        path: list[str],
        schema: JSON | None,
        options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
        ctx: JSON,
        *,
        focused: str | None,
        validate: bool,
    ) -> tuple[list[JSON], JSON]:
        where = "/" + " ".join(path)
        if validate and schema is not None:
            _check_context(where, schema, ctx)
        specs: list[JSON] | None = list(schema.get("options", [])) if schema else None
        for part in path[1:]:
            if specs is None:
                break
            sub = next((o for o in specs if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                if validate:
                    names = [o["name"] for o in specs if o["type"] in (1, 2)]
                    raise ValueError(f"{where}: no subcommand {part!r}; known: {names}")
                specs = None
                break
            specs = list(sub.get("options", []))
        if validate and specs is not None and any(o["type"] in (1, 2) for o in specs):
            names = [o["name"] for o in specs if o["type"] in (1, 2)]
            raise ValueError(f"{where} needs a subcommand: {names}")

        resolved: JSON = {}
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            leaf = [dict(o) for o in options]
        else:
            leaf = []
            for name, value in options.items():
                spec = None
                if specs is not None:
                    spec = next((o for o in specs if o["name"] == name), None)
                    if spec is None and validate:
                        raise ValueError(f"{where}: unknown option {name!r}; known: {[o['name'] for o in specs]}")
                otype = int(spec["type"]) if spec else _guess_option_type(value)
                if name == focused:
                    leaf.append(p.option(name, str(value), otype, focused=True))
                    continue
                wire = self._option_value(otype, value, resolved, ctx)
                if validate and spec is not None and focused is None:
                    _check_option_value(where, spec, wire)
                leaf.append(p.option(name, wire, otype))
        if validate and specs is not None and focused is None:
            given = {o["name"] for o in leaf}
            missing = [o["name"] for o in specs if o.get("required") and o["name"] not in given]
            if missing:
                raise ValueError(f"{where}: missing required option(s) {missing}")
        return leaf, resolved

    def _option_value(self, otype: int, value: Any, resolved: JSON, ctx: JSON) -> Any:
        if otype in (p.OptionType.USER, p.OptionType.MENTIONABLE):
            user_id = p.uid(value)
            if user_id in self.users:
                resolved.setdefault("users", {})[str(user_id)] = dict(self.users[user_id])
                if ctx.get("guild_id") is not None and self.is_member(user_id):
                    resolved.setdefault("members", {})[str(user_id)] = self.member_payload(user_id, include_user=False)
                return str(user_id)
            role = next((r for r in self.roles if int(r["id"]) == user_id), None)
            if role is not None:
                resolved.setdefault("roles", {})[str(user_id)] = dict(role)
                return str(user_id)
            raise KeyError(f"unknown user {user_id}")
        if otype == p.OptionType.CHANNEL:
            channel_id = int(value["id"]) if isinstance(value, Mapping) else int(value)
            channel = dict(self.channels[channel_id])
            channel["permissions"] = str(p.Perm.ALL)
            resolved.setdefault("channels", {})[str(channel_id)] = channel
            return str(channel_id)
        if otype == p.OptionType.ROLE:
            role_id = int(value["id"]) if isinstance(value, Mapping) else int(value)
            role = next(r for r in self.roles if int(r["id"]) == role_id)
            resolved.setdefault("roles", {})[str(role_id)] = dict(role)
            return str(role_id)
        if otype == p.OptionType.INTEGER:
            return int(value)
        if otype == p.OptionType.NUMBER:
            return float(value)
        if otype == p.OptionType.BOOLEAN:
            return bool(value)
        if otype == p.OptionType.ATTACHMENT:
            raise NotImplementedError("attachment options are not modelled by the fake")
        return str(value)

    async def _r_put_commands(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        guild_id = int(m["guild"]) if m.get("guild") else None
        echoed: dict[str, JSON] = {}
        found = [problem for cmd in req.json or [] for problem in _localization_problems(cmd, cmd.get("name", "?"))]
        if found:
            raise _DiscordError(400, 50035, "Invalid Form Body: " + "; ".join(found[:10]))
        for cmd in req.json or []:
            key = (guild_id, cmd["name"], int(cmd.get("type", 1)))
            if key not in self._command_ids:
                self._command_ids[key] = self.new_id()
            echoed[cmd["name"]] = p.app_command(cmd, self._command_ids[key], guild_id=guild_id)
        self.commands[guild_id] = echoed
        return 200, list(echoed.values())

    async def _r_get_commands(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        guild_id = int(m["guild"]) if m.get("guild") else None
        return 200, list(self.commands.get(guild_id, {}).values())


#: Discord's interaction context types: a server, the bot's DM, a group DM or another user's DM
CONTEXT_NAMES = {0: "a server", 1: "a DM with the bot", 2: "a private channel"}


def _check_context(where: str, schema: Mapping[str, Any], ctx: Mapping[str, Any]) -> None:
    """Discord offers a command only in the contexts it was synced for (``contexts``; none given: all)."""
    allowed = schema.get("contexts")
    here = 1 if ctx.get("guild_id") is None else 0
    if allowed is not None and here not in allowed:
        places = ", ".join(CONTEXT_NAMES.get(int(c), str(c)) for c in allowed)
        raise ValueError(f"{where} is not available in {CONTEXT_NAMES[here]} (synced for {places} only)")


def _guess_option_type(value: Any) -> int:
    if isinstance(value, bool):
        return p.OptionType.BOOLEAN
    if isinstance(value, int):
        return p.OptionType.INTEGER
    if isinstance(value, float):
        return p.OptionType.NUMBER
    if isinstance(value, Mapping) and "username" in value:
        return p.OptionType.USER
    return p.OptionType.STRING


def _check_option_value(where: str, spec: Mapping[str, Any], value: Any) -> None:
    name = spec["name"]
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"{where}: {name}={value!r} is not one of {[c['value'] for c in choices]}")
    if "min_value" in spec and spec["min_value"] is not None and value < spec["min_value"]:
        raise ValueError(f"{where}: {name}={value!r} is below min_value {spec['min_value']}")
    if "max_value" in spec and spec["max_value"] is not None and value > spec["max_value"]:
        raise ValueError(f"{where}: {name}={value!r} is above max_value {spec['max_value']}")
    if isinstance(value, str):
        if spec.get("min_length") is not None and len(value) < spec["min_length"]:
            raise ValueError(f"{where}: {name} is shorter than {spec['min_length']}")
        if spec.get("max_length") is not None and len(value) > spec["max_length"]:
            raise ValueError(f"{where}: {name} is longer than {spec['max_length']}")
