"""Issue 15 ("Auf Deutsch"): every text the Speakeasy modules of part B say is a message with German words.

The modules: buildings, barrels, locations, docks, flow, economy, crew and gains. Self-play games (solo with Jo and
2-4 players, with and without settling) and a few arranged positions for what random play rarely reaches make
every log line, question and answer these modules have. For each: it carries a message (``Event.data["msg"]``,
``Prompt.words``, ``Option.words`` for label, detail and section), every message and nested message or term is in
the German catalogue, its German has no unfilled ``{field}`` and differs from the English unless it is a name, and
every message id of these modules' catalogues was said at least once.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from engine.core import Choice, Event, Option, Prompt
from engine.msg import Join, Msg, fields, load
from engine.speakeasy import barrels, board, buildings, crew, docks, economy, flow, gains, locations, money
from engine.speakeasy.steps import SKIP, STEPS
from tests.engine.speakeasy import kit
from words import words

MODULES = (barrels, buildings, crew, docks, economy, flow, gains, locations)
NAMES = {m.__name__ for m in MODULES}
#: The catalogue files of these modules (``speakeasy.<module>.po``).
CATALOGUES = sorted(f"speakeasy.{m.__name__.rsplit('.', 1)[1]}" for m in MODULES)
LOCALES = Path(__file__).resolve().parents[3] / "words" / "locales"
DE = words("de")
#: (players, seed, settle): solo (Jo) and 2-4 players; settling on in some, so the settled answers are said too.
GAMES = [(1 + i % 4, 40 + i, "auto" if i % 3 == 0 else "off") for i in range(12)]
#: Texts made outside part B that part B's messages take as they are: the payer's pocket/safe split
#: (``money.split_text``), the steps' general reason for a settled answer (``steps.forced_answer``) and other
#: modules' answers. Their modules are converted on their own; a plain text is accepted there, a message is
#: checked like the rest.
OUTSIDE = {
    ("speakeasy.flow.split", "split"),
    ("speakeasy.flow.settled", "reason"),
    # the answer named by a settled or declined question: part B's own answers are messages (checked where they
    # are made), so a plain one is another module's
    ("speakeasy.flow.settled", "answer"),
    ("speakeasy.flow.declined", "answer"),
}
#: Questions of automatic steps, never asked (a step with ``auto`` runs at once): their texts are never shown.
NEVER_ASKED = {"speakeasy.barrels.ask_produce", "speakeasy.gains.ask_gain", "speakeasy.locations.ask_booth",
               "speakeasy.locations.ask_first"}  # fmt: skip
_UNFILLED = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
_LETTERS = re.compile(r"[A-Za-z]")
#: The players' names in these games (seats P1..P4, and Jo)
_PLAYER = re.compile(r"P\d|Jo")


def _owner(kind: str) -> str:
    """The module that registered a step kind (its options, choose or auto function is defined there)."""
    step = STEPS[kind]
    fn: Callable[..., Any] | None = step.options or step.choose or step.auto
    assert fn is not None
    return fn.__module__


class Said:
    """Everything the part-B modules said: the messages (with where they were said) and what broke the rules."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, Any]] = []
        self.problems: list[str] = []

    def add(self, where: str, value: Any) -> None:
        """Keep one text: it must be a message."""
        if isinstance(value, Msg):
            self.messages.append((where, value))
        else:
            self.problems.append(f"{where}: plain text {value!r}")

    def say_of(self, module: str, real: Callable[..., None]) -> Callable[..., None]:
        """A ``say`` for one module that keeps its line (and checks the event keeps the message)."""

        def say(log: list[Event], text: str, *args: Any, **kw: Any) -> None:
            self.add(f"{module} log", text)
            real(log, text, *args, **kw)
            if isinstance(text, Msg) and log[-1].data.get("msg") != text.dump():
                self.problems.append(f"{module} log: the event lost its message: {log[-1]}")

        return say

    def opt_of(self, module: str, real: Callable[..., Option]) -> Callable[..., Option]:
        """An ``opt`` for one module that keeps its label and detail."""

        def opt(id_: str, label: str, detail: str = "", *args: Any, **kw: Any) -> Option:
            self.add(f"{module} option {id_} label", label)
            if detail:
                self.add(f"{module} option {id_} detail", detail)
            return real(id_, label, detail, *args, **kw)

        return opt

    def prompt(self, p: Prompt) -> None:
        """A question: part B's own have their text as a message; every section and split detail is flow's."""
        mine = _owner(p.kind) in NAMES
        if mine:
            self.add(f"{p.kind} text", _field(p, "text"))
        for o in (*p.options, *p.unavailable):
            if o.section:
                self.add(f"{p.kind} option {o.id} section", _field(o, "section"))
            if not mine:
                continue
            self.add(f"{p.kind} option {o.id} label", _field(o, "label"))
            if o.detail:
                detail = _field(o, "detail")
                if not (isinstance(detail, str) and o.cost and p.secret and _is_split(detail)):
                    self.add(f"{p.kind} option {o.id} detail", detail)
            if o.disabled:
                self.add(f"{p.kind} option {o.id} disabled", _field(o, "disabled"))


