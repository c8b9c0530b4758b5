"""Speakeasy's pieces drawn small: barrels, Family Members, Books, Mobster hats, seat badges, tags and panels.

Shared by every Speakeasy picture; the generic helpers (text, fitting, sprites, encoding) are in ``render.draw``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render import fonts
from render.draw import RGB, SS, badge, fit, paste, put_text, text, text_width
from render.speakeasy.style import (
    BARREL,
    BARREL_DARK,
    BOOK,
    CREAM,
    DIM,
    FS_BADGE_L,
    FS_BADGE_M,
    FS_BADGE_S,
    FS_SECTION,
    FS_SMALL,
    FS_WORDMARK,
    GOLD,
    HEADER,
    INK,
    LINE,
    MOB,
    MUTED,
    PANEL,
    TILE,
    WIDTH,
)


def label(d: ImageDraw.ImageDraw, x: float, y: float, words: str, fill: RGB = MUTED, size: int = FS_SECTION) -> None:
    """A small capitals section label."""
    text(d, (x, y), words.upper(), size, fill, "cond_bold")


def panel(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: RGB = PANEL, outline: RGB = LINE
) -> None:
    """A rounded panel."""
    d.rounded_rectangle(box, 10, fill=fill, outline=outline, width=2)


def barrel(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, full: bool = True) -> None:
    """A barrel ``s`` px tall: brown with dark hoops (an outline when empty)."""
    w = s * 0.78
    box = (cx - w / 2, cy - s / 2, cx + w / 2, cy + s / 2)
    if full:
        d.rounded_rectangle(box, s * 0.28, fill=BARREL, outline=BARREL_DARK, width=2)
        for f in (0.3, 0.7):
            yy = cy - s / 2 + s * f
            d.line((cx - w / 2 + 1, yy, cx + w / 2 - 1, yy), fill=BARREL_DARK, width=2)
    else:
        d.rounded_rectangle(box, s * 0.28, outline=DIM, width=2)


def pawn(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: RGB) -> None:
    """A Family Member: a pawn ``s`` px tall."""
    r = s * 0.2
    top = cy - s / 2
    d.polygon(
        [
            (cx - s * 0.34, cy + s / 2),
            (cx + s * 0.34, cy + s / 2),
            (cx + s * 0.12, top + 2 * r),
            (cx - s * 0.12, top + 2 * r),
        ],
        fill=colour,
        outline=INK,
    )
    d.ellipse((cx - r, top, cx + r, top + 2 * r), fill=colour, outline=INK)


def book(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    """A Book: a red cover with a light page edge."""
    w = s * 0.74
    d.rectangle((cx - w / 2, cy - s / 2, cx + w / 2, cy + s / 2), fill=BOOK, outline=INK)
    d.rectangle((cx - w / 2 + 3, cy + s / 2 - 5, cx + w / 2, cy + s / 2 - 2), fill=CREAM)


def fedora(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, colour: RGB) -> None:
    """A Mobster's hat ``w`` px wide, its brim at ``cy``."""
    d.ellipse((cx - w / 2, cy - w * 0.1, cx + w / 2, cy + w * 0.1), fill=colour)
    cw = w * 0.56
    d.rounded_rectangle((cx - cw / 2, cy - w * 0.42, cx + cw / 2, cy), w * 0.1, fill=colour)
    d.rectangle((cx - cw / 2, cy - w * 0.15, cx + cw / 2, cy - w * 0.06), fill=MOB)


@lru_cache(maxsize=32)
def ring_sprite(size: int, colour: RGB) -> Image.Image:
    """An empty round space (a smooth ring)."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(big).ellipse((0, 0, s - 1, s - 1), outline=colour, width=2 * SS)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def empty_spot(img: Image.Image, cx: int, cy: int, size: int) -> None:
    """An empty round space for a Capo or a Family Member."""
    paste(img, ring_sprite(size, DIM), cx - size // 2, cy - size // 2)


def seat_badge(
    img: Image.Image, cx: float, cy: float, size: int, seat: int, letters: Sequence[str], min_font: int = FS_SMALL
) -> None:
    """A seat's badge; its letter scales with the badge, never under ``min_font``."""
    fs = FS_BADGE_L if size >= 54 else FS_BADGE_M if size >= 34 else FS_BADGE_S if size >= 26 else FS_SMALL
    fs = max(fs, min_font)
    badge(img, int(cx), int(cy), size, seat, letters[seat] if 0 <= seat < len(letters) else "?", fs)


def mini_pill(
    d: ImageDraw.ImageDraw,
    x: float,
    cy: float,
    words: str,
    fill: RGB,
    ink: RGB,
    outline: RGB | None = None,
    size: int = FS_SMALL,
) -> int:
    """A compact capitals tag whose left edge is at ``x``; returns its width."""
    w = int(text_width(words, size, "cond_bold")) + 12
    h = round(size * 1.5)
    d.rounded_rectangle((x, cy - h / 2, x + w, cy + h / 2), h // 2, fill=fill, outline=outline, width=2)
    put_text(d, (x + w / 2, cy), words, size, ink, "cond_bold", "mm")
    return w


def tile_tag(d: ImageDraw.ImageDraw, x: float, y: float, kind: str, anchor: str, size: int = FS_SMALL) -> int:
    """A City tile: a small tan tile with one line (``anchor`` "mm", "rb" or "lm"); returns its width."""
    font = fonts.get(size, "cond_bold")
    w = int(font.getlength(kind)) + 12
    h = round(size * 1.55)
    x0 = x - w / 2 if anchor == "mm" else x if anchor == "lm" else x - w
    y0 = y - h if anchor == "rb" else y - h / 2
    d.rounded_rectangle((x0, y0, x0 + w, y0 + h), 4, fill=TILE, outline=INK)
    put_text(d, (x0 + w / 2, y0 + h / 2), kind, size, INK, "cond_bold", "mm")
    return w


def after_colon(name: str) -> str:
    """``VIP Room: Book`` -> ``Book`` (the card's deck is said elsewhere)."""
    return name.split(": ", 1)[1] if ": " in name else name


def header_frame(
    d: ImageDraw.ImageDraw, height: int = 92, mark: str = "SPEAKEASY", mark_size: int = FS_WORDMARK
) -> None:
    """The dark band on top with the wordmark at its right (what stays the same all game)."""
    d.rectangle((0, 0, WIDTH, height), fill=HEADER)
    d.rectangle((0, height - 3, WIDTH, height), fill=GOLD)
    text(d, (WIDTH - 24, height // 2 - 2), mark, mark_size, GOLD, "serif_bold", "rm")


def header_title(
    d: ImageDraw.ImageDraw,
    title: str,
    sub: str = "",
    height: int = 92,
    sizes: Sequence[int] = (36, 32, 28, 24),
    sub_sizes: Sequence[int] = (20, 18, 16),
    mark: str = "SPEAKEASY",
    mark_size: int = FS_WORDMARK,
) -> None:
    """The header's title (and a smaller line under it), left of the wordmark."""
    max_w = WIDTH - 48 - fonts.get(mark_size, "serif_bold").getlength(mark) - 30
    if sub:
        fit(d, (24, 14), title, max_w, sizes, CREAM, "serif_bold")
        fit(d, (24, 62), sub, max_w, sub_sizes, MUTED, "regular")
    else:
        fit(d, (24, height // 2 - 2), title, max_w, sizes, CREAM, "serif_bold", "lm")


def header(img: Image.Image, title: str, sub: str = "") -> None:
    """The header of the player board and the final chart: band, wordmark and title."""
    d = ImageDraw.Draw(img)
    header_frame(d)
    header_title(d, title, sub)
