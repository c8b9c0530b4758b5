"""Pictures of an Omerta table, drawn from the engine's view dict (never from the engine state).

``render_table`` draws the table as the view's seat may see it: the public picture is drawn from the
spectator view, so every card in front of a player is face down and a drawn card is a face-down marker.
``render_reveal`` draws the end of the last round (``view["reveal"]``) and, once the game is over, the final
standings. Both return PNG bytes; the ``*_async`` variants run them off the event loop.
"""

from __future__ import annotations

import asyncio
import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render.draw import (
    RGB,
    SS,
    badge,
    badge_letters,
    dashed_rounded_rect,
    drop_shadow,
    encode_png,
    felt,
    fit_lines,
    fit_text,
    paste,
    pill,
    player_colour,
    rounded_sprite,
    with_shadow,
)
from render.omerta_words import card_name, gangster_name, words_of
from words import Words, words
from words.msg import Join, M, Msg, P, T

# --- sizes (px) ---------------------------------------------------------------------------------------------

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

# --- colours ------------------------------------------------------------------------------------------------

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

_CHARACTER_ACCENT: dict[str, RGB] = {
    "Traitor": (122, 30, 34),
    "Mole": (102, 76, 52),
    "Lady": (132, 48, 108),
    "Chauffeur": (46, 66, 96),
    "Police Check": POLICE_BLUE,
    "La Mamma": (168, 84, 38),
    "Safecracker": (72, 82, 94),
    "Alibi": (48, 112, 72),
}

_POWER_LABEL = {
    "traitor": T("omerta.card", "Traitor"),
    "mole": T("omerta.card", "Mole"),
    "lady": T("omerta.card", "Lady"),
    "chauffeur": T("omerta.card", "Chauffeur"),
    "police": T("omerta.card", "Police Check"),
    "mamma": T("omerta.card", "La Mamma"),
    "safecracker": T("omerta.card", "Safecracker"),
    "safe": T("omerta.card", "Safecracker"),
    "safe_slot": T("omerta.card", "Safecracker"),
    "alibi": T("omerta.card", "Alibi"),
}


def _power_text(power: str, name: str) -> Msg:
    """What the active player may do with the power now."""
    if power == "traitor":
        return M(
            "render.omerta.power_traitor",
            "{name} may deal 2 cards from the draw pile, face down, to opponents.",
            name=name,
        )
    if power == "mole":
        return M("render.omerta.power_mole", "{name} may look at one of their own cards.", name=name)
    if power == "lady":
        return M("render.omerta.power_lady", "{name} may shuffle one opponent's cards.", name=name)
    if power == "chauffeur":
        return M(
            "render.omerta.power_chauffeur",
            "{name} may discard up to 2 of their own bottles, named by memory.",
            name=name,
        )
    if power == "police":
        return M(
            "render.omerta.power_police", "{name} may hold one card on the table for two of their turns.", name=name
        )
    if power == "mamma":
        return M("render.omerta.power_mamma", "{name} may make an opponent skip their next turn.", name=name)
    if power == "safecracker":
        return M("render.omerta.power_safecracker", "{name} may look at the 4 cards in the Safe.", name=name)
    if power == "safe":
        return M("render.omerta.power_safe", "{name} has seen the Safe and may take one of its cards.", name=name)
    if power == "safe_slot":
        return M("render.omerta.power_safe_slot", "{name} chooses which of their cards goes into the Safe.", name=name)
    return M("render.omerta.power_other", "{name} uses a power.", name=name)


# --- words --------------------------------------------------------------------------------------------------


def _names(view: dict[str, Any]) -> list[str]:
    return [str(p["name"]) for p in view["players"]]


def _winners_msg(view: dict[str, Any]) -> Msg:
    names = _names(view)
    winners = [names[i] for i in view.get("winners", [])]
    if not winners:
        return M("render.omerta.game_over", "Game over")
    best = view["players"][view["winners"][0]]["total"]
    return P(
        "render.omerta.winners",
        "{names} wins with {points} points",
        "{names} win with {points} points",
        len(winners),
        names=Join(winners),
        points=best,
    )


def _winners_text(view: dict[str, Any]) -> str:
    return words_of(view)(_winners_msg(view))


def describe(view: dict[str, Any]) -> tuple[str, str, str]:
    """The table's state in words: (title line, callout heading, callout text).

    The title line is e.g. "Round 2 of 4 · Ben's turn" or "Round 2 of 4 · Snap window: Bottle 7".
    """
    w = words_of(view)
    names = _names(view)
    active = view.get("active")
    who = names[active] if active is not None and 0 <= active < len(names) else "?"
    phase = view["phase"]
    top = view.get("discard_top")
    turn = M("render.omerta.turn", "{name}'s turn", name=who)
    if phase == "peek":
        waiting = [p["name"] for p in view["players"] if not p.get("peeked")]
        head, label = (
            w(M("render.omerta.peeking", "Everyone is peeking")),
            w(M("render.omerta.label_peeking", "PEEKING")),
        )
        text = w(
            M(
                "render.omerta.peek_text",
                "Everyone looks at {n} of their cards and remembers them.",
                n=_num(view, "peek"),
            )
        )
        if waiting:
            text += " " + w(M("render.omerta.waiting", "Waiting for {names}.", names=Join(waiting)))
    elif phase == "turn":
        head, label = w(turn), w(M("render.omerta.label_to_play", "{name} TO PLAY", name=who.upper()))
        if top:
            take = M("render.omerta.take_card", "take the {card} from the discard pile", card=card_name(top))
        else:
            take = M("render.omerta.take_discard", "take the discard")
        text = w(
            M(
                "render.omerta.turn_text",
                "Draw a card, {take}, or call OMERTA ({n} points or fewer).",
                take=take,
                n=_num(view, "omerta_limit"),
            )
        )
    elif phase == "drawn":
        head, label = w(turn), w(M("render.omerta.label_drawn", "A CARD IS DRAWN"))
        held = view.get("holding")
        if held:
            drawn = M(
                "render.omerta.drawn_card",
                "{name} drew {card}: swap it into a slot or discard it.",
                name=who,
                card=card_name(held),
            )
        else:
            drawn = M("render.omerta.drawn", "{name} drew a card: swap it into a slot or discard it.", name=who)
        text = w(drawn)
    elif phase == "taken":
        head, label = w(turn), w(M("render.omerta.label_taken", "THE DISCARD IS TAKEN"))
        held = view.get("holding")
        what = card_name(held) if held else M("render.omerta.the_discard", "the discard")
        text = w(
            M(
                "render.omerta.taken",
                "{name} took {card} from the discard pile and swaps it into a slot.",
                name=who,
                card=what,
            )
        )
    elif phase == "snap":
        value = view.get("snap_value")
        head = w(M("render.omerta.snap_head", "Snap window: Bottle {value}", value=value))
        label = w(M("render.omerta.label_snap", "SNAP WINDOW"))
        text = w(
            M(
                "render.omerta.snap_text",
                "Anyone may discard a Bottle {value} of their own. A wrong snap costs a penalty card.",
                value=value,
            )
        )
    elif phase in ("power", "safe", "safe_slot"):
        power = view.get("power") or phase
        name = w(_POWER_LABEL[power]) if power in _POWER_LABEL else power.replace("_", " ").title()
        head = w(M("render.omerta.power_head", "{turn} · {power}", turn=turn, power=name))
        label = w(M("render.omerta.label_power", "POWER · {power}", power=name.upper()))
        text = w(_power_text(power, who))
    elif phase == "over":
        winners = [names[i] for i in view.get("winners", []) if 0 <= i < len(names)]
        if winners:
            over = P(
                "render.omerta.over_head",
                "Game over: {names} wins",
                "Game over: {names} win",
                len(winners),
                names=Join(winners),
            )
        else:
            over = M("render.omerta.game_over", "Game over")
        head = w(over)
        label = w(M("render.omerta.label_over", "GAME OVER"))
        text = w(M("render.omerta.over_text", "{winners}. Lowest total wins.", winners=_winners_msg(view)))
    else:
        head, label, text = phase.title(), phase.upper(), ""
    title = w(
        M(
            "render.omerta.title",
            "Round {round} of {rounds} · {head}",
            round=view["round"],
            rounds=view["rounds"],
            head=head,
        )
    )
    return title, label, text


