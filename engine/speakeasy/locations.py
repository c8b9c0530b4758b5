"""Placing a Capo (seed 000:29.1-4) and the Persons' steps (design §2): Restaurant booths, first place, Park."""

from __future__ import annotations

from functools import cache

from engine.core import Option
from engine.msg import M, Msg, T
from engine.speakeasy import economy as eco
from engine.speakeasy.components import Effect, Person
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState, Task
from engine.speakeasy.steps import Log, opt, push, register, say

#: How each Person step becomes a task: step -> (task kind, s).
STEP_TASKS: dict[str, tuple[str, str]] = {
    "gain_family": ("place_family", ""),
    "play_fleet": ("play", "fleet"),
    "ambush": ("ambush", ""),
    "produce": ("produce", ""),
    "play_stills_or_fleet": ("play", "stills,fleet"),
    "raise_stills_or_fleet": ("raise_track", "stills,fleet"),
    "gain_book": ("gain", "book"),
    "cook": ("cook", ""),
    "play_vip": ("play", "vip"),
    "raise_strength": ("raise_track", "strength"),
    "hire_associate": ("hire_associate", ""),
    "hire_goons": ("hire_goons", ""),
    "build": ("build", ""),
    "take_city_tile": ("take_tile", ""),
    "raise_ops_once_more": ("raise_ops_once_more", ""),
    "upgrade": ("upgrade", ""),
    "play_any": ("play", "any"),
    "sell_or_party": ("sell_or_party", ""),
    "booth_reward": ("booth_reward", ""),
    "first_place": ("first_place", ""),
}


def person(state: SpeakeasyState, pid: str) -> Person:
    """A Person by id (the Restaurant's two included), as the game's rules version has it."""
    loc = rules(state).locations
    for p in (*loc.persons, loc.maitre_d, loc.first_place):
        if p.id == pid:
            return p
    raise KeyError(pid)


#: Each Person step as a Capo question lists it (``components.STEP_KINDS``, starting in lower case).
STEP_WORDS: dict[str, Msg] = {
    "gain_family": T("speakeasy.locations.step", "gain a Family Member"),
    "play_fleet": T("speakeasy.locations.step", "play a Fleet card (Deliver)"),
    "ambush": T("speakeasy.locations.step", "ambush one Ship"),
    "produce": T("speakeasy.locations.step", "produce barrels (needs an Operating Stills)"),
    "play_stills_or_fleet": T("speakeasy.locations.step", "play a Stills or a Fleet card"),
    "raise_stills_or_fleet": T("speakeasy.locations.step", "raise your Stills or Fleet level by 1"),
    "gain_book": T("speakeasy.locations.step", "gain one Book"),
    "cook": T("speakeasy.locations.step", "cook the Books"),
    "play_vip": T("speakeasy.locations.step", "play a VIP Room card (Get Protection)"),
    "raise_strength": T("speakeasy.locations.step", "increase your Strength level"),
    "hire_associate": T("speakeasy.locations.step", "hire an Associate"),
    "hire_goons": T("speakeasy.locations.step", "hire Goons"),
    "build": T("speakeasy.locations.step", "open a Speakeasy or Stills, or take over a Mobster Speakeasy"),
    "take_city_tile": T("speakeasy.locations.step", "take a City tile"),
    "raise_ops_once_more": T("speakeasy.locations.step", "raise an Operations level (a discard raises it once more)"),
    "upgrade": T("speakeasy.locations.step", "upgrade a building"),
    "play_any": T("speakeasy.locations.step", "play any one Operations card"),
    "sell_or_party": T("speakeasy.locations.step", "sell barrels, or play a Party card instead"),
    "booth_reward": T("speakeasy.locations.step", "gain your booth's reward"),
    "first_place": T("speakeasy.locations.step", "move your Turn Order marker to first place"),
}


@cache  # a function of the data files: named by every Capo question and its log line
def person_name(p: Person) -> Msg:
    """A Person as people read it: "Harbour Master (Docks)"."""
    return M(
        "speakeasy.locations.person",
        "{person} ({location})",
        person=T("speakeasy.term.person", p.name),
        location=T("speakeasy.term.location", p.location),
    )


