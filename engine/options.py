"""Table options: what a game accepts when a table is opened (``/game new ... options:``), and the options every
game accepts that the rules never read (hints, the table's language, its pace: issue 23). ``resolve_options``
fills the defaults and checks each given value, naming what is wrong and what is allowed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from engine.core import BadOptions
from engine.msg import M


class OptionSpec(msgspec.Struct, frozen=True):
    """A table option a game accepts at creation (e.g. the snap window in seconds)."""

    name: str
    kind: str  # "int", "choice" or "duration" (a word like 30m, 12h, 2d, or none)
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    #: What a new table gets when the option is not given, if not ``default`` (which a record without the option
    #: replays with: an option added later must not change games recorded before it)
    new_default: Any = None


#: A table option every game accepts and the rules never read: may players ask ``/hint`` (the table's words)?
HINTS = OptionSpec(
    "hints",
    "choice",
    "allowed",
    "allowed: /hint tells the player whose turn it is what the standard bot would do; forbidden: no hints",
    choices=("allowed", "forbidden"),
)
#: A table option every game accepts and the rules never read: the language of the table's public messages and
#: pictures (a new table without it gets its server's preferred language when the bot speaks it: the lobby).
LANG = OptionSpec(
    "lang",
    "choice",
    "en",
    "the language of the table's public messages and pictures: en (English) or de (Deutsch); private replies "
    "use each reader's own Discord language (see private_lang)",
    choices=("en", "de"),
)
#: Whose language private replies, DMs and safe screens are in (issue 24; the rules never read it): ``reader``,
#: each reader's own Discord language (else the table's), or ``table``, the table's language for everyone, so a
#: group whose clients are in several languages reads one.
PRIVATE_LANG = OptionSpec(
    "private_lang",
    "choice",
    "reader",
    "private replies, DMs and safe screens: reader (each reader's own Discord language) or table (the table's "
    "language, for everyone)",
    choices=("reader", "table"),
)


#: Whether a finished game's replay shows what was hidden (issue 26; the rules never read it): ``yes`` shows every
#: hand, safe and Omerta card once the game is over; ``no`` keeps the replay to what a spectator saw.
REVEAL_AFTER = OptionSpec(
    "reveal_after",
    "choice",
    "yes",
    "yes: once the game is over, its replay shows every hand, safe and card; no: only what everyone saw",
    choices=("yes", "no"),
)


#: A duration option's units (issue 23: ``30m``, ``12h``, ``2d``), in seconds.
DURATION_UNITS = {"m": 60, "h": 3600, "d": 86400}
#: The shortest and the longest a ``deadline`` may be (issue 23: from 1m to 14d).
DEADLINE_RANGE = (60, 14 * 86400)


def duration_s(text: str) -> int | None:
    """``"30m"`` -> 1800 seconds; ``"none"`` -> None. Raises ``ValueError`` for anything else."""
    if text == "none":
        return None
    number, unit = text[:-1], text[-1:]
    if unit not in DURATION_UNITS or not number.isascii() or not number.isdigit() or len(number) > 5:
        raise ValueError(text)
    return int(number) * DURATION_UNITS[unit]


def deadline_option(new_default: str) -> OptionSpec:
    """The table option ``deadline`` (issue 23), which the rules never read: the time a player has for each
    wait; a record without it had none (reminders on the global timer), a new table gets ``new_default``."""
    return OptionSpec(
        "deadline",
        "duration",
        "none",
        "the time a player has to act each time the table waits for them: 1m to 14d (e.g. 30m, 12h, 2d) or none",
        new_default=new_default,
    )


#: The table options the service reads and the rules never do (issue 23's pace, issue 24's private_lang): a game's
#: state does not keep them (a state that keeps its options, as Omerta's does, stays as it was before they
#: existed: recorded games replay to their recorded states)
SERVICE_OPTIONS = ("deadline", "on_timeout", "timeouts_to_replace", "away", "private_lang", "reveal_after")
#: What happens when a player's deadline passes (issue 23; the rules never read it).
ON_TIMEOUT = OptionSpec(
    "on_timeout",
    "choice",
    "bot",
    "when a deadline passes: remind (ping again, tell the host), bot (a bot plays that wait for the player), "
    "hold (a bot plays the seat until the player comes back) or skip (the default choices)",
    choices=("remind", "bot", "hold", "skip"),
)
#: After this many timeouts in a row, the table may offer the seat to a substitute (0: never).
TIMEOUTS_TO_REPLACE = OptionSpec(
    "timeouts_to_replace",
    "int",
    3,
    "after this many timeouts in a row the host may offer the seat to someone else (0: never)",
    0,
    20,
)
#: While a player is away (``/away``, issue 23): ``act``: with ``on_timeout`` bot or hold, the table acts for them
#: at once when their wait begins (their deadline is due at once); ``pause``: their deadlines wait until they are
#: back, at most ``AWAY_PAUSE_MAX_S`` a game.
AWAY = OptionSpec(
    "away",
    "choice",
    "act",
    "while a player is away (/away): act (with on_timeout bot or hold, the table acts for them at once) or pause "
    "(their deadlines wait until they are back, at most 7 days a game)",
    choices=("act", "pause"),
)
#: how long a player's deadlines in one game may be put off while they are away (``away=pause``)
AWAY_PAUSE_MAX_S = 7 * 86400


def resolve_options(specs: Iterable[OptionSpec], given: Mapping[str, Any], *, new: bool = False) -> dict[str, Any]:
    """Fill defaults (``new``: a new table's defaults) and check each given table option, naming what is wrong and
    what is allowed."""
    specs = list(specs)
    known = {s.name: s for s in specs}
    for key in given:
        if key not in known:
            allowed = ", ".join(sorted(known)) or "none"
            raise BadOptions(
                M(
                    "engine.core.unknown_option",
                    "Unknown option {key}. Options for this game: {allowed}.",
                    key=repr(key),
                    allowed=allowed,
                )
            )
    out: dict[str, Any] = {}
    for spec in specs:
        fallback = spec.new_default if new and spec.new_default is not None else spec.default
        value = given.get(spec.name, fallback)
        if spec.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOptions(
                    M(
                        "engine.core.option_int",
                        "Option {name} must be a whole number, not {value}.",
                        name=repr(spec.name),
                        value=repr(value),
                    )
                )
            lo, hi = spec.minimum, spec.maximum
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise BadOptions(
                    M(
                        "engine.core.option_range",
                        "Option {name} must be between {lo} and {hi}, not {value}.",
                        name=repr(spec.name),
                        lo=lo,
                        hi=hi,
                        value=value,
                    )
                )
        elif spec.kind == "duration":
            lo, hi = DEADLINE_RANGE
            try:
                seconds = duration_s(value) if isinstance(value, str) else -1
            except ValueError:
                seconds = -1
            if seconds is not None and not lo <= seconds <= hi:
                raise BadOptions(
                    M(
                        "engine.core.option_duration",
                        "Option {name} must be a time from 1m to 14d, written like 30m, 12h or 2d, or none; "
                        "not {value}.",
                        name=repr(spec.name),
                        value=repr(value),
                    )
                )
        elif spec.kind == "choice" and value not in spec.choices:
            raise BadOptions(
                M(
                    "engine.core.option_choice",
                    "Option {name} must be one of {choices}, not {value}.",
                    name=repr(spec.name),
                    choices=", ".join(spec.choices),
                    value=repr(value),
                )
            )
        out[spec.name] = value
    return out
