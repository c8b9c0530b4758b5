"""Telling the channel and the players what the store says happened: the board message, pictures, private lines
(by DM, or a private thread when DMs are closed), seat offers and safe screens.

Nothing here is told from memory: ``deliver`` reads what is still missing from the store (the events after the
last one the board shows, the outbox) and posts it, so a restart or a Discord failure only delays it. New
messages carry a nonce that Discord enforces, so a message sent just before a crash is not sent twice.

The package: :mod:`.publisher` (``Publisher``: delivering, retries, the outbox), :mod:`.story` (the board
messages in the table's channel), :mod:`.private` (safe screens, DMs, private threads) and :mod:`.common`
(mentions, nonces, the words of stored lines). Every name other code uses is importable from here.
"""

from cogs.board import clip_message
from cogs.publish.common import ARCHIVED, DELIVER_WAIT_S, TRANSIENT, mentions, message_nonce, private_lines, said_in
from cogs.publish.publisher import Publisher

__all__ = [
    "ARCHIVED",
    "DELIVER_WAIT_S",
    "TRANSIENT",
    "Publisher",
    "clip_message",
    "mentions",
    "message_nonce",
    "private_lines",
    "said_in",
]
