"""Time the two Speakeasy phone pictures (the city and the table) of a 4-player Act 3 board, drawn from the
spectator view, PNG encoding included; and compare the palette PNG with RGB PNGs.

Run ``python -m bench.render_speakeasy`` (or ``python bench/render_speakeasy.py``) from the project root. Prints
one JSON line. For each picture: the median and max milliseconds over the runs (the game's static layer cached, as
every turn of a running game finds it, and the parts that did not change pasted from the part cache), the same
with no part cached (a turn where everything changed), the first render of a game (static layer drawn too), the
PNG-encode floor (``encode_png`` of the same pixels alone), the ratio render/floor, the bytes and the size. Then
the palette PNG against RGB PNGs of the same pixels (bytes and milliseconds), and a real game's first 40 turns
drawn as the bot draws them (each against the last pictures' marks, the caches warm from the turns before).
Targets (issue 12): each picture at most 1.5x its floor, the two pictures together under 600 KB, neither taller
than wide, at least 1600 px wide.
"""

from __future__ import annotations

import io
import json
import random
import statistics
import struct
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

from bench.speakeasy_players import GAME, greedy_choice, random_choice  # noqa: E402
from render import draw, speakeasy  # noqa: E402
from render.speakeasy import layers  # noqa: E402

RUNS = 30
TARGET_RATIO = 1.5
TARGET_PAIR_BYTES = 600 * 1024
TARGET_WIDTH = 1600


def board_view(seed: int = 3) -> dict[str, Any]:
    """The spectator view of a 4-player game in Act 3, round 2 (mostly greedy play, so the city is built up)."""
    state = GAME.new(["Anna", "Ben", "Cleo", "Dario"], {}, seed)
    rng = random.Random(seed)
    while not GAME.is_over(state):
        view = GAME.view(state, None)
        if view["phase"] == "play" and view["act"] == 3 and view["round"] == 2:
            return view
        prompt = GAME.prompts(state)[0]
        pick = greedy_choice if rng.random() < 0.8 else random_choice
        GAME.apply(state, pick(state, prompt, rng))
    raise LookupError("the game ended before Act 3, round 2")


def _median_ms(fn: Callable[[], object], runs: int = RUNS) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), max(times)


def game_turns(seed: int = 3, turns: int = 40) -> dict[str, Any]:
    """The pictures of a real game, turn after turn, as the bot draws them: each new turn's two pictures against
    the marks of the last ones (the part cache warm from the turns before). Per turn: the render time of both
    pictures and their encode floor; returns the medians and the worst ratio."""
    state = GAME.new(["Anna", "Ben", "Cleo", "Dario"], {}, seed)
    rng = random.Random(seed)
    speakeasy.clear_caches()
    before: list[str] | None = None
    last_current: object = "start"
    renders: list[float] = []
    floors: list[float] = []
    ratios: list[float] = []
    while not GAME.is_over(state) and len(renders) < turns:
        view = GAME.view(state, None)
        if view["current"] != last_current:  # a new turn (or question): the bot posts new pictures
            last_current = view["current"]
            t = time.perf_counter()
            speakeasy.render_pictures(view, before)
            spent = (time.perf_counter() - t) * 1000
            city, table = speakeasy.city_image(view, before), speakeasy.table_image(view, before)
            t = time.perf_counter()
            draw.encode_png(city)
            draw.encode_png(table)
            floor = (time.perf_counter() - t) * 1000
            renders.append(spent)
            floors.append(floor)
            ratios.append(spent / floor)
            before = speakeasy.marks(view)
        prompt = GAME.prompts(state)[0]
        pick = greedy_choice if rng.random() < 0.8 else random_choice
        GAME.apply(state, pick(state, prompt, rng))
    return {
        "turns": len(renders),
        "both_median_ms": round(statistics.median(renders), 1),
        "both_floor_median_ms": round(statistics.median(floors), 1),
        "ratio_median": round(statistics.median(ratios), 2),
        "ratio_max": round(max(ratios), 2),
    }


