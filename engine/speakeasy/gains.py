"""The gain steps: every Effect that needs a decision, and the Helper lower halves that start an action."""

from __future__ import annotations

from engine.core import Option
from engine.msg import M, Msg, T
from engine.speakeasy import economy as eco
from engine.speakeasy.board import TRACK_NAMES
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


register("gain", "Gain", auto=_gain_auto, skip=None)


# ---- take an Operations card (seed 000:44.1) ----


def _card_options(state: SpeakeasyState, task: Task) -> list[Option]:
    return [
        opt(f"deck:{d}", f"Take {eco.card_name(state.decks[d][0])}", f"top of the {TRACK_NAMES[d]} deck")
        for d in TRACKS
        if state.decks[d]
    ]


def _card_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    eco.take_card(state, task.seat, option.split(":", 1)[1], log)


register(
    "take_card", "Take an Operations card (top of any deck)", options=_card_options, choose=_card_choose, skip=None
)


# ---- gain a Family Member (seed 000:48.1, design §9.3) ----


def family_options(state: SpeakeasyState, seat: int, where: str = "") -> list[Option]:
    """Where a gained Family Member may go: the VIP area or a Docks zone with a free space."""
    p = state.player(seat)
    if p.family_supply <= 0:
        return []
    out = []
    if where != "docks":
        out.append(opt("vip", "Family Member to your VIP area"))
    if where != "vip":
        for z, zone in enumerate(ZONES):
            if None in state.docks[z]:
                out.append(opt(f"docks:{z}", f"Family Member to the {zone} Docks"))
    return out


def place_family(state: SpeakeasyState, seat: int, option: str, log: Log) -> None:
    """Move a Family Member from the supply to where ``option`` says."""
    p = state.player(seat)
    p.family_supply -= 1
    if option == "vip":
        p.family_vip += 1
        say(log, f"{p.name} puts a Family Member in the VIP area.")
        return
    z = int(option.split(":")[1])
    slots = state.docks[z]
    slots[slots.index(None)] = seat  # left to right, then top to bottom (design §1.4)
    say(log, f"{p.name} sends a Family Member to the {ZONES[z]} Docks.")


register(
    "place_family",
    "Gain a Family Member: where does it go?",
    options=lambda s, t: family_options(s, t.seat, t.s),
    choose=lambda s, t, o, log: place_family(s, t.seat, o, log),
    skip=None,
    step_skip="Skip the Family Member",
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
        cost = f", discard {need} card{'s' if need > 1 else ''}" if need else ""
        out.append(opt(f"raise:{t}", f"Raise {TRACK_NAMES[t]} to {p.levels[t] + 1}{cost}"))
    return out


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
    "Increase any one of your Operations or Strength levels by 1",
    options=lambda s, t: raise_options(s, t.seat, LEVEL_TRACKS),
    choose=_level_any_choose,
    skip="Skip raising",
)


def _raise_track_options(state: SpeakeasyState, task: Task) -> list[Option]:
    tracks = ("strength",) if task.s == "strength" else TRACKS if task.s == "ops" else tuple(task.s.split(","))
    return raise_options(state, task.seat, tracks)


register(
    "raise_track",
    lambda s, t: "Increase your Strength level" if t.s == "strength" else "Increase an Operations level",
    options=_raise_track_options,
    choose=_level_any_choose,
)


def _discard_options(state: SpeakeasyState, task: Task) -> list[Option]:
    return hand_options(state, task.seat, "discard")


def hand_options(state: SpeakeasyState, seat: int, prefix: str, decks: tuple[str, ...] = TRACKS) -> list[Option]:
    """One option per different card in hand (identical cards are one option)."""
    seen: set[str] = set()
    out = []
    for card in state.player(seat).hand:
        c = rules().cards[card]
        if c.deck not in decks or c.name in seen:
            continue
        seen.add(c.name)
        out.append(opt(f"{prefix}:{card}", f"{'Discard' if prefix == 'discard' else 'Play'} {c.name}"))
    return out


def _discard_raise_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    eco.discard(state, task.seat, int(option.split(":")[1]), log)
    if task.n > 1:
        push(state, "discard_raise", task.seat, n=task.n - 1, s=task.s)
    else:
        eco.raise_level(state, task.seat, task.s, log)


register(
    "discard_raise",
    lambda s, t: f"Discard a card to raise {TRACK_NAMES[t.s]} ({t.n} to go)",
    options=_discard_options,
    choose=_discard_raise_choose,
    skip=None,
    secret=True,
)


# ---- Helper cards and City tiles from their displays ----


def _helper_options(state: SpeakeasyState, task: Task) -> list[Option]:
    hs = rules().helpers.cards
    return [
        opt(f"helper:{h}", f"Take {hs[h].name} ({hs[h].bottle})", f"now: {eco.describe(hs[h].upper)}")
        for h in state.helper_display
        if h is not None
    ]


def take_helper(state: SpeakeasyState, seat: int, helper: int, log: Log) -> None:
    """Seed 000:51.1-2, design §11.2: take it face up, gain its upper half, refill the display."""
    h = rules().helpers.cards[helper]
    p = state.player(seat)
    idx = state.helper_display.index(helper)
    p.helpers.append(helper)
    state.helper_display[idx] = state.helper_deck.pop(0) if state.helper_deck else None
    say(log, f"{p.name} takes the Helper {h.name}.")
    eco.gain(state, seat, h.upper, log)


register(
    "take_helper",
    "Gain a Helper card from the display",
    options=_helper_options,
    choose=lambda s, t, o, log: take_helper(s, t.seat, int(o.split(":")[1]), log),
    skip=None,
)


def tile_kind(tile: int) -> int:
    """The kind (index into ``rules().city_tiles``) of a City tile id."""
    return rules().tile_kinds[tile]


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
        opt(f"tile:{row}", f"Take City tile {tile_name(t)}") for row, t in enumerate(state.city_face) if t is not None
    ]


def take_tile(state: SpeakeasyState, seat: int, row: int, log: Log) -> None:
    """Design §11.1: take a face-up tile, flip the top of that row's pile into its place, gain its benefit."""
    tile = state.city_face[row]
    assert tile is not None
    p = state.player(seat)
    p.tiles.append(tile)
    pile = state.city_piles[row]
    state.city_face[row] = pile.pop(0) if pile else None
    say(log, f"{p.name} takes the City tile {tile_name(tile)}.")
    eco.gain(state, seat, rules().city_tiles[tile_kind(tile)].benefit, log)


register(
    "take_tile",
    "Take a City tile from the display",
    options=_tile_options,
    choose=lambda s, t, o, log: take_tile(s, t.seat, int(o.split(":")[1]), log),
    skip=None,
    step_skip="Skip the City tile",
)