def _field(obj: Any, name: str) -> Any:
    """A struct's text field as its message, or its plain text."""
    kept = obj.words.get(name)
    return load(kept) if kept else getattr(obj, name)


def _is_split(text: str) -> bool:
    """Whether a plain detail is only ``money.split_text``'s (the payer's split, made outside part B)."""
    return text.startswith("$") and ("pocket" in text or "safe" in text) and " · " not in text


def _play(state: Any, seed: int, said: Said) -> None:
    """Play to the end, mostly taking a real action rather than declining (so more of the rules are reached)."""
    rng = random.Random(seed)
    while not kit.GAME.is_over(state):
        prompts = kit.GAME.prompts(state)
        p = rng.choice(prompts)
        said.prompt(p)
        acting = [o for o in p.options if o.id not in (SKIP, "back", "done", "end")]
        o = rng.choice(acting) if acting and rng.random() < 0.9 else rng.choice(p.options)
        kit.GAME.apply(state, Choice(p.seat, p.kind, o.id))


def _arranged(said: Said) -> None:
    """Positions random play rarely reaches: a free space without a City tile, a Ship without its Crate, the
    stolen barrel put at a building, barrels produced, and Jo's Infamy reward."""
    state = kit.paused(players=3, seed=5)
    d, i = next(
        (d, i) for d in state.districts for i, sp in enumerate(d.spaces) if sp.building is None and not sp.mobster
    )
    d.spaces[i].tile = None
    kit.give(state, 0, pocket=30)
    kit.task(state, "build", 0, n=1)
    said.prompt(kit.prompt(state))
    kit.answer(state, "row:speakeasy:0")
    said.prompt(kit.prompt(state))
    kit.answer(state, f"open:{d.number}:{i}")

    state = kit.paused(players=3, seed=6)
    ship = state.ships[0]
    zone = docks.zone_index(ship.port)
    state.docks[zone][:2] = [0, 0]
    state.player(0).family_supply -= 2
    ship.barrels = max(ship.barrels, 1)
    ship.crate = None  # its Crate already taken
    kit.give(state, 0, goons=6, pocket=20)
    number = next(
        d.number
        for d in state.districts
        if board.is_open(state, d.number) and any(sp.building is None for sp in d.spaces)
    )
    kit.calm(state, number)
    kit.build(state, 0, number, kit.empty_space(state, number), "speakeasy")
    kit.task(state, "ambush", 0)
    said.prompt(kit.prompt(state))
    kit.answer(state, "amb:1:")
    said.prompt(kit.prompt(state))
    kit.answer(state, next(o.id for o in kit.prompt(state).options if o.id.startswith("to:")))

    state = kit.paused(players=2, seed=8)
    number = next(d.number for d, _i, b in board.buildings(state, 0) if b.kind == "stills")
    kit.calm(state, number)
    kit.task(state, "produce", 0)

    state = kit.GAME.new(["P1"], {}, 7)
    kit.setup_round(state)
    jo = state.jo.seat
    log: list[Event] = []
    economy.gain_infamy(state, jo, 30, log)


@pytest.fixture(scope="module")
def said() -> Said:
    """Play the games and the arranged positions with every part-B module's ``say`` and ``opt`` watched."""
    out = Said()
    with pytest.MonkeyPatch.context() as mp:
        for m in MODULES:
            name = m.__name__.rsplit(".", 1)[1]
            mp.setattr(m, "say", out.say_of(name, m.say))
            if hasattr(m, "opt"):
                mp.setattr(m, "opt", out.opt_of(name, m.opt))
        for players, seed, settle in GAMES:
            _play(kit.GAME.new([f"P{i + 1}" for i in range(players)], {"settle": settle}, seed), seed, out)
        _arranged(out)
    return out


def _tree(value: Any, parent: tuple[str, str] | None = None) -> Iterator[tuple[Any, tuple[str, str] | None]]:
    """A message and every message, term, list and plain value inside it, each with its parent (id, field)."""
    yield value, parent
    if isinstance(value, Join):
        for item in value.args["items"]:
            yield from _tree(item, parent)
    elif isinstance(value, Msg):
        for key, arg in value.args.items():
            yield from _tree(arg, (value.ctx, key))


def _is_name(m: Msg) -> bool:
    """A term (a thing's name, which may read the same in German) or a template with no words of its own."""
    return (
        m.ctx.startswith("speakeasy.term.")
        or m.ctx == "speakeasy.gains.bottle"
        or not _LETTERS.search(re.sub(r"\{[^}]*\}", "", m.template))
    )


def test_every_text_is_a_message(said: Said) -> None:
    """Every log line, question, answer, detail and section of part B is a message."""
    assert len(said.messages) > 1000
    assert said.problems == []


