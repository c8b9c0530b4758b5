"""Omerta as an engine ``Game``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import BadOptions, Chance, Choice, Event, Prompt, Result
from engine.msg import M, Msg
from engine.omerta import hidden, rules
from engine.omerta import state as state_mod
from engine.omerta.cards import deck
from engine.omerta.reveal import revealed as reveal_lines
from engine.omerta.scoring import score_round
from engine.omerta.state import OmertaState
from engine.omerta.table import card_name, slot_name
from engine.omerta.view import view as view_state
from engine.omerta.view import views as view_states
from engine.options import (
    AWAY,
    HINTS,
    LANG,
    ON_TIMEOUT,
    PRIVATE_LANG,
    REVEAL_AFTER,
    SERVICE_OPTIONS,
    TIMEOUTS_TO_REPLACE,
    OptionSpec,
    deadline_option,
    resolve_options,
)


class OmertaGame:
    """The Omerta card game (Helvetiq), 3-5 players."""

    name: ClassVar[str] = "omerta"
    title: ClassVar[str] = "Omerta"
    min_players: ClassVar[int] = deck().numbers["min_players"]
    max_players: ClassVar[int] = deck().numbers["max_players"]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("snap_window", "int", 5, "Seconds the snap window stays open", 2, 30),
        OptionSpec("rounds", "int", 0, "Rounds to play (0: as many as players)", 0, 10),
        # Version 2 (decisions file): bounded rounds and a wrong snap that does not use up the window; version 3
        # (decisions 2.1): a standing order follows its card, a wrong snap always costs a card. Records made before
        # the option replay with version 1, and each record keeps the version its table was opened with; a new
        # table gets version 3.
        OptionSpec(
            "rules",
            "int",
            1,
            "Rules version (2: bounded rounds; 3: orders follow their card, a wrong snap always costs)",
            1,
            3,
            new_default=3,
        ),
        OptionSpec(
            "pace",
            "choice",
            "live",
            "live: snap windows of snap_window seconds; post: standing snap orders, no windows",
            choices=("live", "post"),
            # issue 24: with live windows the bots made every snap at a table played by post; a new table plays by
            # post, ``live`` is for a group online together; a record without the option replays as live
            new_default="post",
        ),
        HINTS,
        LANG,
        PRIVATE_LANG,
        REVEAL_AFTER,
        deadline_option("24h"),
        ON_TIMEOUT,
        TIMEOUTS_TO_REPLACE,
        AWAY,
    )

    def new(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> OmertaState:
        """A new game: gangsters dealt, round 1 dealt, everyone asked to peek."""
        return self.start(seats, options, seed)[0]

    def start(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> tuple[OmertaState, list[Event]]:
        """Like ``new``, with the set-up's log events."""
        if not self.min_players <= len(seats) <= self.max_players:
            raise BadOptions(
                M(
                    "omerta.error.players",
                    "Omerta needs {low} to {high} players, not {n}.",
                    low=self.min_players,
                    high=self.max_players,
                    n=len(seats),
                )
            )
        opts = resolve_options(self.option_specs, options)
        return rules.new_state(seats, {k: v for k, v in opts.items() if k not in SERVICE_OPTIONS}, seed)

    def prompts(self, state: OmertaState) -> list[Prompt]:
        """Every open prompt."""
        return rules.prompts(state)

    def apply(self, state: OmertaState, choice: Choice) -> list[Event]:
        """Apply one choice or raise ``IllegalChoice`` with nothing changed."""
        return rules.apply(state, choice)

    def private_note(self, state: OmertaState, choice: Choice) -> list[Event]:
        """Private lines about ``choice``, read from the state *before* it is applied, that are not events of the
        record (issue 24: a player's private log says where the card they drew went). Pure; nothing changes."""
        if choice.kind != "place" or state.phase != "drawn" or state.held is None or choice.seat != state.active:
            return []
        card = card_name(state.held)
        if choice.option == "discard":
            text = M("omerta.log.drew.discard", "You drew {card} (put on the discard pile).", card=card)
        elif choice.option.startswith("swap:"):
            slot = slot_name(int(choice.option.split(":")[1]))
            text = M("omerta.log.drew.slot", "You drew {card} (into {slot}).", card=card, slot=slot)
        else:
            return []
        return [Event("note", text, (choice.seat,))]

    def view(self, state: OmertaState, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: spectator) may see."""
        return view_state(state, seat)

    def views(self, state: OmertaState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """``view`` for each of ``seats``, the public part built once (they share it: read only)."""
        return view_states(state, seats)

    def scramble(self, state: OmertaState, seat: int | None, rng: Chance) -> OmertaState:
        """A copy with every card ``seat`` cannot see redrawn (``engine.omerta.hidden``)."""
        return hidden.scramble(state, seat, rng)

    def revealed(self, state: Any) -> list[Msg]:
        """What was hidden, in words, for a finished game's replay (issue 26, ``reveal_after``)."""
        return reveal_lines(state)

    def dumps(self, state: OmertaState) -> bytes:
        """JSON."""
        return state_mod.dumps(state)

    def loads(self, data: bytes | str) -> OmertaState:
        """From JSON."""
        return state_mod.loads(data)

    def is_over(self, state: OmertaState) -> bool:
        """After the last round."""
        return state.phase == "over"

    def result(self, state: OmertaState) -> Result | None:
        """Totals; lowest wins, a tie is a shared win."""
        if state.phase != "over":
            return None
        return self.standings(state)

    def standings(self, state: OmertaState) -> Result:
        """The standings now (issue 23, a game its players end by agreement): the totals of the rounds scored so
        far, as the board shows them (a round under way counts nothing yet); lowest wins, a tie is a shared win.
        At the end of the game, its result."""
        totals = tuple(p.total for p in state.players)
        best = min(totals)
        # each line a message (a str: its English), so the table can show it in the reader's language
        details = tuple(
            M(
                "omerta.result.total",
                "{name}: {rounds} = {total}",
                name=p.name,
                rounds=" + ".join(map(str, p.round_scores)) or "0",
                total=p.total,
            )
            for p in state.players
        )
        return Result(totals, tuple(i for i, t in enumerate(totals) if t == best), True, details)

    def invariants(self, state: OmertaState) -> list[str]:
        """All 65 cards in exactly one place; 4 in the Safe; scores as the rules say; phase consistent."""
        d = deck()
        bad: list[str] = []
        places: list[int] = [p.gangster for p in state.players] + list(state.box)
        for p in state.players:
            places += [c for c in p.slots if c is not None]
        places += state.draw + state.discard + state.safe
        if state.held is not None:
            places.append(state.held)
        counts = Counter(places)
        missing = [c.id for c in d.cards if counts[c.id] == 0]
        doubled = [c for c, k in counts.items() if k > 1]
        unknown = [c for c in counts if not 0 <= c < len(d.cards)]
        if missing or doubled or unknown or len(places) != len(d.cards):
            bad.append(f"cards: missing {missing}, doubled {doubled}, unknown {unknown}, total {len(places)}")
        if len(state.safe) != d.numbers["safe_size"]:
            bad.append(f"the Safe holds {len(state.safe)} cards")
        if (state.held is not None) != (state.phase in ("drawn", "taken")):
            bad.append(f"held card {state.held} in phase {state.phase}")
        for b in state.blocks:
            slots = state.players[b.seat].slots
            if not (0 <= b.slot < len(slots)) or slots[b.slot] is None or b.turns <= 0:
                bad.append(f"bad Police Check {b}")
        keys = [(o.seat, o.slot) for o in state.orders]
        if len(set(keys)) != len(keys) or any(not 0 <= s < len(state.players) for s, _ in keys):
            bad.append(f"standing orders {state.orders}: at most one per slot of a seat")
        if state.claimed and state.options.get("rules", 1) < 2:
            bad.append(f"claimed seats {state.claimed} under version 1")
        if state.options.get("rules", 1) >= 3:  # decisions 2.1: an order goes when its slot's card moves
            stale = [o for o in state.orders if not _holds_card(state, o.seat, o.slot)]
            if stale:
                bad.append(f"standing orders {stale} on slots without a card under version 3")
        for r in state.history:
            expected, _ = score_round(r.points, r.caller, d.numbers["omerta_limit"], d.numbers["caller_penalty"])
            points = [sum(d.cards[c].points for c in hand) for hand in r.cards]
            if expected != r.scores or points != r.points:
                bad.append(f"round {r.round} scored {r.scores}, rules give {expected}")
        for i, p in enumerate(state.players):
            if p.total != sum(p.round_scores) or len(p.round_scores) != len(state.history):
                bad.append(f"seat {i} total {p.total} != sum of {p.round_scores}")
            if any(s < 0 for s in p.round_scores):
                bad.append(f"seat {i} has a negative score")
        return bad


def _holds_card(state: OmertaState, seat: int, slot: int) -> bool:
    """Whether ``seat`` has a card in ``slot`` (an unknown seat or slot has none)."""
    if not 0 <= seat < len(state.players):
        return False
    slots = state.players[seat].slots
    return 0 <= slot < len(slots) and slots[slot] is not None
