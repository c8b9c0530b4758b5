"""Pictures of a Speakeasy table, drawn from the engine's view dict (never from the engine state).

``render_board`` draws the public main board from the spectator view (it refuses a seat's own view, so a
private number can never reach the channel): the three Zones and their districts with every building, barrel,
protecting Family Member, Mobster Speakeasy, City tile, Cop, Cop tile, next-war gun space and Mobster; the
Zone and Central Park goals; the locations with their Capos; the City Docks; the Infamy, Zone Control and turn
order tracks; and each player's public numbers. ``render_player_board`` draws one player's Operations board (with
the hand and the safe only when the view is that seat's own), ``render_final`` the final scoring as a chart.
All return PNG bytes; the ``*_async`` variants run them off the event loop.

Colour is never the only cue: every player piece is a badge with the player's shape and letter.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render import speakeasy_text as words
from render.draw import (
    RGB,
    SS,
    badge,
    badge_letters,
    encode_png,
    fit_lines,
    fit_text,
    ink_on,
    paste,
    pill,
    player_colour,
)

View = dict[str, Any]


# --- sizes (px) ---------------------------------------------------------------------------------------------

WIDTH = 1600
MARGIN = 24
GAP = 16

#: Every font size the pictures use; all at least ``fonts.MIN_SIZE`` (the tests check this).
FS_TITLE = 36
FS_WORDMARK = 26
FS_SUB = 20
FS_SECTION = 16
FS_ZONE = 28
FS_DISTRICT = 20
FS_NUMBER = 17
FS_KIND = 18
FS_LABEL = 15
FS_SMALL = 14
FS_PERSON = 17
FS_BADGE_S = 15
FS_BADGE_M = 18
FS_BADGE_L = 30
FS_NAME = 28
FS_STAT = 28
FS_VALUE = 22
FS_LINE = 17
FS_BIG = 44
FS_CHART = 24
FONT_SIZES: tuple[int, ...] = (
    FS_TITLE,
    FS_WORDMARK,
    FS_SUB,
    FS_SECTION,
    FS_ZONE,
    FS_DISTRICT,
    FS_NUMBER,
    FS_KIND,
    FS_LABEL,
    FS_SMALL,
    FS_PERSON,
    FS_BADGE_S,
    FS_BADGE_M,
    FS_BADGE_L,
    FS_NAME,
    FS_STAT,
    FS_VALUE,
    FS_LINE,
    FS_BIG,
    FS_CHART,
)

HEADER_H = 92
STRIP_H = 168
ZONE_HEAD_H = 88
DISTRICT_H = 138
DISTRICT_GAP = 8
CITY_ROWS = 6  # Uptown's six districts; the shorter Zones end with a display box
PLAYER_H = 164
PLAYER_GAP = 10

# --- colours ------------------------------------------------------------------------------------------------

BG: RGB = (21, 23, 30)
HEADER: RGB = (12, 13, 18)
PANEL: RGB = (34, 37, 48)
PANEL_HI: RGB = (44, 48, 62)
LINE: RGB = (66, 70, 88)
SPACE: RGB = (27, 29, 38)
GOLD: RGB = (222, 184, 92)
CREAM: RGB = (246, 239, 220)
MUTED: RGB = (158, 164, 180)
DIM: RGB = (104, 108, 124)
INK: RGB = (30, 26, 22)
COP: RGB = (56, 108, 222)
COP_LIGHT: RGB = (150, 185, 255)
MOB: RGB = (112, 24, 34)
MOB_LIGHT: RGB = (232, 120, 120)
WAR: RGB = (200, 52, 40)
TILE: RGB = (214, 190, 140)
BARREL: RGB = (150, 94, 44)
BARREL_DARK: RGB = (84, 50, 22)
CLOSED: RGB = (46, 46, 50)
BOOK: RGB = (168, 60, 56)
OFF: RGB = (213, 94, 0)

#: Final-chart colours per part (Okabe-Ito order, each part also labelled in words).
PART_COLOURS: dict[str, RGB] = {
    "pocket": (0, 158, 115),
    "safe": (0, 114, 178),
    "protected": (213, 94, 0),
    "bottles": (204, 121, 167),
    "variety": (240, 228, 66),
    "achievements": (86, 180, 233),
    "city_tiles": (230, 159, 0),
}

LEVEL_KEYS = ("vip", "party", "stills", "fleet", "strength")
MAX_LEVEL = 5
INFAMY_MAX = 25
#: Printed on the Operations board: usable Trucks at Fleet levels 1..5, and the Goon spaces' costs.
TRUCKS_BY_FLEET = (1, 1, 2, 2, 2)
GOON_COSTS = (0, 1, 2, 3, 4, 5)
ROW_KINDS = ("stills", "speakeasy", "nightclub", "casino")


# --- small drawing helpers ----------------------------------------------------------------------------------


def _text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    style: str = "regular",
    anchor: str = "la",
) -> None:
    d.text(xy, text, font=fonts.get(size, style), fill=fill, anchor=anchor)


def _fit(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    max_w: float,
    sizes: Sequence[int],
    fill: RGB,
    style: str = "regular",
    anchor: str = "la",
) -> int:
    shown, size = fit_text(text, max_w, sizes, style)
    d.text(xy, shown, font=fonts.get(size, style), fill=fill, anchor=anchor)
    return int(fonts.get(size, style).getlength(shown))


def _label(d: ImageDraw.ImageDraw, x: float, y: float, text: str, fill: RGB = MUTED, anchor: str = "la") -> None:
    """A small capitals section label."""
    _text(d, (x, y), text.upper(), FS_SECTION, fill, "cond_bold", anchor)


def _panel(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: RGB = PANEL, outline: RGB = LINE
) -> None:
    d.rounded_rectangle(box, 10, fill=fill, outline=outline, width=2)


def _barrel(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, full: bool = True) -> None:
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


def _pawn(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: RGB) -> None:
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


def _book(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    """A Book: a red cover with a light page edge."""
    w = s * 0.74
    d.rectangle((cx - w / 2, cy - s / 2, cx + w / 2, cy + s / 2), fill=BOOK, outline=INK)
    d.rectangle((cx - w / 2 + 3, cy + s / 2 - 5, cx + w / 2, cy + s / 2 - 2), fill=CREAM)


def _fedora(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, colour: RGB) -> None:
    """A Mobster's hat ``w`` px wide, its brim at ``cy``."""
    d.ellipse((cx - w / 2, cy - w * 0.1, cx + w / 2, cy + w * 0.1), fill=colour)
    cw = w * 0.56
    d.rounded_rectangle((cx - cw / 2, cy - w * 0.42, cx + cw / 2, cy), w * 0.1, fill=colour)
    d.rectangle((cx - cw / 2, cy - w * 0.15, cx + cw / 2, cy - w * 0.06), fill=MOB)


