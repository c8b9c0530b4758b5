"""Rounds, turns and Acts (seed 000 section 3), and the prompt/apply loop over the task stack."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from engine.core import Choice, Event, Option, Prompt, find_prompt
from engine.msg import Join, M, Msg, P, T, load
from engine.speakeasy import (  # noqa: F401 - importing the step modules registers their steps
    acts,
    barrels,
    buildings,
    cards,
    crew,
    docks,
    gains,
    goals,
    locations,
    luciano,
    money,
)
from engine.speakeasy import economy as eco
from engine.speakeasy.board import TRACK_NAMES, operating
from engine.speakeasy.components import TRACKS
from engine.speakeasy.hidden import fingerprint, fingerprint_now, keep_fingerprint, revealed
from engine.speakeasy.jo import scoring, turn, war  # noqa: F401 - scoring: provides its hook
from engine.speakeasy.jo import setup as jo_setup  # registers Jo's steps (setup, turn, war: in this order)
from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.loader import rules
from engine.speakeasy.state import Player, SpeakeasyState, Task
from engine.speakeasy.steps import (
    SKIP,
    STEPS,
    Log,
    QuietLog,
    default_option,
    forced_answer,
    mark_reveal,
    opt,
    push,
    question_options,
    register,
    say,
)

# ---- the start and end of a turn (seed 000:28.1, 000:30.1-2) ----


def _helper_options(state: SpeakeasyState, task: Task) -> list[Option]:
    hs = rules(state).helpers.cards
    return [
        opt(
            f"use:{h}",
            M("speakeasy.flow.use_helper", "Use {helper}: {gains}", helper=_helper(h), gains=eco.describe(hs[h].lower)),
        )
        for h in state.player(task.seat).helpers
    ]


def _helper(h: int) -> Msg:
    return T("speakeasy.term.helper", rules().helpers.cards[h].name)


def _helper_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    h = int(option.split(":")[1])
    p = state.player(task.seat)
    p.helpers.remove(h)
    p.screen.append(h)  # then it goes behind the Safe screen (seed 000:28.1)
    helper = rules(state).helpers.cards[h]
    said = M(
        "speakeasy.flow.used_helper",
        "{name} uses the Helper {helper}: {gains}.",
        name=p.name,
        helper=_helper(h),
        gains=eco.describe(helper.lower),
    )
    say(log, said)
    eco.gain(state, task.seat, helper.lower, log)


register(
    "helper_use",
    M("speakeasy.flow.ask_helper", "You may use the lower half of one Helper card"),
    options=_helper_options,
    choose=_helper_choose,
    skip=M("speakeasy.flow.skip_helper", "Skip the Helper"),
)


def _draw_options(state: SpeakeasyState, task: Task) -> list[Option]:
    return [_draw_option(d, state.decks[d][0]) for d in TRACKS if state.decks[d]]


@cache  # each distinct option made once (options are frozen): the draw is asked at the end of every turn
def _draw_option(deck: str, card: int) -> Option:
    return opt(
        f"deck:{deck}",
        M("speakeasy.flow.draw", "Draw {card}", card=eco.card_name(card)),
        M("speakeasy.flow.deck_top", "top of the {deck} deck", deck=TRACK_NAMES[deck]),
    )


def _draw_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    deck = option.split(":")[1]
    eco.take_card(state, task.seat, deck, log)


register(
    "draw",
    M("speakeasy.flow.ask_draw", "End of turn: draw the top card of any Operations deck"),
    options=_draw_options,
    choose=_draw_choose,
    skip=None,
    forced=lambda s, t: M("speakeasy.flow.only_deck", "the only deck with cards left"),
)


def begin_turn(state: SpeakeasyState, seat: int, log: Log) -> None:
    """Queue a turn: the optional Helper, the Capo (with its Person's steps), then the draw. Jo's turn is his
    card (seed 003:30.1-3): automatic steps, never a prompt."""
    mark_reveal(state)  # undo never reaches into an earlier turn
    if state.jo is not None and seat == state.jo.seat:
        say(log, M("speakeasy.flow.jo_turn", "{year} · Jo's turn.", year=state.year), kind="turn", seat=seat)
        push(state, "jo_turn", seat)
        return
    push(state, "draw", seat)
    push(state, "place", seat)
    push(state, "helper_use", seat)
    said = M("speakeasy.flow.turn", "{year} · {name}'s turn.", year=state.year, name=state.player(seat).name)
    say(log, said, kind="turn", seat=seat)


# ---- rounds and Acts ----


def casino_payout(state: SpeakeasyState, log: Log) -> None:
    """Design §8.3: when turn order changed, each Operating Casino pays by its owner's new position."""
    chart = rules(state).sides[state.side].casino_payouts
    for pos, seat in enumerate(state.track):
        if state.jo is not None and seat == state.jo.seat:
            chart_value = jo_rules().numbers["casino_money"]  # seed 003:41.2: $5 each, whatever his place
        else:
            chart_value = chart[pos] if pos < len(chart) else 0
        n = sum(
            1
            for d in state.districts
            for sp in d.spaces
            if sp.building and sp.building.owner == seat and sp.building.kind == "casino" and operating(d, sp.building)
        )
        if n and chart_value:
            eco.earn(state.player(seat), "casinos", n * chart_value)
            say(
                log,
                P(
                    "speakeasy.flow.casinos",
                    "Turn order changed: {name}'s {n} Casino pay ${cash}.",
                    "Turn order changed: {name}'s {n} Casinos pay ${cash}.",
                    n,
                    name=state.player(seat).name,
                    cash=n * chart_value,
                ),
            )


def start_round(state: SpeakeasyState, log: Log) -> None:
    """Design §8.2: compare the track with the last round's order, pay Casinos on a change, play in track order."""
    state.round += 1
    state.year = rules(state).years[f"act{state.act}"] + state.round - 1
    if state.order and state.order != state.track:
        casino_payout(state, log)
    state.order = list(state.track)
    state.turn = 0
    names = Join([state.player(s).name for s in state.order], "comma")
    said = M(
        "speakeasy.flow.round",
        "Act {act}, round {round} ({year}). Turn order: {names}.",
        act=state.act,
        round=state.round,
        year=state.year,
        names=names,
    )
    say(log, said, kind="round")
    begin_turn(state, state.order[0], log)


def _next_act(state: SpeakeasyState, task: Task, log: Log) -> None:
    """Design §13: the next Act begins (the Capos come home, the Ships are refilled, Jo draws), then its first
    round. Here, not in ``acts``, so that the Act flow runs one way: the flow calls the Acts' steps."""
    state.act += 1
    state.phase = "play"
    state.round = 0
    say(
        log,
        M(
            "speakeasy.acts.act_begins",
            "Act {act} begins ({years}).",
            act=state.act,
            years=rules(state).years[f"act{state.act}"],
        ),
        kind="act",
    )
    acts.return_capos(state, log)
    acts.refill_ships(state, log)
    if state.jo is not None:
        jo_setup.start_act(state, log)
    start_round(state, log)


register("next_act", M("speakeasy.acts.next_act_step", "The next Act"), auto=_next_act, skip=None)


def next_turn(state: SpeakeasyState, log: Log) -> bool:
    """Move the game on when no task is pending; False when it must wait (the end of the Act for now)."""
    if state.phase == "setup":
        state.turn += 1
        if state.turn < len(state.order):
            begin_setup(state, state.order[state.turn], log)
            return True
        state.phase = "play"
        state.act = 1
        state.round = 0
        state.order = list(state.track)  # the Setup Round's reverse order is not a change of turn order
        say(log, M("speakeasy.flow.setup_over", "The 1920 Setup Round is over. Act 1 begins."), kind="act")
        start_round(state, log)
        return True
    if state.phase != "play":
        return False  # "luciano" runs on its own tasks; "over" and test phases wait
    state.turn += 1
    if state.turn < len(state.order):
        begin_turn(state, state.order[state.turn], log)
        return True
    if state.round < rules(state).tracks.capos_per_act[state.act - 1]:
        start_round(state, log)
        return True
    # Every Capo of the Act is placed: the Lucky Luciano phase comes next (Acts 1-3), the final scoring after 4.
    say(log, M("speakeasy.flow.act_over", "Act {act} is over: every Capo has been placed.", act=state.act), kind="act")
    if state.act < len(rules(state).tracks.capos_per_act):
        luciano.begin(state, log)
        return True
    acts.final_scoring(state, log)
    return False


def begin_setup(state: SpeakeasyState, seat: int, log: Log) -> None:
    """Seed 000:20.3-8: open a building from the $15, then play a card for its setup icon (Jo: seed 003:26.2)."""
    if state.jo is not None and seat == state.jo.seat:
        say(log, M("speakeasy.flow.jo_setup", "1920 Setup Round · Jo."), kind="turn", seat=seat)
        push(state, "jo_setup", seat)
        return
    push(state, "setup_card", seat)
    push(state, "setup_build", seat)
    say(
        log,
        M("speakeasy.flow.setup", "1920 Setup Round · {name}.", name=state.player(seat).name),
        kind="turn",
        seat=seat,
    )


# ---- the prompt/apply loop ----


def advance(state: SpeakeasyState, log: Log) -> None:
    """Run automatic steps and skip steps with no legal option until a decision is needed."""
    while True:
        if not state.tasks:
            if not next_turn(state, log):
                return
            continue
        task = state.tasks[-1]
        step = STEPS[task.kind]
        if step.auto is not None:
            state.tasks.pop()
            step.auto(state, task, log)
            continue
        asked = question_options(state, task)
        options = asked[0]
        if not options:
            state.tasks.pop()
            continue
        if state.settle and (forced := forced_answer(state, task, options)) is not None:
            option, reason = forced
            state.tasks.pop()
            said = M(
                "speakeasy.flow.settled",
                "{name} chooses “{answer}” ({reason}).",  # a sentence, not a button's label (issue 24)
                name=state.player(task.seat).name,
                answer=said_field(option, "label"),
                reason=reason,
            )
            say(log, said, kind="settled")
            _answer(state, task, option.id, log)
            continue
        _keep_asked(state, task, asked)
        return


def _answer(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    """Carry out one answer to a popped task (the decline logs itself)."""
    if option == SKIP:
        said = M(
            "speakeasy.flow.declined",
            "{name} chooses “{answer}”.",
            name=state.player(task.seat).name,
            answer=STEPS[task.kind].decline(task),
        )
        say(log, said)
        return
    step = STEPS[task.kind]
    assert step.choose is not None
    step.choose(state, task, option, log)


def _keep_asked(state: SpeakeasyState, task: Task, asked: tuple[list[Option], list[Option]]) -> None:
    """Keep the open question's options with the state (not a field: never stored, copied or compared), for the
    ``prompts`` and the validation that follow: without it each choice built them three times."""
    state.__dict__["asked"] = (task, state.log_count, asked)


def edited(state: SpeakeasyState) -> None:
    """Say that ``state`` was changed by hand, not by ``apply`` (a test setting up a position): what was worked
    out for its open question is forgotten. The engine is a state's only other writer."""
    state.__dict__.pop("asked", None)
    state.__dict__.pop("shown", None)


def _asked(state: SpeakeasyState, task: Task) -> tuple[list[Option], list[Option]]:
    """``question_options`` of the top task, as ``advance`` left them when nothing was chosen since. Only the
    engine changes a state between choices, so the top task (the same object) at the same choice count asks the
    same question."""
    kept = state.__dict__.get("asked")
    if kept is not None and kept[0] is task and kept[1] == state.log_count:
        return kept[2]
    return question_options(state, task)


def prompts(state: SpeakeasyState) -> list[Prompt]:
    """The one open prompt (the top task), with the decline option for optional steps."""
    if not state.tasks:
        return []
    task = state.tasks[-1]
    step = STEPS[task.kind]
    options, grey = _asked(state, task)
    # Design §4: the hand, the safe and the screen are hidden. A question that reads them is private by its kind
    # (answered through "My options"), whatever the seat holds now: a spectator learns nothing from whether it
    # is on the public board.
    default = default_option(state, task, options)
    if step.private and 0 <= task.seat < len(state.players):
        # a private question may show the payer their own money: each payment's real pocket/safe split
        p = state.player(task.seat)
        options = [_with_split(o, p) if o.cost > 0 else o for o in options]
    group = step.group(state, task) if step.group is not None else None
    text = step.text(state, task)
    return [
        Prompt(
            task.seat,
            task.kind,
            text,
            tuple(options),
            secret=step.private,
            default=default,
            group=group,
            unavailable=tuple(grey),
        )
    ]


def question(state: SpeakeasyState) -> tuple[int, str, list[Option]] | None:
    """The open question without its words: ``(seat, kind, options)`` of ``prompts(state)`` (the same option ids
    in the same order; labels as the step made them, without sections or payment splits), or ``None`` when none
    is open. For a bot's playouts, which need no text."""
    if not state.tasks:
        return None
    task = state.tasks[-1]
    return task.seat, task.kind, list(_asked(state, task)[0])  # the kept list stays the engine's


#: Discord shows at most 100 characters of an option's description
DETAIL_MAX = 100


def said_field(option: Option, name: str) -> Any:
    """An option's text field as its message (from ``words``), or its plain text when it was given as one."""
    kept = option.words.get(name)
    return load(kept) if kept else getattr(option, name)


#: ``_with_split``'s answers by (option, split) identity, each kept with both (so their ids stay theirs): most
#: options with a cost are made once each (``functools.cache``) and the splits are too (``money.split_text``), so
#: the same pair comes back at every private question. Emptied when large (options made afresh never come back).
_SPLIT_MADE: dict[tuple[int, int], tuple[Option, Msg, Option]] = {}


def _with_split(option: Option, p: Player) -> Option:
    split = money.split_text(p, option.cost)
    key = (id(option), id(split))
    kept = _SPLIT_MADE.get(key)
    if kept is not None and kept[0] is option and kept[1] is split:
        return kept[2]
    made = _split_option(option, split)
    if len(_SPLIT_MADE) >= 4096:
        _SPLIT_MADE.clear()
    _SPLIT_MADE[key] = (option, split, made)
    return made


def _split_option(option: Option, split: Msg) -> Option:
    """``option`` with the payment ``split`` before its description (cut to Discord's limit if need be)."""
    detail = _split_detail(split, said_field(option, "detail")) if option.detail else split
    text = str(detail)
    if len(text) <= DETAIL_MAX:
        return msgspec.structs.replace(option, detail=detail)
    # The split first: the rest of the English description is cut if it must be. The message stays whole (the
    # table cuts each language's words to Discord's limit), kept with the English that is shown.
    text = text[: DETAIL_MAX - 1] + "…"
    words = dict(option.words)
    if hasattr(detail, "dump"):
        words["detail"] = {**detail.dump(), "s": text}
    else:
        words.pop("detail", None)
    return msgspec.structs.replace(option, detail=text, words=words)


#: ``_split_detail``'s messages by (split, description) identity, kept with both (as ``_SPLIT_MADE``): an option
#: made anew in each game often names a description made once (e.g. "pay $3, gain City tile ...").
_DETAIL_MADE: dict[tuple[int, int], tuple[Msg, Any, Msg]] = {}


def _split_detail(split: Msg, detail: Any) -> Msg:
    """ "$5: $2 pocket + $6 safe · <the option's description>"."""
    key = (id(split), id(detail))
    kept = _DETAIL_MADE.get(key)
    if kept is not None and kept[0] is split and kept[1] is detail:
        return kept[2]
    made = M("speakeasy.flow.split", "{split} · {detail}", split=split, detail=detail)
    if len(_DETAIL_MADE) >= 4096:
        _DETAIL_MADE.clear()
    _DETAIL_MADE[key] = (split, detail, made)
    return made


def _check(state: SpeakeasyState, choice: Choice) -> None:
    """Raise ``IllegalChoice`` unless ``choice`` answers the open prompt. The common case, a legal answer by the
    asked seat, is told from the top task's option ids alone (``prompts`` would also build the text, sections
    and payment splits); anything else goes through ``find_prompt`` for its exact message."""
    if not state.tasks:
        find_prompt([], choice)
        return
    task = state.tasks[-1]
    options: list[Option] = []
    asked = type(choice) is Choice and type(choice.seat) is int and type(choice.option) is str
    if asked and choice.seat == task.seat and choice.kind == task.kind:
        options, _grey = _asked(state, task)
        if any(o.id == choice.option and not o.disabled for o in options):
            return
    # A refusal names the seat and kind asked and the allowed option ids (labels only for a disabled one, which
    # are the step's own): the open prompt without its text, sections and payment splits says the same.
    find_prompt([Prompt(task.seat, task.kind, "", tuple(options))], choice)


def apply(state: SpeakeasyState, choice: Choice, *, checked: bool = True, quiet: bool = False) -> list[Event]:
    """Validate against the open prompt (nothing changes if it is refused), apply, and move on. ``checked=False``
    skips the validation: only for a choice made from this very state's prompt (``Game.apply_offered``).
    ``quiet``: for a bot's copy, which nobody reads or takes back: no log lines are made (an empty list is
    returned) and the undo floor is not compared for reveals (the game goes the same; only ``undo_mark`` may lag).

    Here, where every choice is applied, the undo floor moves by itself (``undo_mark``): a choice is fixed when
    it used chance or moved a face-down component (``hidden.revealed``), or when the game ended (the final
    scoring shows everything); another seat's choice fixes every earlier one, since that seat decided after
    seeing them. (A new turn fixes everything before it too: ``begin_turn``.)"""
    if checked:
        _check(state, choice)
    log: Log = QuietLog() if quiet else []
    before = None if quiet else fingerprint_now(state)
    if state.last_chooser is not None and choice.seat != state.last_chooser:
        state.undo_mark = max(state.undo_mark, state.log_count)
    state.last_chooser = choice.seat
    task = state.tasks.pop()
    state.log_count += 1
    _answer(state, task, choice.option, log)
    advance(state, log)
    # (a new turn already fixed everything: then nothing is left to compare)
    if before is not None and state.undo_mark < state.log_count:
        if state.phase == "over":
            state.undo_mark = state.log_count
        else:
            after = fingerprint(state)
            keep_fingerprint(state, after)
            if revealed(before, after):
                state.undo_mark = state.log_count
    return log
