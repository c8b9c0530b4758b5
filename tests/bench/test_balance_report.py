"""The balance report's bench (bench/balance_report.py): its figures do not depend on how many worker processes
play the games, and the report is written whole from every level's kept figures."""

from __future__ import annotations

import json
from pathlib import Path

from bench.balance_report import gather, run_level, write


def test_the_figures_are_the_same_in_worker_processes():
    one = gather(2, 2, "easy", seed=5)
    two = gather(2, 2, "easy", seed=5, jobs=2)
    assert one == two
    assert one["seeds"] == [5, 6] and sum(one["wins"]) >= 2


def test_the_report_has_a_section_per_level_kept(tmp_path: Path):
    charts = tmp_path / "balance"
    easy = run_level(charts, "easy", 1, 1)
    # a second level's kept figures (the same games, named hard: playing them would only take longer)
    (charts / "hard.json").write_text(json.dumps(easy | {"level": "hard", "hard_nodes": 50}))
    path = tmp_path / "balance.md"
    assert write(path) == ["easy", "hard"]
    text = path.read_text()
    assert "## Every seat `easy`" in text and "## Every seat `hard`" in text
    assert "| hard | 1 | 1 | 1 | 50 |" in text and "node limit 50 a decision" in text
    assert (charts / "money_by_source_hard.png").exists() and (charts / "win_share_by_seat_easy.png").exists()
    assert "--bots easy --games 1 --solo-games 1 --rules 1 --write" in text and "--hard-nodes 50 --rules 1" in text


def test_each_rules_version_kept_has_its_own_section(tmp_path: Path):
    """Issue 25: the report at rules 2 is written beside the one at rules 1, kept for comparison."""
    charts = tmp_path / "balance"
    easy = run_level(charts, "easy", 1, 1)
    (charts / "easy-rules2.json").write_text(json.dumps(easy | {"rules": 2}))
    path = tmp_path / "balance.md"
    assert write(path) == ["easy", "easy-rules2"]
    text = path.read_text()
    assert "## Every seat `easy`, rules 1" in text and "## Every seat `easy`, rules 2" in text
    assert "--rules 2 --write" in text and (charts / "money_by_source_easy-rules2.png").exists()


def _group(books: float, lost: float) -> dict:
    """A player count's gathered figures, as far as ``doubts`` reads them."""
    rest = (1 - books) / 8
    share = {k: rest for k in ("sales", "casinos", "crates", "zones", "bonuses", "fees", "buildings", "bottles")}
    return {
        "players": 2,
        "games": 100,
        "war": [(0.5, 1.0, None), (lost, 2.0, None), (lost, 2.0, None)],
        "money_share": share | {"books": books},
        "zones_late": [0.3, 400, None],
        "win_ci": [(0.4, 0.6), (0.4, 0.6)],
    }


def test_doubts_name_only_values_an_experiment_moved_the_right_way():
    """Issue 25: a value is "in doubt" only when changing it moved the figure (the interval of the difference on
    the same seeds on the helpful side of 0), not because it sits near the figure."""
    from bench.balance_report import doubts

    experiments = {
        "diffs": {
            "books_15": {"2": {"books": [-0.06, -0.08, -0.04], "kept_late": [0.0, -0.05, 0.05]}},
            "prices_up": {"2": {"books": [-0.01, -0.03, 0.01], "kept_late": [0.2, 0.1, 0.3]}},
            "worse": {"2": {"books": [0.05, 0.03, 0.07]}},
        }
    }
    lines = doubts([_group(books=0.45, lost=0.7)], [], experiments)
    books = next(x for x in lines if "Books' share" in x)
    assert "books_15 (-6%)" in books and "prices_up" not in books and "worse" not in books
    kept = next(x for x in lines if "buildings kept" in x)
    assert "prices_up (+20%)" in kept and "books_15" not in kept
    alone = doubts([_group(books=0.45, lost=0.7)], [], None)
    assert all("no experiment moved it" in x for x in alone if "players:" in x)
    assert doubts([_group(books=0.3, lost=0.5)], [], experiments) == ["- Every target holds at this number of games."]


