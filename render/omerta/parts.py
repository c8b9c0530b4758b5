"""The parts both Omerta pictures draw: the header with the wordmark, section labels and a player's round scores."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render.draw import fit_text
from render.omerta.colours import CREAM, CREAM_DIM, GOLD, HEADER
from render.omerta.layout import FS_ROUNDS, FS_SECTION, FS_SUBTITLE, FS_TITLE, FS_WORDMARK, HEADER_H, MARGIN
from words import Words
from words.msg import M


def header(img: Image.Image, title: str, subtitle: str = "") -> None:
    """The dark header band: ``title`` (and ``subtitle`` under it) on the left, the OMERTA wordmark on the right."""
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


def section_label(d: ImageDraw.ImageDraw, x: float, y: float, text: str, anchor: str = "ls") -> None:
    """A small gold heading above a section of the picture."""
    d.text((x, y), text, font=fonts.get(FS_SECTION, "cond_bold"), fill=GOLD, anchor=anchor)


def round_scores(p: dict[str, Any], max_w: float, w: Words) -> tuple[str, int]:
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
