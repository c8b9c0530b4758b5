"""Issue 15 ("Auf Deutsch"): Omerta's pictures and texts in German, for a view with ``lang = "de"``.

Real positions from random games are drawn and written in German: nothing breaks, no English word of the
pictures is left, and the longer German words fit where they are drawn (no label shortened with "…", every tag
inside its player's panel, every callout text inside its box, every character card's name inside its band)."""

from __future__ import annotations

import copy
import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageDraw

from render import draw, omerta, omerta_text
from render.draw import fit_lines, text_width
from tests.render.games import View, play_until, reach
from tests.words.scan import english_words
from words import words
from words.msg import M, T

#: name -> (players, seed, stop, omerta_rate), the positions of the English render tests
SCENARIOS = {
    "peek-3": (3, 1, lambda v: v["phase"] == "peek", 0.05),
    "taken-3": (3, 9, lambda v: v["phase"] == "taken", 0.05),
    "snap-4": (4, 2, lambda v: v["phase"] == "snap" and v["round"] >= 2, 0.05),
    "power-4": (4, 8, lambda v: v["phase"] == "power", 0.05),
    "police-drawn-5": (
        5,
        3,
        lambda v: v["phase"] == "drawn" and any(s["police"] for p in v["players"] for s in p["slots"]),
        0.05,
    ),
    "skip-5": (5, 5, lambda v: any(p["skip_next"] for p in v["players"]), 0.05),
    "over-5": (5, 6, lambda v: v["over"], 0.3),
}
UNFILLED = re.compile(r"\{[a-z_]+\}")
#: English words of the pictures that must not be left in a German one.
ENGLISH = re.compile(r"\b(Round|turn|DRAW PILE|DISCARD PILE|TOTAL|POINTS|Bottle|Lowest|Snap window|YOU|WINNER)\b")


def german(name: str) -> View:
    players, seed, stop, rate = SCENARIOS[name]
    view = copy.deepcopy(play_until(players, seed, stop, omerta_rate=rate))
    view["lang"] = "de"
    return view


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[Any]]]:
    """Record every shortened label, every tag drawn, and every callout text's wrapped block."""
    seen: dict[str, list[Any]] = {"short": [], "pills": [], "blocks": []}
    real_fit_text, real_fit_lines, real_pill = draw.fit_text, draw.fit_lines, draw.pill

    def fit_text(text: str, max_w: float, sizes: Any, style: str = "regular") -> tuple[str, int]:
        out = real_fit_text(text, max_w, sizes, style)
        if out[0] != text:
            seen["short"].append(text)
        return out

    def lines(text: str, max_w: float, max_h: float, sizes: Any, style: str = "regular", spacing: float = 1.1):  # noqa: ANN202
        out = real_fit_lines(text, max_w, max_h, sizes, style, spacing)
        if style == "regular":  # the callout (a card's name gets a taller band when it needs one)
            seen["blocks"].append((text, max_w, max_h, spacing, *out))
        return out

    def pill(d: Any, x: int, cy: int, text: str, size: int, *args: Any, **kwargs: Any) -> int:
        w = real_pill(d, x, cy, text, size, *args, **kwargs)
        seen["pills"].append((text, x, w))
        return w

    omerta.clear_caches()
    # each module of the package that draws with them imported them by name: patch them in every one
    for module in (omerta.cards, omerta.parts, omerta.table, omerta.reveal):
        for name, fake in (("fit_text", fit_text), ("fit_lines", lines), ("pill", pill)):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, fake)
    yield seen
    omerta.clear_caches()


def _fits(seen: dict[str, list[Any]], panel_right: int) -> None:
    assert seen["short"] == [], seen["short"]
    winner = words("de")(M("render.omerta.tag_winner", "WINNER"))
    for text, x, w in seen["pills"]:
        if text != winner:  # the winner's pill stands on its own row of the standings
            assert x + w <= panel_right, (text, x + w, panel_right)
    for text, max_w, max_h, spacing, lines, size in seen["blocks"]:
        assert len(lines) * size * spacing <= max_h, (text, lines)
        assert all(text_width(t, size, "regular") <= max_w for t in lines), (text, lines)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_the_table_in_german_draws_and_fits(name: str, measured: dict[str, list[Any]]) -> None:
    view = german(name)
    png = omerta.render_table(view)
    assert Image.open(io.BytesIO(png)).format == "PNG"
    _fits(measured, omerta.layout.MARGIN + omerta.table.PANEL_W)
    title, label, text = omerta.describe(view)
    assert title.startswith(f"Runde {view['round']} von {view['rounds']} · ") or title.startswith("Spielende")
    for words_ in (title, label, text):
        assert not UNFILLED.search(words_) and not ENGLISH.search(words_), words_
        assert not english_words(words_, [p["name"] for p in view["players"]]), words_
    assert png != omerta.render_table({**view, "lang": "en"})


def test_the_reveal_and_final_standings_in_german(measured: dict[str, list[Any]]) -> None:
    view = german("over-5")
    assert Image.open(io.BytesIO(omerta.render_reveal(view))).format == "PNG"
    _fits(measured, omerta.layout.MARGIN + omerta.reveal._REV_PANEL_W)


