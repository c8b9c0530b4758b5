"""The Omerta pictures: real views from random games, drawn as PNGs that follow the design rules."""

from __future__ import annotations

import ast
import copy
import io
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from render import fonts, omerta
from tests.render.games import View, play_until, reach

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 1024 * 1024


def _any_police(v: View) -> bool:
    return any(s["police"] for p in v["players"] for s in p["slots"])


#: name -> (players, seed, stop, omerta_rate)
SCENARIOS: dict[str, tuple[int, int, Callable[[View], bool], float]] = {
    "peek-3": (3, 1, lambda v: v["phase"] == "peek", 0.05),
    "taken-3": (3, 9, lambda v: v["phase"] == "taken", 0.05),
    "snap-4": (4, 2, lambda v: v["phase"] == "snap" and v["round"] >= 2, 0.05),
    "power-4": (4, 8, lambda v: v["phase"] == "power", 0.05),
    "police-drawn-5": (5, 3, lambda v: v["phase"] == "drawn" and _any_police(v), 0.05),
    "penalties-5": (5, 4, lambda v: max(len(p["slots"]) for p in v["players"]) >= 10 and v["phase"] == "turn", 0.05),
    "skip-5": (5, 5, lambda v: any(p["skip_next"] for p in v["players"]), 0.05),
    "over-3": (3, 6, lambda v: v["over"], 0.3),
    "over-5": (5, 6, lambda v: v["over"], 0.3),
}


@cache
def scenario(name: str) -> View:
    """The spectator view of a named position (played once per test run)."""
    players, seed, stop, rate = SCENARIOS[name]
    return play_until(players, seed, stop, omerta_rate=rate)


@cache
def table_png(name: str) -> bytes:
    """``render_table`` of a named position, drawn once per test run."""
    return omerta.render_table(scenario(name))


def _check_png(data: bytes) -> Image.Image:
    assert data[:8] == PNG_SIGNATURE
    assert len(data) < MAX_BYTES
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    assert img.width >= 1600
    return img


@pytest.fixture
def fresh_caches() -> Iterator[None]:
    """Drop every cached sprite and font before and after the test."""
    omerta.clear_caches()
    yield
    omerta.clear_caches()


# --- the table -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_table_is_a_wide_small_png(name: str) -> None:
    img = _check_png(table_png(name))
    assert img.mode == "P"  # a 256-colour palette: half the bytes of RGB
    assert img.height > 600


def test_scenarios_cover_the_interesting_positions() -> None:
    assert {len(scenario(n)["players"]) for n in SCENARIOS} == {3, 4, 5}
    assert scenario("police-drawn-5")["holding_hidden"] is True
    assert scenario("taken-3")["holding"] is not None
    assert max(len(p["slots"]) for p in scenario("penalties-5")["players"]) >= 10
    assert scenario("over-5")["reveal"] is not None and scenario("over-5")["winners"]


def test_same_view_gives_the_same_bytes() -> None:
    view = scenario("police-drawn-5")
    first = omerta.render_table(view)
    assert omerta.render_table(copy.deepcopy(view)) == first
    assert table_png("police-drawn-5") == first
    reveal = omerta.render_reveal(scenario("over-5"))
    assert omerta.render_reveal(copy.deepcopy(scenario("over-5"))) == reveal


def test_spectator_view_needs_no_hidden_information() -> None:
    view = scenario("police-drawn-5")
    assert view["viewer"] is None and view["holding"] is None and view["look"] is None
    _check_png(omerta.render_table(view))
    # nothing else about the cards is needed either: a view stripped to what is public still draws
    bare = copy.deepcopy(view)
    bare["holding_hidden"] = True
    for p in bare["players"]:
        p["slots"] = [{"index": s["index"], "empty": s["empty"], "police": s["police"]} for s in p["slots"]]
    assert omerta.render_table(bare) == omerta.render_table(view)


def test_the_held_card_shows_only_to_its_viewer() -> None:
    g, state = reach(5, 3, lambda v: v["phase"] == "drawn" and _any_police(v))
    public = g.view(state, None)
    own = g.view(state, public["active"])
    assert own["holding"] is not None
    assert omerta.render_table(own) != omerta.render_table(public)
    _check_png(omerta.render_table(own))


