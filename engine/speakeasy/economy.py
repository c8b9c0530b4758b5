"""Levels, Infamy, action values and every gain (design §3, §5, the Effect vocabulary).

``gain`` pushes one ``gain`` task per effect so that a list of gains resolves in its printed order, each
choice (which deck, where a Family Member goes, which level) asked when its turn comes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from engine.msg import Join, M, Msg, P, T
from engine.speakeasy import solo
from engine.speakeasy.board import TRACK_NAMES, barrel_targets, buildings, operating, space_name
from engine.speakeasy.components import Effect
from engine.speakeasy.loader import rules
from engine.speakeasy.money import earn  # every gain goes through money.earn (eco.earn for callers)
from engine.speakeasy.state import Player, SpeakeasyState
from engine.speakeasy.steps import Log, push, say

#: Crate power that adds to each deck action's value.
VALUE_CRATES = {"vip": "vip_value", "party": "party_value", "stills": "stills_value", "fleet": "fleet_value"}


def crate_power(p: Player, power: str) -> int:
    """The sum of ``n`` over the player's Crates with this power."""
    if not p.crates:  # most players most of the time (read for every Strength and action value)
        return 0
    crates = rules().docks.crates
    return sum(crates[c].n for c in p.crates if crates[c].power == power)


def action_value(p: Player, track: str, bonus: int = 0) -> int:
    """The value under a track's marker (design §3.1) plus Crate powers and this play's bonus."""
    t = rules().tracks
    return t.ops[track].values[p.levels[track] - 1] + crate_power(p, VALUE_CRATES[track]) + bonus


def strength_base(p: Player) -> int:
    """Strength level value plus Tommy Guns (design §6.2, §7.3); Goons and the Associate come on top."""
    return rules().tracks.strength_values[p.levels["strength"] - 1] + crate_power(p, "strength")


def trucks(p: Player) -> int:
    """Usable Trucks at the current Fleet level (design §3.1)."""
    return rules().tracks.trucks_by_fleet[p.levels["fleet"] - 1]


def discards_to_raise(p: Player, track: str) -> int:
    """Cards to discard for the next step of a track (seed 000:40.2, 000:41.2-3); -1 if it is at the top."""
    t = rules().tracks
    nxt = p.levels[track] + 1
    if nxt > t.max_level:
        return -1
    table = t.strength_discards if track == "strength" else t.ops_discards
    return table.get(nxt, 0)


def can_raise(p: Player, track: str, free_discards: int = 0) -> bool:
    """Whether the track can go up one step with the cards in hand (``free_discards`` already paid)."""
    need = discards_to_raise(p, track)
    return need >= 0 and max(0, need - free_discards) <= len(p.hand)


def raise_level(state: SpeakeasyState, seat: int, track: str, log: Log) -> None:
    """One step up a track; Infamy follows (seed 000:40.3, 000:41.4, design §3.1: +1 per step)."""
    p = state.player(seat)
    p.levels[track] += 1
    say(
        log,
        M(
            "speakeasy.economy.raise",
            "{name} raises {track} to {level}.",
            name=p.name,
            track=TRACK_NAMES[track],
            level=p.levels[track],
        ),
    )
    gain_infamy(state, seat, rules(state).tracks.infamy_per_step, log)


def gain_infamy(state: SpeakeasyState, seat: int, steps: int, log: Log) -> None:
    """Move the Infamy marker up (never down, stopping at the top) and collect rewards passed (design §5)."""
    t = rules(state).tracks
    p = state.player(seat)
    before = p.infamy
    p.infamy = min(t.infamy_max, p.infamy + steps)
    if p.infamy == before:
        return
    say(log, M("speakeasy.economy.infamy", "{name}'s Infamy rises to {n}.", name=p.name, n=p.infamy))
    reached = [space for space in sorted(t.infamy_rewards) if before < space <= p.infamy and space not in p.rewards]
    # Rewards resolve lowest space first: push in reverse so the lowest is on top.
    for space in reversed(reached):
        p.rewards.append(space)
        effects = t.infamy_rewards[space]
        if state.jo is not None and seat == state.jo.seat:
            jo_reward(state, seat, space, effects, log)
            continue
        if any(e.kind == "family" for e in effects) and space in p.family_track:
            # The Family Member waiting on this space joins the supply, then is placed like any gained one.
            p.family_track.remove(space)
            p.family_supply += 1
        say(
            log,
            M(
                "speakeasy.economy.reward",
                "{name} reaches Infamy {n}: {gains}.",
                name=p.name,
                n=space,
                gains=describe(effects),
            ),
        )
        gain(state, seat, effects, log)
    p.rewards.sort()


