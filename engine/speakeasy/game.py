"""Speakeasy as an engine ``Game``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import BadOptions, Chance, Choice, Event, IllegalChoice, Option, Prompt, Result
from engine.msg import M, Msg, T
from engine.options import (
    AWAY,
    HINTS,
    LANG,
    ON_TIMEOUT,
    PRIVATE_LANG,
    REVEAL_AFTER,
    TIMEOUTS_TO_REPLACE,
    OptionSpec,
    deadline_option,
    resolve_options,
)
from engine.speakeasy import acts, flow, hidden, invariants, refusals, standings
from engine.speakeasy import state as state_mod
from engine.speakeasy.board import operating_count
from engine.speakeasy.components import PLAYER_COUNTS
from engine.speakeasy.loader import latest_version
from engine.speakeasy.reveal import revealed as reveal_lines
from engine.speakeasy.setup import new_state
from engine.speakeasy.state import SpeakeasyState
from engine.speakeasy.view import view as view_state
from engine.speakeasy.view import views as view_states


class SpeakeasyGame:
    """Speakeasy (Vital Lacerda), 2-4 players, or 1 against Jo, the official solo bot."""

    name: ClassVar[str] = "speakeasy"
    title: ClassVar[str] = "Speakeasy"
    min_players: ClassVar[int] = PLAYER_COUNTS[0]
    max_players: ClassVar[int] = PLAYER_COUNTS[-1]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "difficulty",
            "int",
            2,
            M("speakeasy.game.difficulty_help", "Solo: Jo's difficulty (1 Easy, 2 Standard, 3 Hard, 4 Brutal)"),
            1,
            4,
        ),
        # "off" for a record without it (games recorded before it existed replay as they were played); a new
        # table gets "auto"
        OptionSpec(
            "settle",
            "choice",
            "off",
            M(
                "speakeasy.game.settle_help",
                "auto: a question with one possible answer is answered at once; off: always asked",
            ),
            choices=("auto", "off"),
            new_default="auto",
        ),
        # issue 25: version 2 changes some of the project's own values (docs/house-rules.md); a record made
        # before the option replays as version 1, and each keeps the version its table was opened with
        OptionSpec(
            "rules",
            "int",
            1,
            M("speakeasy.game.rules_help", "Rules version (2: the house values tuned by self-play; 1: the first)"),
            1,
            latest_version(),
            new_default=latest_version(),
        ),
        HINTS,
        LANG,
        PRIVATE_LANG,
        REVEAL_AFTER,
        deadline_option("48h"),
        ON_TIMEOUT,
        TIMEOUTS_TO_REPLACE,
        AWAY,
    )
    #: Offered at the Discord table (pictures: render/speakeasy.py; the safe screen: a private message).
    at_table: ClassVar[bool] = True

    def new(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> SpeakeasyState:
        """A set-up game waiting for the Setup Round."""
        return self.start(seats, options, seed)[0]

    def start(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> tuple[SpeakeasyState, list[Event]]:
        """Like ``new``, with the set-up's log events."""
        if not self.min_players <= len(seats) <= self.max_players:
            raise BadOptions(
                M(
                    "speakeasy.game.players",
                    "Speakeasy needs {least} to {most} players, not {n}.",
                    least=self.min_players,
                    most=self.max_players,
                    n=len(seats),
                )
            )
        opts = resolve_options(self.option_specs, options)
        state, events = new_state(seats, seed, opts["difficulty"] if len(seats) == 1 else 0, opts["rules"])
        if opts["settle"] == "auto":
            state.settle = True
            flow.advance(state, events)  # a forced first question is answered at once too
        return state, events

    def prompts(self, state: SpeakeasyState) -> list[Prompt]:
        """The open prompt."""
        return flow.prompts(state)

    def apply(self, state: SpeakeasyState, choice: Choice) -> list[Event]:
        """Apply one choice or raise ``IllegalChoice`` (saying why) with nothing changed."""
        try:
            return flow.apply(state, choice)
        except IllegalChoice as exc:
            raise refusals.explained(state, choice, exc) from None

    def question(self, state: SpeakeasyState) -> tuple[int, str, list[Option]] | None:
        """The open prompt's seat, kind and options without its words, or ``None`` (a bot's playouts)."""
        return flow.question(state)

    def apply_offered(self, state: SpeakeasyState, choice: Choice) -> list[Event]:
        """``apply`` for a choice whose option was taken from ``prompts(state)`` or ``question(state)`` of this
        very state (or of an exact copy), so it is legal: the check is not made again. A bot trying each option
        of a question on copies of the position applies thousands of them; anything else uses ``apply``.

        Such a copy is read by nobody and never taken back: no log lines are made (the list returned is empty)
        and the undo floor is not compared for reveals; the game goes exactly as with ``apply``."""
        return flow.apply(state, choice, checked=False, quiet=True)

    def view(self, state: SpeakeasyState, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: spectator) may see."""
        return view_state(state, seat)

    def views(self, state: SpeakeasyState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """``view`` for each of ``seats``, the public part built once (they share it: read only)."""
        return view_states(state, seats)

    def scramble(self, state: SpeakeasyState, seat: int | None, rng: Chance) -> SpeakeasyState:
        """A copy with everything ``seat`` may not see redrawn (``engine.speakeasy.hidden``)."""
        return hidden.scramble(state, seat, rng)

    def revealed(self, state: Any) -> list[Msg]:
        """What was hidden, in words, for a finished game's replay (issue 26, ``reveal_after``)."""
        return reveal_lines(state)

    def dumps(self, state: SpeakeasyState) -> bytes:
        """JSON."""
        return state_mod.dumps(state)

    def loads(self, data: bytes | str) -> SpeakeasyState:
        """From JSON."""
        return state_mod.loads(data)

    def is_over(self, state: SpeakeasyState) -> bool:
        """After the Final Scoring Round of 1933."""
        return state.phase == "over"

    def result(self, state: SpeakeasyState) -> Result | None:
        """Each player's total and its parts; the winner after the tie-breakers (design §14)."""
        if state.phase != "over":
            return None
        if state.jo is not None:
            return self._solo_result(state)
        order = standings.ranking(state)
        best = order[0]

        def key(seat: int) -> tuple[int, int, int, int]:
            p = state.player(seat)
            return (p.final["total"], p.safe, operating_count(state, seat), state.track.index(seat))

        # Two seats tie completely only if they are the same seat (turn order decides last), so one winner.
        winners = tuple(s for s in order if key(s) == key(best))
        details = tuple(
            M(
                "speakeasy.game.result",
                "{name}: ${total} = ${pocket} pocket + ${safe} safe + ${protected} protected buildings + ${bottles} "
                "bottles + ${variety} variety",
                name=p.name,
                total=p.final["total"],
                pocket=p.final["pocket"],
                safe=p.final["safe"],
                protected=p.final["protected"],
                bottles=p.final["bottles"],
                variety=p.final["variety"],
            )
            for p in state.players
        )
        return Result(tuple(p.final["total"] for p in state.players), winners, False, details)

    def standings(self, state: SpeakeasyState) -> Result:
        """The standings now (issue 23, a game its players end by agreement): the final scoring applied to a
        copy of the position (money in pocket and safe, protected buildings, Helper bottles; solo: Jo's score
        and the achievements too), ranked with the same tie-breakers as a finished game. At the end of the
        game, its result."""
        if state.phase != "over":
            state = self.loads(self.dumps(state))
            acts.final_scoring(state, [])  # the copy's log is dropped: the lines of a finish are not said
        result = self.result(state)
        assert result is not None
        return result

    def _solo_result(self, state: SpeakeasyState) -> Result:
        """Seed 003:58.1-60.1: you win only with more money than Jo; achievements and rank after."""
        jo = state.jo
        assert jo is not None
        human = 1 - jo.seat
        p, bot = state.player(human), state.player(jo.seat)
        won = p.final["total"] - p.final.get("achievements", 0) > bot.final["total"]
        details = (
            M(
                "speakeasy.game.solo_result",
                "{name}: ${total} = ${pocket} pocket + ${safe} safe + ${protected} protected buildings + ${bottles} "
                "bottles + ${achievements} achievements",
                name=p.name,
                total=p.final["total"],
                pocket=p.final["pocket"],
                safe=p.final["safe"],
                protected=p.final["protected"],
                bottles=p.final["bottles"] + p.final["variety"],
                achievements=p.final.get("achievements", 0),
            ),
            M(
                "speakeasy.game.jo_result",
                "Jo: ${total} = ${pocket} + ${protected} protected buildings + ${bottles} bottles + ${tiles} City "
                "tiles",
                total=bot.final["total"],
                pocket=bot.final["pocket"],
                protected=bot.final["protected"],
                bottles=bot.final["bottles"] + bot.final["variety"],
                tiles=bot.final["city_tiles"],
            ),
            M("speakeasy.game.rank", "Rank: {rank}", rank=T("speakeasy.jo.rank", jo.rank)),
        )
        scores = [0, 0]
        scores[human], scores[jo.seat] = p.final["total"], bot.final["total"]
        return Result(tuple(scores), (human,) if won else (jo.seat,), False, details)

    def undo_floor(self, state: SpeakeasyState) -> int:
        """How many of the game's choices can never be undone: everything up to the last revealed card, tile
        or shuffle, and everything before the current turn (issue "at the table": undo)."""
        return state.undo_mark

    def invariants(self, state: SpeakeasyState) -> list[str]:
        """Every piece in one place, no negative amounts, levels and Infamy in range."""
        return invariants.check(state)
