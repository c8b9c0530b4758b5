"""An Omerta seat bot with a memory of what its seat saw, and nothing else.

Omerta is a memory game: nobody sees a face-down card, not even its owner. The bot remembers what its seat was
shown (its peek, the card it drew or took and where it put it, what the Mole and the Safecracker showed it, a
card it snapped wrong) through ``Memory``, which is fed only the seat's own view and the log events the seat
may see. From that it estimates its points (known cards plus the mean of the cards it has not seen for the
others), snaps only a Bottle it knows matches (at ``easy``, with a small seeded chance of a blind guess), and
calls OMERTA when its estimate is under the limit and no rival looks lower. ``hard`` also weighs the call, and a
claim on a card it does not know, by the odds of the cards it has not seen (``call_odds``, ``snap_worth``).

At ``pace=post`` there are no snap windows: the bot keeps standing snap orders instead, as a careful player
would. Its wanted orders (``wanted_orders``) are one per slot it knows holds a Bottle, on that Bottle's value
(``easy``: plus its blind guess, with the same small chance for every Bottle that lands, as one order on a slot
it does not know, which stands until it is judged). It sets, changes and cancels orders one answer at a time
until its standing orders are the wanted ones, and before swapping a card into a slot it first puts that slot's
order right for the card going in (``orders_before``): the card coming out lands at once, and the orders are
judged then. Under rules 3 (decisions 2.1) the game withdraws every order on a slot whose card moves, the swap's
included, so there is nothing to put right before a swap: the bot sets its orders again afterwards, as it wants
them from what it now knows (its optional question is due again).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.common import check_level, view_rng
from engine.core import TABLE, Choice, Event, Game, Prompt, replay
from engine.omerta.cards import deck
from engine.omerta.snaps import ORDER

#: ``easy`` snaps an unknown card with this chance when a snap window opens (the project's own value).
BLIND_GUESS = 0.05
#: OMERTA is called when the estimate is this many points under the limit (own values, by level: a safety
#: margin for what the bot does not know). ``hard`` also weighs the call by its odds (``call_odds``).
CALL_MARGIN = {"easy": 0.0, "standard": 1.5, "hard": 2.5}
#: ``hard`` calls OMERTA when its margin says so and the call succeeds with at least ``CALL_CHANCE``, or whatever
#: the margin with at least ``SURE_CHANCE`` (own values; ``bench.omerta_levels``, docs/bots.md).
CALL_CHANCE = 0.9
SURE_CHANCE = 0.97
#: ``hard``: how many deals of the unseen cards ``call_odds`` samples (own value: the chance within about 2
#: points at 400; a decision takes a few milliseconds).
CALL_SAMPLES = 400


@dataclass
class Memory:
    """What one seat knows of its own face-down cards this round (slot -> card), and what it holds in mind."""

    seat: int
    known: dict[int, dict[str, Any]] = field(default_factory=dict)
    safe: list[dict[str, Any]] = field(default_factory=list)
    taking: dict[str, Any] | None = None
    seen_ids: set[int] = field(default_factory=set)
    #: pace=post: its own standing order on a slot it did not know (easy's blind guess), slot -> value
    blind: dict[int, int] = field(default_factory=dict)
    #: Bottles it saw land on the discard pile this round (each one was a chance to snap)
    landed: int = 0

    def observe(self, before: dict[str, Any], choice: Choice, after: dict[str, Any], events: Sequence[Event]) -> None:
        """Learn from one step: the seat's views before and after it and the events it may see."""
        cards = deck().cards
        me = self.seat
        if before.get("round") != after.get("round"):
            # a new round deals every card again from one shuffled deck: nothing seen before says where a card
            # is now, nor that it is out of play (issue 27: the estimate drifted from 8.75 to 10.33 by round 4)
            self.known.clear()
            self.seen_ids.clear()
            self.safe, self.taking = [], None
            self.blind, self.landed = {}, 0
        else:
            top = after.get("discard_top")
            if after["discard_count"] > before["discard_count"] and top is not None and top["kind"] == "bottle":
                self.landed += 1
        for e in events:
            if not e.visible_to(me) or e.kind != "look":
                continue
            if "cards" in e.data:  # the peek
                for slot, card in e.data["cards"].items():
                    if card is not None:
                        self.known[int(slot)] = cards[card].public()
            elif "slot" in e.data:  # the Mole
                self.known[int(e.data["slot"])] = cards[e.data["card"]].public()
            elif "safe" in e.data:  # the Safecracker
                self.safe = [cards[c].public() for c in e.data["safe"]]
        # a card of its own that everyone saw go face down into a slot: a wrong snap of its own (a claim or a
        # standing order) goes back; under rules 3 a penalty card may come face up from the discard pile
        for e in events:
            wrong = e.kind == "snap" and e.data.get("right") is False
            if (wrong or e.kind == "penalty") and e.data.get("seat") == me and "shown" in e.data:
                self.known[int(e.data["slot"])] = after["shown"][int(e.data["shown"])]
        kind, option = choice.kind, choice.option
        if choice.seat == me:
            if kind == "place" and option.startswith("swap:") and before.get("holding"):
                self.known[int(option.split(":")[1])] = before["holding"]
            elif kind == "safe" and option.startswith("take:") and self.safe:
                self.taking = self.safe[int(option.split(":")[1])]
            elif kind == "safe_slot" and option.startswith("slot:") and self.taking is not None:
                self.known[int(option.split(":")[1])] = self.taking
                self.taking = None
            elif kind == ORDER:
                parts = option.split(":")
                self.blind.pop(int(parts[1]), None)
                if parts[0] == "set" and int(parts[1]) not in self.known:
                    self.blind[int(parts[1])] = int(parts[2])
        if kind == "lady" and option == f"lady:{me}":
            self.known.clear()  # an opponent's Lady shuffled our cards: what we knew is lost
        for c in after.get("shown") or []:  # cards turned face up for everyone
            self.seen_ids.add(c["id"])
        mine = after["players"][me]["slots"]
        for slot in list(self.known):
            if slot >= len(mine) or mine[slot]["empty"]:
                del self.known[slot]
        standing = {(o["slot"], o["value"]) for o in after.get("orders") or []}
        for slot, value in list(self.blind.items()):  # judged, cancelled, or its card is known now
            if slot in self.known or (slot, value) not in standing or mine[slot]["empty"]:
                del self.blind[slot]
        for c in self.known.values():
            self.seen_ids.add(c["id"])

    def copy(self) -> Memory:
        """An independent copy (to think about a move before making it)."""
        return Memory(
            self.seat, dict(self.known), list(self.safe), self.taking, set(self.seen_ids), dict(self.blind), self.landed
        )