@cache
def steps_text(p: Person) -> Msg:
    """ "gain one Family Member, then play a Fleet card" (made once per Person: every Capo question lists them)."""
    text = STEP_WORDS[p.steps[0]]
    for s in p.steps[1:]:
        text = M("speakeasy.locations.then", "{first}, then {next}", first=text, next=STEP_WORDS[s])
    return text


def _first_place_name() -> Msg:
    """ "Lucky's table (Restaurant, first place)"."""
    name = T("speakeasy.term.person", rules().locations.first_place.name)
    return M("speakeasy.locations.first_place", "{person} (Restaurant, first place)", person=name)


def push_steps(state: SpeakeasyState, seat: int, p: Person, booth: int = 0) -> None:
    """Queue a Person's steps so they are done in printed order."""
    loc = rules(state).locations
    for step in reversed(p.steps):
        kind, s = STEP_TASKS[step]
        n = {"build": loc.build_times, "upgrade": loc.upgrade_times, "cook": loc.cook_books, "gain": 1}.get(kind, 0)
        if kind == "booth_reward":
            n = booth
        # m = 1: asked as a Person's step, so it may be declined (design §2) like every other step.
        push(state, kind, seat, n=n, m=1 if kind in ("place_family", "take_tile") else 0, s=s)


@cache
def _place_menu(
    version: int,
) -> tuple[tuple[tuple[str, Option], ...], tuple[tuple[int, int, Option], ...], Option, tuple[Option, ...]]:
    """Every place a Capo may go, with its option (made once per rules version: the words come from the data
    files only, and a version may change a Person's steps): (Person id, option) of each Person, (booth number,
    Leverage, option) of each booth, first place, and each Park space's option."""
    loc = rules(version).locations
    persons = tuple((per.id, opt(f"person:{per.id}", person_name(per), steps_text(per))) for per in loc.persons)
    booths = tuple(
        (
            b.number,
            b.leverage,
            opt(
                f"booth:{b.number}",
                M(
                    "speakeasy.locations.booth_pay",
                    "Restaurant booth {n}, pay {leverage} Leverage",
                    n=b.number,
                    leverage=b.leverage,
                )
                if b.leverage
                else M("speakeasy.locations.booth", "Restaurant booth {n}", n=b.number),
                M(
                    "speakeasy.locations.booth_detail",
                    "{steps}: {gains}",
                    steps=steps_text(loc.maitre_d),
                    gains=eco.describe(b.reward),
                ),
            ),
        )
        for b in loc.booths
    )
    first = opt("first", _first_place_name(), steps_text(loc.first_place))
    park = tuple(
        opt(
            f"park:{k}",
            M("speakeasy.locations.park", "Park space {n}", n=sp.number),
            M(
                "speakeasy.locations.park_detail",
                "copy a Person an opponent uses, or {gains}",
                gains=eco.describe(sp.reward),
            ),
        )
        for k, sp in enumerate(loc.park)
    )
    return persons, booths, first, park


def _place_options(state: SpeakeasyState, task: Task) -> list[Option]:
    p = state.player(task.seat)
    if p.capos <= 0:
        return []
    persons, booths, first, park = _place_menu(state.rules)
    out = [o for pid, o in persons if pid not in state.persons]
    out += [
        o
        for number, leverage, o in booths[: rules(state).sides[state.side].booths]
        if state.booths[number - 1] is None and p.leverage >= leverage
    ]
    out.append(first)
    out += [o for k, o in enumerate(park) if state.park[k] is None]
    return out


