"""Every prompt the self-play games produce becomes Discord components within Discord's limits (issue "Speakeasy
at the table"): at most 25 options a menu, 80-character labels, 100-character custom ids, 5 rows, and no option
dropped on the way."""

from __future__ import annotations

import random

import discord
import pytest

from cogs.components import prompt_view
from engine.core import TABLE, Choice
from engine.registry import GAMES

LIMITS = {"rows": 5, "options": 25, "label": 80, "custom_id": 100, "description": 100}


def _prompts(game_name: str, players: int, games: int, options: dict | None = None):
    """Every distinct (kind, options) prompt of some random games."""
    game = GAMES[game_name]
    seen = set()
    for seed in range(games):
        state = game.new([f"Player {i + 1}" for i in range(players)], options or {}, seed)
        rng = random.Random(seed)
        while not game.is_over(state):
            prompts = game.prompts(state)
            for p in prompts:
                key = (p.kind, tuple(o.id for o in p.options))
                if key not in seen:
                    seen.add(key)
                    yield p
            p = rng.choice([p for p in prompts if p.seat != TABLE] or prompts)
            game.apply(state, Choice(p.seat, p.kind, rng.choice(p.options).id))


def _check(view: discord.ui.View | None, prompt) -> None:
    """Within the limits, and every option offered (a question asked in two steps: the first lists every part,
    and the parts opened one by one offer every option between them)."""
    if len(prompt.steps) > 1:
        assert sorted(_offered(view)) == sorted(s.id for s in prompt.steps)
        opened = [
            prompt_view(987654, 12345, [prompt], mine_button=True, opened={prompt.kind: s.id}) for s in prompt.steps
        ]
        offered = [o for v in opened for o in _offered(v)]
    else:
        offered = _offered(view)
    assert sorted(offered) == sorted(o.id for o in prompt.options), f"options dropped for {prompt.kind}"


def _offered(view: discord.ui.View | None) -> list[str]:
    """The answers a view offers (the values of its menus, the options of its buttons), checked against
    Discord's limits."""
    assert view is not None
    offered: list[str] = []
    rows = set()
    for child in view.children:
        item = getattr(child, "item", child)  # a DynamicItem wraps its button or select
        rows.add(item.row)
        custom_id = item.custom_id  # type: ignore[attr-defined]
        assert len(custom_id) <= LIMITS["custom_id"], custom_id
        if isinstance(item, discord.ui.Button):
            assert len(item.label or "") <= LIMITS["label"], item.label
            if custom_id.startswith("pl|"):
                offered.append(custom_id.split("|")[4])
        elif isinstance(item, discord.ui.Select):
            assert len(item.options) <= LIMITS["options"]
            for o in item.options:
                assert len(o.label) <= LIMITS["label"] + 20  # select labels may be 100
                assert len(o.description or "") <= LIMITS["description"]
                offered.append(o.value)
    assert len(rows) <= LIMITS["rows"] and all(r is not None and 0 <= r < 5 for r in rows)
    return offered


@pytest.mark.parametrize(
    ("game_name", "players", "games", "options"),
    [
        ("speakeasy", 1, 8, None),
        ("speakeasy", 2, 6, None),
        ("speakeasy", 3, 6, None),
        ("speakeasy", 4, 6, None),
        ("omerta", 4, 6, None),
        ("omerta", 4, 2, {"rules": 2, "pace": "post"}),  # standing orders: a slot, then up to 10 options of it
    ],
)
async def test_every_prompt_fits_discords_limits(game_name, players, games, options):
    count = 0
    for prompt in _prompts(game_name, players, games, options):
        if prompt.seat == TABLE:
            continue
        _check(prompt_view(987654, 12345, [prompt], mine_button=True), prompt)
        for option in prompt.options:
            assert len(option.label) <= LIMITS["label"], f"{prompt.kind}: label too long: {option.label!r}"
            assert len(option.detail) <= LIMITS["description"], f"{prompt.kind}: {option.detail!r}"
        assert len(prompt.text) <= 2000
        count += 1
    assert count > 20
