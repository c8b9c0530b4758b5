"""The Omerta table picture (``render_table``): the piles, the Safe, the callout and every player's row; given the
marks of the last picture (``render.omerta.changes``), the parts changed since are outlined."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render.draw import (
    RGB,
    badge,
    badge_letters,
    drop_shadow,
    encode_png,
    felt,
    fit_lines,
    fit_text,
    outline_changed,
    paste,
    pill,
    player_colour,
    rounded_sprite,
)
from render.omerta.cards import empty_slot, hidden_marker, place_back, place_face, slot_card
from render.omerta.changes import changed, kind_changed, slot_changed
from render.omerta.colours import (
    AMBER,
    CHANGED,
    CREAM,
    CREAM_DIM,
    FELT_CENTRE,
    FELT_EDGE,
    GOLD,
    INK,
    MUTED,
    POLICE_BLUE,
    ROW,
    ROW_ACTIVE,
    ROW_LINE,
)
from render.omerta.describe import describe, player_names, rule_number
from render.omerta.layout import (
    CARD_RADIUS,
    FS_BADGE,
    FS_CALLOUT,
    FS_COUNT,
    FS_COUNT_LABEL,
    FS_EMPTY,
    FS_GANGSTER,
    FS_NAME,
    FS_ROUNDS,
    FS_SECTION,
    FS_SMALL_LABEL,
    FS_TAG,
    FS_TOTAL,
    HEADER_H,
    MARGIN,
    ROW_GAP,
    ROW_PAD,
    WIDTH,
    card_h,
    grid,
)
from render.omerta.parts import header, round_scores, section_label
from render.omerta_words import card_name, gangster_name, words_of
from words import Words
from words.msg import M, P


def _player_panel(
    img: Image.Image,
    x: int,
    y: int,
    w: int,
    p: dict[str, Any],
    letter: str,
    tags: list[tuple[str, RGB, RGB]],
    say: Words,
    total_new: bool = False,
) -> None:
    """Badge, name, gangster, total, round scores and tags of one player, in a ``w`` px wide column (the total
    outlined when it is ``total_new``)."""
    d = ImageDraw.Draw(img)
    seat = int(p["seat"])
    bsize = 68
    badge(img, x + bsize // 2, y + bsize // 2 + 2, bsize, seat, letter, FS_BADGE)
    # total on the right
    total = say(M("render.omerta.label_total", "TOTAL"))
    d.text((x + w, y + 4), total, font=fonts.get(FS_SMALL_LABEL, "cond_bold"), fill=MUTED, anchor="rt")
    d.text((x + w, y + 24), str(p.get("total", 0)), font=fonts.get(FS_TOTAL, "bold"), fill=CREAM, anchor="rt")
    total_w = max(70, fonts.get(FS_TOTAL, "bold").getlength(str(p.get("total", 0))))
    if total_new:
        outline_changed(d, (x + w - total_w - 6, y + 2, x + w + 4, y + 76), 8, CHANGED, 4)
    tx = x + bsize + 16
    name_w = x + w - total_w - 16 - tx
    name, nsize = fit_text(str(p["name"]), name_w, (FS_NAME, 34, 30, 26, 22), "bold")
    d.text((tx, y + 4), name, font=fonts.get(nsize, "bold"), fill=CREAM, anchor="lt")
    gang, gsize = fit_text(say(gangster_name(p)), name_w, (FS_GANGSTER, 20, 18), "serif_italic")
    d.text((tx, y + 50), gang, font=fonts.get(gsize, "serif_italic"), fill=GOLD, anchor="lt")
    rs, rsize = round_scores(p, w, say)
    d.text((x, y + 92), rs, font=fonts.get(rsize, "regular"), fill=CREAM_DIM, anchor="lt")
    tx = x
    for text, fill, ink in tags:
        tx += pill(d, tx, y + 134, text, FS_TAG, fill, ink) + 8


PANEL_W = 430
PANEL_H = 152


def _draw_pile(img: Image.Image, x: int, y: int, w: int, count: int, say: Words, new: bool = False) -> None:
    d = ImageDraw.Draw(img)
    h = card_h(w)
    if new:
        outline_changed(d, (x - 2, y - 4, x + w + 10, y + h + 10), CARD_RADIUS, CHANGED)
    section_label(d, x, y - 12, say(M("render.omerta.label_draw_pile", "DRAW PILE")))
    if count <= 0:
        empty_slot(img, x, y, w, None)
    else:
        layers = min(3, count)
        for k in range(layers - 1, -1, -1):
            place_back(img, x + 4 * k, y - 4 * k + 8, w, shadow=k == layers - 1)
    d.text((x + w / 2, y + h + 30), str(count), font=fonts.get(FS_COUNT, "bold"), fill=CREAM, anchor="mm")
    word = say(P("render.omerta.cards_left", "card left", "cards left", count))
    d.text((x + w / 2, y + h + 64), word, font=fonts.get(FS_COUNT_LABEL, "regular"), fill=CREAM_DIM, anchor="mm")


def _discard_pile(
    img: Image.Image, x: int, y: int, w: int, top: dict[str, Any] | None, count: int, say: Words, new: bool = False
) -> None:
    d = ImageDraw.Draw(img)
    h = card_h(w)
    if new:
        outline_changed(d, (x - 2, y + 6, x + w + 7, y + h + 14), CARD_RADIUS, CHANGED)
    section_label(d, x, y - 12, say(M("render.omerta.label_discard_pile", "DISCARD PILE")))
    if top is None:
        empty_slot(img, x, y + 8, w, None)
    else:
        if count > 1:
            place_back(img, x + 5, y + 12, w)
        place_face(img, top, x, y + 8, w, say.lang)
    d.text(
        (x + w / 2, y + h + 30),
        say(card_name(top)) if top else say(M("render.omerta.empty", "empty")),
        font=fonts.get(FS_COUNT_LABEL + 4, "bold"),
        fill=CREAM,
        anchor="mm",
    )
    d.text(
        (x + w / 2, y + h + 64),
        say(P("render.omerta.in_pile", "{n} card in the pile", "{n} cards in the pile", count)),
        font=fonts.get(FS_COUNT_LABEL, "regular"),
        fill=CREAM_DIM,
        anchor="mm",
    )


def _safe(img: Image.Image, x: int, y: int, view: dict[str, Any], say: Words) -> int:
    """The Safe: 4 face-down cards in a steel frame (face up while its viewer looks into it). Returns width."""
    d = ImageDraw.Draw(img)
    look = view.get("look") or None
    count = int(view.get("safe_count", 4))
    faces = list(look["safe"]) if look else []
    pick = look.get("pick", -1) if look else -1
    n = max(count, len(faces))
    w, gap, pad = 104, 12, 18
    h = card_h(w)
    fw = n * w + (n - 1) * gap + 2 * pad
    fh = h + 2 * pad + 8
    drop_shadow(img, x, y, fw, fh, 16, blur=6, dy=5)
    paste(img, rounded_sprite(fw, fh, 16, (58, 64, 70), (150, 158, 166), 3), x, y)
    section_label(d, x, y - 12, say(M("render.omerta.label_safe", "THE SAFE")))
    for k in range(n):
        cx = x + pad + k * (w + gap)
        cy = y + pad + 4
        if k < len(faces):
            place_face(img, faces[k], cx, cy, w, say.lang)
            if k == pick:
                d.rounded_rectangle((cx - 4, cy - 4, cx + w + 3, cy + h + 3), CARD_RADIUS + 3, outline=GOLD, width=4)
        else:
            place_back(img, cx, cy, w)
    d.text(
        (x + fw / 2, y + fh + 30),
        say(P("render.omerta.safe_down", "{n} face-down card", "{n} face-down cards", count))
        if not faces
        else say(M("render.omerta.safe_seen", "You see the Safe")),
        font=fonts.get(FS_COUNT_LABEL, "regular"),
        fill=CREAM_DIM,
        anchor="mm",
    )
    return fw


def _callout(
    img: Image.Image,
    x0: int,
    y0: int,
    x1: int,
    y1: int,
    label: str,
    text: str,
    view: dict[str, Any],
    letters: list[str],
    say: Words,
) -> None:
    d = ImageDraw.Draw(img)
    paste(img, rounded_sprite(x1 - x0, y1 - y0, 18, (10, 40, 26), (58, 110, 78), 2), x0, y0)
    pad = 22
    tx = x0 + pad
    active = view.get("active")
    if view["phase"] not in ("peek", "over", "snap") and active is not None and 0 <= active < len(letters):
        badge(img, x0 + pad + 26, y0 + pad + 26, 52, active, letters[active], 26)
        tx += 64
    head, hsize = fit_text(label, x1 - tx - pad, (FS_SECTION + 4, FS_SECTION, 18), "cond_bold")
    d.text((tx, y0 + pad + 26), head, font=fonts.get(hsize, "cond_bold"), fill=GOLD, anchor="lm")
    body_top = y0 + pad + 66
    if view["phase"] == "snap" and view.get("snap_value"):
        # a big reminder of the value to snap
        bw = 96
        value = int(view["snap_value"])
        place_face(
            img,
            {"kind": "bottle", "points": value, "value": value},
            x1 - pad - bw,
            body_top - 6,
            bw,
            say.lang,
        )
        x1 -= bw + 16
    foot = say(
        M(
            "render.omerta.foot",
            "Lowest total wins · OMERTA needs {n} points or fewer",
            n=rule_number(view, "omerta_limit"),
        )
    )
    foot_y = y1 - pad
    lines, size = fit_lines(
        text, x1 - x0 - 2 * pad, foot_y - FS_ROUNDS - 12 - body_top, (FS_CALLOUT, 30, 28, 26, 24, 22, 20), "regular"
    )
    for k, line in enumerate(lines):
        d.text((x0 + pad, body_top + k * size * 1.25), line, font=fonts.get(size, "regular"), fill=CREAM, anchor="lt")
    foot, fsize = fit_text(foot, x1 - x0 - 2 * pad, (FS_ROUNDS, 18, 16), "regular")
    d.text((x0 + pad, foot_y), foot, font=fonts.get(fsize, "regular"), fill=MUTED, anchor="ls")


def _player_tags(view: dict[str, Any], p: dict[str, Any], say: Words) -> list[tuple[str, RGB, RGB]]:
    tags: list[tuple[str, RGB, RGB]] = []
    seat = p["seat"]
    phase = view["phase"]
    if phase not in ("peek", "over") and seat == view.get("active"):
        if phase == "snap":
            tags.append((say(M("render.omerta.tag_discarded", "JUST DISCARDED")), GOLD, INK))
        else:
            tags.append((say(M("render.omerta.tag_to_play", "TO PLAY")), GOLD, INK))
    if p.get("skip_next"):
        tags.append((say(M("render.omerta.tag_skips", "SKIPS NEXT TURN")), AMBER, INK))
    if phase == "peek":
        tags.append(
            (
                say(M("render.omerta.tag_peeked", "PEEKED"))
                if p.get("peeked")
                else say(M("render.omerta.tag_peeking", "PEEKING…")),
                (40, 96, 66) if p.get("peeked") else AMBER,
                CREAM if p.get("peeked") else INK,
            )
        )
    if view.get("viewer") == seat:
        tags.append((say(M("render.omerta.tag_you", "YOU")), CREAM, INK))
    if any(s.get("police") for s in p.get("slots", [])):
        tags.append((say(M("render.omerta.tag_police", "POLICE CHECK")), POLICE_BLUE, (255, 255, 255)))
    return tags


def _holding(view: dict[str, Any]) -> bool:
    return bool(view.get("holding") or view.get("holding_hidden"))


_SLOT_PREF, _SLOT_MIN, _SLOT_GAP = 108, 84, 12
_HELD_W = 150


def _row_geometry(view: dict[str, Any], p: dict[str, Any]) -> tuple[int, int, int, int]:
    """(card width, cards per line, lines, row height) of one player's row."""
    avail = WIDTH - 2 * MARGIN - PANEL_W - 3 * ROW_PAD - 24
    if p["seat"] == view.get("active") and _holding(view):
        avail -= _HELD_W
    n = len(p.get("slots", []))
    w, per_line, lines = grid(n, avail, _SLOT_PREF, _SLOT_MIN, _SLOT_GAP)
    cards_h = lines * card_h(w) + (lines - 1) * _SLOT_GAP
    return w, per_line, lines, max(PANEL_H, cards_h + 8) + 2 * ROW_PAD


