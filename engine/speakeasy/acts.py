"""Between Acts (seed 000:26.1-4, design §7.2 refill) and the Final Scoring Round of 1933 (design §14)."""

from __future__ import annotations

from collections import Counter

from engine.msg import M
from engine.speakeasy import economy as eco
from engine.speakeasy import solo
from engine.speakeasy.board import buildings
from engine.speakeasy.components import BOTTLES
from engine.speakeasy.loader import rules
from engine.speakeasy.state import SpeakeasyState
from engine.speakeasy.steps import Log, say


def return_capos(state: SpeakeasyState, log: Log) -> None:
    """Seed 000:26.1-3: every Capo comes back from the locations; some return to the board, the rest are boxed."""
    t = rules(state).tracks
    out = Counter(state.persons.values()) + Counter(s for s in state.booths if s is not None)
    out += Counter(state.first_place) + Counter(s for s in state.park if s is not None)
    out += Counter(state.beside_park)
    boxed = t.capos_boxed[state.act - 1]
    for seat, p in enumerate(state.players):
        back = out[seat]
        box = min(boxed, back)
        p.capos_boxed += box
        p.capos += back - box
    state.persons = {}
    state.booths = [None] * len(state.booths)
    state.first_place = []
    state.park = [None] * len(state.park)
    state.beside_park = []
    say(
        log,
        M(
            "speakeasy.acts.capos_return",
            "Act {act}: {returned} Capos return to each board, {boxed} to the box.",
            act=state.act,
            returned=t.capos_returned[state.act - 1],
            boxed=boxed,
        ),
    )


def refill_ships(state: SpeakeasyState, log: Log) -> None:
    """Design §7.2: every Ship back to 5 barrels; a Ship without a Crate takes the top of the stack, in order."""
    full = rules(state).docks.ship_barrels
    for ship in state.ships:
        ship.barrels = full
        if ship.crate is None and state.crate_stack:
            ship.crate = state.crate_stack.pop(0)
    say(log, M("speakeasy.acts.ships_refilled", "The Rum-runner Ships are refilled."))


# ---- Final scoring (design §14) ----


_BOTTLE_KINDS = frozenset(BOTTLES)


def bottles(state: SpeakeasyState, seat: int) -> tuple[int, int]:
    """Design §11.2: (value of the bottles owned, variety bonus); the Champagne Case counts as a Champagne."""
    r = rules(state)
    p = state.player(seat)
    cards = r.helpers.cards
    owned = [cards[h].bottle for h in p.helpers]
    owned += [cards[h].bottle for h in p.screen]
    if p.crates:  # (a seat bot values every trial position: no Crate, no Champagne Case to look for)
        owned += ["champagne"] * eco.crate_power(p, "champagne")
    worth = r.helpers.bottle_values
    value = sum([worth[b] for b in owned])
    kinds = len(_BOTTLE_KINDS.intersection(owned))
    bonus = max((v for k, v in r.helpers.variety_bonus.items() if kinds >= k), default=0)
    return value, bonus


def final_scoring(state: SpeakeasyState, log: Log) -> None:
    """Money (pocket + safe), Protected buildings, Helper bottles; nothing else scores (design §14)."""
    r = rules(state)
    state.phase = "over"
    state.year = r.years["final"]
    say(log, M("speakeasy.acts.final", "{year}: Prohibition ends. Final scoring.", year=state.year), kind="final")
    for seat, p in enumerate(state.players):
        protected = sum(r.final.protected[b.kind] for _d, _i, b in buildings(state, seat) if b.family)
        value, bonus = bottles(state, seat)
        p.final = {
            "pocket": p.pocket,
            "safe": p.safe,
            "protected": protected,
            "bottles": value,
            "variety": bonus,
        }
        p.final["total"] = sum(p.final.values())
        say(
            log,
            M(
                "speakeasy.acts.final_total",
                "{name}: {total} (${pocket} pocket + ${safe} safe + ${protected} protected buildings + ${bottles} "
                "bottles).",
                name=p.name,
                total=p.final["total"],
                pocket=p.pocket,
                safe=p.safe,
                protected=protected,
                bottles=value + bonus,
            ),
            kind="final",
        )
    if state.jo is not None:
        solo.jo("final_scoring")(state, log)