def _place_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    loc = rules(state).locations
    seat = task.seat
    p = state.player(seat)
    p.capos -= 1
    kind, _, arg = option.partition(":")
    if kind == "person":
        per = person(state, arg)
        state.persons[arg] = seat
        say(
            log,
            M("speakeasy.locations.sent", "{name} sends a Capo to the {person}.", name=p.name, person=person_name(per)),
        )
        push_steps(state, seat, per)
    elif kind == "booth":
        b = loc.booths[int(arg) - 1]
        state.booths[b.number - 1] = seat
        p.leverage -= b.leverage
        said = (
            M(
                "speakeasy.locations.sent_booth_pay",
                "{name} sends a Capo to Restaurant booth {n}, paying {leverage} Leverage.",
                name=p.name,
                n=b.number,
                leverage=b.leverage,
            )
            if b.leverage
            else M(
                "speakeasy.locations.sent_booth",
                "{name} sends a Capo to Restaurant booth {n}.",
                name=p.name,
                n=b.number,
            )
        )
        say(log, said)
        push_steps(state, seat, loc.maitre_d, booth=b.number)
    elif kind == "first":
        state.first_place.append(seat)
        say(
            log,
            M(
                "speakeasy.locations.sent_first",
                "{name} sends a Capo to {place}.",
                name=p.name,
                place=_first_place_name(),
            ),
        )
        push_steps(state, seat, loc.first_place)
    else:
        k = int(arg)
        state.park[k] = seat
        say(
            log,
            M(
                "speakeasy.locations.sent_park",
                "{name} sends a Capo to Park space {n}.",
                name=p.name,
                n=loc.park[k].number,
            ),
        )
        push(state, "park", seat, m=k)


register(
    "place",
    M("speakeasy.locations.ask_place", "Send a Capo to a Person of Interest"),
    options=_place_options,
    choose=_place_choose,
    skip=None,
)


def _booth_reward(state: SpeakeasyState, task: Task, log: Log) -> None:
    b = rules(state).locations.booths[task.n - 1]
    eco.gain(state, task.seat, b.reward, log)


register("booth_reward", M("speakeasy.locations.ask_booth", "Booth reward"), auto=_booth_reward, skip=None)


def _first_place(state: SpeakeasyState, task: Task, log: Log) -> None:
    # Design §8.2: the marker moves to first place at once; the round still finishes in its starting order.
    state.track.remove(task.seat)
    state.track.insert(0, task.seat)
    say(
        log,
        M(
            "speakeasy.locations.first",
            "{name} takes first place on the Turn Order track.",
            name=state.player(task.seat).name,
        ),
    )


register("first_place", M("speakeasy.locations.ask_first", "First place"), auto=_first_place, skip=None)


# ---- Park (design §2): copy a Person holding an opponent's Capo, or take the space's reward ----


def _park_options(state: SpeakeasyState, task: Task) -> list[Option]:
    loc = rules(state).locations
    sp = loc.park[task.m]
    out = [opt("reward", _reward_label(sp.reward), style="primary")]
    if len(state.player(task.seat).hand) >= loc.park_copy_discards:
        for per in loc.persons:
            holder = state.persons.get(per.id)
            if holder is not None and holder != task.seat:
                out.append(opt(f"copy:{per.id}", _copy_label(per), steps_text(per)))
    return out


# The texts of the Park's options, each made once (functions of the data files)
@cache
def _reward_label(reward: tuple[Effect, ...]) -> Msg:
    return M("speakeasy.locations.reward", "Take the reward: {gains}", gains=eco.describe(reward))


@cache
def _copy_label(per: Person) -> Msg:
    return M("speakeasy.locations.copy", "Copy the {person}, discard a card", person=person_name(per))


def _park_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    loc = rules(state).locations
    p = state.player(task.seat)
    if option == "reward":
        sp = loc.park[task.m]
        say(log, M("speakeasy.locations.took_reward", "{name} takes the Park reward.", name=p.name))
        eco.gain(state, task.seat, sp.reward, log)
        return
    per = person(state, option.split(":")[1])
    say(log, M("speakeasy.locations.copied", "{name} copies the {person}.", name=p.name, person=person_name(per)))
    push_steps(state, task.seat, per)
    for _ in range(loc.park_copy_discards):
        push(state, "discard_copy", task.seat)


register(
    "park",
    M("speakeasy.locations.ask_park", "Park: copy a Person or take the reward"),
    options=_park_options,
    choose=_park_choose,
    skip=None,
)
