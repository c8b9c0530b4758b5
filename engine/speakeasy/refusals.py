"""Why a choice is refused: a specific sentence for the common mistakes (the state is never changed)."""

from __future__ import annotations

from engine.core import Choice, IllegalChoice
from engine.speakeasy.state import SpeakeasyState


def explained(state: SpeakeasyState, choice: Choice, exc: IllegalChoice) -> IllegalChoice:
    """``exc`` with a specific reason in front of it when one is known."""
    reason = explain(state, choice)
    return IllegalChoice(f"{reason} {exc}") if reason else exc


def explain(state: SpeakeasyState, choice: Choice) -> str:
    """A specific reason for a refused choice, or "" when the generic message says enough."""
    return ""
