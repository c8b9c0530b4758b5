"""The table picture for phones: turn order and Infamy, the locations with their Capos (the Restaurant's booths
and the Park with what they give), the Helper and City tile displays, the City Docks with every Ship's price,
barrels and Crate, the Operations decks, and each player's public numbers.

Two passes like the city (``static=True`` for the cached frame, then the pieces); every text at least
``PHONE_MIN`` px, the picture wider than tall.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render import speakeasy_text as words
from render.draw import block, dashed_rounded_rect, fit, outline_changed, text, text_width, wrap_text
from render.speakeasy import layers, players
from render.speakeasy.displays import ROW_C_H, city_tiles, helpers
from render.speakeasy.pieces import after_colon, barrel, book, empty_spot, panel, seat_badge
from render.speakeasy.style import (
    BG,
    CHANGED,
    CREAM,
    DIM,
    GOLD,
    INFAMY_MAX,
    LINE,
    MUTED,
    P_HEAD,
    P_NUMBER,
    P_TEXT,
    PANEL_HI,
    PHONE_MIN,
    SPACE,
    WIDTH,
)
from render.speakeasy.table_layout import (
    DOCK_H,
    GAP,
    HELPERS_W,
    LEFT_W,
    LOC_H,
    LOC_W,
    LOWER,
    MARGIN,
    ORDER_W,
    PARK_BOX,
    PARK_W,
    PLAYER_GAP,
    PLAYER_H,
    PLAYERS_TOP,
    RESTAURANT_BOX,
    RIGHT_W,
    RIGHT_X,
    SHIP_H,
    STRIP_H,
    TOP,
    height,
    location_box,
    location_names,
)
from words import Words
from words.msg import M, P, T

View = dict[str, Any]


def static_view(view: View) -> View:
    """The part of a view the table's static layer may read (the same all game)."""
    return {
        "lang": view.get("lang"),
        "side": view.get("side"),
        "players": [{"seat": p["seat"], "name": p["name"]} for p in view["players"]],
        "booths": [None] * len(view.get("booths", [])),
        "park": [None] * len(view.get("park", [])),
        "ships": [{"number": s["number"]} for s in view.get("ships", [])],
        "docks": [[None] * len(z) for z in view.get("docks", [])],
    }


def draw(
    img: Image.Image,
    view: View,
    letters: list[str],
    static: bool,
    new: Collection[str],
    layer: Image.Image | None = None,
) -> None:
    """One pass of the table (below the header): the static layer, or the pieces with ``new`` marks outlined.

    With the static ``layer`` given, each player's row is pasted from the part cache when it looks as last time."""
    d = ImageDraw.Draw(img)
    w = words.lang_words(view)
    _turn_order(img, d, MARGIN, TOP, ORDER_W, view, letters, static, w)
    ix = MARGIN + ORDER_W + GAP
    _infamy(img, d, ix, TOP, WIDTH - MARGIN - ix, view, letters, static, w)
    _locations(img, d, view, letters, static, new, w)
    if layer is None or static:
        _docks(img, d, view, letters, static, new, w)
    else:
        _cached_docks(img, layer, view, letters, new, w)
    y = PLAYERS_TOP
    for p in view["players"]:
        if layer is None or static:
            players.draw(img, d, y, view, p, letters, static)
        else:
            players.cached(img, layer, y, view, p, letters)
        y += PLAYER_H + PLAYER_GAP


#: The Docks and decks column (right of the locations), a part of its own: it changes less often than the rest.
DOCKS_BOX = (RIGHT_X, LOWER, WIDTH - MARGIN, PLAYERS_TOP - GAP)
_DOCKS_KEYS = ("ships", "crate_stack", "docks", "docks_books", "decks")


def _cached_docks(
    img: Image.Image, layer: Image.Image, view: View, letters: list[str], new: Collection[str], w: Words
) -> None:
    """The Docks and decks, from the part cache when they show the same as when last drawn."""
    own = sorted(m for m in new if m.startswith(("ship:", "dock:")))
    part = layers.key("docks", w.lang, {k: view.get(k) for k in _DOCKS_KEYS}, letters, own)

    def paint(part_img: Image.Image) -> None:
        _docks(part_img, ImageDraw.Draw(part_img), view, letters, False, own, w, DOCKS_BOX[:2])

    layers.paste_part(img, layer, DOCKS_BOX, part, paint)


