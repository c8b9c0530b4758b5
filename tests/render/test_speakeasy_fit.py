"""Issue 15: the Speakeasy pictures in English and German, drawn from real game views (four players in Act 3 and at
the end, solo in Act 2 and at the end), with every text drawn recorded with its box: no text is cut (shortened
with "…" or a word broken at any letter), none leaves its picture, no two overlap; the fonts cover the German
letters; and the German pictures cost about what the English ones do."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from render import draw, fonts
from render import speakeasy as se
from render import speakeasy_text as words
from render.draw import badge_letters
from render.speakeasy import city, pieces, table
from render.speakeasy.final import _final_image
from render.speakeasy.player_board import _player_board_image
from render.speakeasy.style import P_HEADER_H, P_WORDMARK
from tests.render.test_speakeasy_render import PAIR_BYTES, own, spectator

View = dict[str, Any]
LANGS = ("en", "de")
#: 4 players mid-game and at the end; solo mid-game and at the end.
POSITIONS = ("act3-4", "over-4", "act2-solo", "over-solo")
#: The German letters and the signs the words use, which every font style must draw.
GERMAN = "äöüßÄÖÜ„“"
SIGNS = "·–…→−×▶"


@dataclass(frozen=True)
class Drawn:
    """One text drawn: its words, size and style, and the box its ink covers on the picture."""

    words: str
    size: int
    style: str
    box: tuple[float, float, float, float]
    picture: int

    def overlaps(self, other: Drawn) -> bool:
        """Whether the two boxes share more than a pixel's edge."""
        x0, y0, x1, y1 = self.box
        a0, b0, a1, b1 = other.box
        return min(x1, a1) - max(x0, a0) > 1 and min(y1, b1) - max(y0, b0) > 1


class Recorder:
    """Records every text drawn on a picture (``draw.put_text``, and ``ImageDraw.text`` straight onto an RGB
    picture as the final chart does) and every word the wrapping had to break at an arbitrary letter."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: list[Drawn] = []
        self.broken: list[str] = []
        real_put, real_text, real_split = draw.put_text, ImageDraw.ImageDraw.text, draw._split_word
        inside = [False]

        def style_of(font: Any) -> str:
            path = str(getattr(font, "path", ""))
            return next((k for k, v in fonts.STYLES.items() if path.endswith("/" + v)), "fallback")

        def note(d: ImageDraw.ImageDraw, xy: Any, said: str, font: Any, anchor: str | None) -> None:
            x0, y0, x1, y1 = font.getbbox(said, anchor=anchor or "la")
            box = (xy[0] + x0, xy[1] + y0, xy[0] + x1, xy[1] + y1)
            img = d._image  # type: ignore[attr-defined]
            self.texts.append(Drawn(said, int(font.size), style_of(font), box, id(img)))
            self.sizes[id(img)] = img.size

        def put(d: ImageDraw.ImageDraw, xy: Any, said: str, size: int, fill: Any, style: str = "regular", anchor="mm"):  # noqa: ANN001,ANN202
            if said:
                note(d, xy, fonts.printable(said, size, style), fonts.get(size, style), anchor)
            inside[0] = True
            try:
                return real_put(d, xy, said, size, fill, style, anchor)
            finally:
                inside[0] = False

        def text(self_: ImageDraw.ImageDraw, xy: Any, said: Any, *args: Any, **kwargs: Any) -> Any:
            image = getattr(self_, "_image", None)
            if not inside[0] and image is not None and image.mode == "RGB" and said:
                note(self_, xy, str(said), kwargs["font"], kwargs.get("anchor"))
            return real_text(self_, xy, said, *args, **kwargs)

        def split(word: str, max_w: float, size: int, style: str) -> list[str]:
            if draw.SOFT_HYPHEN not in word:
                self.broken.append(word)
            return real_split(word, max_w, size, style)

        self.sizes: dict[int, tuple[int, int]] = {}
        monkeypatch.setattr(draw, "put_text", put)
        monkeypatch.setattr(pieces, "put_text", put)
        monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
        monkeypatch.setattr(draw, "_split_word", split)

    def problems(self) -> list[str]:
        """What reads badly: cut texts, broken words, texts outside their picture, overlapping texts."""
        out = [f"cut: {t.words!r}" for t in self.texts if "…" in t.words]
        out += [f"word broken at a letter: {w!r}" for w in self.broken]
        for t in self.texts:
            w, h = self.sizes[t.picture]
            x0, y0, x1, y1 = t.box
            if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                out.append(f"outside the picture: {t.words!r} {t.box}")
        for pic in {t.picture for t in self.texts}:
            on = sorted((t for t in self.texts if t.picture == pic), key=lambda t: t.box[0])
            for i, a in enumerate(on):  # sorted by left edge: only the texts starting left of a's right edge
                for b in on[i + 1 :]:
                    if b.box[0] >= a.box[2]:
                        break
                    if a.overlaps(b):
                        out.append(f"overlap: {a.words!r} {a.box} and {b.words!r} {b.box}")
        return out


def in_lang(view: View, lang: str) -> View:
    """The view as the table layer gives it: with the table's (or the reader's) language."""
    return {**view, "lang": lang}


def public_pictures(view: View) -> list[Image.Image]:
    """The city and the table drawn in one pass each on the whole picture (no cached layer or part, so every text
    is drawn where it shows; tests/render/test_speakeasy_render.py checks the cached pictures are the same
    pixels), every piece outlined as new."""
    out = []
    letters = badge_letters(words.names(view))
    new = se.changed(view, [])
    for part, module in (("city", city), ("table", table)):
        img = city.new_image(city.height(view)) if module is city else table.new_image(len(view["players"]))
        mark = words.lang_words(view)(se._MARKS[part])
        pieces.header_frame(ImageDraw.Draw(img), P_HEADER_H, mark, P_WORDMARK)
        module.draw(img, module.static_view(view), letters, True, ())
        module.draw(img, view, letters, False, new)
        se._title(img, view, part)
        out.append(img)
    return out


def every_picture(name: str, lang: str) -> Iterator[Image.Image]:
    """Every picture of a position: the city, the table, seat 0's own board, the last seat's public board, and the
    final chart once the game is over."""
    view = in_lang(spectator(name), lang)
    yield from public_pictures(view)
    yield _player_board_image(in_lang(own(name, 0), lang), 0)
    yield _player_board_image(view, len(view["players"]) - 1)
    if view["phase"] == "over":
        yield _final_image(view)


@pytest.fixture
def fresh_caches() -> Iterator[None]:
    se.clear_caches()
    yield
    se.clear_caches()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", POSITIONS)
def test_every_text_fits_its_place(name: str, lang: str, fresh_caches: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """No text cut, broken, outside its picture or over another, in either language."""
    seen = Recorder(monkeypatch)
    pictures = list(every_picture(name, lang))
    assert len(seen.texts) > 100 * len(pictures), len(seen.texts)  # the recorder sees every picture's texts
    assert seen.problems() == []
    if lang == "de":  # and the German pictures are German: the labels are made in the view's language
        drawn = " ".join(t.words for t in seen.texts)
        for german in ("ZUGREIHENFOLGE", "TASCHE", "STUFEN", "Ziel:"):
            assert german in drawn
        assert "Turn order" not in drawn and "POCKET" not in drawn


def test_the_recorder_finds_a_cut_and_an_overlap(fresh_caches: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself: a text shortened with "…", a word broken anywhere and two texts on each other are found."""
    seen = Recorder(monkeypatch)
    img = Image.new("RGB", (300, 100))
    d = ImageDraw.Draw(img)
    draw.fit(d, (10, 10), "Genehmigungsbeamter und Bauamtsschreiber", 120, (18,), (255, 255, 255), "cond")
    draw.text(d, (10, 50), "Schläger", 18, (255, 255, 255), "bold")
    draw.text(d, (40, 52), "Fässer", 18, (255, 255, 255), "bold")
    draw.wrap_text("Operationskarte", 60, 18, "cond")
    found = seen.problems()
    assert any(p.startswith("cut: ") for p in found)
    assert any(p.startswith("overlap: ") and "Schläger" in p for p in found)
    assert any(p.startswith("word broken") for p in found)
    assert not any("Genehmigungs" in p and "overlap" in p for p in found)


