"""Where the data files live and how their values are checked."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


class DataError(ValueError):
    """A data file that cannot be used; the message names the file, the key and the reason."""


def data_dir() -> Path:
    """The ``data/`` folder (``SPEAKEASY_DATA_DIR`` overrides it)."""
    override = os.environ.get("SPEAKEASY_DATA_DIR")
    return Path(override) if override else Path(__file__).resolve().parent.parent / "data"


def require(table: Any, key: str, kind: type, where: str) -> Any:
    """``table[key]``, which must exist and be of ``kind``."""
    if not isinstance(table, dict):
        raise DataError(f"{where}: expected a table, got {type(table).__name__}")
    if key not in table:
        raise DataError(f"{where}: missing key {key!r}")
    value = table[key]
    if kind is int and isinstance(value, bool):
        raise DataError(f"{where}: {key!r} must be a whole number, got {value!r}")
    if not isinstance(value, kind):
        raise DataError(f"{where}: {key!r} must be {kind.__name__}, got {type(value).__name__} {value!r}")
    return value