@lru_cache(maxsize=32)
def _ring_sprite(size: int, colour: RGB) -> Image.Image:
    """An empty round space (a smooth ring)."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(big).ellipse((0, 0, s - 1, s - 1), outline=colour, width=2 * SS)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def _empty_spot(img: Image.Image, cx: int, cy: int, size: int) -> None:
    paste(img, _ring_sprite(size, DIM), cx - size // 2, cy - size // 2)


def _seat_badge(img: Image.Image, cx: float, cy: float, size: int, seat: int, letters: Sequence[str]) -> None:
    fs = FS_BADGE_L if size >= 54 else FS_BADGE_M if size >= 34 else FS_BADGE_S if size >= 26 else FS_SMALL
    badge(img, int(cx), int(cy), size, seat, letters[seat] if 0 <= seat < len(letters) else "?", fs)


def _mini_pill(
    d: ImageDraw.ImageDraw, x: float, cy: float, text: str, fill: RGB, ink: RGB, outline: RGB | None = None
) -> int:
    """A compact capitals tag; returns its width."""
    font = fonts.get(FS_SMALL, "cond_bold")
    w = int(font.getlength(text)) + 12
    d.rounded_rectangle((x, cy - 11, x + w, cy + 11), 11, fill=fill, outline=outline, width=2)
    d.text((x + w / 2, cy), text, font=font, fill=ink, anchor="mm")
    return w


def _after_colon(name: str) -> str:
    """``VIP Room: Book`` -> ``Book`` (the card's deck is said elsewhere)."""
    return name.split(": ", 1)[1] if ": " in name else name


# --- the board: a cached static layer (frames, printed words) under the pieces -----------------------------
#
# Every board section is drawn by one function in two passes with the same geometry: ``static=True`` draws
# what never changes during a game (panels, district names, printed labels, empty tracks) from the
# ``_static_view`` only; ``static=False`` draws the pieces, money and markers from the whole view. The static
# layer is cached per game, so a turn's picture draws only what can change.


def _header(img: Image.Image, title: str, sub: str = "") -> None:
    d = ImageDraw.Draw(img)
    _header_frame(d)
    _header_text(d, title, sub)


def _header_frame(d: ImageDraw.ImageDraw) -> None:
    d.rectangle((0, 0, WIDTH, HEADER_H), fill=HEADER)
    d.rectangle((0, HEADER_H - 3, WIDTH, HEADER_H), fill=GOLD)
    _text(d, (WIDTH - MARGIN, HEADER_H // 2 - 2), "SPEAKEASY", FS_WORDMARK, GOLD, "serif_bold", "rm")


def _header_text(d: ImageDraw.ImageDraw, title: str, sub: str = "") -> None:
    max_w = WIDTH - 2 * MARGIN - fonts.get(FS_WORDMARK, "serif_bold").getlength("SPEAKEASY") - 30
    if sub:
        _fit(d, (MARGIN, 14), title, max_w, (FS_TITLE, 32, 28, 24), CREAM, "serif_bold")
        _fit(d, (MARGIN, 62), sub, max_w, (FS_SUB, 18, 16), MUTED, "regular")
    else:
        _fit(d, (MARGIN, HEADER_H // 2 - 2), title, max_w, (FS_TITLE, 32, 28, 24), CREAM, "serif_bold", "lm")


def _title(view: View) -> str:
    return words.headline(view)


def _turn_order(
    img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, view: View, letters: list[str], static: bool
) -> None:
    if static:
        _panel(d, (x, y, x + w, y + STRIP_H))
        _label(d, x + 16, y + 12, "Turn order")
        return
    order = list(view.get("order") or view.get("track") or [])
    track = list(view.get("track") or [])
    current = view.get("current") if view["phase"] != "over" else None
    size = 54
    step = min(96, (w - 32) // max(1, len(order)))
    cy = y + 70
    for k, seat in enumerate(order):
        cx = x + 16 + step * k + size // 2 + 4
        if seat == current:
            r = size // 2 + 6
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=GOLD, width=4)
        _seat_badge(img, cx, cy, size, seat, letters)
        _text(d, (cx, cy + size // 2 + 10), f"{k + 1}.", FS_LABEL, MUTED if seat != current else GOLD, "bold", "mt")
    if track and track != order:
        names = ", ".join(letters[s] for s in track)
        _fit(d, (x + 16, y + STRIP_H - 14), f"Next round: {names}", w - 32, (FS_LABEL, FS_SMALL), CREAM, "cond", "lb")


def _infamy(
    img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, view: View, letters: list[str], static: bool
) -> None:
    cells = INFAMY_MAX + 1
    cw = (w - 24) / cells
    top = y + 38
    book_spaces = words.INFAMY_BOOK_SPACES
    if static:
        _panel(d, (x, y, x + w, y + STRIP_H))
        _label(d, x + 16, y + 12, "Infamy")
        text = "Book spaces: " + ", ".join(map(str, book_spaces))
        _text(d, (x + w - 16, y + 12), text, FS_SMALL, MUTED, "cond", "ra")
        for v in range(cells):
            cx0 = x + 12 + v * cw
            is_book = v in book_spaces
            d.rectangle((cx0 + 1, top, cx0 + cw - 1, y + STRIP_H - 10), fill=PANEL_HI if is_book else SPACE)
            _text(d, (cx0 + cw / 2, top + 4), str(v), FS_SMALL, GOLD if is_book else MUTED, "cond_bold", "ma")
            if is_book:
                _book(d, cx0 + cw / 2, top + 26, 12)
        return
    books = {int(k): list(v) for k, v in view.get("infamy_books", {}).items()}
    at: dict[int, list[int]] = {}
    for p in view["players"]:
        at.setdefault(min(INFAMY_MAX, max(0, int(p["infamy"]))), []).append(int(p["seat"]))
    bsize = 28
    for v in range(cells):
        cx0 = x + 12 + v * cw
        if books.get(v):
            booked = "".join(letters[seat] for seat in books[v])
            _fit(d, (cx0 + cw / 2, top + 38), booked, cw - 2, (FS_SMALL,), CREAM, "cond_bold", "ma")
        for k, seat in enumerate(at.get(v, [])):
            _seat_badge(img, cx0 + cw / 2, y + STRIP_H - 12 - bsize // 2 - k * (bsize - 10), bsize, seat, letters)


# --- the city -----------------------------------------------------------------------------------------------


def _space_box(
    img: Image.Image, d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], sp: View, letters: list[str]
) -> None:
    x0, y0, x1, y1 = box
    b = sp.get("building")
    tile = sp.get("tile")
    h = y1 - y0
    if b is not None:
        seat = int(b["owner"])
        colour = player_colour(seat)
        ink = ink_on(colour)
        d.rounded_rectangle(box, 8, fill=colour, outline=CREAM if b.get("family") else None, width=3)
        bsize = 36
        _seat_badge(img, x0 + 6 + bsize // 2, y0 + h // 2, bsize, seat, letters)
        tx = x0 + 6 + bsize + 8
        kind = words.KIND_NAMES.get(b["kind"], str(b["kind"]))
        _fit(d, (tx, y0 + 8), kind, x1 - tx - 4, (FS_KIND, FS_LABEL, FS_SMALL), ink, "cond_bold")
        ix = tx
        iy = y0 + h - 17
        if b.get("barrel"):
            _barrel(d, ix + 9, iy, 22)
            ix += 24
        if b.get("family"):
            _pawn(d, ix + 10, iy, 24, GOLD)
            ix += 24
        if not b.get("operating", True):
            _mini_pill(d, ix + 2, iy, "OFF", OFF, (255, 255, 255))
        return
    if sp.get("mobster"):
        d.rounded_rectangle(box, 8, fill=MOB, outline=MOB_LIGHT, width=2)
        _fit(d, (x0 + 8, y0 + 6), "Mobster Speakeasy", x1 - x0 - 12, (FS_LABEL, FS_SMALL), CREAM, "cond_bold")
        _fedora(d, x0 + 22, y1 - 12, 30, (18, 14, 14))
        if tile:
            _tile_tag(d, x1 - 5, y1 - 5, str(tile["kind"]), "rb")
        return
    d.rounded_rectangle(box, 8, fill=SPACE, outline=LINE, width=1)
    if tile:
        _tile_tag(d, (x0 + x1) // 2, (y0 + y1) // 2, str(tile["kind"]), "mm")
    else:
        _text(d, ((x0 + x1) / 2, (y0 + y1) / 2), "free", FS_SMALL, DIM, "cond", "mm")


def _tile_tag(d: ImageDraw.ImageDraw, x: float, y: float, kind: str, anchor: str) -> None:
    """A City tile lying on a space: a small tan tile with its kind (``anchor`` "mm", "rb" or "lm")."""
    font = fonts.get(FS_SMALL, "cond_bold")
    w = int(font.getlength(kind)) + 12
    h = 22
    x0 = x - w / 2 if anchor == "mm" else x if anchor == "lm" else x - w
    y0 = y - h if anchor == "rb" else y - h / 2
    d.rounded_rectangle((x0, y0, x0 + w, y0 + h), 4, fill=TILE, outline=INK)
    d.text((x0 + w / 2, y0 + h / 2), kind, font=font, fill=INK, anchor="mm")


#: Room kept right of a district's name for its markers (a Cop or Cop tile, and a gun space).
_NAME_ROOM = 170


def _district(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    dist: View,
    letters: list[str],
    static: bool,
    war: bool = False,
) -> None:
    h = DISTRICT_H
    is_open = bool(dist.get("open", True)) and bool(dist["spaces"])
    cx, cy = x + 24, y + 22
    if static:
        _panel(d, (x, y, x + w, y + h), PANEL if is_open else CLOSED, LINE)
        d.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), fill=GOLD if is_open else DIM)
        _text(d, (cx, cy), str(dist["number"]), FS_NUMBER, INK, "bold", "mm")
        name = str(dist["name"])
        _fit(
            d, (x + 46, cy), name, w - 52 - _NAME_ROOM, (FS_DISTRICT, 18, 16), CREAM if is_open else MUTED, "bold", "lm"
        )
        if not is_open:
            _text(d, (x + w / 2, y + 80), "Closed on the 1–2 player side", FS_LABEL, MUTED, "cond", "mm")
        return
    if not is_open:
        return
    if war:  # the Mob War being fought here now
        d.rounded_rectangle((x, y, x + w, y + h), 10, outline=WAR, width=5)
    tags: list[tuple[str, RGB, RGB, RGB | None]] = []
    if war:
        tags.append(("MOB WAR NOW", WAR, (255, 255, 255), None))
    if dist.get("cop"):
        tags.append(("COP", COP, (255, 255, 255), None))
    if dist.get("cop_tile"):
        tags.append(("COP TILE", PANEL, COP_LIGHT, COP))
    if dist.get("war_tile"):
        tags.append(("NEXT WAR", WAR, (255, 255, 255), None))
    tx = x + w - 10
    font = fonts.get(FS_SMALL, "cond_bold")
    for text, fill, ink, outline in reversed(tags):
        tx -= int(font.getlength(text)) + 12
        _mini_pill(d, tx, cy, text, fill, ink, outline)
        tx -= 6
    spaces = dist["spaces"]
    n = len(spaces)
    gap = 8
    sw = (w - 20 - gap * (n - 1)) // n
    sy0, sy1 = y + 44, y + 108
    for k, sp in enumerate(spaces):
        sx = x + 10 + k * (sw + gap)
        _space_box(img, d, (sx, sy0, sx + sw, sy1), sp, letters)
    # the Mobster board and the Strength tile
    my = y + h - 16
    mob = dist.get("mobster")
    strength = dist.get("strength")
    right = x + w - 10
    if strength is None:
        d.rounded_rectangle((right - 22, my - 11, right, my + 11), 4, fill=(60, 44, 30), outline=GOLD)
        _text(d, (right - 28, my), "Strength tile face down", FS_SMALL, MUTED, "cond", "rm")
        right -= 200
    elif strength:
        d.rounded_rectangle((right - 24, my - 12, right, my + 12), 4, fill=GOLD, outline=INK)
        _text(d, (right - 12, my), str(strength), FS_LABEL, INK, "bold", "mm")
        _text(d, (right - 30, my), "Strength", FS_SMALL, MUTED, "cond", "rm")
        right -= 90
    if mob:
        _fit(d, (x + 12, my), f"Mobster: {mob}", right - x - 16, (FS_LABEL, FS_SMALL), MOB_LIGHT, "cond_bold", "lm")
    elif strength == 0:
        _text(d, (x + 12, my), "No Mobster", FS_SMALL, DIM, "cond", "lm")


def _zone_head(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    view: View,
    z: int,
    letters: list[str],
    static: bool,
) -> None:
    zone = words.ZONE_NAMES[z]
    goal = next((g for g in view.get("zone_goals", []) if g.get("zone") == zone), None)
    gx = x + 14 + int(fonts.get(FS_ZONE, "serif_bold").getlength(zone)) + 16
    goal_w = 0
    if goal:
        goal_w = int(fonts.get(FS_LABEL, "cond_bold").getlength("Goal: " + words.zone_goal_text(goal)))
    if static:
        _panel(d, (x, y, x + w, y + ZONE_HEAD_H - 8), PANEL_HI, GOLD)
        _text(d, (x + 14, y + 8), zone, FS_ZONE, GOLD, "serif_bold")
        if goal:
            text = "Goal: " + words.zone_goal_text(goal)
            _fit(d, (gx, y + 24), text, x + w - gx - 12, (FS_LABEL, FS_SMALL), CREAM, "cond_bold", "lm")
        _text(d, (x + 14, y + 60), "Control", FS_SMALL, MUTED, "cond_bold", "lm")
        return
    if goal:
        bx = gx + goal_w + 10
        for seat in goal.get("books", []):
            _book(d, bx + 6, y + 24, 16)
            _text(d, (bx + 16, y + 24), letters[seat], FS_SMALL, CREAM, "cond_bold", "lm")
            bx += 28
    # Zone Control markers
    cx = x + 80
    for p in view["players"]:
        markers = p.get("zone_markers", [0, 0, 0])
        n = int(markers[z]) if z < len(markers) else 0
        _seat_badge(img, cx + 12, y + 60, 24, int(p["seat"]), letters)
        _text(d, (cx + 28, y + 60), str(n), FS_LABEL, CREAM, "bold", "lm")
        cx += 58
    mob = view.get("mobster_markers")
    if isinstance(mob, list) and z < len(mob):
        _fedora(d, cx + 12, y + 66, 24, MOB_LIGHT)
        _text(d, (cx + 28, y + 60), f"Mobsters {mob[z]}", FS_LABEL, MOB_LIGHT, "bold", "lm")


def _decks_box(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, view: View, static: bool) -> None:
    if static:
        _panel(d, (x, y, x + w, y + h))
        _label(d, x + 14, y + 10, "Operations decks (top card face up)")
        for k, key in enumerate(words.DECK_NAMES):
            _text(d, (x + 14, y + 40 + 24 * k), words.DECK_NAMES[key], FS_LABEL, CREAM, "cond_bold", "lm")
        return
    for k, key in enumerate(words.DECK_NAMES):
        yy = y + 40 + 24 * k
        deck = view.get("decks", {}).get(key, {"count": 0, "top": None})
        _text(d, (x + 110, yy), str(deck.get("count", 0)), FS_LABEL, GOLD, "bold", "lm")
        top = deck.get("top")
        text = _after_colon(str(top["name"])) if top else "empty"
        _fit(d, (x + 148, yy), text, w - 162, (FS_LABEL, FS_SMALL), CREAM if top else DIM, "cond", "lm")


def _display_box(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, view: View, static: bool) -> None:
    half = w // 2
    if static:
        _panel(d, (x, y, x + w, y + h))
        _label(d, x + half, y + 10, "City tiles")
        return
    _label(d, x + 14, y + 10, f"Helpers (deck {view.get('helper_deck', 0)})")
    yy = y + 40
    for hcard in view.get("helper_display", []):
        text = f"{hcard['name']} ({hcard['bottle']})" if hcard else "—"
        _fit(d, (x + 14, yy), text, half - 22, (FS_LABEL, FS_SMALL), CREAM, "cond", "lm")
        yy += 24
    piles = view.get("city_piles", [])
    yy = y + 40
    for k, t in enumerate(view.get("city_display", [])):
        pile = piles[k] if k < len(piles) else 0
        if t:
            _tile_tag(d, x + half + 4, yy, str(t["kind"]), "lm")
        else:
            _text(d, (x + half + 4, yy), "—", FS_LABEL, DIM, "cond", "lm")
        _text(d, (x + w - 14, yy), f"pile {pile}", FS_SMALL, MUTED, "cond", "rm")
        yy += 26
    wars = sum(view.get("war_stacks", []))
    cops = sum(view.get("cop_stacks", []))
    text = f"Time track: {wars} Mobster District tiles, {cops} Cop tiles to come"
    _fit(d, (x + 14, y + h - 14), text, w - 28, (FS_SMALL,), MUTED, "cond", "lb")


def _city(img: Image.Image, d: ImageDraw.ImageDraw, y: int, view: View, letters: list[str], static: bool) -> None:
    colw = (WIDTH - 2 * MARGIN - 2 * GAP) // 3
    war_no = words.war_district(view) if not static else None
    by_zone: dict[str, list[View]] = {z: [] for z in words.ZONE_NAMES}
    for dist in view["districts"]:
        by_zone.setdefault(dist["zone"], []).append(dist)
    for z, zone in enumerate(words.ZONE_NAMES):
        x = MARGIN + z * (colw + GAP)
        _zone_head(img, d, x, y, colw, view, z, letters, static)
        yy = y + ZONE_HEAD_H
        for dist in sorted(by_zone.get(zone, []), key=lambda t: t["number"]):
            _district(img, d, x, yy, colw, dist, letters, static, dist["number"] == war_no)
            yy += DISTRICT_H + DISTRICT_GAP
        rows = len(by_zone.get(zone, []))
        if rows < CITY_ROWS:
            h = (CITY_ROWS - rows) * (DISTRICT_H + DISTRICT_GAP) - DISTRICT_GAP
            if z == 0:
                _decks_box(d, x, yy, colw, h, view, static)
            elif z == 1:
                _display_box(d, x, yy, colw, h, view, static)


# --- locations, Central Park and the Docks --------------------------------------------------------------------

LOC_BOX_H = 124
LOC_GAP = 12


def _capo_or_free(img: Image.Image, cx: float, cy: float, seat: int | None, letters: list[str]) -> None:
    if seat is None:
        _empty_spot(img, int(cx), int(cy), 30)
    else:
        _seat_badge(img, cx, cy, 32, seat, letters)


def _location_names() -> list[str]:
    locs: list[str] = []
    for _pid, loc, _name in words.PERSONS:
        if loc not in locs:
            locs.append(loc)
    return [*locs, "Restaurant", "Park"]


def _locations(
    img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, view: View, letters: list[str], static: bool
) -> int:
    if static:
        _label(d, x, y, "Locations · Capos")
    y += 26
    cols = 4
    bw = (w - LOC_GAP * (cols - 1)) // cols
    bh = LOC_BOX_H
    persons = view.get("persons", {})
    for k, loc in enumerate(_location_names()):
        bx = x + (k % cols) * (bw + LOC_GAP)
        by = y + (k // cols) * (bh + LOC_GAP)
        if static:
            _panel(d, (bx, by, bx + bw, by + bh))
            _fit(d, (bx + 12, by + 8), loc, bw - 24, (FS_PERSON, FS_LABEL, FS_SMALL), GOLD, "bold")
        if loc == "Restaurant":
            _restaurant(img, d, bx, by, bw, view, letters, static)
            continue
        if loc == "Park":
            _park(img, d, bx, by, bw, view, letters, static)
            continue
        if loc == "City Hall" and not static:
            books = view.get("city_hall_books", [])
            if books:
                text = "Books " + " ".join(f"{letters[s]}{a}" for s, a in books)
                _fit(d, (bx + bw - 10, by + 10), text, bw * 0.45, (FS_SMALL,), CREAM, "cond_bold", "ra")
        rows = [(pid, name) for pid, lc, name in words.PERSONS if lc == loc]
        for r, (pid, name) in enumerate(rows):
            ry = by + 54 + r * 42
            if static:
                _fit(d, (bx + 12, ry), name, bw - 70, (FS_PERSON, FS_LABEL, FS_SMALL), CREAM, "regular", "lm")
            else:
                _capo_or_free(img, bx + bw - 30, ry, persons.get(pid), letters)
    return y + 2 * bh + LOC_GAP


def _restaurant(
    img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, view: View, letters: list[str], static: bool
) -> None:
    booths = list(view.get("booths", []))
    open_n = words.SMALL_SIDE_BOOTHS if view.get("side") == "small" else len(booths)
    cw = (w - 20) / max(1, len(booths))
    label_w = fonts.get(FS_SMALL, "cond_bold").getlength("Lucky's table")
    for k, seat in enumerate(booths):
        cx = x + 10 + cw * k + cw / 2
        if static:
            _text(d, (cx, y + 38), f"{k + 1}", FS_SMALL, MUTED, "cond_bold", "ma")
            if k >= open_n:
                _text(d, (cx, y + 70), "closed", FS_SMALL, DIM, "cond", "mm")
        elif k < open_n:
            _capo_or_free(img, cx, y + 70, seat, letters)
    if static:
        _text(d, (x + 12, y + 104), "Lucky's table", FS_SMALL, CREAM, "cond_bold", "lm")
        return
    lx = x + 12 + label_w + 18
    for seat in view.get("first_place", []):
        _seat_badge(img, lx, y + 104, 26, seat, letters)
        lx += 28


def _park(
    img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, view: View, letters: list[str], static: bool
) -> None:
    park = list(view.get("park", []))
    cw = (w - 12) / max(1, len(park))
    for k, seat in enumerate(park):
        cx = x + 6 + cw * k + cw / 2
        if static:
            _text(d, (cx, y + 38), f"{k + 1}", FS_SMALL, MUTED, "cond_bold", "ma")
            reward = words.PARK_SPACES[k] if k < len(words.PARK_SPACES) else f"space {k + 1}"
            _fit(d, (cx, y + 94), reward, cw, (FS_SMALL,), MUTED, "cond", "ma")
        else:
            _capo_or_free(img, cx, y + 70, seat, letters)


PARK_H = 92


def _central_park(
    img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, view: View, letters: list[str], static: bool
) -> None:
    goals = view.get("central_park", [])
    if static:
        _label(d, x, y, "Central Park goals (one Book each)")
    y += 26
    n = max(1, len(goals))
    gap = 10
    tw = (w - gap * (n - 1)) // n
    for k, g in enumerate(goals):
        tx = x + k * (tw + gap)
        if static:
            _panel(d, (tx, y, tx + tw, y + PARK_H))
            _text(d, (tx + 10, y + 8), str(g.get("tile", "")), FS_LABEL, GOLD, "bold")
            lines, size = fit_lines(words.park_goal_text(g), tw - 20, PARK_H - 36, (FS_LABEL, FS_SMALL), "cond")
            for i, line in enumerate(lines[:3]):
                _text(d, (tx + 10, y + 32 + i * (size + 2)), line, size, CREAM, "cond")
            continue
        seat = g.get("book")
        if seat is not None:
            _book(d, tx + tw - 36, y + 17, 16)
            _seat_badge(img, tx + tw - 16, y + 17, 24, int(seat), letters)


SHIP_H = 50
DOCKS_ZONE_H = 48


def _docks(
    img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, view: View, letters: list[str], static: bool
) -> None:
    if not static:
        _label(d, x, y, f"City Docks · Crates left {view.get('crate_stack', 0)}")
    y += 26
    ships = view.get("ships", [])
    if static:
        _panel(d, (x, y, x + w, y + 12 + SHIP_H * len(ships)))
    for k, s in enumerate(ships):
        ry = y + 6 + k * SHIP_H + SHIP_H // 2
        if static:
            _text(d, (x + 14, ry), f"Ship {s['number']}", FS_KIND, CREAM, "bold", "lm")
            continue
        price = f" · ${s['price']}" if "price" in s else ""
        _fit(d, (x + 96, ry), f"{s['port_name']} ({s['zone']}){price}", 200, (FS_LABEL, FS_SMALL), MUTED, "cond", "lm")
        bx = x + 306
        barrels = int(s.get("barrels", 0))
        for b in range(5):
            _barrel(d, bx + b * 19, ry, 18, b < barrels)
        if barrels > 5:
            _text(d, (bx + 92, ry), f"+{barrels - 5}", FS_SMALL, CREAM, "cond_bold", "lm")
        crate = s.get("crate")
        cx = bx + 98
        if crate:
            font = fonts.get(FS_SMALL, "cond_bold")
            shown, _ = fit_text(str(crate), x + w - 8 - cx - 12, (FS_SMALL,), "cond_bold")
            cw = int(font.getlength(shown)) + 12
            d.rounded_rectangle((cx, ry - 12, cx + cw, ry + 12), 5, fill=(96, 70, 40), outline=GOLD)
            d.text((cx + cw / 2, ry), shown, font=font, fill=CREAM, anchor="mm")
        else:
            _text(d, (cx, ry), "no Crate", FS_SMALL, DIM, "cond", "lm")
    y += 12 + SHIP_H * len(ships) + 12
    docks = view.get("docks", [])
    books = view.get("docks_books", [])
    if static:
        _panel(d, (x, y, x + w, y + 8 + DOCKS_ZONE_H * len(docks)))
    for z, spaces in enumerate(docks):
        ry = y + 4 + z * DOCKS_ZONE_H + DOCKS_ZONE_H // 2
        sx = x + 100
        if static:
            zone = words.ZONE_NAMES[z] if z < len(words.ZONE_NAMES) else f"Zone {z + 1}"
            _text(d, (x + 14, ry), zone, FS_LABEL, CREAM, "cond_bold", "lm")
            continue
        for k, seat in enumerate(spaces):
            cx = sx + k * 32 + 14
            if seat is None:
                _empty_spot(img, cx, ry, 24)
            else:
                _seat_badge(img, cx, ry, 28, int(seat), letters)
        bx = sx + 32 * max(8, len(spaces)) + 10
        for seat in books[z] if z < len(books) else []:
            _book(d, bx + 6, ry, 16)
            _text(d, (bx + 16, ry), letters[seat], FS_SMALL, CREAM, "cond_bold", "lm")
            bx += 30


# --- the players --------------------------------------------------------------------------------------------

_STATS = ("Pocket", "Leverage", "Infamy", "Cards", "Capos", "Goons", "Books", "Family", "Barrels", "Tiles")
_STAT_X, _STAT_W = 340, 94


def _stat(d: ImageDraw.ImageDraw, x: int, y: int, w: int, label: str, value: str) -> None:
    _text(d, (x + w / 2, y), label.upper(), FS_SMALL, MUTED, "cond_bold", "ma")
    _fit(d, (x + w / 2, y + 22), value, w - 4, (FS_STAT, FS_VALUE, FS_LABEL), CREAM, "bold", "ma")


def _level_pips(d: ImageDraw.ImageDraw, x: int, y: int, levels: dict[str, int], static: bool) -> None:
    """Five rows ``VIP ■■□□□ 2``."""
    for r, key in enumerate(LEVEL_KEYS):
        yy = y + r * 26
        level = int(levels.get(key, 0))
        if static:
            _text(d, (x, yy), words.TRACK_NAMES[key], FS_SMALL, MUTED, "cond_bold", "lm")
        for k in range(MAX_LEVEL):
            px = x + 70 + k * 20
            box = (px, yy - 7, px + 14, yy + 7)
            if static:
                d.rectangle(box, outline=DIM, width=2)
            elif k < level:
                d.rectangle(box, fill=GOLD)
        if not static:
            _text(d, (x + 70 + MAX_LEVEL * 20 + 6, yy), str(level), FS_LABEL, CREAM, "bold", "lm")


def _player_row(
    img: Image.Image, d: ImageDraw.ImageDraw, y: int, view: View, p: View, letters: list[str], static: bool
) -> None:
    seat = int(p["seat"])
    x0, x1 = MARGIN, WIDTH - MARGIN
    if static:
        d.rounded_rectangle((x0, y, x1, y + PLAYER_H), 14, fill=PANEL, outline=LINE, width=2)
        d.rounded_rectangle((x0 + 6, y + 12, x0 + 14, y + PLAYER_H - 12), 4, fill=player_colour(seat))
        _seat_badge(img, x0 + 58, y + 48, 60, seat, letters)
        _fit(d, (x0 + 98, y + 28), str(p["name"]), 230, (FS_NAME, 24, 20, 18), CREAM, "bold", "lm")
        for k, label in enumerate(_STATS):
            _text(
                d, (x0 + _STAT_X + k * _STAT_W + _STAT_W / 2, y + 14), label.upper(), FS_SMALL, MUTED, "cond_bold", "ma"
            )
        _level_pips(d, x1 - 214, y + 26, {}, True)
        return
    current = view.get("current") == seat and view["phase"] != "over"
    tx = x0 + 98
    if current:
        d.rounded_rectangle((x0, y, x1, y + PLAYER_H), 14, outline=GOLD, width=4)
        tx += pill(d, tx, y + 62, "TO PLAY", FS_SMALL, GOLD, INK) + 6
    if seat == words.jo_seat(view):
        pill(d, tx, y + 62, "SOLO BOT", FS_SMALL, (70, 74, 92), CREAM)
    values = [
        f"${p['pocket']}",
        str(p["leverage"]),
        str(p["infamy"]),
        str(p["hand_count"]),
        str(p["capos"]),
        str(p["goons"]),
        str(p["books"]),
        str(p["family_vip"]),
        str(p["stills_barrels"]),
        str(len(p.get("city_tiles", []))),
    ]
    for k, value in enumerate(values):
        sx = x0 + _STAT_X + k * _STAT_W
        _fit(d, (sx + _STAT_W / 2, y + 36), value, _STAT_W - 4, (FS_STAT, FS_VALUE, FS_LABEL), CREAM, "bold", "ma")
    _level_pips(d, x1 - 214, y + 26, p.get("levels", {}), False)
    helpers = ", ".join(f"{h['name']} ({h['bottle']})" for h in p.get("helpers", [])) or "none"
    line1 = f"Helpers face up: {helpers} · {p.get('screen_count', 0)} behind the screen"
    if p.get("crates"):
        line1 += " · Crates: " + ", ".join(p["crates"])
    bits = []
    if p.get("associate"):
        bits.append(f"Associate: {p['associate']}")
    tiles = [t["kind"] for t in p.get("city_tiles", []) if t]
    if tiles:
        bits.append("City tiles: " + ", ".join(tiles))
    if p.get("family_track"):
        bits.append("Family on Infamy " + ", ".join(str(v) for v in p["family_track"]))
    if seat == words.jo_seat(view):
        bits.insert(0, words.jo_words(view))
    line2 = " · ".join(b for b in bits if b) or "No Associate, no City tiles"
    room = x1 - 230 - x0 - 24
    _fit(d, (x0 + 24, y + 104), line1, room, (FS_LINE, FS_LABEL, FS_SMALL), CREAM, "cond", "lm")
    _fit(d, (x0 + 24, y + 132), line2, room, (FS_LINE, FS_LABEL, FS_SMALL), MUTED, "cond", "lm")


def _legend(d: ImageDraw.ImageDraw, y: int) -> None:
    font = fonts.get(FS_SMALL, "cond")
    x = MARGIN
    _barrel(d, x + 10, y, 22)
    _text(d, (x + 26, y), "barrel", FS_SMALL, MUTED, "cond", "lm")
    x += 26 + int(font.getlength("barrel")) + 24
    items: list[tuple[str, str, RGB, RGB, RGB | None]] = [
        ("OFF", "not Operating (a Cop, no Family Member)", OFF, (255, 255, 255), None),
        ("COP TILE", "Cop tile face down", PANEL, COP_LIGHT, COP),
        ("NEXT WAR", "Mobster District tile (gun space)", WAR, (255, 255, 255), None),
    ]
    _pawn(d, x + 10, y, 24, GOLD)
    text = "protecting Family Member (cream edge)"
    _text(d, (x + 26, y), text, FS_SMALL, MUTED, "cond", "lm")
    x += 26 + int(font.getlength(text)) + 24
    for tag, text, fill, ink, outline in items:
        x += _mini_pill(d, x, y, tag, fill, ink, outline) + 8
        _text(d, (x, y), text, FS_SMALL, MUTED, "cond", "lm")
        x += int(font.getlength(text)) + 24


# --- the board ----------------------------------------------------------------------------------------------


def _static_view(view: View) -> View:
    """The part of a view that stays the same for a whole game: what the static layer may read."""
    return {
        "side": view.get("side"),
        "players": [{"seat": p["seat"], "name": p["name"]} for p in view["players"]],
        "districts": [
            {
                "number": d["number"],
                "name": d["name"],
                "zone": d["zone"],
                "open": d.get("open", True),
                "spaces": [None] * len(d["spaces"]),
            }
            for d in view["districts"]
        ],
        "zone_goals": [{k: g.get(k) for k in ("zone", "type", "number", "text")} for g in view.get("zone_goals", [])],
        "central_park": [{k: g.get(k) for k in ("tile", "text")} for g in view.get("central_park", [])],
        "booths": [None] * len(view.get("booths", [])),
        "park": [None] * len(view.get("park", [])),
        "ships": [{"number": s["number"]} for s in view.get("ships", [])],
        "docks": [[None] * len(z) for z in view.get("docks", [])],
    }


class _Layout:
    """Where each band of the board starts, from the number of players."""

    def __init__(self, players: int) -> None:
        self.strip = HEADER_H + 14
        self.city = self.strip + STRIP_H + GAP
        self.lower = self.city + ZONE_HEAD_H + CITY_ROWS * (DISTRICT_H + DISTRICT_GAP) - DISTRICT_GAP + GAP
        self.park = self.lower + 26 + 2 * LOC_BOX_H + LOC_GAP + GAP
        self.legend = self.park + 26 + PARK_H + 28
        self.players = self.legend + 28
        self.height = self.players + players * (PLAYER_H + PLAYER_GAP) - PLAYER_GAP + MARGIN


_ORDER_W = 440
_LEFT_W = 980


def _draw_board(img: Image.Image, view: View, static: bool) -> None:
    d = ImageDraw.Draw(img)
    letters = badge_letters(words.names(view))
    at = _Layout(len(view["players"]))
    if static:
        _header_frame(d)
        _legend(d, at.legend)
    else:
        _header_text(d, _title(view))
    _turn_order(img, d, MARGIN, at.strip, _ORDER_W, view, letters, static)
    infamy_x = MARGIN + _ORDER_W + GAP
    _infamy(img, d, infamy_x, at.strip, WIDTH - MARGIN - infamy_x, view, letters, static)
    _city(img, d, at.city, view, letters, static)
    _locations(img, d, MARGIN, at.lower, _LEFT_W, view, letters, static)
    _central_park(img, d, MARGIN, at.park, _LEFT_W, view, letters, static)
    docks_x = MARGIN + _LEFT_W + GAP
    _docks(img, d, docks_x, at.lower, WIDTH - MARGIN - docks_x, view, letters, static)
    y = at.players
    for p in view["players"]:
        _player_row(img, d, y, view, p, letters, static)
        y += PLAYER_H + PLAYER_GAP


#: Static layers of the games drawn lately (one game's layer is reused every turn).
_STATIC_CACHE: OrderedDict[str, Image.Image] = OrderedDict()
_STATIC_CACHE_SIZE = 8


_STATIC_LOCK = threading.Lock()


def _static_layer(view: View) -> Image.Image:
    """The game's static layer (drawn once, then shared: callers copy it before drawing on it)."""
    base = _static_view(view)
    key = json.dumps(base, sort_keys=True)
    with _STATIC_LOCK:
        img = _STATIC_CACHE.get(key)
        if img is not None:
            _STATIC_CACHE.move_to_end(key)
            return img
    img = Image.new("RGB", (WIDTH, _Layout(len(base["players"])).height), BG)
    _draw_board(img, base, True)
    with _STATIC_LOCK:
        _STATIC_CACHE[key] = img
        while len(_STATIC_CACHE) > _STATIC_CACHE_SIZE:
            _STATIC_CACHE.popitem(last=False)
    return img


def _board_image(view: View) -> Image.Image:
    img = _static_layer(view).copy()
    _draw_board(img, view, False)
    return img


def _check_public(view: View) -> None:
    if view.get("seat") is not None:
        raise ValueError("the public board is drawn from the spectator view (seat=None), not a seat's own view")


def render_board(view: View) -> bytes:
    """The main board as a PNG, drawn only from the spectator view (``SpeakeasyGame().view(state, None)``).

    Raises ``ValueError`` for a seat's own view: the channel picture must never be able to show a safe or a hand.
    """
    _check_public(view)
    return encode_png(_board_image(view))


# --- one player's board -------------------------------------------------------------------------------------


def _card_box(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, title: str, text: str, accent: RGB) -> None:
    d.rounded_rectangle((x, y, x + w, y + h), 8, fill=CREAM, outline=accent, width=3)
    d.rectangle((x + 3, y + 3, x + w - 3, y + 28), fill=accent)
    _fit(d, (x + w / 2, y + 16), title, w - 10, (FS_LABEL, FS_SMALL), ink_on(accent), "cond_bold", "mm")
    lines, size = fit_lines(text, w - 14, h - 38, (FS_LABEL, FS_SMALL), "cond")
    for i, line in enumerate(lines[:4]):
        _text(d, (x + 7, y + 34 + i * (size + 3)), line, size, INK, "cond")


DECK_ACCENTS: dict[str, RGB] = {
    "vip": (128, 42, 96),
    "party": (176, 96, 24),
    "stills": (60, 110, 60),
    "fleet": (36, 78, 140),
}


def _player_board_image(view: View, seat: int) -> Image.Image:
    players = view["players"]
    if not 0 <= seat < len(players):
        raise ValueError(f"no seat {seat} in this game")
    p = players[seat]
    own = view.get("seat") == seat
    letters = badge_letters(words.names(view))
    hand = p.get("hand", []) if own else []
    screen = p.get("screen", []) if own else []
    hand_rows = (len(hand) + 7) // 8 if own else 0
    height = HEADER_H + 24 + 330 + 20 + 190 + 20 + 150 + MARGIN
    if own:
        height += 60 + max(1, hand_rows) * 120 + 60
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    sub = "Your own board: the safe and hand below are private" if own else "Public view: safe and hand are private"
    _header(img, f"{p['name']}'s Operations board · {view['year']}", sub)
    y = HEADER_H + 24
    x0, x1 = MARGIN, WIDTH - MARGIN
    # left: badge and numbers; right: levels, Goons, Trucks
    _panel(d, (x0, y, x0 + 760, y + 330))
    _seat_badge(img, x0 + 52, y + 52, 64, seat, letters)
    _fit(d, (x0 + 96, y + 52), str(p["name"]), 400, (FS_NAME, 24, 20), CREAM, "bold", "lm")
    stats = [
        ("Pocket", f"${p['pocket']}"),
        ("Leverage", str(p["leverage"])),
        ("Infamy", str(p["infamy"])),
        ("Capos", str(p["capos"])),
        ("Cards", str(p["hand_count"])),
        ("Books", f"{p['books']}+{p.get('book_supply', 0)}"),
        ("Family", f"{p['family_vip']}+{p.get('family_supply', 0)}"),
        ("Barrels", f"{p['stills_barrels']}/8"),
    ]
    for k, (label, value) in enumerate(stats):
        _stat(d, x0 + 16 + (k % 4) * 184, y + 100 + (k // 4) * 72, 180, label, value)
    bits = [f"Associate: {p['associate']}" if p.get("associate") else "No Associate"]
    if p.get("family_track"):
        bits.append("Family on Infamy " + ", ".join(str(v) for v in p["family_track"]))
    bits.append(f"{p.get('screen_count', 0)} Helpers behind the screen")
    _fit(d, (x0 + 16, y + 262), " · ".join(bits), 730, (FS_LINE, FS_LABEL, FS_SMALL), CREAM, "cond", "lm")
    tiles = ", ".join(t["kind"] for t in p.get("city_tiles", []) if t) or "none"
    crates = ", ".join(p.get("crates", [])) or "none"
    _fit(
        d,
        (x0 + 16, y + 296),
        f"City tiles: {tiles} · Crates: {crates}",
        730,
        (FS_LINE, FS_LABEL, FS_SMALL),
        MUTED,
        "cond",
        "lm",
    )
    rx = x0 + 780
    _panel(d, (rx, y, x1, y + 330))
    _label(d, rx + 16, y + 12, "Levels")
    levels = p.get("levels", {})
    for r, key in enumerate(LEVEL_KEYS):
        yy = y + 54 + r * 40
        _text(d, (rx + 16, yy), words.TRACK_NAMES[key], FS_KIND, CREAM, "cond_bold", "lm")
        level = int(levels.get(key, 0))
        for k in range(MAX_LEVEL):
            bx = rx + 120 + k * 52
            box = (bx, yy - 16, bx + 44, yy + 16)
            d.rounded_rectangle(
                box, 6, fill=GOLD if k < level else SPACE, outline=GOLD if k + 1 == level else LINE, width=2
            )
            _text(d, (bx + 22, yy), str(k + 1), FS_LABEL, INK if k < level else DIM, "bold", "mm")
    gx = rx + 420
    _label(d, gx, y + 12, "Goons hired")
    goons = int(p.get("goons", 0))
    for k, cost in enumerate(GOON_COSTS):
        bx = gx + (k % 3) * 66
        by = y + 40 + (k // 3) * 66
        d.rounded_rectangle(
            (bx, by, bx + 58, by + 58), 8, fill=player_colour(seat) if k < goons else SPACE, outline=LINE, width=2
        )
        _text(
            d, (bx + 29, by + 29), f"${cost}", FS_LABEL, ink_on(player_colour(seat)) if k < goons else DIM, "bold", "mm"
        )
    fleet = int(levels.get("fleet", 1))
    trucks = TRUCKS_BY_FLEET[max(0, min(len(TRUCKS_BY_FLEET), fleet) - 1)]
    _text(d, (gx, y + 200), f"Trucks: {trucks}", FS_KIND, CREAM, "bold", "lm")
    _text(d, (gx, y + 226), f"(Fleet level {fleet})", FS_SMALL, MUTED, "cond", "lm")
    y += 330 + 20
    # building rows
    _panel(d, (x0, y, x1, y + 190))
    _label(d, x0 + 16, y + 12, "Buildings still on the Operations board")
    rows = p.get("rows", {})
    for r, kind in enumerate(ROW_KINDS):
        ry = y + 50 + r * 36
        row = rows.get(kind, [])
        left = sum(1 for v in row if v)
        _text(d, (x0 + 16, ry), f"{words.KIND_NAMES[kind]} {left}/{len(row)}", FS_LABEL, CREAM, "cond_bold", "lm")
        for k, there in enumerate(row):
            bx = x0 + 180 + k * 40
            if there:
                d.rounded_rectangle((bx, ry - 14, bx + 32, ry + 14), 5, fill=player_colour(seat), outline=INK)
                _text(d, (bx + 16, ry), words.KIND_NAMES[kind][0], FS_SMALL, ink_on(player_colour(seat)), "bold", "mm")
            else:
                d.rounded_rectangle((bx, ry - 14, bx + 32, ry + 14), 5, outline=DIM, width=2)
    helpers = p.get("helpers", [])
    hx = x0 + 560
    _label(d, hx, y + 50, "Helpers face up")
    hy = y + 80
    for h in helpers[:4]:
        _text(d, (hx, hy), f"{h['name']} ({h['bottle']})", FS_LABEL, CREAM, "cond", "lm")
        hy += 24
    if not helpers:
        _text(d, (hx, hy), "none", FS_LABEL, DIM, "cond", "lm")
    y += 190 + 20
    # card slots
    _label(d, x0, y, "Card slots")
    slots = p.get("slots", {})
    cw = (x1 - x0 - 3 * 16) // 4
    for k, deck in enumerate(("vip", "party", "stills", "fleet")):
        card = slots.get(deck)
        cx = x0 + k * (cw + 16)
        if card:
            _card_box(
                d, cx, y + 26, cw, 110, words.DECK_NAMES[deck], _after_colon(str(card["name"])), DECK_ACCENTS[deck]
            )
        else:
            d.rounded_rectangle((cx, y + 26, cx + cw, y + 136), 8, outline=DIM, width=2)
            _text(d, (cx + cw / 2, y + 81), f"{words.DECK_NAMES[deck]}: empty", FS_LABEL, DIM, "cond", "mm")
    y += 150
    if own:
        _panel(d, (x0, y, x1, y + 60), (52, 44, 24), GOLD)
        _text(d, (x0 + 16, y + 30), f"Safe: ${p.get('safe', 0)}", FS_NAME, GOLD, "bold", "lm")
        names = ", ".join(f"{h['name']} ({h['bottle']})" for h in screen) or "no Helpers"
        _fit(
            d,
            (x0 + 260, y + 30),
            f"Behind your screen: {names}",
            x1 - x0 - 280,
            (FS_LINE, FS_LABEL, FS_SMALL),
            CREAM,
            "cond",
            "lm",
        )
        y += 80
        _label(d, x0, y, f"Your hand ({len(hand)} cards)")
        y += 26
        cw = (x1 - x0 - 7 * 10) // 8
        for k, card in enumerate(hand):
            cx = x0 + (k % 8) * (cw + 10)
            cy = y + (k // 8) * 120
            deck = str(card.get("deck", "vip"))
            _card_box(
                d,
                cx,
                cy,
                cw,
                110,
                words.DECK_NAMES.get(deck, deck),
                _after_colon(str(card["name"])),
                DECK_ACCENTS.get(deck, LINE),
            )
        if not hand:
            _text(d, (x0, y + 20), "No cards in hand", FS_LABEL, DIM, "cond", "lm")
    return img


def render_player_board(view: View, seat: int) -> bytes:
    """One player's Operations board as a PNG: levels, Goons, Trucks, buildings left on each row, card slots and
    public numbers; the safe, hand and the Helpers behind the screen only when ``view`` is ``seat``'s own view."""
    return encode_png(_player_board_image(view, seat))


# --- the final scoring --------------------------------------------------------------------------------------


def _final_image(view: View) -> Image.Image:
    if view.get("phase") != "over":
        raise ValueError("the final scoring is drawn only when the game is over")
    players = view["players"]
    letters = badge_letters(words.names(view))
    parts = [words.final_parts(view, int(p["seat"])) for p in players]
    complete = all(ok for _parts, ok in parts)
    won = set(words.winners(view))
    row_h = 110
    height = HEADER_H + 40 + 60 + len(players) * (row_h + 12) + 80 + MARGIN
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    if complete:
        _header(
            img,
            f"{view['year']} · Final scoring · {words.status(view)}",
            "Money in pocket and safe, Protected buildings and bottles",
        )
    else:
        _header(
            img,
            f"{view['year']} · Final scoring",
            "Final scores not available: the safes are private until the view has the final scoring",
        )
    y = HEADER_H + 30
    x0, x1 = MARGIN, WIDTH - MARGIN
    keys = [k for k, _label_text in words.FINAL_PARTS if any(pp.get(k) for pp, _ok in parts)]
    lx = x0
    for k in keys:
        label = dict(words.FINAL_PARTS)[k]
        d.rectangle((lx, y + 4, lx + 22, y + 26), fill=PART_COLOURS[k], outline=CREAM)
        _text(d, (lx + 30, y + 15), label, FS_LABEL, CREAM, "cond_bold", "lm")
        lx += 30 + int(fonts.get(FS_LABEL, "cond_bold").getlength(label)) + 28
    if not complete:
        _text(d, (x1, y + 15), "Public parts only (safe money unknown)", FS_LABEL, OFF, "cond_bold", "rm")
    y += 60
    bar_x0 = x0 + 300
    bar_x1 = x1 - 180
    best = max([pp.get("total", 0) for pp, _ok in parts] + [1])
    for p, (pp, _ok) in zip(players, parts, strict=True):
        seat = int(p["seat"])
        win = seat in won
        d.rounded_rectangle(
            (x0, y, x1, y + row_h),
            14,
            fill=PANEL_HI if win else PANEL,
            outline=GOLD if win else LINE,
            width=3 if win else 2,
        )
        _seat_badge(img, x0 + 44, y + 44, 56, seat, letters)
        _fit(d, (x0 + 84, y + 44), str(p["name"]), 200, (FS_NAME, 24, 20, 18), CREAM, "bold", "lm")
        if win:
            pill(d, x0 + 84, y + 82, "WINNER", FS_SMALL, GOLD, INK)
        bx = float(bar_x0)
        scale = (bar_x1 - bar_x0) / best
        for k in keys:
            v = int(pp.get(k, 0))
            if v <= 0:
                continue
            w = v * scale
            d.rectangle((bx, y + 18, bx + w, y + 62), fill=PART_COLOURS[k], outline=BG)
            label = f"${v}"
            if fonts.get(FS_LABEL, "bold").getlength(label) + 8 < w:
                _text(d, (bx + w / 2, y + 40), label, FS_LABEL, ink_on(PART_COLOURS[k]), "bold", "mm")
            bx += w
        _text(d, (x1 - 20, y + 40), f"${pp.get('total', 0)}", FS_BIG, GOLD if win else CREAM, "bold", "rm")
        shown = words.parts_words(pp)
        _fit(d, (bar_x0, y + 88), shown, bar_x1 - bar_x0, (FS_LABEL, FS_SMALL), MUTED, "cond", "lm")
        y += row_h + 12
    jo = view.get("jo")
    if isinstance(jo, dict) and (jo.get("rank") or jo.get("achievements")):
        got = ", ".join(words.achievement_name(str(a)) for a in jo.get("achievements") or []) or "none"
        human = next((p["name"] for p in players if int(p["seat"]) != words.jo_seat(view)), "You")
        _fit(
            d,
            (x0, y + 24),
            f"{human}'s achievements: {got} · rank: {jo.get('rank', '')}",
            x1 - x0,
            (FS_CHART, FS_SUB, FS_LABEL),
            CREAM,
            "cond_bold",
            "lm",
        )
    return img


def render_final(view: View) -> bytes:
    """The final scoring as a PNG chart: each player's total split into its parts (``players[i]["final"]``).

    Without ``final`` parts in the view it draws the public parts only and says the final scores are not
    available. Raises ``ValueError`` before the game is over.
    """
    return encode_png(_final_image(view))


# --- async --------------------------------------------------------------------------------------------------


async def render_board_async(view: View) -> bytes:
    """``render_board`` in a worker thread, so the event loop keeps serving Discord."""
    return await asyncio.to_thread(render_board, view)


async def render_player_board_async(view: View, seat: int) -> bytes:
    """``render_player_board`` in a worker thread."""
    return await asyncio.to_thread(render_player_board, view, seat)


async def render_final_async(view: View) -> bytes:
    """``render_final`` in a worker thread."""
    return await asyncio.to_thread(render_final, view)


def clear_caches() -> None:
    """Forget every cached layer, sprite and font (tests use it to observe every font size drawn)."""
    with _STATIC_LOCK:
        _STATIC_CACHE.clear()
    _ring_sprite.cache_clear()
    from render import draw

    for g in (draw.rounded_sprite, draw.shadow_mask, draw.badge_sprite, draw.felt):
        g.cache_clear()
    fonts.clear_cache()
