"""Fonts for the table pictures: DejaVu from the system, cached, with Pillow's bundled font as the fallback.

DejaVu covers every letter and sign the pictures print in English and German (ä ö ü ß „ “ · – … → − ×);
Pillow's bundled font covers ASCII only, so text drawn with it goes through ``printable`` first (``ä`` -> ``ae``,
``„`` -> ``"``): a German picture on a machine without DejaVu reads as plain letters instead of empty boxes.

Every picture is read on a phone, so no text may be smaller than ``MIN_SIZE`` pixels (design: "no text under
14 px"). ``get`` refuses smaller sizes, which makes a too-small constant fail loudly in tests instead of
quietly shipping unreadable text.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

#: The smallest text size any picture may use, in pixels.
MIN_SIZE = 14

#: Where the DejaVu fonts live on the bot's machines (Debian ``fonts-dejavu-core``/``-extra``).
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")

#: Style name -> DejaVu file name.
STYLES: dict[str, str] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "cond": "DejaVuSansCondensed.ttf",
    "cond_bold": "DejaVuSansCondensed-Bold.ttf",
    "serif_bold": "DejaVuSerif-Bold.ttf",
    "serif_italic": "DejaVuSerif-Italic.ttf",
}

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def get(size: int, style: str = "regular") -> Font:
    """The font of ``style`` at ``size`` px, loaded once per process.

    Falls back to Pillow's bundled scalable font when the DejaVu file is missing (CI machines without the
    system fonts). Raises ``ValueError`` for a size under ``MIN_SIZE`` or an unknown style.
    """
    if size < MIN_SIZE:
        raise ValueError(f"font size {size} px is below the minimum of {MIN_SIZE} px")
    if style not in STYLES:
        raise ValueError(f"unknown font style {style!r}; known: {', '.join(STYLES)}")
    return _load(int(size), style, str(FONT_DIR))


@lru_cache(maxsize=128)
def _load(size: int, style: str, font_dir: str) -> Font:
    path = Path(font_dir) / STYLES[style]
    # only this exact file: truetype() would otherwise search the system's font folders by file name
    if path.is_file():
        try:
            return ImageFont.truetype(str(path), size)
        except OSError:
            pass
    return ImageFont.load_default(size=size)


#: The letters and signs Pillow's bundled font lacks, in the plain letters that stand for them.
PLAIN = str.maketrans(
    {
        "ä": "ae",
        "ö": "oe",
        "ü": "ue",
        "ß": "ss",
        "Ä": "Ae",
        "Ö": "Oe",
        "Ü": "Ue",
        "„": '"',
        "“": '"',
        "–": "-",
        "→": "->",
        "−": "-",
        "×": "x",
        "▶": ">",
    }
)


def is_fallback(size: int, style: str = "regular") -> bool:
    """Whether ``style`` at ``size`` is Pillow's bundled font (the DejaVu file is missing)."""
    return not isinstance(getattr(get(size, style), "path", None), str)


def printable(text: str, size: int, style: str = "regular") -> str:
    """``text`` as the font of ``style`` can draw it: unchanged with DejaVu, in plain letters with the fallback."""
    return text.translate(PLAIN) if is_fallback(size, style) else text


def clear_cache() -> None:
    """Forget every loaded font (tests use it after pointing ``FONT_DIR`` elsewhere)."""
    _load.cache_clear()
