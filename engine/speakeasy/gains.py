"""The gain steps: every Effect that needs a decision, and the Helper lower halves that start an action."""

from __future__ import annotations

from functools import cache

from engine.core import Option
from engine.msg import M, Msg, P, T
from engine.speakeasy import economy as eco
from engine.speakeasy.board import TRACK_NAMES, zone_name
from engine.speakeasy.components import LEVEL_TRACKS, TRACKS, ZONES
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState, Task
from engine.speakeasy.steps import Log, opt, push, register, say


def _gain_auto(state: SpeakeasyState, task: Task, log: Log) -> None:
    kind, n, seat = task.s, task.n, task.seat
    p = state.player(seat)
    if eco.immediate(state, seat, kind, n, task.items, log):
        return
    if kind in ("card", "family", "family_docks", "level_any", "helper", "city_tile"):
        step = {
            "card": "take_card",
            "family": "place_family",
            "family_docks": "place_family",
            "level_any": "level_any",
            "helper": "take_helper",
            "city_tile": "take_tile",
        }[kind]
        for _ in range(n):
            push(state, step, seat, s="docks" if kind == "family_docks" else "")
    elif kind == "raise_strength":
        for _ in range(n):
            push(state, "raise_track", seat, s="strength")
    elif kind == "raise_ops":
        for _ in range(n):
            push(state, "raise_track", seat, s="ops")
    elif kind == "deliver":
        # Driver: up to n barrels, one trip.
        push(state, "deliver", seat, n=n, m=1)
    elif kind == "runner":
        # Runner: n barrels from any Ship, free.
        push(state, "deliver", seat, n=n, m=1, s="runner")
    elif kind == "produce":
        push(state, "produce", seat)
    elif kind == "sell":
        push(state, "sell", seat, n=n)
    elif kind == "sell_bonus":
        push(state, "sell", seat, n=eco.action_value(p, "party", n))
    elif kind == "upgrade":
        push(state, "upgrade", seat, n=1, m=n)
    elif kind in ("dock_buy", "informant", "bagman"):
        push(state, kind, seat, n=n)
    elif kind == "associate":
        push(state, "hire_associate", seat)
    elif kind == "cook":
        push(state, "cook", seat, n=n)
    elif kind == "protect":
        push(state, "protect", seat, n=n, s="free")
    else:  # value_bonus / ship_discount only modify a card play; the card step reads them itself
        return


register("gain", M("speakeasy.gains.ask_gain", "Gain"), auto=_gain_auto, skip=None)


# ---- take an Operations card (seed 000:44.1) ----


def _card_options(state: SpeakeasyState, task: Task) -> list[Option]:
    return [opt(f"deck:{d}", _take_card_label(state.decks[d][0]), _deck_top(d)) for d in TRACKS if state.decks[d]]


# The texts of the options above, each made once (functions of the card and the data files)
@cache
def _take_card_label(card: int) -> Msg:
    return M("speakeasy.gains.take_card", "Take {card}", card=eco.card_name(card))


@cache
def _deck_top(deck: str) -> Msg:
    return M("speakeasy.gains.deck_top", "top of the {deck} deck", deck=TRACK_NAMES[deck])


def _card_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    eco.take_card(state, task.seat, option.split(":", 1)[1], log)


register(
    "take_card",
    M("speakeasy.gains.ask_card", "Take an Operations card (top of any deck)"),
    options=_card_options,
    choose=_card_choose,
    skip=None,
)


# ---- gain a Family Member (seed 000:48.1, design §9.3) ----


def family_options(state: SpeakeasyState, seat: int, where: str = "") -> list[Option]:
    """Where a gained Family Member may go: the VIP area or a Docks zone with a free space."""
    p = state.player(seat)
    if p.family_supply <= 0:
        return []
    out = []
    if where != "docks":
        out.append(opt("vip", _family_label(None)))
    if where != "vip":
        for z in range(len(ZONES)):
            if None in state.docks[z]:
                out.append(opt(f"docks:{z}", _family_label(z)))
    return out


@cache  # each label made once: a Family Member is gained at many steps
def _family_label(zone: int | None) -> Msg:
    """Where a Family Member goes: the VIP area (``None``) or a Zone's Docks."""
    if zone is None:
        return M("speakeasy.gains.family_vip", "Family Member to your VIP area")
    return M("speakeasy.gains.family_docks", "Family Member to the {zone} Docks", zone=zone_name(ZONES[zone]))


