"""The engine contract every game implements.

A game is a set of pure, synchronous functions over a state object:

* ``new(seats, options, seed)`` makes the state; all randomness later comes from the ``Rng`` stored in it.
* ``prompts(state)`` lists who may decide now and what, with every legal option.
* ``apply(state, choice)`` validates the choice against those prompts, raises ``IllegalChoice`` (the state
  untouched) if it is not one of them, and otherwise changes the state and returns log ``Event``s.
* ``view(state, seat)`` is the only way code outside the engine reads a state; ``seat=None`` is a spectator.
* ``dumps``/``loads`` round-trip a state through JSON without loss.

The record of a game is ``(seats, options, seed)`` plus its list of choices: ``replay`` rebuilds the state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import msgspec

from engine.msg import Join, M, Msg, load

if TYPE_CHECKING:  # the options are a module of their own, above this one
    from engine.options import OptionSpec

#: The seat number of "the table": the timer that closes a real-time window (e.g. a snap race).
TABLE = -1

_MASK64 = (1 << 64) - 1

# Module names for what every new option calls (``Option.__post_init__``): a message's English as a plain str
_force_setattr = msgspec.structs.force_setattr
_plain = str.__str__


class Rng(msgspec.Struct):
    """A small deterministic generator (SplitMix64) whose whole state is one integer.

    Python's ``random`` could change its algorithms between versions and its state is 625 numbers; this one
    serialises as a single number and gives the same sequence everywhere, so a replay is exact.
    """

    state: int

    def next64(self) -> int:
        """Return the next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[Any]) -> Any:
        """One element of a non-empty sequence."""
        return items[self.below(len(items))]


