"""Cached layers: what stays the same all game is drawn once per game, and a part of a picture that did not change
since the last turn (a district, a player's row) is pasted from a cache instead of being drawn again.

Keys are the JSON of exactly what a part is drawn from, so a cached part is always the part that would be drawn.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from PIL import Image


class LayerCache:
    """A small thread-safe LRU cache of images by key (the renderers run in worker threads)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, Image.Image] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, make: Callable[[], Image.Image]) -> Image.Image:
        """The image for ``key``, made by ``make`` the first time (callers must not draw on it)."""
        with self._lock:
            img = self._items.get(key)
            if img is not None:
                self._items.move_to_end(key)
                return img
        img = make()
        with self._lock:
            self._items[key] = img
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return img

    def clear(self) -> None:
        """Forget every image."""
        with self._lock:
            self._items.clear()


#: Whole static layers (two per game).
STATIC = LayerCache(16)
#: Parts of pictures: a game has 16 districts and up to 4 player rows; a few games' worth.
PARTS = LayerCache(96)


def key(*parts: Any) -> str:
    """A cache key from JSON-ready parts."""
    return json.dumps(parts, sort_keys=True, separators=(",", ":"))


def paste_part(
    img: Image.Image,
    layer: Image.Image,
    box: tuple[int, int, int, int],
    part_key: str,
    paint: Callable[[Image.Image], None],
) -> None:
    """Paste the part of the picture at ``box``: the static ``layer``'s pixels there with ``paint`` drawn on them
    (at the part's own origin), drawn once per ``part_key``."""

    def make() -> Image.Image:
        part = layer.crop(box)
        paint(part)
        return part

    img.paste(PARTS.get(part_key, make), box[:2])
