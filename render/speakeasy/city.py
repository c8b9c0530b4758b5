"""The city picture for phones: the three Zones with their goals and Zone Control, every district with its
buildings, barrels, Family Members, Mobster Speakeasies, City tiles (with what they give), Cops, Cop tiles,
next-war gun spaces and Mobsters, and the Central Park goals.

Drawn in two passes with the same geometry: ``static=True`` draws what stays the same all game (panels, names,
goals) from ``static_view`` and is cached; ``static=False`` draws the pieces. Every text is at least
``PHONE_MIN`` px and the picture is wider than tall (tests/render check both).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render import speakeasy_text as words
from render.draw import RGB, block, fit, ink_on, outline_changed, player_colour, text, wrap_text
from render.speakeasy import layers
from render.speakeasy.pieces import barrel, book, fedora, mini_pill, panel, pawn, seat_badge
from render.speakeasy.style import (
    BG,
    CHANGED,
    CLOSED,
    COP,
    COP_LIGHT,
    CREAM,
    DIM,
    GOLD,
    INK,
    LINE,
    MOB,
    MOB_LIGHT,
    MUTED,
    OFF,
    P_BIG,
    P_DISTRICT,
    P_GOAL,
    P_HEAD,
    P_HEADER_H,
    P_KIND,
    P_NUMBER,
    P_TEXT,
    P_ZONE,
    PANEL,
    PANEL_HI,
    PHONE_MIN,
    SPACE,
    TILE,
    WAR,
    WHITE,
    WIDTH,
)
from words import Words
from words.msg import M

View = dict[str, Any]

MARGIN = 16
GAP = 12
COL_W = (WIDTH - 2 * MARGIN - 2 * GAP) // 3
ZONE_H = 88
DISTRICT_H = 196
DISTRICT_GAP = 8
ROWS = 6  # Uptown's six districts; the shorter Zones leave a cell for Central Park
TOP = P_HEADER_H + 12
DISTRICTS_TOP = TOP + ZONE_H + 8
LEGEND_TOP = DISTRICTS_TOP + ROWS * (DISTRICT_H + DISTRICT_GAP) - DISTRICT_GAP + 12
LEGEND_H = 2 * 30 + 10
#: the picture's height with every district open (3-4 players); ``height(view)`` gives any view's
HEIGHT = LEGEND_TOP + LEGEND_H
#: a district closed on the 1-2 player side: one line
CLOSED_H = 52
SPACES_TOP = 46
SPACES_H = 108
#: Badge size in a building: big enough for an 18 px letter.
BUILDING_BADGE = 38


def static_view(view: View) -> View:
    """The part of a view the city's static layer may read (the same all game)."""
    return {
        "lang": view.get("lang"),
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
        "zone_goals": [{k: g.get(k) for k in ("zone", "type", "number")} for g in view.get("zone_goals", [])],
        "central_park": [{k: g.get(k) for k in ("tile", "text")} for g in view.get("central_park", [])],
    }


def draw(
    img: Image.Image,
    view: View,
    letters: list[str],
    static: bool,
    new: Collection[str],
    layer: Image.Image | None = None,
) -> None:
    """One pass of the city (below the header): the static layer, or the pieces with ``new`` marks outlined.

    With the static ``layer`` given, each district is pasted from the part cache when it looks as last time."""
    d = ImageDraw.Draw(img)
    w = words.lang_words(view)
    war_no = words.war_district(view) if not static else None
    for z in range(len(words.ZONE_NAMES)):
        _zone_head(img, d, MARGIN + z * (COL_W + GAP), TOP, view, z, letters, static, w)
    places, park, legend_top = layout(view)
    for dist, x, y in places:
        war = dist["number"] == war_no
        if not _is_open(dist):  # drawn once, with the static layer: nothing of the game happens there
            if static:
                _closed(d, x, y, dist, w)
        elif layer is None or static:
            _district(img, d, x, y, dist, letters, static, war, new, w)
        else:
            _cached_district(img, layer, x, y, dist, letters, war, new, w)
    if park is not None:
        px, py, pw = park
        _central_park(img, d, px, py, pw, view, letters, static, w)
    if static:
        _legend(d, legend_top, w)


