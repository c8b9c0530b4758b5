"""Speakeasy as an engine ``Game``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import BadOptions, Choice, Event, IllegalChoice, OptionSpec, Prompt, Result, resolve_options
from engine.speakeasy import flow, invariants, refusals
from engine.speakeasy import state as state_mod
from engine.speakeasy.setup import new_state
from engine.speakeasy.state import SpeakeasyState
from engine.speakeasy.view import view as view_state


class SpeakeasyGame:
    """Speakeasy (Vital Lacerda), 2-4 players. Solo against Jo comes with the solo issue."""

    name: ClassVar[str] = "speakeasy"
    title: ClassVar[str] = "Speakeasy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: Not yet offered at the Discord table: the Lucky Luciano phase and Acts 2-4 come with engine II.
    at_table: ClassVar[bool] = False

    def new(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> SpeakeasyState:
        """A set-up game waiting for the Setup Round."""
        return self.start(seats, options, seed)[0]

    def start(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> tuple[SpeakeasyState, list[Event]]:
        """Like ``new``, with the set-up's log events."""
        if not self.min_players <= len(seats) <= self.max_players:
            raise BadOptions(f"Speakeasy needs {self.min_players} to {self.max_players} players, not {len(seats)}.")
        resolve_options(self.option_specs, options)
        return new_state(seats, seed)

    def prompts(self, state: SpeakeasyState) -> list[Prompt]:
        """The open prompt."""
        return flow.prompts(state)

    def apply(self, state: SpeakeasyState, choice: Choice) -> list[Event]:
        """Apply one choice or raise ``IllegalChoice`` (saying why) with nothing changed."""
        try:
            return flow.apply(state, choice)
        except IllegalChoice as exc:
            raise refusals.explained(state, choice, exc) from None

    def view(self, state: SpeakeasyState, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: spectator) may see."""
        return view_state(state, seat)

    def dumps(self, state: SpeakeasyState) -> bytes:
        """JSON."""
        return state_mod.dumps(state)

    def loads(self, data: bytes | str) -> SpeakeasyState:
        """From JSON."""
        return state_mod.loads(data)

    def is_over(self, state: SpeakeasyState) -> bool:
        """After the final scoring (engine II)."""
        return state.phase == "over"

    def result(self, state: SpeakeasyState) -> Result | None:
        """Final scores come with engine II."""
        return None

    def invariants(self, state: SpeakeasyState) -> list[str]:
        """Every piece in one place, no negative amounts, levels and Infamy in range."""
        return invariants.check(state)

    def selfplay_stop(self, state: SpeakeasyState) -> bool:
        """Self-play stops at the end of Act 1 (the Lucky Luciano phase comes with engine II)."""
        return state.phase == "luciano"
