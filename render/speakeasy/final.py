"""Speakeasy's final picture (issue 11): places best first, each tie and how it was broken, and each player's
money by source as a bar: what was gained, coloured by source, with what was spent marked off its end, so the
bar ends at the final total.

Reads the end-of-game view only (``view["standings"]``, ``players[i]["sources"]``); the words come from
``render.speakeasy_final_text``, so the picture and the text agree. The board's palette and sizes
(``render.speakeasy.style``), the shared helpers of ``render.draw``.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render import speakeasy_final_text as words
from render.draw import RGB, badge, badge_letters, encode_png, fit_lines, fit_text, ink_on, pill
from render.speakeasy.style import BG, CREAM, GOLD, HEADER, HEADER_H, INK, LINE, MARGIN, MUTED, PANEL, PANEL_HI, WIDTH
from render.speakeasy_text import lang_words, names
from words.msg import M

View = dict[str, Any]

ROW_H = 150
ROW_GAP = 12
LINE_H = 30

SPENT: RGB = (120, 36, 40)

#: One colour per source group (Okabe-Ito and neighbours; each group is also named in the legend and the text).
GROUP_COLOURS: dict[str, RGB] = {
    "start": (150, 150, 150),
    "barrels": (0, 158, 115),
    "buildings": (213, 94, 0),
    "payouts": (0, 114, 178),
    "Books": (168, 60, 56),
    "Helpers": (204, 121, 167),
    "City tiles": (230, 159, 0),
    "achievements": (86, 180, 233),
    words.OTHER: (240, 228, 66),
    words.SPENT: SPENT,
}

FS_TITLE, FS_SUB, FS_NAME, FS_BIG, FS_LABEL, FS_LINE, FS_PLACE = 36, 20, 28, 40, 15, 17, 34


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: RGB, style: str, anchor: str):
    d.text(xy, fonts.printable(text, size, style), font=fonts.get(size, style), fill=fill, anchor=anchor)


def _fit(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, max_w: float, sizes, fill: RGB, style: str):  # noqa: ANN001
    shown, size = fit_text(text, max_w, sizes, style)
    d.text(xy, fonts.printable(shown, size, style), font=fonts.get(size, style), fill=fill, anchor="lm")


def _groups(sources: list[list[Any]]) -> tuple[dict[str, int], int]:
    """Gains by group in legend order, and the dollars spent (positive)."""
    gains: dict[str, int] = {}
    spent = 0
    for source, amount in sources:
        group = words.group_of(str(source), int(amount))
        if group == words.SPENT:
            spent -= int(amount)
        else:
            gains[group] = gains.get(group, 0) + int(amount)
    return {g: gains[g] for g in words.GROUP_ORDER if gains.get(g)}, spent


def _extra_lines(view: View, width: float) -> list[tuple[str, int]]:
    """The ties (and Jo's rank) under the rows, wrapped."""
    out: list[tuple[str, int]] = []
    texts = [words.tie_words(view, tie) for tie in view["standings"].get("ties", [])]
    if words.jo_line(view):
        texts.append(words.jo_line(view))
    for text in texts:
        lines, size = fit_lines(text, width, LINE_H * 3, (FS_SUB, FS_LINE))
        out += [(line, size) for line in lines]
    return out


def _final_image(view: View) -> Image.Image:
    if view.get("phase") != "over" or not view.get("standings"):
        raise ValueError("the final standings are drawn only when the game is over")
    who = names(view)
    say = lang_words(view)
    letters = badge_letters(who)
    places = view["standings"]["places"]
    width = WIDTH - 2 * MARGIN
    extra = _extra_lines(view, width)
    height = HEADER_H + 70 + len(places) * (ROW_H + ROW_GAP) + len(extra) * LINE_H + 2 * MARGIN
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, HEADER_H), fill=HEADER)
    d.rectangle((0, HEADER_H - 3, WIDTH, HEADER_H), fill=GOLD)
    title = M(
        "render.speakeasy.final.chart_title",
        "{year} · Final standings · {winners}",
        year=view.get("year", 1933),
        winners=words.winners_words(view),
    )
    _fit(d, (MARGIN, 32), say(title), width - 220, (FS_TITLE, 32, 28), CREAM, "serif_bold")
    _fit(
        d,
        (MARGIN, 72),
        say(M("render.speakeasy.final.chart_sub", "Where each player's money came from: gains, less what was spent")),
        width,
        (FS_SUB,),
        MUTED,
        "regular",
    )
    _text(d, (WIDTH - MARGIN, HEADER_H // 2 - 2), "SPEAKEASY", 26, GOLD, "serif_bold", "rm")
    y = HEADER_H + 24
    lx = MARGIN
    for group in (*words.GROUP_ORDER, words.SPENT):
        label = say(words.GROUP_WORDS[group])
        d.rectangle((lx, y + 4, lx + 22, y + 26), fill=GROUP_COLOURS[group], outline=CREAM)
        _text(d, (lx + 30, y + 15), label, FS_LABEL, CREAM, "cond_bold", "lm")
        lx += 30 + int(fonts.get(FS_LABEL, "cond_bold").getlength(label)) + 24
    y += 46
    bars = {int(pl["seat"]): _groups(view["players"][int(pl["seat"])].get("sources") or []) for pl in places}
    most = max([sum(g.values()) for g, _s in bars.values()] + [1])
    bar_x0, bar_x1 = MARGIN + 330, WIDTH - MARGIN - 170
    scale = (bar_x1 - bar_x0) / most
    for pl in places:
        seat, first = int(pl["seat"]), pl["place"] == 1
        d.rounded_rectangle(
            (MARGIN, y, WIDTH - MARGIN, y + ROW_H),
            14,
            fill=PANEL_HI if first else PANEL,
            outline=GOLD if first else LINE,
            width=3 if first else 2,
        )
        _text(d, (MARGIN + 34, y + 48), f"{pl['place']}.", FS_PLACE, GOLD if first else CREAM, "bold", "mm")
        badge(img, MARGIN + 98, y + 48, 56, seat, letters[seat], 30)
        _fit(d, (MARGIN + 136, y + 48), who[seat], 190, (FS_NAME, 24, 20), CREAM, "bold")
        if first:
            pill(d, MARGIN + 136, y + 92, say(M("render.speakeasy.tag", "WINNER")), 14, GOLD, INK)
        gains, spent = bars[seat]
        x = float(bar_x0)
        for group, amount in gains.items():
            w = amount * scale
            colour = GROUP_COLOURS[group]
            d.rectangle((x, y + 22, x + w, y + 74), fill=colour, outline=BG)
            label = f"${amount}"
            if fonts.get(FS_LABEL, "bold").getlength(label) + 8 < w:
                _text(d, (x + w / 2, y + 48), label, FS_LABEL, ink_on(colour), "bold", "mm")
            x += w
        if spent:  # marked off the end of the gains: the bar's net end is the total
            sx = max(float(bar_x0), x - spent * scale)
            d.rectangle((sx, y + 78, x, y + 92), fill=SPENT)
            label = say(M("render.speakeasy.final.spent", "spent −${n}", n=spent))
            if sx - bar_x0 > fonts.get(FS_LABEL, "cond_bold").getlength(label) + 12:
                _text(d, (sx - 6, y + 85), label, FS_LABEL, MUTED, "cond_bold", "rm")
            else:  # no room before the mark: after the spent bar
                _text(d, (x + 6, y + 85), label, FS_LABEL, MUTED, "cond_bold", "lm")
            d.line((sx, y + 76, sx, y + 96), fill=CREAM, width=3)  # below the bar: no label crossed
        total_colour = GOLD if first else CREAM
        _text(d, (WIDTH - MARGIN - 20, y + 48), f"${pl['total']}", FS_BIG, total_colour, "bold", "rm")
        line = words.sources_line(view, seat).split(": ", 1)[1]
        _fit(
            d,
            (MARGIN + 136, y + 122),
            line,
            WIDTH - 2 * MARGIN - 160,
            (FS_LINE, 15, 14),
            MUTED,
            "cond",
        )
        y += ROW_H + ROW_GAP
    y += 10
    for text, size in extra:
        _text(d, (MARGIN, y + LINE_H // 2), text, size, CREAM, "cond_bold", "lm")
        y += LINE_H
    return img


def render_final(view: View) -> bytes:
    """The final standings as a PNG: places, ties and how they were broken, money by source per player.

    Raises ``ValueError`` before the game is over (the view has no standings then)."""
    return encode_png(_final_image(view))