def jo_reward(state: SpeakeasyState, seat: int, space: int, effects: tuple[Effect, ...], log: Log) -> None:
    """Seed 003:54.1: Jo takes only the Helper card and safe-money rewards (the money into his one pool)."""
    for e in effects:
        if e.kind == "safe":
            earn(state.player(seat), "bonuses", e.n)
            say(log, M("speakeasy.economy.jo_reward", "Jo reaches Infamy {n}: ${cash}.", n=space, cash=e.n))
        elif e.kind == "helper":
            for _ in range(e.n):
                solo.jo("take_helper")(state, seat, log)


def gain(state: SpeakeasyState, seat: int, effects: tuple[Effect, ...], log: Log, where: tuple[int, int] | None = None):
    """Queue gains so that they resolve in order; ``where`` is the (district, space) a City tile came from."""
    for e in reversed(effects):
        items = list(where) if where else []
        push(state, "gain", seat, n=e.n, s=e.kind, items=items)


def take_card(state: SpeakeasyState, seat: int, deck: str, log: Log) -> None:
    """Seed 000:44.1: draw the top card of a face-up deck into the hand."""
    card = state.decks[deck].pop(0)
    state.player(seat).hand.append(card)
    say(
        log,
        M(
            "speakeasy.economy.take_card",
            "{name} takes {card} from the {deck} deck.",
            name=state.player(seat).name,
            card=card_name(card),
            deck=TRACK_NAMES[deck],
        ),
    )


def discard(state: SpeakeasyState, seat: int, card: int, log: Log) -> None:
    """Seed 000:43.1-2: from the hand, face up to the bottom of its deck."""
    p = state.player(seat)
    p.hand.remove(card)
    state.decks[rules(state).cards[card].deck].append(card)
    say(log, M("speakeasy.economy.discard", "{name} discards {card}.", name=p.name, card=card_name(card)))


@cache  # a term of the data files, named in many labels
def card_name(card: int) -> Msg:
    """An Operations card as people read it (a term)."""
    return T("speakeasy.term.card", rules().cards[card].name)


def hire_goon(state: SpeakeasyState, seat: int) -> int | None:
    """The cost of the next Goon (cheapest empty space, design §9.1), or None when the track is full."""
    p = state.player(seat)
    costs = rules(state).tracks.goon_costs
    if p.goons >= len(costs):
        return None
    return max(0, costs[p.goons] - crate_power(p, "goon_discount"))


def add_stills_barrels(p: Player, n: int) -> int:
    """Put up to ``n`` barrels on the Stills area (capacity design §6.3); returns how many fit."""
    room = rules().buildings.stills_capacity - p.stills_barrels
    added = max(0, min(n, room))
    p.stills_barrels += added
    return added


