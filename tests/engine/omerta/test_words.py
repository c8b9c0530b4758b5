"""Issue 15 ("Auf Deutsch"): everything Omerta says is a message with a German text.

Self-play over many games (3-5 players, both rules versions, both paces): every event, question and answer the
engine makes carries its message (no plain English left), every message and every message or term inside it is in
the German catalogue, and its German words have no field left unfilled. The result lines and errors are messages
too."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core import Choice, Event, IllegalChoice, Option, Prompt
from engine.msg import Msg, load
from engine.omerta import OmertaGame
from engine.omerta.cards import deck
from engine.omerta.state import OmertaState
from engine.omerta.table import card_name, slot_name
from tests.engine.omerta.helpers import Pick, arrange, new_table, play
from tests.words.scan import english_words
from words import words

DE = words("de")
NAMES = ["Anna", "Ben", "Cleo", "Dario", "Eve"]
#: A ``{field}`` left in a text: a template whose data did not fill it.
UNFILLED = re.compile(r"\{[a-z_]+\}")
#: Messages a long run of random games must have said (the common lines of every part of the game).
CORE = {
    "omerta.log.gangster",
    "omerta.log.starter",
    "omerta.log.round",
    "omerta.log.peek_look",
    "omerta.log.peek",
    "omerta.log.turn",
    "omerta.log.draw",
    "omerta.log.drew",
    "omerta.log.take",
    "omerta.log.discard",
    "omerta.log.swap",
    "omerta.log.snap_open",
    "omerta.log.snap_none",
    "omerta.log.snap_right",
    "omerta.log.snap_wrong",
    "omerta.log.order_set",
    "omerta.log.order_who",
    "omerta.log.penalty",
    "omerta.log.call",
    "omerta.log.reveal",
    "omerta.log.failed",
    "omerta.log.over",
    "omerta.log.decline",
    "omerta.log.traitor",
    "omerta.log.mole",
    "omerta.log.lady",
    "omerta.log.chauffeur",
    "omerta.log.police",
    "omerta.log.mamma",
    "omerta.log.safecracker",
    "omerta.card",
    "omerta.card.bottle",
    "omerta.term.slot",
    "omerta.ask.peek",
    "omerta.ask.turn",
    "omerta.ask.place",
    "omerta.ask.snap",
    "omerta.ask.orders",
    "omerta.ask.traitor",
    "omerta.ask.safe",
    "omerta.opt.give",
    "omerta.opt.drop",
    "omerta.opt.hold",
    "omerta.opt.order_set",
    "omerta.result.total",
}


def _nodes(data: Any) -> Iterator[dict[str, Any]]:
    """Every message node (``{"m": ctx, "t": template, ...}``) of a message's JSON form, nested ones too."""
    if isinstance(data, dict):
        if "m" in data and "t" in data:
            yield data
            for value in (data.get("a") or {}).values():
                yield from _nodes(value)
        elif "j" in data:
            for item in data.get("i", []):
                yield from _nodes(item)
    elif isinstance(data, list):
        for item in data:
            yield from _nodes(item)


def _check(form: dict[str, Any] | Msg | None, english: str, where: str, seen: set[str]) -> None:
    """A text's message: present, said in English as the struct's text, German for every part, nothing unfilled."""
    assert form is not None, f"{where}: plain text without a message: {english!r}"
    if isinstance(form, Msg):  # a prompt's or option's words keep the message itself
        form = form.dump()
    for node in _nodes(form):
        seen.add(node["m"])
        assert DE.has(node["m"], node["t"]), f"{where}: no German for {node['m']} {node['t']!r}"
    msg = load(form)
    assert str(msg) == english, where
    german = DE(msg)
    assert not UNFILLED.search(german), f"{where}: {german!r}"
    assert not english_words(german, NAMES), f"{where}: English in {german!r}"  # the German scan (tests/words)
    assert not UNFILLED.search(english), f"{where}: {english!r}"


def _check_event(e: Event, seen: set[str]) -> None:
    _check(e.data.get("msg"), e.text, f"event {e.kind}", seen)


def _check_option(o: Option, where: str, seen: set[str]) -> None:
    for name in ("label", "detail", "disabled", "section"):
        if getattr(o, name):
            _check(o.words.get(name), getattr(o, name), f"{where} option {o.id} {name}", seen)


