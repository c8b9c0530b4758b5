"""Omerta's cards as sprites: faces (bottles and characters), backs, slots, markers and their shadows, cached."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render.draw import RGB, SS, dashed_rounded_rect, fit_lines, fit_text, paste, with_shadow
from render.omerta.colours import (
    BACK,
    BACK_DARK,
    BACK_GOLD,
    CREAM,
    FACE_EDGE,
    GOLD,
    INK,
    MUTED,
    POLICE_BLUE,
    POLICE_LIGHT,
    RED,
)
from render.omerta.layout import CARD_RADIUS, FS_CARD_MIN, FS_POLICE, card_h
from words import words
from words.msg import M, T

_CHARACTER_ACCENT: dict[str, RGB] = {
    "Traitor": (122, 30, 34),
    "Mole": (102, 76, 52),
    "Lady": (132, 48, 108),
    "Chauffeur": (46, 66, 96),
    "Police Check": POLICE_BLUE,
    "La Mamma": (168, 84, 38),
    "Safecracker": (72, 82, 94),
    "Alibi": (48, 112, 72),
}


@lru_cache(maxsize=64)
def card_back(w: int, h: int) -> Image.Image:
    """A face-down card: burgundy with a gold frame and a diamond lattice."""
    s = SS
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    r = CARD_RADIUS * s
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), r, fill=(238, 228, 204))
    inset = max(4, w // 22) * s
    d.rounded_rectangle((inset, inset, w * s - 1 - inset, h * s - 1 - inset), r // 2, fill=BACK)
    # lattice, clipped to the inner panel
    lat = Image.new("RGBA", big.size, (0, 0, 0, 0))
    ld = ImageDraw.Draw(lat)
    step = max(10, w // 8) * s
    for k in range(-h * s, w * s + h * s, step):
        ld.line((k, 0, k + h * s, h * s), fill=BACK_DARK, width=2 * s)
        ld.line((k, 0, k - h * s, h * s), fill=BACK_DARK, width=2 * s)
    mask = Image.new("L", big.size, 0)
    frame = inset + 3 * s
    ImageDraw.Draw(mask).rounded_rectangle((frame, frame, w * s - 1 - frame, h * s - 1 - frame), r // 3, fill=255)
    big.paste(lat, (0, 0), Image.composite(lat, Image.new("RGBA", big.size, (0, 0, 0, 0)), mask))
    d.rounded_rectangle((frame, frame, w * s - 1 - frame, h * s - 1 - frame), r // 3, outline=BACK_GOLD, width=2 * s)
    # a gold diamond in the middle (covered by the slot number on slots)
    cx, cy, rr = w * s / 2, h * s / 2, w * s * 0.16
    for radius, colour in ((rr, BACK_GOLD), (rr * 0.55, BACK)):
        d.polygon([(cx, cy - radius), (cx + radius, cy), (cx, cy + radius), (cx - radius, cy)], fill=colour)
    return big.resize((w, h), Image.Resampling.LANCZOS)


def _face_base(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), CARD_RADIUS * SS, fill=CREAM, outline=FACE_EDGE, width=2 * SS)
    return big, d


def _bottle(d: ImageDraw.ImageDraw, cx: float, top: float, bottom: float, width: float) -> None:
    """A whisky bottle drawn with primitives, ``width`` wide, between ``top`` and ``bottom``."""
    height = bottom - top
    glass = (134, 78, 30)
    dark = (88, 48, 18)
    neck_w = width * 0.32
    body_top = top + height * 0.36
    # neck, lip and cap
    d.rectangle((cx - neck_w / 2, top + height * 0.08, cx + neck_w / 2, body_top + 4), fill=glass)
    d.rounded_rectangle((cx - neck_w * 0.62, top, cx + neck_w * 0.62, top + height * 0.1), width * 0.05, fill=RED)
    # shoulders and body
    d.ellipse((cx - width / 2, body_top - height * 0.1, cx + width / 2, body_top + height * 0.12), fill=glass)
    d.rounded_rectangle((cx - width / 2, body_top, cx + width / 2, bottom), width * 0.14, fill=glass)
    d.rounded_rectangle((cx - width / 2, bottom - height * 0.05, cx + width / 2, bottom), width * 0.14, fill=dark)
    # highlight
    d.rounded_rectangle(
        (cx - width * 0.36, body_top + height * 0.02, cx - width * 0.24, bottom - height * 0.12),
        width * 0.06,
        fill=(196, 136, 74),
    )
    # label with a red band
    ly0, ly1 = top + height * 0.56, top + height * 0.82
    d.rectangle((cx - width / 2 + 1, ly0, cx + width / 2 - 1, ly1), fill=(240, 226, 190))
    band = (ly1 - ly0) * 0.28
    d.rectangle((cx - width / 2 + 1, ly0 + band, cx + width / 2 - 1, ly0 + 2 * band), fill=RED)


def _card_px(w: int, frac: float) -> int:
    return max(FS_CARD_MIN, round(w * frac))


@lru_cache(maxsize=128)
def bottle_face(value: int, w: int, h: int) -> Image.Image:
    """A bottle card face up: its value big, corner indices and a bottle."""
    big, d = _face_base(w, h)
    bw = w * SS * 0.3
    _bottle(d, w * SS * 0.5, h * SS * 0.5, h * SS * 0.9, bw)
    img = big.resize((w, h), Image.Resampling.LANCZOS)
    dd = ImageDraw.Draw(img)
    text = str(value)
    size = _card_px(w, 0.5 if value < 10 else 0.42)
    dd.text((w / 2, h * 0.28), text, font=fonts.get(size, "bold"), fill=INK, anchor="mm")
    corner = _card_px(w, 0.15)
    pad = max(5, w // 16)
    dd.text((pad, pad - 2), text, font=fonts.get(corner, "bold"), fill=RED, anchor="lt")
    dd.text((w - pad, h - pad), text, font=fonts.get(corner, "bold"), fill=RED, anchor="rb")
    return img


def _fedora(d: ImageDraw.ImageDraw, cx: float, cy: float, width: float, colour: RGB) -> None:
    brim_h = width * 0.2
    d.ellipse((cx - width / 2, cy - brim_h / 2, cx + width / 2, cy + brim_h / 2), fill=colour)
    crown_w = width * 0.56
    d.rounded_rectangle((cx - crown_w / 2, cy - width * 0.42, cx + crown_w / 2, cy), width * 0.1, fill=colour)
    d.polygon(
        [(cx - crown_w * 0.2, cy - width * 0.42), (cx, cy - width * 0.33), (cx + crown_w * 0.2, cy - width * 0.42)],
        fill=CREAM,
    )
    d.rectangle((cx - crown_w / 2, cy - width * 0.14, cx + crown_w / 2, cy - width * 0.06), fill=RED)


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB) -> None:
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    d.polygon(pts, fill=colour)
    d.ellipse((cx - r * 0.22, cy - r * 0.22, cx + r * 0.22, cy + r * 0.22), fill=GOLD)


def _dial(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    d.ellipse((cx - r * 0.72, cy - r * 0.72, cx + r * 0.72, cy + r * 0.72), fill=(210, 214, 220))
    for k in range(12):
        a = k * math.pi / 6
        d.line(
            (
                cx + r * 0.55 * math.cos(a),
                cy + r * 0.55 * math.sin(a),
                cx + r * 0.7 * math.cos(a),
                cy + r * 0.7 * math.sin(a),
            ),
            fill=colour,
            width=max(1, int(r * 0.06)),
        )
    d.ellipse((cx - r * 0.2, cy - r * 0.2, cx + r * 0.2, cy + r * 0.2), fill=colour)


#: Where a long card name may break across lines (soft hyphens), by its words in any language.
_BREAKS = {
    "Safecracker": "Safe\u00adcracker",
    "Geldschrankknacker": "Geld\u00adschrank\u00adknacker",
    "Polizeikontrolle": "Polizei\u00adkontrolle",
}


@lru_cache(maxsize=128)
def character_face(name: str, points: int, w: int, h: int, lang: str = "en") -> Image.Image:
    """A character card face up: its name (``name`` in English, shown in ``lang``) on a coloured band, an
    emblem and its points."""
    say = words(lang)
    accent = _CHARACTER_ACCENT.get(name, (70, 70, 70))
    big, d = _face_base(w, h)
    s = SS
    band = h * 0.34
    sizes = [x for x in (round(w * 0.2), round(w * 0.17), round(w * 0.15), 16, 15, 14) if x >= FS_CARD_MIN]
    shown = " ".join(_BREAKS.get(part, part) for part in say(T("omerta.card", name)).split(" "))
    lines, size = fit_lines(shown, w - 12, band - 10, sorted(set(sizes), reverse=True), "cond_bold", 1.05)
    # a long name (Geldschrankknacker on a small card) gets a taller band, and the emblem moves down and shrinks
    grow = max(0.0, min(h * 0.5, len(lines) * size * 1.05 + 10) - band)
    band += grow
    scale = 1 - grow / (h * 0.4)
    d.rounded_rectangle((3 * s, 3 * s, w * s - 3 * s, band * s), (CARD_RADIUS - 2) * s, fill=accent)
    d.rectangle((3 * s, band * s * 0.6, w * s - 3 * s, band * s), fill=accent)
    cx, cy = w * s / 2, (h * 0.6 + grow * 0.6) * s
    if name == "Police Check":
        _star(d, cx, cy, w * s * 0.2 * scale, accent)
    elif name == "Safecracker":
        _dial(d, cx, cy, w * s * 0.2 * scale, accent)
    else:
        _fedora(d, cx, cy + w * s * 0.1 * scale, w * s * 0.5 * scale, accent)
    img = big.resize((w, h), Image.Resampling.LANCZOS)
    dd = ImageDraw.Draw(img)
    font = fonts.get(size, "cond_bold")
    lh = size * 1.05
    y0 = band / 2 - lh * (len(lines) - 1) / 2 + 2
    for k, line in enumerate(lines):
        dd.text((w / 2, y0 + k * lh), line, font=font, fill=(255, 255, 255), anchor="mm")
    pts = say(M("render.omerta.pts", "{n} pts", n=points))
    psize = _card_px(w, 0.15)
    dd.text((w / 2, h - max(8, h * 0.07)), pts, font=fonts.get(psize, "bold"), fill=RED, anchor="mb")
    return img


def card_face(card: dict[str, Any], w: int, lang: str = "en") -> Image.Image:
    """A face-up card from view data (``kind``, ``name``, ``points``, ``value``), ``w`` px wide, in ``lang``."""
    h = card_h(w)
    if card.get("kind") == "bottle":
        return bottle_face(int(card.get("value") or card.get("points") or 0), w, h)
    return character_face(str(card.get("name", "?")), int(card.get("points", 0)), w, h, lang)


_SHADOW_BLUR, _SHADOW_DY, _SHADOW_ALPHA = 4, 4, 140
_SHADOW_M = 2 * _SHADOW_BLUR


def _shadowed(sprite: Image.Image) -> Image.Image:
    """``sprite`` on a transparent canvas with its soft shadow, offset by ``_SHADOW_M`` on the top left."""
    return with_shadow(sprite, CARD_RADIUS, _SHADOW_BLUR, _SHADOW_DY, _SHADOW_ALPHA)


@lru_cache(maxsize=64)
def _back_shadowed(w: int) -> Image.Image:
    return _shadowed(card_back(w, card_h(w)))


@lru_cache(maxsize=256)
def _face_shadowed(kind: str, name: str, points: int, value: int, w: int, lang: str) -> Image.Image:
    if kind == "bottle":
        return _shadowed(bottle_face(value, w, card_h(w)))
    return _shadowed(character_face(name, points, w, card_h(w), lang))


def _put(img: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    """Paste a shadowed sprite so that its card's top left corner lands on ``(x, y)``."""
    paste(img, sprite, x - _SHADOW_M, y - _SHADOW_M)


