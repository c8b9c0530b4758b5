"""A Speakeasy seat bot that plays the human rules (not Jo's cards), at three levels.

Every level decides on a sampled world (``speakeasy_worlds.world``): the position as the bot's seat knows it,
with what it cannot see drawn at random from a generator seeded by its view. So it never reads another hand, a
safe or a deck order, and the same position gives the same decision.

- ``easy`` tries each option once and keeps the one that leaves its own position worth most (``value``);
- ``standard`` looks one step ahead: each option, then the rest of its own turn played the easy way, judged by
  its worth against the best rival's;
- ``hard`` is a determinised Monte Carlo search: for several sampled worlds it plays each promising option out
  for a stretch of the game with every seat on the easy policy and keeps the best mean margin, within a node
  limit (reproducible) and a time budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bots.common import check_level, view_rng
from bots.speakeasy_worlds import copy, world
from bots.speakeasy_worth import PREPARE, Prepare, Reading, earning, flat_worth, war_risk
from engine.core import TABLE, Choice, Option, Prompt
from engine.speakeasy.acts import bottles
from engine.speakeasy.game import SpeakeasyGame
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState

GAME = SpeakeasyGame()

LEVEL_WORTH = 2
#: How many options ``hard`` searches (the best by the standard lookahead), and how far its playouts go.
HARD_WIDTH = 4
HARD_DEPTH = 60
#: Steps of its own turn ``standard`` plays out after an option.
TURN_STEPS = 12


@dataclass(frozen=True)
class Budget:
    """The hard search's limits: applied choices (the reproducible limit) and seconds (a safety net)."""

    nodes: int = 6000
    seconds: float = 2.0


def value(state: SpeakeasyState, seat: int, prep: Prepare | None = None, reading: Reading | None = None) -> float:
    """A seat's position in dollars, readable: money (pocket and safe), income (buildings, barrels, tracks,
    operating buildings) and safety (Protected buildings, goons); the final total once the game is over. With
    ``prep`` (the bot that prepares, issue 25) a building is also worth what it will still earn, less what the
    coming Mob War is expected to take (``speakeasy_worth``; ``reading``: the position's, shared by the seats)."""
    p = state.player(seat)
    if state.phase == "over" and p.final:
        return float(p.final["total"])
    protected = rules(state).final.protected
    money = p.pocket + p.safe
    income = 0.0
    safety = 0.0
    worth: dict[tuple[int, int], float] = {}
    if prep is not None and reading is None:
        reading = Reading(state)
    # ``board.buildings(state, seat)`` walked without a generator: ``value`` runs after every trial of a search
    for d in state.districts:
        for i, sp in enumerate(d.spaces):
            b = sp.building
            if b is None or b.owner != seat:
                continue
            w = flat_worth(d, b)
            if b.family:
                safety += protected[b.kind]
            if prep is not None:
                w += earning(state, seat, d, b, prep, reading)
                worth[(d.number, i)] = w + (protected[b.kind] if b.family else 0)
            income += w
    income += sum(bottles(state, seat)) + 2 * p.stills_barrels + LEVEL_WORTH * sum(p.levels.values())
    safety += p.goons + p.leverage
    if prep is not None and worth:
        safety -= war_risk(state, seat, worth, prep, reading)
    board = 3 * p.books + 2 * (p.family_vip + sum([z.count(seat) for z in state.docks])) + len(p.hand)
    return money + income + safety + board


def margin(state: SpeakeasyState, seat: int, prep: Prepare | None = None) -> float:
    """Its worth against the best rival's (what winning needs)."""
    reading = Reading(state) if prep is not None else None
    rivals = [value(state, s, prep, reading) for s in range(len(state.players)) if s != seat]
    return value(state, seat, prep, reading) - (max(rivals) if rivals else 0.0)


def _options(options: Sequence[Option]) -> list[Option]:
    """The options worth trying: going back changes nothing and could loop."""
    return [o for o in options if o.id != "back"] or list(options)


def _legal(state: SpeakeasyState, seat: int, kind: str) -> frozenset[str]:
    """The option ids ``state`` offers ``seat`` for ``kind`` now (none if it asks something else)."""
    asked = GAME.question(state)
    if asked is None or asked[0] != seat or asked[1] != kind:
        return frozenset()
    return frozenset(o.id for o in asked[2])


