"""Each question's default option, marked by the engine (``Prompt.default``): what the table takes when the host
skips an idle player's turn (issue "trust"; docs/rules: the host's skip).

Decline where the question may be declined; otherwise the least consequential legal option, never a risky one
(``danger``, e.g. Omerta's OMERTA call or losing a building in a Mob War).
"""

from __future__ import annotations

import pytest

from engine.core import TABLE
from engine.omerta.game import OmertaGame
from engine.speakeasy.game import SpeakeasyGame
from engine.speakeasy.steps import SKIP
from tests.engine.differential import self_play

POWERS = ("traitor", "mole", "lady", "chauffeur", "police", "mamma", "safecracker")


def _prompts(game, players: int, games: int):
    """Every prompt of a few self-play games."""
    for seed in range(games):
        for _t, state, _choice in self_play(game, players, 300 + seed):
            yield from game.prompts(state)


def _check_common(prompt) -> bool:
    """The default is one of the options and never a risky one, unless every option is (a forced loss: then the
    engine marks none). Returns whether the prompt is such a forced one."""
    ids = [o.id for o in prompt.options]
    assert prompt.default_option() in ids
    forced = all(o.style == "danger" for o in prompt.options)
    if forced:
        assert prompt.default is None, prompt
    else:
        assert prompt.option(prompt.default_option()).style != "danger", prompt
    return forced


@pytest.mark.parametrize("players", [3, 4, 5])
def test_omerta_defaults_draw_discard_decline_and_never_omerta(players):
    """Decisions file: an idle player draws (never calls OMERTA), discards what they drew, swaps a card taken
    from the discard pile into the first slot, peeks at the first pair, and never uses a power (decline; the
    Safecracker keeps their cards)."""
    seen: set[str] = set()
    for prompt in _prompts(OmertaGame(), players, 40):
        assert not _check_common(prompt)
        ids = [o.id for o in prompt.options]
        if prompt.race is None:
            assert prompt.default is not None, prompt
        if prompt.seat == TABLE:
            assert prompt.default == "close"
        elif prompt.kind == "turn":
            assert prompt.default == "draw"
        elif prompt.kind == "place":
            assert prompt.default == ("discard" if "discard" in ids else ids[0])
        elif prompt.kind == "peek":
            assert prompt.default == ids[0]
        elif prompt.kind in POWERS:
            assert "decline" in ids and prompt.default == "decline"
        elif prompt.kind == "safe":
            assert prompt.default == "keep"
        seen.add(prompt.kind)
    assert {"turn", "place", "peek", "snap"} <= seen and len(seen & set(POWERS)) >= 5


@pytest.mark.parametrize("players", [1, 2, 4])
def test_speakeasy_defaults_decline_or_the_calmest_option(players):
    """Design §2 (every Person step is optional): an idle player declines what can be declined; a building's
    space goes back to the choice of building (which can be declined), a delivery stops, and an obligatory step
    takes its first option that is not risky (a Mob War defence defends rather than loses the building)."""
    seen: set[str] = set()
    for prompt in _prompts(SpeakeasyGame(), players, 6):
        if _check_common(prompt):
            assert prompt.kind == "defend"  # no way to defend: the building is lost whatever the table does
            continue
        ids = [o.id for o in prompt.options]
        assert prompt.default is not None, prompt
        if SKIP in ids:
            assert prompt.default == SKIP
        elif prompt.kind == "build_at":
            assert prompt.default == "back"
        elif prompt.kind == "deliver":
            assert prompt.default in ("done", "end")
        else:
            assert prompt.default == next(o.id for o in prompt.options if o.style != "danger")
        seen.add(prompt.kind)
    assert {"place", "draw", "build", "build_at"} <= seen
