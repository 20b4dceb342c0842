"""Finds every text the rules and services write through a phrase book (rules.phrases),
without running them: the catalogues' message ids, what ``python -m rules.catalogue update``
adds, and what the tests check every language translates."""

from __future__ import annotations

import ast
import importlib
import string
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where the code that writes rules texts lives.
PACKAGES = ("rules", "services")
# Texts read from a game's data files rather than written in the code (card names and
# texts): for each domain, a function giving its (context, English wording) pairs.
DATA_SOURCES: dict[str, str] = {
    "guerra_de_mitos": "rules.guerra_de_mitos.decks:catalogue_entries",
}
_METHODS = {"n": (1, 2), "c": (1, None), "nc": (2, 3), "data": (1, None)}


@dataclass
class Entry:
    """One text of a catalogue: its plural wording, if any, and a place that writes it."""

    plural: str | None
    where: str


@dataclass
class Found:
    """The texts of the code by (domain, context, wording), and what the scan could not read."""

    texts: dict[tuple[str, str | None, str], Entry] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    data_domains: set[str] = field(default_factory=set)

    def domains(self) -> set[str]:
        """Every domain with a text."""
        return {d for d, _, _ in self.texts}

    def entries(self, domain: str) -> dict[tuple[str | None, str], Entry]:
        """The texts of one domain by (context, wording)."""
        return {(c, m): e for (d, c, m), e in self.texts.items() if d == domain}

    def add(self, domain: str, context: str | None, wording: str, plural: str | None, where: str) -> None:
        """Record one text; the same wording with two plurals is an error."""
        key = (domain, context, wording)
        old = self.texts.get(key)
        if old is not None and old.plural != plural:
            self.errors.append(f"{where}: {wording!r} has another plural at {old.where}")
            return
        self.texts.setdefault(key, Entry(plural, where))


def _books(tree: ast.Module, module_of: dict[str, Path]) -> dict[str, str]:
    """The phrase books a module uses: its own ``X = Phrases("d")`` and imported ones."""
    books: dict[str, str] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "Phrases"
                and node.value.args and isinstance(node.value.args[0], ast.Constant)):
            books[node.targets[0].id] = str(node.value.args[0].value)
        elif isinstance(node, ast.ImportFrom) and node.module in module_of:
            theirs = _own_books(module_of[node.module])
            for alias in node.names:
                if alias.name in theirs:
                    books[alias.asname or alias.name] = theirs[alias.name]
    return books


def _own_books(path: Path) -> dict[str, str]:
    return _books(ast.parse(path.read_text(encoding="utf-8")), {})


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _written_out(node: ast.Call) -> tuple[str, str | None, str, str | None] | None:
    """(domain, context, wording, plural) of a ``Text(d="core", m="...")`` written out with
    literals: rules/core.py's own texts, which cannot use a phrase book (rules.phrases
    imports rules.core)."""
    kw = {k.arg: k.value for k in node.keywords if k.arg}
    domain, wording = (_literal(kw[k]) if k in kw else None for k in ("d", "m"))
    if domain is None or wording is None:
        return None
    context, plural = (_literal(kw[k]) if k in kw else None for k in ("c", "p"))
    return domain, context, wording, plural


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out[dotted.removesuffix(".__init__")] = path
    return out


def scan_source(text: str, where: str, found: Found, module_of: dict[str, Path] | None = None) -> None:
    """Add the texts of one module's source to ``found``."""
    tree = ast.parse(text)
    books = _books(tree, module_of or {})
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "Text":
            written = _written_out(node)
            if written is not None:
                found.add(*written, f"{where}:{node.lineno}")
            continue
        if isinstance(func, ast.Name) and func.id in books:
            domain, method = books[func.id], None
        elif (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
              and func.value.id in books and func.attr in _METHODS):
            domain, method = books[func.value.id], func.attr
        else:
            continue
        place = f"{where}:{node.lineno}"
        if method == "data":
            found.data_domains.add(domain)
            continue
        wording_at, plural_at = (0, None) if method is None else _METHODS[method]
        context = None
        if method in ("c", "nc"):
            context = _literal(node.args[0]) if node.args else None
            if context is None:
                found.errors.append(f"{place}: the context must be a literal string")
                continue
        args = node.args
        wording = _literal(args[wording_at]) if len(args) > wording_at else None
        plural = _literal(args[plural_at]) if plural_at is not None and len(args) > plural_at else None
        if wording is None or (plural_at is not None and plural is None):
            found.errors.append(f"{place}: the wording must be a literal string")
            continue
        found.add(domain, context, wording, plural, place)


def scan() -> Found:
    """Every text of the rules and services, with the data sources' texts."""
    found = Found()
    module_of = _modules()
    for path in module_of.values():
        scan_source(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), found, module_of)
    for domain, source in DATA_SOURCES.items():
        module, _, name = source.partition(":")
        for context, wording in getattr(importlib.import_module(module), name)():
            found.add(domain, context, wording, None, source)
    for domain in found.data_domains - set(DATA_SOURCES):
        found.errors.append(f"domain {domain!r} reads texts from data but has no DATA_SOURCES entry")
    return found


def fields(template: str) -> set[str]:
    """The names a str.format template fills in ("{who} has {n}" -> {"who", "n"})."""
    out = set()
    for _, name, _, _ in string.Formatter().parse(template):
        if name is not None:
            out.add(name.split(".")[0].split("[")[0])
    return out
