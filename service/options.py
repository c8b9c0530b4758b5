"""Reading the table options people type (``/game new options:snap_window=3 pace=post``).

Any text at all may arrive: every malformed part is refused with what was wrong and what is allowed, and
nothing else is ever raised.
"""

from __future__ import annotations

import re

from engine.msg import M
from service.notice import ServiceError

#: More than this is not a list of options (and is not echoed back in full).
MAX_TEXT = 400
MAX_DIGITS = 6
_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
_INT = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
#: a length of time (issue 23's ``deadline=30m``): kept as the word it is; the game's option checks its range
_DURATION = re.compile(r"[0-9]{1,5}[mhd]")


def _shown(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def parse_options(text: str) -> dict[str, int | str]:
    """``snap_window=3 rounds=4`` (spaces or commas between) → ``{"snap_window": 3, "rounds": 4}``.

    A value is a whole number written with the digits 0-9 (at most 6 of them, an optional sign), or a word
    (letters, digits, ``-`` and ``_``, starting with a letter). A name may be given once.
    """
    if not isinstance(text, str):
        raise ServiceError(M("table.opt.text", "Options are text such as snap_window=3."))
    if len(text) > MAX_TEXT:
        raise ServiceError(
            M(
                "table.opt.long",
                "That is too long for table options ({n} characters; at most {most}).",
                n=len(text),
                most=MAX_TEXT,
            )
        )
    out: dict[str, int | str] = {}
    for part in text.replace(",", " ").split():
        if "=" not in part:
            raise ServiceError(
                M(
                    "table.opt.form",
                    "Options are written name=value (e.g. snap_window=3), not {part}.",
                    part=_shown(part),
                )
            )
        key, value = part.split("=", 1)
        if not _NAME.fullmatch(key):
            raise ServiceError(
                M(
                    "table.opt.name",
                    "{key} is not an option name; names are lower-case words like snap_window.",
                    key=_shown(key),
                )
            )
        if key in out:
            raise ServiceError(
                M(
                    "table.opt.twice",
                    "Option {key} is given twice ({first} and {second}); give it once.",
                    key=key,
                    first=out[key],
                    second=_shown(value),
                )
            )
        if _INT.fullmatch(value):
            out[key] = int(value)
        elif _WORD.fullmatch(value) or _DURATION.fullmatch(value):
            out[key] = value
        elif any(ch.isdigit() or ch.isnumeric() for ch in value) or value.startswith(("+", "-")):
            raise ServiceError(
                M(
                    "table.opt.number",
                    "Option {key} must be a whole number written with the digits 0-9 (at most {most}), not {value}.",
                    key=key,
                    most=MAX_DIGITS,
                    value=_shown(value),
                )
            )
        else:
            raise ServiceError(
                M(
                    "table.opt.value",
                    "Option {key} needs a value such as a number or a word, not {value}.",
                    key=key,
                    value=_shown(value),
                )
            )
    return out