def _player_row(
    img: Image.Image,
    y: int,
    height: int,
    view: dict[str, Any],
    p: dict[str, Any],
    letter: str,
    geometry: tuple[int, int, int, int],
    say: Words,
    new: frozenset[str] = frozenset(),
) -> None:
    """One player's row: their panel and their slots (``new``: the marks to outline, ``changes``)."""
    d = ImageDraw.Draw(img)
    seat = p["seat"]
    active = view["phase"] not in ("peek", "over") and seat == view.get("active")
    x0, x1 = MARGIN, WIDTH - MARGIN
    if active:
        drop_shadow(img, x0, y, x1 - x0, height, 16, blur=10, dy=0, strength=90)
    paste(
        img,
        rounded_sprite(
            x1 - x0, height, 16, ROW_ACTIVE if active else ROW, GOLD if active else ROW_LINE, 4 if active else 2
        ),
        x0,
        y,
    )
    colour = player_colour(seat)
    d.rounded_rectangle((x0 + 6, y + 12, x0 + 14, y + height - 12), 4, fill=colour)
    tags = _player_tags(view, p, say)
    _player_panel(img, x0 + 30, y + ROW_PAD, PANEL_W - 30, p, letter, tags, say, kind_changed(new, "total", seat))
    sep = x0 + PANEL_W + ROW_PAD
    d.line((sep, y + 16, sep, y + height - 16), fill=ROW_LINE, width=2)
    w, per_line, lines, _ = geometry
    slots = p.get("slots", [])
    cx0 = sep + ROW_PAD + 8
    h = card_h(w)
    cards_h = lines * h + (lines - 1) * _SLOT_GAP
    cy0 = y + (height - cards_h) // 2
    if not slots:
        none = say(M("render.omerta.no_slots", "No card slots"))
        d.text((cx0, y + height / 2), none, font=fonts.get(FS_EMPTY, "regular"), fill=MUTED, anchor="lm")
    elif p.get("card_count", 1) == 0:
        none = say(M("render.omerta.no_cards_left", "NO CARDS LEFT"))
        d.text((x1 - 24, y + height - 14), none, font=fonts.get(FS_TAG, "cond_bold"), fill=MUTED, anchor="rb")
    for k, s in enumerate(slots):
        line, col = divmod(k, max(1, per_line))
        sx = cx0 + col * (w + _SLOT_GAP)
        sy = cy0 + line * (h + _SLOT_GAP)
        number = int(s.get("index", k)) + 1
        if s.get("empty"):
            empty_slot(img, sx, sy, w, number)
        else:
            slot_card(img, sx, sy, w, number, bool(s.get("police")), say.lang)
        if slot_changed(new, seat, number - 1):
            outline_changed(d, (sx, sy, sx + w, sy + h), CARD_RADIUS, CHANGED)
    if seat == view.get("active") and _holding(view):
        hw = min(w, 112)
        hx = x1 - ROW_PAD - 12 - hw
        hy = y + (height - card_h(hw)) // 2
        held = view.get("holding")
        if held:
            place_face(img, held, hx, hy, hw, say.lang)
        else:
            hidden_marker(img, hx, hy, hw)
        # a label and an arrow from the held card towards the slots
        ax = hx - 14
        ay = hy + card_h(hw) // 2 + 14
        d.polygon([(ax, ay - 14), (ax, ay + 14), (ax - 18, ay)], fill=GOLD)
        if view["phase"] == "taken":
            label = say(M("render.omerta.label_held_taken", "TAKEN"))
        else:
            label = say(M("render.omerta.label_held_drawn", "DRAWN"))
        d.text((ax, ay - 24), label, font=fonts.get(FS_TAG, "cond_bold"), fill=GOLD, anchor="rs")


