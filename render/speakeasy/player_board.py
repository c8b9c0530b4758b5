"""One player's Operations board: levels, Goons, Trucks, buildings left on each row, card slots and public numbers;
the safe, hand and Helpers behind the screen only when the view is that seat's own.

A picture asked for on demand (``/game board``), denser than the two public phone pictures.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import draw
from render import speakeasy_text as words
from render.draw import RGB, badge_letters, encode_png, fit, fit_lines, ink_on, player_colour
from render.speakeasy import pieces
from render.speakeasy.pieces import after_colon, panel, seat_badge
from render.speakeasy.style import (
    BG,
    CREAM,
    DECK_ACCENTS,
    DIM,
    FS_NAME,
    FS_STAT,
    FS_VALUE,
    GOLD,
    GOON_COSTS,
    HEADER_H,
    INK,
    LEVEL_KEYS,
    LINE,
    MARGIN,
    MAX_LEVEL,
    MUTED,
    PHONE_MIN,
    ROW_KINDS,
    SPACE,
    TRUCKS_BY_FLEET,
    WIDTH,
)

View = dict[str, Any]

# Issue 12: read on a phone like the public pictures, so no text under PHONE_MIN (18 px) here either.
FS_SMALL = PHONE_MIN
FS_LABEL = PHONE_MIN
FS_KIND = 20
FS_LINE = 20

_text = draw.text
_fit = fit
_panel = panel
_seat_badge = seat_badge
_after_colon = after_colon


def _header(img: Image.Image, title: str, sub: str) -> None:
    d = ImageDraw.Draw(img)
    pieces.header_frame(d)
    pieces.header_title(d, title, sub, sub_sizes=(20, PHONE_MIN))


def _label(d: ImageDraw.ImageDraw, x: float, y: float, words_: str) -> None:
    pieces.label(d, x, y, words_, size=PHONE_MIN)


def _stat(d: ImageDraw.ImageDraw, x: int, y: int, w: int, label_text: str, value: str) -> None:
    _text(d, (x + w / 2, y), label_text.upper(), FS_SMALL, MUTED, "cond_bold", "ma")
    _fit(d, (x + w / 2, y + 22), value, w - 4, (FS_STAT, FS_VALUE, FS_LABEL), CREAM, "bold", "ma")


def _card_box(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, title: str, text: str, accent: RGB) -> None:
    d.rounded_rectangle((x, y, x + w, y + h), 8, fill=CREAM, outline=accent, width=3)
    d.rectangle((x + 3, y + 3, x + w - 3, y + 28), fill=accent)
    _fit(d, (x + w / 2, y + 16), title, w - 10, (FS_LABEL, FS_SMALL), ink_on(accent), "cond_bold", "mm")
    lines, size = fit_lines(text, w - 14, h - 38, (FS_LABEL, FS_SMALL), "cond")
    for i, line in enumerate(lines[:4]):
        _text(d, (x + 7, y + 34 + i * (size + 3)), line, size, INK, "cond")


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
        later = words.helper_later(str(h["name"]))
        shown = f"{h['name']} ({h['bottle']}): later {later}" if later else f"{h['name']} ({h['bottle']})"
        _fit(d, (hx, hy), shown, x1 - hx - 16, (FS_LABEL,), CREAM, "cond", "lm")
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