def _check_prompt(p: Prompt, seen: set[str]) -> None:
    _check(p.words.get("text"), p.text, f"prompt {p.kind}", seen)
    for o in (*p.options, *p.unavailable):
        _check_option(o, f"prompt {p.kind}", seen)


def _has_words(p: Prompt) -> None:
    """The quick check of a question not answered this step: every text has its message."""
    assert "text" in p.words, p.text
    for o in (*p.options, *p.unavailable):
        assert all(name in o.words for name in ("label", "detail", "disabled", "section") if getattr(o, name)), o


def _play(seed: int, players: int, rules: int, pace: str, seen: set[str]) -> OmertaState:
    """One random game to its end (OMERTA called now and then), checking everything it says."""
    g = OmertaGame()
    options = {"rules": rules, "pace": pace, "rounds": 2}
    state, events = g.start(NAMES[:players], options, seed)
    rng = random.Random(seed)
    for e in events:
        _check_event(e, seen)
    for _ in range(3000):
        if g.is_over(state):
            break
        prompts = g.prompts(state)
        for p in prompts:
            _has_words(p)
        waiting = [p for p in prompts if not p.optional] or prompts
        # a standing order now and then (pace=post), else the game's own questions
        prompt = rng.choice(prompts if rng.random() < 0.2 else waiting)
        _check_prompt(prompt, seen)  # in full (catalogue and German words): the question answered
        options_ = list(prompt.options)
        if prompt.kind == "turn" and len(options_) > 1 and rng.random() > 0.08:
            options_ = [o for o in options_ if o.id != "omerta"]
        option = rng.choice(options_)
        for e in g.apply(state, Choice(prompt.seat, prompt.kind, option.id)):
            _check_event(e, seen)
    assert g.is_over(state), f"seed {seed}: the game did not end"
    result = g.result(state)
    assert result is not None
    for line in result.details:
        assert isinstance(line, Msg), line
        _check(line.dump(), line, "result", seen)
    return state


@pytest.mark.slow
def test_every_word_omerta_says_in_100_games_is_a_message_with_german() -> None:
    seen: set[str] = set()
    for seed in range(100):
        players = 3 + seed % 3
        rules = 1 + (seed // 3) % 2
        pace = "post" if (seed // 6) % 2 else "live"
        _play(seed, players, rules, pace, seen)
    assert seen >= CORE, sorted(CORE - seen)


def test_a_call_that_makes_it_in_german() -> None:
    """The rare lines random play seldom reaches: the caller makes it."""
    g, s = new_table(3)
    p = Pick()
    arrange(s, active=1, hands={0: p.many(10, 2), 1: p.many(4, 3), 2: p.many(9, "alibi")})
    events = play(g, s, 1, "turn", "omerta")
    seen: set[str] = set()
    for e in events:
        _check_event(e, seen)
    verdict = next(e for e in events if e.kind == "verdict")
    assert DE.stored(verdict.data, verdict.text) == "Ben schafft es und bekommt 0 Punkte."
    assert "omerta.log.made_it" in seen


def test_an_error_is_a_message_too() -> None:
    g = OmertaGame()
    with pytest.raises(Exception) as too_few:
        g.start(["Anna", "Ben"], {}, 1)
    (text,) = too_few.value.args
    assert isinstance(text, Msg) and DE(text) == "Omerta braucht 3 bis 5 Spieler, nicht 2."
    state = _play(7, 3, 2, "live", set())
    with pytest.raises(IllegalChoice) as over:
        g.apply(state, Choice(0, "turn", "draw"))
    assert DE(over.value.args[0]) == "Das Spiel ist vorbei; es kann nichts mehr gespielt werden."


def test_german_uses_the_rulebooks_words() -> None:
    names = {DE(card_name(c.id)) for c in deck().cards}
    assert {"Verräter", "Maulwurf", "Dame", "Chauffeur", "Geldschrankknacker", "La Mamma", "Polizeikontrolle"} <= names
    assert {"Alibi", "Flasche 7", "Al Capone"} <= names
    assert DE(slot_name(2)) == "Platz 3"