def _is_open(dist: View) -> bool:
    return bool(dist.get("open", True)) and bool(dist["spaces"])


def layout(view: View) -> tuple[list[tuple[View, int, int]], tuple[int, int, int] | None, int]:
    """Where each district goes (its view, x, y), Central Park (x, y, width; under the Zones with a cell to
    spare) and the legend's top. A district closed on the 1-2 player side is one short line (issue 24: a quarter
    of the picture said "Closed on the 1-2 player side"), so the picture is shorter with 1-2 players."""
    by_zone: dict[str, list[View]] = {z: [] for z in words.ZONE_NAMES}
    for dist in view["districts"]:
        by_zone.setdefault(dist["zone"], []).append(dist)
    places: list[tuple[View, int, int]] = []
    spare: list[tuple[int, int]] = []
    bottom = DISTRICTS_TOP
    for z, zone in enumerate(words.ZONE_NAMES):
        x = MARGIN + z * (COL_W + GAP)
        y = DISTRICTS_TOP
        dists = sorted(by_zone.get(zone, []), key=lambda t: t["number"])
        for dist in dists:
            places.append((dist, x, y))
            y += (DISTRICT_H if _is_open(dist) else CLOSED_H) + DISTRICT_GAP
        if len(dists) < ROWS:
            spare.append((x, y))
        bottom = max(bottom, y)
    park = None
    if spare:
        py = max(y for _, y in spare)
        park = (spare[0][0], py, spare[-1][0] + COL_W - spare[0][0])
        bottom = max(bottom, py + DISTRICT_H + DISTRICT_GAP)
    return places, park, bottom - DISTRICT_GAP + 12


def height(view: View) -> int:
    """The city picture's height for this view (shorter when districts are closed)."""
    return layout(view)[2] + LEGEND_H


def _closed(d: ImageDraw.ImageDraw, x: int, y: int, dist: View, say: Words) -> None:
    """A district closed on the 1-2 player side: its number, its name and why, on one short line."""
    w, cy = COL_W, y + CLOSED_H // 2
    panel(d, (x, y, x + w, y + CLOSED_H), CLOSED, LINE)
    d.ellipse((x + 7, cy - 17, x + 41, cy + 17), fill=DIM)
    text(d, (x + 24, cy), str(dist["number"]), P_NUMBER, INK, "bold", "mm")
    name = say(words.district_term(str(dist["name"])))
    closed = say(M("render.speakeasy.city.closed_short", "closed at 1–2 players"))
    room = w - 60
    used = fit(d, (x + 50, cy), name, room * 0.55, (P_TEXT, PHONE_MIN), MUTED, "bold", "lm")
    fit(d, (x + w - 10, cy), closed, room - used - 12, (P_TEXT, PHONE_MIN), MUTED, "cond", "rm")


# --- a Zone's head ------------------------------------------------------------------------------------------


