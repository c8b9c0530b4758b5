"""Experiments on Speakeasy's own values (issue 25): each variant changes some of the project's own values, as a
``house.toml`` version would, and plays the same seeds as the base with prepared bots at every seat; the figures the
targets name are printed side by side, with the difference from the base and its 95% interval.

python -m bench.house_variants [--only NAME ...] [--games 100] [--players 2 3 4] [--solo-games 0] [--jobs 2]
                               [--level standard] [--seed 1] [--base 1] [--write docs/house-variants.md]

The variants are ``bench/house_variants.toml`` (name, why, and the changes by data file and key path, as in
``house.toml``). A variant is played as the whole rules of its games: every read of the data, with or without the
game at hand, sees it (a worker process per variant reads a copy of ``data/`` whose ``house.toml`` adds the
variant as the next version). So a value can be tried before the engine reads it per game.

A change "moved" a figure when the 95% interval of the difference excludes 0: proportions (counts pooled over the
games) by the difference of two proportions, money shares by the per-game difference on the same seeds (paired).
Only such a figure lets ``docs/balance.md`` call a value "in doubt".
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import shutil
import statistics
import tempfile
import tomllib
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

from bench.balance_report import SOURCES, game_figures
from engine.data import data_dir, toml_value

VARIANTS = Path(__file__).with_name("house_variants.toml")
Z = 1.96


def load_variants(path: Path = VARIANTS) -> dict[str, dict[str, Any]]:
    """The variants by name: ``why`` and ``changes`` (data file -> key path -> value)."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    return {name: {"why": v.get("why", ""), "changes": v.get("changes", {})} for name, v in raw["variants"].items()}


def house_text(existing: str, version: int, changes: dict[str, dict[str, Any]]) -> str:
    """``existing`` house.toml text with ``changes`` added as ``version``."""
    out = [existing.rstrip(), ""] if existing.strip() else []
    for name, values in changes.items():
        out.append(f'[versions.{version}."{name}"]')
        out += [f"{toml_value(path)} = {toml_value(v)}" for path, v in values.items()]
        out.append("")
    return "\n".join(out)


def data_copy(root: Path, base: int, changes: dict[str, dict[str, Any]]) -> tuple[Path, int]:
    """A copy of ``data/`` under ``root`` whose ``house.toml`` keeps the versions up to ``base`` and adds
    ``changes`` as the next one (none: ``base`` itself), and the version to read it at. Versions after ``base``
    are left out of the copy, so a variant of an older version is that version plus the variant only."""
    shutil.copytree(data_dir(), root, dirs_exist_ok=True)
    if not changes:
        return root, base
    house = root / "speakeasy" / "house.toml"
    known = tomllib.loads(house.read_text(encoding="utf-8")).get("versions", {}) if house.exists() else {}
    text = ""
    for v in sorted(int(k) for k in known if int(k) <= base):
        text = house_text(text, v, known[str(v)])
    house.write_text(house_text(text, base + 1, changes), encoding="utf-8")
    return root, base + 1


def _worker(folder: str, version: int) -> None:
    """In a fresh worker process: every rules read (any version, with or without a state) gets ``version`` of
    ``folder``'s data, so the variant is the whole game's rules."""
    os.environ["SPEAKEASY_DATA_DIR"] = folder
    from engine.speakeasy import loader
    from engine.speakeasy.jo import data as jo

    speakeasy = Path(folder) / "speakeasy"
    loader.load_rules(speakeasy, version)  # a bad variant fails here, before any game
    jo.load_jo(speakeasy, version)
    loader._rules = cache(lambda _v: loader.load_rules(speakeasy, version))  # noqa: SLF001
    jo._jo_rules = cache(lambda _v: jo.load_jo(speakeasy, version))  # noqa: SLF001


def _game(job: tuple[int, int, str, int, int]) -> dict:
    players, seed, level, difficulty, base = job
    return game_figures(players, seed, level, difficulty, version=base)


