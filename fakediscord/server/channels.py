"""Guild channels and threads of the fake (archiving, thread members), and their REST routes."""

from __future__ import annotations

from typing import Any

from .. import payloads as p
from .errors import _DiscordError
from .records import JSON, RecordedRequest, Upload


class ChannelsMixin:
    """Channels and threads.

    It is a mixin of :class:`~fakediscord.server.FakeDiscordServer`: it uses the state that class's
    ``__init__`` sets up (``channels``, ``thread_members``) and the other mixins' ``guild_of_channel``,
    ``is_member``, ``_message_in``, ``_dispatch_if_connected`` and ``new_id``.
    """

    def channel(self, channel_id: int | str) -> JSON:
        """A stored channel object (guild channel, thread or DM); KeyError if unknown."""
        return self.channels[int(channel_id)]

    async def archive_thread(self, thread_id: int | str) -> None:
        """Archive a thread, as Discord does after its auto-archive duration without activity."""
        channel = self._channel_or_404(thread_id)
        channel["thread_metadata"]["archived"] = True
        await self._dispatch_if_connected("THREAD_UPDATE", channel)

    def threads(self) -> list[JSON]:
        """All threads created so far."""
        return [c for c in self.channels.values() if c.get("type") in (11, 12)]

    def _channel_or_404(self, channel_id: int | str) -> JSON:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise _DiscordError(404, 10003, "Unknown Channel")
        return channel

    async def _r_get_channel(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        return 200, dict(self._channel_or_404(m["cid"]))

    async def _r_edit_channel(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        channel = self._channel_or_404(m["cid"])
        body = req.json or {}
        for key in ("name", "topic", "rate_limit_per_user"):
            if key in body:
                channel[key] = body[key]
        if "thread_metadata" in channel:
            for key in ("archived", "locked", "invitable", "auto_archive_duration"):
                if key in body:
                    channel["thread_metadata"][key] = body[key]
        await self._dispatch_if_connected(
            "THREAD_UPDATE" if "thread_metadata" in channel else "CHANNEL_UPDATE", channel
        )
        return 200, dict(channel)

    async def _r_delete_channel(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        channel = self._channel_or_404(m["cid"])
        del self.channels[int(m["cid"])]
        return 200, dict(channel)

    async def _r_create_thread(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        parent = self._channel_or_404(m["cid"])
        if parent["type"] != p.ChannelType.GUILD_TEXT:
            raise _DiscordError(400, 50024, "Cannot execute action on this channel type")
        body = req.json or {}
        if m.get("mid"):
            self._message_in(m["cid"], m["mid"])
            thread_id = int(m["mid"])  # a thread started from a message shares its id
            thread_type = p.ChannelType.PUBLIC_THREAD
        else:
            thread_id = self.new_id()
            thread_type = int(body.get("type") or p.ChannelType.PRIVATE_THREAD)
        thread = p.thread_channel(
            thread_id,
            self.guild_of_channel(m["cid"]),
            m["cid"],
            p.APP_ID,
            str(body.get("name", "thread")),
            thread_type=thread_type,
            invitable=bool(body.get("invitable", True)),
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        self.channels[thread_id] = thread
        self.thread_members[thread_id] = {p.APP_ID}
        await self._dispatch_if_connected("THREAD_CREATE", {**thread, "newly_created": True})
        return 201, dict(thread)

    async def _r_thread_members(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        self._channel_or_404(m["cid"])
        members = self.thread_members.get(int(m["cid"]), set())
        return 200, [
            {"id": m["cid"], "user_id": str(u), "join_timestamp": p.iso_timestamp(p.snowflake_ms(m["cid"])), "flags": 0}
            for u in sorted(members)
        ]

    async def _r_add_thread_member(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        channel = self._channel_or_404(m["cid"])
        if int(m["cid"]) not in self.thread_members:
            raise _DiscordError(400, 50024, "Cannot execute action on this channel type")
        user_id = p.APP_ID if m["uid"] == "@me" else int(m["uid"])
        if not self.is_member(user_id) and user_id != p.APP_ID:
            raise _DiscordError(404, 10007, "Unknown Member")
        self.thread_members[int(m["cid"])].add(user_id)
        channel["member_count"] = len(self.thread_members[int(m["cid"])])
        return 204, None

    async def _r_remove_thread_member(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        channel = self._channel_or_404(m["cid"])
        members = self.thread_members.get(int(m["cid"]), set())
        members.discard(p.APP_ID if m["uid"] == "@me" else int(m["uid"]))
        channel["member_count"] = len(members)
        return 204, None
