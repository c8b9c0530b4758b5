"""The final scoring as a chart: each player's total split into its parts.

Moved here unchanged from the former ``render/speakeasy.py`` (a new final picture is being made elsewhere).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render import speakeasy_text as words
from render.draw import badge_letters, encode_png, fit, ink_on, pill, text
from render.speakeasy.pieces import header, seat_badge
from render.speakeasy.style import (
    BG,
    CREAM,
    FS_BIG,
    FS_CHART,
    FS_LABEL,
    FS_NAME,
    FS_SMALL,
    FS_SUB,
    GOLD,
    HEADER_H,
    INK,
    LINE,
    MARGIN,
    MUTED,
    OFF,
    PANEL,
    PANEL_HI,
    PART_COLOURS,
    WIDTH,
)

View = dict[str, Any]

# the names the moved code uses
_header = header
_text = text
_fit = fit
_seat_badge = seat_badge


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