@pytest.mark.parametrize(
    ("phase", "active", "skips"),
    [("turn", 0, False), ("snap", 0, False), ("turn", 1, True)],
    ids=["to-play", "just-discarded", "skips"],
)
def test_every_german_tag_set_fits_a_player_panel(phase: str, active: int, skips: bool) -> None:
    """The most tags a player has at once (the active player's, or a skipping one's; with "you" and a Police
    Check) fit in one panel. A skip is used up at the start of its turn, so the active player never skips."""
    say = words("de")
    view = {"phase": phase, "active": active, "viewer": 0}
    player = {"seat": 0, "skip_next": skips, "slots": [{"police": True}]}
    tags = omerta.table._player_tags(view, player, say)
    assert len(tags) == 3
    d = ImageDraw.Draw(Image.new("RGB", (1600, 200)))
    width = sum(draw.pill(d, 0, 100, t, omerta.layout.FS_TAG, fill, ink) + 8 for t, fill, ink in tags) - 8
    assert width <= omerta.table.PANEL_W - 30, (width, [t for t, _, _ in tags])
    # the pile and Safe headings stand side by side above the piles
    for label in (
        M("render.omerta.label_draw_pile", "DRAW PILE"),
        M("render.omerta.label_discard_pile", "DISCARD PILE"),
    ):
        text = say(label)
        assert text_width(text, omerta.layout.FS_SECTION, "cond_bold") <= omerta.table._PILE_W + 56 - 8, text


@pytest.mark.parametrize("w", [80, 96, 100, 104, 112, 150])
def test_every_german_card_name_fits_its_band(w: int) -> None:
    """A character card's name in German fits the card at every width the pictures use (the band grows)."""
    h = omerta.layout.card_h(w)
    for name in ("Traitor", "Mole", "Lady", "Chauffeur", "Police Check", "La Mamma", "Safecracker", "Alibi"):
        shown = words("de")(T("omerta.card", name))
        broken = " ".join(omerta.cards._BREAKS.get(p, p) for p in shown.split(" "))
        sizes = sorted({x for x in (round(w * 0.2), round(w * 0.17), round(w * 0.15), 16, 15, 14) if x >= 14})[::-1]
        lines, size = fit_lines(broken, w - 12, h * 0.34 - 10, sizes, "cond_bold", 1.05)
        assert all(text_width(t, size, "cond_bold") <= w - 12 for t in lines), (name, lines)
        assert len(lines) * size * 1.05 + 10 <= h * 0.5, (name, lines)  # the most the band grows to
        omerta.cards.character_face(name, 10, w, h, "de")


def test_the_texts_in_german() -> None:
    view = german("police-drawn-5")
    head = omerta_text.headline(view)
    assert head.startswith(f"Runde {view['round']} von {view['rounds']} · ")
    summary = omerta_text.summary(view)
    assert (
        summary.startswith("Ablagestapel: ") and "Nachziehstapel" in summary and "Polizeikontrolle auf Platz" in summary
    )
    assert "gesamt" in summary and "total" not in summary
    g, state = reach(5, 3, SCENARIOS["police-drawn-5"][2])
    own = {**g.view(state, view["active"]), "lang": "de"}
    note = omerta_text.private_note(own)
    assert note.startswith("Deine verdeckten Karten: Plätze ") and "\nDu hältst " in note
    assert note.endswith("(DM oder privater Thread).")
    assert omerta_text.private_note({**view, "viewer": None}) == "Du schaust bei diesem Spiel zu."
    over = german("over-5")
    reveal = omerta_text.reveal_summary(over)
    assert reveal.startswith(f"Aufdecken nach Runde {over['reveal']['round']}:")
    assert "Endstand (die niedrigste Summe gewinnt):" in reveal and "→ zählt" in reveal
    names = [p["name"] for p in over["players"]]
    for text in (head, summary, note, reveal, omerta_text.headline(over)):
        assert not UNFILLED.search(text), text
        assert not english_words(text, names), (english_words(text, names), text)  # the German scan (tests/words)
    assert omerta_text.headline(over).startswith(f"Runde {over['round']} von {over['rounds']} · Spielende · ")


def test_a_tie_in_german_names_the_place() -> None:
    view = german("over-5")
    for p in view["players"][:2]:
        p["total"] = 12
    view["winners"] = [0, 1]
    lines = omerta_text.standings_lines(view)
    assert any(line.endswith("liegen mit 12 gleichauf auf dem 1. Platz: ein geteilter Sieg.") for line in lines), lines


def test_the_private_questions_are_messages() -> None:
    de = words("de")
    assert de(omerta_text.PRIVATE_QUESTIONS["place"]) == "entscheidet, wohin die gezogene Karte kommt"
    assert omerta_text.PRIVATE_QUESTIONS["safe"] == "chooses whether to take a Safe card"  # its English as a str


def test_no_language_is_english() -> None:
    view = german("snap-4")
    del view["lang"]
    assert omerta.describe(view)[0].startswith("Round ")
    assert omerta_text.headline(view).startswith("Round ")
