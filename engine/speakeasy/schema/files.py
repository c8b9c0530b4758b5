"""Reading one Speakeasy data file: its TOML, decoded by its schema, and its ``[provenance]``.

Every file ends with a ``[provenance]`` table mapping keys to their source, either seed sentence ids
(``"seed 000:19.8"``, from ../shared/seeds/rule-index.md) or the project's own value (``"own: design §6.1"``). Each
value in the file must be covered by an entry for its own key or for a key above it (``"prices"`` covers
``prices.casino``); a deeper entry refines a wider one (``"mobsters[7]"`` inside ``"mobsters"``). ``own_values``
checks this and returns the ``own:`` keys as ``"file.toml: key"``: the values a group owning the printed game may
replace.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from engine.data import DataError, fail, show
from engine.schema import decode

T = TypeVar("T")

_SEED_SOURCE = re.compile(r"^seed \d{3}:\d+\.\d+")
_OWN_SOURCE = re.compile(r"^own: \S")
_TOML_AT = re.compile(r"at line (\d+)")


@dataclass(frozen=True)
class File(Generic[T]):
    """One data file: its name for messages, its values (without ``[provenance]``) and what its schema made of them."""

    name: str
    raw: dict[str, Any]
    provenance: Any
    data: T


def read(folder: Path, name: str, schema: type[T], changes: dict[str, Any] | None = None) -> File[T]:
    """``folder / name`` decoded as ``schema``; ``DataError`` names a bad value. Its provenance is checked by
    ``own_values`` once the values are known to be right, so that a wrong value is reported as such.
    ``changes``: values a later rules version sets (dotted key paths, ``house.toml``), put in before decoding."""
    try:
        text = (folder / name).read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{name}: is not valid TOML: {exc}{_toml_line(text, str(exc))}") from None
    provenance = raw.pop("provenance", None)
    for path, value in (changes or {}).items():
        set_path(raw, path, value, name)
    return File(name, raw, provenance, decode(raw, schema, name))


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def steps(path: str) -> list[str | int]:
    """A dotted key path as keys and indices: ``mobsters[6].strength`` -> ``["mobsters", 6, "strength"]``."""
    return [int(i) if i else key for key, i in _STEP.findall(path)]


def get_path(table: Any, path: str, name: str) -> Any:
    """The value at ``path``; ``DataError`` when there is none."""
    at = table
    for step in steps(path):
        try:
            at = at[step]
        except (KeyError, IndexError, TypeError):
            raise DataError(f"{name}: {path}: no such key") from None
    return at


def set_path(table: Any, path: str, value: Any, name: str) -> None:
    """Set the value at ``path`` (which must exist: a change replaces a value, never adds one)."""
    *up, last = steps(path)
    holder = get_path(table, "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in up).lstrip("."), name)
    get_path(table, path, name)
    holder[last] = value


def _toml_line(text: str, message: str) -> str:
    """The offending line of a TOML syntax error, so that the message shows the key."""
    found = _TOML_AT.search(message)
    if not found:
        return ""
    lines = text.splitlines()
    number = int(found.group(1))
    return f": {lines[number - 1].strip()!r}" if 0 < number <= len(lines) else ""


def _children(value: Any, path: str) -> list[tuple[str, Any]] | None:
    """The key paths and values right below ``value``; ``None`` for a leaf (a list of plain values is one)."""
    if isinstance(value, dict) and value:
        return [(f"{path}.{key}" if path else key, item) for key, item in value.items()]
    if isinstance(value, list) and value and all(isinstance(item, (dict, list)) for item in value):
        return [(f"{path}[{i}]", item) for i, item in enumerate(value)]
    return None


def _paths(value: Any, path: str) -> Iterator[str]:
    for child, item in _children(value, path) or ():
        yield child
        yield from _paths(item, child)


def value_paths(table: dict[str, Any]) -> frozenset[str]:
    """Every key path of a parsed data file (its leaves and every table or array above them)."""
    return frozenset(_paths(table, ""))


def _uncovered(value: Any, path: str, covered: bool, provenance: dict[str, Any]) -> Iterator[str]:
    """The leaves below ``value`` that no provenance entry covers (neither their own key nor one above it)."""
    covered = covered or path in provenance
    children = _children(value, path)
    if children is None:
        if path and not covered:
            yield path
        return
    for child, item in children:
        yield from _uncovered(item, child, covered, provenance)


def own_values(file: File[Any]) -> tuple[str, ...]:
    """Refuse values without provenance and entries naming no value; the file's ``own:`` keys (``"file: key"``)."""
    name, provenance = file.name, file.provenance
    if provenance is None:
        raise DataError(f"{name}: [provenance] is missing: every value must name its source")
    if not isinstance(provenance, dict):
        raise DataError(f"{name}: provenance must be a table, got {show(provenance)}")
    paths = value_paths(file.raw)
    own: list[str] = []
    for key, source in provenance.items():
        if key not in paths:
            raise DataError(f"{name}: [provenance] {key!r} names no value of the file")
        if not isinstance(source, str) or not (_SEED_SOURCE.match(source) or _OWN_SOURCE.match(source)):
            raise DataError(
                f'{name}: [provenance] {key!r} must be "seed FFF:L.S ..." or "own: ...", got {show(source)}'
            )
        if source.startswith("own:"):
            own.append(f"{name}: {key}")
    for leaf in _uncovered(file.raw, "", False, provenance):
        fail(name, leaf, f'has no [provenance] entry (add "{leaf}" or a key above it: "seed ..." or "own: ...")')
    return tuple(own)