class Chance(Protocol):
    """A caller's generator, for ``Game.scramble`` (a ``random.Random`` is one). The rules never draw from it: the
    engine takes no randomness but the ``Rng`` in the state, and imports no ``random``."""

    def shuffle(self, x: list[Any]) -> None:
        """Shuffle a list in place."""

    def random(self) -> float:
        """A uniform float in [0, 1)."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """A uniform integer of ``range(start, stop, step)``."""

    def getrandbits(self, k: int, /) -> int:
        """A uniform integer of ``k`` bits."""


class Option(msgspec.Struct, frozen=True):
    """One legal answer to a prompt: a stable id for machines and a short label for people."""

    id: str
    label: str
    detail: str = ""
    #: ``"primary"`` for the expected next step, ``"danger"`` for an irreversible or risky one.
    style: str = "secondary"
    #: Dollars the option costs its chooser (0: none). A game uses it to keep a question private when offering
    #: the option shows what the public cannot know (e.g. that a hidden safe can cover it).
    cost: int = 0
    #: Why the option is not possible now ("": it is). Such an option is never among a prompt's ``options``,
    #: only in its ``unavailable`` ones, shown greyed out where that teaches the rules.
    disabled: str = ""
    #: Where it belongs in a long menu, coarse to fine ("Downtown · Chelsea"): the table splits menus by it
    section: str = ""
    #: The translatable form of its texts (field name -> the ``Msg``, or its JSON form with the English shown as
    #: ``"s"``; see ``engine/msg.py``), filled when a text is given as a ``Msg``; the words layer reads it.
    words: dict[str, Any] = {}

    def __post_init__(self) -> None:
        # A new option (no words yet) is done here, field by field: options are made by the thousand a game, and
        # this is the common case. One made by ``msgspec.structs.replace`` goes the general way.
        if self.words:
            _take_words(self, _OPTION_TEXTS)
            return
        # unrolled, plain text first, each field read once: this runs for every option made
        label, detail, disabled, section = self.label, self.detail, self.disabled, self.section
        words: dict[str, Any] | None = None
        if type(label) is not str and isinstance(label, Msg):
            words = {"label": label}
            _force_setattr(self, "label", _plain(label))
        if type(detail) is not str and isinstance(detail, Msg):
            words = {} if words is None else words
            words["detail"] = detail
            _force_setattr(self, "detail", _plain(detail))
        if type(disabled) is not str and isinstance(disabled, Msg):
            words = {} if words is None else words
            words["disabled"] = disabled
            _force_setattr(self, "disabled", _plain(disabled))
        if type(section) is not str and isinstance(section, Msg):
            words = {} if words is None else words
            words["section"] = section
            _force_setattr(self, "section", _plain(section))
        if words is not None:
            _force_setattr(self, "words", words)


class Prompt(msgspec.Struct, frozen=True):
    """A decision someone may take now.

    Several prompts can be open at once (every player peeking, or a snap race). Prompts that share a
    ``race`` id are a race: the first choice applied closes all of them. ``seat == TABLE`` is the timer's
    prompt of a race, answered by the service when the window closes without a claim.
    """

    seat: int
    kind: str
    text: str
    options: tuple[Option, ...]
    race: str | None = None
    #: The question is private: its text and options may name things only ``seat`` may see (e.g. the card it
    #: drew). Decided by the kind of question, never by a hidden value; its public side is ``public()``.
    secret: bool = False
    #: The option the table takes for an idle player (the host's skip), as the game decides it; ``None``: the
    #: first option.
    default: str | None = None
    #: Questions of one seat that share a group (e.g. the defence of each building in one Mob War district) are
    #: asked one after the other; the table may let the player decide the whole group at once.
    group: str | None = None
    #: Answers that are not possible now, each with its ``disabled`` reason ("Defend: needs 8, you reach 5")
    unavailable: tuple[Option, ...] = ()
    #: A question the game never waits for (e.g. Omerta's standing snap orders): its seat may answer it at any
    #: time, and nobody is pinged, reminded or skipped for it. See ``waits_for``.
    optional: bool = False
    #: The translatable form of ``text`` (see ``Option.words``).
    words: dict[str, Any] = {}
    #: A long question the table asks in two steps (e.g. Omerta's standing orders: which slot, then which Bottle):
    #: these are the first step's answers, each naming a part of the options (its ``label`` is their ``section``;
    #: its ``id`` is short and stays the same while the part exists). Only the second step is an answer (one of
    #: ``options``): the first changes nothing. A private question's alone: a public one shows its options flat.
    steps: tuple[Option, ...] = ()

    def __post_init__(self) -> None:
        # A new prompt (no words yet) is done here: one is made for every choice; otherwise the general way.
        text = self.text
        if not self.words:
            if type(text) is not str and isinstance(text, Msg):
                msgspec.structs.force_setattr(self, "words", {"text": text})
                msgspec.structs.force_setattr(self, "text", str.__str__(text))
            return
        _take_words(self, _PROMPT_TEXTS)

    def default_option(self) -> str:
        """The id of the option the table takes when this seat's turn is skipped."""
        if self.default is not None and self.option(self.default) is not None:
            return self.default
        return self.options[0].id

    def public(self) -> PublicPrompt:
        """What everyone may know of this question: who is asked which kind of question and, unless it is
        secret, its words and options. The only way a prompt reaches public output."""
        if self.secret:
            return PublicPrompt(self.seat, self.kind, "", (), self.race, True, self.optional)
        return PublicPrompt(self.seat, self.kind, self.text, self.options, self.race, False, self.optional, self.words)

    def option(self, option_id: str) -> Option | None:
        """The option with this id, if it is legal."""
        for opt in self.options:
            if opt.id == option_id:
                return opt
        return None

    def step_options(self, step_id: str) -> list[Option]:
        """The options of the first-step answer ``step_id`` (``steps``): those in its section; none if there is
        no such step."""
        step = next((s for s in self.steps if s.id == step_id), None)
        return [] if step is None else [o for o in self.options if o.section == step.label]


class PublicPrompt(msgspec.Struct, frozen=True):
    """The public side of a ``Prompt``: a secret prompt keeps only its seat, kind and race (its words come
    from the kind, in the words layer)."""

    seat: int
    kind: str
    text: str
    options: tuple[Option, ...]
    race: str | None
    secret: bool
    optional: bool = False
    words: dict[str, Any] = {}


