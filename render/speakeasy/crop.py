"""The turn's third picture (issue 24): the panels that changed since the last picture, cut out of the city and
the table pictures at their own size, in a picture narrow enough to read inline on a phone.

The two big pictures are 1600 px wide: a phone showing one 360 px wide shrinks their 18 px text to 4 px. The
crop is ``CROP_W`` (540) px wide and copies the panels pixel for pixel, so its smallest text (18 px, the pictures'
smallest) shows at 12 px when the phone draws it 360 px wide. It keeps the pictures' green outlines, so the
changed pieces stand out inside their panel. It is at most ``MAX_H`` tall (a phone photo's 3:4), so a phone does
not shrink it to fit its height; what does not fit is counted in its header ("+2 more in the big pictures").

A panel is a district (buildings, barrels, Family Members, Cops, Cop tiles, Mobster Speakeasies, the Mobster),
a location (its Capos), the Restaurant (booths and Lucky's table), the Park, the Ships, or the Docks. Which
panels changed is read from the marks (``changes.marks``), so the crop holds nothing the big pictures do not.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from render import speakeasy_text as words
from render.draw import fit
from render.speakeasy import city
from render.speakeasy import table_layout as table
from render.speakeasy.style import BG, GOLD, MUTED, P_HEAD, P_TEXT, PHONE_MIN
from words.msg import M, P

View = dict[str, Any]
Box = tuple[int, int, int, int]

#: The crop's width: the pictures' smallest text (18 px) shows at 12 px when a phone draws the crop 360 px wide.
CROP_W = 540
#: At most as tall as a phone photo (3:4): a taller picture is shrunk to the phone's height, its text with it.
MAX_H = 720
PAD = 8
GAP = 10
HEAD_H = 36
#: Room around a panel: the green outline of a piece at its edge is drawn a few pixels outside it.
RIM = 4

#: The kinds of mark that belong to a district (their second field is the district's number).
DISTRICT_MARKS = frozenset({"cop", "cop_tile", "war_tile", "mobster", "building", "barrel", "family", "mob"})

TITLE = M("render.speakeasy.crop.title", "What changed")


def _more(n: int) -> Any:
    return P("render.speakeasy.crop.more", "+{n} more in the big pictures", "+{n} more in the big pictures", n)


@dataclass(frozen=True)
class Part:
    """A panel to cut out: from which picture (``"city"`` or ``"table"``), where, and how many changes it holds."""

    picture: str
    box: Box
    changes: int


def _grow(box: Box, size: tuple[int, int], rim: int = RIM) -> Box:
    x0, y0, x1, y1 = box
    return (max(0, x0 - rim), max(0, y0 - rim), min(size[0], x1 + rim), min(size[1], y1 + rim))


def _narrow(box: Box) -> Box:
    """A panel wider than the crop, trimmed evenly to ``CROP_W`` (the Docks: their panel's rim only)."""
    x0, y0, x1, y1 = box
    cut = max(0, (x1 - x0) - CROP_W)
    return (x0 + cut // 2, y0, x1 - (cut - cut // 2), y1)


def parts(view: View, new: Collection[str], city_size: tuple[int, int], table_size: tuple[int, int]) -> list[Part]:
    """The panels holding a changed mark, in reading order: the city's districts, then the table's panels."""
    counts: dict[tuple[str, Box], int] = {}

    def add(picture: str, box: Box) -> None:
        counts[(picture, box)] = counts.get((picture, box), 0) + 1

    places = {int(dist["number"]): (x, y) for dist, x, y in city.layout(view)[0]}
    locations = table.location_names()
    where = {pid: locations.index(loc) for pid, loc, _name in words.PERSONS}
    for mark in new:
        kind, _, rest = mark.partition(":")
        first = rest.split(":")[0]
        if kind in DISTRICT_MARKS and int(first) in places:
            x, y = places[int(first)]
            add("city", _grow((x, y, x + city.COL_W, y + city.DISTRICT_H), city_size))
        elif kind == "capo" and first in where:
            add("table", _grow(table.location_box(where[first]), table_size))
        elif kind in ("booth", "lucky"):
            add("table", _grow(table.RESTAURANT_BOX, table_size))
        elif kind == "park":
            add("table", _grow(table.PARK_BOX, table_size))
        elif kind == "ship":
            add("table", _narrow(_grow(table.SHIPS_BOX, table_size)))
        elif kind == "dock":
            add("table", _narrow(_grow(table.DOCK_SPACES_BOX, table_size)))
    found = [Part(picture, box, n) for (picture, box), n in counts.items()]
    return sorted(found, key=lambda p: (p.picture != "city", p.box[1], p.box[0]))


def _rows(found: list[Part]) -> tuple[list[list[Part]], int]:
    """The panels in rows of the crop's width (small panels side by side), as many rows as fit under ``MAX_H``;
    and how many panels were left out."""
    rows: list[list[Part]] = []
    room = CROP_W - 2 * PAD
    for part in found:
        w = part.box[2] - part.box[0]
        if rows and sum(p.box[2] - p.box[0] + GAP for p in rows[-1]) + w <= room:
            rows[-1].append(part)
        else:
            rows.append([part])
    kept: list[list[Part]] = []
    y = HEAD_H
    for row in rows:
        h = max(p.box[3] - p.box[1] for p in row)
        if kept and y + h + PAD > MAX_H:
            break
        kept.append(row)
        y += h + GAP
    return kept, len(found) - sum(len(r) for r in kept)


def crop_image(view: View, new: Collection[str], city_img: Image.Image, table_img: Image.Image) -> Image.Image | None:
    """The crop of the panels whose marks are in ``new``, cut from the two pictures just drawn with those marks
    outlined; ``None`` when nothing is new (the first picture of a game, or a step that moved nothing)."""
    found = parts(view, new, city_img.size, table_img.size)
    if not found:
        return None
    rows, left_out = _rows(found)
    height = HEAD_H + sum(max(p.box[3] - p.box[1] for p in row) + GAP for row in rows) - GAP + PAD
    img = Image.new("RGB", (CROP_W, height), BG)
    d = ImageDraw.Draw(img)
    say = words.lang_words(view)
    more = say(_more(left_out)) if left_out else ""
    more_w = fit(d, (CROP_W - PAD, HEAD_H // 2), more, CROP_W // 2, (P_TEXT,), MUTED, "cond", "rm") if more else 0
    fit(d, (PAD, HEAD_H // 2), say(TITLE), CROP_W - 2 * PAD - more_w - GAP, (P_HEAD, PHONE_MIN), GOLD, "bold", "lm")
    y = HEAD_H
    sources = {"city": city_img, "table": table_img}
    for row in rows:
        widths = [p.box[2] - p.box[0] for p in row]
        x = (CROP_W - (sum(widths) + GAP * (len(row) - 1))) // 2  # the row centred
        for part, w in zip(row, widths, strict=True):
            img.paste(sources[part.picture].crop(part.box), (x, y))
            x += w + GAP
        y += max(p.box[3] - p.box[1] for p in row) + GAP
    return img
