"""Self-play: random complete games that check the engine contract after every choice.

    python -m engine.selfplay GAME --players N --games K --seed S

Each game picks uniformly among every legal (prompt, option) pair, also tries malformed and illegal choices
(which must be refused with the state unchanged), checks the game's invariants after every choice, checks
that the state survives a JSON round trip and that seed + choices replay to the same state. Prints one JSON
line; exits non-zero on any error, violation or mismatch.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec

from engine.core import TABLE, Choice, EngineError, Game, IllegalChoice, Prompt, replay
from engine.registry import GAMES, get_game

#: A game that has not ended after this many choices counts as an error (a loop in the rules).
MAX_CHOICES = 50_000


@dataclass
class Tally:
    """What self-play counted."""

    game: str
    players: int
    games: int = 0
    completed: int = 0
    choices: int = 0
    errors: int = 0
    invariant_violations: int = 0
    replay_mismatches: int = 0
    seconds: float = 0.0
    messages: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        """Keep the first few problems for the report."""
        if len(self.messages) < 20:
            self.messages.append(text)

    def summary(self) -> dict[str, Any]:
        """The JSON line."""
        out = {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "completed": self.completed,
            "choices": self.choices,
            "errors": self.errors,
            "invariant_violations": self.invariant_violations,
            "replay_mismatches": self.replay_mismatches,
            "seconds": round(self.seconds, 3),
        }
        if self.messages:
            out["problems"] = self.messages
        return out

    @property
    def ok(self) -> bool:
        """No error, violation or mismatch."""
        return not (self.errors or self.invariant_violations or self.replay_mismatches)


def _to_json(view: Any) -> bytes:
    """Encode a view as strict JSON (fails on anything that is not JSON data, e.g. a set or an object)."""
    return _view_encoder.encode(view)


_view_encoder = msgspec.json.Encoder()


def _bad_choices(prompts: list[Prompt], rng: random.Random, seats: int) -> list[Any]:
    """Malformed and illegal choices for the position whose open ``prompts`` these are."""
    waiting = {p.seat for p in prompts}
    idle = [s for s in range(seats) if s not in waiting]
    p = rng.choice(prompts)
    bad: list[Any] = [
        Choice(p.seat, p.kind, "no-such-option"),
        Choice(p.seat, p.kind + "-nope", p.options[0].id),
        Choice(seats + 7, p.kind, p.options[0].id),
        ("not", "a", "choice"),
        Choice(p.seat, p.kind, 3),  # type: ignore[arg-type]
    ]
    if idle:
        bad.append(Choice(rng.choice(idle), p.kind, p.options[0].id))
    if p.seat != TABLE and TABLE not in waiting:
        bad.append(Choice(TABLE, p.kind, p.options[0].id))
    return bad


def play_one(
    game: Game, players: int, seed: int, tally: Tally, *, check_every: int = 1, options: dict[str, Any] | None = None
) -> list[Choice]:
    """Play one random game, counting into ``tally``; returns its choices."""
    seats = [f"P{i + 1}" for i in range(players)]
    options = dict(options or {})
    rng = random.Random(seed ^ 0x5EED)
    state = game.new(seats, options, seed)
    choices: list[Choice] = []
    tally.games += 1
    for step in range(MAX_CHOICES):
        if game.is_over(state):
            tally.completed += 1
            break
        prompts = game.prompts(state)
        if not prompts:
            tally.errors += 1
            tally.note(f"seed {seed}: no prompt open but the game is not over (step {step})")
            return choices
        checking = step % check_every == 0
        if checking and not _refuses_bad(game, state, prompts, rng, players, tally, seed):
            return choices
        pairs = [(p, o) for p in prompts for o in p.options]
        prompt, option = rng.choice(pairs)
        choice = Choice(prompt.seat, prompt.kind, option.id)
        try:
            game.apply(state, choice)
        except Exception as exc:  # noqa: BLE001 - any failure of a legal choice is a bug to report
            tally.errors += 1
            tally.note(f"seed {seed}: legal choice {choice} raised {type(exc).__name__}: {exc}")
            return choices
        choices.append(choice)
        tally.choices += 1
        if checking:
            broken = game.invariants(state)
            if broken:
                tally.invariant_violations += 1
                tally.note(f"seed {seed} step {step} after {choice}: {broken[:3]}")
                return choices
            for view in game.views(state, [None, *range(players)]):
                _to_json(view)
    else:
        tally.errors += 1
        tally.note(f"seed {seed}: no end after {MAX_CHOICES} choices")
    final = game.dumps(state)
    if game.dumps(game.loads(final)) != final:
        tally.replay_mismatches += 1
        tally.note(f"seed {seed}: JSON round trip changed the state")
    if game.dumps(replay(game, seats, options, seed, choices)) != final:
        tally.replay_mismatches += 1
        tally.note(f"seed {seed}: replay of {len(choices)} choices gave another state")
    if game.is_over(state) and game.result(state) is None:
        tally.errors += 1
        tally.note(f"seed {seed}: the game is over but has no result")
    return choices


def _refuses_bad(
    game: Game, state: Any, prompts: list[Prompt], rng: random.Random, players: int, tally: Tally, seed: int
) -> bool:
    """Every bad choice raises ``IllegalChoice`` and leaves the state as it was; round trip holds."""
    before = game.dumps(state)
    if game.dumps(game.loads(before)) != before:
        tally.replay_mismatches += 1
        tally.note(f"seed {seed}: JSON round trip changed the state")
        return False
    bads = _bad_choices(prompts, rng, players)  # the step's prompts: nothing has changed the state yet
    for bad in bads:
        try:
            game.apply(state, bad)
        except IllegalChoice as exc:
            if not str(exc):
                tally.errors += 1
                tally.note(f"seed {seed}: {bad!r} refused without a message")
                return False
        except EngineError as exc:
            tally.errors += 1
            tally.note(f"seed {seed}: {bad!r} raised {type(exc).__name__}, not IllegalChoice")
            return False
        except Exception as exc:  # noqa: BLE001
            tally.errors += 1
            tally.note(f"seed {seed}: {bad!r} crashed with {type(exc).__name__}: {exc}")
            return False
        else:
            tally.errors += 1
            tally.note(f"seed {seed}: illegal choice {bad!r} was accepted")
            return False
    # one comparison for them all (a state's dump is the costliest part of a step's checks): a refusal that
    # changed the state shows here, and the changes of several refusals would not undo one another
    if game.dumps(state) != before:
        tally.errors += 1
        tally.note(f"seed {seed}: one of the refused choices {bads!r} changed the state")
        return False
    return True


def run(
    name: str, players: int, games: int, seed: int, check_every: int = 1, options: dict[str, Any] | None = None
) -> Tally:
    """Play ``games`` random games of ``name`` with these table options."""
    game = get_game(name)
    tally = Tally(name, players)
    start = time.perf_counter()
    for i in range(games):
        play_one(game, players, seed + i, tally, check_every=check_every, options=options)
    tally.seconds = time.perf_counter() - start
    return tally


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m engine.selfplay", description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--difficulty", type=int, help="Speakeasy solo: Jo's difficulty (1-4)")
    args = parser.parse_args(argv)
    game = get_game(args.game)
    if not game.min_players <= args.players <= game.max_players:
        parser.error(f"{game.title} takes {game.min_players} to {game.max_players} players")
    options = {"difficulty": args.difficulty} if args.difficulty is not None else {}
    tally = run(args.game, args.players, args.games, args.seed, options=options)
    print(json.dumps(tally.summary()))
    return 0 if tally.ok else 1


if __name__ == "__main__":
    sys.exit(main())