def waits_for(prompt: Prompt | PublicPrompt) -> bool:
    """Whether the game waits for this question's answer: not a race window, not the table's timer, not an
    optional question (these are answered when their seat likes, or closed by the table)."""
    return prompt.race is None and prompt.seat != TABLE and not prompt.optional


_OPTION_TEXTS = ("label", "detail", "disabled", "section")
_PROMPT_TEXTS = ("text",)


def _take_words(obj: Any, names: tuple[str, ...]) -> None:
    """Turn the ``Msg`` texts of a just-made ``Prompt`` or ``Option`` into plain English, keeping each message in
    ``words``. An entry may also be a message's JSON form with the English shown (``"s"``, when the English was
    cut). A plain text given later (``msgspec.structs.replace``) drops an entry that no longer matches it."""
    words = obj.words
    new: dict[str, Any] | None = None
    for name in names:
        value = getattr(obj, name)
        if type(value) is str:
            if words and name in words:
                kept = words[name]
                shown = kept.get("s") if type(kept) is dict else kept
                if shown != value:
                    new = dict(words) if new is None else new
                    del new[name]
        elif isinstance(value, Msg):
            new = dict(words) if new is None else new
            new[name] = value
            msgspec.structs.force_setattr(obj, name, str.__str__(value))
    if new is not None:
        msgspec.structs.force_setattr(obj, "words", new)


class Choice(msgspec.Struct, frozen=True):
    """What a seat decided: the prompt kind it answers and the option id."""

    seat: int
    kind: str
    option: str


class Event(msgspec.Struct, frozen=True):
    """A log line. ``to`` is ``None`` for everyone, or the seats that may see it."""

    kind: str
    text: str
    to: tuple[int, ...] | None = None
    data: dict[str, Any] = {}

    def __post_init__(self) -> None:
        # A message given as text: the text becomes its English, its JSON form goes with the data ("msg").
        text = self.text
        if type(text) is not str and isinstance(text, Msg):
            msgspec.structs.force_setattr(self, "data", {**self.data, "msg": text.dump()})
            msgspec.structs.force_setattr(self, "text", str.__str__(text))

    def visible_to(self, seat: int | None) -> bool:
        """Whether this seat (``None``: a spectator) may see the event."""
        return self.to is None or (seat is not None and seat in self.to)


class Result(msgspec.Struct, frozen=True):
    """The end of a game: each seat's score, the winners, and a breakdown people can read."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    lower_is_better: bool
    details: tuple[str, ...] = ()


class EngineError(Exception):
    """Base of the engine's errors."""


class IllegalChoice(EngineError):
    """A choice that is malformed or not legal now. The message says why and what is allowed."""


class BadOptions(EngineError):
    """Seats or table options a game cannot start with."""


class Game(Protocol):
    """What each game module provides (see ``engine.registry``)."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]]

    def new(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> Any:
        """A new game for these seat names."""

    def start(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> tuple[Any, list[Event]]:
        """A new game and the set-up's log events."""

    def prompts(self, state: Any) -> list[Prompt]:
        """Every open prompt."""

    def apply(self, state: Any, choice: Choice) -> list[Event]:
        """Apply one choice in place, or raise ``IllegalChoice`` without changing anything."""

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What this seat (``None``: a spectator) may see, as JSON-ready data."""

    def views(self, state: Any, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """``view`` for each of ``seats`` at once (cheaper than one by one where the public part is large). The
        views may share their public parts: read them, don't change them."""

    def dumps(self, state: Any) -> bytes:
        """The state as JSON."""

    def loads(self, data: bytes | str) -> Any:
        """A state from ``dumps``."""

    def is_over(self, state: Any) -> bool:
        """Whether the game has ended."""

    def result(self, state: Any) -> Result | None:
        """Final scores once the game is over."""

    def invariants(self, state: Any) -> list[str]:
        """Broken invariants (empty when all hold); used by self-play and tests."""

    def scramble(self, state: Any, seat: int | None, rng: Chance) -> Any:
        """A copy of ``state`` in which everything ``seat`` (``None``: a spectator) may not see is changed at
        random, consistently (every piece still in one place): the same game as that seat knows it. The
        differential privacy tests and the bots' sampling of hidden information use it."""


