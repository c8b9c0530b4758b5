"""The Speakeasy bots' judgement and their one-step policies, shared by every level and the search.

``value`` prices a seat's position in dollars and ``margin`` sets it against the best rival's; the easy policy
keeps the option that leaves its own position worth most after one step, and ``lookahead`` (standard) plays the
rest of the seat's turn the easy way after each option. A playout or a search step needs no words, so
``next_question`` asks the game without them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bots.speakeasy_worlds import copy
from bots.speakeasy_worth import Prepare, Reading, earning, flat_worth, war_risk
from engine.core import Choice, Option, Prompt
from engine.speakeasy.acts import bottles
from engine.speakeasy.game import SpeakeasyGame
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState

GAME = SpeakeasyGame()

LEVEL_WORTH = 2
#: Steps of its own turn ``standard`` plays out after an option.
TURN_STEPS = 12


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
    return margins(state, prep)[seat]


def margins(state: SpeakeasyState, prep: Prepare | None = None) -> list[float]:
    """Every seat's ``margin`` at once (each worth read once): what a search backs up to each seat's choices."""
    reading = Reading(state) if prep is not None else None
    return against_best([value(state, s, prep, reading) for s in range(len(state.players))])


def against_best(worth: list[float]) -> list[float]:
    """Each seat's worth less its best rival's (a lone seat: its worth itself)."""
    if len(worth) == 1:
        return worth
    return [mine - max(w for r, w in enumerate(worth) if r != s) for s, mine in enumerate(worth)]


def worth_trying(options: Sequence[Option]) -> list[Option]:
    """The options worth trying: going back changes nothing and could loop."""
    return [o for o in options if o.id != "back"] or list(options)


def legal_ids(state: SpeakeasyState, seat: int, kind: str) -> frozenset[str]:
    """The option ids ``state`` offers ``seat`` for ``kind`` now (none if it asks something else)."""
    asked = GAME.question(state)
    if asked is None or asked[0] != seat or asked[1] != kind:
        return frozenset()
    return frozenset(o.id for o in asked[2])


def try_choice(trial: SpeakeasyState, choice: Choice, legal: frozenset[str] | None) -> None:
    """Apply a trial choice to a copy: unchecked when it is known legal there (``legal`` None: the options are
    the copy's own question's; else the ids its original offers), else checked, so an illegal one is refused
    exactly as ``apply`` refuses it."""
    if legal is None or choice.option in legal:
        GAME.apply_offered(trial, choice)
    else:
        GAME.apply(trial, choice)


def easy(
    state: SpeakeasyState,
    seat: int,
    kind: str,
    options: Sequence[Option],
    legal: frozenset[str] | None,
    spend: bool = False,
    prep: Prepare | None = None,
) -> tuple[Choice, SpeakeasyState | None]:
    """The easy policy: the option worth most to the seat after one step, each tried on a copy of ``state``
    (``legal`` as in ``try_choice``), and the position it won on (``None``: a single option, nothing tried). With
    ``spend`` the last option is tried on ``state`` itself (one copy fewer; ``state`` is then spent)."""
    tried = worth_trying(options)
    if len(tried) == 1:
        return Choice(seat, kind, tried[0].id), None
    best, best_value, best_trial = tried[0].id, float("-inf"), None
    last = len(tried) - 1
    for k, option in enumerate(tried):
        trial = state if spend and k == last else copy(state)
        try_choice(trial, Choice(seat, kind, option.id), legal)
        v = value(trial, seat, prep)
        if v > best_value:  # ties keep the earlier option: deterministic
            best, best_value, best_trial = option.id, v, trial
    return Choice(seat, kind, best), best_trial


def easy_pick(state: SpeakeasyState, seat: int, kind: str, options: Sequence[Option]) -> Choice:
    """The easy policy's choice for a prompt of the real position tried on a sampled world ``state`` (which it
    leaves unchanged): the world's own question is asked once, so its legal options are tried unchecked."""
    return easy(state, seat, kind, options, legal_ids(state, seat, kind))[0]


def easy_step(
    state: SpeakeasyState, seat: int, kind: str, options: Sequence[Option], prep: Prepare | None = None
) -> SpeakeasyState:
    """The position after the easy policy's choice on ``state``'s own question (``options``, from ``next_question``).
    The engine is deterministic, so the copy the choice won on is that position: it is returned instead of
    applying the choice again. ``state`` is spent (it may or may not be the one returned)."""
    choice, won = easy(state, seat, kind, options, None, spend=True, prep=prep)
    if won is not None:
        return won
    GAME.apply_offered(state, choice)
    return state


def next_question(state: SpeakeasyState) -> tuple[int, str, list[Option]] | None:
    """The question the game asks next as (seat, kind, options), without its words (a playout needs none), or
    ``None`` at the end."""
    if GAME.is_over(state):
        return None
    return GAME.question(state)


def finish_turn(state: SpeakeasyState, seat: int, prep: Prepare | None = None) -> SpeakeasyState:
    """The position after the seat's own next steps played the easy way while it alone is asked (``state`` is
    spent, as in ``easy_step``)."""
    for _ in range(TURN_STEPS):
        nxt = next_question(state)
        if nxt is None or nxt[0] != seat:
            break
        state = easy_step(state, *nxt, prep=prep)
    return state


#: A position's margin for every seat (``margins``, or hard's fitted ``speakeasy_evaluation.fitted_margins``).
Judge = Callable[[SpeakeasyState, Prepare | None], list[float]]


def lookahead(
    sample: SpeakeasyState, prompt: Prompt, prep: Prepare | None = None, judge: Judge | None = None
) -> list[tuple[float, Option]]:
    """Each option with its margin after it and the rest of the seat's turn (best first, ties in order), judged
    by ``margins`` or the given ``judge``."""
    scored = []
    legal = legal_ids(sample, prompt.seat, prompt.kind)
    for k, option in enumerate(worth_trying(prompt.options)):
        trial = copy(sample)
        try_choice(trial, Choice(prompt.seat, prompt.kind, option.id), legal)
        trial = finish_turn(trial, prompt.seat, prep)
        scored.append(((judge or margins)(trial, prep)[prompt.seat], -k, option))
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [(v, o) for v, _k, o in scored]
