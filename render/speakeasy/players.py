"""A player's row on the table picture: badge and name, the public numbers large, the levels, and a line each for
the face-up Helpers (with what they do later), Crates, Associate, City tiles and Family Members on Infamy."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import speakeasy_text as words
from render.draw import fit, pill, player_colour, text
from render.speakeasy import layers
from render.speakeasy.pieces import seat_badge
from render.speakeasy.style import (
    CREAM,
    GOLD,
    INK,
    LEVEL_KEYS,
    LINE,
    MUTED,
    P_BIG,
    P_NAME,
    P_TEXT,
    PANEL,
    PHONE_MIN,
    WIDTH,
)
from words import Words
from words.msg import Join, M

View = dict[str, Any]

MARGIN = 16
PLAYER_H = 136
STATS = (
    M("render.speakeasy.stat_short", "Pocket"),
    M("render.speakeasy.stat_short", "Leverage"),
    M("render.speakeasy.stat_short", "Infamy"),
    M("render.speakeasy.stat_short", "Cards"),
    M("render.speakeasy.stat_short", "Capos"),
    M("render.speakeasy.stat_short", "Goons"),
    M("render.speakeasy.stat_short", "Books"),
    M("render.speakeasy.stat_short", "Family"),
    M("render.speakeasy.stat_short", "Barrels"),
    M("render.speakeasy.stat_short", "Tiles"),
)
LEVEL_LABELS = {
    "vip": M("render.speakeasy.level_label", "VIP"),
    "party": M("render.speakeasy.level_label", "PARTY"),
    "stills": M("render.speakeasy.level_label", "STILLS"),
    "fleet": M("render.speakeasy.level_label", "FLEET"),
    "strength": M("render.speakeasy.level_label", "STR."),
}
STAT_X = 290
STAT_W = 95
LEVEL_W = 64


# --- the players --------------------------------------------------------------------------------------------


def draw(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    y: int,
    view: View,
    p: View,
    letters: list[str],
    static: bool,
    x_shift: int = 0,
) -> None:
    seat = int(p["seat"])
    w = words.lang_words(view)
    x0, x1 = MARGIN + x_shift, WIDTH - MARGIN + x_shift
    if static:
        d.rounded_rectangle((x0, y, x1, y + PLAYER_H), 14, fill=PANEL, outline=LINE, width=2)
        d.rounded_rectangle((x0 + 6, y + 12, x0 + 14, y + PLAYER_H - 12), 4, fill=player_colour(seat))
        seat_badge(img, x0 + 52, y + 42, 56, seat, letters, PHONE_MIN)
        fit(d, (x0 + 90, y + 30), str(p["name"]), STAT_X - 100, (P_NAME, 24, 20, PHONE_MIN), CREAM, "bold", "lm")
        for k, label in enumerate(STATS):
            cx = x0 + STAT_X + k * STAT_W + STAT_W / 2
            # centred over its number, a label may reach into the gaps beside its neighbours' shorter labels
            fit(d, (cx, y + 10), w(label).upper(), STAT_W + 12, (P_TEXT,), MUTED, "cond_bold", "ma")
        lx = x0 + STAT_X + len(STATS) * STAT_W
        for k, key in enumerate(LEVEL_KEYS):
            lxy = (lx + k * LEVEL_W + LEVEL_W / 2, y + 10)
            fit(d, lxy, w(LEVEL_LABELS[key]), LEVEL_W + 8, (P_TEXT,), GOLD, "cond_bold", "ma")
        return
    current = view.get("current") == seat and view["phase"] != "over"
    tx = x0 + 90
    if current:
        d.rounded_rectangle((x0, y, x1, y + PLAYER_H), 14, outline=GOLD, width=4)
        tx += pill(d, tx, y + 64, w(M("render.speakeasy.tag", "TO PLAY")), P_TEXT, GOLD, INK) + 6
    if seat == words.jo_seat(view):
        pill(d, tx, y + 64, w(M("render.speakeasy.tag", "SOLO BOT")), P_TEXT, (70, 74, 92), CREAM)
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
        cx = x0 + STAT_X + k * STAT_W + STAT_W / 2
        fit(d, (cx, y + 34), value, STAT_W - 4, (P_BIG, 26, 22, PHONE_MIN), CREAM, "bold", "ma")
    lx = x0 + STAT_X + len(STATS) * STAT_W
    levels = p.get("levels", {})
    for k, key in enumerate(LEVEL_KEYS):
        value = str(levels.get(key, 0))
        text(d, (lx + k * LEVEL_W + LEVEL_W / 2, y + 34), value, P_BIG, GOLD, "bold", "ma")
    room = x1 - x0 - 36
    line1, line2 = _lines(view, p, w)
    fit(d, (x0 + 24, y + 92), line1, room, (P_TEXT,), CREAM, "cond", "lm")
    fit(d, (x0 + 24, y + 118), line2, room, (P_TEXT,), MUTED, "cond", "lm")


def _lines(view: View, p: View, w: Words) -> tuple[str, str]:
    """The row's two lines of words: the Helpers face up (with what they do later), the screen and Crates; then
    Jo, the Associate, City tiles and Family Members on Infamy."""
    helpers = [
        w(
            M(
                "render.speakeasy.players.helper",
                "{helper} (later: {later})",
                helper=words.helper_term(str(h["name"])),
                later=words.helper_later(str(h["name"])),
            )
        )
        for h in p.get("helpers", [])
    ]
    face_up = "; ".join(helpers) if helpers else w(M("render.speakeasy.none", "none"))
    n = int(p.get("screen_count", 0))
    line1 = w(M("render.speakeasy.players.helpers", "Helpers face up: {helpers}", helpers=face_up))
    line1 += " · " + w(M("render.speakeasy.players.screen", "{n} behind the screen", n=n))
    if p.get("crates"):
        crates = Join([words.crate_term(str(c)) for c in p["crates"]], "comma")
        line1 += " · " + w(M("render.speakeasy.players.crates", "Crates: {crates}", crates=crates))
    bits: list[str] = []
    if int(p["seat"]) == words.jo_seat(view):
        bits.append(words.jo_words(view))
    if p.get("associate"):
        mob = words.mobster_term(str(p["associate"]))
        bits.append(w(M("render.speakeasy.players.associate", "Associate: {name}", name=mob)))
    tiles = [words.tile_term(str(t["kind"])) for t in p.get("city_tiles", []) if t]
    if tiles:
        bits.append(w(M("render.speakeasy.players.tiles", "City tiles: {tiles}", tiles=Join(tiles, "comma"))))
    if p.get("family_track"):
        spaces = ", ".join(str(v) for v in p["family_track"])
        bits.append(w(M("render.speakeasy.players.family", "Family on Infamy {spaces}", spaces=spaces)))
    line2 = " · ".join(b for b in bits if b) or w(M("render.speakeasy.players.nothing", "No Associate, no City tiles"))
    return line1, line2


def cached(img: Image.Image, layer: Image.Image, y: int, view: View, p: View, letters: list[str]) -> None:
    """A player's row, from the part cache when it shows the same as when last drawn."""
    seat = int(p["seat"])
    # exactly what _player reads from the view besides the player
    context = {"current": view.get("current") == seat, "phase": view["phase"] == "over"}
    context["jo"] = words.jo_words(view) if seat == words.jo_seat(view) else None
    part = layers.key("player", view.get("lang"), p, letters, context)

    def paint(part_img: Image.Image) -> None:
        draw(part_img, ImageDraw.Draw(part_img), 0, view, p, letters, False, x_shift=-MARGIN)

    layers.paste_part(img, layer, (MARGIN, y, WIDTH - MARGIN + 1, y + PLAYER_H + 1), part, paint)