def _zone_head(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    view: View,
    z: int,
    letters: list[str],
    static: bool,
    w: Words,
) -> None:
    zone = words.ZONE_NAMES[z]
    goal = next((g for g in view.get("zone_goals", []) if g.get("zone") == zone), None)
    shown = w(words.zone_term(zone))
    gx = x + 14 + int(fonts.get(P_ZONE, "serif_bold").getlength(shown)) + 14
    goal_text = w(M("render.speakeasy.city.goal", "Goal: {goal}", goal=words.zone_goal_text(goal))) if goal else ""
    if static:
        panel(d, (x, y, x + COL_W, y + ZONE_H), PANEL_HI, GOLD)
        text(d, (x + 14, y + 24), shown, P_ZONE, GOLD, "serif_bold", "lm")
        if goal:
            fit(d, (gx, y + 24), goal_text, x + COL_W - gx - 10, (P_GOAL, 20, PHONE_MIN), CREAM, "cond_bold", "lm")
        return
    if goal and goal.get("books"):  # the Books on the goal: after its words, or on the second line's right
        bx = x + COL_W - 12 - 40 * len(goal["books"])
        for seat in goal["books"]:
            book(d, bx + 8, y + 64, 20)
            seat_badge(img, bx + 28, y + 64, 28, seat, letters, PHONE_MIN)
            bx += 40
    cx = x + 14
    for p in view["players"]:
        markers = p.get("zone_markers", [0, 0, 0])
        n = int(markers[z]) if z < len(markers) else 0
        seat_badge(img, cx + 15, y + 64, 30, int(p["seat"]), letters, PHONE_MIN)
        text(d, (cx + 36, y + 64), str(n), P_NUMBER, CREAM, "bold", "lm")
        cx += 68
    mob = view.get("mobster_markers")
    if isinstance(mob, list) and z < len(mob):
        fedora(d, cx + 16, y + 70, 30, MOB_LIGHT)
        text(d, (cx + 36, y + 64), str(mob[z]), P_NUMBER, MOB_LIGHT, "bold", "lm")


# --- a district ---------------------------------------------------------------------------------------------


def _district(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    dist: View,
    letters: list[str],
    static: bool,
    war: bool,
    new: Collection[str],
    say: Words,
) -> None:
    """An open district: its panel (static), or its pieces."""
    w, h = COL_W, DISTRICT_H
    n = dist["number"]
    cx, cy = x + 24, y + 24
    tags: list[tuple[str, RGB, RGB, RGB | None, str]] = []
    if not static:
        if war:
            tags.append((say(TAG_WAR_NOW), WAR, WHITE, None, ""))
        if dist.get("cop"):
            tags.append((say(TAG_COP), COP, WHITE, None, f"cop:{n}"))
        if dist.get("cop_tile"):
            tags.append((say(TAG_COP_TILE), PANEL, COP_LIGHT, COP, f"cop_tile:{n}"))
        if dist.get("war_tile"):
            tags.append((say(TAG_NEXT_WAR), WAR, WHITE, None, f"war_tile:{n}"))
    font = fonts.get(P_TEXT, "cond_bold")
    tags_w = sum(int(font.getlength(t[0])) + 18 for t in tags)
    name = say(words.district_term(str(dist["name"])))
    if static:
        panel(d, (x, y, x + w, y + h), PANEL, LINE)
        d.ellipse((cx - 17, cy - 17, cx + 17, cy + 17), fill=GOLD)
        text(d, (cx, cy), str(n), P_NUMBER, INK, "bold", "mm")
        return
    # the name is drawn with the pieces: how much room it has depends on the markers beside it
    fit(d, (x + 50, cy), name, w - 60 - tags_w, (P_DISTRICT, 20, PHONE_MIN), CREAM, "bold", "lm")
    if war:  # the Mob War being fought here now
        d.rounded_rectangle((x, y, x + w, y + h), 10, outline=WAR, width=5)
    tx = x + w - 10
    for label, fill, ink, outline, mark in reversed(tags):
        tx -= int(font.getlength(label)) + 12
        mini_pill(d, tx, cy, label, fill, ink, outline, P_TEXT)
        if mark in new:
            outline_changed(d, (tx, cy - 13, tx + font.getlength(label) + 12, cy + 13), 13, CHANGED, 3)
        tx -= 6
    spaces = dist["spaces"]
    gap = 8
    sw = (w - 20 - gap * (len(spaces) - 1)) // len(spaces)
    sy0 = y + SPACES_TOP
    for k, sp in enumerate(spaces):
        sx = x + 10 + k * (sw + gap)
        box = (sx, sy0, sx + sw, sy0 + SPACES_H)
        _space(img, d, box, sp, letters, say)
        b = sp.get("building")
        if (
            b
            and any(f"{kind}:{n}:{k}" in new for kind in ("barrel", "family"))
            or (b and f"building:{n}:{k}:{b['owner']}:{b['kind']}" in new)
            or not b
            and sp.get("mobster")
            and f"mob:{n}:{k}" in new
        ):
            outline_changed(d, box, 8, CHANGED)
    _mobster_row(d, x, y, dist, new, say)


