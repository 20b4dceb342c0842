"""The layers hold: rules import none of the platform, storage no service, services no cog.

bot.py -> cogs/ (Discord side) -> services/ (platform, no discord) -> rules/ (pure games)
and storage/ (SQLite/PostgreSQL). Each module's imports are read from its source, the
ones inside functions too, so an import made late to dodge a cycle counts as well.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What each layer must never import (top-level package names).
FORBIDDEN = {
    "rules": {"bot", "cogs", "services", "storage", "discord"},
    "storage": {"bot", "cogs", "services", "rules", "discord"},
    "services": {"bot", "cogs", "discord"},
}


def imported_packages(source: str, package: str) -> set[str]:
    """The top-level packages ``source`` imports (relative imports stay in ``package``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            found.add(package if node.level else (node.module or "").split(".")[0])
    return found


def violations(layer: str) -> list[str]:
    """Every ``module: package`` import of ``layer`` that its rule forbids."""
    out: list[str] = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        bad = imported_packages(path.read_text(encoding="utf-8"), layer) & FORBIDDEN[layer]
        out += [f"{path.relative_to(ROOT)}: {name}" for name in sorted(bad)]
    return out


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_layer_imports_what_sits_above_it(layer: str) -> None:
    assert (ROOT / layer).is_dir()
    assert violations(layer) == []


def test_the_check_sees_imports_inside_functions_and_relative_ones() -> None:
    source = (
        "from . import rows\n"
        "import discord.ext.commands\n"
        "def late():\n"
        "    from services.session import Game\n"
    )
    assert imported_packages(source, "storage") == {"storage", "discord", "services"}
