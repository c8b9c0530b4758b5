"""Balance report for Speakeasy: where the money comes from, how often Mob Wars take buildings, what wins.

python -m bench.balance [--games 1000] [--players 2 3 4]
python -m bench.balance --bots easy|standard|hard [--games 500] [--solo-games 125] [--jobs 2] [--hard-nodes 200]
                        [--rules N]

With ``--bots`` every seat is a seat bot of that level, at Speakeasy rules version ``--rules`` (default: the newest):
its figures are kept in ``docs/balance/<level>.json`` (rules 1) or ``<level>-rules<N>.json`` and ``docs/balance.md``
is written from every level and version kept there (bench/balance_report.py). Each game's figures are kept in
``.bench-cache/balance/<code digest>/`` as it ends (``BALANCE_CACHE`` moves it, empty turns it off): a stopped run
started again with the same code plays only the games it had not finished, and the report is the same. A finished
group's games are also kept in ``docs/balance/games/`` (committed with the report): a run at later code adopts them
when the group's first and last games replay to the same figures, and plays only what is missing. Without it:

For each player count it plays ``games`` complete games with every seat random, and ``games`` more with one
greedy seat (rotating) against random seats (``bench/speakeasy_players.py``). It prints one JSON line per
player count and mix:

- ``income_share``: each source's share of all money gained (Start money excluded): sales, casinos, crates,
  zones (Lucky Luciano payouts), books (Cook the Books), bonuses (City tiles, cards, rewards), fees (ambush help),
  and at the end buildings (Protected buildings) and bottles (Helper bottles and variety);
- ``war_loss_rate``: buildings lost / buildings attacked in the Mob Wars after Acts 1, 2 and 3;
- ``winning_total`` and ``mean_total``; for the greedy mix the greedy seat's win rate and mean total;
- ``flags``: a source above ``DOMINANT`` of all income, and the house values (design file) behind it.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter

from bench.speakeasy_players import GAME, play

#: A source above this share of all income is flagged as dominating.
DOMINANT = 0.4
#: The design file's house values behind each source, named in a flag.
HOUSE_VALUES = {
    "sales": "tracks.toml [prices] (design §5), Party values (§3.1)",
    "casinos": "payouts.toml [casino] (design §8.3)",
    "crates": "docks.toml [[crates]] cash (design §7.3)",
    "zones": "payouts.toml [zones] (design §13)",
    "books": "goals.toml rewards (design §10)",
    "bonuses": "City tiles, cards, Infamy and Park rewards (design §3.2, §5, §11)",
    "fees": "docks.toml [ambush] rival fee (design §7.4)",
    "buildings": "payouts.toml [final] protected (design §14)",
    "bottles": "helpers.toml bottle values and variety bonus (design §11.2)",
}


def report(players: int, games: int, greedy: bool, seed: int = 1) -> dict:
    """Play the games and gather the figures."""
    income: Counter[str] = Counter()
    attacked = [0, 0, 0]
    lost = [0, 0, 0]
    winners: list[int] = []
    totals: list[int] = []
    greedy_totals: list[int] = []
    greedy_wins = 0
    for g in range(games):
        seat = g % players
        state, _ = play(players, seed + g, frozenset({seat}) if greedy else frozenset())
        result = GAME.result(state)
        assert result is not None
        for i, p in enumerate(state.players):
            income.update(p.income)
            income["buildings"] += p.final["protected"]
            income["bottles"] += p.final["bottles"] + p.final["variety"]
            totals.append(p.final["total"])
            if greedy and i == seat:
                greedy_totals.append(p.final["total"])
        for act, (a, lo) in enumerate(state.war_stats):
            attacked[act] += a
            lost[act] += lo
        winners.append(max(result.scores))
        if greedy and seat in result.winners:
            greedy_wins += 1
    gained = sum(income.values()) or 1
    share = {k: round(v / gained, 3) for k, v in sorted(income.items(), key=lambda kv: -kv[1])}
    flags = [f"{k} is {v:.0%} of all income: see {HOUSE_VALUES.get(k, k)}" for k, v in share.items() if v > DOMINANT]
    out = {
        "bench": "balance",
        "players": players,
        "games": games,
        "mix": "one greedy seat vs random" if greedy else "all random",
        "income_share": share,
        "war_loss_rate": [round(lo / a, 3) if a else None for a, lo in zip(attacked, lost, strict=True)],
        "war_buildings_attacked_per_game": [round(a / games, 2) for a in attacked],
        "winning_total": round(statistics.mean(winners), 1),
        "mean_total": round(statistics.mean(totals), 1),
        "flags": flags,
    }
    if greedy:
        out["greedy_win_rate"] = round(greedy_wins / games, 3)
        out["greedy_mean_total"] = round(statistics.mean(greedy_totals), 1)
    return out


def main() -> None:
    """Print one JSON line per player count and mix."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--bots", choices=("easy", "standard", "hard"), help="every seat a bot: write the report")
    parser.add_argument("--solo-games", type=int, default=100, help="with --bots: games per Jo difficulty")
    parser.add_argument("--write", default="docs/balance.md", help="with --bots: where the report goes")
    parser.add_argument("--jobs", type=int, default=1, help="with --bots: worker processes (the same figures)")
    parser.add_argument("--hard-nodes", type=int, default=200, help="with --bots hard: node limit a decision")
    parser.add_argument("--seed", type=int, default=1, help="with --bots: the first game's seed")
    parser.add_argument("--rules", type=int, help="with --bots: Speakeasy's rules version (default: the newest)")
    args = parser.parse_args()
    if args.bots:
        from pathlib import Path

        from bench.balance_report import run_level, write

        path = Path(args.write)
        charts = path.parent / "balance"
        from engine.speakeasy.loader import latest_version

        version = args.rules or latest_version()
        run_level(charts, args.bots, args.games, args.solo_games, args.seed, args.jobs, args.hard_nodes, version)
        levels = write(path)
        print(json.dumps({"bench": "balance", "bots": args.bots, "written": args.write, "levels": levels}))
        return
    for players in args.players:
        for greedy in (False, True):
            print(json.dumps(report(players, args.games, greedy)), flush=True)


if __name__ == "__main__":
    main()
