"""Rebuild a game from its exported record and print how it went:

    python -m engine.replay game-12.json [--log]

The file is what ``/game export`` sends: the game's name, seed, table options, seat names and choices. The
same seed and choices give the same game on any machine, so this prints the same final scores the table
showed (and, with ``--log``, every public line of the game).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.core import Choice, EngineError, Game
from engine.registry import get_game

#: The version of the export format this reads.
FORMAT = 1


def load_record(data: dict[str, Any]) -> tuple[Game, list[str], dict[str, Any], int, list[Choice]]:
    """The parts of an exported record, checked: game, seat names, options, seed and the choices in effect."""
    if data.get("format") != FORMAT:
        raise ValueError(f"this is not a game record of format {FORMAT} (found {data.get('format')!r})")
    game = get_game(str(data["game"]))
    choices = [Choice(int(c["seat"]), str(c["kind"]), str(c["option"])) for c in data["choices"]]
    return game, [str(n) for n in data["seats"]], dict(data["options"]), int(data["seed"]), choices


def run(data: dict[str, Any]) -> tuple[Any, list[str]]:
    """Replay the record; returns the final state and every public log line."""
    game, seats, options, seed, choices = load_record(data)
    state, events = game.start(seats, options, seed)
    lines = [e.text for e in events if e.to is None]
    for i, choice in enumerate(choices):
        try:
            lines += [e.text for e in game.apply(state, choice) if e.to is None]
        except EngineError as exc:
            raise ValueError(f"choice {i + 1} ({choice.kind} {choice.option!r}) is not legal there: {exc}") from exc
    return state, lines


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m engine.replay", description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--log", action="store_true", help="print every public line of the game")
    args = parser.parse_args(argv)
    try:
        data = json.loads(args.file.read_text(encoding="utf-8"))
        state, lines = run(data)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"cannot replay {args.file}: {exc}", file=sys.stderr)
        return 2
    game = get_game(str(data["game"]))
    if args.log:
        print("\n".join(lines))
    result = game.result(state)
    seats = data["seats"]
    if result is None:
        print(f"{game.title}: not finished after {len(data['choices'])} choices.")
        return 0
    order = "lowest" if result.lower_is_better else "highest"
    print(f"{game.title} (seed {data['seed']}): {order} total wins")
    for seat, score in enumerate(result.scores):
        mark = " (winner)" if seat in result.winners else ""
        name = seats[seat] if seat < len(seats) else "Jo"
        print(f"  {name}: {score}{mark}")
    for line in result.details:
        print(f"  {line}")
    recorded = data.get("result")
    if recorded is not None and list(recorded.get("scores", [])) != list(result.scores):
        print("the replay's scores differ from the recorded ones", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