def _cached_district(
    img: Image.Image,
    layer: Image.Image,
    x: int,
    y: int,
    dist: View,
    letters: list[str],
    war: bool,
    new: Collection[str],
    w: Words,
) -> None:
    """A district's pieces, pasted from the part cache when the district, its outlines and the letters are as
    when it was last drawn (most districts do not change in a turn)."""
    n = dist["number"]
    own = sorted(m for m in new if m.split(":")[1:2] == [str(n)])
    part = layers.key("district", w.lang, dist, letters, war, own)

    def paint(part_img: Image.Image) -> None:
        _district(part_img, ImageDraw.Draw(part_img), 0, 0, dist, letters, False, war, own, w)

    layers.paste_part(img, layer, (x, y, x + COL_W, y + DISTRICT_H), part, paint)


def _mobster_row(d: ImageDraw.ImageDraw, x: int, y: int, dist: View, new: Collection[str], w: Words) -> None:
    """The district's Mobster and its Strength tile, along the bottom."""
    my = y + DISTRICT_H - 20
    right = x + COL_W - 10
    mob = dist.get("mobster")
    strength = dist.get("strength")
    if strength is None:
        d.rounded_rectangle((right - 30, my - 15, right, my + 15), 4, fill=(60, 44, 30), outline=GOLD)
        label = w(M("render.speakeasy.city.strength_down", "Strength face down"))
        text(d, (right - 38, my), label, P_TEXT, MUTED, "cond", "rm")
        right -= 38 + int(fonts.get(P_TEXT, "cond").getlength(label)) + 12
    elif strength:
        d.rounded_rectangle((right - 34, my - 16, right, my + 16), 5, fill=GOLD, outline=INK)
        text(d, (right - 17, my), str(strength), P_BIG - 4, INK, "bold", "mm")
        label = w(M("render.speakeasy.city.strength", "Strength"))
        text(d, (right - 42, my), label, P_TEXT, MUTED, "cond", "rm")
        right -= 42 + int(fonts.get(P_TEXT, "cond").getlength(label)) + 12
    if mob:
        said = w(M("render.speakeasy.city.mobster", "Mobster: {name}", name=words.mobster_term(str(mob))))
        width = fit(d, (x + 12, my), said, right - x - 16, (20, PHONE_MIN), MOB_LIGHT, "cond_bold", "lm")
        if f"mobster:{dist['number']}:{mob}" in new:
            outline_changed(d, (x + 8, my - 13, x + 16 + width, my + 13), 6, CHANGED, 3)
    elif strength == 0:
        text(d, (x + 12, my), w(M("render.speakeasy.city.no_mobster", "No Mobster")), P_TEXT, MUTED, "cond", "lm")


