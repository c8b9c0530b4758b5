"""What every seat bot shares: the levels, and a generator seeded from what the bot's seat can see.

A bot must be deterministic given the game and the position, and must not depend on anything its seat cannot
see. So its generator is seeded from a salt fixed for the table seat (``salt``) and the seat's own view of the
position (``view(state, seat)`` is the same for every arrangement of the hidden information): two positions the
seat cannot tell apart give the same generator, hence the same decision.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from engine.core import Game, Prompt

#: The levels a seat bot plays at, weakest first.
LEVELS = ("easy", "standard", "hard")


def check_level(level: str) -> str:
    """The level itself, or a clear error naming the allowed ones."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; choose one of {', '.join(LEVELS)}.")
    return level


def seat_salt(seed: int, seat: int) -> int:
    """A bot's salt for one table seat: a one-way hash of the table's seed (so the bot learns nothing of the
    deal from it) and the seat number."""
    digest = hashlib.sha256(f"bot-salt:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def view_rng(game: Game, state: Any, prompt: Prompt, salt: int, extra: str = "") -> random.Random:
    """A generator seeded from the salt, the prompt and the seat's own view of the position (nothing hidden)."""
    seen = json.dumps(game.view(state, prompt.seat), sort_keys=True, default=str)
    key = f"{salt}|{prompt.kind}|{[o.id for o in prompt.options]}|{extra}|{seen}"
    return random.Random(hashlib.sha256(key.encode()).digest())
