"""Speakeasy's rules versions (the table option ``rules``): ``house.toml`` lists what each version after 1 changes.

A version changes only the project's own values (a data file's ``own:`` provenance), never a number the seeds give:
the loader refuses a change whose key's provenance (its own entry or the nearest one above it) names a seed
sentence. Versions build on each other: version 3 is version 2's changes and then its own. Why each value changed,
with its figures before and after, is in ``docs/house-rules.md``.

    [versions.2."mobsters.toml"]
    "mobsters[6].strength" = 4
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection
from pathlib import Path
from typing import Any

from engine.data import DataError, show
from engine.speakeasy.schema.files import File, get_path, steps

NAME = "house.toml"


def _source(file: File[Any], path: str) -> str | None:
    """The provenance that covers ``path``: its own entry, else the nearest key above it."""
    provenance = file.provenance or {}
    parts = steps(path)
    for n in range(len(parts), 0, -1):
        key = "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in parts[:n]).lstrip(".")
        if key in provenance:
            return str(provenance[key])
    return None


def versions(folder: Path) -> dict[int, dict[str, dict[str, Any]]]:
    """Each version after 1: the values it changes, by data file and dotted key path."""
    try:
        raw = tomllib.loads((folder / NAME).read_text(encoding="utf-8"))
    except OSError:
        return {}
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{NAME}: is not valid TOML: {exc}") from None
    out: dict[int, dict[str, dict[str, Any]]] = {}
    for key, files in (raw.get("versions") or {}).items():
        if not key.isdigit() or int(key) < 2:
            raise DataError(f"{NAME}: versions.{key}: a version after 1 is a whole number from 2")
        if not isinstance(files, dict) or not all(isinstance(v, dict) for v in files.values()):
            raise DataError(f"{NAME}: versions.{key}: must map data files to their changed keys")
        out[int(key)] = files
    return out


def latest(folder: Path) -> int:
    """The newest rules version ``folder`` describes (1 when it has no ``house.toml``)."""
    return max(versions(folder), default=1)


def changes(
    folder: Path, version: int, files: dict[str, File[Any]], elsewhere: Collection[str] = ()
) -> dict[str, dict[str, Any]]:
    """The values ``version`` sets, by data file (versions 2 to ``version`` in order), each checked: the file and
    key exist, and the key is the project's own value (``files``: the data files as version 1 has them; the files
    named in ``elsewhere`` are read by another loader, which checks their changes: skipped here)."""
    known = versions(folder)
    if version != 1 and version not in known:
        raise DataError(f"{NAME}: there is no rules version {version} (versions: 1, {', '.join(map(str, known))})")
    out: dict[str, dict[str, Any]] = {}
    for v in sorted(k for k in known if k <= version):
        for name, values in known[v].items():
            if name in elsewhere:
                continue
            if name not in files:
                raise DataError(f"{NAME}: versions.{v}: {name!r} is not a data file")
            for path, value in values.items():
                get_path(files[name].raw, path, name)  # the key exists
                source = _source(files[name], path)
                if source is None or not source.startswith("own:"):
                    raise DataError(
                        f"{NAME}: versions.{v}: {name}: {path}: only the project's own values may change; "
                        f"its source is {show(source)}"
                    )
                out.setdefault(name, {})[path] = value
    return out
