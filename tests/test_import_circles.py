"""Issue 27, a house without circles: no module of ``engine/``, ``service/``, ``store/`` or ``render/`` (nor of the
other packages) imports itself through a loop of other modules, and Jo's code is a layer above the human rules.

An import counts wherever it is written (a function's lazy import is an import too), except under ``if
TYPE_CHECKING:`` (never run). ``from package import name`` is an import of the submodule ``package.name`` when
there is one, else of the package; a module's parent packages are not counted (Python runs them first, whoever
imports)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The packages the issue names, then the rest of the project's own.
PACKAGES = ("engine", "service", "store", "render", "cogs", "bots", "words", "fakediscord")


def _modules(packages: tuple[str, ...] = PACKAGES, root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def _type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def _nodes(node: ast.AST) -> Iterator[ast.AST]:
    for child in ast.iter_child_nodes(node):
        if not _type_checking(child):
            yield child
            yield from _nodes(child)


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules that module ``name`` (file ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            subs = {f"{source}.{alias.name}" for alias in node.names} & modules.keys()
            found |= subs
            if len(subs) < len(node.names):
                found.add(source)
    return {m for m in found if m in modules and m != name}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import each other through a loop (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def test_no_module_imports_itself_through_a_loop():
    graph = _graph()
    assert len(graph) > 200 and "engine.speakeasy.flow" in graph  # the checker sees the project
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(
        " <-> ".join(f"{m} (imports {sorted(graph[m] & set(group))})" for m in group) for group in found
    )


def test_the_human_rules_never_import_jo():
    """Jo calls the rules; the rules reach him only through the hooks he provides (``engine.speakeasy.solo``).
    His data (``jo.data``: his cards and difficulty table, read by the setup and the views) is data, not code.
    Only the flow, which runs every step, imports Jo's modules, to register his steps."""
    graph = _graph()
    rules = {m for m in graph if m.startswith("engine.speakeasy.") and not m.startswith("engine.speakeasy.jo")}
    above = {"engine.speakeasy.flow", "engine.speakeasy.game"}  # the loop over the steps, and the game object
    wrong = {
        (m, d)
        for m in rules - above
        for d in graph[m]
        if d.startswith("engine.speakeasy.jo") and d != "engine.speakeasy.jo.data"
    }
    assert not wrong, sorted(wrong)


def test_the_checker_finds_a_circle_a_lazy_import_makes(tmp_path):
    pkg = tmp_path / "engine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from engine import b\n")
    (pkg / "b.py").write_text("def f():\n    from engine.a import x\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine import a\n")
    modules = _modules(("engine",), tmp_path)
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert circles(graph) == [["engine.a", "engine.b"]]
    assert graph["engine.c"] == set()


def test_every_solo_hook_is_provided_once_the_games_are_loaded():
    """In a fresh process (no test has imported Jo's modules), loading the games provides every hook the rules
    call: a hook left out would only fail at the end of a solo game."""
    import subprocess
    import sys

    code = "import engine.registry\nfrom engine.speakeasy import solo\nprint(sorted(solo.HOOKS) == sorted(solo.NAMES))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
