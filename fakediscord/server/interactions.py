"""Driving the bot as users do: slash commands, autocomplete, clicks and modal submits, sent as
INTERACTION_CREATE with the context Discord adds (channel, member, permissions, languages)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from .. import payloads as p
from .records import JSON, InteractionRecord, UserRef, custom_ids, find_component, public_message


class InteractionsMixin:
    """Sending interactions and tracking them as :class:`InteractionRecord`.

    It is a mixin of :class:`~fakediscord.server.FakeDiscordServer`: it uses the state that class's
    ``__init__`` sets up (``interactions``, ``_by_token``, ``messages``, ``channels``, ``thread_members``,
    ``locales``, ``guild_locales``, ``sessions``) and the other mixins' users and members (``user``,
    ``is_member``, ``permissions_of``, ``member_payload``, ``guild_of_channel``), option building
    (``_command_schema``, ``_fallback_command_id``, ``_build_options``, ``_option_value``), gateway
    (``shard_of``, ``wait_ready``, ``_send_dispatch``) and ``new_id``.
    """

    def interactions_of(self, ref: UserRef) -> list[InteractionRecord]:
        """Interactions sent on behalf of a user, oldest first."""
        user_id = str(p.uid(ref))
        return [r for r in self.interactions.values() if r.user["id"] == user_id]

    def _interaction_context(self, user_obj: JSON, channel_id: int | str | None) -> JSON:
        """Keyword arguments for payloads.interaction(): channel, guild/member or DM user."""
        cid = p.GENERAL_CHANNEL_ID if channel_id is None else int(channel_id)
        if cid not in self.channels:
            raise KeyError(f"unknown channel {cid}")
        channel = dict(self.channels[cid])
        user_id = p.uid(user_obj)
        locale = self.locales.get(user_id, "en-US")
        if channel["type"] == p.ChannelType.DM:
            recipient = int(channel["recipients"][0]["id"])
            if recipient != user_id:
                raise ValueError(f"channel {cid} is the DM of user {recipient}, not of {user_id}")
            return {"user_obj": user_obj, "channel": channel, "locale": locale}
        if not self.is_member(user_id):
            raise ValueError(f"user {user_obj['username']} is not a member of the guild")
        is_private_thread = channel["type"] == p.ChannelType.PRIVATE_THREAD
        can_see_all = self.permissions_of(user_id) & p.Perm.ADMINISTRATOR
        if is_private_thread and user_id not in self.thread_members.get(cid, set()) and not can_see_all:
            raise ValueError(f"user {user_obj['username']} cannot see private thread {cid}")
        guild_id = self.guild_of_channel(cid)
        channel["guild_id"] = str(guild_id)
        channel["permissions"] = str(self.permissions_of(user_id))
        return {
            "user_obj": user_obj,
            "channel": channel,
            "guild_id": guild_id,
            "member_obj": self.member_payload(user_id),
            "locale": locale,
            "guild_locale": self.guild_locales.get(guild_id, "en-US"),
        }

    async def send_interaction(
        self, payload: Mapping[str, Any], *, wait: bool = True, timeout: float | None = None
    ) -> InteractionRecord:
        """Dispatch a raw INTERACTION_CREATE payload (see :mod:`payloads`) and track it.

        With ``wait`` (default) return once the bot has answered the callback.
        """
        data = dict(payload)
        user_obj = data.get("member", {}).get("user") or data.get("user")
        message_obj = data.get("message")
        rec = InteractionRecord(
            server=self,
            id=int(data["id"]),
            token=str(data["token"]),
            type=int(data["type"]),
            user=dict(user_obj or {}),
            channel_id=int(data["channel_id"]),
            guild_id=int(data["guild_id"]) if data.get("guild_id") else None,
            payload=data,
            message_id=int(message_obj["id"]) if message_obj else None,
        )
        self.interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        shard = self.shard_of(rec.guild_id)  # a DM's interaction goes to shard 0
        await self.wait_ready(timeout, shard=shard)
        rec.dispatched_at = time.monotonic()
        await self._send_dispatch("INTERACTION_CREATE", data, self.sessions[shard])
        if wait:
            await rec.wait_callback(timeout)
        return rec

    def _interaction_id(self, ts_ms: int | None) -> int:
        return self.new_id(ts_ms)

    async def slash(
        self,
        user: UserRef,
        command: str,
        options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
        *,
        channel_id: int | str | None = None,
        ts_ms: int | None = None,
        validate: bool = True,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Run ``/command`` as ``user`` and return the interaction record after the callback.

        ``command`` may contain a subcommand (group) path: ``"game new"``, ``"game admin kick"``.
        ``options`` is either ``{name: value}`` (types come from the synced command; users
        as user objects or ids, channels/roles as ids) or raw leaf option dicts.  With
        ``validate`` the options are checked against the synced schema like the Discord
        client would (unknown names, required, choices, min/max).  ``channel_id`` defaults
        to #general; a DM channel id (``dm_channel_id(user)``) makes it a DM interaction.
        ``ts_ms`` sets the timestamp encoded in the interaction id.
        """
        user_obj = self.user(user)
        ctx = self._interaction_context(user_obj, channel_id)
        path = command.split()
        schema, command_guild_id = self._command_schema(path[0], ctx.get("guild_id"))
        leaf, resolved = self._build_options(path, schema, options, ctx, focused=None, validate=validate)
        iid = self._interaction_id(ts_ms)
        payload = p.slash_interaction(
            iid,
            path[0],
            p.nest_options(path, leaf),
            command_id=schema["id"] if schema else self._fallback_command_id(path[0]),
            command_guild_id=command_guild_id,
            resolved=resolved,
            **ctx,
        )
        return await self.send_interaction(payload, wait=wait, timeout=timeout)

    async def autocomplete(
        self,
        user: UserRef,
        command: str,
        options: Mapping[str, Any] | Sequence[Mapping[str, Any]],
        *,
        focused: str | None = None,
        channel_id: int | str | None = None,
        ts_ms: int | None = None,
        timeout: float | None = None,
    ) -> list[JSON]:
        """Send an autocomplete (type 4) request and return the bot's choices.

        ``options`` as in :meth:`slash`; ``focused`` names the option being typed (its value
        is sent as the partial string).  With raw option dicts mark one ``focused: True``.
        """
        user_obj = self.user(user)
        ctx = self._interaction_context(user_obj, channel_id)
        path = command.split()
        schema, command_guild_id = self._command_schema(path[0], ctx.get("guild_id"))
        leaf, _ = self._build_options(path, schema, options, ctx, focused=focused, validate=True)
        if not any(o.get("focused") for o in leaf):
            raise ValueError("autocomplete needs a focused option (pass focused=<option name>)")
        payload = p.autocomplete_interaction(
            self._interaction_id(ts_ms),
            path[0],
            p.nest_options(path, leaf),
            command_id=schema["id"] if schema else self._fallback_command_id(path[0]),
            command_guild_id=command_guild_id,
            **ctx,
        )
        rec = await self.send_interaction(payload, timeout=timeout)
        return list(rec.choices or [])

    async def click(
        self,
        user: UserRef,
        message_id: int | str,
        custom_id: str,
        values: Sequence[str] | None = None,
        ts_ms: int | None = None,
        *,
        component_type: int | None = None,
        check: bool = True,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Click a button (or choose ``values`` in a select) on a stored message as ``user``.

        The message must be one the bot created (so the id matches).  With ``check`` the
        component must exist and be enabled, select values must be valid options, and an
        ephemeral message can only be used by the user it was shown to.
        """
        mid = int(message_id)
        if mid not in self.messages:
            raise KeyError(f"unknown message {mid} (deleted or never sent by the bot)")
        stored = self.messages[mid]
        user_obj = self.user(user)
        comp = find_component(stored["components"], custom_id)
        if check:
            if comp is None:
                raise ValueError(
                    f"message {mid} has no component {custom_id!r}; it has {custom_ids(stored['components'])}"
                )
            if comp.get("disabled"):
                raise ValueError(f"component {custom_id!r} on message {mid} is disabled")
            owner = stored["interaction_user"]
            if stored["ephemeral"] and owner is not None and owner["id"] != user_obj["id"]:
                raise ValueError(f"message {mid} is ephemeral for {owner['username']}, not {user_obj['username']}")
        ctype = component_type or (
            int(comp["type"]) if comp else (p.ComponentType.STRING_SELECT if values else p.ComponentType.BUTTON)
        )
        if check and comp is not None and ctype == p.ComponentType.STRING_SELECT:
            self._check_select(comp, values or [])
        if ctype != p.ComponentType.BUTTON and values is None:
            values = []
        resolved = self._resolve_select_values(ctype, values or [])
        ctx = self._interaction_context(user_obj, stored["channel_id"])
        payload = p.component_interaction(
            self._interaction_id(ts_ms),
            custom_id,
            public_message(stored),
            component_type=ctype,
            values=values if ctype != p.ComponentType.BUTTON else None,
            resolved=resolved,
            **ctx,
        )
        return await self.send_interaction(payload, wait=wait, timeout=timeout)

    async def submit_modal(
        self,
        user: UserRef,
        values: Mapping[str, str | Sequence[str]] | None = None,
        *,
        custom_id: str | None = None,
        opened_by: InteractionRecord | None = None,
        ts_ms: int | None = None,
        check: bool = True,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Submit the modal the bot showed to ``user`` (latest one, or ``opened_by``'s).

        ``values`` maps input ``custom_id`` to text (or a list for selects in a modal).
        With ``check`` unknown ids and empty required text inputs raise ValueError.
        """
        user_obj = self.user(user)
        source = opened_by
        if source is None:
            candidates = [
                r
                for r in self.interactions_of(user_obj)
                if r.modal is not None and (custom_id is None or r.modal.get("custom_id") == custom_id)
            ]
            if not candidates:
                raise LookupError(f"no modal was shown to {user_obj['username']}")
            source = candidates[-1]
        if source.modal is None:
            raise LookupError(f"interaction {source.id} did not open a modal")
        modal = source.modal
        given = dict(values or {})
        if check:
            known = custom_ids(modal.get("components", []))
            unknown = set(given) - set(known)
            if unknown:
                raise ValueError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}; it has {known}")
            for cid in known:
                comp = find_component(modal.get("components", []), cid) or {}
                is_required_text = comp.get("type") == p.ComponentType.TEXT_INPUT and comp.get("required", True)
                if is_required_text and not given.get(cid):
                    raise ValueError(f"required input {cid!r} of modal {modal.get('custom_id')!r} is empty")
        components = p.modal_submit_components(modal.get("components", []), given)
        ctx = self._interaction_context(user_obj, source.channel_id)
        message_obj = None
        if source.message_id is not None and source.message_id in self.messages:
            message_obj = public_message(self.messages[source.message_id])
        payload = p.modal_submit_interaction(
            self._interaction_id(ts_ms), str(modal["custom_id"]), components, message_obj=message_obj, **ctx
        )
        return await self.send_interaction(payload, wait=wait, timeout=timeout)

    def _check_select(self, comp: Mapping[str, Any], values: Sequence[str]) -> None:
        allowed = [o["value"] for o in comp.get("options", [])]
        bad = [v for v in values if v not in allowed]
        if bad:
            raise ValueError(f"select {comp.get('custom_id')!r} has no option(s) {bad}; options: {allowed}")
        low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not low <= len(values) <= high:
            raise ValueError(f"select {comp.get('custom_id')!r} needs {low}..{high} values, got {len(values)}")

    def _resolve_select_values(self, ctype: int, values: Sequence[str]) -> JSON:
        resolved: JSON = {}
        ctx = {"guild_id": p.GUILD_ID}
        if ctype in (p.ComponentType.USER_SELECT, p.ComponentType.MENTIONABLE_SELECT):
            for v in values:
                self._option_value(p.OptionType.MENTIONABLE, v, resolved, ctx)
        elif ctype == p.ComponentType.ROLE_SELECT:
            for v in values:
                self._option_value(p.OptionType.ROLE, v, resolved, ctx)
        elif ctype == p.ComponentType.CHANNEL_SELECT:
            for v in values:
                self._option_value(p.OptionType.CHANNEL, v, resolved, ctx)
        return resolved
