"""The replay's buttons (issue 26): ⏮ ◀ ▶ ⏭ and the menu of rounds, persistent (custom ids ``rp|game|step|k``
and ``rs|game``), handed to the Replay cog (``cogs.replay``) when clicked."""

from __future__ import annotations

import re

import discord

from cogs.components import NUM, SMALL
from cogs.errors import guarded
from engine.msg import M, Msg
from service.replay import ReplayStep
from words import words


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"rp\|(?P<gid>{NUM})\|(?P<step>{SMALL})\|(?P<k>[0-3])"
):
    """One of ⏮ ◀ ▶ ⏭: the replay at ``step``."""

    SIGNS = ("⏮", "◀", "▶", "⏭")

    def __init__(self, gid: int, step: int, k: int, disabled: bool = False) -> None:
        self.gid, self.step = gid, step
        button = discord.ui.Button(
            label=self.SIGNS[k],
            style=discord.ButtonStyle.secondary,
            custom_id=f"rp|{gid}|{step}|{k}",
            disabled=disabled,
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ReplayButton:
        """Rebuild from a click."""
        return cls(int(match["gid"]), int(match["step"]), int(match["k"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Show that step in the same message."""
        await interaction.client.get_cog("Replay").on_step(interaction, self.gid, self.step)  # type: ignore[attr-defined]


class ReplaySelect(discord.ui.DynamicItem[discord.ui.Select], template=rf"rs\|(?P<gid>{NUM})"):
    """The menu of points to jump to (each round's first step, and each Act's)."""

    def __init__(self, gid: int, options: list[discord.SelectOption] | None = None, placeholder: str = "") -> None:
        self.gid = gid
        select = discord.ui.Select(
            custom_id=f"rs|{gid}",
            options=options or [discord.SelectOption(label="0", value="0")],
            placeholder=placeholder,
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> ReplaySelect:
        """Rebuild from a choice."""
        return cls(int(match["gid"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Jump to the chosen step."""
        values = (interaction.data or {}).get("values") or ["0"]  # type: ignore[union-attr]
        step = int(values[0]) if str(values[0]).isdigit() else 0
        await interaction.client.get_cog("Replay").on_step(interaction, self.gid, step)  # type: ignore[attr-defined]


def point_label(act: int | None, rnd: int | None, step: int) -> Msg:
    """A jump point's name in the menu."""
    if act is not None and rnd is not None:
        return M("table.replay.point_act", "Act {act} · round {round} (step {step})", act=act, round=rnd, step=step)
    if rnd is not None:
        return M("table.replay.point_round", "Round {round} (step {step})", round=rnd, step=step)
    return M("table.replay.point", "Step {step}", step=step)


def replay_view(r: ReplayStep, lang: str) -> discord.ui.View:
    """The buttons and the menu of a step."""
    w = words(lang)
    view = discord.ui.View(timeout=None)
    targets = (0, max(0, r.step - 1), min(r.last, r.step + 1), r.last)
    for k, target in enumerate(targets):
        view.add_item(ReplayButton(r.table.id, target, k, disabled=target == r.step))
    options = [
        discord.SelectOption(
            label=w(point_label(p.act, p.round, p.step))[:100], value=str(p.step), default=p.step == r.step
        )
        for p in r.points
    ]
    if options:
        view.add_item(ReplaySelect(r.table.id, options, w(M("table.replay.jump", "Jump to a round"))))
    return view


class ReplayOpen(discord.ui.DynamicItem[discord.ui.Button], template=rf"ro\|(?P<gid>{NUM})"):
    """**Replay** on a finished game's final message: the clicker's own replay, from the deal."""

    def __init__(self, gid: int, lang: str | None = None) -> None:
        self.gid = gid
        label = words(lang)(M("table.button.replay", "Replay"))
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=f"ro|{gid}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ReplayOpen:
        """Rebuild from a click."""
        return cls(int(match["gid"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """A private replay for the clicker, at the board dealt."""
        await interaction.client.get_cog("Replay").show(interaction, self.gid, 0, False)  # type: ignore[attr-defined]