def play_variant(
    folder: Path, version: int, base: int, groups: list[tuple[int, int]], level: str, seed: int, games: int, jobs: int
) -> dict[tuple[int, int], list[dict]]:
    """Per-game figures for each (players, difficulty) group, seeds ``seed``..``seed + games - 1``."""
    ctx = multiprocessing.get_context("spawn")  # fresh processes: nothing read before the variant is cached
    work = [(n, seed + g, level, d, base) for n, d in groups for g in range(games)]
    with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_worker, initargs=(str(folder), version)) as pool:
        per_game = list(pool.map(_game, work, chunksize=1))
    out: dict[tuple[int, int], list[dict]] = {g: [] for g in groups}
    for (n, _seed, _level, d, _base), f in zip(work, per_game, strict=True):
        out[(n, d)].append(f)
    return out


# ---- figures ----


def _share(income: dict[str, int], keys: tuple[str, ...]) -> float:
    total = sum(income.values())
    return sum(income.get(k, 0) for k in keys) / total if total else 0.0


def counts(games: list[dict]) -> dict[str, tuple[int, int]]:
    """The proportion figures as (hits, out of) pooled over the games."""
    att = sum(a for f in games for a, _lo in f["war"][1:3])
    lost = sum(lo for f in games for _a, lo in f["war"][1:3])
    dfc = [sum(f["defence"][k] for f in games) for k in range(5)]
    late = [sum(f["late"][k] for f in games) for k in range(2)]
    return {
        "mobsters_first_late": (late[1], late[0]),
        "kept_late": (att - lost, att),
        "defence_possible": (dfc[1], dfc[0]),
        "taken_where_worth": (dfc[4], dfc[3]),
    }


def shares(f: dict) -> dict[str, float]:
    """One game's money figures: the share of Books, of sales and casinos, and of its largest source."""
    inc = f["income"]
    return {
        "books": _share(inc, ("books",)),
        "sales_casinos": _share(inc, ("sales", "casinos")),
        "largest": max((_share(inc, (k,)) for k in SOURCES), default=0.0),
    }


def figures(games: list[dict], players: int) -> dict[str, Any]:
    """The target figures of one group of games."""
    out: dict[str, Any] = {k: (h / n if n else None) for k, (h, n) in counts(games).items()}
    for k in ("books", "sales_casinos", "largest"):
        out[k] = statistics.mean(shares(f)[k] for f in games)
    total: dict[str, int] = {}
    for f in games:
        for k, v in f["income"].items():
            total[k] = total.get(k, 0) + v
    out["largest_source"] = max(SOURCES, key=lambda k: total.get(k, 0))
    wins = [0] * max(players, 2)
    for f in games:
        for w in f["winners"]:
            wins[w] += 1
    out["wins"] = [w / len(games) for w in wins]
    standing = [x for f in games for x in f["standing"]]
    out["standing"] = statistics.mean(standing) if standing else 0.0
    return out


def _proportion_diff(a: tuple[int, int], b: tuple[int, int]) -> tuple[float, float, float] | None:
    """(difference, low, high) of two pooled proportions b - a (Wald interval)."""
    (ha, na), (hb, nb) = a, b
    if not na or not nb:
        return None
    pa, pb = ha / na, hb / nb
    se = math.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb)
    return pb - pa, pb - pa - Z * se, pb - pa + Z * se


