"""How long Omerta rounds run, before and after version 2's bounded rounds (decisions file, "Bounded rounds").

python -m bench.omerta_rounds [--games 200] [--players 4]

Plays ``games`` complete games of memory players (``bench/omerta_players.py``) under ``rules=1`` (the discard
pile is reshuffled as often as needed) and ``rules=2`` (at most ``max_reshuffles`` times a round, then the round
ends dry), for players who call OMERTA at 7 points or fewer, for cautious ones who wait for 3 or 0, and (version
2 only: a version 1 round would never end) for players who never call. Prints
one JSON line per mix: turns per round (median, p99, max), how many rounds ended dry, and the bound the cap
implies: the cards a round can draw, ``draw pile at the deal + max_reshuffles * (60 - 1)``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bench.omerta_players import play
from engine.omerta.cards import deck


def draw_bound(players: int) -> int:
    """The cards a version 2 round can draw: the draw pile at the deal and ``max_reshuffles`` reshuffles of at
    most every card but the one left on top of the discard pile."""
    n = deck().numbers
    playing = len(deck().playing)
    at_deal = playing - players * n["hand_size"] - n["safe_size"] - 1
    return at_deal + n["max_reshuffles"] * (playing - 1)


def report(players: int, games: int, rules: int, call_at: int) -> dict:
    """Play the games and gather the figures."""
    started = time.perf_counter()
    turns: list[int] = []
    dry = 0
    for seed in range(games):
        state, rounds = play(players, seed, {"rules": rules}, call_at)
        turns += rounds
        dry += sum(r.caller is None for r in state.history)
    turns.sort()
    return {
        "players": players,
        "rules": rules,
        "call_at": call_at,
        "games": games,
        "rounds": len(turns),
        "turns_median": statistics.median(turns),
        "turns_p99": turns[round(0.99 * (len(turns) - 1))],
        "turns_max": turns[-1],
        "dry_rounds": dry,
        "draw_bound": draw_bound(players),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    args = parser.parse_args()
    for players in args.players:
        for call_at in (7, 3, 0):
            for rules in (1, 2):
                print(json.dumps(report(players, args.games, rules, call_at)), flush=True)
        # players who never call: a version 1 round never ends; version 2 ends every round dry within the bound
        print(json.dumps(report(players, args.games, 2, -1)), flush=True)


if __name__ == "__main__":
    main()
