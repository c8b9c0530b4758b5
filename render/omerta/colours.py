"""The Omerta pictures' colours: the felt, the header, the rows, the cards and the callouts."""

from __future__ import annotations

from render.draw import RGB

FELT_CENTRE: RGB = (26, 96, 60)
FELT_EDGE: RGB = (11, 50, 31)
HEADER: RGB = (10, 28, 19)
GOLD: RGB = (222, 184, 92)
CREAM: RGB = (246, 239, 220)
CREAM_DIM: RGB = (196, 206, 190)
INK: RGB = (36, 28, 24)
ROW: RGB = (13, 56, 35)
ROW_ACTIVE: RGB = (22, 78, 50)
ROW_LINE: RGB = (40, 96, 66)
MUTED: RGB = (150, 186, 160)
BACK: RGB = (118, 24, 36)
BACK_DARK: RGB = (92, 16, 27)
BACK_GOLD: RGB = (200, 160, 82)
FACE_EDGE: RGB = (190, 176, 146)
RED: RGB = (160, 30, 40)
POLICE_BLUE: RGB = (24, 52, 140)
POLICE_LIGHT: RGB = (225, 236, 255)
AMBER: RGB = (240, 196, 80)
MADE_IT: RGB = (0, 158, 115)
FAILED: RGB = (213, 94, 0)
WINNER: RGB = (240, 205, 110)
#: the outline of a part that changed since the last picture: bright cyan, apart from the gold of the active row
#: and the green felt
CHANGED: RGB = (60, 230, 255)
