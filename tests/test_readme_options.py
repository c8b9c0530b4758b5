"""Issue 24: the README's table of table options lists every option a lobby prints, for the games that have it."""

from __future__ import annotations

import re
from pathlib import Path

from engine.registry import TABLE_GAMES

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_lists_every_table_option_of_every_game():
    rows = re.findall(r"^\| (both|omerta|speakeasy) \| `([a-z_]+)` \|", README.read_text(), re.MULTILINE)
    listed = {(game, name) for game, name in rows}
    missing = [
        f"{game}: {spec.name}"
        for game, engine in TABLE_GAMES.items()
        for spec in engine.option_specs
        if (game, spec.name) not in listed and ("both", spec.name) not in listed
    ]
    assert not missing, missing
    both = {name for game, name in listed if game == "both"}
    for name in both:  # "both" only for what both games have
        assert all(name in {s.name for s in g.option_specs} for g in TABLE_GAMES.values()), name