def remember(
    game: Game, seats: Sequence[str], options: dict[str, Any], seed: int, record: Sequence[Choice], seat: int
) -> Memory:
    """A seat's memory after a game's record: the game replayed step by step, the memory fed only that seat's
    views and the events it may see."""
    return remember_all(game, seats, options, seed, record, [seat])[seat]


def remember_all(
    game: Game,
    seats: Sequence[str],
    options: dict[str, Any],
    seed: int,
    record: Sequence[Choice],
    who: Iterable[int],
) -> dict[int, Memory]:
    """The memories of several seats after a game's record, from one replay (each fed only its own seat's views
    and the events that seat may see)."""
    state = replay(game, seats, options, seed, [])
    memories = {s: Memory(s) for s in who}
    before = {s: game.view(state, s) for s in memories}
    for choice in record:
        events = game.apply(state, choice)
        for s, memory in memories.items():
            after = game.view(state, s)
            memory.observe(before[s], choice, after, events)
            before[s] = after
    return memories


class OmertaBot:
    """A seat bot for Omerta at one level; ``salt`` fixes its generator for the table seat."""

    def __init__(self, level: str = "standard", salt: int = 0) -> None:
        self.level = check_level(level)
        self.salt = salt

    def choose(self, game: Game, state: Any, prompt: Prompt, memory: Memory) -> Choice | None:
        """The bot's answer to its prompt; ``None`` means it lets a snap race go, or leaves its standing orders
        (the optional ``order`` question) as they are."""
        if prompt.seat == TABLE:
            raise ValueError("A seat bot answers its seat's prompts, not the table's timer.")
        view = game.view(state, prompt.seat)
        rng = view_rng(game, state, prompt, self.salt, extra=repr(sorted(memory.known.items())))
        pick = getattr(self, "_" + prompt.kind, None)
        option = pick(view, prompt, memory, rng) if pick is not None else self._power(view, prompt, memory)
        if option is None:
            return None
        return Choice(prompt.seat, prompt.kind, option)

    # --- standing snap orders (pace=post) -------------------------------------------------------------------

    def wanted_orders(self, view: dict[str, Any], memory: Memory) -> dict[int, int]:
        """The standing orders the bot wants (slot -> Bottle value): every own slot it knows holds a Bottle, on
        that value. ``easy`` also guesses blind as in a live window: each Bottle it sees land is a chance
        ``BLIND_GUESS``, seeded from the round and the count of Bottles landed, to set one order on a slot it
        does not know, with a random value; that order stands until it is judged or the card is known (one at
        a time)."""
        live = [s["index"] for s in view["players"][memory.seat]["slots"] if not s["empty"]]
        want = {
            i: card["value"] for i in live if (card := memory.known.get(i)) is not None and card["kind"] == "bottle"
        }
        if self.level == "easy":
            blind = {i: v for i, v in memory.blind.items() if i in live and i not in memory.known}
            unknown = [i for i in live if i not in memory.known]
            if not blind and memory.landed and unknown:
                key = f"order|{self.salt}|{view['round']}|{memory.landed}"
                rng = random.Random(hashlib.sha256(key.encode()).digest())
                if rng.random() < BLIND_GUESS:
                    blind = {rng.choice(unknown): rng.choice(deck().bottle_values)}
            want |= blind
        if self.level == "hard":
            # by the odds: one order on a card it does not know, on the Bottle that pays best, when that pays
            unknown = [i for i in live if i not in memory.known]
            worth = {v: self.snap_worth(v, memory) for v in deck().bottle_values}
            best = max(worth, key=worth.__getitem__)
            if unknown and worth[best] > 0:
                want[unknown[0]] = best
        return want

    def order_changes(self, view: dict[str, Any], want: dict[int, int]) -> list[str]:
        """The ``order`` answers that turn the seat's standing orders (in its view) into ``want``: cancels first,
        then sets, by slot. An order on an emptied slot is left alone (the game drops it unjudged)."""
        standing = {o["slot"]: o["value"] for o in view["orders"]}
        live = {s["index"] for s in view["players"][view["viewer"]]["slots"] if not s["empty"]}
        out = [f"cancel:{s}" for s in sorted(standing) if s in live and s not in want]
        out += [f"set:{s}:{v}" for s, v in sorted(want.items()) if standing.get(s) != v]
        return out

    def orders_before(self, game: Game, state: Any, choice: Choice, memory: Memory) -> list[Choice]:
        """The order answers to give before the bot's own ``choice``: a swap into a slot lands the card that
        comes out at once, and the orders are judged then, so the slot's order must already suit the card going
        in (the card in hand, seen, or an unknown one). Nothing for any other choice or without standing orders."""
        if choice.kind != "place" or not choice.option.startswith("swap:"):
            return []
        if not any(p.kind == ORDER and p.seat == choice.seat for p in game.prompts(state)):
            return []  # pace=live: no standing orders
        view = game.view(state, choice.seat)
        if view["rules"] >= 3:
            return []  # decisions 2.1: the swap withdraws the slot's order; the bot sets it again after
        slot = int(choice.option.split(":")[1])
        after = memory.copy()
        held = view.get("holding")
        if held is not None:
            after.known[slot] = held
        else:
            after.known.pop(slot, None)
        return [Choice(choice.seat, ORDER, o) for o in self.order_changes(view, self.wanted_orders(view, after))]

    def _order(self, view, prompt, memory, rng) -> str | None:
        ids = {o.id for o in prompt.options}
        changes = [o for o in self.order_changes(view, self.wanted_orders(view, memory)) if o in ids]
        return changes[0] if changes else None

    # --- estimates -----------------------------------------------------------------------------------------

    def _unseen(self, memory: Memory) -> list[Any]:
        """The cards a face-down card the seat does not know may be: every playing card (``hard`` leaves out
        every card it saw this round)."""
        d = deck()
        playing = [d.cards[c] for c in d.playing]
        if self.level != "hard":
            return playing
        return [c for c in playing if c.id not in memory.seen_ids] or playing

    def _unseen_mean(self, memory: Memory) -> float:
        """Mean points of a card the seat has not seen (``hard`` leaves out every card it saw this round)."""
        rest = self._unseen(memory)
        return sum(c.points for c in rest) / len(rest)

    def call_odds(self, view: dict[str, Any], memory: Memory, rng: random.Random) -> float:
        """The chance that OMERTA called now succeeds (the seat has the limit or fewer points and no rival has
        fewer: 002:52.1-53.1). The cards it does not know are dealt ``CALL_SAMPLES`` times from the cards it has
        not seen, without replacement, to its unknown slots and every rival's cards."""
        me = memory.seat
        pool = [c.points for c in self._unseen(memory)]
        known, unknown = 0, 0
        for s in view["players"][me]["slots"]:
            if not s["empty"]:
                card = memory.known.get(s["index"])
                known, unknown = (known + card["points"], unknown) if card is not None else (known, unknown + 1)
        rivals = [sum(not s["empty"] for s in p["slots"]) for i, p in enumerate(view["players"]) if i != me]
        need = unknown + sum(rivals)
        limit = view["numbers"]["omerta_limit"]
        wins = 0
        for _ in range(CALL_SAMPLES):
            # more cards to deal than the seat has not seen (a rare end of a round): deal with replacement
            dealt = rng.sample(pool, need) if need <= len(pool) else rng.choices(pool, k=need)
            mine = known + sum(dealt[:unknown])
            at, ok = unknown, mine <= limit
            for n in rivals:
                ok = ok and sum(dealt[at : at + n]) >= mine  # a tie with the caller is not "fewer"
                at += n
            wins += ok
        return wins / CALL_SAMPLES

    def snap_worth(self, value: int, memory: Memory) -> float:
        """``hard``: the expected points a claim on one of its own cards it does not know gains when a Bottle of
        ``value`` lands: right (the chance that the card is one of the unseen Bottles of that value) it is rid of
        the card's points; wrong, it takes the penalty cards, each worth an unseen card's mean."""
        rest = self._unseen(memory)
        matches = [c.points for c in rest if c.kind == "bottle" and c.value == value]
        right = len(matches) / len(rest)
        penalty = deck().numbers["wrong_snap_penalty_cards"] * sum(c.points for c in rest) / len(rest)
        return right * (matches[0] if matches else 0) - (1 - right) * penalty

    def estimate(self, view: dict[str, Any], seat: int, memory: Memory) -> float:
        """Expected points of a seat's cards: the known ones (own seat) and the mean for the rest."""
        mean = self._unseen_mean(memory)
        total = 0.0
        for s in view["players"][seat]["slots"]:
            if s["empty"]:
                continue
            card = memory.known.get(s["index"]) if seat == memory.seat else None
            total += card["points"] if card is not None else mean
        return total

    def _worst(self, view: dict[str, Any], memory: Memory) -> tuple[int | None, float]:
        """The own slot to get rid of first: the known card with most points, else an unknown one (mean)."""
        mean = self._unseen_mean(memory)
        best: tuple[int | None, float] = (None, float("-inf"))
        for s in view["players"][memory.seat]["slots"]:
            if s["empty"] or s["police"]:
                continue
            card = memory.known.get(s["index"])
            points = card["points"] if card is not None else mean
            if points > best[1]:
                best = (s["index"], points)
        return best

    # --- the questions ---------------------------------------------------------------------------------------

    def _peek(self, view, prompt, memory, rng) -> str:
        return prompt.options[0].id  # every pair tells as much

    def _turn(self, view, prompt, memory, rng) -> str:
        ids = {o.id for o in prompt.options}
        me = memory.seat
        mine = self.estimate(view, me, memory)
        rivals = [self.estimate(view, s, memory) for s in range(len(view["players"])) if s != me]
        limit = view["numbers"]["omerta_limit"]
        margin = mine <= limit - CALL_MARGIN[self.level] and mine < min(rivals, default=mine + 1)
        if "omerta" in ids and self.level == "hard":
            # by the odds: called, it scores 0 if it succeeds, else its points + the caller's penalty (002:54.1)
            # and the rival with fewest scores 0; not called, it may still call later, knowing more
            chance = self.call_odds(view, memory, rng)
            if (margin and chance >= CALL_CHANCE) or chance >= SURE_CHANCE:
                return "omerta"
        elif "omerta" in ids and margin:
            return "omerta"
        top = view.get("discard_top")
        _slot, worst = self._worst(view, memory)
        if "take" in ids and top is not None and top["points"] < worst - 1:
            return "take"
        return "draw"

    def _place(self, view, prompt, memory, rng) -> str:
        held = view.get("holding")
        ids = [o.id for o in prompt.options]
        slot, worst = self._worst(view, memory)
        if held is not None and slot is not None and f"swap:{slot}" in ids and held["points"] < worst:
            return f"swap:{slot}"
        return "discard" if "discard" in ids else (f"swap:{slot}" if f"swap:{slot}" in ids else ids[0])

    def _snap(self, view, prompt, memory, rng) -> str | None:
        value = view.get("snap_value")
        for o in prompt.options:
            card = memory.known.get(int(o.id.split(":")[1]))
            if card is not None and card["kind"] == "bottle" and card["value"] == value:
                return o.id
        unknown = [o.id for o in prompt.options if int(o.id.split(":")[1]) not in memory.known]
        if self.level == "easy" and rng.random() < BLIND_GUESS and unknown:
            return rng.choice(unknown)
        if self.level == "hard" and unknown and value is not None and self.snap_worth(value, memory) > 0:
            return unknown[0]  # by the odds of what it has not seen (every unknown card has the same)
        return None

    def _power(self, view: dict[str, Any], prompt: Prompt, memory: Memory) -> str:
        """Powers: look where it knows least, push cards and skips onto the leader, keep its best cards."""
        ids = [o.id for o in prompt.options]
        me = memory.seat
        leader = min((s for s in range(len(view["players"])) if s != me), key=lambda s: view["players"][s]["total"])
        if prompt.kind == "mole":
            looks = [i for i in ids if i.startswith("look:")]
            unknown = [i for i in looks if int(i.split(":")[1]) not in memory.known]
            return (unknown or looks or ids)[0]
        if prompt.kind in ("safecracker",):
            return "look" if "look" in ids else ids[0]
        if prompt.kind == "safe":
            _slot, worst = self._worst(view, memory)
            takes = [(c["points"], k) for k, c in enumerate(memory.safe) if f"take:{k}" in ids]
            if takes and min(takes)[0] < worst:
                return f"take:{min(takes)[1]}"
            return "keep" if "keep" in ids else ids[-1]
        if prompt.kind == "safe_slot":
            slot, _worst = self._worst(view, memory)
            return f"slot:{slot}" if f"slot:{slot}" in ids else ids[0]
        if prompt.kind == "chauffeur":
            bottles = {i for i, c in memory.known.items() if c["kind"] == "bottle"}
            picks = [o for o in ids if o.startswith("drop:") and set(map(int, o[5:].split(","))) <= bottles]
            return max(picks, key=len) if picks else ("decline" if "decline" in ids else ids[0])
        for prefix in ("give:", "lady:", "mamma:"):
            aimed = [o for o in ids if o.startswith(prefix)]
            if aimed:
                on_leader = [o for o in aimed if str(leader) in o[len(prefix) :].split(",")]
                return (on_leader or aimed)[0]
        if prompt.kind == "police":
            rival = [o for o in ids if o.startswith("hold:") and not o.startswith(f"hold:{me},")]
            return (rival or ids)[0]
        return "decline" if "decline" in ids else ids[0]
