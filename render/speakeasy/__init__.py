"""Pictures of a Speakeasy table, drawn from the engine's view dict (never from the engine state).

The public board is two pictures made for phones (issue 12), each wider than tall with no text under
``PHONE_MIN`` px: ``render_city`` (the Zones and districts with every building, barrel, Family Member, Mobster
Speakeasy, City tile, Cop, Cop tile, gun space and Mobster; the Zone and Central Park goals) and ``render_table``
(turn order, Infamy, the locations and Capos, the Helper and City tile displays, the City Docks, the decks and
each player's public numbers). Both refuse a seat's own view, so a private number can never reach the channel.
Given the marks of the last picture (``marks``), they outline what changed since.

``render_player_board`` draws one player's Operations board (the hand and the safe only when the view is that
seat's own), ``render_final`` the final scoring as a chart. All return PNG bytes; the ``*_async`` variants run
them off the event loop. Colour is never the only cue: every player piece is a badge with the player's shape and
letter.

Speed: what stays the same all game is drawn once per game into a cached layer (``_static_layer``); a picture
copies it and draws the pieces on top, then encodes (``render.draw.encode_png``; bench/render_speakeasy.py).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable
from typing import Any

from PIL import Image, ImageDraw

from render import draw, fonts
from render import speakeasy_text as words
from render.draw import badge_letters, encode_png
from render.speakeasy import city, layers, pieces, table
from render.speakeasy.changes import changed, marks
from render.speakeasy.crop import crop_image
from render.speakeasy.final import render_final
from render.speakeasy.player_board import render_player_board
from render.speakeasy.style import (
    FONT_SIZES,
    GOON_COSTS,
    INFAMY_MAX,
    LEVEL_KEYS,
    MAX_LEVEL,
    P_HEADER_H,
    P_WORDMARK,
    PHONE_MIN,
    PHONE_SIZES,
    TRUCKS_BY_FLEET,
)
from words.msg import M

__all__ = [
    "FONT_SIZES",
    "GOON_COSTS",
    "INFAMY_MAX",
    "LEVEL_KEYS",
    "MAX_LEVEL",
    "PHONE_MIN",
    "PHONE_SIZES",
    "TRUCKS_BY_FLEET",
    "changed",
    "city_image",
    "clear_caches",
    "crop_image",
    "marks",
    "render_board",
    "render_city",
    "render_final",
    "render_final_async",
    "render_pictures",
    "render_pictures_async",
    "render_player_board",
    "render_player_board_async",
    "render_table",
    "table_image",
]

View = dict[str, Any]

#: The file names of the two public pictures, in the order they are posted.
CITY_FILE = "city.png"
TABLE_FILE = "table.png"
#: The third picture: what changed since the last picture, large enough to read inline on a phone (issue 24).
CHANGES_FILE = "changes.png"
_MARKS = {
    "city": M("render.speakeasy.mark", "THE CITY · SPEAKEASY"),
    "table": M("render.speakeasy.mark", "THE TABLE · SPEAKEASY"),
}
_TITLE_SIZES = (34, 30, 26, 22, PHONE_MIN)

# --- the cached static layers -------------------------------------------------------------------------------


def _static_layer(
    part: str, base: View, blank: Callable[[], Image.Image], paint: Callable[[Image.Image], None]
) -> Image.Image:
    """A picture's static layer (drawn once, then shared: callers copy it before drawing on it)."""

    def make() -> Image.Image:
        img = blank()
        mark = words.lang_words(base)(_MARKS[part])
        pieces.header_frame(ImageDraw.Draw(img), P_HEADER_H, mark, P_WORDMARK)
        paint(img)
        return img

    return layers.STATIC.get(part + json.dumps(base, sort_keys=True), make)


def _check_public(view: View) -> None:
    if view.get("seat") is not None:
        raise ValueError("the public board is drawn from the spectator view (seat=None), not a seat's own view")


