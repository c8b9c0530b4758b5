"""Translatable messages: what the engine says, as a message id with data, so that the words are made in one layer
(``words/``) in the reader's language.

A :class:`Msg` *is* its English text (a ``str``), so every place that only needs the fallback English keeps
working, and it also carries what the words layer needs: its context (``ctx``, the message's id, e.g.
``"omerta.draw"``), its English template (the catalogue's source id, gettext's ``msgid``), a plural template if
it has one, and its arguments. An argument is a plain value (a player's name, a number), another ``Msg`` (a card's
name, a district's name: translated too) or a list of them (joined in the reader's language).

A struct's text fields are always plain text: ``Event`` turns a ``Msg`` into its English plus its JSON form
(:meth:`Msg.dump`, under ``data["msg"]``) when it is made, so states, records and the store only ever see plain
JSON; ``Prompt`` and ``Option``, which are never stored, keep the message itself beside the text (``words``; it
pickles, for render workers), which costs nothing until someone reads it. The words layer takes either form
(:func:`load` passes a message through).

The English templates in the code are the catalogue's source: ``python -m words.extract`` collects every call of
:func:`M`, :func:`P` and :func:`T` with Babel.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from typing import Any

_FORMATTER = string.Formatter()
_str_new = str.__new__


class Msg(str):
    """A message: its English text, plus its id, templates and arguments for the words layer."""

    __slots__ = ("ctx", "template", "plural", "args")

    ctx: str
    template: str
    plural: str
    args: dict[str, Any]

    def __new__(cls, ctx: str, template: str, args: dict[str, Any] | None = None, plural: str = "") -> Msg:
        args = {} if args is None else args  # ``M`` and ``P`` hand over a fresh dict of their own
        chosen = plural if plural and args.get("n") != 1 else template
        # a Msg argument formats as its English (it is a str), so no conversion is needed
        self = super().__new__(cls, chosen.format(**args) if args else chosen)
        self.ctx = ctx
        self.template = template
        self.plural = plural
        self.args = args
        return self

    def dump(self) -> dict[str, Any]:
        """Its JSON form: ``{"m": ctx, "t": template, "a": args, "p": plural}`` (nested messages likewise)."""
        out: dict[str, Any] = {"m": self.ctx, "t": self.template}
        if self.args:
            # ``_dump`` of each argument, a plain name or number first: every log line of a game is dumped
            args: dict[str, Any] = {}
            for k, v in self.args.items():
                kind = type(v)
                args[k] = v if kind is str or kind is int else v.dump() if isinstance(v, Msg) else _dump(v)
            out["a"] = args
        if self.plural:
            out["p"] = self.plural
        return out

    def __reduce__(self) -> tuple[Any, ...]:  # pickling (render workers, multiprocessing) keeps the message
        return (Msg, (self.ctx, self.template, self.args, self.plural))


class Join(Msg):
    """A list of items joined in the reader's language (``"and"``: "A, B and C"; ``"or"``; ``"comma"``)."""

    __slots__ = ()

    def __new__(cls, items: Iterable[Any], style: str = "and") -> Join:  # type: ignore[override]
        items = list(items)
        self = str.__new__(cls, _english_join([str(i) for i in items], style))
        self.ctx = f"list.{style}"
        self.template = ""
        self.plural = ""
        self.args = {"items": items}
        return self

    def dump(self) -> dict[str, Any]:
        """Its JSON form: ``{"j": style, "i": items}``."""
        return {"j": self.ctx.removeprefix("list."), "i": [_dump(v) for v in self.args["items"]]}

    def __reduce__(self) -> tuple[Any, ...]:
        return (Join, (self.args["items"], self.ctx.removeprefix("list.")))


def M(ctx: str, template: str, /, **args: Any) -> Msg:  # noqa: N802 - the extraction keyword
    """A message with id ``ctx`` and English ``template`` (``str.format`` fields filled from ``args``)."""
    # ``Msg(ctx, template, args)`` inlined: the engine makes tens of thousands of messages a game (every option's
    # label), so the extra call and the plural test are worth saving
    self = _str_new(Msg, template.format_map(args) if args else template)  # ``args`` is ours: not copied again
    self.ctx = ctx
    self.template = template
    self.plural = ""
    self.args = args
    return self


def P(ctx: str, singular: str, plural: str, n: int, /, **args: Any) -> Msg:  # noqa: N802 - the extraction keyword
    """A message whose words depend on the number ``n`` (passed to the templates as ``{n}``)."""
    return Msg(ctx, singular, {"n": n, **args}, plural)


def T(ctx: str, name: str, /) -> Msg:  # noqa: N802 - the extraction keyword
    """A term: the name of a thing (a card, a district, a building), translated as a whole."""
    self = _str_new(Msg, name)  # inlined as in ``M``
    self.ctx = ctx
    self.template = name
    self.plural = ""
    self.args = {}
    return self


def load(data: Any) -> Any:
    """A value from its JSON form: a message, a list of items, or a plain value."""
    if isinstance(data, dict):
        if "m" in data and "t" in data:
            args = {k: load(v) for k, v in (data.get("a") or {}).items()}
            return Msg(data["m"], data["t"], args, data.get("p", ""))
        if "j" in data and "i" in data:
            return Join([load(v) for v in data["i"]], data["j"])
    if isinstance(data, list):
        return [load(v) for v in data]
    return data


def dump_or_none(value: Any) -> dict[str, Any] | None:
    """The JSON form of ``value`` if it is a message, else ``None``."""
    return value.dump() if isinstance(value, Msg) else None


def fields(template: str) -> set[str]:
    """The placeholder names of a template (``"{name} pays {n}"`` -> ``{"name", "n"}``)."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in _FORMATTER.parse(template) if name}


def _dump(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.dump()
    if isinstance(value, list | tuple):
        return [_dump(v) for v in value]
    return value


def _english_join(items: list[str], style: str) -> str:
    if style == "comma" or len(items) < 2:
        return ", ".join(items)
    word = " or " if style == "or" else " and "
    return ", ".join(items[:-1]) + word + items[-1]