_STRIP_TOP = HEADER_H + 3 + 52
_PILE_W = 150


_LEGEND_H = 44


def _table_image(view: dict[str, Any], before: Iterable[str] | None = None) -> Image.Image:
    """The table picture; the parts changed since the marks ``before`` outlined, with a line saying so."""
    new = changed(view, before)
    players = view["players"]
    letters = badge_letters(player_names(view))
    geometries = [_row_geometry(view, p) for p in players]
    strip_h = card_h(_PILE_W) + 96
    rows_top = _STRIP_TOP + strip_h + 28
    height = rows_top + sum(g[3] for g in geometries) + ROW_GAP * (len(players) - 1) + MARGIN
    if new:
        height += _LEGEND_H
    img = felt(WIDTH, height, FELT_CENTRE, FELT_EDGE).copy()
    say = words_of(view)
    title, label, text = describe(view)
    header(img, title)
    _draw_pile(img, MARGIN + 12, _STRIP_TOP, _PILE_W, int(view.get("draw_count", 0)), say, kind_changed(new, "draw"))
    _discard_pile(
        img,
        MARGIN + 12 + _PILE_W + 56,
        _STRIP_TOP,
        _PILE_W,
        view.get("discard_top"),
        int(view.get("discard_count", 0)),
        say,
        kind_changed(new, "discard"),
    )
    safe_w = 4 * 104 + 3 * 12 + 36
    safe_x = WIDTH - MARGIN - safe_w - 4
    _safe(img, safe_x, _STRIP_TOP + 8, view, say)
    cx0 = MARGIN + 12 + 2 * _PILE_W + 56 + 44
    _callout(img, cx0, _STRIP_TOP - 10, safe_x - 36, _STRIP_TOP + card_h(_PILE_W) + 78, label, text, view, letters, say)
    y = rows_top
    for p, g in zip(players, geometries, strict=True):
        _player_row(img, y, g[3], view, p, letters[p["seat"]], g, say, new)
        y += g[3] + ROW_GAP
    if new:
        _legend(img, img.height - MARGIN - _LEGEND_H // 2 + 8, say)
    return img


def _legend(img: Image.Image, cy: int, say: Words) -> None:
    """What an outline means, under the rows (drawn only when something is outlined)."""
    d = ImageDraw.Draw(img)
    x = MARGIN + 12
    outline_changed(d, (x, cy - 12, x + 40, cy + 12), 5, CHANGED, 4)
    said = say(M("render.omerta.legend_changed", "new since the last picture"))
    d.text((x + 56, cy), said, font=fonts.get(FS_COUNT_LABEL, "regular"), fill=CREAM_DIM, anchor="lm")


def render_table(view: dict[str, Any], before: Iterable[str] | None = None) -> bytes:
    """The Omerta table as a PNG, drawn only from ``view`` (an engine view; the spectator view for the channel).

    Shows the round and whose turn it is, every player's face-down slots (numbered, empty, under Police
    Check), scores and tags, the discard pile's top card, the draw pile, the Safe and the card the active
    player holds (face up only when ``view["holding"]`` is set, i.e. the viewer may see it). ``before``: the
    ``marks`` of the last picture posted; the parts changed since are outlined (nothing when ``None``).
    """
    return encode_png(_table_image(view, before))


#: the file name of the table picture on the board
TABLE_FILE = "table.png"


def render_pictures(view: dict[str, Any], before: Iterable[str] | None = None) -> list[tuple[str, bytes]]:
    """The public pictures as ``(file name, PNG)``: the table, outlining what changed since ``before``."""
    return [(TABLE_FILE, render_table(view, list(before) if before is not None else None))]


async def render_table_async(view: dict[str, Any]) -> bytes:
    """``render_table`` in a worker thread, so the event loop keeps serving Discord."""
    return await asyncio.to_thread(render_table, view)
