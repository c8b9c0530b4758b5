"""Drawing helpers shared by the table pictures: sprites, badges, pills, text fitting and PNG encoding.

Shapes with rounded or slanted edges are drawn at ``SS`` times the size and scaled down, so their edges are
smooth; they are cached because the same card backs and badges recur on every picture. Text is drawn
directly (FreeType already smooths it).
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from render import fonts

#: Supersampling factor for smooth sprite edges.
SS = 3

RGB = tuple[int, int, int]

#: Okabe-Ito colours (safe for the common colour-vision deficiencies), each with its own badge shape.
PLAYER_COLOURS: tuple[RGB, ...] = (
    (86, 180, 233),  # sky blue
    (230, 159, 0),  # orange
    (204, 121, 167),  # reddish purple
    (240, 228, 66),  # yellow
    (0, 114, 178),  # blue
)
PLAYER_SHAPES: tuple[str, ...] = ("circle", "square", "diamond", "triangle", "hexagon")


def player_colour(seat: int) -> RGB:
    """The colour of a seat."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def player_shape(seat: int) -> str:
    """The badge shape of a seat."""
    return PLAYER_SHAPES[seat % len(PLAYER_SHAPES)]


def ink_on(colour: RGB) -> RGB:
    """Dark or light text, whichever reads better on ``colour``."""
    r, g, b = colour
    return (24, 20, 18) if 0.299 * r + 0.587 * g + 0.114 * b > 120 else (255, 255, 255)


def badge_letters(names: Sequence[str]) -> list[str]:
    """One letter per player: their initial when all initials differ, otherwise A, B, C... by seat."""
    initials = [(n.strip()[:1] or "?").upper() for n in names]
    if len(set(initials)) == len(initials) and all(i.isalnum() for i in initials):
        return initials
    return [chr(ord("A") + i) for i in range(len(names))]


# --- sprites ------------------------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def rounded_sprite(w: int, h: int, radius: int, fill: RGB, outline: RGB | None = None, width: int = 0) -> Image.Image:
    """An RGBA rounded rectangle with smooth corners."""
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius * SS, fill=fill, outline=outline, width=width * SS)
    return big.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=128)
def shadow_mask(w: int, h: int, radius: int, blur: int, strength: int) -> Image.Image:
    """A soft "L" shadow of a ``w``×``h`` rounded rectangle, ``blur`` px larger on every side."""
    m = Image.new("L", (w + 4 * blur, h + 4 * blur), 0)
    ImageDraw.Draw(m).rounded_rectangle((2 * blur, 2 * blur, 2 * blur + w, 2 * blur + h), radius, fill=strength)
    return m.filter(ImageFilter.GaussianBlur(blur))