def _rgb_png_fast(img: Image.Image) -> bytes:
    """RGB PNG written like ``encode_png`` (no row filters, zlib level 1): the fairest RGB rival."""
    w, h = img.size
    raw = img.tobytes()
    row = 3 * w
    rows = b"\x00" + b"\x00".join(raw[i : i + row] for i in range(0, len(raw), row))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b"")


def _pillow_png(img: Image.Image, level: int) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=level)
    return out.getvalue()


def _picture(name: str, image: Callable[[], Image.Image], render: Callable[[], bytes]) -> dict[str, Any]:
    speakeasy.clear_caches()
    t = time.perf_counter()
    data = render()
    first = (time.perf_counter() - t) * 1000
    img = image()

    def every_part_new() -> None:  # a turn where every district and player row changed: no part from the cache
        layers.PARTS.clear()
        render()

    # interleaved, so a busy machine slows the render and its floor alike and the ratio stays fair
    runs: dict[str, list[float]] = {"render": [], "floor": [], "cold": [], "draw": []}
    for _ in range(RUNS):
        for label, fn in (
            ("render", render),
            ("floor", lambda: draw.encode_png(img)),
            ("cold", every_part_new),
            ("draw", image),
        ):
            t = time.perf_counter()
            fn()
            runs[label].append((time.perf_counter() - t) * 1000)
    median, worst = statistics.median(runs["render"]), max(runs["render"])
    floor = statistics.median(runs["floor"])
    cold_parts = statistics.median(runs["cold"])
    drawn = statistics.median(runs["draw"])
    return {
        "picture": name,
        "median_ms": round(median, 1),
        "max_ms": round(worst, 1),
        "first_ms": round(first, 1),
        "draw_ms": round(drawn, 1),
        "no_cached_parts_ms": round(cold_parts, 1),
        "no_cached_parts_ratio": round(cold_parts / floor, 2),
        "encode_floor_ms": round(floor, 1),
        "ratio": round(median / floor, 2),
        "bytes": len(data),
        "size": list(img.size),
        "ok": median <= TARGET_RATIO * floor and img.height <= img.width and img.width >= TARGET_WIDTH,
    }


def _formats(img: Image.Image) -> dict[str, dict[str, float]]:
    """The same pixels as a palette PNG and as RGB PNGs: bytes and milliseconds each."""
    out = {}
    for label, fn in (
        ("palette_png", draw.encode_png),
        ("rgb_png_unfiltered_level1", _rgb_png_fast),
        ("rgb_png_pillow_level1", lambda im: _pillow_png(im, 1)),
        ("rgb_png_pillow_level6", lambda im: _pillow_png(im, 6)),
    ):
        ms, _ = _median_ms(lambda fn=fn: fn(img), 10)
        out[label] = {"bytes": len(fn(img)), "ms": round(ms, 1)}
    return out


def main() -> None:
    """Time both pictures and print one JSON line."""
    view = board_view()
    before = speakeasy.marks(board_view(4))  # another game's marks: many pieces outlined, the worst case
    city = _picture("city", lambda: speakeasy.city_image(view, before), lambda: speakeasy.render_city(view, before))
    table = _picture("table", lambda: speakeasy.table_image(view, before), lambda: speakeasy.render_table(view, before))
    pair = city["bytes"] + table["bytes"]
    result = {
        "bench": "render_speakeasy",
        "runs": RUNS,
        "pictures": [city, table],
        "pair_bytes": pair,
        "game_turns": game_turns(),
        "formats_city": _formats(speakeasy.city_image(view, before)),
        "targets": {"ratio": TARGET_RATIO, "pair_bytes": TARGET_PAIR_BYTES, "width": TARGET_WIDTH},
        "ok": city["ok"] and table["ok"] and pair < TARGET_PAIR_BYTES,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
