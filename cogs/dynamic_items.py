"""Every persistent item of the bot (``discord.ui.DynamicItem``): registered once at start, so that a button of a
message posted before a restart still answers."""

from __future__ import annotations

import discord

from cogs.components import ActionButton, ActionSelect, MineButton, StepBack, StepSelect, UndoButton
from cogs.replay_buttons import ReplayButton, ReplayOpen, ReplaySelect
from cogs.table_buttons import EndVoteButton, LobbyButton, LogButton, OfferButton, RematchButton, SkipButton

DYNAMIC_ITEMS = (
    ActionButton,
    ActionSelect,
    MineButton,
    UndoButton,
    StepSelect,
    StepBack,
    LobbyButton,
    OfferButton,
    EndVoteButton,
    SkipButton,
    LogButton,
    RematchButton,
    ReplayButton,
    ReplaySelect,
    ReplayOpen,
)


def known_custom_id(custom_id: str) -> bool:
    """Whether one of the bot's persistent items answers this custom id (else the click gets a polite no)."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS)


def forget(view: discord.ui.View | None) -> None:
    """Let discord.py forget a view once its ephemeral reply is sent (issue 22: memory).

    discord.py keeps the view of an ephemeral reply for 15 minutes (the life of its token), so that its items can
    answer. Ours answer as registered ``DynamicItem`` classes, by their custom id, without the view; kept, those
    views were the part of the bot's memory that grew with the rate of clicks (the memory bench's deep traces).
    A view with any other interactive item is left alone: it would need the store to answer."""
    if view is None:
        return
    if all(isinstance(item, discord.ui.DynamicItem) or not item.is_dispatchable() for item in view.walk_children()):
        view.stop()  # cancels its 15-minute timer and drops it from the store; the items keep answering