def find_prompt(prompts: Sequence[Prompt], choice: Choice) -> Prompt:
    """The open prompt a choice answers; raises ``IllegalChoice`` with a helpful message otherwise."""
    if not isinstance(choice, Choice):
        raise IllegalChoice(
            M("engine.core.not_choice", "A choice must be a Choice, not {type}.", type=type(choice).__name__)
        )
    if (
        isinstance(choice.seat, bool)
        or not isinstance(choice.seat, int)
        or not isinstance(choice.kind, str)
        or not isinstance(choice.option, str)
    ):
        raise IllegalChoice(M("engine.core.bad_choice", "A choice needs an integer seat and text kind and option."))
    mine = [p for p in prompts if p.seat == choice.seat]
    if not mine:
        waiting = sorted({p.seat for p in prompts if p.seat != TABLE})
        if waiting:
            who = Join([M("engine.core.seat", "seat {n}", n=s) for s in waiting], "comma")
        else:
            who = M("engine.core.nobody", "nobody")
        raise IllegalChoice(
            M(
                "engine.core.nothing_to_decide",
                "Seat {seat} has nothing to decide now; waiting for {who}.",
                seat=choice.seat,
                who=who,
            )
        )
    for prompt in mine:
        if prompt.kind != choice.kind:
            continue
        chosen = prompt.option(choice.option)
        if chosen is None or chosen.disabled:
            allowed = ", ".join(o.id for o in prompt.options if not o.disabled)
            if chosen is not None:
                raise IllegalChoice(
                    M(
                        "engine.core.disabled_answer",
                        "{option} is not a legal answer to {kind} ({label}: {why}); allowed: {allowed}.",
                        option=repr(choice.option),
                        kind=repr(prompt.kind),
                        label=_field_msg(chosen, "label"),
                        why=_field_msg(chosen, "disabled"),
                        allowed=allowed,
                    )
                )
            raise IllegalChoice(
                M(
                    "engine.core.illegal_answer",
                    "{option} is not a legal answer to {kind}; allowed: {allowed}.",
                    option=repr(choice.option),
                    kind=repr(prompt.kind),
                    allowed=allowed,
                )
            )
        return prompt
    kinds = ", ".join(p.kind for p in mine)
    raise IllegalChoice(
        M(
            "engine.core.not_asked",
            "Seat {seat} is not asked {kind} now; it is asked: {kinds}.",
            seat=choice.seat,
            kind=repr(choice.kind),
            kinds=kinds,
        )
    )


def _field_msg(obj: Any, name: str) -> Any:
    """A struct's text field as its message again (from its ``words``), else the plain text."""
    data = (obj.words or {}).get(name)
    return load(data) if data else getattr(obj, name)


def replay(game: Game, seats: Sequence[str], options: Mapping[str, Any], seed: int, choices: Iterable[Choice]):
    """Rebuild a state from its record."""
    state = game.new(seats, options, seed)
    for choice in choices:
        game.apply(state, choice)
    return state


_choice_encoder = msgspec.json.Encoder()
_choice_decoder = msgspec.json.Decoder(Choice)


def dump_choice(choice: Choice) -> str:
    """A choice as compact JSON (the form kept in the store)."""
    return _choice_encoder.encode(choice).decode()


@lru_cache(maxsize=8192)  # a record is read again at every board (undo, effective choices); a Choice is frozen
def load_choice(data: str | bytes) -> Choice:
    """A choice from ``dump_choice``."""
    return _choice_decoder.decode(data)
