"""The table's persistent buttons beside the moves (issue 22's consent, issue 23's vote): the lobby's, a seat
offer's, the vote to end a game, the host's skip confirmation and the log's pages. Each custom id names its
game, so a click after a restart still finds it (``cogs/components.py`` has the moves' own components).

* ``lb|game|action``: the lobby's join / leave / start / abandon / addbot buttons.
* ``of|game|seat|action``: a seat offer's take / give / keep.
* ``ev|game|opened|action``: agree to or refuse the vote to end a game by agreement proposed at ``opened``.
* ``sk|game|version|seat``: the host's confirmation of a skip.
* ``lg|game|page``: a page of the log.
"""

from __future__ import annotations

import re

import discord

from cogs.components import LABEL_MAX, NUM, SMALL, _clip
from cogs.errors import guarded
from cogs.replay_buttons import ReplayOpen
from engine.msg import M
from words import words


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"lb\|(?P<gid>{NUM})\|(?P<action>[a-z]+)"):
    """Join, leave, start or abandon a lobby."""

    LABELS = {
        "join": (M("table.button.join", "Join"), discord.ButtonStyle.success),
        "leave": (M("table.button.leave", "Leave"), discord.ButtonStyle.secondary),
        "start": (M("table.button.start", "Start the game"), discord.ButtonStyle.primary),
        "abandon": (M("table.button.abandon", "Abandon"), discord.ButtonStyle.danger),
        "addbot": (M("table.button.addbot", "Add a bot (standard)"), discord.ButtonStyle.secondary),
    }

    def __init__(self, gid: int, action: str, lang: str | None = None) -> None:
        self.gid, self.action = gid, action
        label, style = self.LABELS.get(action, (action, discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=words(lang)(label), style=style, custom_id=f"lb|{gid}|{action}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> LobbyButton:
        """Rebuild from a click."""
        return cls(int(match["gid"]), match["action"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand to the Lobby cog."""
        await interaction.client.get_cog("Lobby").on_lobby_button(interaction, self.gid, self.action)  # type: ignore[attr-defined]


class OfferButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"of\|(?P<gid>{NUM})\|(?P<seat>{SMALL})\|(?P<action>take|give|keep)",
):
    """A seat offer (the host's substitution): the invited player takes the seat, its player gives it up (both
    are needed, in either order) or keeps it."""

    LABELS = {
        "take": (M("table.button.take_seat", "Take the seat"), discord.ButtonStyle.success),
        "give": (M("table.button.give_seat", "Give up my seat"), discord.ButtonStyle.secondary),
        "keep": (M("table.button.keep_seat", "Keep my seat"), discord.ButtonStyle.secondary),
    }

    def __init__(self, gid: int, seat: int, action: str, lang: str | None = None) -> None:
        self.gid, self.seat, self.action = gid, seat, action
        label, style = self.LABELS[action]
        button = discord.ui.Button(label=words(lang)(label), style=style, custom_id=f"of|{gid}|{seat}|{action}")
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> OfferButton:
        """Rebuild from a click."""
        return cls(int(match["gid"]), int(match["seat"]), match["action"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand to the Lobby cog."""
        await interaction.client.get_cog("Lobby").on_offer(interaction, self.gid, self.seat, self.action)  # type: ignore[attr-defined]


class EndVoteButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"ev\|(?P<gid>{NUM})\|(?P<opened>{NUM})\|(?P<action>agree|refuse)",
):
    """A vote to end a game by agreement (issue 23): a player agrees or refuses. ``opened`` names the vote (the
    second it was proposed), so a button of a vote that is over answers so instead of joining a newer one."""

    LABELS = {
        "agree": (M("table.button.end_agree", "Agree"), discord.ButtonStyle.success),
        "refuse": (M("table.button.end_refuse", "Refuse"), discord.ButtonStyle.danger),
    }

    def __init__(self, gid: int, opened: int, action: str, lang: str | None = None) -> None:
        self.gid, self.opened, self.action = gid, opened, action
        label, style = self.LABELS[action]
        button = discord.ui.Button(label=words(lang)(label), style=style, custom_id=f"ev|{gid}|{opened}|{action}")
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> EndVoteButton:
        """Rebuild from a click (also after a restart)."""
        return cls(int(match["gid"]), int(match["opened"]), match["action"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand to the Lobby cog."""
        await interaction.client.get_cog("Lobby").on_end_vote(interaction, self.gid, self.opened, self.action)  # type: ignore[attr-defined]


class SkipButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"sk\|(?P<gid>{NUM})\|(?P<version>{NUM})\|(?P<seat>{SMALL})",
):
    """The host's confirmed skip of the turn of the player waited for at ``version``."""

    def __init__(self, gid: int, version: int, seat: int, name: str = "", lang: str | None = None) -> None:
        self.gid, self.version, self.seat = gid, version, seat
        w = words(lang)
        text = (
            M("table.button.skip", "Skip {name}'s turn", name=name)
            if name
            else M("table.button.skip_turn", "Skip the turn")
        )
        label = _clip(w(text), LABEL_MAX)
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=f"sk|{gid}|{version}|{seat}")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> SkipButton:
        """Rebuild from a click."""
        return cls(int(match["gid"]), int(match["version"]), int(match["seat"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand to the Lobby cog."""
        await interaction.client.get_cog("Lobby").on_skip(interaction, self.gid, self.version, self.seat)  # type: ignore[attr-defined]


class LogButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"lg\|(?P<gid>{NUM})\|(?P<page>{SMALL})"):
    """Another page of ``/game log`` (in the same ephemeral message)."""

    def __init__(self, gid: int, page: int, label: str = "Page") -> None:
        self.gid, self.page = gid, page
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=f"lg|{gid}|{page}")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> LogButton:
        """Rebuild from a click."""
        return cls(int(match["gid"]), int(match["page"]), item.label or "Page")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand to the Lobby cog."""
        await interaction.client.get_cog("Lobby").on_log_page(interaction, self.gid, self.page)  # type: ignore[attr-defined]


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"rm\|(?P<gid>{NUM})"):
    """**Rematch** on a finished game's final message (issue 26): the same game and options, the same players."""

    def __init__(self, gid: int, lang: str | None = None) -> None:
        self.gid = gid
        label = words(lang)(M("table.button.rematch", "Rematch"))
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success, custom_id=f"rm|{gid}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> RematchButton:
        """Rebuild from a click."""
        return cls(int(match["gid"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand to the Lobby cog."""
        await interaction.client.get_cog("Lobby").on_rematch(interaction, self.gid)  # type: ignore[attr-defined]


def final_view(gid: int, lang: str | None = None) -> discord.ui.View:
    """The final message's buttons: Rematch and Replay (issue 26)."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(gid, lang))
    view.add_item(ReplayOpen(gid, lang))
    return view


def lobby_view(gid: int, lang: str | None = None) -> discord.ui.View:
    """The lobby's buttons (in the table's language)."""
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start", "abandon", "addbot"):
        view.add_item(LobbyButton(gid, action, lang))
    return view
