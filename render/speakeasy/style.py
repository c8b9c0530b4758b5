"""Sizes, colours and printed numbers of the Speakeasy pictures.

Two sets of font sizes: the phone pictures of the public board (the city and the table, ``P_*``: nothing under
``PHONE_MIN`` px, as those are read on a phone scaled to about two thirds) and the older, denser pictures (one
player's board and the final chart, ``FS_*``: nothing under ``fonts.MIN_SIZE``).
"""

from __future__ import annotations

from render.draw import RGB

WIDTH = 1600
MARGIN = 24
GAP = 16

#: The smallest text on the phone pictures (issue 12: 14 px text is about 9.5 device pixels full screen).
PHONE_MIN = 18

# --- font sizes of the phone pictures (px) ------------------------------------------------------------------
P_TITLE = 34
P_WORDMARK = 24
P_ZONE = 32
P_GOAL = 22
P_DISTRICT = 22
P_NUMBER = 22
P_KIND = 21
P_BIG = 30
P_NAME = 26
P_HEAD = 20
P_TEXT = 18
PHONE_SIZES: tuple[int, ...] = (P_TITLE, P_WORDMARK, P_ZONE, P_GOAL, P_DISTRICT, P_NUMBER, P_KIND, P_BIG, P_NAME)
PHONE_SIZES += (P_HEAD, P_TEXT)

# --- font sizes of the player board and the final chart (px) ------------------------------------------------
FS_TITLE = 36
FS_WORDMARK = 26
FS_SUB = 20
FS_SECTION = 16
FS_ZONE = 28
FS_DISTRICT = 20
FS_NUMBER = 17
FS_KIND = 18
FS_LABEL = 15
FS_SMALL = 14
FS_PERSON = 17
FS_BADGE_S = 15
FS_BADGE_M = 18
FS_BADGE_L = 30
FS_NAME = 28
FS_STAT = 28
FS_VALUE = 22
FS_LINE = 17
FS_BIG = 44
FS_CHART = 24
#: Every font size the pictures use; all at least ``fonts.MIN_SIZE`` (the tests check this).
FONT_SIZES: tuple[int, ...] = (
    FS_TITLE,
    FS_WORDMARK,
    FS_SUB,
    FS_SECTION,
    FS_ZONE,
    FS_DISTRICT,
    FS_NUMBER,
    FS_KIND,
    FS_LABEL,
    FS_SMALL,
    FS_PERSON,
    FS_BADGE_S,
    FS_BADGE_M,
    FS_BADGE_L,
    FS_NAME,
    FS_STAT,
    FS_VALUE,
    FS_LINE,
    FS_BIG,
    FS_CHART,
    *PHONE_SIZES,
)

HEADER_H = 92
#: The phone pictures' header is lower: height is what a phone picture lacks.
P_HEADER_H = 64

# --- colours ------------------------------------------------------------------------------------------------

BG: RGB = (21, 23, 30)
HEADER: RGB = (12, 13, 18)
PANEL: RGB = (34, 37, 48)
PANEL_HI: RGB = (44, 48, 62)
LINE: RGB = (66, 70, 88)
SPACE: RGB = (27, 29, 38)
GOLD: RGB = (222, 184, 92)
CREAM: RGB = (246, 239, 220)
MUTED: RGB = (158, 164, 180)
DIM: RGB = (104, 108, 124)
INK: RGB = (30, 26, 22)
COP: RGB = (56, 108, 222)
COP_LIGHT: RGB = (150, 185, 255)
MOB: RGB = (112, 24, 34)
MOB_LIGHT: RGB = (232, 120, 120)
WAR: RGB = (200, 52, 40)
TILE: RGB = (214, 190, 140)
BARREL: RGB = (150, 94, 44)
BARREL_DARK: RGB = (84, 50, 22)
CLOSED: RGB = (46, 46, 50)
BOOK: RGB = (168, 60, 56)
OFF: RGB = (213, 94, 0)
WHITE: RGB = (255, 255, 255)
#: The outline of what changed since the last picture: a bright green no player colour or marker uses.
CHANGED: RGB = (64, 255, 150)


DECK_ACCENTS: dict[str, RGB] = {
    "vip": (128, 42, 96),
    "party": (176, 96, 24),
    "stills": (60, 110, 60),
    "fleet": (36, 78, 140),
}

# --- printed numbers (checked against data/speakeasy by tests/render/test_speakeasy_printed_words.py) --------

LEVEL_KEYS = ("vip", "party", "stills", "fleet", "strength")
MAX_LEVEL = 5
INFAMY_MAX = 25
#: Printed on the Operations board: usable Trucks at Fleet levels 1..5, and the Goon spaces' costs.
TRUCKS_BY_FLEET = (1, 1, 2, 2, 2)
GOON_COSTS = (0, 1, 2, 3, 4, 5)
ROW_KINDS = ("stills", "speakeasy", "nightclub", "casino")