def test_a_kept_game_gives_the_figures_it_gave_when_played(tmp_path: Path, monkeypatch):
    """A stopped run resumes from the games it kept: the figures are the same kept or played, and a change to the
    code that plays them keeps them apart."""
    import bench.balance_report as report

    monkeypatch.setattr(report, "CACHE", str(tmp_path / "kept"))
    played = gather(2, 2, "easy", seed=5)
    kept = list((tmp_path / "kept").rglob("*.json"))
    assert len(kept) == 2
    for f in kept:  # a kept game is read, not played again
        f.write_text(f.read_text().replace('"winners": [', '"winners": [0, '))
    again = gather(2, 2, "easy", seed=5)
    assert sum(again["wins"]) == sum(played["wins"]) + 2
    monkeypatch.setattr(report, "code_digest", lambda: "other-code")
    assert gather(2, 2, "easy", seed=5) == played
    monkeypatch.setattr(report, "CACHE", "")
    assert gather(2, 2, "easy", seed=5) == played


def test_a_later_rules_version_without_rules_1_says_how_to_make_the_comparison(tmp_path: Path):
    """Issue 25: the report at rules 1 is kept for comparison; while it is not, the report says so and how to
    make it, and each level names the commit its figures were made at."""
    charts = tmp_path / "balance"
    easy = run_level(charts, "easy", 1, 1, version=2)
    path = tmp_path / "balance.md"
    assert write(path) == ["easy-rules2"]
    text = path.read_text()
    assert "Rules 1 with the same `easy` bots, for comparison, is not kept" in text and "--rules 1`" in text
    # (outside a git checkout there is no commit to name, and none is named)
    assert (f"(made at commit {easy['commit']})" in text) if easy["commit"] else ("made at commit" not in text)
    (charts / "easy.json").write_text(json.dumps(easy | {"rules": 1}))
    write(path)
    assert "is not kept" not in path.read_text()


def test_kept_games_are_adopted_only_when_they_replay_the_same(tmp_path: Path, capsys):
    """A report made in parts: a group's games kept beside the report are adopted by a later run when the first
    and last of them replay to the same figures at its code; when one does not, all are played again."""
    from bench.balance_report import games_file

    kept = tmp_path / "games"
    played = gather(2, 3, "easy", seed=5, games_dir=kept)
    path = kept / games_file("easy", 1, 2, 2, 200)
    lines = path.read_text().splitlines()
    assert (
        len(lines) == 4 and json.loads(lines[0])["digest"] and [json.loads(x)["seed"] for x in lines[1:]] == [5, 6, 7]
    )
    # the middle game is adopted without being played (its figures marked): the ends replay the same
    middle = json.loads(lines[2])
    middle["figures"]["winners"] = [0, 1]
    path.write_text("\n".join([lines[0], lines[1], json.dumps(middle), lines[3]]) + "\n")
    adopted = gather(2, 3, "easy", seed=5, games_dir=kept)
    assert sum(adopted["wins"]) == sum(played["wins"]) + 1
    # more seeds than kept: the kept ones are adopted, the rest played and kept too
    longer = gather(2, 4, "easy", seed=5, games_dir=kept)
    assert sum(longer["wins"]) >= sum(adopted["wins"]) + 1 and len(path.read_text().splitlines()) == 5
    # an end that replays differently: nothing kept is trusted
    first = json.loads(path.read_text().splitlines()[1])
    first["figures"]["totals"] = [-1, -1]
    rest = path.read_text().splitlines()
    path.write_text("\n".join([rest[0], json.dumps(first), *rest[2:]]) + "\n")
    assert gather(2, 3, "easy", seed=5, games_dir=kept) == played
    assert "seed 5 plays differently" in capsys.readouterr().out
