"""Issue 24, "Pictures on a phone": the turn's third picture, the panels that changed, cropped to read inline at
360 px (``render/speakeasy/crop.py``)."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine.core import Choice
from engine.speakeasy.game import SpeakeasyGame
from render import speakeasy as se
from render.speakeasy import crop

GAME = SpeakeasyGame()
View = dict[str, Any]
#: How wide a phone shows a picture inline, and the smallest text it may show there (issue 24).
PHONE_W = 360
MIN_SHOWN = 12


@pytest.fixture
def fresh_caches() -> Iterator[None]:
    se.clear_caches()
    yield
    se.clear_caches()


def positions(players: int, seed: int, every: int, n: int) -> list[tuple[View, list[str]]]:
    """``n`` positions of a game played with random legal choices, one every ``every`` choices, each with the marks
    of the position before (what the last picture showed)."""
    names = ["Anna", "Ben", "Cleo", "Dario"][:players]
    state = GAME.new(names, {"difficulty": 2}, seed)
    rng = random.Random(seed)
    before = se.marks(GAME.view(state, None))
    out: list[tuple[View, list[str]]] = []
    steps = 0
    while not GAME.is_over(state) and len(out) < n:
        prompt = GAME.prompts(state)[0]
        options = [o for o in prompt.options if o.id != "back"] or list(prompt.options)
        GAME.apply(state, Choice(prompt.seat, prompt.kind, rng.choice(options).id))
        steps += 1
        if steps % every == 0:
            view = GAME.view(state, None)
            out.append((view, before))
            before = se.marks(view)
    assert len(out) == n, "the game ended before the positions were taken"
    return out


def _recording(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The font size of every text drawn from now on (every ``ImageDraw.text`` call, the text cache's included)."""
    used: list[int] = []
    real = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        used.append(int(getattr(kwargs.get("font"), "size", 0)))
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    return used


def test_the_crop_reads_at_12_px_on_a_360_px_phone_in_50_positions(
    fresh_caches: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Acceptance: 50 positions of 4-player, 2-player and solo games; every text drawn (the caches are fresh, so
    every text that reaches a picture is drawn once while recording) is at least 12 px when the crop, which copies
    the panels pixel for pixel, is shown 360 px wide; no crop is taller than a phone photo."""
    used = _recording(monkeypatch)
    shown = 0
    for players, seed, every, n in ((4, 3, 7, 20), (2, 11, 4, 15), (1, 5, 3, 15)):
        for view, before in positions(players, seed, every, n):
            pictures = dict(se.render_pictures(view, before))
            assert list(pictures)[:2] == [se.CITY_FILE, se.TABLE_FILE]
            if se.changed(view, before):
                assert se.CHANGES_FILE in pictures, "a step that changed the board has no crop"
            if se.CHANGES_FILE not in pictures:
                continue
            shown += 1
            image = Image.open(io.BytesIO(pictures[se.CHANGES_FILE]))
            assert image.width == crop.CROP_W and image.height <= crop.MAX_H
            smallest = min(used) * PHONE_W / image.width
            assert smallest >= MIN_SHOWN, f"{min(used)} px text shows at {smallest:.1f} px on a phone"
    assert shown >= 40 and len(used) > 500


def _position() -> tuple[View, list[str]]:
    return positions(4, 3, 7, 12)[-1]


def test_the_crop_is_the_changed_panels_of_the_big_pictures_pixel_for_pixel() -> None:
    """The crop copies each changed panel from the picture just drawn (green outlines and all): a district that
    got a building is in it as the city picture shows it."""
    view, _ = _position()
    marks = se.marks(view)
    building = next(m for m in marks if m.startswith("building:"))
    before = [m for m in marks if m != building]  # one building is new since the last picture
    city, table = se.city_image(view, before), se.table_image(view, before)
    found = crop.parts(view, se.changed(view, before), city.size, table.size)
    assert [(p.picture, p.changes) for p in found] == [("city", 1)]
    image = crop.crop_image(view, se.changed(view, before), city, table)
    assert image is not None
    box = found[0].box
    w, h = box[2] - box[0], box[3] - box[1]
    x = (crop.CROP_W - w) // 2
    panel = image.crop((x, crop.HEAD_H, x + w, crop.HEAD_H + h))
    assert ImageChops.difference(panel, city.crop(box)).getbbox() is None


def test_each_kind_of_change_finds_its_panel() -> None:
    """Every mark kind leads to a panel: a district's pieces to the district, a Capo to its location, a booth and
    Lucky's table to the Restaurant, the Park, a Ship, the Docks."""
    view, _ = _position()
    size = (1600, 3000)
    table = crop.table
    pid, loc, _ = se.words.PERSONS[-1]
    expect = {
        f"capo:{pid}:0": crop._grow(table.location_box(table.location_names().index(loc)), size),
        "booth:0:1": crop._grow(table.RESTAURANT_BOX, size),
        "lucky:0:1": crop._grow(table.RESTAURANT_BOX, size),
        "park:0:2": crop._grow(table.PARK_BOX, size),
        "ship:1:3:2:None": crop._narrow(crop._grow(table.SHIPS_BOX, size)),
        "dock:0:0:1": crop._narrow(crop._grow(table.DOCK_SPACES_BOX, size)),
    }
    for mark, box in expect.items():
        (part,) = crop.parts(view, [mark], size, size)
        assert (part.picture, part.box) == ("table", box), mark
        assert box[2] - box[0] <= crop.CROP_W, mark
    dist, x, y = se.city.layout(view)[0][0]
    for kind in sorted(crop.DISTRICT_MARKS):
        (part,) = crop.parts(view, [f"{kind}:{dist['number']}:0:0:speakeasy"], size, size)
        assert part.picture == "city" and part.box[:2] == (x - crop.RIM, y - crop.RIM), kind


def test_no_crop_without_a_change_or_without_an_earlier_picture() -> None:
    """The first pictures of a game (nothing to compare with) and a step that moved nothing have no crop."""
    view, _ = _position()
    assert [name for name, _ in se.render_pictures(view, None)] == [se.CITY_FILE, se.TABLE_FILE]
    assert [name for name, _ in se.render_pictures(view, se.marks(view))] == [se.CITY_FILE, se.TABLE_FILE]


def test_what_does_not_fit_is_counted_and_the_crop_stays_phone_sized() -> None:
    """Everything new at once (a Mob War's end changes many districts): the crop keeps what fits under a phone
    photo's height and its header counts the rest; German says it in German."""
    view, _ = _position()
    city, table = se.city_image(view, []), se.table_image(view, [])
    everything = se.changed(view, [])
    found = crop.parts(view, everything, city.size, table.size)
    rows, left_out = crop._rows(found)
    assert left_out > 0 and sum(len(r) for r in rows) + left_out == len(found)
    image = crop.crop_image(view, everything, city, table)
    assert image is not None and image.height <= crop.MAX_H
    said = se.words.lang_words({**view, "lang": "de"})(crop._more(left_out))
    assert str(left_out) in said and "more" not in said
