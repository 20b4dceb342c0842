"""Which message ids the code uses, read from its source with ``ast``: the catalogue tests
check them against the catalogues, and ``pybabel extract`` writes them to a template
(babel.cfg names ``extract`` below as the project's extractor).

Calls to ``t``/``tn``/``said`` (and the pictures' ``_tr``) with a literal id are found directly. A
module's small wrappers, such as ``def word(key, locale): return i18n.t("rg." + key, locale)``,
are recognised, so ``word("players")`` counts as the id "rg.players". An id built at run
time (``t(f"opt.{field}")``, ``"gdmverb." + verb``) marks its prefix as used.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The functions that look a message up: name -> whether the entry is plural.
BASE = {"t": False, "tn": True, "_tr": False, "_trn": True, "said": False}
# Shared wrappers imported by name: name -> (prefix, plural).
SHARED = {"count": ("count.", True), "_count": ("count.", True)}
# Modules whose functions are called as module.t(...), module.count(...).
MODULES = {"i18n", "catalogue"}
ROOT = Path(__file__).resolve().parent.parent.parent
# Where the Discord side's code lives (the rules keep their own bilingual texts).
SOURCES = ("cogs", "services", "bot.py")


@dataclass
class Uses:
    """What a body of code asks of the catalogues."""

    singular: dict[str, list[str]] = field(default_factory=dict)  # id -> where
    plural: dict[str, list[str]] = field(default_factory=dict)
    prefixes: set[str] = field(default_factory=set)  # ids built at run time start so
    constants: set[str] = field(default_factory=set)  # every string constant, prefixed too

    def merge(self, other: Uses) -> None:
        """Add ``other``'s uses to these."""
        for mine, theirs in ((self.singular, other.singular), (self.plural, other.plural)):
            for key, where in theirs.items():
                mine.setdefault(key, []).extend(where)
        self.prefixes |= other.prefixes
        self.constants |= other.constants

    def used(self, msgid: str) -> bool:
        """Whether the code may ask for ``msgid``."""
        return (msgid in self.singular or msgid in self.plural or msgid in self.constants
                or any(msgid.startswith(p) for p in self.prefixes))


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in MODULES:
        return func.attr
    return None


def _head(node: ast.expr) -> tuple[str, ast.expr | None] | None:
    """A string the expression starts with, and what follows it (None: nothing)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = _head(node.left)
        if left is not None and left[1] is None:
            return left[0], node.right
    if isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        text = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""
        return text, node
    return None


def _first(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    params = [*fn.args.posonlyargs, *fn.args.args]
    return params[0].arg if params else None


def _wrappers(tree: ast.Module) -> dict[str, tuple[str, bool]]:
    """The module's functions that pass their first argument on as (part of) an id:
    name -> (prefix they add, plural)."""
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    local = {fn.name for fn in functions}
    known: dict[str, tuple[str, bool]] = {k: ("", v) for k, v in BASE.items()}
    known |= {k: v for k, v in SHARED.items() if k not in local}
    changed = True
    while changed:
        changed = False
        for fn in functions:
            param = _first(fn)
            if fn.name in known or param is None:
                continue
            for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
                callee = _name(call.func)
                if callee not in known or not call.args:
                    continue
                arg, (prefix, plural) = call.args[0], known[callee]
                if isinstance(arg, ast.Name) and arg.id == param:
                    known[fn.name] = (prefix, plural)
                else:
                    head = _head(arg)
                    if head and isinstance(head[1], ast.Name) and head[1].id == param:
                        known[fn.name] = (prefix + head[0], plural)
                if fn.name in known:
                    changed = True
                    break
    return known


def scan_source(text: str, where: str = "<string>") -> Uses:
    """The message ids one module's source uses."""
    tree = ast.parse(text)
    known = _wrappers(tree)
    uses = Uses()
    prefixes = {p for p, _ in known.values() if p}
    # a wrapper's own body passes its parameter on: that is no id built at run time
    params = {_first(fn) for fn in ast.walk(tree)
              if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and fn.name in known}
    # ids built into a variable first: key = f"opt.{field}"; t(key, locale)
    built: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            head = _head(node.value)
            if head is not None and head[1] is not None and head[0]:
                built[node.targets[0].id] = head[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            uses.constants.add(node.value)
            uses.constants |= {p + node.value for p in prefixes}
        if not isinstance(node, ast.Call) or not node.args:
            continue
        callee = _name(node.func)
        if callee not in known:
            continue
        prefix, plural = known[callee]
        arg = node.args[0]
        if isinstance(arg, ast.Name) and arg.id in built:
            uses.prefixes.add(prefix + built[arg.id])
            continue
        head = _head(arg)
        if head is None:
            continue  # an id held in a variable: only the constants above know it
        if head[1] is None:
            table = uses.plural if plural else uses.singular
            table.setdefault(prefix + head[0], []).append(f"{where}:{node.lineno}")
        elif not (isinstance(head[1], ast.Name) and head[1].id in params):
            uses.prefixes.add(prefix + head[0])
    return uses


def source_files(root: Path = ROOT) -> Iterator[Path]:
    """The Python files of the Discord side."""
    for name in SOURCES:
        path = root / name
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def scan(paths: Iterable[Path] | None = None, root: Path = ROOT) -> Uses:
    """The message ids the Discord side's code uses."""
    uses = Uses()
    for path in paths if paths is not None else source_files(root):
        rel = path.relative_to(root) if path.is_relative_to(root) else path
        uses.merge(scan_source(path.read_text(encoding="utf-8"), str(rel)))
    return uses


def _names(text: str) -> set[str]:
    """Every string constant and every function parameter of a source: where the slash
    commands' names, descriptions and choices are written."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
    return out


def extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple]:
    """Babel extractor (babel.cfg): the ids one file uses, plural ones as (id, id), each
    with its English text as a comment for translators. Ids built at run time or held in
    tables of keys, and the names of the slash commands, are taken from the English
    catalogue where the file names them, so ``pybabel update`` keeps every live entry."""
    from cogs.common.catalogue import SOURCE, catalogues

    text = fileobj.read().decode("utf-8")
    uses = scan_source(text, getattr(fileobj, "name", "<file>"))
    english = catalogues().po(SOURCE)

    def note(msgid: str, context: str | None = None) -> list[str]:
        message = english.get(msgid, context)
        if message is None or not message.string:
            return []
        string = message.string
        return [" | ".join(string) if isinstance(string, tuple | list) else string]

    seen: set[str] = set()
    for msgid, where in uses.singular.items():
        seen.add(msgid)
        yield int(where[0].rsplit(":", 1)[1]), "gettext", msgid, note(msgid)
    for msgid, where in uses.plural.items():
        seen.add(msgid)
        yield int(where[0].rsplit(":", 1)[1]), "ngettext", (msgid, msgid), note(msgid)
    names = _names(text)
    for message in english:
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if not key or key in seen:
            continue
        if message.context is not None:
            if key in names:
                yield 0, "pgettext", (message.context, key), note(key, message.context)
        elif uses.used(key):
            if isinstance(message.id, tuple):
                yield 0, "ngettext", message.id, note(key)
            else:
                yield 0, "gettext", key, note(key)