def paste(img: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    """Paste an RGBA sprite onto the picture, using its alpha."""
    img.paste(sprite, (x, y), sprite)


def drop_shadow(
    img: Image.Image, x: int, y: int, w: int, h: int, radius: int, blur: int = 6, dy: int = 5, strength: int = 150
) -> None:
    """A soft shadow under the rectangle at ``(x, y)``."""
    m = shadow_mask(w, h, radius, blur, strength)
    img.paste((0, 0, 0), (x - 2 * blur, y - 2 * blur + dy), m)


def with_shadow(sprite: Image.Image, radius: int, blur: int, dy: int, strength: int) -> Image.Image:
    """``sprite`` with a soft shadow baked in: a larger RGBA canvas, the sprite at ``(2*blur, 2*blur)``.

    One paste then draws card and shadow, which is cheaper than two pastes per card.
    """
    w, h = sprite.size
    m = 2 * blur
    canvas = Image.new("RGBA", (w + 2 * m, h + 2 * m + dy), (0, 0, 0, 0))
    shade = Image.new("RGBA", (w + 2 * m, h + 2 * m), (0, 0, 0, 0))
    shade.putalpha(shadow_mask(w, h, radius, blur, strength))
    canvas.alpha_composite(shade, (0, dy))
    canvas.alpha_composite(sprite, (m, m))
    return canvas


@lru_cache(maxsize=64)
def badge_sprite(shape: str, size: int, colour: RGB, ring: RGB) -> Image.Image:
    """A player badge: a filled ``shape`` with a light ring, ``size`` px across."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    edge = 3 * SS
    for pad, col in ((0, ring), (edge, colour)):
        box = (pad, pad, s - 1 - pad, s - 1 - pad)
        c = (s - 1) / 2
        r = c - pad
        if shape == "circle":
            d.ellipse(box, fill=col)
        elif shape == "square":
            d.rounded_rectangle(box, max(1, int(s * 0.14) - pad // 2), fill=col)
        elif shape == "diamond":
            d.polygon([(c, pad), (s - 1 - pad, c), (c, s - 1 - pad), (pad, c)], fill=col)
        elif shape == "triangle":
            # an upward triangle, sitting a little low so the letter has room
            tri = (c, c + s * 0.08, r * 1.12)
            d.regular_polygon(tri, 3, rotation=0, fill=col)
        else:
            d.regular_polygon((c, c, r), 6, rotation=0, fill=col)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def badge(img: Image.Image, cx: int, cy: int, size: int, seat: int, letter: str, font_size: int) -> None:
    """A seat's badge (colour, shape and letter) centred on ``(cx, cy)``."""
    colour = player_colour(seat)
    shape = player_shape(seat)
    paste(img, badge_sprite(shape, size, colour, (245, 238, 220)), cx - size // 2, cy - size // 2)
    dy = int(size * 0.1) if shape == "triangle" else 0
    put_text(ImageDraw.Draw(img), (cx, cy + dy), letter, font_size, ink_on(colour), "bold", "mm")


# --- text ---------------------------------------------------------------------------------------------------


def text_width(text: str, size: int, style: str = "regular") -> float:
    """The advance width of ``text`` in px (remembered: fitting measures the same words every turn)."""
    fonts.get(size, style)  # refuses a size under the minimum, as drawing would
    return _width(fonts.printable(text, size, style), size, style, str(fonts.FONT_DIR))


@lru_cache(maxsize=8192)
def _width(text: str, size: int, style: str, font_dir: str) -> float:
    return fonts.get(size, style).getlength(text)


def fit_text(text: str, max_w: float, sizes: Sequence[int], style: str = "regular") -> tuple[str, int]:
    """The largest of ``sizes`` at which ``text`` fits ``max_w``; at the smallest, the text is shortened."""
    for size in sizes:
        if text_width(text, size, style) <= max_w:
            return text, size
    size = sizes[-1]
    while len(text) > 1 and text_width(text + "…", size, style) > max_w:
        text = text[:-1]
    return text.rstrip() + "…", size


SOFT_HYPHEN = "\u00ad"


def _split_word(word: str, max_w: float, size: int, style: str) -> list[str]:
    """A word too long for a line, split with hyphens: at its soft hyphens if it has any."""
    if SOFT_HYPHEN in word:
        parts = word.split(SOFT_HYPHEN)
        out: list[str] = []
        cur = parts[0]
        for part in parts[1:]:
            if text_width(cur + part + "-", size, style) <= max_w:
                cur += part
            else:
                out.append(cur + "-")
                cur = part
        return [*out, cur]
    out = []
    while text_width(word, size, style) > max_w and len(word) > 2:
        cut = len(word) - 1
        while cut > 1 and text_width(word[:cut] + "-", size, style) > max_w:
            cut -= 1
        out.append(word[:cut] + "-")
        word = word[cut:]
    return [*out, word]


def wrap_text(text: str, max_w: float, size: int, style: str = "regular") -> list[str]:
    """Greedy word wrap; a word longer than the line is split with a hyphen (at a soft hyphen if it has one)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if text_width(trial.replace(SOFT_HYPHEN, ""), size, style) <= max_w:
            line = trial
            continue
        if line and SOFT_HYPHEN in word:  # the word's longest head that still fits the line ends it, hyphenated
            parts = word.split(SOFT_HYPHEN)
            for k in range(len(parts) - 1, 0, -1):
                head = f"{line} {''.join(parts[:k])}-"
                if text_width(head, size, style) <= max_w:
                    lines.append(head)
                    line, word = "", SOFT_HYPHEN.join(parts[k:])
                    break
            if not line and text_width(word.replace(SOFT_HYPHEN, ""), size, style) <= max_w:
                line = word
                continue
        if line:
            lines.append(line)
        pieces = [word]
        if text_width(word.replace(SOFT_HYPHEN, ""), size, style) > max_w:
            pieces = _split_word(word, max_w, size, style)
        lines.extend(pieces[:-1])
        line = pieces[-1]
    if line:
        lines.append(line)
    return [t.replace(SOFT_HYPHEN, "") for t in lines]


def fit_lines(
    text: str, max_w: float, max_h: float, sizes: Sequence[int], style: str = "regular", spacing: float = 1.1
) -> tuple[list[str], int]:
    """Wrapped lines at the largest of ``sizes`` whose block fits ``max_w``×``max_h``."""
    for size in sizes:
        lines = wrap_text(text, max_w, size, style)
        if len(lines) * size * spacing <= max_h and all(text_width(t, size, style) <= max_w for t in lines):
            return lines, size
    size = sizes[-1]
    return wrap_text(text, max_w, size, style), size


@lru_cache(maxsize=4096)
def _text_mask(
    words: str, size: int, style: str, anchor: str, fx: float, fy: float, font_dir: str
) -> tuple[Image.Image, int, int]:
    """``words`` rendered once as a coverage mask at the sub-pixel offset ``(fx, fy)``, with where its top-left
    corner goes relative to the anchor point's whole pixel (``font_dir``: fonts from elsewhere, another mask)."""
    font = fonts.get(size, style)
    x0, y0, x1, y1 = (int(math.floor(v)) for v in font.getbbox(words, anchor=anchor))
    mask = Image.new("L", (x1 - x0 + 4, y1 - y0 + 4), 0)
    # drawn by ImageDraw itself (the same FreeType rendering, and the tests see every font size drawn)
    ImageDraw.Draw(mask).text((fx - x0 + 2, fy - y0 + 2), words, font=font, fill=255, anchor=anchor)
    return mask, x0 - 2, y0 - 2


def put_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    words: str,
    size: int,
    fill: RGB,
    style: str = "regular",
    anchor: str = "mm",
) -> None:
    """Draw ``words`` like ``ImageDraw.text``, but from a cache of rendered texts: a board repeats the same words
    turn after turn, and rendering glyphs was the largest part of drawing a picture's pieces."""
    img = getattr(d, "_image", None)
    font = fonts.get(size, style)
    words = fonts.printable(words, size, style)
    if img is None or img.mode != "RGB" or not isinstance(font, ImageFont.FreeTypeFont) or not words:
        d.text(xy, words, font=font, fill=fill, anchor=anchor)
        return
    x, y = xy
    fx, fy = round(x - math.floor(x), 2), round(y - math.floor(y), 2)
    mask, ox, oy = _text_mask(words, size, style, anchor, fx, fy, str(fonts.FONT_DIR))
    img.paste(fill, (math.floor(x) + ox, math.floor(y) + oy), mask)


def text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    words: str,
    size: int,
    fill: RGB,
    style: str = "regular",
    anchor: str = "la",
) -> None:
    """``words`` at ``xy`` in ``style`` at ``size`` px (every picture's text goes through ``fonts.get``)."""
    put_text(d, xy, words, size, fill, style, anchor)


