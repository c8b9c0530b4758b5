"""Jo's turn (seed 003:30.1-34.1, design §15.1): the card he flips, where it sends his Capo (bumping a rival's
Capo to the Park), and the card's actions, one step each."""

from __future__ import annotations

from engine.msg import M, T
from engine.speakeasy import economy as eco
from engine.speakeasy.board import TRACK_NAMES
from engine.speakeasy.jo.actions import ambush, build, cook, deliver, produce, protect, sell
from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.jo.orders import LEVEL_CODES, lowest_level
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState, Task
from engine.speakeasy.steps import Log, opt, push, register, say

#: Jo's card locations and the locations of locations.toml.
LOCATION_NAMES = {
    "docks": "Docks",
    "garage": "Garage",
    "city_hall": "City Hall",
    "commission": "Commission",
    "contractor": "Contractor office",
    "city_planning": "City Planning office",
}
#: His card codes that build.
BUILD_CODES = {"B-S": "speakeasy", "B-N": "nightclub", "B-C": "casino"}


def is_jo(state: SpeakeasyState, seat: int) -> bool:
    """Whether ``seat`` is Jo."""
    return state.jo is not None and state.jo.seat == seat


# ---- his turn (seed 003:30.1-34.1) ----


def _spot(state: SpeakeasyState, location: str) -> tuple[str, str] | None:
    """Where a card of this location puts Jo's Capo: ("person", id) / ("bump", id) / ("booth", n) / ("first", "")
    / ("park", k); None when blocked by his own Capos or a full Park."""
    jo = state.jo
    assert jo is not None
    loc = rules(state).locations
    if location == "park":
        for k, holder in enumerate(state.park):
            if holder is None:
                return ("park", str(k))
        return None
    if location == "restaurant":
        for b in loc.booths[: rules(state).sides[state.side].booths]:
            if state.booths[b.number - 1] is None:
                return ("booth", str(b.number))
        return ("first", "")
    name = LOCATION_NAMES[location]
    left = next(p for p in loc.persons if p.location == name and p.position == "left")
    right = next(p for p in loc.persons if p.location == name and p.position == "right")
    for per in (left, right):
        if per.id not in state.persons:
            return ("person", per.id)
    for per in (left, right):  # design §15.1: your leftmost Capo there is bumped
        if state.persons[per.id] != jo.seat:
            return ("bump", per.id)
    return None


def _turn(state: SpeakeasyState, task: Task, log: Log) -> None:
    jo = state.jo
    assert jo is not None
    seat = jo.seat
    jo.icons = []
    drawn: list[str] = []
    spot = None
    while jo.deck and spot is None:
        card = jo.deck.pop(0)
        drawn.append(card)
        spot = _spot(state, jo_rules().card(card).location)
    if spot is None:  # design §15.1: no card can be placed: first place with the first card drawn
        card, spot = drawn[0], ("first", "")
    else:
        card = drawn[-1]
    unused = [c for c in drawn if c != card]
    state.rng.shuffle(unused)
    jo.deck += unused  # seed 003:33.1: the unused cards to the bottom
    jo.card = card
    p = state.player(seat)
    p.capos -= 1
    kind, arg = spot
    loc = rules(state).locations
    if kind == "person":
        state.persons[arg] = seat
        per = next(x for x in loc.persons if x.id == arg)
        say(
            log,
            M(
                "speakeasy.jo.flip_person",
                "Jo flips card {card} and sends a Capo to the {person} ({location}).",
                card=card,
                person=T("speakeasy.term.person", per.name),
                location=T("speakeasy.term.location", per.location),
            ),
            kind="jo",
        )
    elif kind == "bump":
        bumped = state.persons[arg]
        per = next(x for x in loc.persons if x.id == arg)
        state.persons[arg] = seat
        free = [k for k, holder in enumerate(state.park) if holder is None]
        if free:
            state.park[free[0]] = bumped
        else:
            state.beside_park.append(bumped)
        say(
            log,
            M(
                "speakeasy.jo.flip_bump",
                "Jo flips card {card}: both Persons at the {location} are taken, so {name}'s Capo moves from the "
                "{person} to the Park.",
                card=card,
                location=T("speakeasy.term.location", per.location),
                name=state.player(bumped).name,
                person=T("speakeasy.term.person", per.name),
            ),
            kind="jo",
        )
    elif kind == "booth":
        state.booths[int(arg) - 1] = seat
        say(
            log,
            M(
                "speakeasy.jo.flip_booth",
                "Jo flips card {card} and sends a Capo to Restaurant booth {n}.",
                card=card,
                n=int(arg),
            ),
            kind="jo",
        )
    elif kind == "first":
        state.first_place.append(seat)
        state.track.remove(seat)
        state.track.insert(0, seat)
        say(
            log,
            M("speakeasy.jo.flip_first", "Jo flips card {card} and takes first place at the Restaurant.", card=card),
            kind="jo",
        )
    else:
        state.park[int(arg)] = seat
        say(
            log, M("speakeasy.jo.flip_park", "Jo flips card {card} and sends a Capo to the Park.", card=card), kind="jo"
        )
    jo.discard.append(card)  # seed 003:30.3: done, then discarded (face up at once: it is shown anyway)
    for action in reversed(jo_rules().card(card).actions):
        push(state, "jo_action", seat, s=action)
    if kind == "bump":
        push(state, "park_bump", bumped)


