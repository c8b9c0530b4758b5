"""Playing Operations cards (seed 000:39.1-4, 000:20.8, design §2 "Play a X card", §3.2)."""

from __future__ import annotations

from engine.core import Option
from engine.msg import Join, M, Msg, load
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
    deck = rules(state).cards[card].deck
    p.hand.remove(card)
    old = p.slots[deck]
    if old is not None:
        state.decks[deck].append(old)
    p.slots[deck] = card
    say(log, M("speakeasy.cards.plays", "{name} plays {card}.", name=p.name, card=eco.card_name(card)))


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
    c = rules(state).cards[card]
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


def _play_text(state: SpeakeasyState, task: Task) -> Msg:
    decks = _decks(task)
    if len(decks) == len(TRACKS):
        return M("speakeasy.cards.play_any", "Play any one Operations card")
    if len(decks) == 1:
        return M("speakeasy.cards.play_one", "Play a {track} card", track=TRACK_NAMES[decks[0]])
    if len(decks) == 2:
        first, second = (TRACK_NAMES[d] for d in decks)
        return M("speakeasy.cards.play_two", "Play a {first} or a {second} card", first=first, second=second)
    tracks = Join([TRACK_NAMES[d] for d in decks], "or")
    return M("speakeasy.cards.play_some", "Play a {tracks} card", tracks=tracks)


register(
    "play",
    _play_text,
    options=_play_options,
    choose=_play_choose,
    skip=M("speakeasy.cards.play_skip", "Skip playing a card"),
    secret=True,
)


# ---- Setup Round card (seed 000:20.8, design §1.5.7): only the setup icon ----


def _setup_card_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    card = int(option.split(":")[1])
    slot_card(state, task.seat, card, log)
    eco.gain(state, task.seat, rules(state).cards[card].setup, log)


def _setup_card_options(state: SpeakeasyState, task: Task) -> list[Option]:
    out = hand_options(state, task.seat, "play")
    cards = rules(state).cards
    return [
        opt(
            o.id,
            _label(o),
            M(
                "speakeasy.cards.setup_icon",
                "setup icon: {gain}",
                gain=eco.describe(cards[int(o.id.split(":")[1])].setup),
            ),
        )
        for o in out
    ]


def _label(o: Option) -> str:
    """An option's label as a message when it was made as one (so a label made elsewhere stays translated)."""
    words = o.words.get("label")
    return load(words) if words else o.label


register(
    "setup_card",
    M("speakeasy.cards.setup_ask", "1920 Setup Round: play an Operations card for its setup icon"),
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
        out.append(opt("sell", M("speakeasy.cards.sell_up_to", "Sell up to {n} barrels", n=n), style="primary"))
    return out + hand_options(state, task.seat, "play", ("party",))


def _sell_or_party_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    if option == "sell":
        push(state, "sell", task.seat, n=eco.action_value(state.player(task.seat), "party"))
    else:
        play_card(state, task.seat, int(option.split(":")[1]), log)


register(
    "sell_or_party",
    M("speakeasy.cards.sell_or_party_ask", "Restaurant: sell barrels, or play a Party card instead"),
    options=_sell_or_party_options,
    choose=_sell_or_party_choose,
    secret=True,
    # a bare "Skip" read as "sell barrels instead"
    skip=M("speakeasy.cards.sell_or_party_skip", "Skip selling and playing"),
)


# ---- Zoning Clerk: raise an Operations level, then discard a card to raise it once more (seed 000:42.1) ----


def _clerk_options(state: SpeakeasyState, task: Task) -> list[Option]:
    from engine.speakeasy.gains import raise_options

    return raise_options(state, task.seat, TRACKS)


def _clerk_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    track = option.split(":")[1]
    push(state, "once_more", task.seat, s=track)  # asked after the raise and anything it triggers
    start_raise(state, task.seat, track, log)


register(
    "raise_ops_once_more",
    M("speakeasy.cards.clerk_ask", "Increase an Operations level"),
    options=_clerk_options,
    choose=_clerk_choose,
)


def _once_more_options(state: SpeakeasyState, task: Task) -> list[Option]:
    p = state.player(task.seat)
    if p.levels[task.s] >= rules(state).tracks.max_level:
        return []
    level = p.levels[task.s] + 1
    return [
        opt(
            o.id,
            M(
                "speakeasy.cards.discard_to_raise",
                "{card} to raise {track} to {level}",
                card=_label(o),
                track=TRACK_NAMES[task.s],
                level=level,
            ),
        )
        for o in hand_options(state, task.seat, "discard")
    ]


def _once_more_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    # Design §3.1: this discard also satisfies the level-5 discard.
    eco.discard(state, task.seat, int(option.split(":")[1]), log)
    eco.raise_level(state, task.seat, task.s, log)


register(
    "once_more",
    lambda s, t: M(
        "speakeasy.cards.once_more_ask", "Discard any card to raise {track} once more?", track=TRACK_NAMES[t.s]
    ),
    options=_once_more_options,
    choose=_once_more_choose,
    skip=M("speakeasy.cards.once_more_skip", "Skip discarding"),
    secret=True,
)


def _discard_copy_choose(state: SpeakeasyState, task: Task, option: str, log: Log) -> None:
    eco.discard(state, task.seat, int(option.split(":")[1]), log)


register(
    "discard_copy",
    M("speakeasy.cards.discard_copy_ask", "Park: discard one Operations card to copy"),
    options=lambda s, t: hand_options(s, t.seat, "discard"),
    choose=_discard_copy_choose,
    skip=None,
    secret=True,
)
