"""Omerta (Helvetiq): the card game's rules engine."""

from engine.omerta.game import OmertaGame

__all__ = ["OmertaGame"]