register("jo_turn", M("speakeasy.jo.turn_step", "Jo's turn"), auto=_turn, skip=None)


def _bump_options(state: SpeakeasyState, task: Task) -> list:
    return [
        opt(
            f"reward:{k}",
            M(
                "speakeasy.jo.park_reward",
                "Take the Park reward of space {n}: {gain}",
                n=sp.number,
                gain=eco.describe(sp.reward),
            ),
        )
        for k, sp in enumerate(rules(state).locations.park)
    ]


def _bump_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    sp = rules(state).locations.park[int(option.split(":")[1])]
    say(
        log,
        M(
            "speakeasy.jo.park_reward_taken",
            "{name} takes the Park reward: {gain}.",
            name=state.player(task.seat).name,
            gain=eco.describe(sp.reward),
        ),
    )
    eco.gain(state, task.seat, sp.reward, log)


register(
    "park_bump",
    M("speakeasy.jo.park_bump_ask", "Jo moved your Capo to the Park: take one of the three Park rewards"),
    options=_bump_options,
    choose=_bump_choose,
    skip=None,
)


def _action(state: SpeakeasyState, task: Task, log: Log) -> None:
    code, seat = task.s, task.seat
    p = state.player(seat)
    if code in LEVEL_CODES or code == "+low":
        track = LEVEL_CODES.get(code) or lowest_level(state, seat)
        if p.levels[track] < rules(state).tracks.max_level:
            eco.raise_level(state, seat, track, log)
        else:
            say(log, M("speakeasy.jo.track_top", "Jo's {track} is at the top: skipped.", track=TRACK_NAMES[track]))
    elif code.startswith("$"):
        amount = jo_rules().numbers["park_money"] if state.park.count(seat) and code == "$5" else int(code[1:])
        eco.earn(p, "bonuses", amount)
        say(log, M("speakeasy.jo.gains", "Jo gains ${amount}.", amount=amount))
    elif code in BUILD_CODES:
        build(state, seat, BUILD_CODES[code], log)
    elif code == "PRO":
        produce(state, seat, log)
    elif code == "DEL":
        deliver(state, seat, log)
    elif code == "SEL":
        sell(state, seat, log)
    elif code == "PROT":
        protect(state, seat, log)
    elif code == "AMB":
        ambush(state, seat, log)
    elif code == "COOK":
        cook(state, seat, log)


register("jo_action", M("speakeasy.jo.action_step", "Jo's action"), auto=_action, skip=None)
