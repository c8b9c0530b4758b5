"""A loopback fake of Discord (REST API v10 + gateway) for running the real bot offline.

The unpatched discord.py client talks to :class:`FakeDiscordServer` over real sockets on
127.0.0.1 once :func:`point_discord_at` has redirected ``Route.BASE`` and
``DiscordWebSocket.DEFAULT_GATEWAY``.  Tests drive it as users would: ``slash``, ``click``,
``submit_modal`` and ``autocomplete`` dispatch INTERACTION_CREATE over the gateway and
wait for the bot's callback.  Every REST request is recorded, every message the bot
creates is kept (so clicks carry the same message id), and faults can be injected.

The package, by concern: :mod:`.core` (``FakeDiscordServer``: state and lifecycle, combining the mixins),
:mod:`.guilds` (users, members, guilds, DMs), :mod:`.channels` (channels, threads), :mod:`.messages` (stored
messages, attachments, limits), :mod:`.interactions` (slash, click, modal, autocomplete), :mod:`.commands`
(synced commands, option building and validation), :mod:`.callbacks` (the bot's answers and webhooks),
:mod:`.gateway` (sessions, shards, dispatches), :mod:`.faults` (injected failures), :mod:`.waiting` (waits,
request lookups, the bot's health), :mod:`.rest` (routing), :mod:`.records` (what is recorded),
:mod:`.errors` and :mod:`.redirect` (``point_discord_at``). Every name is importable from here.
"""

from .commands import _localization_problems
from .core import FakeDiscordServer
from .errors import BotCrashed, BotLoggedError, FakeDiscordError, FakeDiscordTimeout
from .faults import Fault
from .gateway import GatewaySession
from .records import (
    HARNESS_KEYS,
    JSON,
    InteractionRecord,
    RecordedRequest,
    Upload,
    UserRef,
    custom_ids,
    find_component,
    public_message,
)
from .redirect import point_discord_at

__all__ = [
    "HARNESS_KEYS",
    "JSON",
    "BotCrashed",
    "BotLoggedError",
    "FakeDiscordError",
    "FakeDiscordServer",
    "FakeDiscordTimeout",
    "Fault",
    "GatewaySession",
    "InteractionRecord",
    "RecordedRequest",
    "Upload",
    "UserRef",
    "_localization_problems",
    "custom_ids",
    "find_component",
    "point_discord_at",
    "public_message",
]
