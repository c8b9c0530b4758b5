"""The table options' help in the reader's language: the engines write each option's help in English
(``OptionSpec.help``); the table layer shows it by the option's name (``table.help.<name>``), and ``/game new``
suggests the options of the chosen game with it as the host types."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from engine.core import Game
from engine.msg import Msg
from engine.options import OptionSpec
from words import words

#: Discord's limit for an autocomplete choice's name and value.
CHOICE_MAX = 100


def help_message(spec: OptionSpec) -> Msg:
    """An option's help as a message (one the engine gave as a message stays it)."""
    return spec.help if isinstance(spec.help, Msg) else Msg(f"table.help.{spec.name}", spec.help)


def help_text(spec: OptionSpec, lang: str | None) -> str:
    """An option's help in ``lang``."""
    return words(lang)(help_message(spec))


def help_terms() -> Iterator[tuple[str, str, str]]:
    """Every option's help as ``(message id, English, where)``, for the catalogue."""
    from engine.registry import TABLE_GAMES

    for game in TABLE_GAMES.values():
        for spec in game.option_specs:
            msg = help_message(spec)
            yield msg.ctx, msg.template, f"engine/{game.name}"


def _clip(text: str) -> str:
    return text if len(text) <= CHOICE_MAX else text[: CHOICE_MAX - 1] + "…"


def suggestions(games: Mapping[str, Game], game: str | None, typed: str, lang: str | None) -> list[tuple[str, str]]:
    """``(shown, value)`` pairs for the options text typed so far: the options of ``game`` (every game's when
    none is chosen yet) not given yet whose name starts with the word being typed, each with its default and
    help; choosing one appends ``name=default`` to what was typed."""
    chosen = [games[game]] if game in games else list(games.values())
    head, _, last = typed.rpartition(" ") if not typed.endswith(" ") else (typed.rstrip(), " ", "")
    given = {part.split("=", 1)[0] for part in head.replace(",", " ").split()}
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for g in chosen:
        for spec in g.option_specs:
            if spec.name in seen or spec.name in given or not spec.name.startswith(last.split("=", 1)[0]):
                continue
            seen.add(spec.name)
            default = spec.default if spec.new_default is None else spec.new_default
            pair = f"{spec.name}={default}"
            value = f"{head} {pair}".strip()
            if len(value) > CHOICE_MAX:
                continue
            out.append((_clip(f"{pair} · {help_text(spec, lang)}"), value))
    return out[:25]
