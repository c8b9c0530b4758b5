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
from words import Words
from words.msg import Join, M, P

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


def _stat(d: ImageDraw.ImageDraw, x: int, y: int, w: int, label_text: str, value: str, key: str = "") -> None:
    """A number under its label; ``key`` says what a two-part value's parts are ("placed + supply")."""
    _fit(d, (x + w / 2, y), label_text.upper(), w - 4, (FS_SMALL,), MUTED, "cond_bold", "ma")
    _fit(d, (x + w / 2, y + 22), value, w - 4, (FS_STAT, FS_VALUE, FS_LABEL), CREAM, "bold", "ma")
    if key:
        _fit(d, (x + w / 2, y + 52), key, w - 4, (FS_SMALL,), MUTED, "cond", "ma")


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
    w = words.lang_words(view)
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
    if own:
        sub = w(M("render.speakeasy.board.sub", "Your own board: the safe and hand below are private"))
    else:
        sub = w(M("render.speakeasy.board.sub", "Public view: safe and hand are private"))
    title = M("render.speakeasy.board.title", "{name}'s Operations board · {year}", name=p["name"], year=view["year"])
    _header(img, w(title), sub)
    y = HEADER_H + 24
    x0, x1 = MARGIN, WIDTH - MARGIN
    # left: badge and numbers; right: levels, Goons, Trucks
    _panel(d, (x0, y, x0 + 760, y + 330))
    _seat_badge(img, x0 + 52, y + 52, 64, seat, letters)
    _fit(d, (x0 + 96, y + 52), str(p["name"]), 400, (FS_NAME, 24, 20), CREAM, "bold", "lm")
    # issue 24: a two-part number says what its parts are ("1+9" read as nothing to a newcomer)
    stats = [
        (M("render.speakeasy.stat", "Pocket"), f"${p['pocket']}", ""),
        (M("render.speakeasy.stat", "Leverage"), str(p["leverage"]), ""),
        (M("render.speakeasy.stat", "Infamy"), str(p["infamy"]), ""),
        (M("render.speakeasy.stat", "Capos"), str(p["capos"]), ""),
        (M("render.speakeasy.stat", "Cards"), str(p["hand_count"]), ""),
        (
            M("render.speakeasy.stat", "Books"),
            f"{p['books']}+{p.get('book_supply', 0)}",
            w(M("render.speakeasy.stat_key", "placed + supply")),
        ),
        (
            M("render.speakeasy.stat", "Family"),
            f"{p['family_vip']}+{p.get('family_supply', 0)}",
            w(M("render.speakeasy.stat_key", "VIP area + supply")),
        ),
        (
            M("render.speakeasy.stat", "Barrels"),
            f"{p['stills_barrels']}/8",
            w(M("render.speakeasy.stat_key", "in Stills / max")),
        ),
    ]
    for k, (label, value, key) in enumerate(stats):
        _stat(d, x0 + 16 + (k % 4) * 184, y + 92 + (k // 4) * 66, 180, w(label), value, key)
    none = M("render.speakeasy.none", "none")
    tiles = Join([words.tile_term(str(t["kind"])) for t in p.get("city_tiles", []) if t], "comma")
    crates = Join([words.crate_term(str(c)) for c in p.get("crates", [])], "comma")
    line = M(
        "render.speakeasy.board.tiles",
        "City tiles: {tiles} · Crates: {crates}",
        tiles=tiles if tiles.args["items"] else none,
        crates=crates if crates.args["items"] else none,
    )
    _two_lines(d, x0 + 16, y, ((_numbers_line(p, w), CREAM), (w(line), MUTED)))
    rx = x0 + 780
    _panel(d, (rx, y, x1, y + 330))
    _label(d, rx + 16, y + 12, w(M("render.speakeasy.board.label", "Levels")))
    levels = p.get("levels", {})
    for r, key in enumerate(LEVEL_KEYS):
        yy = y + 54 + r * 40
        _fit(d, (rx + 16, yy), w(words.TRACK_NAMES[key]), 100, (FS_KIND, FS_SMALL), CREAM, "cond_bold", "lm")
        level = int(levels.get(key, 0))
        for k in range(MAX_LEVEL):
            bx = rx + 120 + k * 52
            box = (bx, yy - 16, bx + 44, yy + 16)
            d.rounded_rectangle(
                box, 6, fill=GOLD if k < level else SPACE, outline=GOLD if k + 1 == level else LINE, width=2
            )
            _text(d, (bx + 22, yy), str(k + 1), FS_LABEL, INK if k < level else DIM, "bold", "mm")
    gx = rx + 420
    _label(d, gx, y + 12, w(M("render.speakeasy.board.label", "Goons hired")))
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
    _text(
        d, (gx, y + 200), w(M("render.speakeasy.board.trucks", "Trucks: {n}", n=trucks)), FS_KIND, CREAM, "bold", "lm"
    )
    said = w(M("render.speakeasy.board.fleet", "(Fleet level {n})", n=fleet))
    _text(d, (gx, y + 226), said, FS_SMALL, MUTED, "cond", "lm")
    y += 330 + 20
    # building rows
    _panel(d, (x0, y, x1, y + 190))
    _label(d, x0 + 16, y + 12, w(M("render.speakeasy.board.label", "Buildings still on the Operations board")))
    rows = p.get("rows", {})
    for r, kind in enumerate(ROW_KINDS):
        ry = y + 50 + r * 36
        row = rows.get(kind, [])
        left = sum(1 for v in row if v)
        said = f"{w(words.KIND_NAMES[kind])} {left}/{len(row)}"
        _fit(d, (x0 + 16, ry), said, 160, (FS_LABEL,), CREAM, "cond_bold", "lm")
        for k, there in enumerate(row):
            bx = x0 + 180 + k * 40
            if there:
                d.rounded_rectangle((bx, ry - 14, bx + 32, ry + 14), 5, fill=player_colour(seat), outline=INK)
                _text(
                    d, (bx + 16, ry), w(words.KIND_NAMES[kind])[0], FS_SMALL, ink_on(player_colour(seat)), "bold", "mm"
                )
            else:
                d.rounded_rectangle((bx, ry - 14, bx + 32, ry + 14), 5, outline=DIM, width=2)
    helpers = p.get("helpers", [])
    hx = x0 + 560
    _label(d, hx, y + 50, w(M("render.speakeasy.board.label", "Helpers face up")))
    hy = y + 80
    for h in helpers[:4]:
        later = words.helper_later(str(h["name"]))
        helper = words.helper_with_bottle(h)
        if later:
            shown = w(M("render.speakeasy.board.helper", "{helper}: later {later}", helper=helper, later=later))
        else:
            shown = w(helper)
        _fit(d, (hx, hy), shown, x1 - hx - 16, (FS_LABEL,), CREAM, "cond", "lm")
        hy += 24
    if not helpers:
        _text(d, (hx, hy), w(M("render.speakeasy.none", "none")), FS_LABEL, MUTED, "cond", "lm")
    y += 190 + 20
    # card slots
    _label(d, x0, y, w(M("render.speakeasy.board.label", "Card slots")))
    slots = p.get("slots", {})
    cw = (x1 - x0 - 3 * 16) // 4
    for k, deck in enumerate(("vip", "party", "stills", "fleet")):
        card = slots.get(deck)
        cx = x0 + k * (cw + 16)
        if card:
            name = _after_colon(w(words.card_term(str(card["name"]))))
            _card_box(d, cx, y + 26, cw, 110, w(words.DECK_NAMES[deck]), name, DECK_ACCENTS[deck])
        else:
            d.rounded_rectangle((cx, y + 26, cx + cw, y + 136), 8, outline=DIM, width=2)
            said = w(M("render.speakeasy.board.empty_slot", "{deck}: empty", deck=words.DECK_NAMES[deck]))
            _fit(d, (cx + cw / 2, y + 81), said, cw - 12, (FS_LABEL,), DIM, "cond", "mm")
    y += 150
    if own:
        _panel(d, (x0, y, x1, y + 60), (52, 44, 24), GOLD)
        safe = w(M("render.speakeasy.board.safe", "Safe: ${n}", n=p.get("safe", 0)))
        _fit(d, (x0 + 16, y + 30), safe, 236, (FS_NAME, 24, 20), GOLD, "bold", "lm")
        if screen:
            helpers = Join([words.helper_with_bottle(h) for h in screen], "comma")
        else:
            helpers = M("render.speakeasy.board.no_helpers", "no Helpers")
        _fit(
            d,
            (x0 + 260, y + 30),
            w(M("render.speakeasy.board.screen", "Behind your screen: {helpers}", helpers=helpers)),
            x1 - x0 - 280,
            (FS_LINE, FS_LABEL, FS_SMALL),
            CREAM,
            "cond",
            "lm",
        )
        y += 80
        _label(
            d, x0, y, w(P("render.speakeasy.board.hand", "Your hand ({n} card)", "Your hand ({n} cards)", len(hand)))
        )
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
                w(words.DECK_NAMES[deck]) if deck in words.DECK_NAMES else deck,
                _after_colon(w(words.card_term(str(card["name"])))),
                DECK_ACCENTS.get(deck, LINE),
            )
        if not hand:
            _text(
                d,
                (x0, y + 20),
                w(M("render.speakeasy.board.no_cards", "No cards in hand")),
                FS_LABEL,
                DIM,
                "cond",
                "lm",
            )
    return img


def _two_lines(d: ImageDraw.ImageDraw, x: int, y: int, texts: tuple[tuple[str, RGB], ...]) -> None:
    """The numbers panel's lines of words under the numbers: one line each, or, when one is too long at the
    smallest size, each wrapped (up to four lines in all, from higher up)."""
    room = 730
    if all(draw.text_width(said, FS_SMALL, "cond") <= room for said, _ in texts):
        for k, (said, colour) in enumerate(texts):
            _fit(d, (x, y + 262 + 34 * k), said, room, (FS_LINE, FS_LABEL, FS_SMALL), colour, "cond", "lm")
        return
    lines = [(line, colour) for said, colour in texts for line in draw.wrap_text(said, room, FS_SMALL, "cond")]
    for k, (line, colour) in enumerate(lines[:4]):
        _fit(d, (x, y + 244 + 24 * k), line, room, (FS_SMALL,), colour, "cond", "lm")


def _numbers_line(p: View, w: Words) -> str:
    """``Associate: … · Family on Infamy 3, 7 · 2 Helpers behind the screen``."""
    if p.get("associate"):
        mob = words.mobster_term(str(p["associate"]))
        bits = [w(M("render.speakeasy.players.associate", "Associate: {name}", name=mob))]
    else:
        bits = [w(M("render.speakeasy.board.no_associate", "No Associate"))]
    if p.get("family_track"):
        spaces = ", ".join(str(v) for v in p["family_track"])
        bits.append(w(M("render.speakeasy.players.family", "Family on Infamy {spaces}", spaces=spaces)))
    n = int(p.get("screen_count", 0))
    bits.append(
        w(P("render.speakeasy.board.screen_count", "{n} Helper behind the screen", "{n} Helpers behind the screen", n))
    )
    return " · ".join(bits)


def render_player_board(view: View, seat: int) -> bytes:
    """One player's Operations board as a PNG: levels, Goons, Trucks, buildings left on each row, card slots and
    public numbers; the safe, hand and the Helpers behind the screen only when ``view`` is ``seat``'s own view."""
    return encode_png(_player_board_image(view, seat))