def test_the_safecracker_sees_the_safe() -> None:
    g, state = reach(3, 1, lambda v: v["phase"] == "power" and v["power"] == "safe")
    own = g.view(state, g.view(state, None)["active"])
    assert own["look"] is not None
    _check_png(omerta.render_table(own))


def test_layout_edge_cases() -> None:
    base = scenario("skip-5")
    view = copy.deepcopy(base)
    players = view["players"]
    # no cards left at all, no slots at all, a dozen penalty slots, a very long name, shared initials
    players[0]["slots"] = [{"index": k, "empty": True, "police": False} for k in range(4)]
    players[0]["card_count"] = 0
    players[1]["slots"] = []
    players[1]["card_count"] = 0
    players[2]["slots"] = [{"index": k, "empty": False, "police": k == 11} for k in range(12)]
    players[2]["name"] = "Bartholomew the Magnificent of Chicago"
    players[3]["name"] = "Anastasia"
    players[4]["round_scores"] = list(range(10, 100, 10))
    _check_png(omerta.render_table(view))


def test_render_code_never_imports_the_engine() -> None:
    render = Path(fonts.__file__).parent  # every module of render/, the omerta package's among them
    paths = sorted(render.rglob("*.py"))
    assert render / "omerta" / "table.py" in paths
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n == "engine" or n.startswith("engine.") for n in names), path.relative_to(render)


# --- words ---------------------------------------------------------------------------------------------------


def test_title_line_says_whose_turn_and_what_happens() -> None:
    title, _, _ = omerta.describe(scenario("peek-3"))
    assert title.startswith("Round 1 of 3 · Everyone is peeking")
    view = scenario("snap-4")
    title, label, _ = omerta.describe(view)
    assert title.endswith(f"Snap window: Bottle {view['snap_value']}")
    view = scenario("skip-5")
    active = view["players"][view["active"]]["name"]
    assert omerta.describe(view)[0].endswith(f"{active}'s turn")
    assert "Game over" in omerta.describe(scenario("over-3"))[0]


# --- fonts ---------------------------------------------------------------------------------------------------


def test_no_font_size_constant_is_below_the_minimum() -> None:
    assert fonts.MIN_SIZE == 14
    assert min(omerta.layout.FONT_SIZES) >= fonts.MIN_SIZE
    with pytest.raises(ValueError):
        fonts.get(13)


def test_every_font_drawn_is_at_least_14_px(fresh_caches: None, monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[int] = []
    real = fonts.get

    def recording(size: int, style: str = "regular") -> Any:
        used.append(size)
        return real(size, style)

    monkeypatch.setattr(fonts, "get", recording)
    omerta.render_table(scenario("penalties-5"))
    omerta.render_table(scenario("police-drawn-5"))
    omerta.render_reveal(scenario("over-5"))
    assert used and min(used) >= fonts.MIN_SIZE


def test_renders_without_the_system_fonts(fresh_caches: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(fonts, "FONT_DIR", tmp_path)
    assert fonts.get(20, "bold").getname()[0] != "DejaVu Sans"
    _check_png(omerta.render_table(scenario("snap-4")))
    _check_png(omerta.render_reveal(scenario("over-3")))


# --- the reveal ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["snap-4", "police-drawn-5", "over-3", "over-5"])
def test_reveal_renders(name: str) -> None:
    view = scenario(name)
    assert view["reveal"] is not None
    _check_png(omerta.render_reveal(view))


def test_reveal_of_the_final_round_is_taller_with_standings() -> None:
    view = scenario("over-5")
    assert view["over"]
    not_over = copy.deepcopy(view)
    not_over["over"] = False
    not_over["winners"] = []
    tall = Image.open(io.BytesIO(omerta.render_reveal(view)))
    short = Image.open(io.BytesIO(omerta.render_reveal(not_over)))
    assert tall.height > short.height


def test_reveal_needs_a_finished_round() -> None:
    view = scenario("peek-3")
    assert view["reveal"] is None
    with pytest.raises(ValueError):
        omerta.render_reveal(view)


# --- async ---------------------------------------------------------------------------------------------------


async def test_async_wrappers_give_the_same_pictures() -> None:
    assert await omerta.render_table_async(scenario("snap-4")) == table_png("snap-4")
    assert await omerta.render_reveal_async(scenario("over-3")) == omerta.render_reveal(scenario("over-3"))
