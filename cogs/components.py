"""Discord components built from engine prompts, generically, and the persistent items that carry them (the
table's other buttons: ``cogs/table_buttons.py``; all of them: ``cogs/dynamic_items.py``).

Every custom id names the game and the state version it was made for, so a click after a restart still
finds its game, and a click on an outdated board is refused politely (the service checks the version).

* ``pl|game|version|kind|option|flag``: one option of a prompt (flag ``!`` = confirmed risky step).
* ``ps|game|version|kind|page``: a select menu of options (more than fit as buttons).
* ``pm|game|version``: "My options", the clicker's own questions, privately.
* ``un|game|version``: "Undo", take back the clicker's own last step of this turn.
* ``pt|game|version|kind``: the first step of a question asked in two steps (``Prompt.steps``): which part.
* ``pk|game|version|kind``: back from the second step to the first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
import msgspec

from cogs.board import buttons_for
from cogs.errors import guarded
from engine.core import TABLE, Option, Prompt, PublicPrompt
from engine.msg import M
from words import Words, words

if TYPE_CHECKING:
    from service import PublicTable

#: Discord's limits.
MAX_BUTTONS = 25
ROW_SIZE = 5
MAX_SELECT = 25
LABEL_MAX = 80
DESCRIPTION_MAX = 100
#: The page number of the menu of plans (a group decided at once), apart from the option pages
PLAN_PAGE = 99
#: A number in a custom id: a game id or a version has at most 19 digits (every id is below 2^63), a seat or a
#: page at most 6; an id with a longer number is no button of the bot's (answered "no longer valid", never
#: handed on: a 40-digit number would overflow the database's integers)
NUM = r"\d{1,19}"
SMALL = r"\d{1,6}"

_STYLES = {
    "primary": discord.ButtonStyle.success,
    "secondary": discord.ButtonStyle.secondary,
    "danger": discord.ButtonStyle.danger,
}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _handler(interaction: discord.Interaction) -> Any:
    return interaction.client.get_cog("Play")  # type: ignore[attr-defined]


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"pl\|(?P<gid>{NUM})\|(?P<version>{NUM})\|(?P<kind>[^|]+)\|(?P<option>[^|]+)\|(?P<flag>!?)",
):
    """One option of a prompt."""

    def __init__(
        self, gid: int, version: int, kind: str, option: Option | str, flag: str = "", lang: str | None = None
    ) -> None:
        opt = option if isinstance(option, Option) else Option(option, option)
        self.gid, self.version, self.kind, self.option, self.flag = gid, version, kind, opt.id, flag
        style = _STYLES.get(opt.style, discord.ButtonStyle.secondary)
        super().__init__(
            discord.ui.Button(
                label=_clip(words(lang).field(opt, "label"), LABEL_MAX),
                style=style,
                custom_id=f"pl|{gid}|{version}|{kind}|{opt.id}|{flag}",
            )
        )
        self.risky = opt.style == "danger"
        self.from_select = False

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ActionButton:
        """Rebuild from a click (also after a restart)."""
        style = "danger" if item.style == discord.ButtonStyle.danger else "secondary"
        opt = Option(match["option"], item.label or match["option"], style=style)
        return cls(int(match["gid"]), int(match["version"]), match["kind"], opt, match["flag"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the Play cog."""
        await _handler(interaction).on_action(interaction, self)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"ps\|(?P<gid>{NUM})\|(?P<version>{NUM})\|(?P<kind>[^|]+)\|(?P<page>{SMALL})",
):
    """A page of options as a select menu."""

    def __init__(
        self,
        gid: int,
        version: int,
        kind: str,
        page: int,
        options: list[Option] | None = None,
        placeholder: str = "",
        lang: str | None = None,
    ) -> None:
        self.gid, self.version, self.kind = gid, version, kind
        w = words(lang)
        choices = [
            discord.SelectOption(
                label=_clip(w.field(o, "label"), 100),
                value=o.id,
                description=_clip(w.field(o, "detail"), DESCRIPTION_MAX) or None,
            )
            for o in (options or [])
        ] or [discord.SelectOption(label="-", value="-")]
        first = w.field(options[0], "label") if options else ""
        last = w.field(options[-1], "label") if options else ""
        if not placeholder and len(choices) > 1:
            placeholder = w(M("table.menu.choose_span", "Choose… ({first} – {last})", first=first, last=last))
        placeholder = _clip(placeholder or w(M("table.menu.choose", "Choose…")), 150)
        super().__init__(
            discord.ui.Select(custom_id=f"ps|{gid}|{version}|{kind}|{page}", options=choices, placeholder=placeholder)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> ActionSelect:
        """Rebuild from a click."""
        return cls(int(match["gid"]), int(match["version"]), match["kind"], int(match["page"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen value to the Play cog as an action."""
        values = interaction.data.get("values", []) if interaction.data else []  # type: ignore[union-attr]
        chosen = ActionButton(self.gid, self.version, self.kind, str(values[0]) if values else "-")
        chosen.from_select = True  # the Play cog looks up whether the chosen option is risky
        await _handler(interaction).on_action(interaction, chosen)


class StepSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"pt\|(?P<gid>{NUM})\|(?P<version>{NUM})\|(?P<kind>[^|]+)",
):
    """The first step of a question asked in two steps (``Prompt.steps``): choosing a part answers nothing, it
    shows that part's options in its place."""

    def __init__(
        self,
        gid: int,
        version: int,
        kind: str,
        steps: Sequence[Option] = (),
        placeholder: str = "",
        lang: str | None = None,
    ) -> None:
        self.gid, self.version, self.kind = gid, version, kind
        w = words(lang)
        choices = [
            discord.SelectOption(
                label=_clip(w.field(s, "label"), 100),
                value=s.id,
                description=_clip(w.field(s, "detail"), DESCRIPTION_MAX) or None,
            )
            for s in steps[:MAX_SELECT]
        ] or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"pt|{gid}|{version}|{kind}",
                options=choices,
                placeholder=_clip(placeholder or w(M("table.menu.choose", "Choose…")), 150),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> StepSelect:
        """Rebuild from a click."""
        return cls(int(match["gid"]), int(match["version"]), match["kind"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen part to the Play cog, which shows its options."""
        values = interaction.data.get("values", []) if interaction.data else []  # type: ignore[union-attr]
        await _handler(interaction).on_step(interaction, self.gid, self.kind, str(values[0]) if values else "-")


class StepBack(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"pk\|(?P<gid>{NUM})\|(?P<version>{NUM})\|(?P<kind>[^|]+)",
):
    """Back from a two-step question's second step to its first (nothing was answered)."""

    def __init__(self, gid: int, version: int, kind: str, lang: str | None = None) -> None:
        self.gid, self.version, self.kind = gid, version, kind
        label = words(lang)(M("table.button.step_back", "Back"))
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=f"pk|{gid}|{version}|{kind}")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> StepBack:
        """Rebuild from a click."""
        return cls(int(match["gid"]), int(match["version"]), match["kind"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand to the Play cog, which shows the first step again."""
        await _handler(interaction).on_step(interaction, self.gid, self.kind, None)


class MineButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"pm\|(?P<gid>{NUM})\|(?P<version>{NUM})"):
    """Shows the clicker their own questions and private note, ephemerally."""

    def __init__(self, gid: int, version: int, lang: str | None = None) -> None:
        self.gid, self.version = gid, version
        label = words(lang)(M("table.button.options", "My options"))
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=f"pm|{gid}|{version}")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> MineButton:
        """Rebuild from a click."""
        return cls(int(match["gid"]), int(match["version"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand to the Play cog."""
        await _handler(interaction).on_mine(interaction, self.gid)


class UndoButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"un\|(?P<gid>{NUM})\|(?P<version>{NUM})"):
    """Takes back the clicker's own last step of the current turn (the service says when it cannot)."""

    def __init__(self, gid: int, version: int, lang: str | None = None) -> None:
        self.gid, self.version = gid, version
        label = words(lang)(M("table.button.undo", "Undo my last step"))
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=f"un|{gid}|{version}")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> UndoButton:
        """Rebuild from a click."""
        return cls(int(match["gid"]), int(match["version"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the Play cog."""
        await _handler(interaction).on_undo(interaction, self.gid, self.version)


def _merge(prompts: list[Prompt] | list[PublicPrompt]) -> dict[str, list[Option]]:
    """Options by prompt kind, each option once (every seat of a race snaps with "its own slot 3")."""
    out: dict[str, list[Option]] = {}
    for p in prompts:
        seen = {o.id for o in out.setdefault(p.kind, [])}
        out[p.kind] += [o for o in p.options if o.id not in seen]
    return out


def prompt_view(
    gid: int,
    version: int,
    prompts: list[Prompt] | list[PublicPrompt],
    *,
    mine_button: bool,
    undo_button: bool = False,
    plans: tuple[str, list[Option], str] | None = None,
    lang: str | None = None,
    opened: dict[str, str] | None = None,
) -> discord.ui.View | None:
    """Buttons (or select menus when there are many options) for these prompts of game ``gid`` at
    ``version``, within Discord's limits, in ``lang``. ``plans``: a question kind, the plans that answer its
    whole group at once and the menu's placeholder, shown first as one menu. A question asked in two steps
    (``Prompt.steps``) shows its first step, or, for a kind in ``opened``, the options of the step opened there."""
    w = words(lang)
    view = discord.ui.View(timeout=None)
    rows_left = 5 - (1 if mine_button else 0)
    row = 0
    if plans is not None and plans[1]:
        kind, options, placeholder = plans
        menu = ActionSelect(gid, version, kind, PLAN_PAGE, options[:MAX_SELECT], placeholder, lang)
        menu.item.row = row
        view.add_item(menu)
        row += 1
    for kind, options in _merge([p for p in prompts if p.seat != TABLE]).items():
        if row >= rows_left:
            break
        stepped = next((p for p in prompts if isinstance(p, Prompt) and p.kind == kind and len(p.steps) > 1), None)
        if stepped is not None:
            row = _steps(view, gid, version, stepped, (opened or {}).get(kind), row, rows_left, w)
            continue
        options = expected_step(options)
        # answers impossible now, shown greyed out with why (style guide: it teaches the rules)
        grey = [o for p in prompts if isinstance(p, Prompt) and p.kind == kind for o in p.unavailable]
        if buttons_for(options + grey) and len(options) + len(grey) <= ROW_SIZE * (rows_left - row):
            row = _buttons(view, gid, version, kind, options, row, grey, w)
            continue
        if buttons_for(options) and len(options) <= ROW_SIZE * (rows_left - row):
            row = _buttons(view, gid, version, kind, options, row, w=w)
            continue
        loose = [o for o in options if not o.section]
        menus = menu_pages([o for o in options if o.section], w) if loose != options else []
        if not menus or len(loose) > ROW_SIZE or len(menus) + (1 if loose else 0) > rows_left - row:
            menus, loose = [(o_page, "") for o_page in _pages(options)], []
        for page, (chunk, placeholder) in enumerate(menus):
            if row >= rows_left:
                break
            select = ActionSelect(gid, version, kind, page, chunk, placeholder, lang)
            select.item.row = row
            view.add_item(select)
            row += 1
        if loose and row < rows_left:
            row = _buttons(view, gid, version, kind, loose, row, w=w)
    if mine_button:
        mine = MineButton(gid, version, lang)
        mine.item.row = 4
        view.add_item(mine)
    if undo_button:
        undo = UndoButton(gid, version, lang)
        undo.item.row = 4
        view.add_item(undo)
    return view if view.children else None


class GreyButton(discord.ui.Button):
    """An answer impossible now, shown disabled with why: nothing to dispatch (it cannot be pressed).

    Not dispatchable on purpose: a view holding a dispatchable item that is no ``DynamicItem`` is kept by
    discord.py per message, and a later view stopped at the same message (an ephemeral reply edited into the
    next question, issue 24) would then unregister the ``DynamicItem`` classes it holds for the whole bot."""

    def __init__(self, label: str, custom_id: str, row: int) -> None:
        super().__init__(label=label, disabled=True, custom_id=custom_id, row=row)

    def is_dispatchable(self) -> bool:
        """Never: a disabled button sends no click."""
        return False


def _buttons(
    view: discord.ui.View,
    gid: int,
    version: int,
    kind: str,
    options: list[Option],
    row: int,
    grey: Sequence[Option] = (),
    w: Words | None = None,
) -> int:
    """Add the options as buttons from ``row``, then the ``grey`` ones disabled with their reason; the next free
    row."""
    w = w or words()
    for i, opt in enumerate(options):
        button = ActionButton(gid, version, kind, opt, lang=w.lang)
        button.item.row = row + i // ROW_SIZE
        view.add_item(button)
    for j, opt in enumerate(grey, len(options)):
        label = _clip(f"{w.field(opt, 'label')} ({w.field(opt, 'disabled')})", LABEL_MAX)
        view.add_item(GreyButton(label, f"gr|{gid}|{version}|{kind}|{j}", row + j // ROW_SIZE))
    count = len(options) + len(grey)
    return row + (count + ROW_SIZE - 1) // ROW_SIZE


def _steps(
    view: discord.ui.View, gid: int, version: int, prompt: Prompt, step: str | None, row: int, rows_left: int, w: Words
) -> int:
    """A two-step question from ``row``: its first step as one menu, or (``step`` opened) that step's options as
    a menu with a "Back" button under it; the next free row."""
    chosen = next((s for s in prompt.steps if s.id == step), None)
    options = prompt.step_options(step) if chosen is not None else []
    if chosen is None or not options or row + 2 > rows_left:
        first, last = (w.field(s, "label") for s in (prompt.steps[0], prompt.steps[-1]))
        span = w(M("table.menu.choose_span", "Choose… ({first} – {last})", first=first, last=last))
        menu = StepSelect(gid, version, prompt.kind, prompt.steps, span, w.lang)
        menu.item.row = row
        view.add_item(menu)
        return row + 1
    placeholder = w(M("table.menu.step_second", "{part}: choose…", part=w.field(chosen, "label")))
    for page, chunk in enumerate(_pages(options)[: rows_left - row - 1]):
        select = ActionSelect(gid, version, prompt.kind, page, chunk, placeholder, w.lang)
        select.item.row = row
        view.add_item(select)
        row += 1
    back = StepBack(gid, version, prompt.kind, w.lang)
    back.item.row = row
    view.add_item(back)
    return row + 1


def _pages(options: list[Option]) -> list[list[Option]]:
    return [options[i : i + MAX_SELECT] for i in range(0, len(options), MAX_SELECT)]


def menu_pages(options: list[Option], w: Words | None = None) -> list[tuple[list[Option], str]]:
    """Select menus split by the options' sections (the style guide: by Zone, then district), each with a
    placeholder naming what it holds: one menu per Zone, a Zone of more than 25 options split between its
    districts; never a district cut in two unless it alone holds more than 25 (names in ``w``'s words)."""
    w = w or words()
    zones: dict[str, dict[str, list[Option]]] = {}
    for o in options:
        zone, _, district = w.field(o, "section").partition(" · ")
        zones.setdefault(zone, {}).setdefault(district, []).append(o)
    if sum(len(d) for z in zones.values() for d in z.values()) <= MAX_SELECT and len(zones) == 1:
        ((zone, districts),) = zones.items()
        return [(options, _placeholder(zone, list(districts)))]
    out: list[tuple[list[Option], str]] = []
    for zone, districts in zones.items():
        chunk: list[Option] = []
        names: list[str] = []
        for district, opts in districts.items():
            if chunk and len(chunk) + len(opts) > MAX_SELECT:
                out.append((chunk, _placeholder(zone, names)))
                chunk, names = [], []
            for page in _pages(opts):
                if len(page) == MAX_SELECT:
                    out.append((page, _placeholder(zone, [district])))
                else:
                    chunk += page
                    names.append(district)
        if chunk:
            out.append((chunk, _placeholder(zone, names)))
    return out


def _placeholder(zone: str, districts: list[str]) -> str:
    names = [d for d in districts if d]
    if not names:
        return _clip(f"{zone}…", 150)
    span = names[0] if len(names) == 1 else f"{names[0]} – {names[-1]}"
    return _clip(f"{zone}: {span}…" if zone else f"{span}…", 150)


#: Option ids of declines, never "the expected next step"
DECLINES = frozenset({"skip", "done", "back", "end", "lose"})


def expected_step(options: list[Option]) -> list[Option]:
    """Green for the expected next step (the style guide): when a question has no green option and exactly one
    answer that is neither a decline nor risky, that one is it (e.g. "Hire a Goon" beside "Skip hiring")."""
    if any(o.style == "primary" for o in options):
        return options
    plain = [o for o in options if o.id not in DECLINES and o.style != "danger"]
    if len(plain) != 1:
        return options
    return [msgspec.structs.replace(o, style="primary") if o is plain[0] else o for o in options]


def public_view(pt: PublicTable) -> discord.ui.View | None:
    """The board's buttons, from the public table alone: every question that is not private, "My options",
    and "Undo" when the player being waited for could take back a step."""
    if pt.status != "active" or not pt.prompts:
        return None
    public = [p for p in pt.prompts if not p.secret]
    return prompt_view(pt.id, pt.version, public, mine_button=True, undo_button=pt.undo, lang=pt.lang)