def place_family(state: SpeakeasyState, seat: int, option: str, log: Log) -> None:
    """Move a Family Member from the supply to where ``option`` says."""
    p = state.player(seat)
    p.family_supply -= 1
    if option == "vip":
        p.family_vip += 1
        say(log, M("speakeasy.gains.placed_vip", "{name} puts a Family Member in the VIP area.", name=p.name))
        return
    z = int(option.split(":")[1])
    slots = state.docks[z]
    slots[slots.index(None)] = seat  # left to right, then top to bottom (design §1.4)
    say(
        log,
        M(
            "speakeasy.gains.placed_docks",
            "{name} sends a Family Member to the {zone} Docks.",
            name=p.name,
            zone=zone_name(ZONES[z]),
        ),
    )


register(
    "place_family",
    M("speakeasy.gains.ask_family", "Gain a Family Member: where does it go?"),
    options=lambda s, t: family_options(s, t.seat, t.s),
    choose=lambda s, t, o, log: place_family(s, t.seat, o, log),
    skip=None,
    step_skip=M("speakeasy.gains.skip_family", "Skip the Family Member"),
)


# ---- raise levels ----


def raise_options(state: SpeakeasyState, seat: int, tracks: tuple[str, ...], free: int = 0) -> list[Option]:
    """Tracks that can go up now, with the discards each needs (seed 000:40.2, 000:41.2-3)."""
    p = state.player(seat)
    out = []
    for t in tracks:
        if not eco.can_raise(p, t, free):
            continue
        need = max(0, eco.discards_to_raise(p, t) - free)
        out.append(opt(f"raise:{t}", _raise_label(t, p.levels[t] + 1, need)))
    return out


@cache  # each label made once (a function of its arguments): raising is offered by many steps
def _raise_label(track: str, level: int, need: int) -> Msg:
    if need:
        return P(
            "speakeasy.gains.raise_discard",
            "Raise {track} to {level}, discard {n} card",
            "Raise {track} to {level}, discard {n} cards",
            need,
            track=TRACK_NAMES[track],
            level=level,
        )
    return M("speakeasy.gains.raise", "Raise {track} to {level}", track=TRACK_NAMES[track], level=level)


def start_raise(state: SpeakeasyState, seat: int, track: str, log: Log, free: int = 0) -> None:
    """Raise now, or first ask for the discards the step needs."""
    need = max(0, eco.discards_to_raise(state.player(seat), track) - free)
    if need:
        push(state, "discard_raise", seat, n=need, s=track)
    else:
        eco.raise_level(state, seat, track, log)


def _level_any_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    start_raise(state, task.seat, option.split(":")[1], log)


register(
    "level_any",
    M("speakeasy.gains.ask_level_any", "Increase any one of your Operations or Strength levels by 1"),
    options=lambda s, t: raise_options(s, t.seat, LEVEL_TRACKS),
    choose=_level_any_choose,
    skip=M("speakeasy.gains.skip_raise", "Skip raising"),
)


def _raise_track_options(state: SpeakeasyState, task: Task) -> list[Option]:
    tracks = ("strength",) if task.s == "strength" else TRACKS if task.s == "ops" else tuple(task.s.split(","))
    return raise_options(state, task.seat, tracks)


register(
    "raise_track",
    lambda s, t: (
        M("speakeasy.gains.ask_strength", "Increase your Strength level")
        if t.s == "strength"
        else M("speakeasy.gains.ask_ops", "Increase an Operations level")
    ),
    options=_raise_track_options,
    choose=_level_any_choose,
    skip=M("speakeasy.gains.skip", "Skip"),
)


def _discard_options(state: SpeakeasyState, task: Task) -> list[Option]:
    return hand_options(state, task.seat, "discard")


def hand_options(state: SpeakeasyState, seat: int, prefix: str, decks: tuple[str, ...] = TRACKS) -> list[Option]:
    """One option per different card in hand (identical cards are one option)."""
    seen: set[str] = set()
    out = []
    cards = rules(state).cards
    for card in state.player(seat).hand:
        c = cards[card]
        if c.deck not in decks or c.name in seen:
            continue
        seen.add(c.name)
        out.append(opt(f"{prefix}:{card}", _hand_label(prefix, c.name)))
    return out


@cache  # each label made once (a function of the card's name): a hand is offered at every play and discard
def _hand_label(prefix: str, card_name: str) -> Msg:
    name = T("speakeasy.term.card", card_name)
    if prefix == "discard":
        return M("speakeasy.gains.discard", "Discard {card}", card=name)
    return M("speakeasy.gains.play", "Play {card}", card=name)


