"""The engine is pure and deterministic: no Discord, database, image, network, clock or global randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = frozenset({"discord", "aiosqlite", "PIL", "aiohttp", "sqlite3", "asyncio", "time", "random"})
#: The self-play tool is not part of the rules: it may use random, time and json (exempt by name only).
EXEMPT = frozenset({ENGINE / "selfplay.py"})


def forbidden_imports(source: str, filename: str = "<source>") -> list[str]:
    """``line: module`` for every forbidden import in ``source`` (also ``__import__``/``import_module`` calls)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if called in ("__import__", "import_module") and node.args and isinstance(node.args[0], ast.Constant):
                names = [str(node.args[0].value)]
        found += [f"{node.lineno}: {name}" for name in names if name.split(".")[0] in FORBIDDEN]
    return found


def engine_files() -> list[Path]:
    """Every module of the engine, the exempt tool included."""
    return sorted(ENGINE.rglob("*.py"))


def test_purity_the_checker_sees_the_engine():
    names = {p.relative_to(ENGINE).as_posix() for p in engine_files()}
    assert {"core.py", "omerta/rules.py", "omerta/powers.py", "selfplay.py"} <= names
    assert set(engine_files()) >= EXEMPT


def test_purity_the_checker_catches_every_kind_of_import():
    source = (
        "import time\nimport os, discord.ext.commands\nfrom PIL import Image\nfrom random import choice\n"
        "from engine.core import Rng\nimport importlib\nimportlib.import_module('aiohttp')\n__import__('sqlite3')\n"
        "from . import asyncio\n"
    )
    assert forbidden_imports(source) == [
        "1: time",
        "2: discord.ext.commands",
        "3: PIL",
        "4: random",
        "7: aiohttp",
        "8: sqlite3",
    ]


@pytest.mark.parametrize(
    "path", [p for p in engine_files() if p not in EXEMPT], ids=lambda p: p.relative_to(ENGINE).as_posix()
)
def test_purity_engine_module_imports_nothing_impure(path):
    bad = forbidden_imports(path.read_text(encoding="utf-8"), str(path))
    assert not bad, f"{path.relative_to(ENGINE.parent)} imports {', '.join(bad)}"
