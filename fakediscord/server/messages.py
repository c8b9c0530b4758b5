"""Messages the bot creates: storing, editing and deleting them (with mentions, Discord's limits and uploaded
attachments), reading them back, and their REST routes."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from aiohttp import web

from .. import limits
from .. import payloads as p
from .errors import _DiscordError
from .records import JSON, InteractionRecord, RecordedRequest, Upload, UserRef, public_message


class MessagesMixin:
    """The message registry and the message REST routes.

    It is a mixin of :class:`~fakediscord.server.FakeDiscordServer`: it uses the state that class's
    ``__init__`` sets up (``messages``, ``deleted_messages``, ``channels``, ``dm_channels``, ``users``,
    ``attachment_data``, ``_nonces``, ``enforce_limits``) and the other mixins' ``new_id``, ``base_url``,
    ``_channel_or_404`` and ``_dispatch_if_connected``.
    """

    def message(self, message_id: int | str) -> JSON:
        """A stored message by id (KeyError if unknown or deleted)."""
        return self.messages[int(message_id)]

    def messages_in(self, channel_id: int | str, *, include_ephemeral: bool = False) -> list[JSON]:
        """Messages in a channel, oldest first (ephemeral ones only on request)."""
        cid = str(channel_id)
        return [
            m
            for _, m in sorted(self.messages.items())
            if m["channel_id"] == cid and (include_ephemeral or not m["ephemeral"])
        ]

    def last_message(self, channel_id: int | str, *, include_ephemeral: bool = False) -> JSON | None:
        """The newest message in a channel, or None."""
        msgs = self.messages_in(channel_id, include_ephemeral=include_ephemeral)
        return msgs[-1] if msgs else None

    def ephemeral_for(self, ref: UserRef) -> list[JSON]:
        """Ephemeral responses/followups created by interactions of this user, oldest first."""
        user_id = str(p.uid(ref))
        return [
            m
            for _, m in sorted(self.messages.items())
            if m["ephemeral"] and m["interaction_user"] and m["interaction_user"]["id"] == user_id
        ]

    def dm_messages(self, ref: UserRef) -> list[JSON]:
        """Messages the bot sent to a user's DM channel, oldest first."""
        channel_id = self.dm_channels.get(p.uid(ref))
        return [] if channel_id is None else self.messages_in(channel_id)

    def _make_attachments(
        self, channel_id: int | str, body: Mapping[str, Any], uploads: list[Upload], existing: Sequence[JSON]
    ) -> tuple[list[JSON], dict[str, bytes]]:
        by_index = {u.index: u for u in uploads}
        used: set[int] = set()
        result: list[JSON] = []

        def new_attachment(upload: Upload, meta: Mapping[str, Any]) -> JSON:
            aid = self.new_id()
            filename = str(meta.get("filename") or upload.filename)
            self.attachment_data[aid] = upload.data
            return p.attachment(
                aid,
                filename,
                size=len(upload.data),
                url=f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}",
                content_type=upload.content_type,
                description=meta.get("description"),
            )

        if "attachments" in body and body["attachments"] is not None:
            for meta in body["attachments"]:
                old = next((a for a in existing if a["id"] == str(meta.get("id"))), None)
                if old is not None:
                    result.append(old)
                    continue
                index = int(meta["id"])
                if index not in by_index:
                    raise _DiscordError(400, 50035, f"Invalid Form Body: attachment {index} has no files[{index}]")
                used.add(index)
                result.append(new_attachment(by_index[index], meta))
        else:
            result.extend(existing)
        for upload in uploads:
            if upload.index not in used:
                result.append(new_attachment(upload, {}))
        files = {a["filename"]: self.attachment_data[int(a["id"])] for a in result}
        return result, files

    def _store_message(
        self,
        channel_id: int | str,
        body: Mapping[str, Any],
        uploads: list[Upload],
        *,
        rec: InteractionRecord | None = None,
        force_flags: int | None = None,
    ) -> JSON:
        self._check_limits(body, uploads)
        mid = self.new_id()
        attachments, files = self._make_attachments(channel_id, body, uploads, [])
        flags = int(body.get("flags") or 0) if force_flags is None else force_flags
        if rec is None:
            flags &= ~p.MessageFlag.EPHEMERAL
        metadata = None
        if rec is not None:
            metadata = p.interaction_metadata(
                rec.id,
                rec.type,
                rec.user,
                guild_id=rec.guild_id,
                interacted_message_id=rec.message_id,
                name=rec.payload.get("data", {}).get("name") if rec.type == 2 else None,
            )
        content = body.get("content") or ""
        msg = p.message(
            mid,
            channel_id,
            p.BOT_USER,
            content,
            embeds=[p.normalize_embed(e) for e in body.get("embeds") or []],
            components=body.get("components") or [],
            attachments=attachments,
            flags=flags,
            message_type=20 if rec is not None and rec.type == 2 else 0,
            webhook_id=p.APP_ID if rec is not None else None,
            application_id=p.APP_ID if rec is not None else None,
            metadata=metadata,
            mentions=self._mentions(content, body.get("allowed_mentions")),
        )
        msg["mention_everyone"] = self._mentions_everyone(content, body.get("allowed_mentions"))
        stored: JSON = {
            **msg,
            "ephemeral": bool(flags & p.MessageFlag.EPHEMERAL),
            "files": files,
            "interaction_id": rec.id if rec is not None else None,
            "interaction_user": dict(rec.user) if rec is not None else None,
        }
        self.messages[mid] = stored
        channel = self.channels.get(int(channel_id))
        if channel is not None and not stored["ephemeral"]:
            channel["last_message_id"] = str(mid)
        return stored

    def _mentions(self, content: str, allowed: Mapping[str, Any] | None) -> list[JSON]:
        """Users Discord would mark as mentioned (and ping), honouring ``allowed_mentions``."""
        ids = list(dict.fromkeys(int(x) for x in re.findall(r"<@!?(\d+)>", content)))
        if allowed is not None:
            if allowed.get("users") is not None:
                permitted = {int(u) for u in allowed["users"]}
                ids = [i for i in ids if i in permitted]
            elif "users" not in (allowed.get("parse") or []):
                ids = []
        return [dict(self.users[i]) for i in ids if i in self.users]

    @staticmethod
    def _mentions_everyone(content: str, allowed: Mapping[str, Any] | None) -> bool:
        if "@everyone" not in content and "@here" not in content:
            return False
        return allowed is None or "everyone" in (allowed.get("parse") or [])

    def _check_limits(self, body: Mapping[str, Any], uploads: list[Upload]) -> None:
        """Refuse, as Discord does, a message over Discord's limits (see :mod:`.limits`)."""
        if self.enforce_limits:
            found = limits.problems(body, len(uploads))
            if found:
                raise _DiscordError(400, 50035, "Invalid Form Body: " + "; ".join(found))

    def _edit_stored(self, stored: JSON, body: Mapping[str, Any], uploads: list[Upload]) -> JSON:
        self._check_limits({**body, "flags": stored["flags"]} if "flags" not in body else body, uploads)
        was_loading = bool(stored["flags"] & p.MessageFlag.LOADING)
        if "content" in body:
            stored["content"] = body["content"] or ""
            stored["mentions"] = self._mentions(stored["content"], body.get("allowed_mentions"))
            stored["mention_everyone"] = self._mentions_everyone(stored["content"], body.get("allowed_mentions"))
        if "embeds" in body:
            stored["embeds"] = [p.normalize_embed(e) for e in body["embeds"] or []]
        if "components" in body:
            stored["components"] = list(body["components"] or [])
        if "attachments" in body or uploads:
            stored["attachments"], stored["files"] = self._make_attachments(
                stored["channel_id"], body, uploads, stored["attachments"]
            )
        keep = p.MessageFlag.EPHEMERAL
        if "flags" in body and body["flags"] is not None:
            changeable = p.MessageFlag.SUPPRESS_EMBEDS | p.MessageFlag.IS_COMPONENTS_V2
            stored["flags"] = (stored["flags"] & keep) | (int(body["flags"]) & changeable)
        stored["flags"] &= ~p.MessageFlag.LOADING
        if not was_loading:
            stored["edited_timestamp"] = p.iso_timestamp(int(time.time() * 1000))
        return stored

    def _delete_stored(self, message_id: int) -> None:
        stored = self.messages.pop(message_id, None)
        if stored is not None:
            self.deleted_messages[message_id] = stored

    def _message_in(self, channel_id: int | str, message_id: int | str) -> JSON:
        stored = self.messages.get(int(message_id))
        if stored is None or stored["channel_id"] != str(channel_id):
            raise _DiscordError(404, 10008, "Unknown Message")
        return stored

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.attachment_data.get(int(request.match_info["attachment_id"]))
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data, content_type="application/octet-stream")

    async def _r_history(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        self._channel_or_404(m["cid"])
        msgs = self.messages_in(m["cid"])
        if "before" in req.query:
            msgs = [x for x in msgs if int(x["id"]) < int(req.query["before"])]
        if "after" in req.query:
            msgs = [x for x in msgs if int(x["id"]) > int(req.query["after"])]
        limit = int(req.query.get("limit", 50))
        newest_first = list(reversed(msgs))[:limit]
        return 200, [public_message(x) for x in newest_first]

    async def _r_send(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        channel = self._channel_or_404(m["cid"])
        meta = channel.get("thread_metadata")
        if meta is not None and meta.get("archived"):
            if meta.get("locked"):
                raise _DiscordError(400, 50083, "Thread is archived")
            meta["archived"] = False  # Discord: a message to an archived, unlocked thread reopens it
            await self._dispatch_if_connected("THREAD_UPDATE", channel)
        body = req.json or {}
        if not (body.get("content") or body.get("embeds") or body.get("components") or uploads or body.get("poll")):
            raise _DiscordError(400, 50006, "Cannot send an empty message")
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        if nonce is not None:
            # Discord: "If another message was created by the same author with the same nonce, that message
            # will be returned and no new message will be created" (within a few minutes; here: always)
            seen = self._nonces.get((int(m["cid"]), str(nonce)))
            if seen is not None and seen in self.messages:
                return 200, public_message(self.messages[seen])
        stored = self._store_message(m["cid"], body, uploads)
        if nonce is not None:
            self._nonces[(int(m["cid"]), str(nonce))] = int(stored["id"])
            stored["nonce"] = str(nonce)
        return 200, public_message(stored)

    async def _r_get_message(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        return 200, public_message(self._message_in(m["cid"], m["mid"]))

    async def _r_edit_message(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        stored = self._message_in(m["cid"], m["mid"])
        if stored["author"]["id"] != str(p.APP_ID):
            raise _DiscordError(403, 50005, "Cannot edit a message authored by another user")
        meta = self._channel_or_404(m["cid"]).get("thread_metadata")
        if meta is not None and meta.get("archived"):
            raise _DiscordError(400, 50083, "Thread is archived")  # only a new message re-opens it
        return 200, public_message(self._edit_stored(stored, req.json or {}, uploads))

    async def _r_delete_message(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        stored = self._message_in(m["cid"], m["mid"])
        self._delete_stored(int(stored["id"]))
        return 204, None
