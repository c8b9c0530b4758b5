"""Bench: how well the bots' evaluation foretells the end, against a linear evaluation fitted on self-play.

    python -m bench.fit_evaluation [--games 40] [--players 2] [--every 15] [--seed 1] [--write [PATH]]

Issue 27 asks hard's playouts to be scored by an evaluation fitted on self-play. This bench measures whether one
would say more than the evaluation hard uses now (``bots.speakeasy_policy.value`` with the preparing worth). It
plays ``games`` games of ``standard`` bots (seeds ``seed``...) and, every ``every`` choices, records each seat's
position in parts (money, buildings' flat worth, what they will still earn, Protected points, the expected war
loss, bottles, barrels, track levels, Goons, Books, Docks and VIP Family, hand, Infamy) with the seat's final
total. Per Act it fits (least squares, on the games of odd seeds) the final total from (a) the hand-made value
alone (a scale and an offset: the best the current evaluation can do) and (b) all the parts with their own
weights, and prints each fit's R^2 on the games of even seeds (held out), with the fitted weights of (b).
One JSON line per Act; the seed reproduces it. ``--write`` also writes the fits of the Acts whose held-out R^2
reaches ``MIN_R2`` to ``bots/speakeasy_evaluation.toml`` (or PATH), the weights hard judges by when asked
(``bots.speakeasy_evaluation``; the bench level ``hard+fitted``; the table's hard does not: docs/bots.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import msgspec

from bots.speakeasy import GAME, SpeakeasyBot
from bots.speakeasy_evaluation import FEATURES, WEIGHTS_FILE, Fit, parts
from bots.speakeasy_policy import value
from bots.speakeasy_worth import PREPARE, Reading
from engine.core import TABLE

#: An Act's fit is written only when it foretells the held-out totals at least this well (R^2); nothing read in
#: Act 1 does (docs/bots.md), so a position in it keeps the hand-made value.
MIN_R2 = 0.1


def play(players: int, seed: int, every: int) -> list[tuple[int, float, list[float], float]]:
    """One game of standard bots: (act, hand-made value, parts, final total) per seat every ``every`` choices."""
    state = GAME.new([f"P{i + 1}" for i in range(players)], {"settle": "auto"}, seed)
    bots = [SpeakeasyBot("standard", seed * 8 + i) for i in range(players)]
    rows: list[tuple[int, int, float, list[float]]] = []
    t = 0
    while not GAME.is_over(state):
        prompt = next(p for p in GAME.prompts(state) if p.seat != TABLE)
        if t % every == 0 and state.phase in ("play", "luciano"):
            reading = Reading(state)
            for s in range(players):
                rows.append((s, state.act, value(state, s, PREPARE, reading), parts(state, s, reading)))
        GAME.apply(state, bots[prompt.seat].choose(state, prompt))
        t += 1
    return [(act, v, x, float(state.player(s).final["total"])) for s, act, v, x in rows]


def solve(xs: list[list[float]], ys: list[float], ridge: float = 1e-6) -> list[float]:
    """Least squares weights (the last one the offset) by the normal equations, a tiny ridge for stability."""
    n = len(xs[0]) + 1
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for x, y in zip(xs, ys, strict=True):
        row = [*x, 1.0]
        for i in range(n):
            b[i] += row[i] * y
            for j in range(n):
                a[i][j] += row[i] * row[j]
    for i in range(n - 1):
        a[i][i] += ridge * (a[i][i] or 1.0)
    for col in range(n):  # Gauss-Jordan with partial pivoting
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[piv], b[col], b[piv] = a[piv], a[col], b[piv], b[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [u - f * v for u, v in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def r2(w: list[float], xs: list[list[float]], ys: list[float]) -> float:
    """The share of the targets' variance the weights explain."""
    mean = sum(ys) / len(ys)
    pred = [sum(wi * xi for wi, xi in zip(w, x, strict=False)) + w[-1] for x in xs]
    res = sum((y - q) ** 2 for y, q in zip(ys, pred, strict=True))
    tot = sum((y - mean) ** 2 for y in ys) or 1.0
    return 1.0 - res / tot


def main(argv: list[str] | None = None) -> None:
    """Print one JSON line per Act."""
    parser = argparse.ArgumentParser(prog="python -m bench.fit_evaluation")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--every", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", nargs="?", const=str(WEIGHTS_FILE), help="write the fits hard uses (a TOML file)")
    args = parser.parse_args(argv)
    fits: dict[str, dict] = {}
    train: list[tuple[int, float, list[float], float]] = []
    test: list[tuple[int, float, list[float], float]] = []
    for g in range(args.games):
        seed = args.seed + g
        (train if seed % 2 else test).extend(play(args.players, seed, args.every))
        print(f"game {g + 1}/{args.games} seed {seed}", file=sys.stderr, flush=True)
    for act in sorted({r[0] for r in train}):
        tr = [r for r in train if r[0] == act]
        te = [r for r in test if r[0] == act]
        if len(tr) < 2 * len(FEATURES) or not te:
            continue
        hand = solve([[r[1]] for r in tr], [r[3] for r in tr])
        fitted = solve([r[2] for r in tr], [r[3] for r in tr])
        r2_hand = round(r2(hand, [[r[1]] for r in te], [r[3] for r in te]), 3)
        r2_fitted = round(r2(fitted, [r[2] for r in te], [r[3] for r in te]), 3)
        if r2_fitted >= MIN_R2:
            fits[str(act)] = {
                "weights": {f: round(w, 4) for f, w in zip(FEATURES, fitted, strict=False)},
                "offset": round(fitted[-1], 4),
                "r2_fitted": r2_fitted,
                "r2_hand": r2_hand,
                "positions": len(tr),
            }
        print(
            json.dumps(
                {
                    "bench": "fit_evaluation",
                    "act": act,
                    "players": args.players,
                    "games": args.games,
                    "seed": args.seed,
                    "positions": [len(tr), len(te)],
                    "r2_hand_value": r2_hand,
                    "r2_fitted_parts": r2_fitted,
                    "weights": {f: round(w, 2) for f, w in zip([*FEATURES, "offset"], fitted, strict=True)},
                }
            ),
            flush=True,
        )
    if args.write:
        write(args, fits)


def write(args: argparse.Namespace, fits: dict[str, dict]) -> None:
    """The fits hard reads (``bots.speakeasy_evaluation.Fit``), with the command that made them. Written as TOML
    by hand (a flat layout: the project has a TOML reader, not a writer) and checked by reading it back."""
    made_by = (
        f"python -m bench.fit_evaluation --games {args.games} --players {args.players} --every {args.every}"
        f" --seed {args.seed} --write (fitted on the odd seeds; R^2 on the even ones, held out)"
    )
    lines = [
        "# Hard's leaf evaluation, fitted on self-play of standard bots by bench/fit_evaluation.py: not by hand.",
        f"made_by = {json.dumps(made_by)}",
    ]
    for act, f in fits.items():
        lines += ["", f'[acts."{act}"]']
        lines += [f"{k} = {json.dumps(f[k])}" for k in ("offset", "r2_fitted", "r2_hand", "positions")]
        lines += ["", f'[acts."{act}".weights]']
        lines += [f"{k} = {json.dumps(v)}" for k, v in f["weights"].items()]
    text = "\n".join(lines) + "\n"
    msgspec.toml.decode(text.encode(), type=Fit)  # what hard will read
    Path(args.write).write_text(text)


if __name__ == "__main__":
    main()