def _title(img: Image.Image, view: View, part: str) -> None:
    mark = words.lang_words(view)(_MARKS[part])
    pieces.header_title(ImageDraw.Draw(img), words.headline(view), "", P_HEADER_H, _TITLE_SIZES, (), mark, P_WORDMARK)


def city_image(view: View, before: Iterable[str] | None = None) -> Image.Image:
    """The city picture (RGB), outlining the pieces whose marks are not in ``before``."""
    _check_public(view)
    base = city.static_view(view)
    letters = badge_letters(words.names(view))
    layer = _static_layer(
        "city", base, lambda: city.new_image(city.height(base)), lambda im: city.draw(im, base, letters, True, ())
    )
    img = layer.copy()
    city.draw(img, view, letters, False, changed(view, before), layer)
    _title(img, view, "city")
    return img


def table_image(view: View, before: Iterable[str] | None = None) -> Image.Image:
    """The table picture (RGB), outlining the pieces whose marks are not in ``before``."""
    _check_public(view)
    base = table.static_view(view)
    letters = badge_letters(words.names(view))
    n = len(base["players"])
    layer = _static_layer("table", base, lambda: table.new_image(n), lambda im: table.draw(im, base, letters, True, ()))
    img = layer.copy()
    table.draw(img, view, letters, False, changed(view, before), layer)
    _title(img, view, "table")
    return img


def render_city(view: View, before: Iterable[str] | None = None) -> bytes:
    """The city picture as a PNG, drawn only from the spectator view (``SpeakeasyGame().view(state, None)``).

    ``before``: the ``marks`` of the last picture posted; what is new since is outlined (nothing when ``None``).
    Raises ``ValueError`` for a seat's own view: the channel picture must never be able to show a safe or a hand.
    """
    return encode_png(city_image(view, before))


def render_table(view: View, before: Iterable[str] | None = None) -> bytes:
    """The table picture as a PNG (see ``render_city`` for ``before`` and the spectator view)."""
    return encode_png(table_image(view, before))


def render_pictures(view: View, before: Iterable[str] | None = None) -> list[tuple[str, bytes]]:
    """The public pictures as ``(file name, PNG)``: the city, the table, and (when something changed since
    ``before``) the crop of the panels that changed, to read on a phone (``crop.crop_image``)."""
    before = list(before) if before is not None else None
    top, bottom = city_image(view, before), table_image(view, before)
    pictures = [(CITY_FILE, encode_png(top)), (TABLE_FILE, encode_png(bottom))]
    crop = crop_image(view, changed(view, before), top, bottom)
    if crop is not None:
        pictures.append((CHANGES_FILE, encode_png(crop)))
    return pictures


def render_board(view: View) -> bytes:
    """Both public pictures in one PNG, the city above the table (for a caller that can send one file only; the
    bot posts the two pictures of ``render_pictures``)."""
    top, bottom = city_image(view), table_image(view)
    img = Image.new("RGB", (top.width, top.height + bottom.height))
    img.paste(top, (0, 0))
    img.paste(bottom, (0, top.height))
    return encode_png(img)


# --- async --------------------------------------------------------------------------------------------------


async def render_pictures_async(view: View, before: Iterable[str] | None = None) -> list[tuple[str, bytes]]:
    """``render_pictures`` in a worker thread, so the event loop keeps serving Discord."""
    return await asyncio.to_thread(render_pictures, view, before)


async def render_player_board_async(view: View, seat: int) -> bytes:
    """``render_player_board`` in a worker thread."""
    return await asyncio.to_thread(render_player_board, view, seat)


async def render_final_async(view: View) -> bytes:
    """``render_final`` in a worker thread."""
    return await asyncio.to_thread(render_final, view)


def clear_caches() -> None:
    """Forget every cached layer, sprite and font (tests use it to observe every font size drawn)."""
    layers.STATIC.clear()
    layers.PARTS.clear()
    pieces.ring_sprite.cache_clear()
    for g in (draw.rounded_sprite, draw.shadow_mask, draw.badge_sprite, draw.felt, draw._text_mask, draw._width):
        g.cache_clear()
    fonts.clear_cache()