def _label(
    d: ImageDraw.ImageDraw, x: float, y: float, words_: str, fill: tuple[int, int, int] = MUTED, max_w: float = 0
) -> None:
    """A capitals label (shrunk to ``max_w`` when given: German labels run longer)."""
    if max_w:
        fit(d, (x, y), words_.upper(), max_w, (P_TEXT,), fill, "cond_bold")
    else:
        text(d, (x, y), words_.upper(), P_TEXT, fill, "cond_bold")


# --- tracks -------------------------------------------------------------------------------------------------


def _turn_order(
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
    if static:
        panel(d, (x, y, x + w, y + STRIP_H))
        _label(d, x + 14, y + 10, say(M("render.speakeasy.table.label", "Turn order")))
        return
    order = list(view.get("order") or view.get("track") or [])
    track = list(view.get("track") or [])
    current = view.get("current") if view["phase"] != "over" else None
    size = 56
    step = min(94, (w - 28) // max(1, len(order)))
    cy = y + 74
    for k, seat in enumerate(order):
        cx = x + 16 + step * k + size // 2 + 6
        if seat == current:
            r = size // 2 + 6
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=GOLD, width=4)
        seat_badge(img, cx, cy, size, seat, letters, PHONE_MIN)
        text(d, (cx, cy + size // 2 + 8), f"{k + 1}.", P_TEXT, GOLD if seat == current else MUTED, "bold", "mt")
    if track and track != order:
        names = ", ".join(letters[s] for s in track)
        said = say(M("render.speakeasy.table.next_round", "Next round: {names}", names=names))
        fit(d, (x + 14, y + STRIP_H - 8), said, w - 28, (P_TEXT,), CREAM, "cond", "lb")


def _infamy(
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
    cells = INFAMY_MAX + 1
    cw = (w - 24) / cells
    top = y + 38
    if static:
        panel(d, (x, y, x + w, y + STRIP_H))
        _label(d, x + 14, y + 10, say(M("render.speakeasy.table.label", "Infamy")))
        spaces = ", ".join(map(str, words.INFAMY_BOOK_SPACES))
        said = say(M("render.speakeasy.table.infamy_books", "Book on {spaces}", spaces=spaces))
        text(d, (x + w - 14, y + 10), said, P_TEXT, MUTED, "cond", "ra")
        for v in range(cells):
            cx0 = x + 12 + v * cw
            is_book = v in words.INFAMY_BOOK_SPACES
            d.rectangle((cx0 + 1, top, cx0 + cw - 1, y + STRIP_H - 10), fill=PANEL_HI if is_book else SPACE)
            text(d, (cx0 + cw / 2, top + 4), str(v), P_TEXT, GOLD if is_book else MUTED, "cond_bold", "ma")
            if is_book:
                book(d, cx0 + cw / 2, top + 34, 16)
        return
    books = {int(k): list(v) for k, v in view.get("infamy_books", {}).items()}
    at: dict[int, list[int]] = {}
    for p in view["players"]:
        at.setdefault(min(INFAMY_MAX, max(0, int(p["infamy"]))), []).append(int(p["seat"]))
    size = 32
    for v in range(cells):
        cx0 = x + 12 + v * cw
        booked = [letters[s] for s in books.get(v, [])]
        for r in range(0, len(booked), 2):  # two letters a line: four Books still fit the cell
            text(d, (cx0 + cw / 2, top + 46 + 10 * r), "".join(booked[r : r + 2]), P_TEXT, CREAM, "cond_bold", "ma")
        here = at.get(v, [])
        step = min(size - 12, (STRIP_H - 12 - size - 66) // max(1, len(here) - 1))  # stacked, under the numbers
        for k, seat in enumerate(here):
            seat_badge(img, cx0 + cw / 2, y + STRIP_H - 12 - size // 2 - k * step, size, seat, letters, PHONE_MIN)


# --- locations ----------------------------------------------------------------------------------------------


def _capo(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    seat: int | None,
    letters: list[str],
    changed: bool = False,
) -> None:
    if seat is None:
        empty_spot(img, int(cx), int(cy), 32)
        return
    seat_badge(img, cx, cy, 38, seat, letters, 20)
    if changed:
        outline_changed(d, (cx - 20, cy - 20, cx + 20, cy + 20), 18, CHANGED, 4)


def _locations(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: View,
    letters: list[str],
    static: bool,
    new: Collection[str],
    w: Words,
) -> None:
    x, y = MARGIN, LOWER
    if static:
        _label(d, x, y + 2, w(M("render.speakeasy.table.label", "Locations · Capos")))
    y += 28
    persons = view.get("persons", {})
    for k, loc in enumerate(location_names()):
        bx, by, _, _ = location_box(k)
        if static:
            panel(d, (bx, by, bx + LOC_W, by + LOC_H))
            fit(d, (bx + 12, by + 10), w(words.location_term(loc)), LOC_W - 24, (P_HEAD, 19, PHONE_MIN), GOLD, "bold")
        if loc == "City Hall" and not static:
            # this Act's City Hall Books (one per player per Act): a Book, then each player's badge
            seats = [b[0] for b in view.get("city_hall_books", []) if b[1] == view.get("act")]
            if seats:
                step = min(30, (LOC_W - 24 - 100 - 24) // len(seats))
                bx2 = bx + LOC_W - 12 - 14 - step * (len(seats) - 1)
                book(d, bx2 - 26, by + 22, 20)
                for seat in seats:
                    seat_badge(img, bx2, by + 22, 28, seat, letters, PHONE_MIN)
                    bx2 += step
        rows = [pid for pid, lc, _name in words.PERSONS if lc == loc]
        for r, pid in enumerate(rows):
            ry = by + 66 + r * 50
            if static:
                _person(d, bx + 12, ry, w(words.person_name(pid)), LOC_W - 68)
            else:
                seat = persons.get(pid)
                _capo(img, d, bx + LOC_W - 30, ry, seat, letters, f"capo:{pid}:{seat}" in new)
    rx, ry, rx1, _ = RESTAURANT_BOX
    _restaurant(img, d, rx, ry, rx1 - rx, view, letters, static, new, w)
    _, yc, _, _ = PARK_BOX
    _park(img, d, x, yc, PARK_W, view, letters, static, new, w)
    helpers(d, x + PARK_W + GAP, yc, HELPERS_W, view, static, w)
    tiles_x = x + PARK_W + HELPERS_W + 2 * GAP
    city_tiles(d, tiles_x, yc, LEFT_W - (tiles_x - x), view, static, w)


def _person(d: ImageDraw.ImageDraw, x: float, cy: float, name: str, room: float) -> None:
    """A Person of Interest's name left of its Capo space: one line (condensed if need be), else two lines broken
    at the seam of a long German word."""
    if text_width(name, PHONE_MIN, "regular") <= room:
        fit(d, (x, cy), name, room, (20, 19, PHONE_MIN), CREAM, "regular", "lm")
    elif text_width(name, PHONE_MIN, "cond") <= room:
        text(d, (x, cy), name, PHONE_MIN, CREAM, "cond", "lm")
    else:
        lines = wrap_text(words.breakable(name), room, PHONE_MIN, "cond")[:2]
        for k, line in enumerate(lines):
            text(d, (x, cy + (k - (len(lines) - 1) / 2) * 22), line, PHONE_MIN, CREAM, "cond", "lm")


def _restaurant(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    view: View,
    letters: list[str],
    static: bool,
    new: Collection[str],
    say: Words,
) -> None:
    booths = list(view.get("booths", []))
    open_n = words.SMALL_SIDE_BOOTHS if view.get("side") == "small" else len(booths)
    cw = (w - 16) / max(1, len(booths))
    lucky = say(T("speakeasy.term.person", "Lucky's table"))
    lx = x + w - 12 - 34 * max(1, len(view.get("first_place", []))) - fonts.get(P_TEXT, "cond_bold").getlength(lucky)
    if static:
        panel(d, (x, y, x + w, y + LOC_H))
        text(d, (x + 12, y + 10), say(words.location_term("Restaurant")), P_HEAD, GOLD, "bold")
    else:
        # Lucky's table in a frame of its own: above a closed 4th booth it read as "Lucky's table · closed"
        d.rounded_rectangle((lx - 10, y + 6, x + w - 8, y + 38), 8, fill=PANEL_HI, outline=LINE, width=1)
        text(d, (lx, y + 22), lucky, P_TEXT, CREAM, "cond_bold", "lm")
        bx = lx + fonts.get(P_TEXT, "cond_bold").getlength(lucky) + 20
        for k, seat in enumerate(view.get("first_place", [])):
            seat_badge(img, bx, y + 22, 30, seat, letters, PHONE_MIN)
            if f"lucky:{k}:{seat}" in new:
                outline_changed(d, (bx - 16, y + 6, bx + 16, y + 38), 14, CHANGED, 3)
            bx += 34
    for k, seat in enumerate(booths):
        cx = x + 8 + cw * k + cw / 2
        cost = words.BOOTHS[k][0] if k < len(words.BOOTHS) else 0
        gives = say(words.BOOTH_GIVES[k]) if k < len(words.BOOTH_GIVES) else ""
        if static:
            if k >= open_n:  # a booth not played with 1-2 players: an empty dashed space with its number
                x0 = int(cx - cw / 2) + 4
                dashed_rounded_rect(d, (x0, y + 44, x0 + int(cw) - 8, y + LOC_H - 8), 8, LINE, 2, 8, 6)
                text(d, (cx, y + 52), str(k + 1), P_TEXT, MUTED, "cond_bold", "ma")
                text(d, (cx, y + 96), say(M("render.speakeasy.table.closed", "closed")), P_TEXT, MUTED, "cond", "mm")
                continue
            said = say(M("render.speakeasy.table.booth", "{n} · {cost} Lev.", n=k + 1, cost=cost))
            text(d, (cx, y + 42), said, P_TEXT, MUTED, "cond_bold", "ma")
            gives = words.breakable(gives)
            if len(wrap_text(gives, cw - 8, P_TEXT, "cond")) > 2:  # the short words when the whole do not fit
                gives = words.breakable(say(words.BOOTHS[k][1]))
            block(d, cx, y + 105, gives, cw - 8, P_TEXT, CREAM, "cond", max_lines=2, centre=True)
        elif k < open_n:
            _capo(img, d, cx, y + 84, seat, letters, f"booth:{k}:{seat}" in new)


def _park(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    view: View,
    letters: list[str],
    static: bool,
    new: Collection[str],
    say: Words,
) -> None:
    park = list(view.get("park", []))
    cw = (w - 12) / max(1, len(park))
    if static:
        panel(d, (x, y, x + w, y + ROW_C_H))
        text(d, (x + 12, y + 10), say(M("render.speakeasy.table.park", "Park")), P_HEAD, GOLD, "bold")
    for k, seat in enumerate(park):
        cx = x + 6 + cw * k + cw / 2
        if static:
            text(d, (cx, y + 44), str(k + 1), P_TEXT, MUTED, "cond_bold", "ma")
            reward = say(words.PARK_GIVES[k]) if k < len(words.PARK_GIVES) else ""
            said = words.breakable(reward)
            block(d, cx, y + 116, said, cw - 4, P_TEXT, CREAM, "cond", max_lines=4, centre=True)
        else:
            _capo(img, d, cx, y + 90, seat, letters, f"park:{k}:{seat}" in new)


# --- the Docks and the decks --------------------------------------------------------------------------------


def _docks(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: View,
    letters: list[str],
    static: bool,
    new: Collection[str],
    say: Words,
    origin: tuple[int, int] = (0, 0),
) -> None:
    """The City Docks (Ships, Docks Family Members and Books) and the decks; drawn with ``origin`` as (0, 0)."""
    x, y, w = RIGHT_X - origin[0], LOWER - origin[1], RIGHT_W
    if not static:
        n = int(view.get("crate_stack", 0))
        said = say(P("render.speakeasy.table.docks", "City Docks · {n} Crate left", "City Docks · {n} Crates left", n))
        _label(d, x, y + 2, said, max_w=w)
    y += 28
    ships = view.get("ships", [])
    if static:
        panel(d, (x, y, x + w, y + 12 + SHIP_H * 4))
    for k, s in enumerate(ships):
        top = y + 6 + k * SHIP_H
        ry = top + SHIP_H // 2
        if static:
            said = say(M("render.speakeasy.table.ship", "Ship {n}", n=s["number"]))
            fit(d, (x + 14, ry - 12), said, 84, (P_HEAD, 19, PHONE_MIN), CREAM, "bold", "lm")
            continue
        if "price" in s:
            text(d, (x + 100, ry - 12), f"${s['price']}", P_NUMBER, GOLD, "bold", "lm")
        n = int(s.get("barrels", 0))
        bx = x + 160
        for b in range(5):
            barrel(d, bx + b * 24, ry - 12, 24, b < n)
        if n > 5:
            text(d, (bx + 118, ry - 12), f"+{n - 5}", P_TEXT, CREAM, "cond_bold", "lm")
        crate = s.get("crate")
        right = x + w - 10
        if crate:
            said = say(words.crate_term(str(crate)))
            cw = int(fonts.get(P_TEXT, "cond_bold").getlength(said)) + 16
            d.rounded_rectangle((right - cw, ry - 4, right, ry + 24), 5, fill=(96, 70, 40), outline=GOLD)
            text(d, (right - cw / 2, ry + 10), said, P_TEXT, CREAM, "cond_bold", "mm")
            right -= cw + 10
        else:
            text(
                d, (right, ry - 12), say(M("render.speakeasy.table.no_crate", "no Crate")), P_TEXT, MUTED, "cond", "rm"
            )
        port = M(
            "render.speakeasy.table.port",
            "{district}, {zone}",
            district=words.district_term(str(s["port_name"])),
            zone=words.zone_term(str(s["zone"])),
        )
        fit(d, (x + 14, ry + 12), say(port), right - x - 14, (P_TEXT,), MUTED, "cond", "lm")
        if f"ship:{s['number']}:{s.get('port')}:{s.get('barrels')}:{s.get('crate')}" in new:
            outline_changed(d, (x + 6, top + 2, x + w - 6, top + SHIP_H - 2), 8, CHANGED, 4)
    y += 12 + SHIP_H * 4 + GAP
    docks = view.get("docks", [])
    books = view.get("docks_books", [])
    if static:
        panel(d, (x, y, x + w, y + 12 + DOCK_H * len(docks)))
    for z, spaces in enumerate(docks):
        ry = y + 6 + z * DOCK_H + DOCK_H // 2
        sx = x + 116
        if static:
            if z < len(words.ZONE_NAMES):
                zone = say(words.zone_term(words.ZONE_NAMES[z]))
            else:
                zone = say(M("render.speakeasy.table.zone", "Zone {n}", n=z + 1))
            text(d, (x + 14, ry), zone, P_TEXT, CREAM, "cond_bold", "lm")
            continue
        for k, seat in enumerate(spaces):
            cx = sx + k * 34 + 16
            if seat is None:
                empty_spot(img, cx, ry, 28)
            else:
                seat_badge(img, cx, ry, 32, int(seat), letters, PHONE_MIN)
                if f"dock:{z}:{k}:{seat}" in new:
                    outline_changed(d, (cx - 17, ry - 17, cx + 17, ry + 17), 16, CHANGED, 3)
        booked = books[z] if z < len(books) else []
        if booked:  # the Docks Books of this Zone: a Book, then each player's badge
            bx = sx + 34 * max(8, len(spaces)) + 4
            book(d, bx + 8, ry, 20)
            step = min(32, (x + w - 8 - (bx + 22)) // len(booked))
            for k, seat in enumerate(booked):
                seat_badge(img, bx + 36 + k * step, ry, 28, seat, letters, PHONE_MIN)
    y += 12 + DOCK_H * 3 + GAP
    _decks(d, x, y, w, 166, view, static, say)


def _decks(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, view: View, static: bool, say: Words) -> None:
    if static:
        panel(d, (x, y, x + w, y + h))
        _label(d, x + 14, y + 10, say(M("render.speakeasy.table.label", "Operations decks · top card")), max_w=w - 28)
        for k, key in enumerate(words.DECK_NAMES):
            said = say(words.DECK_NAMES[key])
            fit(d, (x + 14, y + 50 + 30 * k), said, 90, (P_TEXT,), CREAM, "cond_bold", "lm")
        return
    for k, key in enumerate(words.DECK_NAMES):
        yy = y + 50 + 30 * k
        deck = view.get("decks", {}).get(key, {"count": 0, "top": None})
        text(d, (x + 110, yy), str(deck.get("count", 0)), P_TEXT, GOLD, "bold", "lm")
        top = deck.get("top")
        shown = (
            after_colon(say(words.card_term(str(top["name"]))))
            if top
            else say(M("render.speakeasy.table.empty", "empty"))
        )
        fit(d, (x + 150, yy), shown, w - 164, (P_TEXT,), CREAM if top else DIM, "cond", "lm")


def new_image(n: int) -> Image.Image:
    """A blank table picture for ``n`` players."""
    return Image.new("RGB", (WIDTH, height(n)), BG)