def immediate(state: SpeakeasyState, seat: int, kind: str, n: int, where: list[int], log: Log) -> bool:
    """Apply a gain that needs no decision; False if the kind needs one."""
    p = state.player(seat)
    r = rules(state)
    if kind == "pocket":
        earn(p, "bonuses", n)
        say(log, M("speakeasy.economy.pocket", "{name} gains ${n}.", name=p.name, n=n))
    elif kind == "safe":
        earn(p, "bonuses", n, "safe")
        say(log, M("speakeasy.economy.safe", "{name} puts ${n} in the safe.", name=p.name, n=n))
    elif kind == "leverage":
        p.leverage += n
        say(log, M("speakeasy.economy.leverage", "{name} gains {n} Leverage.", name=p.name, n=n))
    elif kind == "book":
        k = min(n, p.book_supply)
        p.book_supply -= k
        p.books += k
        if k:
            say(log, P("speakeasy.economy.book", "{name} gains {n} Book.", "{name} gains {n} Books.", k, name=p.name))
    elif kind == "goon_free":
        hired = 0
        for _ in range(n):
            if p.goons < len(r.tracks.goon_costs):
                p.goons += 1
                hired += 1
        say(
            log,
            P(
                "speakeasy.economy.goon_free",
                "{name} hires {n} Goon free.",
                "{name} hires {n} Goons free.",
                hired,
                name=p.name,
            ),
        )
    elif kind == "family_vip":
        k = min(n, p.family_supply)
        p.family_supply -= k
        p.family_vip += k
        if k:
            say(log, M("speakeasy.economy.family_vip", "{name} puts a Family Member in the VIP area.", name=p.name))
    elif kind == "stills_barrels":
        added = add_stills_barrels(p, n)
        say(log, stills_barrels_said(p.name, added))
    elif kind == "cellar":
        cellar(state, seat, n, where, log)
    elif kind == "croupier":
        casinos = sum(1 for d, _i, b in buildings(state, seat) if b.kind == "casino" and operating(d, b))
        earn(p, "casinos", n * casinos)
        say(
            log,
            P(
                "speakeasy.economy.croupier",
                "{name}'s {n} Operating Casino pay ${cash}.",
                "{name}'s {n} Operating Casinos pay ${cash}.",
                casinos,
                name=p.name,
                cash=n * casinos,
            ),
        )
    else:
        return False
    return True


def stills_barrels_said(name: str, added: int) -> Msg:
    """The log line of barrels put on the Stills area."""
    return P(
        "speakeasy.economy.stills_barrels",
        "{name} puts {n} barrel on the Stills area.",
        "{name} puts {n} barrels on the Stills area.",
        added,
        name=name,
    )


def cellar(state: SpeakeasyState, seat: int, n: int, where: list[int], log: Log) -> None:
    """City tile Cellar (design §11.1): a barrel beside this building if it is an Operating Speakeasy."""
    p = state.player(seat)
    if where:
        d = state.districts[where[0] - 1]
        b = d.spaces[where[1]].building
        if b is not None and b.owner == seat and b.kind == "speakeasy" and operating(d, b) and not b.barrel:
            b.barrel = True
            say(
                log,
                M(
                    "speakeasy.economy.cellar",
                    "{name} puts a barrel beside the Speakeasy in {space}.",
                    name=p.name,
                    space=space_name(d.number, where[1]),
                ),
            )
            return
    added = add_stills_barrels(p, n)
    say(log, stills_barrels_said(p.name, added))


def describe(effects: tuple[Effect, ...]) -> Msg:
    """Gains as people read them: "2 Leverage, 1 Book"."""
    return _describe(tuple(effects))


@cache  # a function of the data files' effects: named by many options and log lines of every question
def _describe(effects: tuple[Effect, ...]) -> Msg:
    if not effects:
        return T("speakeasy.gain.none", "nothing")
    return Join([describe_one(e) for e in effects], "comma")


