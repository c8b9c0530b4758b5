"""Issue 15 ("Auf Deutsch"), Speakeasy engine part A: every text the rules modules ``luciano``, ``goals``,
``setup``, ``acts``, ``cards``, ``money``, ``game``, ``refusals``, ``steps`` and Jo (``jo/setup``, ``jo/turn``,
``jo/actions``, ``jo/war``, ``jo/scoring``) give a player is a message with German words.

Complete self-play games (2-4 players, and solo against Jo at every difficulty) reach every Act, the Mob Wars,
the Cops, the payouts and the final scoring. Every log line those modules say, every question of their steps
and every answer they make must carry a message (``Event.data["msg"]``, ``Prompt.words``, ``Option.words``)
whose every part is in the German catalogue, and whose German has no unfilled ``{field}`` and is not the English
(unless it is a name). The refusals are tried during the games and in the positions the games do not reach.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from engine.core import TABLE, Choice, Event, IllegalChoice, Option, Prompt
from engine.msg import Join, Msg, load
from engine.speakeasy import acts, cards, flow, goals, luciano, money, setup
from engine.speakeasy.jo import actions, scoring, turn, war
from engine.speakeasy.jo import setup as jo_setup
from engine.speakeasy.loader import rules
from engine.speakeasy.steps import SKIP, STEPS
from tests.engine.speakeasy import kit
from words import words

DE, EN = words("de"), words("en")
#: The modules of this part (their log lines are recorded as they are said; flow: an Act begins there, issue 27).
SAYERS = (acts, cards, goals, luciano, setup, jo_setup, turn, actions, war, scoring, flow)
MINE = {m.__name__ for m in (*SAYERS, money)} | {"engine.speakeasy.steps"}
#: The catalogue files of this part (``speakeasy.<module>.po``).
DOMAINS = ("acts", "cards", "game", "goals", "jo", "luciano", "money", "refusals", "setup", "steps")
#: Arguments that are values, the same in every language: player names, numbers, ids printed on the pieces (Jo's
#: card ids, the Central Park tiles' letters), the years, the board side's player counts. ``support`` is the
#: crew module's text (converted with that module) and ``generic`` the engine's list of allowed answers.
#: Arguments that are values, not words: names, and the ids a refusal lists (engine.core: "allowed: open:1:0, ...")
VALUE_ARGS = {
    "name",
    "other",
    "card",
    "tile",
    "years",
    "side",
    "support",
    "generic",
    "allowed",
    "option",
    "kind",
    "kinds",
    "type",
}
#: Message ids whose words are a name (the same in German when the name is): the terms.
NAMES = ("speakeasy.jo.rank", "speakeasy.jo.achievement")
LOCALES = Path(__file__).resolve().parents[3] / "words" / "locales"
#: Options whose label is made by ``gains.hand_options``/``raise_options`` (another module, converted there).
FOREIGN_LABELS = ("play:", "discard:", "raise:")
FIELD = re.compile(r"\{\w*\}")
#: Games played: (players, Jo's difficulty or 0, seeds)
GAMES = [(2, 0, range(4)), (3, 0, range(4)), (4, 0, range(4)), *((1, d, range(3)) for d in (1, 2, 3, 4))]


def _is_name(ctx: str) -> bool:
    return ctx.startswith("speakeasy.term.") or ctx in NAMES


def _step_module(kind: str) -> str:
    """The module that registered a step kind (its own functions; a plain text's lambda is made in steps)."""
    step = STEPS[kind]
    fn = step.options or step.choose or step.auto
    return fn.__module__ if fn is not None else step.text.__module__


def _parts(value: Any) -> Iterator[tuple[str, Any]]:
    """Every message and plain argument inside a message: ``("msg", m)`` and ``(key, value)`` for plain ones."""
    if isinstance(value, Join):
        for item in value.args["items"]:
            yield from _parts(item)
    elif isinstance(value, Msg):
        yield "msg", value
        for key, arg in value.args.items():
            if isinstance(arg, Msg | list | tuple):
                yield from _parts(arg)
            else:
                yield key, arg
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _parts(item)


def problems(value: Any, where: str) -> list[str]:
    """What is wrong with a message a player reads in German (empty: nothing)."""
    if not isinstance(value, Msg):
        return [f"{where}: not a message: {value!r}"]
    out = []
    for key, part in _parts(value):
        if key == "msg":
            if not isinstance(part, Join) and not DE.has(part.ctx, part.template):
                out.append(f"{where}: {part.ctx} {part.template!r} is not in the German catalogue")
        elif isinstance(part, str) and key not in VALUE_ARGS:
            out.append(f"{where}: {value.ctx}: argument {key}={part!r} is plain text, not a message")
    german = DE(value)
    if FIELD.search(german):
        out.append(f"{where}: unfilled field in {german!r}")
    is_name = not value.args and _is_name(value.ctx)
    if german == EN(value) and not is_name:
        out.append(f"{where}: the German is the English: {german!r}")
    return out


class Played:
    """What the games showed: log lines of this part's modules, questions of its steps, refusals, results."""

    def __init__(self) -> None:
        self.said: list[tuple[str, Event]] = []
        self.prompts: list[Prompt] = []
        self.refused: list[IllegalChoice] = []
        self.results: list[Any] = []


def _recorder(module: Any, played: Played):
    original = module.say

    def say(log: list[Event], text: str, *args: Any, **kw: Any) -> None:
        original(log, text, *args, **kw)
        played.said.append((module.__name__, log[-1]))

    return say


def _money_event(played: Played):
    def event(*args: Any, **kw: Any) -> Event:
        made = Event(*args, **kw)
        played.said.append((money.__name__, made))
        return made

    return event


def _refused(prompt: Prompt, option_id: str) -> bool:
    """Whether the prompt does not take this answer now (not offered, or greyed out)."""
    o = prompt.option(option_id)
    return o is None or bool(o.disabled)


def _play(played: Played, players: int, difficulty: int, seed: int) -> None:
    """A complete game: random answers (mostly not the decline), and a few refused choices at every question:
    answers legal earlier in the game, greyed-out ones, and the next seat's answer."""
    rng = random.Random(seed * 100 + players * 10 + difficulty)
    options = {"difficulty": difficulty or 2, "settle": "auto" if seed % 2 == 0 else "off"}
    state, _events = kit.GAME.start([f"P{i + 1}" for i in range(players)], options, seed)
    known: dict[str, set[str]] = {}
    while not kit.GAME.is_over(state):
        prompt = next(p for p in kit.GAME.prompts(state) if p.seat != TABLE)
        if _step_module(prompt.kind) in MINE or any(o.id == SKIP for o in prompt.options):
            played.prompts.append(prompt)
        ids = known.setdefault(prompt.kind, set())
        ids.update(o.id for o in (*prompt.options, *prompt.unavailable))
        wrong = [
            Choice(prompt.seat, prompt.kind, i) for i in sorted(ids) if (o := prompt.option(i)) is None or o.disabled
        ]
        wrong.append(Choice((prompt.seat + 1) % len(state.players), prompt.kind, prompt.options[0].id))
        for choice in rng.sample(wrong, min(2, len(wrong))):
            with pytest.raises(IllegalChoice) as refused:
                kit.GAME.apply(state, choice)
            played.refused.append(refused.value)
        answers = [o for o in prompt.options if o.id != SKIP]
        chosen = rng.choice(answers) if answers and rng.random() < 0.9 else rng.choice(prompt.options)
        kit.GAME.apply(state, Choice(prompt.seat, prompt.kind, chosen.id))
    played.results.append(kit.GAME.result(state))
    kit.ok(state)


@pytest.fixture(scope="module")
def played() -> Played:
    out = Played()
    with pytest.MonkeyPatch.context() as mp:
        for module in SAYERS:
            mp.setattr(module, "say", _recorder(module, out))
        mp.setattr(money, "Event", _money_event(out))
        for players, difficulty, seeds in GAMES:
            for seed in seeds:
                _play(out, players, difficulty, seed)
    return out


def _said(played: Played) -> set[str]:
    return {e.data["msg"]["m"] for _m, e in played.said if "msg" in e.data}


def test_the_games_reach_every_part_of_the_game(played):
    said = _said(played)
    for ctx in (
        "speakeasy.setup.zone_goals",
        "speakeasy.acts.act_begins",
        "speakeasy.luciano.phase",
        "speakeasy.luciano.mob_war",
        "speakeasy.luciano.loses",
        "speakeasy.luciano.defends",
        "speakeasy.luciano.cops_arrive",
        "speakeasy.luciano.zone_payout",
        "speakeasy.acts.final_total",
        "speakeasy.goals.protects",
        "speakeasy.cards.plays",
        "speakeasy.jo.flip_person",
        "speakeasy.jo.final",
        "speakeasy.jo.rank_line",
        "speakeasy.money.paid_split",
    ):
        assert ctx in said, f"no game said {ctx}"
    acts_begun = {
        e.data["msg"]["a"]["act"]
        for _m, e in played.said
        if e.data.get("msg", {}).get("m") == "speakeasy.acts.act_begins"
    }
    assert acts_begun == {2, 3, 4}
    assert len(played.results) == sum(len(seeds) for _p, _d, seeds in GAMES)


def test_every_log_line_of_these_modules_is_a_message_with_german_words(played):
    bad = []
    for module, event in played.said:
        if "msg" not in event.data:
            bad.append(f"{module}: {event.kind} {event.text!r} has no message")
            continue
        msg = load(event.data["msg"])
        assert str(msg) == event.text  # the record keeps the English
        bad += problems(msg, module)
    assert not bad, "\n".join(sorted(set(bad))[:40])


def _option_texts(prompt: Prompt, o: Option) -> Iterator[tuple[str, str]]:
    """The texts of an option this part makes: (field, where)."""
    step = STEPS[prompt.kind]
    mine = _step_module(prompt.kind) in MINE
    if o.id == SKIP:
        # the decline's label: this part's default "Skip", or its own steps' labels
        if mine or o.label == "Skip":
            yield "label", f"{prompt.kind} decline"
        return
    if not mine:
        return
    if not o.id.startswith(FOREIGN_LABELS) or "label" in o.words:
        yield "label", f"{prompt.kind} {o.id}"
    # a private payment's description starts with its split, added by the turn flow (flow.py)
    if o.detail and not (step.private and o.cost > 0):
        yield "detail", f"{prompt.kind} {o.id} detail"
    if o.disabled:
        yield "disabled", f"{prompt.kind} {o.id} disabled"


def test_every_question_and_answer_of_these_modules_is_a_message_with_german_words(played):
    bad = []
    asked = set()
    for prompt in played.prompts:
        if _step_module(prompt.kind) in MINE:
            asked.add(prompt.kind)
            if "text" not in prompt.words:
                bad.append(f"{prompt.kind}: question {prompt.text!r} has no message")
            else:
                bad += problems(load(prompt.words["text"]), f"{prompt.kind} question")
        for o in (*prompt.options, *prompt.unavailable):
            for name, where in _option_texts(prompt, o):
                if name not in o.words:
                    bad.append(f"{where}: {getattr(o, name)!r} has no message")
                else:
                    bad += problems(load(o.words[name]), where)
    assert not bad, "\n".join(sorted(set(bad))[:40])
    assert {"defend", "protect", "cook", "play", "setup_card", "park_bump", "once_more"} <= asked


def test_the_results_are_messages_with_german_words(played):
    bad = [p for result in played.results for line in result.details for p in problems(line, "result")]
    assert not bad, "\n".join(sorted(set(bad))[:40])
    solo = [r for r in played.results if r.details[0].ctx == "speakeasy.game.solo_result"]
    assert solo and all(DE(r.details[2]).startswith("Rang: ") for r in solo)


def _crafted_refusals() -> list[IllegalChoice]:
    """Refusals the random games rarely reach, each set up on purpose."""
    out = []

    def refused(state: Any, choice: Choice) -> None:
        kit.refuse(state, choice)
        with pytest.raises(IllegalChoice) as exc:
            kit.GAME.apply(state, choice)
        out.append(exc.value)

    state = kit.new(2)
    p = kit.prompt(state)
    kit.give(state, p.seat, pocket=0)
    refused(state, Choice(p.seat, "setup_build", "row:casino:0"))  # more than the pocket holds
    refused(state, Choice(9, p.kind, p.options[0].id))  # no such seat
    state = kit.played(2)
    p = kit.prompt(state)
    kit.give(state, p.seat, goons=len(rules().tracks.goon_costs))
    refused(state, Choice(p.seat, "hire_goons", "hire"))
    kit.give(state, p.seat, levels={"vip": rules().tracks.max_level})
    refused(state, Choice(p.seat, "level_any", "raise:vip"))
    # a level that needs discarded cards, with none in hand
    level = min(k for k, n in rules().tracks.ops_discards.items() if n > 0)
    kit.give(state, p.seat, levels={"party": level - 1})
    kit.empty_hand(state, p.seat)
    refused(state, Choice(p.seat, "level_any", "raise:party"))
    state = kit.paused(2)
    kit.task(state, "place", 0)
    refused(state, Choice(0, "place", f"booth:{len(rules().locations.booths)}"))  # not on the small side
    return out


def test_every_refusal_is_a_message_with_german_words_and_stays_english_as_text(played):
    refused = [*played.refused, *_crafted_refusals()]
    reasons = set()
    bad = []
    for exc in refused:
        msg = exc.args[0]
        if isinstance(msg, Msg) and msg.ctx == "speakeasy.refusals.explained":
            reasons |= {part.ctx for key, part in _parts(msg) if key == "msg"}
            assert str(exc) == str(msg) and str(msg.args["reason"]) in str(exc)
            bad += problems(msg, "refusal")
    assert not bad, "\n".join(sorted(set(bad))[:40])
    every = {m.context for m in _catalogue("en", "refusals") if m.id}
    assert every <= reasons, f"never refused with {sorted(every - reasons)}"


def _catalogue(lang: str, domain: str):
    path = LOCALES / lang / "LC_MESSAGES" / f"speakeasy.{domain}.po"
    with path.open("rb") as fh:
        return list(read_po(fh, locale=lang))


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_of_these_modules_has_german_that_is_not_the_english(domain):
    """Including Jo's and the refusals' texts the games may not show: the German is there, uses the same fields
    and says it in German (names aside)."""
    for m in _catalogue("de", domain):
        if not m.id:
            continue
        singular, *plural = m.id if isinstance(m.id, tuple) else (m.id,)
        german = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(german), f"{m.context} {singular!r} has no German"
        is_name = _is_name(m.context)
        if not is_name:
            assert german[0] != singular, f"{m.context}: the German is the English: {singular!r}"