def place_face(img: Image.Image, card: dict[str, Any], x: int, y: int, w: int, lang: str) -> None:
    """A face-up card from view data with its shadow, its words in ``lang``."""
    kind = str(card.get("kind", ""))
    value = int(card.get("value") or card.get("points") or 0) if kind == "bottle" else 0
    _put(img, _face_shadowed(kind, str(card.get("name", "?")), int(card.get("points", 0)), value, w, lang), x, y)


def place_back(img: Image.Image, x: int, y: int, w: int, shadow: bool = True) -> None:
    """A face-down card, with or without its shadow."""
    if shadow:
        _put(img, _back_shadowed(w), x, y)
    else:
        paste(img, card_back(w, card_h(w)), x, y)


@lru_cache(maxsize=256)
def _slot_sprite(w: int, number: int, police: bool, lang: str = "en") -> Image.Image:
    """A face-down card in a player's slot with its slot number; a Police Check band if held."""
    sprite = _back_shadowed(w).copy()
    h = card_h(w)
    d = ImageDraw.Draw(sprite)
    x = y = _SHADOW_M
    cx = x + w / 2
    cy = y + h * 0.5
    r = w * 0.27
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CREAM, outline=BACK_GOLD, width=2)
    size = max(FS_CARD_MIN, min(38, round(w * 0.33)))
    if number >= 10:
        size = max(FS_CARD_MIN, round(size * 0.85))
    d.text((cx, cy + 1), str(number), font=fonts.get(size, "bold"), fill=INK, anchor="mm")
    if police:
        d.rounded_rectangle((x - 3, y - 3, x + w + 2, y + h + 2), CARD_RADIUS + 2, outline=POLICE_LIGHT, width=4)
        by0 = y + h * 0.74
        by1 = y + h * 0.92
        d.rectangle((x + 2, by0, x + w - 3, by1), fill=POLICE_BLUE)
        d.line((x + 2, by0, x + w - 3, by0), fill=POLICE_LIGHT, width=2)
        d.line((x + 2, by1, x + w - 3, by1), fill=POLICE_LIGHT, width=2)
        band = words(lang)(M("render.omerta.police_band", "POLICE"))
        text, fsize = fit_text(band, w - 8, (FS_POLICE + 4, FS_POLICE + 2, FS_POLICE, 16, 14), "cond_bold")
        d.text((cx, (by0 + by1) / 2), text, font=fonts.get(fsize, "cond_bold"), fill=(255, 255, 255), anchor="mm")
    return sprite


