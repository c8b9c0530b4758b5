"""The Omerta pictures' sizes: the width, margins and font sizes, and how cards are laid out in lines."""

from __future__ import annotations

import math

WIDTH = 1600
MARGIN = 28

#: Every font size the pictures use; all at least ``fonts.MIN_SIZE`` (the tests check this).
FS_TITLE = 44
FS_WORDMARK = 30
FS_SUBTITLE = 26
FS_SECTION = 22
FS_CALLOUT = 32
FS_NAME = 38
FS_GANGSTER = 22
FS_TOTAL = 48
FS_SMALL_LABEL = 16
FS_ROUNDS = 20
FS_TAG = 18
FS_BADGE = 34
FS_COUNT = 40
FS_COUNT_LABEL = 20
FS_POLICE = 18
FS_EMPTY = 20
FS_SCORE = 40
FS_STANDING = 34
#: Sizes that scale with a card: the smallest a card ever uses is ``fonts.MIN_SIZE``.
FS_CARD_MIN = 14
FONT_SIZES: tuple[int, ...] = (
    FS_TITLE,
    FS_WORDMARK,
    FS_SUBTITLE,
    FS_SECTION,
    FS_CALLOUT,
    FS_NAME,
    FS_GANGSTER,
    FS_TOTAL,
    FS_SMALL_LABEL,
    FS_ROUNDS,
    FS_TAG,
    FS_BADGE,
    FS_COUNT,
    FS_COUNT_LABEL,
    FS_POLICE,
    FS_EMPTY,
    FS_SCORE,
    FS_STANDING,
    FS_CARD_MIN,
)

HEADER_H = 96
CARD_RATIO = 1.4
CARD_RADIUS = 10
#: A player's row (on the table and in the reveal): its padding and the gap to the next row.
ROW_PAD = 12
ROW_GAP = 12


def card_h(w: int) -> int:
    """A card's height for its width ``w``."""
    return round(w * CARD_RATIO)


def grid(n: int, avail: int, pref: int, minimum: int, gap: int) -> tuple[int, int, int]:
    """Card width, cards per line and lines for ``n`` cards in ``avail`` px."""
    if n <= 0:
        return pref, 0, 1
    per_line = max(1, (avail + gap) // (minimum + gap))
    lines = math.ceil(n / per_line)
    per_line = math.ceil(n / lines)
    w = min(pref, (avail - gap * (per_line - 1)) // per_line)
    return w, per_line, lines
