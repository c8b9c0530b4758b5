"""Bench (issue "deciding well"): what a player must do in a complete 4-player Speakeasy game, before and after.

Self-play with seeded random players. For each game it counts, for human seats:

* decisions per turn: questions a player answers in their own turn (a Mob War counts outside turns);
* single-answer questions: questions that reach a player with exactly one answer (public: the table could have
  answered it; private: only the player can know it, so the table must wait for them either way);
* confirmations per game: answers that cannot be undone, which the table confirms (a red button);
* private trips per turn: private questions a player must open through **My options** in their own turn.
  Before: every private question (click the board, then My options). After: only a private question that is not
  the answer to the player's own previous click (the bot sends that one at once).
* Mob War decisions: defence questions asked, and after, the messages it takes when each owner decides a
  district at once (one per owner and district).

``before`` is the record's old behaviour (``settle=off``); ``after`` a new table (``settle=auto`` and plans).

    python -m bench.decisions [--games 200] [--players 4]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from engine.core import Choice, Prompt
from engine.speakeasy.game import SpeakeasyGame


def _own_turn(state: Any, seat: int) -> bool:
    return state.phase == "play" and bool(state.order) and state.order[state.turn] == seat


def play(seed: int, players: int, settle: str) -> dict[str, int]:
    """Counts of one complete random game."""
    game = SpeakeasyGame()
    state = game.new([f"P{i + 1}" for i in range(players)], {"settle": settle}, seed)
    rng = random.Random(seed)
    counts = dict.fromkeys(
        ("choices", "turns", "own", "single_public", "single_private", "confirm", "trips_before", "trips_after"), 0
    )
    counts |= {"war_questions": 0, "war_messages": 0}
    last_clicker: int | None = None
    last_group: tuple[int, str] | None = None
    while not game.is_over(state):
        prompt: Prompt = next(p for p in game.prompts(state) if p.race is None)
        own = _own_turn(state, prompt.seat)
        counts["own"] += own
        if len(prompt.options) == 1:
            counts["single_private" if prompt.secret else "single_public"] += 1
        if prompt.secret and own:
            counts["trips_before"] += 1
            counts["trips_after"] += last_clicker != prompt.seat
        if prompt.kind == "defend":
            counts["war_questions"] += 1
            key = (prompt.seat, prompt.group or "")
            counts["war_messages"] += key != last_group
            last_group = key
        else:
            last_group = None
        option = rng.choice(prompt.options)
        counts["confirm"] += option.style == "danger"
        turn = (state.round if hasattr(state, "round") else 0, state.turn, state.phase)
        game.apply(state, Choice(prompt.seat, prompt.kind, option.id))
        counts["choices"] += 1
        counts["turns"] += turn != (state.round if hasattr(state, "round") else 0, state.turn, state.phase)
        last_clicker = prompt.seat
    return counts


def summary(rows: list[dict[str, int]], before: bool) -> dict[str, float]:
    """Per-turn and per-game figures over all games."""
    total = {k: sum(r[k] for r in rows) for k in rows[0]}
    games = len(rows)
    turns = max(total["turns"], 1)
    return {
        "games": games,
        "decisions_per_turn": round(total["own"] / turns, 2),
        "single_answer_public_per_game": round(total["single_public"] / games, 2),
        "single_answer_private_per_game": round(total["single_private"] / games, 2),
        "confirmations_per_game": round(total["confirm"] / games, 2),
        "private_trips_per_turn": round(total["trips_before" if before else "trips_after"] / turns, 3),
        "mob_war_questions_per_game": round(total["war_questions"] / games, 2),
        "mob_war_messages_per_game": round(total["war_messages"] / games, 2),
        "choices_per_game_median": statistics.median(r["choices"] for r in rows),
    }


def main() -> None:
    """Print the before and after figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    out: dict[str, Any] = {}
    for label, settle in (("before", "off"), ("after", "auto")):
        start = time.perf_counter()
        rows = [play(1 + g, args.players, settle) for g in range(args.games)]
        if label == "before":  # the old table asked each building in a message of its own
            rows = [r | {"war_messages": r["war_questions"]} for r in rows]
        out[label] = summary(rows, label == "before") | {"seconds": round(time.perf_counter() - start, 1)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