def slot_card(img: Image.Image, x: int, y: int, w: int, number: int, police: bool, lang: str) -> None:
    """A face-down card in a player's slot, with its slot number (and the Police Check band if held)."""
    _put(img, _slot_sprite(w, number, police, lang), x, y)


def empty_slot(img: Image.Image, x: int, y: int, w: int, number: int | None) -> None:
    """An empty slot (or pile): a dashed outline, with its slot number if it has one."""
    h = card_h(w)
    d = ImageDraw.Draw(img)
    dashed_rounded_rect(d, (x, y, x + w - 1, y + h - 1), CARD_RADIUS, MUTED, width=3, dash=12, gap=8)
    if number is not None:
        size = max(FS_CARD_MIN, min(34, round(w * 0.3)))
        d.text((x + w / 2, y + h / 2), str(number), font=fonts.get(size, "bold"), fill=MUTED, anchor="mm")


@lru_cache(maxsize=16)
def _hidden_sprite(w: int) -> Image.Image:
    sprite = _back_shadowed(w).copy()
    d = ImageDraw.Draw(sprite)
    h = card_h(w)
    cx, cy, r = _SHADOW_M + w / 2, _SHADOW_M + h / 2, w * 0.27
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD, outline=CREAM, width=2)
    size = max(FS_CARD_MIN, min(38, round(w * 0.36)))
    d.text((cx, cy + 1), "?", font=fonts.get(size, "bold"), fill=INK, anchor="mm")
    return sprite


def hidden_marker(img: Image.Image, x: int, y: int, w: int) -> None:
    """A face-down card whose face the viewer may not see: a back with a question mark."""
    _put(img, _hidden_sprite(w), x, y)


def clear_caches() -> None:
    """Forget every cached sprite and font (tests use it to observe every font size drawn)."""
    for f in (card_back, bottle_face, character_face, _back_shadowed, _face_shadowed, _slot_sprite, _hidden_sprite):
        f.cache_clear()
    from render import draw

    for g in (draw.rounded_sprite, draw.shadow_mask, draw.badge_sprite, draw.felt, draw._text_mask, draw._width):
        g.cache_clear()
    fonts.clear_cache()
