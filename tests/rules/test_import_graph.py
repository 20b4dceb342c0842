"""The rules' modules import one another in one direction only, and never the platform.

Every import in ``rules/`` counts, at module level or inside a function (an import moved into a
function to dodge a circle is still a circle) or under ``TYPE_CHECKING``: the graph of the
modules of ``rules/`` must have no cycle, and no module of ``rules/`` may import discord or
the platform's packages (cogs, services, storage).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
FORBIDDEN = ("discord", "cogs", "services", "storage")


def module_name(path: Path) -> str:
    """The dotted name of a file of the repository (a package by its ``__init__``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(RULES.rglob("*.py"))}


def imported(name: str, tree: ast.Module) -> Iterator[tuple[str, int]]:
    """Every module ``tree`` (the module ``name``) imports, anywhere in it, with the line."""
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base, node.lineno
            for alias in node.names:
                # ``from rules.x import y`` imports the module rules.x.y when there is one
                if f"{base}.{alias.name}" in MODULES:
                    yield f"{base}.{alias.name}", node.lineno


def graph() -> dict[str, set[str]]:
    """The modules of rules/ each module of rules/ imports."""
    edges: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges[name] = {m for m, _ in imported(name, tree) if m in MODULES and m != name}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_rules_import_graph_has_no_cycle() -> None:
    assert cycles(graph()) == []


def test_the_cycle_finder_sees_a_circle_through_a_function_level_import() -> None:
    # a module importing, inside a function, one that imports it back is a circle
    code = "from rules.core import Text\n\ndef f():\n    from rules.registry import engine\n"
    MODULES["rules.fake_low"] = MODULES["rules.core"]
    try:
        low = {m for m, _ in imported("rules.fake_low", ast.parse(code)) if m in MODULES}
    finally:
        del MODULES["rules.fake_low"]
    assert low == {"rules.core", "rules.registry"}
    edges = {"rules.fake_low": low, "rules.registry": {"rules.fake_low", "rules.core"}, "rules.core": set()}
    assert cycles(edges) == [["rules.fake_low", "rules.registry"]]
    assert cycles({**edges, "rules.registry": {"rules.core"}}) == []


def test_no_rules_module_imports_discord_or_the_platform() -> None:
    bad = []
    for name, path in MODULES.items():
        for target, line in imported(name, ast.parse(path.read_text(encoding="utf-8"))):
            if target.split(".")[0] in FORBIDDEN:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert bad == []


def reachable(edges: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for m in edges[todo.pop()] - seen:
            seen.add(m)
            todo.append(m)
    return seen


def test_the_registry_pairs_each_engine_with_its_ai_and_no_engine_reaches_its_ai() -> None:
    edges = graph()
    for game in ("rey_hierofante", "rattus_cartus", "ankh_morpork", "ragami", "guerra_de_mitos"):
        engine, ai = f"rules.{game}.engine", f"rules.{game}.ai"
        assert {engine, ai} <= edges["rules.registry"]
        assert ai not in reachable(edges, engine)
