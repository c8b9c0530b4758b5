"""Reading the table options people type (``/game new options:snap_window=3 pace=post``).

Any text at all may arrive: every malformed part is refused with what was wrong and what is allowed, and
nothing else is ever raised.
"""

from __future__ import annotations

import re

from service.notice import ServiceError

#: More than this is not a list of options (and is not echoed back in full).
MAX_TEXT = 400
MAX_DIGITS = 6
_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
_INT = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")


def _shown(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def parse_options(text: str) -> dict[str, int | str]:
    """``snap_window=3 rounds=4`` (spaces or commas between) → ``{"snap_window": 3, "rounds": 4}``.

    A value is a whole number written with the digits 0-9 (at most 6 of them, an optional sign), or a word
    (letters, digits, ``-`` and ``_``, starting with a letter). A name may be given once.
    """
    if not isinstance(text, str):
        raise ServiceError("Options are text such as snap_window=3.")
    if len(text) > MAX_TEXT:
        raise ServiceError(f"That is too long for table options ({len(text)} characters; at most {MAX_TEXT}).")
    out: dict[str, int | str] = {}
    for part in text.replace(",", " ").split():
        if "=" not in part:
            raise ServiceError(f"Options are written name=value (e.g. snap_window=3), not {_shown(part)}.")
        key, value = part.split("=", 1)
        if not _NAME.fullmatch(key):
            raise ServiceError(f"{_shown(key)} is not an option name; names are lower-case words like snap_window.")
        if key in out:
            raise ServiceError(f"Option {key} is given twice ({out[key]} and {_shown(value)}); give it once.")
        if _INT.fullmatch(value):
            out[key] = int(value)
        elif _WORD.fullmatch(value):
            out[key] = value
        elif any(ch.isdigit() or ch.isnumeric() for ch in value) or value.startswith(("+", "-")):
            raise ServiceError(
                f"Option {key} must be a whole number written with the digits 0-9 "
                f"(at most {MAX_DIGITS}), not {_shown(value)}."
            )
        else:
            raise ServiceError(f"Option {key} needs a value such as a number or a word, not {_shown(value)}.")
    return out
