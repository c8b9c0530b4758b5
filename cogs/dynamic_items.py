"""Every persistent item of the bot (``discord.ui.DynamicItem``): registered once at start, so that a button of a
message posted before a restart still answers."""

from __future__ import annotations

from cogs.components import ActionButton, ActionSelect, MineButton, UndoButton
from cogs.table_buttons import EndVoteButton, LobbyButton, LogButton, OfferButton, SkipButton

DYNAMIC_ITEMS = (
    ActionButton,
    ActionSelect,
    MineButton,
    UndoButton,
    LobbyButton,
    OfferButton,
    EndVoteButton,
    SkipButton,
    LogButton,
)


def known_custom_id(custom_id: str) -> bool:
    """Whether one of the bot's persistent items answers this custom id (else the click gets a polite no)."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS)