def _paired_diff(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """(mean difference, low, high) of per-game values b - a on the same seeds."""
    d = [y - x for x, y in zip(a, b, strict=True)]
    mean = statistics.mean(d)
    se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0
    return mean, mean - Z * se, mean + Z * se


def compare(base: list[dict], variant: list[dict]) -> dict[str, tuple[float, float, float] | None]:
    """Each figure's difference variant - base with its 95% interval."""
    out: dict[str, tuple[float, float, float] | None] = {}
    cb, cv = counts(base), counts(variant)
    for k in cb:
        out[k] = _proportion_diff(cb[k], cv[k])
    sb, sv = [shares(f) for f in base], [shares(f) for f in variant]
    for k in ("books", "sales_casinos", "largest"):
        out[k] = _paired_diff([s[k] for s in sb], [s[k] for s in sv])
    return out


def solo_wins(games: list[dict]) -> tuple[int, int]:
    """(games the bot won, games) against Jo (seat 0 is the bot)."""
    return sum(0 in f["winners"] for f in games), len(games)


# ---- the report ----

ROWS = (
    ("mobsters_first_late", "Mobsters first, Zone payouts of Acts 2-3", "at most 40%"),
    ("kept_late", "attacked buildings kept, Acts 2-3", "at least 40%"),
    ("defence_possible", "attacks where a defence was possible", ""),
    ("taken_where_worth", "defence taken where worth more than its cost", "most"),
    ("books", "Books' share of money (mean per game)", "at most 40%"),
    ("sales_casinos", "sales and casinos' share of money", "at least 15%"),
    ("largest", "largest source's share of money", "at most 40%"),
)


def _cell(value: float | None, diff: tuple[float, float, float] | None = None) -> str:
    if value is None:
        return "-"
    text = f"{value:.0%}"
    if diff is not None:
        d, lo, hi = diff
        moved = lo > 0 or hi < 0
        text += f" ({d:+.0%}{', moved' if moved else ''})"
    return text


def report(results: dict[str, Any], variants: dict[str, dict[str, Any]]) -> list[str]:
    """The markdown report: per player count, each variant's figures with the difference from the base."""
    meta = results["meta"]
    out = [
        "# House-rule variants, measured",
        "",
        "Generated by `python -m bench.house_variants "
        + f"--games {meta['games']} --players {' '.join(map(str, meta['players']))} --solo-games {meta['solo_games']} "
        + f"--level {meta['level']} --seed {meta['seed']} --base {meta['base']}` "
        + f"(seeds {meta['seed']}-{meta['seed'] + meta['games'] - 1}, {meta['level']} bots at every seat, "
        + f"rules {meta['base']} plus the variant). In brackets: the difference from the base; *moved* when its 95% "
        + "interval excludes 0 (proportions pooled over the games; money shares paired per game on the same seeds).",
        "",
        "## The variants",
        "",
    ]
    for name in results["order"]:
        if name == "base":
            out.append(f"- **base**: rules {meta['base']} as they are.")
            continue
        v = variants[name]
        keys = [(file, k, x) for file, kv in v["changes"].items() for k, x in kv.items()]
        changed = "; ".join(f"`{file}` `{k}` = `{toml_value(x)}`" for file, k, x in keys[:4])
        if len(keys) > 4:
            changed += f"; and {len(keys) - 4} more (bench/house_variants.toml)"
        out.append(f"- **{name}**: {v['why']} ({changed})")
    for n in meta["players"]:
        out += ["", f"## {n} players", "", "| figure | target | " + " | ".join(results["order"]) + " |"]
        out.append("|---|---|" + "---|" * len(results["order"]))
        base = results["figures"]["base"][str(n)]
        for key, label, target in ROWS:
            cells = [_cell(base[key])]
            for name in results["order"][1:]:
                cells.append(_cell(results["figures"][name][str(n)][key], results["diffs"][name][str(n)][key]))
            out.append(f"| {label} | {target} | " + " | ".join(cells) + " |")
        cells = [f"{results['figures'][name][str(n)]['largest_source']}" for name in results["order"]]
        out.append("| largest source (pooled) | | " + " | ".join(cells) + " |")
        cells = [" / ".join(f"{w:.0%}" for w in results["figures"][v][str(n)]["wins"][:n]) for v in results["order"]]
        out.append("| win share by seat | fair | " + " | ".join(cells) + " |")
        cells = [f"{results['figures'][name][str(n)]['standing']:.2f}" for name in results["order"]]
        out.append("| Operating buildings per player at a payout | | " + " | ".join(cells) + " |")
    if meta["solo_games"]:
        out += ["", "## Solo: the bot's wins against Jo", "", "| difficulty | " + " | ".join(results["order"]) + " |"]
        out.append("|---|" + "---|" * len(results["order"]))
        for d in (1, 2, 3, 4):
            cells = []
            for name in results["order"]:
                won, games = results["solo"][name][str(d)]
                cells.append(f"{won / games:.0%}" if games else "-")
            out.append(f"| {d} | " + " | ".join(cells) + " |")
    return out


SAME = ("games", "solo_games", "level", "seed", "base")


def _reused(
    args: argparse.Namespace, variants: dict[str, dict[str, Any]]
) -> dict[str, dict[tuple[int, int], list[dict]]]:
    """The games a ``--json`` file kept, for the variants whose changes are still the same, when it was played with
    the same settings (else none: they are played again)."""
    kept = json.loads(Path(args.reuse).read_text())
    meta = kept["meta"]
    if any(meta.get(k) != getattr(args, k) for k in SAME):
        print(json.dumps({"reuse": "ignored: other settings", "kept": {k: meta.get(k) for k in SAME}}), flush=True)
        return {}
    out = {}
    for name, per in kept.get("games", {}).items():
        if name == "base" or kept.get("changes", {}).get(name) == variants.get(name, {}).get("changes"):
            out[name] = {(int(k.split(":")[0]), int(k.split(":")[1])): games for k, games in per.items()}
    return out


def groups_of(players: list[int], solo_games: int) -> Iterator[tuple[int, int]]:
    """(players, Jo difficulty) of every group played."""
    yield from ((n, 2) for n in players)
    if solo_games:
        yield from ((1, d) for d in (1, 2, 3, 4))


def main() -> None:
    """Play the base and each variant on the same seeds and print (or write) the comparison."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", help="variants to play (default: all in the file)")
    parser.add_argument("--variants", default=str(VARIANTS))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4], help="none: solo only")
    parser.add_argument("--solo-games", type=int, default=0, help="games per Jo difficulty (0: no solo)")
    parser.add_argument("--level", default="standard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--base", type=int, default=1, help="the rules version the variants change")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", help="also keep every figure here, each game's too")
    parser.add_argument("--reuse", help="a --json file of the same settings: its games are not played again")
    parser.add_argument("--write", help="write the markdown report here")
    args = parser.parse_args()
    variants = load_variants(Path(args.variants))
    order = ["base", *(args.only if args.only else variants)]
    unknown = [v for v in order[1:] if v not in variants]
    if unknown:
        raise SystemExit(f"unknown variants {unknown}; the file has {sorted(variants)}")
    groups = list(groups_of(args.players, args.solo_games))
    results: dict[str, Any] = {
        "meta": vars(args) | {"players": args.players},
        "order": order,
        "figures": {},
        "diffs": {},
        "solo": {},
    }
    played = _reused(args, variants) if args.reuse else {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in order:
            changes = {} if name == "base" else variants[name]["changes"]
            if name not in played or any(g not in played[name] for g in groups):
                folder, version = data_copy(Path(tmp) / name, args.base, changes)
                played[name] = play_variant(
                    folder, version, args.base, groups, args.level, args.seed, args.games, args.jobs
                )
            per = played[name]
            results["figures"][name] = {str(n): figures(per[(n, 2)], n) for n in args.players}
            results["solo"][name] = {str(d): solo_wins(per[(1, d)]) for n, d in groups if n == 1}
            if name != "base":
                results["diffs"][name] = {str(n): compare(played["base"][(n, 2)], per[(n, 2)]) for n in args.players}
            print(
                json.dumps(
                    {
                        "variant": name,
                        "figures": results["figures"][name],
                        "solo": results["solo"][name],
                        "diffs": results["diffs"].get(name),
                    }
                ),
                flush=True,
            )
    if args.json:
        results["games"] = {name: {f"{n}:{d}": games for (n, d), games in per.items()} for name, per in played.items()}
        results["changes"] = {name: variants[name]["changes"] for name in order[1:]}
        Path(args.json).write_text(json.dumps(results) + "\n")
    text = "\n".join(report(results, variants)) + "\n"
    if args.write:
        Path(args.write).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
