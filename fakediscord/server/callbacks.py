"""The bot's answers to interactions: the callback, followups, and the interaction webhook's messages."""

from __future__ import annotations

import time
from typing import Any

from .. import payloads as p
from .errors import _DiscordError
from .records import JSON, InteractionRecord, RecordedRequest, Upload, public_message


class CallbacksMixin:
    """The interaction callback and webhook REST routes.

    It is a mixin of :class:`~fakediscord.server.FakeDiscordServer`: it uses the state that class's
    ``__init__`` sets up (``interactions``, ``_by_token``, ``messages``, ``ack_deadline_s``) and the messages
    mixin's ``_store_message``, ``_edit_stored`` and ``_delete_stored``.
    """

    def _rec_for_token(self, app: str, token: str) -> InteractionRecord:
        rec = self._by_token.get(token)
        if rec is None or int(app) != p.APP_ID:
            raise _DiscordError(404, 10015, "Unknown Webhook")
        return rec

    def _webhook_message(self, rec: InteractionRecord, mid: str) -> JSON:
        if mid == "@original":
            target = rec.original_message_id
        else:
            target = int(mid)
            if target != rec.original_message_id and target not in rec.followup_ids:
                target = None
        if target is None or target not in self.messages:
            raise _DiscordError(404, 10008, "Unknown Message")
        return self.messages[target]

    async def _r_callback(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        rec = self.interactions.get(int(m["iid"]))
        if rec is None or rec.token != m["token"]:
            raise _DiscordError(404, 10062, "Unknown interaction")
        if rec.callback is not None:
            raise _DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if self.ack_deadline_s is not None and time.monotonic() - rec.dispatched_at > self.ack_deadline_s:
            raise _DiscordError(404, 10062, "Unknown interaction")
        body = req.json or {}
        ctype = int(body.get("type", 0))
        data = dict(body.get("data") or {})
        allowed = {
            p.InteractionType.APPLICATION_COMMAND: {4, 5, 9},
            p.InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
            p.InteractionType.AUTOCOMPLETE: {8},
            p.InteractionType.MODAL_SUBMIT: {4, 5, 6, 7} if rec.message_id is not None else {4, 5},
        }.get(rec.type, {1})
        if ctype not in allowed:
            raise _DiscordError(400, 50035, f"Invalid Form Body: callback type {ctype} not valid here")

        message_obj: JSON | None = None
        loading = False
        if ctype == p.CallbackType.CHANNEL_MESSAGE:
            stored = self._store_message(rec.channel_id, data, uploads, rec=rec)
            rec.original_message_id = int(stored["id"])
            message_obj = public_message(stored)
        elif ctype == p.CallbackType.DEFERRED_CHANNEL_MESSAGE:
            flags = (int(data.get("flags") or 0) & p.MessageFlag.EPHEMERAL) | p.MessageFlag.LOADING
            stored = self._store_message(rec.channel_id, {}, [], rec=rec, force_flags=flags)
            rec.original_message_id = int(stored["id"])
            message_obj = public_message(stored)
            loading = True
        elif ctype in (p.CallbackType.DEFERRED_UPDATE_MESSAGE, p.CallbackType.UPDATE_MESSAGE):
            if rec.message_id is None or rec.message_id not in self.messages:
                raise _DiscordError(404, 10008, "Unknown Message")
            rec.original_message_id = rec.message_id
            if ctype == p.CallbackType.UPDATE_MESSAGE:
                stored = self._edit_stored(self.messages[rec.message_id], data, uploads)
                message_obj = public_message(stored)
        elif ctype == p.CallbackType.AUTOCOMPLETE_RESULT:
            rec.choices = list(data.get("choices") or [])
        elif ctype == p.CallbackType.MODAL:
            rec.modal = data
        rec.callback = req
        rec.callback_at = time.monotonic()
        ephemeral = bool(message_obj and message_obj["flags"] & p.MessageFlag.EPHEMERAL)
        return 200, p.callback_response(
            rec.id, rec.type, ctype, message_obj=message_obj, loading=loading, ephemeral=ephemeral
        )

    async def _r_followup(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        rec = self._rec_for_token(m["app"], m["token"])
        if rec.callback is None:
            raise _DiscordError(404, 10015, "Unknown Webhook")
        body = req.json or {}
        original = rec.message
        if (
            rec.callback_type == p.CallbackType.DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original["flags"] & p.MessageFlag.LOADING
        ):
            # Discord: the first followup after a type 5 defer edits the "thinking" message,
            # keeping the ephemeral state chosen when deferring.
            stored = self._edit_stored(original, {k: v for k, v in body.items() if k != "flags"}, uploads)
        else:
            stored = self._store_message(rec.channel_id, body, uploads, rec=rec)
        rec.followup_ids.append(int(stored["id"]))
        if req.query.get("wait", "false").lower() not in ("true", "1"):
            return 204, None
        return 200, public_message(stored)

    async def _r_webhook_get(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        rec = self._rec_for_token(m["app"], m["token"])
        return 200, public_message(self._webhook_message(rec, m["mid"]))

    async def _r_webhook_edit(self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]) -> tuple[int, Any]:
        rec = self._rec_for_token(m["app"], m["token"])
        stored = self._webhook_message(rec, m["mid"])
        self._edit_stored(stored, req.json or {}, uploads)
        if m["mid"] == "@original" or int(m["mid"]) == rec.original_message_id:
            rec.edits.append(req)
        return 200, public_message(stored)

    async def _r_webhook_delete(
        self, req: RecordedRequest, uploads: list[Upload], m: dict[str, str]
    ) -> tuple[int, Any]:
        rec = self._rec_for_token(m["app"], m["token"])
        stored = self._webhook_message(rec, m["mid"])
        self._delete_stored(int(stored["id"]))
        return 204, None