def _try(trial: SpeakeasyState, choice: Choice, legal: frozenset[str] | None) -> None:
    """Apply a trial choice to a copy: unchecked when it is known legal there (``legal`` None: the options are
    the copy's own question's; else the ids its original offers), else checked, so an illegal one is refused
    exactly as ``apply`` refuses it."""
    if legal is None or choice.option in legal:
        GAME.apply_offered(trial, choice)
    else:
        GAME.apply(trial, choice)


def _easy(
    state: SpeakeasyState,
    seat: int,
    kind: str,
    options: Sequence[Option],
    legal: frozenset[str] | None,
    spend: bool = False,
    prep: Prepare | None = None,
) -> tuple[Choice, SpeakeasyState | None]:
    """The easy policy: the option worth most to the seat after one step, each tried on a copy of ``state``
    (``legal`` as in ``_try``), and the position it won on (``None``: a single option, nothing tried). With
    ``spend`` the last option is tried on ``state`` itself (one copy fewer; ``state`` is then spent)."""
    tried = _options(options)
    if len(tried) == 1:
        return Choice(seat, kind, tried[0].id), None
    best, best_value, best_trial = tried[0].id, float("-inf"), None
    last = len(tried) - 1
    for k, option in enumerate(tried):
        trial = state if spend and k == last else copy(state)
        _try(trial, Choice(seat, kind, option.id), legal)
        v = value(trial, seat, prep)
        if v > best_value:  # ties keep the earlier option: deterministic
            best, best_value, best_trial = option.id, v, trial
    return Choice(seat, kind, best), best_trial


def _easy_pick(state: SpeakeasyState, seat: int, kind: str, options: Sequence[Option]) -> Choice:
    """The easy policy's choice for a prompt of the real position tried on a sampled world ``state`` (which it
    leaves unchanged): the world's own question is asked once, so its legal options are tried unchecked."""
    return _easy(state, seat, kind, options, _legal(state, seat, kind))[0]


def _easy_step(
    state: SpeakeasyState, seat: int, kind: str, options: Sequence[Option], prep: Prepare | None = None
) -> SpeakeasyState:
    """The position after the easy policy's choice on ``state``'s own question (``options``, from ``_next``).
    The engine is deterministic, so the copy the choice won on is that position: it is returned instead of
    applying the choice again. ``state`` is spent (it may or may not be the one returned)."""
    choice, won = _easy(state, seat, kind, options, None, spend=True, prep=prep)
    if won is not None:
        return won
    GAME.apply_offered(state, choice)
    return state


def _next(state: SpeakeasyState) -> tuple[int, str, list[Option]] | None:
    """The question the game asks next as (seat, kind, options), without its words (a playout needs none), or
    ``None`` at the end."""
    if GAME.is_over(state):
        return None
    return GAME.question(state)


def _finish_turn(state: SpeakeasyState, seat: int, prep: Prepare | None = None) -> SpeakeasyState:
    """The position after the seat's own next steps played the easy way while it alone is asked (``state`` is
    spent, as in ``_easy_step``)."""
    for _ in range(TURN_STEPS):
        nxt = _next(state)
        if nxt is None or nxt[0] != seat:
            break
        state = _easy_step(state, *nxt, prep=prep)
    return state


def _lookahead(sample: SpeakeasyState, prompt: Prompt, prep: Prepare | None = None) -> list[tuple[float, Option]]:
    """Each option with its margin after it and the rest of the seat's turn (best first, ties in order)."""
    scored = []
    legal = _legal(sample, prompt.seat, prompt.kind)
    for k, option in enumerate(_options(prompt.options)):
        trial = copy(sample)
        _try(trial, Choice(prompt.seat, prompt.kind, option.id), legal)
        trial = _finish_turn(trial, prompt.seat, prep)
        scored.append((margin(trial, prompt.seat, prep), -k, option))
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [(v, o) for v, _k, o in scored]


@dataclass
class Decision:
    """A bot's answer with why: the value it expects and, for the search, how much it looked."""

    choice: Choice
    option: Option
    expected: float
    level: str
    playouts: int = 0
    nodes: int = 0


