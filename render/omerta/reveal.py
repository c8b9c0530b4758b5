"""The reveal picture (``render_reveal``): everyone's cards face up at a round's end, then the final standings."""

from __future__ import annotations

import asyncio
from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render.draw import (
    RGB,
    badge,
    badge_letters,
    encode_png,
    felt,
    fit_text,
    paste,
    pill,
    player_colour,
    rounded_sprite,
)
from render.omerta.cards import place_face
from render.omerta.colours import (
    CREAM,
    CREAM_DIM,
    FAILED,
    FELT_CENTRE,
    FELT_EDGE,
    GOLD,
    INK,
    MADE_IT,
    MUTED,
    ROW,
    ROW_ACTIVE,
    ROW_LINE,
    WINNER,
)
from render.omerta.describe import player_names, rule_number, winners_msg
from render.omerta.layout import (
    FS_BADGE,
    FS_EMPTY,
    FS_GANGSTER,
    FS_NAME,
    FS_ROUNDS,
    FS_SCORE,
    FS_STANDING,
    FS_SUBTITLE,
    FS_TAG,
    FS_TITLE,
    HEADER_H,
    MARGIN,
    ROW_GAP,
    ROW_PAD,
    WIDTH,
    card_h,
    grid,
)
from render.omerta.parts import header, round_scores, section_label
from render.omerta_words import gangster_name, words_of
from words import Words
from words.msg import M, Msg

_REV_PANEL_W = 400
_REV_COL_W = 132
_REV_PREF, _REV_MIN, _REV_GAP = 100, 80, 10


def _reveal_words(view: dict[str, Any], reveal: dict[str, Any]) -> tuple[Msg, Msg]:
    names = player_names(view)
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
    penalty = rule_number(view, "caller_penalty")
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
    avail = WIDTH - 2 * MARGIN - _REV_PANEL_W - 3 * _REV_COL_W - 4 * ROW_PAD
    w, per_line, lines = grid(n, avail, _REV_PREF, _REV_MIN, _REV_GAP)
    cards_h = lines * card_h(w) + (lines - 1) * _REV_GAP
    return w, per_line, lines, max(140, cards_h + 8) + 2 * ROW_PAD


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
    letters = badge_letters(player_names(view))
    rows = {int(r["seat"]): r for r in reveal["players"]}
    geometries = [_reveal_geometry(len(rows.get(int(p["seat"]), {}).get("cards", []))) for p in players]
    over = bool(view.get("over"))
    top = HEADER_H + 36 + 3 + 60
    height = top + sum(g[3] for g in geometries) + ROW_GAP * (len(players) - 1) + MARGIN
    if over:
        height += 80 + 24 + len(players) * (_STANDING_H + 8) + 8
    img = felt(WIDTH, height, FELT_CENTRE, FELT_EDGE).copy()
    say = words_of(view)
    title_msg, sub_msg = _reveal_words(view, reveal)
    title, sub = say(title_msg), say(sub_msg)
    if over:
        title = say(M("render.omerta.over_title", "Game over · {winners}", winners=winners_msg(view)))
        sub = say(
            M(
                "render.omerta.over_sub",
                "Round {round} of {rounds}: {text}",
                round=reveal["round"],
                rounds=view["rounds"],
                text=sub_msg,
            )
        )
    header(img, title, sub)
    d = ImageDraw.Draw(img)
    x0, x1 = MARGIN, WIDTH - MARGIN
    cols = [x1 - ROW_PAD - k * _REV_COL_W - _REV_COL_W // 2 for k in (2, 1, 0)]
    heads = (
        M("render.omerta.label_points", "POINTS"),
        M("render.omerta.label_score", "SCORE"),
        M("render.omerta.label_total", "TOTAL"),
    )
    for cx, head in zip(cols, heads, strict=True):
        section_label(d, cx, top - 16, say(head), "ms")
    section_label(d, x0 + _REV_PANEL_W + 2 * ROW_PAD, top - 16, say(M("render.omerta.label_face_up", "CARDS, FACE UP")))
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
                failed = say(M("render.omerta.tag_failed", "FAILED +{n}", n=rule_number(view, "caller_penalty")))
                tags.append((failed, FAILED, (255, 255, 255)))
        elif caller is not None and not reveal.get("caller_made_it") and r.get("score") == 0 and r.get("points"):
            tags.append((say(M("render.omerta.tag_fewest", "FEWEST POINTS: 0")), MADE_IT, (255, 255, 255)))
        _reveal_panel(img, x0 + 30, y + ROW_PAD, _REV_PANEL_W - 30, p, letters[seat], tags, say)
        sep = x0 + _REV_PANEL_W + ROW_PAD
        d.line((sep, y + 16, sep, y + rh - 16), fill=ROW_LINE, width=2)
        cards = r.get("cards", [])
        h = card_h(w)
        cards_h = lines * h + (lines - 1) * _REV_GAP
        cy0 = y + (rh - cards_h) // 2
        if not cards:
            d.text(
                (sep + ROW_PAD + 8, y + rh / 2),
                say(M("render.omerta.reveal_no_cards", "No cards: 0 points")),
                font=fonts.get(FS_EMPTY, "regular"),
                fill=MUTED,
                anchor="lm",
            )
        for k, c in enumerate(cards):
            line, col = divmod(k, max(1, per_line))
            place_face(img, c, sep + ROW_PAD + 8 + col * (w + _REV_GAP), cy0 + line * (h + _REV_GAP), w, say.lang)
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
        y += rh + ROW_GAP
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
    rs, rsize = round_scores(p, w, say)
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
        section_label(d, cx, y - 6, head, "ms")
    section_label(d, x1 - 30, y - 6, say(M("render.omerta.label_total", "TOTAL")), "rs")
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


async def render_reveal_async(view: dict[str, Any]) -> bytes:
    """``render_reveal`` in a worker thread, so the event loop keeps serving Discord."""
    return await asyncio.to_thread(render_reveal, view)