def test_every_message_is_in_the_german_catalogue(said: Said) -> None:
    """Every message and nested message or term is in the German catalogue, with the same fields."""
    missing = set()
    for _where, m in said.messages:
        for node, _parent in _tree(m):
            if isinstance(node, Msg) and not isinstance(node, Join) and not DE.has(node.ctx, node.template):
                missing.add((node.ctx, node.template))
    assert missing == set()


def test_german_is_filled_and_differs_from_english(said: Said) -> None:
    """The German has no unfilled field, every part that is not a name reads differently from the English, and
    nothing English comes in as a plain value (player names and amounts only)."""
    seen: set[str] = set()
    bad = []
    for where, m in said.messages:
        text = DE(m)
        if text in seen:
            continue
        seen.add(text)
        if _UNFILLED.search(text):
            bad.append(f"{where}: unfilled field in {text!r}")
        for node, parent in _tree(m):
            if isinstance(node, Join):
                continue
            if isinstance(node, Msg):
                if not _is_name(node) and DE(node) == str(node):
                    bad.append(f"{where}: {node.ctx} reads the same in German: {DE(node)!r}")
            elif (
                isinstance(node, str)
                and _LETTERS.search(node)
                and parent not in OUTSIDE
                and not _PLAYER.fullmatch(node)
            ):
                bad.append(f"{where}: plain English {node!r} in {parent}")
    assert bad == []


def _catalogue_ids() -> set[tuple[str, str]]:
    """Every (id, English) of part B's catalogue files."""
    out = set()
    for name in CATALOGUES:
        path = LOCALES / "en" / "LC_MESSAGES" / f"{name}.po"
        for entry in read_po(path.open("rb")):
            if entry.id:
                out.add((entry.context, entry.id[0] if isinstance(entry.id, tuple) else entry.id))
    return out


def test_every_message_of_part_b_is_said(said: Said) -> None:
    """The games reach every location, building, upgrade, barrel, Docks, Helper and City tile message: each
    message id of part B's catalogues was said (except the texts of automatic steps, never asked)."""
    spoken = {(n.ctx, n.template) for _w, m in said.messages for n, _p in _tree(m) if isinstance(n, Msg)}
    unsaid = {(ctx, t) for ctx, t in _catalogue_ids() - spoken if ctx not in NEVER_ASKED}
    assert unsaid == set()


def test_every_person_and_place_is_visited(said: Said) -> None:
    """Every Person of Interest, every Restaurant booth, first place and every Park space got a Capo."""
    sent = {str(m) for _w, m in said.messages if m.ctx.startswith("speakeasy.locations.sent")}
    r = kit.R().locations
    for per in r.persons:
        assert any(f"({per.location})" in s and per.name in s for s in sent), per.name
    for b in r.booths:
        assert any(f"Restaurant booth {b.number}" in s for s in sent), b.number
    for sp in r.park:
        assert any(f"Park space {sp.number}." in s for s in sent), sp.number
    assert any(r.first_place.name in s for s in sent)


def test_german_fields_match_english() -> None:
    """Each German text of part B uses exactly the English template's fields."""
    for name in CATALOGUES:
        path = LOCALES / "de" / "LC_MESSAGES" / f"{name}.po"
        for entry in read_po(path.open("rb"), locale="de"):
            if not entry.id:
                continue
            english = entry.id if isinstance(entry.id, tuple) else (entry.id,)
            german = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            want = set().union(*(fields(e) for e in english))
            for g in german:
                assert g, (entry.context, entry.id)
                assert fields(g) <= want | {"n"} and fields(g) >= fields(english[0]) - {"n"}, (entry.context, g)


def test_step_words_match_the_step_kinds() -> None:
    """The Person steps a Capo question lists are the data's step kinds, in the same words (lower case first)."""
    from engine.speakeasy.components import STEP_KINDS

    assert {k: str(v) for k, v in locations.STEP_WORDS.items()} == {
        k: v[0].lower() + v[1:] for k, v in STEP_KINDS.items()
    }


def test_bottles_are_every_helper_bottle() -> None:
    """Every bottle a Helper card names has its words."""
    assert {h.bottle for h in kit.R().helpers.cards} == set(gains.BOTTLES)


def test_split_detail_keeps_the_english_cut_and_the_whole_message() -> None:
    """A payment's detail shows the split first; when the English is cut to Discord's 100 characters the message
    stays whole (the table cuts each language's words itself)."""
    state = kit.paused(players=3, seed=3)
    p = state.player(0)
    kit.give(state, 0, pocket=1, safe=40)
    longest = max(kit.R().locations.persons, key=lambda per: len(locations.steps_text(per)))
    option = Option("x", "Label", locations.steps_text(longest), cost=5)
    out = flow._with_split(option, p)
    assert len(str(money.split_text(p, 5))) + 3 + len(option.detail) > flow.DETAIL_MAX
    assert len(out.detail) == flow.DETAIL_MAX and out.detail.endswith("…")
    assert out.detail.startswith(str(money.split_text(p, 5)))
    assert out.words["detail"]["m"] == "speakeasy.flow.split"
    assert out.words["detail"]["s"] == out.detail
    assert DE.field(out, "detail").endswith(DE(locations.steps_text(longest)))