def _space(
    img: Image.Image, d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], sp: View, letters: list[str], w: Words
) -> None:
    x0, y0, x1, y1 = box
    b = sp.get("building")
    tile = sp.get("tile")
    if b is not None:
        seat = int(b["owner"])
        colour = player_colour(seat)
        ink = ink_on(colour)
        d.rounded_rectangle(box, 8, fill=colour, outline=CREAM if b.get("family") else None, width=4)
        seat_badge(img, x0 + 8 + BUILDING_BADGE // 2, y0 + 8 + BUILDING_BADGE // 2, BUILDING_BADGE, seat, letters, 20)
        tx = x0 + 12 + BUILDING_BADGE
        kind = w(words.kind_term(str(b["kind"])))
        fit(
            d,
            (tx, y0 + 8 + BUILDING_BADGE // 2),
            kind,
            x1 - tx - 4,
            (P_KIND, 20, 19, PHONE_MIN),
            ink,
            "cond_bold",
            "lm",
        )
        ix, iy = x0 + 10, y1 - 24
        if b.get("barrel"):
            barrel(d, ix + 12, iy, 30)
            ix += 30
        if b.get("family"):
            pawn(d, ix + 13, iy, 32, GOLD)
            ix += 32
        if not b.get("operating", True):
            mini_pill(d, ix + 4, iy, w(TAG_OFF), OFF, WHITE, None, P_TEXT)
        return
    if sp.get("mobster"):
        d.rounded_rectangle(box, 8, fill=MOB, outline=MOB_LIGHT, width=2)
        fedora(d, x0 + 22, y0 + 26, 32, (18, 14, 14))
        text(
            d,
            (x0 + 44, y0 + 20),
            w(M("render.speakeasy.city.mobster_space", "Mobster")),
            P_TEXT,
            CREAM,
            "cond_bold",
            "lm",
        )
        if tile:
            _tile(d, (x0 + 6, y0 + 40, x1 - 6, y1 - 6), str(tile["kind"]), w, short=True)
        return
    d.rounded_rectangle(box, 8, fill=SPACE, outline=LINE, width=1)
    if tile:
        _tile(d, (x0 + 6, y0 + 6, x1 - 6, y1 - 6), str(tile["kind"]), w)
    else:
        text(d, ((x0 + x1) / 2, (y0 + y1) / 2), w(M("render.speakeasy.city.free", "free")), P_TEXT, MUTED, "cond", "mm")


def _tile(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], kind: str, w: Words, short: bool = False) -> None:
    """A City tile on a space: tan, its kind in bold and what it gives under it (in two lines at most; in a word
    or two when ``short`` or when the long words do not fit)."""
    x0, y0, x1, y1 = box
    room = x1 - x0 - 12
    gives = words.breakable(w(words.tile_gives(kind, short)))
    lines = wrap_text(gives, room, P_TEXT, "cond") if gives else []
    if len(lines) > (1 if short else 2):
        lines = wrap_text(words.breakable(w(words.tile_gives(kind, True))), room, P_TEXT, "cond")
    lines = lines[:2]
    h = 10 + 22 * (1 + len(lines))
    top = (y0 + y1) / 2 - h / 2
    d.rounded_rectangle((x0, top, x1, top + h), 5, fill=TILE, outline=INK)
    fit(d, ((x0 + x1) / 2, top + 5), w(words.tile_term(kind)), room, (P_TEXT,), INK, "cond_bold", "ma")
    for i, line in enumerate(lines):
        text(d, ((x0 + x1) / 2, top + 27 + 22 * i), line, P_TEXT, INK, "cond", "ma")


# --- Central Park -------------------------------------------------------------------------------------------


def _central_park(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    view: View,
    letters: list[str],
    static: bool,
    say: Words,
) -> None:
    goals = view.get("central_park", [])
    h = DISTRICT_H
    n = max(1, len(goals))
    gap = 8
    tw = (w - 20 - gap * (n - 1)) // n
    if static:
        panel(d, (x, y, x + w, y + h), PANEL_HI, GOLD)
        head = say(M("render.speakeasy.city.park", "CENTRAL PARK GOALS · ONE BOOK EACH"))
        fit(d, (x + 12, y + 8), head, w - 24, (P_TEXT,), GOLD, "cond_bold")
    for k, g in enumerate(goals):
        tx = x + 10 + k * (tw + gap)
        ty = y + 36
        if static:
            d.rounded_rectangle((tx, ty, tx + tw, y + h - 8), 8, fill=PANEL, outline=LINE, width=1)
            text(d, (tx + 8, ty + 4), str(g.get("tile", "")), P_HEAD, GOLD, "bold")
            goal, _, reward = say(words.park_goal_text(g)).partition(": ")
            yy = block(d, tx + 8, ty + 32, words.breakable(goal), tw - 14, P_TEXT, CREAM, "cond", max_lines=3)
            if reward:
                said = words.breakable("→ " + reward)
                # bold if it fits in two lines, else condensed (a long German word)
                face = "cond_bold" if len(wrap_text(said, tw - 14, P_TEXT, "cond_bold")) <= 2 else "cond"
                block(d, tx + 8, yy + 2, said, tw - 14, P_TEXT, GOLD, face, max_lines=2)
            continue
        seat = g.get("book")
        if seat is not None:
            book(d, tx + tw - 44, ty + 16, 20)
            seat_badge(img, tx + tw - 18, ty + 16, 28, int(seat), letters, PHONE_MIN)


# --- the legend ---------------------------------------------------------------------------------------------


TAG_OFF = M("render.speakeasy.tag", "OFF")
TAG_COP = M("render.speakeasy.tag", "COP")
TAG_COP_TILE = M("render.speakeasy.tag", "COP TILE")
TAG_NEXT_WAR = M("render.speakeasy.tag", "NEXT WAR")
TAG_WAR_NOW = M("render.speakeasy.tag", "MOB WAR NOW")


def _legend(d: ImageDraw.ImageDraw, y: int, w: Words) -> None:
    font = fonts.get(P_TEXT, "cond")
    x = MARGIN
    cy = y + 14
    barrel(d, x + 12, cy, 26)
    x += 28
    said = w(M("render.speakeasy.legend", "barrel"))
    text(d, (x, cy), said, P_TEXT, MUTED, "cond", "lm")
    x += int(font.getlength(said)) + 22
    pawn(d, x + 12, cy, 28, GOLD)
    x += 28
    said = w(M("render.speakeasy.legend", "protecting Family Member (cream edge)"))
    text(d, (x, cy), said, P_TEXT, MUTED, "cond", "lm")
    x += int(font.getlength(said)) + 22
    for tag, meaning, fill, ink, outline in (
        (TAG_OFF, M("render.speakeasy.legend", "not Operating"), OFF, WHITE, None),
        (TAG_COP_TILE, M("render.speakeasy.legend", "Cop tile face down"), PANEL, COP_LIGHT, COP),
        (TAG_NEXT_WAR, M("render.speakeasy.legend", "Mobster District tile"), WAR, WHITE, None),
    ):
        x += mini_pill(d, x, cy, w(tag), fill, ink, outline, P_TEXT) + 8
        said = w(meaning)
        text(d, (x, cy), said, P_TEXT, MUTED, "cond", "lm")
        x += int(font.getlength(said)) + 22
    cy += 30
    x = MARGIN
    d.rounded_rectangle((x, cy - 12, x + 40, cy + 12), 5, fill=TILE, outline=INK)
    x += 50
    said = w(M("render.speakeasy.legend", "City tile: what you gain when you build there"))
    text(d, (x, cy), said, P_TEXT, MUTED, "cond", "lm")
    x += int(font.getlength(said)) + 28
    d.rounded_rectangle((x, cy - 12, x + 40, cy + 12), 6, outline=CHANGED, width=4)
    x += 50
    text(d, (x, cy), w(M("render.speakeasy.legend", "new since the last picture")), P_TEXT, MUTED, "cond", "lm")
    said = w(M("render.speakeasy.legend", "Mobsters in the Zone · Zone Control"))
    fedora(d, WIDTH - MARGIN - font.getlength(said) - 26, cy + 6, 30, MOB_LIGHT)
    text(d, (WIDTH - MARGIN, cy), said, P_TEXT, MUTED, "cond", "rm")


def new_image(height: int = HEIGHT) -> Image.Image:
    """A blank city picture."""
    return Image.new("RGB", (WIDTH, height), BG)