def fit(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    words: str,
    max_w: float,
    sizes: Sequence[int],
    fill: RGB,
    style: str = "regular",
    anchor: str = "la",
) -> int:
    """``words`` at the largest of ``sizes`` that fits ``max_w`` (shortened with "…" at the smallest); its width."""
    shown, size = fit_text(words, max_w, sizes, style)
    put_text(d, xy, shown, size, fill, style, anchor)
    return int(text_width(shown, size, style))


def block(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    words: str,
    max_w: float,
    size: int,
    fill: RGB,
    style: str = "regular",
    max_lines: int = 3,
    centre: bool = False,
) -> float:
    """``words`` wrapped to ``max_w`` from ``(x, y)`` down (at most ``max_lines``, the last shortened with "…");
    centred on ``x`` when ``centre``. Returns the y below the last line."""
    lines = wrap_text(words, max_w, size, style)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], fit_text(" ".join(lines[max_lines - 1 :]), max_w, (size,), style)[0]]
    step = round(size * 1.18)
    for line in lines:
        put_text(d, (x, y), line, size, fill, style, "ma" if centre else "la")
        y += step
    return y


def outline_changed(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], radius: int, colour: RGB, width: int = 5
) -> None:
    """The "changed since the last picture" outline: a bright ring just outside ``box`` with a dark edge, so it
    reads on every fill."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle((x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius + 4, outline=(0, 0, 0), width=width + 2)
    d.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius + 3, outline=colour, width=width)


def pill(
    draw: ImageDraw.ImageDraw,
    x: int,
    cy: int,
    text: str,
    size: int,
    fill: RGB,
    ink: RGB,
    style: str = "cond_bold",
    outline: RGB | None = None,
) -> int:
    """A rounded label whose left edge is at ``x``, centred on ``cy``; returns its width."""
    tw = int(text_width(text, size, style))
    pad = max(8, size // 2)
    h = int(size * 1.55)
    w = tw + 2 * pad
    draw.rounded_rectangle((x, cy - h // 2, x + w, cy + h // 2), h // 2, fill=fill, outline=outline, width=2)
    put_text(draw, (x + w / 2, cy), text, size, ink, style, "mm")
    return w


def dashed_rounded_rect(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    radius: int,
    colour: RGB,
    width: int = 3,
    dash: int = 12,
    gap: int = 9,
) -> None:
    """An outline of dashes with rounded corners (an empty card slot)."""
    x0, y0, x1, y1 = box
    r = radius
    for a, b, fixed, horizontal in (
        (x0 + r, x1 - r, y0, True),
        (x0 + r, x1 - r, y1, True),
        (y0 + r, y1 - r, x0, False),
        (y0 + r, y1 - r, x1, False),
    ):
        length = b - a
        n = max(1, round((length + gap) / (dash + gap)))
        step = (length + gap) / n
        seg = step - gap
        for k in range(n):
            s = a + k * step
            e = s + seg
            if horizontal:
                draw.line((s, fixed, e, fixed), fill=colour, width=width)
            else:
                draw.line((fixed, s, fixed, e), fill=colour, width=width)
    half = width // 2
    for cx, cy, start in ((x0 + r, y0 + r, 180), (x1 - r, y0 + r, 270), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90)):
        draw.arc((cx - r + half - 1, cy - r + half - 1, cx + r - half, cy + r - half), start, start + 90, colour, width)


# --- background and encoding --------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def felt(w: int, h: int, centre: RGB, edge: RGB) -> Image.Image:
    """A green felt: ``centre`` colour fading to ``edge`` towards the corners (a soft vignette)."""
    g = Image.radial_gradient("L").resize((w, h), Image.Resampling.BILINEAR)
    # radial_gradient is 0 in the centre and 255 at radius 128 (the corners of the 256 square exceed it)
    g = g.point(lambda v: min(255, int(v * 1.15)))
    a = Image.new("RGB", (w, h), centre)
    b = Image.new("RGB", (w, h), edge)
    return Image.composite(b, a, g)


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


#: The palette is chosen from every ``PALETTE_STEP``-th row and column: flat board graphics repeat their colours,
#: so the sample finds the same palette (measured: the same mean error against the RGB picture, under 1 of 255 per
#: channel on the Speakeasy pictures) in a third of the time (8.6 ms instead of 27 ms on a 1600 x 1470 picture).
PALETTE_STEP = 3
#: zlib's level for the pictures' rows (issue 24: pictures now follow each step of a turn, so bytes count more than
#: before): level 6 deflates a 1600 x 1474 Speakeasy table 16% smaller than level 3 (108 KB against 129 KB) for
#: 9 ms more; level 9 saves 8% more for 110 ms more.
ZLIB_LEVEL = 6
#: colours of a picture's palette (issue 24: pictures follow each step now, so bytes count more): 48 instead of
#: 256 makes a Speakeasy picture about a fifth smaller; these flat graphics (a few dozen colours and their
#: anti-aliased text) look the same, under 2 of 255 off per channel on average, and every player's colour is kept
PALETTE_COLOURS = 48


def palette_of(img: Image.Image) -> Image.Image:
    """A 256-colour palette for ``img`` (a "P" image to quantize with), from a sample of its pixels; deterministic:
    the same picture gets the same palette."""
    w, h = img.size
    sample = img.resize((max(1, w // PALETTE_STEP), max(1, h // PALETTE_STEP)), Image.Resampling.NEAREST)
    return sample.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes, small and fast: the picture reduced to a ``PALETTE_COLOURS``-colour palette (flat board graphics lose
    nothing one can see), rows without filters, deflated at zlib level ``ZLIB_LEVEL`` (6; it was 3).

    Measured on a 1600 x 2448 Speakeasy board: 218 KB instead of 479 KB as RGB, which halves what a game
    uploads (bench/uploads_speakeasy.py). Pillow's own encoder tries the five PNG filters on every row, which
    costs about twice the deflate itself; these pictures compress as well without them. Issue 12, on the
    1600 x 1470 city picture: palette 146 KB against 310 KB for RGB written the same way, in about the same
    time (the quantising costs what the larger deflate of RGB costs); zlib level 3 deflates these rows 11%
    smaller than level 1 in the same time (level 4 and up take about twice as long). The palette is chosen from
    a third of the rows and columns (``palette_of``), which costs a third of choosing it from every pixel.
    """
    if img.mode != "RGB":
        img = img.convert("RGB")
    paletted = img.quantize(palette=palette_of(img), dither=Image.Dither.NONE)
    w, h = paletted.size
    raw = paletted.tobytes()
    rows = b"\x00" + b"\x00".join(raw[i : i + w] for i in range(0, len(raw), w))
    palette = bytes((paletted.getpalette() or [])[: 3 * 256])
    header = struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"PLTE", palette)
        + _chunk(b"IDAT", zlib.compress(rows, ZLIB_LEVEL))
        + _chunk(b"IEND", b"")
    )
