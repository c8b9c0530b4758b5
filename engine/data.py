"""Where the data files live, and the checks a schema cannot express, written once for every loader.

The schema (``engine.schema``) refuses unknown keys, wrong types, missing keys, out-of-range numbers and an item
given twice in a list typed ``distinct``. What is left is checked here across fields: duplicate ids and names
(``unique``), references (``known``), counts that must agree (``length``), numbering and order (``numbered``,
``ordered``) and tables keyed by level or track space that name every one (``levels_complete``). Each refuses with
a ``DataError("file: key: reason")``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Hashable, Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")


class DataError(ValueError):
    """A data file that cannot be used; the message names the file, the key and the reason."""


def data_dir() -> Path:
    """The ``data/`` folder (``SPEAKEASY_DATA_DIR`` overrides it)."""
    override = os.environ.get("SPEAKEASY_DATA_DIR")
    return Path(override) if override else Path(__file__).resolve().parent.parent / "data"


def show(value: Any) -> str:
    """A value as it would look in the file, for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (list, tuple)):
        return "a list"
    return repr(value)


def toml_value(value: Any) -> str:
    """A value as TOML text: numbers, text, booleans, lists and inline tables (house versions and test data are
    written with it)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def listing(choices: Iterable[Any]) -> str:
    """``a, b, c`` for messages."""
    return ", ".join(str(choice) for choice in choices)


def fail(file: str, path: str, reason: str) -> NoReturn:
    """Refuse ``file``: ``DataError("file: path: reason")``."""
    raise DataError(f"{file}: {path}: {reason}")


def at(where: str, values: Iterable[T], field: str = "") -> list[tuple[str, T]]:
    """``(path, value)`` for each item of the list at ``where``: ``where[i].field`` (``where[i]`` without a field)."""
    suffix = f".{field}" if field else ""
    return [(f"{where}[{i}]{suffix}", value) for i, value in enumerate(values)]


def unique(file: str, entries: Iterable[tuple[str, Hashable]]) -> None:
    """Refuse a value given twice among ``entries`` (``(path, value)`` pairs, e.g. from ``at``)."""
    seen: dict[Hashable, str] = {}
    for path, value in entries:
        if value in seen:
            fail(file, path, f"{show(value)} appears twice (also {seen[value]})")
        seen[value] = path


def known(file: str, path: str, value: Any, choices: Collection[Any], what: str) -> None:
    """Refuse ``value`` unless it is one of ``choices`` (a reference to an id named elsewhere)."""
    if value not in choices:
        fail(file, path, f"{show(value)} is not {what} (one of {listing(choices)})")


def length(file: str, path: str, values: Sequence[Any], n: int, what: str) -> None:
    """Refuse ``values`` unless there are exactly ``n`` (a count that must agree with another value)."""
    if len(values) != n:
        fail(file, path, f"must have {n} {what}, got {len(values)}")


def numbered(file: str, where: str, numbers: Iterable[int], what: str) -> None:
    """Refuse ids that are not 1, 2, 3 ... in file order (``where[i].number``)."""
    for i, number in enumerate(numbers):
        if number != i + 1:
            fail(
                file,
                f"{where}[{i}].number",
                f"must be {i + 1}: {what} are numbered 1, 2, 3 ... in file order, got {number}",
            )


def ordered(file: str, path: str, values: Sequence[int], strict: bool = False, falling: bool = False) -> None:
    """Refuse ``values`` unless they rise (``falling``: fall) from left to right; ``strict``: no two equal."""
    steps = [(b - a) * (-1 if falling else 1) for a, b in zip(values, values[1:], strict=False)]
    if any(step < 0 or (strict and step == 0) for step in steps):
        how = ("fall" if falling else "rise") if strict else ("never rise" if falling else "never fall")
        fail(file, path, f"must {how} from left to right, got {list(values)}")


def levels_complete(
    file: str,
    where: str,
    levels: Iterable[int],
    expected: range | None = None,
    what: str = "level",
    empty: str = "0",
) -> None:
    """A table keyed by level (or by space of a track: ``what``) names every level: exactly ``expected`` (the
    levels the track has) or, without it, every level from its first to its last. A level left out is refused,
    never read as none; ``empty`` is what the file writes for none, for the message."""
    have = sorted(levels)
    if expected is None:
        expected = range(have[0], have[-1] + 1) if have else range(0)
    span = f"{expected.start}..{expected.stop - 1}"
    for level in have:
        if level not in expected:
            fail(file, f"{where}.{level}", f"is not a {what} of this table ({span})")
    for level in expected:
        if level not in have:
            fail(file, where, f"{what} {level} is missing: every {what} {span} must be named ({empty} for none)")
