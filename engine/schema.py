"""Decode a parsed data file into typed msgspec structs, and say what is wrong in the project's words.

The struct types are the schema: ``Table`` refuses unknown keys, a field without a default is required, and
``Meta`` constraints (``Annotated[int, Meta(ge=0)]``) refuse out-of-range values. msgspec's ``ValidationError``
(``Expected `int` >= 0 - at `$.crates[0].cash```) becomes a ``DataError`` naming the file, the dotted key and what is
allowed (``docks.toml: crates[0].cash: must not be negative, got -4``). A list typed ``distinct(item)`` must not
give the same item twice (``cards[3].benefit[1]: { kind = "card", n = 1 } appears twice (also cards[3].benefit[0])``):
msgspec cannot say so, ``decode`` checks it after decoding.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, TypeVar, get_args, get_origin

import msgspec

from engine.data import DataError, fail, listing, show

T = TypeVar("T")


class Table(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A table of a data file: unknown keys are refused, every field without a default is required.

    Subclasses inherit ``forbid_unknown_fields=True, frozen=True``.
    """

    #: What the keys of this table are ("a Zone"), when they are a vocabulary rather than names of values.
    KEYS: ClassVar[str] = ""


def vocabulary(choices: Iterable[str], what: str) -> Any:
    """The type of a string that must be one of ``choices``; ``what`` names them in messages ("a Zone")."""
    return Annotated[Literal[tuple(choices)], msgspec.Meta(description=what)]  # type: ignore[valid-type]


def keyed(name: str, keys: Iterable[str], value: Any, what: str) -> type[Table]:
    """A table with exactly one required key per item of ``keys`` (``{ Downtown = 4, Midtown = 3, ... }``)."""
    return msgspec.defstruct(name, [(key, value) for key in keys], bases=(Table,), namespace={"KEYS": what})


class _Distinct:
    """The mark of a list type whose items must differ (see ``distinct``)."""

    def __repr__(self) -> str:
        return "DISTINCT"


DISTINCT = _Distinct()


def distinct(item: Any, least: int = 0) -> Any:
    """The type of a list of ``item`` that gives no item twice (a set written in order: the effects of one
    benefit, the decks of a card), with at least ``least`` items. ``decode`` refuses a repeated item."""
    return Annotated[tuple[item, ...], msgspec.Meta(min_length=least), DISTINCT]


def decode(raw: dict[str, Any], schema: type[T], name: str) -> T:
    """``raw`` (parsed TOML) as ``schema``; ``DataError("name: key: reason")`` if it does not fit."""
    try:
        decoded = msgspec.convert(raw, schema, strict=True, str_keys=True)
    except msgspec.ValidationError as exc:
        path, reason = explain(raw, schema, str(exc))
        raise DataError(f"{name}: {dotted(path) or '(the file)'}: {reason}") from None
    for path, first in _repeated(raw, schema, []):
        fail(name, dotted(path), f"{inline(get_item(raw, path))} appears twice (also {dotted(first)})")
    return decoded


def inline(value: Any) -> str:
    """A parsed value for messages: a table or a list as inline TOML (``{ kind = "card", n = 1 }``), anything else
    as ``show`` writes it (``'stills'``, ``3``)."""
    if isinstance(value, (dict, list)):
        return _toml(value)
    return show(value)


