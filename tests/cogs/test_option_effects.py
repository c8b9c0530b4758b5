"""Issue "deciding well": options say what they do. Over every question of 200 self-play games (50 solo, 50 each
at 2, 3 and 4 players): every option shows its effect, in its description (a select menu shows it; under buttons
the legend does) or in its own label; declines say what they decline. Every private option that costs money
shows the payer's real pocket/safe split before the choice."""

from __future__ import annotations

import random

import pytest

from cogs.board import buttons_for, legend
from cogs.components import DECLINES, expected_step, menu_pages
from engine.core import Choice, Option
from engine.speakeasy.game import SpeakeasyGame

GAME = SpeakeasyGame()
#: A label names its effect when it says what the option gives or does: "Play Party: $3", "Take City tile Cash
#: ($3)", "Raise Fleet to 2", "Family Member to the Uptown Docks", "Hire a Goon, pay $1".
EFFECT_MARKS = (": ", "(", " to ", "$", "Protect ", "Hire ", "Sell ", "Load ", "Buy ", "Move ", "Put ")


def _questions(players: int, games: int, seed: int):  # noqa: ANN202
    for g in range(games):
        options = {"settle": "auto"} | ({"difficulty": 1 + g % 4} if players == 1 else {})
        state = GAME.new([f"P{i + 1}" for i in range(players)], options, seed + g)
        rng = random.Random(seed + g)
        while not GAME.is_over(state):
            prompt = next(p for p in GAME.prompts(state) if p.race is None)
            yield prompt
            GAME.apply(state, Choice(prompt.seat, prompt.kind, rng.choice(prompt.options).id))


def _shown(option: Option, options: list[Option]) -> bool:
    if option.id in DECLINES or option.id.startswith("skip"):
        return True
    if option.detail:
        return not buttons_for(options) or any(option.detail[:40] in line for line in legend(options))
    return any(mark in option.label for mark in EFFECT_MARKS)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_option_shows_its_effect_and_every_private_payment_its_split(players):
    questions = payments = 0
    missing: list[str] = []
    for prompt in _questions(players, 50, 3000 + 100 * players):
        questions += 1
        options = list(prompt.options)
        for option in options:
            if not _shown(option, options):
                missing.append(f"{prompt.kind}: {option.label!r}")
            if prompt.secret and option.cost > 0:
                payments += 1
                assert "pocket" in option.detail or "safe" in option.detail, (prompt.kind, option)
    assert questions > 50 * 50
    assert payments > 50
    assert not missing, sorted(set(missing))[:20]


def test_long_menus_are_split_by_zone_then_district_never_cutting_a_district():
    seen = 0
    for prompt in _questions(4, 30, 77):
        sectioned = [o for o in prompt.options if o.section]
        if len(sectioned) <= 25:
            continue
        pages = menu_pages(sectioned)
        assert sorted(o.id for page, _ in pages for o in page) == sorted(o.id for o in sectioned)
        for page, placeholder in pages:
            assert 0 < len(page) <= 25
            zones = {o.section.split(" · ")[0] for o in page}
            assert len(zones) == 1 and placeholder.startswith(zones.pop())
        districts = [o.section for o in sectioned]
        for a, b in zip(pages, pages[1:], strict=False):
            # a district is never cut in two (unless it alone holds more than 25 options)
            if a[0][-1].section == b[0][0].section:
                assert districts.count(a[0][-1].section) > 25
        seen += 1
    assert seen > 0


def test_the_expected_next_step_is_green():
    hire = [Option("hire", "Hire a Goon, pay $1"), Option("skip", "Skip hiring")]
    assert [o.style for o in expected_step(hire)] == ["primary", "secondary"]
    two = [Option("a", "Raise Fleet to 2"), Option("b", "Raise Party to 3"), Option("skip", "Skip")]
    assert expected_step(two) == two  # a real choice: nothing is "expected"
    risky = [Option("lose", "Do not defend", style="danger"), Option("defend:g1", "Defend", style="primary")]
    assert expected_step(risky) == risky


def test_an_impossible_defence_shows_as_a_disabled_button_with_why():
    """Style guide: disabled buttons show what is not possible right now, when that teaches the rules."""
    from cogs.components import prompt_view

    for g in range(8):
        state = GAME.new([f"P{i + 1}" for i in range(4)], {"settle": "off"}, 60 + g)
        rng = random.Random(60 + g)
        while not GAME.is_over(state):
            prompt = next(p for p in GAME.prompts(state) if p.race is None)
            if prompt.kind == "defend" and prompt.unavailable:
                items = prompt_view(5, 9, [prompt], mine_button=False).children
                grey = [i for i in items if getattr(i, "disabled", False)]
                assert [b.label for b in grey] == [f"Defend ({prompt.unavailable[0].disabled})"]
                assert "you reach" in grey[0].label
                assert len([i for i in items if not getattr(i, "disabled", False)]) == len(prompt.options)
                return
            GAME.apply(state, Choice(prompt.seat, prompt.kind, rng.choice(prompt.options).id))
    pytest.fail("no greyed-out defence in 8 games")