# --- card sprites -------------------------------------------------------------------------------------------


def _card_h(w: int) -> int:
    return round(w * CARD_RATIO)


@lru_cache(maxsize=64)
def card_back(w: int, h: int) -> Image.Image:
    """A face-down card: burgundy with a gold frame and a diamond lattice."""
    s = SS
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    r = CARD_RADIUS * s
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), r, fill=(238, 228, 204))
    inset = max(4, w // 22) * s
    d.rounded_rectangle((inset, inset, w * s - 1 - inset, h * s - 1 - inset), r // 2, fill=BACK)
    # lattice, clipped to the inner panel
    lat = Image.new("RGBA", big.size, (0, 0, 0, 0))
    ld = ImageDraw.Draw(lat)
    step = max(10, w // 8) * s
    for k in range(-h * s, w * s + h * s, step):
        ld.line((k, 0, k + h * s, h * s), fill=BACK_DARK, width=2 * s)
        ld.line((k, 0, k - h * s, h * s), fill=BACK_DARK, width=2 * s)
    mask = Image.new("L", big.size, 0)
    frame = inset + 3 * s
    ImageDraw.Draw(mask).rounded_rectangle((frame, frame, w * s - 1 - frame, h * s - 1 - frame), r // 3, fill=255)
    big.paste(lat, (0, 0), Image.composite(lat, Image.new("RGBA", big.size, (0, 0, 0, 0)), mask))
    d.rounded_rectangle((frame, frame, w * s - 1 - frame, h * s - 1 - frame), r // 3, outline=BACK_GOLD, width=2 * s)
    # a gold diamond in the middle (covered by the slot number on slots)
    cx, cy, rr = w * s / 2, h * s / 2, w * s * 0.16
    for radius, colour in ((rr, BACK_GOLD), (rr * 0.55, BACK)):
        d.polygon([(cx, cy - radius), (cx + radius, cy), (cx, cy + radius), (cx - radius, cy)], fill=colour)
    return big.resize((w, h), Image.Resampling.LANCZOS)


def _face_base(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), CARD_RADIUS * SS, fill=CREAM, outline=FACE_EDGE, width=2 * SS)
    return big, d


def _bottle(d: ImageDraw.ImageDraw, cx: float, top: float, bottom: float, width: float) -> None:
    """A whisky bottle drawn with primitives, ``width`` wide, between ``top`` and ``bottom``."""
    height = bottom - top
    glass = (134, 78, 30)
    dark = (88, 48, 18)
    neck_w = width * 0.32
    body_top = top + height * 0.36
    # neck, lip and cap
    d.rectangle((cx - neck_w / 2, top + height * 0.08, cx + neck_w / 2, body_top + 4), fill=glass)
    d.rounded_rectangle((cx - neck_w * 0.62, top, cx + neck_w * 0.62, top + height * 0.1), width * 0.05, fill=RED)
    # shoulders and body
    d.ellipse((cx - width / 2, body_top - height * 0.1, cx + width / 2, body_top + height * 0.12), fill=glass)
    d.rounded_rectangle((cx - width / 2, body_top, cx + width / 2, bottom), width * 0.14, fill=glass)
    d.rounded_rectangle((cx - width / 2, bottom - height * 0.05, cx + width / 2, bottom), width * 0.14, fill=dark)
    # highlight
    d.rounded_rectangle(
        (cx - width * 0.36, body_top + height * 0.02, cx - width * 0.24, bottom - height * 0.12),
        width * 0.06,
        fill=(196, 136, 74),
    )
    # label with a red band
    ly0, ly1 = top + height * 0.56, top + height * 0.82
    d.rectangle((cx - width / 2 + 1, ly0, cx + width / 2 - 1, ly1), fill=(240, 226, 190))
    band = (ly1 - ly0) * 0.28
    d.rectangle((cx - width / 2 + 1, ly0 + band, cx + width / 2 - 1, ly0 + 2 * band), fill=RED)


def _card_px(w: int, frac: float) -> int:
    return max(FS_CARD_MIN, round(w * frac))


@lru_cache(maxsize=128)
def bottle_face(value: int, w: int, h: int) -> Image.Image:
    """A bottle card face up: its value big, corner indices and a bottle."""
    big, d = _face_base(w, h)
    bw = w * SS * 0.3
    _bottle(d, w * SS * 0.5, h * SS * 0.5, h * SS * 0.9, bw)
    img = big.resize((w, h), Image.Resampling.LANCZOS)
    dd = ImageDraw.Draw(img)
    text = str(value)
    size = _card_px(w, 0.5 if value < 10 else 0.42)
    dd.text((w / 2, h * 0.28), text, font=fonts.get(size, "bold"), fill=INK, anchor="mm")
    corner = _card_px(w, 0.15)
    pad = max(5, w // 16)
    dd.text((pad, pad - 2), text, font=fonts.get(corner, "bold"), fill=RED, anchor="lt")
    dd.text((w - pad, h - pad), text, font=fonts.get(corner, "bold"), fill=RED, anchor="rb")
    return img


def _fedora(d: ImageDraw.ImageDraw, cx: float, cy: float, width: float, colour: RGB) -> None:
    brim_h = width * 0.2
    d.ellipse((cx - width / 2, cy - brim_h / 2, cx + width / 2, cy + brim_h / 2), fill=colour)
    crown_w = width * 0.56
    d.rounded_rectangle((cx - crown_w / 2, cy - width * 0.42, cx + crown_w / 2, cy), width * 0.1, fill=colour)
    d.polygon(
        [(cx - crown_w * 0.2, cy - width * 0.42), (cx, cy - width * 0.33), (cx + crown_w * 0.2, cy - width * 0.42)],
        fill=CREAM,
    )
    d.rectangle((cx - crown_w / 2, cy - width * 0.14, cx + crown_w / 2, cy - width * 0.06), fill=RED)


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB) -> None:
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    d.polygon(pts, fill=colour)
    d.ellipse((cx - r * 0.22, cy - r * 0.22, cx + r * 0.22, cy + r * 0.22), fill=GOLD)


def _dial(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    d.ellipse((cx - r * 0.72, cy - r * 0.72, cx + r * 0.72, cy + r * 0.72), fill=(210, 214, 220))
    for k in range(12):
        a = k * math.pi / 6
        d.line(
            (
                cx + r * 0.55 * math.cos(a),
                cy + r * 0.55 * math.sin(a),
                cx + r * 0.7 * math.cos(a),
                cy + r * 0.7 * math.sin(a),
            ),
            fill=colour,
            width=max(1, int(r * 0.06)),
        )
    d.ellipse((cx - r * 0.2, cy - r * 0.2, cx + r * 0.2, cy + r * 0.2), fill=colour)


#: Where a long card name may break across lines (soft hyphens), by its words in any language.
_BREAKS = {
    "Safecracker": "Safe\u00adcracker",
    "Geldschrankknacker": "Geld\u00adschrank\u00adknacker",
    "Polizeikontrolle": "Polizei\u00adkontrolle",
}


@lru_cache(maxsize=128)
def character_face(name: str, points: int, w: int, h: int, lang: str = "en") -> Image.Image:
    """A character card face up: its name (``name`` in English, shown in ``lang``) on a coloured band, an
    emblem and its points."""
    say = words(lang)
    accent = _CHARACTER_ACCENT.get(name, (70, 70, 70))
    big, d = _face_base(w, h)
    s = SS
    band = h * 0.34
    sizes = [x for x in (round(w * 0.2), round(w * 0.17), round(w * 0.15), 16, 15, 14) if x >= FS_CARD_MIN]
    shown = " ".join(_BREAKS.get(part, part) for part in say(T("omerta.card", name)).split(" "))
    lines, size = fit_lines(shown, w - 12, band - 10, sorted(set(sizes), reverse=True), "cond_bold", 1.05)
    # a long name (Geldschrankknacker on a small card) gets a taller band, and the emblem moves down and shrinks
    grow = max(0.0, min(h * 0.5, len(lines) * size * 1.05 + 10) - band)
    band += grow
    scale = 1 - grow / (h * 0.4)
    d.rounded_rectangle((3 * s, 3 * s, w * s - 3 * s, band * s), (CARD_RADIUS - 2) * s, fill=accent)
    d.rectangle((3 * s, band * s * 0.6, w * s - 3 * s, band * s), fill=accent)
    cx, cy = w * s / 2, (h * 0.6 + grow * 0.6) * s
    if name == "Police Check":
        _star(d, cx, cy, w * s * 0.2 * scale, accent)
    elif name == "Safecracker":
        _dial(d, cx, cy, w * s * 0.2 * scale, accent)
    else:
        _fedora(d, cx, cy + w * s * 0.1 * scale, w * s * 0.5 * scale, accent)
    img = big.resize((w, h), Image.Resampling.LANCZOS)
    dd = ImageDraw.Draw(img)
    font = fonts.get(size, "cond_bold")
    lh = size * 1.05
    y0 = band / 2 - lh * (len(lines) - 1) / 2 + 2
    for k, line in enumerate(lines):
        dd.text((w / 2, y0 + k * lh), line, font=font, fill=(255, 255, 255), anchor="mm")
    pts = say(M("render.omerta.pts", "{n} pts", n=points))
    psize = _card_px(w, 0.15)
    dd.text((w / 2, h - max(8, h * 0.07)), pts, font=fonts.get(psize, "bold"), fill=RED, anchor="mb")
    return img


def card_face(card: dict[str, Any], w: int, lang: str = "en") -> Image.Image:
    """A face-up card from view data (``kind``, ``name``, ``points``, ``value``), ``w`` px wide, in ``lang``."""
    h = _card_h(w)
    if card.get("kind") == "bottle":
        return bottle_face(int(card.get("value") or card.get("points") or 0), w, h)
    return character_face(str(card.get("name", "?")), int(card.get("points", 0)), w, h, lang)


# --- card pieces on the table -------------------------------------------------------------------------------


_SHADOW_BLUR, _SHADOW_DY, _SHADOW_ALPHA = 4, 4, 140
_SHADOW_M = 2 * _SHADOW_BLUR


def _shadowed(sprite: Image.Image) -> Image.Image:
    """``sprite`` on a transparent canvas with its soft shadow, offset by ``_SHADOW_M`` on the top left."""
    return with_shadow(sprite, CARD_RADIUS, _SHADOW_BLUR, _SHADOW_DY, _SHADOW_ALPHA)


@lru_cache(maxsize=64)
def _back_shadowed(w: int) -> Image.Image:
    return _shadowed(card_back(w, _card_h(w)))


@lru_cache(maxsize=256)
def _face_shadowed(kind: str, name: str, points: int, value: int, w: int, lang: str) -> Image.Image:
    if kind == "bottle":
        return _shadowed(bottle_face(value, w, _card_h(w)))
    return _shadowed(character_face(name, points, w, _card_h(w), lang))


def _put(img: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    """Paste a shadowed sprite so that its card's top left corner lands on ``(x, y)``."""
    paste(img, sprite, x - _SHADOW_M, y - _SHADOW_M)


def _place_face(img: Image.Image, card: dict[str, Any], x: int, y: int, w: int, lang: str) -> None:
    """A face-up card from view data with its shadow, its words in ``lang``."""
    kind = str(card.get("kind", ""))
    value = int(card.get("value") or card.get("points") or 0) if kind == "bottle" else 0
    _put(img, _face_shadowed(kind, str(card.get("name", "?")), int(card.get("points", 0)), value, w, lang), x, y)


def _place_back(img: Image.Image, x: int, y: int, w: int, shadow: bool = True) -> None:
    """A face-down card, with or without its shadow."""
    if shadow:
        _put(img, _back_shadowed(w), x, y)
    else:
        paste(img, card_back(w, _card_h(w)), x, y)


@lru_cache(maxsize=256)
def _slot_sprite(w: int, number: int, police: bool, lang: str = "en") -> Image.Image:
    """A face-down card in a player's slot with its slot number; a Police Check band if held."""
    sprite = _back_shadowed(w).copy()
    h = _card_h(w)
    d = ImageDraw.Draw(sprite)
    x = y = _SHADOW_M
    cx = x + w / 2
    cy = y + h * 0.5
    r = w * 0.27
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CREAM, outline=BACK_GOLD, width=2)
    size = max(FS_CARD_MIN, min(38, round(w * 0.33)))
    if number >= 10:
        size = max(FS_CARD_MIN, round(size * 0.85))
    d.text((cx, cy + 1), str(number), font=fonts.get(size, "bold"), fill=INK, anchor="mm")
    if police:
        d.rounded_rectangle((x - 3, y - 3, x + w + 2, y + h + 2), CARD_RADIUS + 2, outline=POLICE_LIGHT, width=4)
        by0 = y + h * 0.74
        by1 = y + h * 0.92
        d.rectangle((x + 2, by0, x + w - 3, by1), fill=POLICE_BLUE)
        d.line((x + 2, by0, x + w - 3, by0), fill=POLICE_LIGHT, width=2)
        d.line((x + 2, by1, x + w - 3, by1), fill=POLICE_LIGHT, width=2)
        band = words(lang)(M("render.omerta.police_band", "POLICE"))
        text, fsize = fit_text(band, w - 8, (FS_POLICE + 4, FS_POLICE + 2, FS_POLICE, 16, 14), "cond_bold")
        d.text((cx, (by0 + by1) / 2), text, font=fonts.get(fsize, "cond_bold"), fill=(255, 255, 255), anchor="mm")
    return sprite


def _slot_card(img: Image.Image, x: int, y: int, w: int, number: int, police: bool, lang: str) -> None:
    _put(img, _slot_sprite(w, number, police, lang), x, y)


def _empty_slot(img: Image.Image, x: int, y: int, w: int, number: int | None) -> None:
    h = _card_h(w)
    d = ImageDraw.Draw(img)
    dashed_rounded_rect(d, (x, y, x + w - 1, y + h - 1), CARD_RADIUS, MUTED, width=3, dash=12, gap=8)
    if number is not None:
        size = max(FS_CARD_MIN, min(34, round(w * 0.3)))
        d.text((x + w / 2, y + h / 2), str(number), font=fonts.get(size, "bold"), fill=MUTED, anchor="mm")


@lru_cache(maxsize=16)
def _hidden_sprite(w: int) -> Image.Image:
    sprite = _back_shadowed(w).copy()
    d = ImageDraw.Draw(sprite)
    h = _card_h(w)
    cx, cy, r = _SHADOW_M + w / 2, _SHADOW_M + h / 2, w * 0.27
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD, outline=CREAM, width=2)
    size = max(FS_CARD_MIN, min(38, round(w * 0.36)))
    d.text((cx, cy + 1), "?", font=fonts.get(size, "bold"), fill=INK, anchor="mm")
    return sprite


def _hidden_marker(img: Image.Image, x: int, y: int, w: int) -> None:
    """A face-down card whose face the viewer may not see: a back with a question mark."""
    _put(img, _hidden_sprite(w), x, y)


# --- layout helpers -----------------------------------------------------------------------------------------


def _grid(n: int, avail: int, pref: int, minimum: int, gap: int) -> tuple[int, int, int]:
    """Card width, cards per line and lines for ``n`` cards in ``avail`` px."""
    if n <= 0:
        return pref, 0, 1
    per_line = max(1, (avail + gap) // (minimum + gap))
    lines = math.ceil(n / per_line)
    per_line = math.ceil(n / lines)
    w = min(pref, (avail - gap * (per_line - 1)) // per_line)
    return w, per_line, lines


def _header(img: Image.Image, title: str, subtitle: str = "") -> None:
    d = ImageDraw.Draw(img)
    height = HEADER_H if not subtitle else HEADER_H + 36
    d.rectangle((0, 0, img.width, height), fill=HEADER)
    d.rectangle((0, height, img.width, height + 3), fill=GOLD)
    mark = "OMERTA"
    mark_font = fonts.get(FS_WORDMARK, "serif_bold")
    mw = mark_font.getlength(mark)
    d.text((img.width - MARGIN, 48), mark, font=mark_font, fill=GOLD, anchor="rm")
    text, size = fit_text(title, img.width - 2 * MARGIN - mw - 40, (FS_TITLE, 40, 36, 32, 28), "serif_bold")
    d.text((MARGIN, 48), text, font=fonts.get(size, "serif_bold"), fill=CREAM, anchor="lm")
    if subtitle:
        sub, ssize = fit_text(subtitle, img.width - 2 * MARGIN, (FS_SUBTITLE, 22, 18), "regular")
        d.text((MARGIN, 104), sub, font=fonts.get(ssize, "regular"), fill=CREAM_DIM, anchor="lm")


def _section_label(d: ImageDraw.ImageDraw, x: float, y: float, text: str, anchor: str = "ls") -> None:
    d.text((x, y), text, font=fonts.get(FS_SECTION, "cond_bold"), fill=GOLD, anchor=anchor)


def _round_scores(p: dict[str, Any], max_w: float, w: Words) -> tuple[str, int]:
    """Per-round scores ("R1: 12   R2: 0"), or a shorter form when many rounds do not fit ``max_w``."""
    done = p.get("round_scores", [])
    if not done:
        return w(M("render.omerta.no_round", "No round scored yet")), FS_ROUNDS
    long = "   ".join(w(M("render.omerta.round_score", "R{k}: {score}", k=k + 1, score=s)) for k, s in enumerate(done))
    text, size = fit_text(long, max_w, (FS_ROUNDS, 18, 16), "regular")
    if text == long:
        return text, size
    short = w(M("render.omerta.round_scores", "Rounds: {scores}", scores=" · ".join(str(s) for s in done)))
    return fit_text(short, max_w, (FS_ROUNDS, 18, 16), "regular")


def _player_panel(
    img: Image.Image,
    x: int,
    y: int,
    w: int,
    p: dict[str, Any],
    letter: str,
    tags: list[tuple[str, RGB, RGB]],
    say: Words,
) -> None:
    """Badge, name, gangster, total, round scores and tags of one player, in a ``w`` px wide column."""
    d = ImageDraw.Draw(img)
    seat = int(p["seat"])
    bsize = 68
    badge(img, x + bsize // 2, y + bsize // 2 + 2, bsize, seat, letter, FS_BADGE)
    # total on the right
    total = say(M("render.omerta.label_total", "TOTAL"))
    d.text((x + w, y + 4), total, font=fonts.get(FS_SMALL_LABEL, "cond_bold"), fill=MUTED, anchor="rt")
    d.text((x + w, y + 24), str(p.get("total", 0)), font=fonts.get(FS_TOTAL, "bold"), fill=CREAM, anchor="rt")
    total_w = max(70, fonts.get(FS_TOTAL, "bold").getlength(str(p.get("total", 0))))
    tx = x + bsize + 16
    name_w = x + w - total_w - 16 - tx
    name, nsize = fit_text(str(p["name"]), name_w, (FS_NAME, 34, 30, 26, 22), "bold")
    d.text((tx, y + 4), name, font=fonts.get(nsize, "bold"), fill=CREAM, anchor="lt")
    gang, gsize = fit_text(say(gangster_name(p)), name_w, (FS_GANGSTER, 20, 18), "serif_italic")
    d.text((tx, y + 50), gang, font=fonts.get(gsize, "serif_italic"), fill=GOLD, anchor="lt")
    rs, rsize = _round_scores(p, w, say)
    d.text((x, y + 92), rs, font=fonts.get(rsize, "regular"), fill=CREAM_DIM, anchor="lt")
    tx = x
    for text, fill, ink in tags:
        tx += pill(d, tx, y + 134, text, FS_TAG, fill, ink) + 8


PANEL_W = 430
PANEL_H = 152


# --- the table ----------------------------------------------------------------------------------------------


def _draw_pile(img: Image.Image, x: int, y: int, w: int, count: int, say: Words) -> None:
    d = ImageDraw.Draw(img)
    h = _card_h(w)
    _section_label(d, x, y - 12, say(M("render.omerta.label_draw_pile", "DRAW PILE")))
    if count <= 0:
        _empty_slot(img, x, y, w, None)
    else:
        layers = min(3, count)
        for k in range(layers - 1, -1, -1):
            _place_back(img, x + 4 * k, y - 4 * k + 8, w, shadow=k == layers - 1)
    d.text((x + w / 2, y + h + 30), str(count), font=fonts.get(FS_COUNT, "bold"), fill=CREAM, anchor="mm")
    word = say(P("render.omerta.cards_left", "card left", "cards left", count))
    d.text((x + w / 2, y + h + 64), word, font=fonts.get(FS_COUNT_LABEL, "regular"), fill=CREAM_DIM, anchor="mm")


def _discard_pile(img: Image.Image, x: int, y: int, w: int, top: dict[str, Any] | None, count: int, say: Words) -> None:
    d = ImageDraw.Draw(img)
    h = _card_h(w)
    _section_label(d, x, y - 12, say(M("render.omerta.label_discard_pile", "DISCARD PILE")))
    if top is None:
        _empty_slot(img, x, y + 8, w, None)
    else:
        if count > 1:
            _place_back(img, x + 5, y + 12, w)
        _place_face(img, top, x, y + 8, w, say.lang)
    d.text(
        (x + w / 2, y + h + 30),
        say(card_name(top)) if top else say(M("render.omerta.empty", "empty")),
        font=fonts.get(FS_COUNT_LABEL + 4, "bold"),
        fill=CREAM,
        anchor="mm",
    )
    d.text(
        (x + w / 2, y + h + 64),
        say(P("render.omerta.in_pile", "{n} card in the pile", "{n} cards in the pile", count)),
        font=fonts.get(FS_COUNT_LABEL, "regular"),
        fill=CREAM_DIM,
        anchor="mm",
    )


def _safe(img: Image.Image, x: int, y: int, view: dict[str, Any], say: Words) -> int:
    """The Safe: 4 face-down cards in a steel frame (face up while its viewer looks into it). Returns width."""
    d = ImageDraw.Draw(img)
    look = view.get("look") or None
    count = int(view.get("safe_count", 4))
    faces = list(look["safe"]) if look else []
    pick = look.get("pick", -1) if look else -1
    n = max(count, len(faces))
    w, gap, pad = 104, 12, 18
    h = _card_h(w)
    fw = n * w + (n - 1) * gap + 2 * pad
    fh = h + 2 * pad + 8
    drop_shadow(img, x, y, fw, fh, 16, blur=6, dy=5)
    paste(img, rounded_sprite(fw, fh, 16, (58, 64, 70), (150, 158, 166), 3), x, y)
    _section_label(d, x, y - 12, say(M("render.omerta.label_safe", "THE SAFE")))
    for k in range(n):
        cx = x + pad + k * (w + gap)
        cy = y + pad + 4
        if k < len(faces):
            _place_face(img, faces[k], cx, cy, w, say.lang)
            if k == pick:
                d.rounded_rectangle((cx - 4, cy - 4, cx + w + 3, cy + h + 3), CARD_RADIUS + 3, outline=GOLD, width=4)
        else:
            _place_back(img, cx, cy, w)
    d.text(
        (x + fw / 2, y + fh + 30),
        say(P("render.omerta.safe_down", "{n} face-down card", "{n} face-down cards", count))
        if not faces
        else say(M("render.omerta.safe_seen", "You see the Safe")),
        font=fonts.get(FS_COUNT_LABEL, "regular"),
        fill=CREAM_DIM,
        anchor="mm",
    )
    return fw


def _callout(
    img: Image.Image,
    x0: int,
    y0: int,
    x1: int,
    y1: int,
    label: str,
    text: str,
    view: dict[str, Any],
    letters: list[str],
    say: Words,
) -> None:
    d = ImageDraw.Draw(img)
    paste(img, rounded_sprite(x1 - x0, y1 - y0, 18, (10, 40, 26), (58, 110, 78), 2), x0, y0)
    pad = 22
    tx = x0 + pad
    active = view.get("active")
    if view["phase"] not in ("peek", "over", "snap") and active is not None and 0 <= active < len(letters):
        badge(img, x0 + pad + 26, y0 + pad + 26, 52, active, letters[active], 26)
        tx += 64
    head, hsize = fit_text(label, x1 - tx - pad, (FS_SECTION + 4, FS_SECTION, 18), "cond_bold")
    d.text((tx, y0 + pad + 26), head, font=fonts.get(hsize, "cond_bold"), fill=GOLD, anchor="lm")
    body_top = y0 + pad + 66
    if view["phase"] == "snap" and view.get("snap_value"):
        # a big reminder of the value to snap
        bw = 96
        value = int(view["snap_value"])
        _place_face(
            img,
            {"kind": "bottle", "points": value, "value": value},
            x1 - pad - bw,
            body_top - 6,
            bw,
            say.lang,
        )
        x1 -= bw + 16
    foot = say(
        M("render.omerta.foot", "Lowest total wins · OMERTA needs {n} points or fewer", n=_num(view, "omerta_limit"))
    )
    foot_y = y1 - pad
    lines, size = fit_lines(
        text, x1 - x0 - 2 * pad, foot_y - FS_ROUNDS - 12 - body_top, (FS_CALLOUT, 30, 28, 26, 24, 22, 20), "regular"
    )
    for k, line in enumerate(lines):
        d.text((x0 + pad, body_top + k * size * 1.25), line, font=fonts.get(size, "regular"), fill=CREAM, anchor="lt")
    foot, fsize = fit_text(foot, x1 - x0 - 2 * pad, (FS_ROUNDS, 18, 16), "regular")
    d.text((x0 + pad, foot_y), foot, font=fonts.get(fsize, "regular"), fill=MUTED, anchor="ls")


def _player_tags(view: dict[str, Any], p: dict[str, Any], say: Words) -> list[tuple[str, RGB, RGB]]:
    tags: list[tuple[str, RGB, RGB]] = []
    seat = p["seat"]
    phase = view["phase"]
    if phase not in ("peek", "over") and seat == view.get("active"):
        if phase == "snap":
            tags.append((say(M("render.omerta.tag_discarded", "JUST DISCARDED")), GOLD, INK))
        else:
            tags.append((say(M("render.omerta.tag_to_play", "TO PLAY")), GOLD, INK))
    if p.get("skip_next"):
        tags.append((say(M("render.omerta.tag_skips", "SKIPS NEXT TURN")), AMBER, INK))
    if phase == "peek":
        tags.append(
            (
                say(M("render.omerta.tag_peeked", "PEEKED"))
                if p.get("peeked")
                else say(M("render.omerta.tag_peeking", "PEEKING…")),
                (40, 96, 66) if p.get("peeked") else AMBER,
                CREAM if p.get("peeked") else INK,
            )
        )
    if view.get("viewer") == seat:
        tags.append((say(M("render.omerta.tag_you", "YOU")), CREAM, INK))
    if any(s.get("police") for s in p.get("slots", [])):
        tags.append((say(M("render.omerta.tag_police", "POLICE CHECK")), POLICE_BLUE, (255, 255, 255)))
    return tags


def _holding(view: dict[str, Any]) -> bool:
    return bool(view.get("holding") or view.get("holding_hidden"))


_SLOT_PREF, _SLOT_MIN, _SLOT_GAP = 108, 84, 12
_ROW_PAD = 12
_ROW_GAP = 12
_HELD_W = 150


def _row_geometry(view: dict[str, Any], p: dict[str, Any]) -> tuple[int, int, int, int]:
    """(card width, cards per line, lines, row height) of one player's row."""
    avail = WIDTH - 2 * MARGIN - PANEL_W - 3 * _ROW_PAD - 24
    if p["seat"] == view.get("active") and _holding(view):
        avail -= _HELD_W
    n = len(p.get("slots", []))
    w, per_line, lines = _grid(n, avail, _SLOT_PREF, _SLOT_MIN, _SLOT_GAP)
    cards_h = lines * _card_h(w) + (lines - 1) * _SLOT_GAP
    return w, per_line, lines, max(PANEL_H, cards_h + 8) + 2 * _ROW_PAD


def _player_row(
    img: Image.Image,
    y: int,
    height: int,
    view: dict[str, Any],
    p: dict[str, Any],
    letter: str,
    geometry: tuple[int, int, int, int],
    say: Words,
) -> None:
    d = ImageDraw.Draw(img)
    seat = p["seat"]
    active = view["phase"] not in ("peek", "over") and seat == view.get("active")
    x0, x1 = MARGIN, WIDTH - MARGIN
    if active:
        drop_shadow(img, x0, y, x1 - x0, height, 16, blur=10, dy=0, strength=90)
    paste(
        img,
        rounded_sprite(
            x1 - x0, height, 16, ROW_ACTIVE if active else ROW, GOLD if active else ROW_LINE, 4 if active else 2
        ),
        x0,
        y,
    )
    colour = player_colour(seat)
    d.rounded_rectangle((x0 + 6, y + 12, x0 + 14, y + height - 12), 4, fill=colour)
    _player_panel(img, x0 + 30, y + _ROW_PAD, PANEL_W - 30, p, letter, _player_tags(view, p, say), say)
    sep = x0 + PANEL_W + _ROW_PAD
    d.line((sep, y + 16, sep, y + height - 16), fill=ROW_LINE, width=2)
    w, per_line, lines, _ = geometry
    slots = p.get("slots", [])
    cx0 = sep + _ROW_PAD + 8
    h = _card_h(w)
    cards_h = lines * h + (lines - 1) * _SLOT_GAP
    cy0 = y + (height - cards_h) // 2
    if not slots:
        none = say(M("render.omerta.no_slots", "No card slots"))
        d.text((cx0, y + height / 2), none, font=fonts.get(FS_EMPTY, "regular"), fill=MUTED, anchor="lm")
    elif p.get("card_count", 1) == 0:
        none = say(M("render.omerta.no_cards_left", "NO CARDS LEFT"))
        d.text((x1 - 24, y + height - 14), none, font=fonts.get(FS_TAG, "cond_bold"), fill=MUTED, anchor="rb")
    for k, s in enumerate(slots):
        line, col = divmod(k, max(1, per_line))
        sx = cx0 + col * (w + _SLOT_GAP)
        sy = cy0 + line * (h + _SLOT_GAP)
        number = int(s.get("index", k)) + 1
        if s.get("empty"):
            _empty_slot(img, sx, sy, w, number)
        else:
            _slot_card(img, sx, sy, w, number, bool(s.get("police")), say.lang)
    if seat == view.get("active") and _holding(view):
        hw = min(w, 112)
        hx = x1 - _ROW_PAD - 12 - hw
        hy = y + (height - _card_h(hw)) // 2
        held = view.get("holding")
        if held:
            _place_face(img, held, hx, hy, hw, say.lang)
        else:
            _hidden_marker(img, hx, hy, hw)
        # a label and an arrow from the held card towards the slots
        ax = hx - 14
        ay = hy + _card_h(hw) // 2 + 14
        d.polygon([(ax, ay - 14), (ax, ay + 14), (ax - 18, ay)], fill=GOLD)
        if view["phase"] == "taken":
            label = say(M("render.omerta.label_held_taken", "TAKEN"))
        else:
            label = say(M("render.omerta.label_held_drawn", "DRAWN"))
        d.text((ax, ay - 24), label, font=fonts.get(FS_TAG, "cond_bold"), fill=GOLD, anchor="rs")


_STRIP_TOP = HEADER_H + 3 + 52
_PILE_W = 150


def _table_image(view: dict[str, Any]) -> Image.Image:
    players = view["players"]
    letters = badge_letters(_names(view))
    geometries = [_row_geometry(view, p) for p in players]
    strip_h = _card_h(_PILE_W) + 96
    rows_top = _STRIP_TOP + strip_h + 28
    height = rows_top + sum(g[3] for g in geometries) + _ROW_GAP * (len(players) - 1) + MARGIN
    img = felt(WIDTH, height, FELT_CENTRE, FELT_EDGE).copy()
    say = words_of(view)
    title, label, text = describe(view)
    _header(img, title)
    _draw_pile(img, MARGIN + 12, _STRIP_TOP, _PILE_W, int(view.get("draw_count", 0)), say)
    _discard_pile(
        img,
        MARGIN + 12 + _PILE_W + 56,
        _STRIP_TOP,
        _PILE_W,
        view.get("discard_top"),
        int(view.get("discard_count", 0)),
        say,
    )
    safe_w = 4 * 104 + 3 * 12 + 36
    safe_x = WIDTH - MARGIN - safe_w - 4
    _safe(img, safe_x, _STRIP_TOP + 8, view, say)
    cx0 = MARGIN + 12 + 2 * _PILE_W + 56 + 44
    _callout(
        img, cx0, _STRIP_TOP - 10, safe_x - 36, _STRIP_TOP + _card_h(_PILE_W) + 78, label, text, view, letters, say
    )
    y = rows_top
    for p, g in zip(players, geometries, strict=True):
        _player_row(img, y, g[3], view, p, letters[p["seat"]], g, say)
        y += g[3] + _ROW_GAP
    return img


def render_table(view: dict[str, Any]) -> bytes:
    """The Omerta table as a PNG, drawn only from ``view`` (an engine view; the spectator view for the channel).

    Shows the round and whose turn it is, every player's face-down slots (numbered, empty, under Police
    Check), scores and tags, the discard pile's top card, the draw pile, the Safe and the card the active
    player holds (face up only when ``view["holding"]`` is set, i.e. the viewer may see it).
    """
    return encode_png(_table_image(view))


# --- the reveal ---------------------------------------------------------------------------------------------

_REV_PANEL_W = 400
_REV_COL_W = 132
_REV_PREF, _REV_MIN, _REV_GAP = 100, 80, 10


def _num(view: dict[str, Any], key: str) -> int:
    """A rule number the view carries (from the game's data file)."""
    return int(view["numbers"][key])


def _reveal_words(view: dict[str, Any], reveal: dict[str, Any]) -> tuple[Msg, Msg]:
    names = _names(view)
    title = M(
        "render.omerta.reveal_title",
        "Round {round} of {rounds} · Cards on the table",
        round=reveal["round"],
        rounds=view["rounds"],
    )
    caller = reveal.get("caller")
    if caller is None:
        return title, M(
            "render.omerta.reveal_dry", "Nobody called OMERTA: the draw pile ran dry, so everyone scores their points."
        )
    pts = reveal["players"][caller]["points"]
    who = names[caller]
    if reveal.get("caller_made_it"):
        return title, M(
            "render.omerta.reveal_made",
            "{name} called OMERTA with {points} points and made it: {name} scores 0.",
            name=who,
            points=pts,
        )
    score = reveal["players"][caller]["score"]
    penalty = _num(view, "caller_penalty")
    failed = M(
        "render.omerta.reveal_failed",
        "{name} called OMERTA with {points} points and failed: {points} + {penalty} = {score}. Fewest points score 0.",
        name=who,
        points=pts,
        penalty=penalty,
        score=score,
    )
    return title, failed


def _reveal_geometry(n: int) -> tuple[int, int, int, int]:
    avail = WIDTH - 2 * MARGIN - _REV_PANEL_W - 3 * _REV_COL_W - 4 * _ROW_PAD
    w, per_line, lines = _grid(n, avail, _REV_PREF, _REV_MIN, _REV_GAP)
    cards_h = lines * _card_h(w) + (lines - 1) * _REV_GAP
    return w, per_line, lines, max(140, cards_h + 8) + 2 * _ROW_PAD


def _standings(view: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """(place, player) sorted by total, lowest first; equal totals share a place."""
    ordered = sorted(view["players"], key=lambda p: (p.get("total", 0), p["seat"]))
    out: list[tuple[int, dict[str, Any]]] = []
    for k, p in enumerate(ordered):
        if k and p.get("total", 0) == ordered[k - 1].get("total", 0):
            out.append((out[-1][0], p))
        else:
            out.append((k + 1, p))
    return out


_STANDING_H = 62
_ROUND_COL_W = 130  # the final standings' column of one round


def _reveal_image(view: dict[str, Any]) -> Image.Image:
    reveal = view.get("reveal")
    if not reveal:
        raise ValueError("the view has no reveal: no round has ended yet")
    players = view["players"]
    letters = badge_letters(_names(view))
    rows = {int(r["seat"]): r for r in reveal["players"]}
    geometries = [_reveal_geometry(len(rows.get(int(p["seat"]), {}).get("cards", []))) for p in players]
    over = bool(view.get("over"))
    top = HEADER_H + 36 + 3 + 60
    height = top + sum(g[3] for g in geometries) + _ROW_GAP * (len(players) - 1) + MARGIN
    if over:
        height += 80 + 24 + len(players) * (_STANDING_H + 8) + 8
    img = felt(WIDTH, height, FELT_CENTRE, FELT_EDGE).copy()
    say = words_of(view)
    title_msg, sub_msg = _reveal_words(view, reveal)
    title, sub = say(title_msg), say(sub_msg)
    if over:
        title = say(M("render.omerta.over_title", "Game over · {winners}", winners=_winners_msg(view)))
        sub = say(
            M(
                "render.omerta.over_sub",
                "Round {round} of {rounds}: {text}",
                round=reveal["round"],
                rounds=view["rounds"],
                text=sub_msg,
            )
        )
    _header(img, title, sub)
    d = ImageDraw.Draw(img)
    x0, x1 = MARGIN, WIDTH - MARGIN
    cols = [x1 - _ROW_PAD - k * _REV_COL_W - _REV_COL_W // 2 for k in (2, 1, 0)]
    heads = (
        M("render.omerta.label_points", "POINTS"),
        M("render.omerta.label_score", "SCORE"),
        M("render.omerta.label_total", "TOTAL"),
    )
    for cx, head in zip(cols, heads, strict=True):
        _section_label(d, cx, top - 16, say(head), "ms")
    _section_label(
        d, x0 + _REV_PANEL_W + 2 * _ROW_PAD, top - 16, say(M("render.omerta.label_face_up", "CARDS, FACE UP"))
    )
    caller = reveal.get("caller")
    y = top
    for p, g in zip(players, geometries, strict=True):
        seat = int(p["seat"])
        r = rows.get(seat, {"cards": [], "points": 0, "score": 0})
        w, per_line, lines, rh = g
        is_caller = caller == seat
        edge = (MADE_IT if reveal.get("caller_made_it") else FAILED) if is_caller else ROW_LINE
        paste(
            img, rounded_sprite(x1 - x0, rh, 16, ROW_ACTIVE if is_caller else ROW, edge, 5 if is_caller else 2), x0, y
        )
        d.rounded_rectangle((x0 + 6, y + 12, x0 + 14, y + rh - 12), 4, fill=player_colour(seat))
        tags: list[tuple[str, RGB, RGB]] = []
        if is_caller:
            tags.append((say(M("render.omerta.tag_called", "CALLED OMERTA")), GOLD, INK))
            if reveal.get("caller_made_it"):
                tags.append((say(M("render.omerta.tag_made_it", "MADE IT")), MADE_IT, (255, 255, 255)))
            else:
                failed = say(M("render.omerta.tag_failed", "FAILED +{n}", n=_num(view, "caller_penalty")))
                tags.append((failed, FAILED, (255, 255, 255)))
        elif caller is not None and not reveal.get("caller_made_it") and r.get("score") == 0 and r.get("points"):
            tags.append((say(M("render.omerta.tag_fewest", "FEWEST POINTS: 0")), MADE_IT, (255, 255, 255)))
        _reveal_panel(img, x0 + 30, y + _ROW_PAD, _REV_PANEL_W - 30, p, letters[seat], tags, say)
        sep = x0 + _REV_PANEL_W + _ROW_PAD
        d.line((sep, y + 16, sep, y + rh - 16), fill=ROW_LINE, width=2)
        cards = r.get("cards", [])
        h = _card_h(w)
        cards_h = lines * h + (lines - 1) * _REV_GAP
        cy0 = y + (rh - cards_h) // 2
        if not cards:
            d.text(
                (sep + _ROW_PAD + 8, y + rh / 2),
                say(M("render.omerta.reveal_no_cards", "No cards: 0 points")),
                font=fonts.get(FS_EMPTY, "regular"),
                fill=MUTED,
                anchor="lm",
            )
        for k, c in enumerate(cards):
            line, col = divmod(k, max(1, per_line))
            _place_face(img, c, sep + _ROW_PAD + 8 + col * (w + _REV_GAP), cy0 + line * (h + _REV_GAP), w, say.lang)
        sep2 = cols[0] - _REV_COL_W // 2
        d.line((sep2, y + 16, sep2, y + rh - 16), fill=ROW_LINE, width=2)
        mid = y + rh / 2
        score_colour = CREAM
        if is_caller:
            score_colour = MADE_IT if reveal.get("caller_made_it") else FAILED
        for cx, value, colour in zip(
            cols,
            (r.get("points", 0), r.get("score", 0), p.get("total", 0)),
            (CREAM_DIM, score_colour, CREAM),
            strict=True,
        ):
            d.text((cx, mid), str(value), font=fonts.get(FS_SCORE, "bold"), fill=colour, anchor="mm")
        y += rh + _ROW_GAP
    if over:
        _final_standings(img, y + 16, view, letters, say)
    return img


def _reveal_panel(
    img: Image.Image,
    x: int,
    y: int,
    w: int,
    p: dict[str, Any],
    letter: str,
    tags: list[tuple[str, RGB, RGB]],
    say: Words,
) -> None:
    d = ImageDraw.Draw(img)
    seat = int(p["seat"])
    bsize = 64
    badge(img, x + bsize // 2, y + bsize // 2 + 2, bsize, seat, letter, FS_BADGE)
    tx = x + bsize + 16
    name, nsize = fit_text(str(p["name"]), x + w - tx, (FS_NAME, 34, 30, 26, 22), "bold")
    d.text((tx, y + 4), name, font=fonts.get(nsize, "bold"), fill=CREAM, anchor="lt")
    gang, gsize = fit_text(say(gangster_name(p)), x + w - tx, (FS_GANGSTER, 20, 18), "serif_italic")
    d.text((tx, y + 50), gang, font=fonts.get(gsize, "serif_italic"), fill=GOLD, anchor="lt")
    rs, rsize = _round_scores(p, w, say)
    d.text((x, y + 86), rs, font=fonts.get(rsize, "regular"), fill=CREAM_DIM, anchor="lt")
    tx = x
    for text, fill, ink in tags:
        tx += pill(d, tx, y + 122, text, FS_TAG, fill, ink) + 8


def _trophy(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    s = size
    d.pieslice((cx - s * 0.42, cy - s * 0.75, cx + s * 0.42, cy + s * 0.1), 0, 180, fill=WINNER)
    d.rectangle((cx - s * 0.42, cy - s * 0.5, cx + s * 0.42, cy - s * 0.32), fill=WINNER)
    d.arc(
        (cx - s * 0.62, cy - s * 0.5, cx - s * 0.22, cy - s * 0.05), 90, 270, fill=WINNER, width=max(2, int(s * 0.08))
    )
    d.arc(
        (cx + s * 0.22, cy - s * 0.5, cx + s * 0.62, cy - s * 0.05), 270, 90, fill=WINNER, width=max(2, int(s * 0.08))
    )
    d.rectangle((cx - s * 0.07, cy + s * 0.05, cx + s * 0.07, cy + s * 0.3), fill=WINNER)
    d.rounded_rectangle((cx - s * 0.3, cy + s * 0.3, cx + s * 0.3, cy + s * 0.42), 2, fill=WINNER)


def _round_columns(rounds: int, x0: int, x1: int) -> list[int]:
    """The centres of the final standings' round columns, left of the total, narrower when many rounds."""
    col_w = min(_ROUND_COL_W, (x1 - x0 - 760) // max(1, rounds))
    return [x1 - 170 - (rounds - 1 - k) * col_w - col_w // 2 for k in range(rounds)]


def _final_standings(img: Image.Image, y: int, view: dict[str, Any], letters: list[str], say: Words) -> None:
    d = ImageDraw.Draw(img)
    x0, x1 = MARGIN, WIDTH - MARGIN
    head = say(M("render.omerta.final_standings", "Final standings"))
    d.text((x0, y + 30), head, font=fonts.get(FS_TITLE - 6, "serif_bold"), fill=CREAM, anchor="lm")
    lowest = say(M("render.omerta.lowest_wins", "Lowest total wins"))
    d.text((x1, y + 30), lowest, font=fonts.get(FS_SUBTITLE, "regular"), fill=CREAM_DIM, anchor="rm")
    y += 64 + 24
    # the standings over all rounds: one column per round, then the total (issue 11)
    rounds = max((len(p.get("round_scores", [])) for p in view["players"]), default=0)
    cols = _round_columns(rounds, x0, x1)
    long = len(cols) < 2 or cols[1] - cols[0] >= 110  # many rounds (a table option): "R7" instead of "ROUND 7"
    for k, cx in enumerate(cols):
        if long:
            head = say(M("render.omerta.label_round", "ROUND {k}", k=k + 1))
        else:
            head = say(M("render.omerta.label_round_short", "R{k}", k=k + 1))
        _section_label(d, cx, y - 6, head, "ms")
    _section_label(d, x1 - 30, y - 6, say(M("render.omerta.label_total", "TOTAL")), "rs")
    winners = set(view.get("winners", []))
    for place, p in _standings(view):
        seat = int(p["seat"])
        win = seat in winners
        fill = (70, 62, 30) if win else ROW
        paste(img, rounded_sprite(x1 - x0, _STANDING_H, 14, fill, WINNER if win else ROW_LINE, 3 if win else 2), x0, y)
        mid = y + _STANDING_H // 2
        d.text(
            (x0 + 50, mid), f"{place}.", font=fonts.get(FS_STANDING, "bold"), fill=WINNER if win else CREAM, anchor="mm"
        )
        badge(img, x0 + 120, mid, 54, seat, letters[seat], 28)
        d.text((x0 + 164, mid), str(p["name"]), font=fonts.get(FS_STANDING, "bold"), fill=CREAM, anchor="lm")
        nx = x0 + 164 + fonts.get(FS_STANDING, "bold").getlength(str(p["name"])) + 24
        if win:
            _trophy(d, nx + 20, mid + 4, 44)
            nx += 52
            pill(d, int(nx), mid, say(M("render.omerta.tag_winner", "WINNER")), FS_TAG + 2, WINNER, INK)
        for cx, score in zip(cols, p.get("round_scores", []), strict=False):
            d.text((cx, mid), str(score), font=fonts.get(FS_ROUNDS + 2, "regular"), fill=CREAM_DIM, anchor="mm")
        d.text(
            (x1 - 30, mid),
            str(p.get("total", 0)),
            font=fonts.get(FS_STANDING + 6, "bold"),
            fill=WINNER if win else CREAM,
            anchor="rm",
        )
        y += _STANDING_H + 8


def render_reveal(view: dict[str, Any]) -> bytes:
    """The end of the last round as a PNG: everyone's cards face up, points, round scores and totals.

    The caller's row is highlighted with whether they made it; when ``view["over"]`` the final standings
    with the winners follow. Raises ``ValueError`` if ``view["reveal"]`` is empty (no round has ended).
    """
    return encode_png(_reveal_image(view))


# --- async --------------------------------------------------------------------------------------------------


async def render_table_async(view: dict[str, Any]) -> bytes:
    """``render_table`` in a worker thread, so the event loop keeps serving Discord."""
    return await asyncio.to_thread(render_table, view)


async def render_reveal_async(view: dict[str, Any]) -> bytes:
    """``render_reveal`` in a worker thread, so the event loop keeps serving Discord."""
    return await asyncio.to_thread(render_reveal, view)


def clear_caches() -> None:
    """Forget every cached sprite and font (tests use it to observe every font size drawn)."""
    for f in (card_back, bottle_face, character_face, _back_shadowed, _face_shadowed, _slot_sprite, _hidden_sprite):
        f.cache_clear()
    from render import draw

    for g in (draw.rounded_sprite, draw.shadow_mask, draw.badge_sprite, draw.felt, draw._text_mask, draw._width):
        g.cache_clear()
    fonts.clear_cache()
