"""A profile's rating chart (issue 26, ``/profile``): the conservative rating (mu - 3 sigma, the leaderboards'
number) after each rated game, one line per ladder, and mu as a thinner line above it: the gap between them is
the uncertainty, which shrinks as games confirm the rating.

Drawn from plain data (no engine, no service): ``series`` maps a ladder's name, in the reader's words, to its
``(mu, sigma)`` after each game. Colour is not the only cue: the legend names each line beside its swatch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from render import draw
from render.draw import PLAYER_COLOURS, encode_png

WIDTH, HEIGHT = 1200, 560
LEFT, RIGHT, TOP, BOTTOM = 90, 220, 70, 70
BG = (21, 23, 30)
GRID = (54, 58, 72)
INK = (236, 232, 220)
MUTED = (158, 164, 180)
TITLE_SIZE, LABEL_SIZE = 26, 18


def render_rating_chart(title: str, series: Mapping[str, Sequence[tuple[float, float]]], axis: str) -> bytes:
    """The chart as a PNG: ``title`` on top, ``axis`` (what the x axis counts, in words) under it."""
    img = Image.new("RGB", (WIDTH, HEIGHT), BG)
    d = ImageDraw.Draw(img)
    draw.fit(d, (LEFT, 24), title, WIDTH - LEFT - 24, (TITLE_SIZE, 22, 18), INK, "bold", "la")
    values = [mu - 3 * s for points in series.values() for mu, s in points] + [
        mu for points in series.values() for mu, _ in points
    ]
    low, high = (min(values), max(values)) if values else (0.0, 50.0)
    if high - low < 10:
        mid = (high + low) / 2
        low, high = mid - 5, mid + 5
    longest = max((len(p) for p in series.values()), default=1)
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def at(k: int, v: float) -> tuple[float, float]:
        x = x0 + (x1 - x0) * (k / max(1, longest - 1))
        return x, y1 - (y1 - y0) * ((v - low) / (high - low))

    for step in range(5):  # the grid, with its values
        v = low + (high - low) * step / 4
        _, y = at(0, v)
        d.line((x0, y, x1, y), fill=GRID, width=1)
        draw.text(d, (x0 - 10, y), f"{v:.0f}", LABEL_SIZE, MUTED, "regular", "rm")
    draw.text(d, ((x0 + x1) / 2, HEIGHT - 30), axis, LABEL_SIZE, MUTED, "regular", "mm")
    for n, (name, points) in enumerate(series.items()):
        colour = PLAYER_COLOURS[n % len(PLAYER_COLOURS)]
        if not points:
            continue
        means = [at(k, mu) for k, (mu, _) in enumerate(points)]
        lows = [at(k, mu - 3 * s) for k, (mu, s) in enumerate(points)]
        if len(points) > 1:
            d.line(means, fill=colour, width=2)
            d.line(lows, fill=colour, width=5)
        for x, y in lows:
            d.ellipse((x - 5, y - 5, x + 5, y + 5), fill=colour)
        # the legend, right of the chart: a swatch and the ladder's name (wrapped, so a long name stays whole)
        ly = TOP + n * 64
        d.line((x1 + 16, ly + 10, x1 + 40, ly + 10), fill=colour, width=5)
        draw.block(d, x1 + 48, ly, name, RIGHT - 60, 16, colour, "bold", max_lines=3)
    return encode_png(img)