def _draws(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, sign: str) -> bool:
    """Whether ``font`` has a glyph for ``sign`` (it draws otherwise than for a code point no font has)."""

    def ink(s: str) -> bytes:
        img = Image.new("L", (64, 64))
        ImageDraw.Draw(img).text((12, 12), s, font=font, fill=255)
        return img.tobytes()

    return ink(sign) != ink("\U0010fffd")


def test_every_font_style_draws_the_german_letters(fresh_caches: None) -> None:
    for style in fonts.STYLES:
        font = fonts.get(20, style)
        assert isinstance(getattr(font, "path", None), str), f"{style}: DejaVu is not installed"
        assert [s for s in GERMAN + SIGNS if not _draws(font, s)] == [], style


def test_without_dejavu_german_is_drawn_in_letters_the_fallback_has(
    fresh_caches: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Pillow's bundled font lacks ä ö ü ß „: without DejaVu those are drawn as ae oe ue ss " (not as empty
    boxes), and the German pictures are still drawn."""
    fallback = ImageFont.load_default(size=20)
    assert [s for s in GERMAN if not _draws(fallback, s)], "the fallback font draws German now: drop the plain letters"
    monkeypatch.setattr(fonts, "FONT_DIR", tmp_path)
    assert fonts.is_fallback(20) and fonts.printable("Fässer „groß“", 20) == 'Faesser "gross"'
    seen = Recorder(monkeypatch)
    pictures = list(every_picture("over-solo", "de"))
    drawn = {s for t in seen.texts for s in t.words}
    assert len(pictures) == 5 and seen.texts
    assert [s for s in drawn if not _draws(fallback, s)] == []


@pytest.mark.parametrize("name", POSITIONS)
def test_german_pictures_weigh_what_the_english_ones_do(name: str) -> None:
    """The German pictures are PNGs of the same sizes, and their bytes within 10% of the English ones."""
    sizes = {}
    for lang in LANGS:
        view = in_lang(spectator(name), lang)
        pics = se.render_pictures(view)
        board = se.render_player_board(in_lang(own(name, 0), lang), 0)
        assert sum(len(b) for _, b in pics) < PAIR_BYTES
        sizes[lang] = [len(b) for _, b in pics] + [len(board)]
        dims = [Image.open(io.BytesIO(b)).size for _, b in pics]
        sizes[lang + " px"] = dims
    assert sizes["en px"] == sizes["de px"]
    for en, de in zip(sizes["en"], sizes["de"], strict=True):
        assert 0.9 * en < de < 1.1 * en, sizes