#: Each kind of gain in words, by its number (``{n}``).
_WORDS: dict[str, Callable[[int], Msg]] = {
    "pocket": lambda n: M("speakeasy.gain.pocket", "${n}", n=n),
    "safe": lambda n: M("speakeasy.gain.safe", "${n} to the safe", n=n),
    "leverage": lambda n: M("speakeasy.gain.leverage", "{n} Leverage", n=n),
    "book": lambda n: P("speakeasy.gain.book", "{n} Book", "{n} Books", n),
    "goon_free": lambda n: P("speakeasy.gain.goon_free", "{n} free Goon", "{n} free Goons", n),
    "card": lambda n: P("speakeasy.gain.card", "{n} Operations card", "{n} Operations cards", n),
    "family": lambda n: P("speakeasy.gain.family", "{n} Family Member", "{n} Family Members", n),
    "family_vip": lambda n: P(
        "speakeasy.gain.family_vip", "{n} Family Member to the VIP area", "{n} Family Members to the VIP area", n
    ),
    "family_docks": lambda n: P(
        "speakeasy.gain.family_docks", "{n} Family Member to the Docks", "{n} Family Members to the Docks", n
    ),
    "level_any": lambda n: M("speakeasy.gain.level_any", "+{n} level of your choice", n=n),
    "helper": lambda n: P("speakeasy.gain.helper", "{n} Helper card", "{n} Helper cards", n),
    "stills_barrels": lambda n: P(
        "speakeasy.gain.stills_barrels", "{n} barrel on the Stills area", "{n} barrels on the Stills area", n
    ),
    "city_tile": lambda n: P("speakeasy.gain.city_tile", "{n} City tile", "{n} City tiles", n),
    "cellar": lambda n: P("speakeasy.gain.cellar", "{n} barrel (cellar)", "{n} barrels (cellar)", n),
    "value_bonus": lambda n: M("speakeasy.gain.value_bonus", "+{n} action value", n=n),
    "ship_discount": lambda n: M("speakeasy.gain.ship_discount", "Ship barrels ${n} cheaper", n=n),
    "deliver": lambda n: P("speakeasy.gain.deliver", "Deliver up to {n} barrel", "Deliver up to {n} barrels", n),
    "produce": lambda n: M("speakeasy.gain.produce", "Produce barrels", n=n),
    "dock_buy": lambda n: P(
        "speakeasy.gain.dock_buy", "buy up to {n} Ship barrel at $1", "buy up to {n} Ship barrels at $1", n
    ),
    "runner": lambda n: P("speakeasy.gain.runner", "deliver {n} Ship barrel free", "deliver {n} Ship barrels free", n),
    "sell": lambda n: P("speakeasy.gain.sell", "Sell up to {n} barrel", "Sell up to {n} barrels", n),
    "sell_bonus": lambda n: M("speakeasy.gain.sell_bonus", "Sell with Party value +{n}", n=n),
    "upgrade": lambda n: M("speakeasy.gain.upgrade", "Upgrade one building, ${n} less", n=n),
    "informant": lambda n: M("speakeasy.gain.informant", "move a face-down Cop tile", n=n),
    "bagman": lambda n: M("speakeasy.gain.bagman", "move up to ${n} from safe to pocket", n=n),
    "raise_strength": lambda n: M("speakeasy.gain.raise_strength", "+{n} Strength", n=n),
    "raise_ops": lambda n: M("speakeasy.gain.raise_ops", "+{n} Operations level", n=n),
    "cook": lambda n: P("speakeasy.gain.cook", "Cook the Books with {n} Book", "Cook the Books with {n} Books", n),
    "croupier": lambda n: M("speakeasy.gain.croupier", "${n} per Operating Casino", n=n),
    "associate": lambda n: M("speakeasy.gain.associate", "hire an Associate", n=n),
    "protect": lambda n: P("speakeasy.gain.protect", "protect {n} building free", "protect {n} buildings free", n),
}


def describe_one(e: Effect) -> Msg:
    """One gain as people read it."""
    words = _WORDS.get(e.kind)
    return words(e.n) if words is not None else M("speakeasy.gain.other", "{kind}", kind=e.kind)


def can_sell_any(state: SpeakeasyState, seat: int) -> bool:
    """Whether the seat has a barrel beside an Operating building it could sell."""
    from engine.speakeasy.board import operating_buildings

    return any(b.barrel and b.kind != "stills" for _d, _i, b in operating_buildings(state, seat))


def has_barrel_room(state: SpeakeasyState, seat: int) -> bool:
    """Whether a delivered barrel has somewhere to go."""
    return bool(barrel_targets(state, seat))
