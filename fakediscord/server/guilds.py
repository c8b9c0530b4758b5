"""Users, members, guilds and DM channels of the fake, and their REST routes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import payloads as p
from .errors import _DiscordError
from .records import JSON, RecordedRequest, Upload, UserRef


class GuildsMixin:
    """Users, members and their permissions, guilds (and their twins), languages, DM channels.

    It is a mixin of :class:`~fakediscord.server.FakeDiscordServer`: it uses the state that class's
    ``__init__`` sets up (``users``, ``member_roles``, ``roles``, ``channels``, ``dm_channels``,
    ``guild_ids``, ``guild_names``, ``locales``, ``guild_locales``) and ``new_id``.
    """

    def user(self, ref: UserRef) -> JSON:
        """Resolve a user object or id to the stored user object."""
        user_id = p.uid(ref)
        if user_id not in self.users:
            if isinstance(ref, Mapping):
                self.users[user_id] = dict(ref)
            else:
                raise KeyError(f"unknown user id {user_id}")
        return self.users[user_id]

    def add_user(self, user_obj: Mapping[str, Any], *, member: bool = True, roles: Sequence[int] = ()) -> None:
        """Add a user (and by default a guild member).  Call before the bot connects."""
        self.users[p.uid(user_obj)] = dict(user_obj)
        if member:
            self.member_roles[p.uid(user_obj)] = [int(r) for r in roles]

    def is_member(self, ref: UserRef) -> bool:
        """Whether the user is in the guild."""
        return p.uid(ref) in self.member_roles

    def permissions_of(self, ref: UserRef) -> int:
        """Guild-level computed permissions of a member (owner and admins get everything)."""
        user_id = p.uid(ref)
        if user_id == p.uid(p.OWNER):
            return p.Perm.ALL
        by_id = {int(r["id"]): int(r["permissions"]) for r in self.roles}
        perms = by_id[p.GUILD_ID]
        for role_id in self.member_roles.get(user_id, []):
            perms |= by_id.get(role_id, 0)
        return p.Perm.ALL if perms & p.Perm.ADMINISTRATOR else perms

    def member_payload(self, ref: UserRef, *, with_permissions: bool = True, include_user: bool = True) -> JSON:
        """The member object of a guild member (as in GUILD_CREATE or an interaction)."""
        user_id = p.uid(ref)
        return p.member(
            self.user(user_id),
            roles=self.member_roles[user_id],
            permissions=self.permissions_of(user_id) if with_permissions else None,
            include_user=include_user,
        )

    def add_twin_guild(self, guild_id: int, name: str | None = None) -> dict[str, int]:
        """Another guild with the same members and roles and channels of its own (a category, #general, #games
        and #lobby with new ids), named ``name`` (default: the test server's name); returns the channels' ids by
        name. Call before the bot connects. With shards, pick ``guild_id`` by the shard that should get it (see
        ``shard_of``)."""
        if guild_id in self.guild_ids:
            raise ValueError(f"guild {guild_id} exists already")
        self.guild_ids.append(guild_id)
        if name is not None:
            self.guild_names[guild_id] = name
        out: dict[str, int] = {}
        category = self.new_id()
        for c in p.default_channels():
            cid = category if c["id"] == str(p.CATEGORY_ID) else self.new_id()
            twin = {**c, "id": str(cid), "guild_id": str(guild_id)}
            if c.get("parent_id"):
                twin["parent_id"] = str(category)
            self.channels[cid] = twin
            out[str(c["name"])] = cid
        return out

    def guild_of_channel(self, channel_id: int | str) -> int:
        """The guild a guild channel or thread belongs to."""
        return int(self.channels[int(channel_id)].get("guild_id") or p.GUILD_ID)

    def guild_create(self, guild_id: int = p.GUILD_ID) -> JSON:
        """The GUILD_CREATE payload for the current state of one guild."""
        mine = [c for c in self.channels.values() if int(c.get("guild_id") or p.GUILD_ID) == guild_id]
        guild_channels = [c for c in mine if c.get("type") in (0, 2, 4, 5, 13, 15)]
        threads = [c for c in mine if c.get("type") in (10, 11, 12)]
        members = [self.member_payload(u, with_permissions=False) for u in self.member_roles]
        # a twin's @everyone role has the twin's id, as every guild's does
        roles = [{**r, "id": str(guild_id)} if r["id"] == str(p.GUILD_ID) else r for r in self.roles]
        return p.guild_create(
            guild_id,
            self.guild_names.get(guild_id, p.GUILD_NAME),
            owner_id=p.uid(p.OWNER),
            roles=roles,
            channels=guild_channels,
            members=members,
            threads=threads,
            preferred_locale=self.guild_locales.get(guild_id, "en-US"),
        )

    def set_locale(self, ref: UserRef, locale: str) -> None:
        """The language of a user's Discord client (e.g. ``"de"``, ``"en-US"``), sent with their interactions."""
        self.locales[p.uid(ref)] = locale

    def set_guild_locale(self, locale: str, guild_id: int = p.GUILD_ID) -> None:
        """A guild's preferred language (sent as ``guild_locale`` with its interactions)."""
        self.guild_locales[guild_id] = locale

    def dm_channel_id(self, ref: UserRef) -> int:
        """The (stable) id of the DM channel between the bot and a user, creating it if needed."""
        user_id = p.uid(ref)
        if user_id not in self.dm_channels:
            channel_id = self.new_id()
            self.dm_channels[user_id] = channel_id
            self.channels[channel_id] = p.dm_channel(channel_id, self.user(user_id))
        return self.dm_channels[user_id]

    async def _r_me(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        return 200, dict(p.BOT_USER)

    async def _r_get_user(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        found = self.users.get(int(m["uid"]))
        if found is None:
            raise _DiscordError(404, 10013, "Unknown User")
        return 200, dict(found)

    async def _r_app_info(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        return 200, p.app_info()

    async def _r_create_dm(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        recipient = int((req.json or {}).get("recipient_id", 0))
        if recipient not in self.users or recipient == p.APP_ID:
            raise _DiscordError(400, 50033, "Invalid Recipient(s)")
        return 200, dict(self.channels[self.dm_channel_id(recipient)])

    async def _r_get_guild(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        if int(m["guild"]) not in self.guild_ids:
            raise _DiscordError(404, 10004, "Unknown Guild")
        full = self.guild_create(int(m["guild"]))
        gateway_only = ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large")
        return 200, {k: v for k, v in full.items() if k not in gateway_only}

    async def _r_guild_channels(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        if int(m["guild"]) not in self.guild_ids:
            raise _DiscordError(404, 10004, "Unknown Guild")
        wanted = int(m["guild"])
        return 200, [
            dict(c)
            for c in self.channels.values()
            if c.get("type") in (0, 2, 4, 5, 13, 15) and int(c.get("guild_id") or p.GUILD_ID) == wanted
        ]

    async def _r_guild_members(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        if int(m["guild"]) not in self.guild_ids:
            raise _DiscordError(404, 10004, "Unknown Guild")
        limit = int(req.query.get("limit", 1))
        after = int(req.query.get("after", 0))
        ids = sorted(u for u in self.member_roles if u > after)[:limit]
        return 200, [self.member_payload(u, with_permissions=False) for u in ids]

    async def _r_guild_member(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        user_id = int(m["uid"])
        if int(m["guild"]) not in self.guild_ids:
            raise _DiscordError(404, 10004, "Unknown Guild")
        if not self.is_member(user_id):
            raise _DiscordError(404, 10007, "Unknown Member")
        return 200, self.member_payload(user_id, with_permissions=False)