class SpeakeasyBot:
    """A seat bot for Speakeasy at one level; ``salt`` fixes its generator for the table seat."""

    def __init__(self, level: str = "standard", salt: int = 0, budget: Budget | None = None) -> None:
        self.level = check_level(level)
        self.salt = salt
        self.budget = budget or Budget()
        #: standard and hard prepare for the Mob Wars and value buildings by what they will earn (issue 25)
        self.prep = None if self.level == "easy" else PREPARE

    def choose(self, state: SpeakeasyState, prompt: Prompt) -> Choice:
        """The bot's answer to one of its seat's prompts."""
        return self.decide(state, prompt).choice

    def decide(self, state: SpeakeasyState, prompt: Prompt) -> Decision:
        """The bot's answer with the value it expects (for hints and benches)."""
        if prompt.seat == TABLE:
            raise ValueError("A seat bot answers its seat's prompts, not the table's timer.")
        options = _options(prompt.options)
        rng = view_rng(GAME, state, prompt, self.salt)
        sample = world(state, prompt.seat, rng)
        if len(options) == 1:
            return self._done(prompt, options[0], margin(sample, prompt.seat, self.prep))
        if self.level == "easy":
            choice = _easy_pick(sample, prompt.seat, prompt.kind, prompt.options)
            trial = copy(sample)
            GAME.apply(trial, choice)
            return self._done(prompt, prompt.option(choice.option) or options[0], value(trial, prompt.seat))
        ranked = _lookahead(sample, prompt, self.prep)
        if self.level == "standard":
            return self._done(prompt, ranked[0][1], ranked[0][0])
        return self._search(state, prompt, [o for _v, o in ranked[:HARD_WIDTH]], rng)

    def _done(self, prompt: Prompt, option: Option, expected: float, playouts: int = 0, nodes: int = 0) -> Decision:
        return Decision(Choice(prompt.seat, prompt.kind, option.id), option, expected, self.level, playouts, nodes)

    def _search(self, state: SpeakeasyState, prompt: Prompt, candidates: list[Option], rng: random.Random) -> Decision:
        """Sample worlds and play each candidate out; the best mean margin wins (ties: the lookahead's order).
        Only whole rounds count (every candidate as many playouts); a round the clock cuts short is dropped,
        so the budget holds and, when the node limit binds first, the search is reproducible."""
        seat = prompt.seat
        totals = [0.0] * len(candidates)
        rounds = nodes = playouts = 0
        deadline = time.perf_counter() + self.budget.seconds
        while nodes < self.budget.nodes:
            sample = world(state, seat, rng)
            scores: list[float] = []
            for option in candidates:
                if rounds and time.perf_counter() > deadline:
                    break
                score, used = self._playout(sample, seat, Choice(seat, prompt.kind, option.id))
                scores.append(score)
                nodes += used
                playouts += 1
            if len(scores) < len(candidates):
                break
            totals = [t + v for t, v in zip(totals, scores, strict=True)]
            rounds += 1
            if time.perf_counter() > deadline:
                break
        best = max(range(len(candidates)), key=lambda k: (totals[k], -k))
        return self._done(prompt, candidates[best], totals[best] / rounds, playouts, nodes)

    def _playout(self, sample: SpeakeasyState, seat: int, first: Choice) -> tuple[float, int]:
        """The margin after ``first`` and ``HARD_DEPTH`` more choices by the easy policy, valuing with the
        preparing worth, for every seat, and the choices it applied or tried (nodes)."""
        trial = copy(sample)
        GAME.apply(trial, first)
        nodes = 1
        for _ in range(HARD_DEPTH):
            nxt = _next(trial)
            if nxt is None:
                break
            who, kind, options = nxt
            if who == TABLE:
                GAME.apply_offered(trial, Choice(TABLE, kind, GAME.prompts(trial)[0].default_option()))
            else:
                # every seat plays its easy step with the preparing worth (issue 25): the rivals a prepared bot
                # meets prepare too, and a playout that never prepares undervalues doing so (hard lost to standard)
                trial = _easy_step(trial, who, kind, options, prep=self.prep)
                nodes += len(options)
            nodes += 1
        return margin(trial, seat, self.prep), nodes
