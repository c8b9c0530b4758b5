"""What the fake records: REST requests, their uploaded files, interactions and what the bot did with them;
and the helpers that read stored messages (component trees, the public view of a message)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import payloads as p

if TYPE_CHECKING:
    from .core import FakeDiscordServer


JSON = dict[str, Any]
UserRef = Mapping[str, Any] | int | str

#: Keys the harness adds to stored messages; stripped before anything is sent to the bot.
HARNESS_KEYS = ("ephemeral", "files", "interaction_id", "interaction_user")


@dataclass
class RecordedRequest:
    """One REST request the bot made (``path`` is relative to ``/api/v10``)."""

    method: str
    path: str
    json: Any
    files: dict[str, bytes]
    query: dict[str, str]
    headers: dict[str, str] = field(repr=False)
    index: int = 0
    status: int = 0
    response: Any = field(default=None, repr=False)
    handled: bool = True
    #: when it arrived, by the server's ``clock`` (the wall clock unless a test set its own)
    at: float = 0.0


@dataclass
class Upload:
    """One file part of a multipart request (``index`` is n of ``files[n]``)."""

    index: int
    filename: str
    content_type: str | None
    data: bytes


def find_component(components: Iterable[Mapping[str, Any]], custom_id: str) -> JSON | None:
    """Find a component by ``custom_id`` in a (possibly nested) component tree."""
    for comp in components:
        if comp.get("custom_id") == custom_id:
            return dict(comp)
        children: list[Mapping[str, Any]] = list(comp.get("components", []) or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), Mapping):
                children.append(comp[key])
        found = find_component(children, custom_id)
        if found is not None:
            return found
    return None


def custom_ids(components: Iterable[Mapping[str, Any]]) -> list[str]:
    """All ``custom_id`` values in a component tree, depth first."""
    out: list[str] = []
    for comp in components:
        if "custom_id" in comp:
            out.append(comp["custom_id"])
        children: list[Mapping[str, Any]] = list(comp.get("components", []) or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), Mapping):
                children.append(comp[key])
        out.extend(custom_ids(children))
    return out


def public_message(stored: Mapping[str, Any]) -> JSON:
    """A stored message without the harness-only keys: what Discord would send."""
    return {k: v for k, v in stored.items() if k not in HARNESS_KEYS}


@dataclass(eq=False)
class InteractionRecord:
    """An interaction the test sent, and everything the bot did with it.

    ``message`` is the *current* state of the interaction's original response message
    (the clicked message for callback types 6/7), so edits made later are visible.
    """

    server: FakeDiscordServer = field(repr=False)
    id: int
    token: str
    type: int
    user: JSON = field(repr=False)
    channel_id: int
    guild_id: int | None
    payload: JSON = field(repr=False)
    message_id: int | None = None
    callback: RecordedRequest | None = None
    callback_at: float | None = field(default=None, repr=False)
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    edits: list[RecordedRequest] = field(default_factory=list, repr=False)
    choices: list[JSON] | None = None
    modal: JSON | None = field(default=None, repr=False)
    dispatched_at: float = field(default_factory=time.monotonic, repr=False)

    @property
    def callback_type(self) -> int | None:
        """The callback type the bot answered with (4, 5, 6, 7, 8 or 9), or None."""
        return None if self.callback is None else int((self.callback.json or {}).get("type", 0))

    @property
    def callback_data(self) -> JSON:
        """The ``data`` of the callback body (empty for defers)."""
        if self.callback is None:
            return {}
        return dict((self.callback.json or {}).get("data") or {})

    @property
    def timestamp_ms(self) -> int:
        """Unix milliseconds encoded in the interaction id."""
        return p.snowflake_ms(self.id)

    @property
    def message(self) -> JSON | None:
        """Current original response message (harness keys included), or None."""
        if self.original_message_id is None:
            return None
        return self.server.messages.get(self.original_message_id)

    @property
    def content(self) -> str | None:
        """Content of :attr:`message`."""
        msg = self.message
        return None if msg is None else msg["content"]

    @property
    def embeds(self) -> list[JSON]:
        """Embeds of :attr:`message` (empty when there is none)."""
        msg = self.message
        return [] if msg is None else list(msg["embeds"])

    @property
    def components(self) -> list[JSON]:
        """Components of :attr:`message` (empty when there is none)."""
        msg = self.message
        return [] if msg is None else list(msg["components"])

    @property
    def files(self) -> dict[str, bytes]:
        """Attachment bytes of :attr:`message` by filename."""
        msg = self.message
        return {} if msg is None else dict(msg["files"])

    @property
    def ephemeral(self) -> bool:
        """Whether the original response is ephemeral."""
        msg = self.message
        return bool(msg and msg["ephemeral"])

    @property
    def followups(self) -> list[JSON]:
        """Followup messages in order (current state; deleted ones are left out).

        After a type 5 defer the first followup *is* the original response (Discord edits
        the "thinking" message), so it appears both here and as :attr:`message`.
        """
        return [self.server.messages[i] for i in self.followup_ids if i in self.server.messages]

    async def wait_callback(self, timeout: float | None = None) -> InteractionRecord:
        """Wait until the bot has answered the interaction callback; return self."""
        await self.server.wait_until(
            lambda: self.callback is not None, timeout, what=f"the callback for interaction {self.id}"
        )
        return self

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> list[JSON]:
        """Wait until at least ``count`` followups were sent; return all followups."""
        await self.server.wait_until(
            lambda: len(self.followup_ids) >= count, timeout, what=f"{count} followup(s) to {self.id}"
        )
        return self.followups

    async def wait_edits(self, count: int = 1, timeout: float | None = None) -> JSON | None:
        """Wait until the original response was edited ``count`` times (PATCH @original)."""
        await self.server.wait_until(
            lambda: len(self.edits) >= count, timeout, what=f"{count} edit(s) of {self.id}'s response"
        )
        return self.message