def _discard_raise_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    eco.discard(state, task.seat, int(option.split(":")[1]), log)
    if task.n > 1:
        push(state, "discard_raise", task.seat, n=task.n - 1, s=task.s)
    else:
        eco.raise_level(state, task.seat, task.s, log)


register(
    "discard_raise",
    lambda s, t: M(
        "speakeasy.gains.ask_discard_raise",
        "Discard a card to raise {track} ({n} to go)",
        track=TRACK_NAMES[t.s],
        n=t.n,
    ),
    options=_discard_options,
    choose=_discard_raise_choose,
    skip=None,
    secret=True,
)


# ---- Helper cards and City tiles from their displays ----

#: The Helper cards' bottles as people read them (the data files name them in lower case).
BOTTLES = {
    "moonshine": T("speakeasy.gains.bottle", "moonshine"),
    "gin": T("speakeasy.gains.bottle", "gin"),
    "rum": T("speakeasy.gains.bottle", "rum"),
    "whiskey": T("speakeasy.gains.bottle", "whiskey"),
    "champagne": T("speakeasy.gains.bottle", "champagne"),
}


@cache  # a term of the data files: named by every Helper option
def helper_name(helper: int) -> Msg:
    """A Helper card as people read it (a term)."""
    return T("speakeasy.term.helper", rules().helpers.cards[helper].name)


def _helper_options(state: SpeakeasyState, task: Task) -> list[Option]:
    hs = rules(state).helpers.cards
    return [
        opt(
            f"helper:{h}",
            M(
                "speakeasy.gains.helper",
                "Take {helper} ({bottle})",
                helper=helper_name(h),
                bottle=BOTTLES[hs[h].bottle],
            ),
            M("speakeasy.gains.helper_now", "now: {gains}", gains=eco.describe(hs[h].upper)),
        )
        for h in state.helper_display
        if h is not None
    ]


def take_helper(state: SpeakeasyState, seat: int, helper: int, log: Log) -> None:
    """Seed 000:51.1-2, design §11.2: take it face up, gain its upper half, refill the display."""
    h = rules(state).helpers.cards[helper]
    p = state.player(seat)
    idx = state.helper_display.index(helper)
    p.helpers.append(helper)
    state.helper_display[idx] = state.helper_deck.pop(0) if state.helper_deck else None
    say(
        log,
        M("speakeasy.gains.took_helper", "{name} takes the Helper {helper}.", name=p.name, helper=helper_name(helper)),
    )
    eco.gain(state, seat, h.upper, log)


register(
    "take_helper",
    M("speakeasy.gains.ask_helper", "Gain a Helper card from the display"),
    options=_helper_options,
    choose=lambda s, t, o, log: take_helper(s, t.seat, int(o.split(":")[1]), log),
    skip=None,
)


def tile_kind(tile: int) -> int:
    """The kind (index into ``rules().city_tiles``) of a City tile id."""
    return rules().tile_kinds[tile]


@cache  # the data files' words only; every building question names the tiles on its spaces
def tile_name(tile: int) -> Msg:
    """A City tile as people read it: "Favours (2 Leverage)"."""
    ct = rules().city_tiles[tile_kind(tile)]
    return M(
        "speakeasy.term.tile_gain",
        "{tile} ({gain})",
        tile=T("speakeasy.term.tile", ct.name),
        gain=eco.describe(ct.benefit),
    )


def _tile_options(state: SpeakeasyState, task: Task) -> list[Option]:
    return [
        opt(f"tile:{row}", M("speakeasy.gains.tile", "Take City tile {tile}", tile=tile_name(t)))
        for row, t in enumerate(state.city_face)
        if t is not None
    ]


def take_tile(state: SpeakeasyState, seat: int, row: int, log: Log) -> None:
    """Design §11.1: take a face-up tile, flip the top of that row's pile into its place, gain its benefit."""
    tile = state.city_face[row]
    assert tile is not None
    p = state.player(seat)
    p.tiles.append(tile)
    pile = state.city_piles[row]
    state.city_face[row] = pile.pop(0) if pile else None
    say(log, M("speakeasy.gains.took_tile", "{name} takes the City tile {tile}.", name=p.name, tile=tile_name(tile)))
    eco.gain(state, seat, rules(state).city_tiles[tile_kind(tile)].benefit, log)


register(
    "take_tile",
    M("speakeasy.gains.ask_tile", "Take a City tile from the display"),
    options=_tile_options,
    choose=lambda s, t, o, log: take_tile(s, t.seat, int(o.split(":")[1]), log),
    skip=None,
    step_skip=M("speakeasy.gains.skip_tile", "Skip the City tile"),
)