def _toml(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {_toml(item)}" for key, item in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    return show(value)


def get_item(raw: Any, path: Iterable[str | int]) -> Any:
    """The value at ``path`` in a parsed file."""
    for part in path:
        raw = raw[part]
    return raw


# --- lists whose items must differ -----------------------------------------------------------------------------


def _repeated(raw: Any, tp: Any, path: list[str | int]) -> Iterator[tuple[list[str | int], list[str | int]]]:
    """Every item of a ``distinct`` list below ``raw`` that an earlier item of the same list already gave: its path
    and the earlier one's. ``raw`` fits ``tp`` (it was decoded), so the walk needs no checks of its own."""
    if not _holds_distinct(tp):
        return
    base, metas = _metadata(tp)
    if DISTINCT in metas:
        seen: dict[bytes, int] = {}
        for i, item in enumerate(raw):
            key = msgspec.json.encode(item, order="sorted")  # tables equal whatever the order of their keys
            if key in seen:
                yield [*path, i], [*path, seen[key]]
            seen.setdefault(key, i)
    if _is_struct(base):
        for key, field_type in _fields(base):
            if key in raw:
                yield from _repeated(raw[key], field_type, [*path, key])
        return
    origin, args = get_origin(base), get_args(base)
    if origin is dict:
        for key, item in raw.items():
            yield from _repeated(item, args[1], [*path, key])
    elif origin is tuple:
        many = len(args) == 2 and args[1] is Ellipsis
        for i, item in enumerate(raw):
            yield from _repeated(item, args[0] if many else args[i], [*path, i])


def _metadata(tp: Any) -> tuple[Any, list[Any]]:
    """``tp`` without ``Annotated``, and every piece of metadata on the way."""
    metas: list[Any] = []
    while get_origin(tp) is Annotated:
        tp, *more = get_args(tp)
        metas += more
    return tp, metas


@cache
def _holds_distinct(tp: Any) -> bool:
    """Whether ``tp`` or a type inside it is a ``distinct`` list (the walk skips the rest)."""
    base, metas = _metadata(tp)
    if DISTINCT in metas:
        return True
    if _is_struct(base):
        return any(_holds_distinct(field_type) for _, field_type in _fields(base))
    return any(_holds_distinct(arg) for arg in get_args(base) if arg is not Ellipsis)


@cache
def _fields(struct: type) -> tuple[tuple[str, Any], ...]:
    """A struct's keys in the file and their types (``msgspec.structs.fields`` resolves them anew at every call)."""
    return tuple((f.encode_name, f.type) for f in msgspec.structs.fields(struct))


def dotted(path: Iterable[str | int]) -> str:
    """``["sides", "small", "blocked", 2]`` -> ``sides.small.blocked[2]``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


# --- reading msgspec's message --------------------------------------------------------------------------------

_MESSAGE = re.compile(r"(?P<text>.*?)(?: - at (?P<key>`key` in )?`\$(?P<path>[^`]*)`)?", re.S)
_PART = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_BOUND = re.compile(r"^Expected `(?P<kind>\w+)`(?P<length> of length)? (?P<op>>=|<=|>|<) (?P<n>-?\d+)")
_LENGTH = re.compile(r"^Expected `array` of length (?P<n>\d+), got (?P<got>\d+)")
_NOUNS = {
    "int": "a whole number",
    "float": "a number",
    "str": "a string",
    "bool": "true or false",
    "array": "a list",
    "object": "a table",
}
_MISSING = object()


def explain(raw: Any, schema: Any, message: str) -> tuple[list[str | int], str]:
    """The key path and the reason of msgspec's ``message`` about ``raw`` decoded as ``schema``.

    msgspec writes a dict value's key as ``[...]`` and a bad key as "`key` in"; both are found again here by
    trying the entries one by one, so that the message names the very key.
    """
    text, bad_key, path = _parse(message)
    parts: list[str | int] = []
    value, tp = raw, schema
    for name, index in _PART.findall(path):
        if index == "...":  # a dict value whose key msgspec does not give
            return _in_entries(parts, value, tp, message)
        part: str | int = int(index) if index else name
        parts.append(part)
        value, tp = _child(value, part), _child_type(tp, part)
    if bad_key:
        return _bad_key(parts, value, tp, text)
    if text.startswith("Object missing required field `"):
        return [*parts, text.split("`")[1]], "is missing" + _every_key(tp)
    if text.startswith("Object contains unknown field `"):
        key = text.split("`")[1]
        return [*parts, key], _unknown(key, tp, parts)
    return parts, _reason(text, value, tp)


def _parse(message: str) -> tuple[str, bool, str]:
    """msgspec's message as (what is wrong, whether a key is wrong, the path after ``$``)."""
    found = _MESSAGE.fullmatch(message)
    if found is None:  # the pattern matches any text; this only keeps the types honest
        return message, False, ""
    return found["text"], bool(found["key"]), found["path"] or ""


def _in_entries(parts: list[str | int], table: Any, tp: Any, message: str) -> tuple[list[str | int], str]:
    key_type, value_type = _dict_types(tp)
    if isinstance(table, dict):
        for key, item in table.items():
            try:
                msgspec.convert(item, value_type, strict=True, str_keys=True)
            except msgspec.ValidationError as exc:
                inner, reason = explain(item, value_type, str(exc))
                return [*parts, key, *inner], reason
    return parts, _reason(_parse(message)[0], table, tp)


def _bad_key(parts: list[str | int], table: Any, tp: Any, text: str) -> tuple[list[str | int], str]:
    key_type, _ = _dict_types(tp)
    for key in table if isinstance(table, dict) else ():
        try:
            msgspec.convert({key: None}, dict[key_type, Any], strict=True, str_keys=True)  # type: ignore[valid-type]
        except msgspec.ValidationError as exc:
            return [*parts, key], "key " + _reason(_parse(str(exc))[0], key, key_type)
    return parts, "has a bad key: " + text


def _unknown(key: str, tp: Any, parts: list[str | int]) -> str:
    struct = _unwrap(tp)[0]
    fields = [f.encode_name for f in msgspec.structs.fields(struct)] if _is_struct(struct) else []
    if _is_struct(struct) and struct.KEYS:
        return f"{key!r} is not {struct.KEYS} (one of {listing(fields)})"
    where = dotted(parts) or "the top level"
    return f"is not a key of this file (misspelt or misplaced? {where} takes {listing(fields)})"


def _every_key(tp: Any) -> str:
    """For a table keyed by a vocabulary (``keyed``): that it names every key, and which they are."""
    struct = _unwrap(tp)[0]
    if not (_is_struct(struct) and struct.KEYS):
        return ""
    noun = re.sub(r"^an? ", "", struct.KEYS)
    fields = [f.encode_name for f in msgspec.structs.fields(struct)]
    return f": the table names every {noun} ({listing(fields)})"


def _reason(text: str, value: Any, tp: Any) -> str:
    """The project's words for msgspec's ``text`` about ``value``, whose type is ``tp``."""
    base, what = _unwrap(tp)
    got = "" if value is _MISSING else f", got {show(value)}"
    if text.startswith("Invalid enum value"):
        choices = get_args(base) if get_origin(base) is Literal else ()
        return f"{show(value)} is not {what or 'allowed'} (one of {listing(choices)})"
    if " matching regex " in text:
        return f"must be {what or 'text of the form ' + text.split(' matching regex ')[1]}{got}"
    length = _LENGTH.match(text)
    if length:
        return f"must have {length['n']} items, got {length['got']}"
    bound = _BOUND.match(text)
    if bound:
        n, op = int(bound["n"]), bound["op"]
        if bound["length"]:
            size = len(value) if isinstance(value, (list, dict, str)) else "?"
            if op == ">=" and n == 1:
                return "must not be empty"
            return f"must have {'at least' if op == '>=' else 'at most'} {n} items, got {size}"
        if op == ">=" and n == 0:
            return f"must not be negative{got}"
        words = {">=": "at least", "<=": "at most", ">": "more than", "<": "less than"}[op]
        return f"must be {words} {n}{got}"
    if text.startswith("Expected `"):
        expected = text.split("`")[1]
        noun = what if what and expected == "str" else _NOUNS.get(expected, expected)
        return f"must be {noun}{got}"
    return text[:1].lower() + text[1:]


# --- walking the schema's types --------------------------------------------------------------------------------


def _child(value: Any, part: str | int) -> Any:
    try:
        return value[part]
    except (KeyError, IndexError, TypeError):
        return _MISSING


def _unwrap(tp: Any) -> tuple[Any, str]:
    """``tp`` without ``Annotated``, and the description its ``Meta`` gives."""
    what = ""
    while get_origin(tp) is Annotated:
        tp, *metas = get_args(tp)
        for meta in metas:
            if isinstance(meta, msgspec.Meta) and meta.description:
                what = meta.description
    return tp, what


def _is_struct(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, msgspec.Struct)


def _dict_types(tp: Any) -> tuple[Any, Any]:
    base, _ = _unwrap(tp)
    args = get_args(base)
    return (args[0], args[1]) if get_origin(base) is dict and len(args) == 2 else (Any, Any)


def _child_type(tp: Any, part: str | int) -> Any:
    base, _ = _unwrap(tp)
    if _is_struct(base):
        return next((f.type for f in msgspec.structs.fields(base) if f.encode_name == part), Any)
    origin, args = get_origin(base), get_args(base)
    if origin is dict and len(args) == 2:
        return args[1]
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        return args[0]
    if origin is tuple and isinstance(part, int) and part < len(args):
        return args[part]
    return Any
