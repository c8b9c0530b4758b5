"""Where the table picture's parts are: its sizes, and the boxes of the panels that the phone crop (issue 24) cuts
out of it. One place for both, so the crop always cuts what the table draws."""

from __future__ import annotations

from render import speakeasy_text as words
from render.speakeasy import players
from render.speakeasy.displays import ROW_C_H
from render.speakeasy.style import P_HEADER_H, WIDTH

Box = tuple[int, int, int, int]

MARGIN = 16
GAP = 12
TOP = P_HEADER_H + 12
STRIP_H = 160
ORDER_W = 400
LOWER = TOP + STRIP_H + GAP
LEFT_W = 1000
LOC_W = (LEFT_W - 3 * GAP) // 4
LOC_H = 150
PARK_W = 300
HELPERS_W = 420
RIGHT_X = MARGIN + LEFT_W + GAP
RIGHT_W = WIDTH - MARGIN - RIGHT_X
SHIP_H = 60
DOCK_H = 50
PLAYER_H = players.PLAYER_H
PLAYER_GAP = 8
#: Where the player rows start: under the taller of the two columns (the Docks and decks, on the right).
PLAYERS_TOP = LOWER + 28 + (12 + 4 * SHIP_H) + GAP + (12 + 3 * DOCK_H) + GAP + 166 + GAP


def height(n: int) -> int:
    """The picture's height for ``n`` players."""
    return PLAYERS_TOP + n * (PLAYER_H + PLAYER_GAP) - PLAYER_GAP + 14


# --- where the panels are (the phone crop of issue 24 cuts them out of the picture) ---------------------------

#: The top of the location panels (under their label).
LOC_TOP = LOWER + 28
#: The Restaurant's panel (its booths and Lucky's table), under the second row of locations' right half.
RESTAURANT_BOX = (
    MARGIN + 2 * (LOC_W + GAP),
    LOC_TOP + LOC_H + GAP,
    MARGIN + 4 * LOC_W + 3 * GAP,
    LOC_TOP + 2 * LOC_H + GAP,
)
#: The Park's panel, under the locations.
PARK_BOX = (MARGIN, LOC_TOP + 2 * (LOC_H + GAP), MARGIN + PARK_W, LOC_TOP + 2 * (LOC_H + GAP) + ROW_C_H)
#: The City Docks' label and Ships, then the Family Members at the Docks.
SHIPS_BOX = (RIGHT_X, LOWER, WIDTH - MARGIN, LOWER + 28 + 12 + SHIP_H * 4)
DOCK_SPACES_BOX = (RIGHT_X, SHIPS_BOX[3] + GAP, WIDTH - MARGIN, SHIPS_BOX[3] + GAP + 12 + DOCK_H * 3)


def location_box(k: int) -> tuple[int, int, int, int]:
    """The panel of the ``k``-th location (in the order of ``location_names``)."""
    bx = MARGIN + (k % 4) * (LOC_W + GAP)
    by = LOC_TOP + (k // 4) * (LOC_H + GAP)
    return (bx, by, bx + LOC_W, by + LOC_H)


def location_names() -> list[str]:
    """The locations in the order of their Persons (English: the terms' source words)."""
    locs: list[str] = []
    for _pid, loc, _name in words.PERSONS:
        if loc not in locs:
            locs.append(loc)
    return locs
