"""Playing Operations cards (seed 000:39.1-4, 000:20.8, design §2 "Play a X card", §3.2)."""

from __future__ import annotations

from engine.core import Option
from engine.speakeasy import economy as eco
from engine.speakeasy.board import TRACK_NAMES
from engine.speakeasy.components import TRACKS
from engine.speakeasy.gains import hand_options, start_raise
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState, Task
from engine.speakeasy.steps import Log, opt, push, register, say

MODIFIERS = ("value_bonus", "ship_discount")


def _decks(task: Task) -> tuple[str, ...]:
    return TRACKS if task.s in ("", "any") else tuple(task.s.split(","))


def slot_card(state: SpeakeasyState, seat: int, card: int, log: Log) -> None:
    """Move a card from the hand to its deck's slot; the card there goes face up to the bottom of its deck."""
    p = state.player(seat)
    deck = rules().cards[card].deck
    p.hand.remove(card)
    old = p.slots[deck]
    if old is not None:
        state.decks[deck].append(old)
    p.slots[deck] = card
    say(log, f"{p.name} plays {eco.card_name(card)}.")


def deck_action(state: SpeakeasyState, seat: int, deck: str, bonus: int, discount: int) -> None:
    """Push the deck's action at the current value (design §2: VIP Get Protection, Party Sell, Stills Produce,
    Fleet Deliver)."""
    p = state.player(seat)
    if deck == "vip":
        push(state, "protect", seat, n=eco.action_value(p, "vip", bonus), m=eco.crate_power(p, "protect_discount"))
    elif deck == "party":
        push(state, "sell", seat, n=eco.action_value(p, "party", bonus))
    elif deck == "stills":
        push(state, "produce", seat, n=bonus)
    else:
        push(state, "deliver", seat, n=eco.action_value(p, "fleet", bonus), m=eco.trucks(p), items=[-1, -1, discount])


def play_card(state: SpeakeasyState, seat: int, card: int, log: Log) -> None:
    """Seed 000:39.1-4: slot it, gain its top-left benefit, then do its deck action."""
    c = rules().cards[card]
    slot_card(state, seat, card, log)
    bonus = sum(e.n for e in c.benefit if e.kind == "value_bonus")
    discount = sum(e.n for e in c.benefit if e.kind == "ship_discount")
    deck_action(state, seat, c.deck, bonus, discount)
    gains = tuple(e for e in c.benefit if e.kind not in MODIFIERS)
    eco.gain(state, seat, gains, log)


def _play_options(state: SpeakeasyState, task: Task) -> list[Option]:
    return hand_options(state, task.seat, "play", _decks(task))


def _play_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    play_card(state, task.seat, int(option.split(":")[1]), log)


def _play_text(state: SpeakeasyState, task: Task) -> str:
    decks = _decks(task)
    if len(decks) == len(TRACKS):
        return "Play any one Operations card"
    return "Play a " + " or a ".join(TRACK_NAMES[d] for d in decks) + " card"


register("play", _play_text, options=_play_options, choose=_play_choose, skip="Skip playing a card", secret=True)


# ---- Setup Round card (seed 000:20.8, design §1.5.7): only the setup icon ----


def _setup_card_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    card = int(option.split(":")[1])
    slot_card(state, task.seat, card, log)
    eco.gain(state, task.seat, rules().cards[card].setup, log)


def _setup_card_options(state: SpeakeasyState, task: Task) -> list[Option]:
    out = hand_options(state, task.seat, "play")
    cards = rules().cards
    return [opt(o.id, o.label, f"setup icon: {eco.describe(cards[int(o.id.split(':')[1])].setup)}") for o in out]


register(
    "setup_card",
    "1920 Setup Round: play an Operations card for its setup icon",
    options=_setup_card_options,
    choose=_setup_card_choose,
    skip=None,
    secret=True,
)


# ---- Restaurant: Sell barrels, or play a Party card instead (design §2) ----


def _sell_or_party_options(state: SpeakeasyState, task: Task) -> list[Option]:
    out = []
    if eco.can_sell_any(state, task.seat):
        n = eco.action_value(state.player(task.seat), "party")
        out.append(opt("sell", f"Sell up to {n} barrels", style="primary"))
    return out + hand_options(state, task.seat, "play", ("party",))


def _sell_or_party_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    if option == "sell":
        push(state, "sell", task.seat, n=eco.action_value(state.player(task.seat), "party"))
    else:
        play_card(state, task.seat, int(option.split(":")[1]), log)


register(
    "sell_or_party",
    "Restaurant: sell barrels, or play a Party card instead",
    options=_sell_or_party_options,
    choose=_sell_or_party_choose,
    secret=True,
    skip="Skip selling and playing",  # a bare "Skip" read as "sell barrels instead"
)


# ---- Zoning Clerk: raise an Operations level, then discard a card to raise it once more (seed 000:42.1) ----


def _clerk_options(state: SpeakeasyState, task: Task) -> list[Option]:
    from engine.speakeasy.gains import raise_options

    return raise_options(state, task.seat, TRACKS)


def _clerk_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    track = option.split(":")[1]
    push(state, "once_more", task.seat, s=track)  # asked after the raise and anything it triggers
    start_raise(state, task.seat, track, log)


register("raise_ops_once_more", "Increase an Operations level", options=_clerk_options, choose=_clerk_choose)


def _once_more_options(state: SpeakeasyState, task: Task) -> list[Option]:
    p = state.player(task.seat)
    if p.levels[task.s] >= rules().tracks.max_level:
        return []
    level = p.levels[task.s] + 1
    return [
        opt(o.id, f"{o.label} to raise {TRACK_NAMES[task.s]} to {level}")
        for o in hand_options(state, task.seat, "discard")
    ]


def _once_more_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    # Design §3.1: this discard also satisfies the level-5 discard.
    eco.discard(state, task.seat, int(option.split(":")[1]), log)
    eco.raise_level(state, task.seat, task.s, log)


register(
    "once_more",
    lambda s, t: f"Discard any card to raise {TRACK_NAMES[t.s]} once more?",
    options=_once_more_options,
    choose=_once_more_choose,
    skip="Skip discarding",
    secret=True,
)


def _discard_copy_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    eco.discard(state, task.seat, int(option.split(":")[1]), log)


register(
    "discard_copy",
    "Park: discard one Operations card to copy",
    options=lambda s, t: hand_options(s, t.seat, "discard"),
    choose=_discard_copy_choose,
    skip=None,
    secret=True,
)
