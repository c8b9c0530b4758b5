"""The table picture's Helper and City tile displays (a panel each, on the row under the locations): what each
face-up card or tile gives, in the view's language."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from render import fonts
from render import speakeasy_text as words
from render.draw import fit, text
from render.speakeasy.pieces import panel
from render.speakeasy.style import CREAM, DIM, INK, MUTED, P_HEAD, P_TEXT, PHONE_MIN, TILE
from words import Words
from words.msg import M, P

View = dict[str, Any]

#: The height of the row's panels, and of one Helper's three lines.
ROW_C_H = 250
HELPER_H = 68


def _label(d: ImageDraw.ImageDraw, x: float, y: float, words_: str, max_w: float) -> None:
    fit(d, (x, y), words_.upper(), max_w, (P_TEXT,), MUTED, "cond_bold")


def helpers(d: ImageDraw.ImageDraw, x: int, y: int, w: int, view: View, static: bool, say: Words) -> None:
    """The Helper display: each card's name and bottle, what it gives now and what it does later."""
    if static:
        panel(d, (x, y, x + w, y + ROW_C_H))
        return
    n = int(view.get("helper_deck", 0))
    head = say(P("render.speakeasy.table.helpers", "Helpers · {n} in the deck", "Helpers · {n} in the deck", n))
    _label(d, x + 12, y + 10, head, max_w=w - 24)
    yy = y + 40
    for h in view.get("helper_display", []):
        if not h:
            text(d, (x + 12, yy), "—", P_TEXT, DIM, "cond", "la")
            yy += HELPER_H
            continue
        # three lines: the name and bottle, what it gives when taken, what it does on a later turn
        name = str(h["name"])
        now, later = words.HELPER_GIVES.get(name, ("", ""))
        nw = fit(d, (x + 12, yy), say(words.helper_term(name)), 200, (P_HEAD, PHONE_MIN), CREAM, "bold")
        said = say(M("render.speakeasy.table.bottle", "({bottle})", bottle=words.bottle(str(h["bottle"]))))
        fit(d, (x + 20 + nw, yy + 1), said, w - nw - 36, (P_TEXT,), MUTED, "cond")
        said = say(M("render.speakeasy.table.now", "now: {gives}", gives=now))
        fit(d, (x + 12, yy + 23), said, w - 24, (P_TEXT,), MUTED, "cond")
        said = say(M("render.speakeasy.table.later", "later: {gives}", gives=later))
        fit(d, (x + 12, yy + 45), said, w - 24, (P_TEXT,), CREAM, "cond")
        yy += HELPER_H


def city_tiles(d: ImageDraw.ImageDraw, x: int, y: int, w: int, view: View, static: bool, say: Words) -> None:
    """The City tile display: each face-up tile with what it gives, and its pile."""
    if static:
        panel(d, (x, y, x + w, y + ROW_C_H))
        _label(d, x + 12, y + 10, say(M("render.speakeasy.table.label", "City tiles")), max_w=w - 24)
        return
    piles = view.get("city_piles", [])
    yy = y + 38
    for k, t in enumerate(view.get("city_display", [])):
        pile = piles[k] if k < len(piles) else 0
        said = say(M("render.speakeasy.table.pile", "pile {n}", n=pile))
        text(d, (x + w - 12, yy + 2), said, P_TEXT, MUTED, "cond", "ra")
        right = x + w - 22 - max(52, int(fonts.get(P_TEXT, "cond").getlength(said)))  # the tile ends left of it
        if t:
            kind = str(t["kind"])
            d.rounded_rectangle((x + 10, yy, right, yy + 54), 5, fill=TILE, outline=INK)
            room = right - x - 22
            fit(d, (x + 16, yy + 3), say(words.tile_term(kind)), room, (P_TEXT,), INK, "cond_bold")
            gives = say(words.tile_gives(kind))
            if fonts.get(P_TEXT, "cond").getlength(gives) > room:
                gives = say(words.tile_gives(kind, short=True))
            fit(d, (x + 16, yy + 27), gives, room, (P_TEXT,), INK, "cond")
        else:
            text(d, (x + 12, yy + 14), "—", P_TEXT, DIM, "cond", "la")
        yy += 58
