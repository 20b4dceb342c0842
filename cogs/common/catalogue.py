"""The gettext catalogues of the Discord side: one ``tablero.po`` per language under
``cogs/locale/<lang>/LC_MESSAGES/``, read with Babel when first needed.

Message ids are stable keys ("err.bug", "rg.players"); every language, English included,
translates them, so a new language is one more ``.po`` file and no code. Command,
parameter, description and choice names use the English name as the id, with a gettext
context ("command", "parameter", "description", "choice") saying which it is.

Run ``python -m cogs.common.catalogue absorb MODULE TABLE --prefix P`` (or ``--context C``)
to move a Python table of texts into the catalogues (see docs/translating.md).
"""

from __future__ import annotations

import argparse
import ast
import gettext
import importlib
from collections.abc import Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

# compiling, locale resolution, list joining and writing are shared with the rules' catalogues
from rules.catalogue import compiled, join, resolve
from rules.catalogue import load as load_po
from rules.catalogue import save as save_po

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "tablero"
# The language every other one falls back to for a message it does not translate yet.
SOURCE = "en"
# The gettext contexts of the slash commands' names, set by discord.py's translator.
CONTEXTS = ("command", "parameter", "description", "choice")


def po_path(root: Path, language: str, domain: str = DOMAIN) -> Path:
    """Where the catalogue of ``language`` lives under ``root``."""
    return root / language / "LC_MESSAGES" / f"{domain}.po"


class Catalogues:
    """Every language's catalogue under one directory, parsed once."""

    def __init__(self, root: Path = LOCALE_DIR, domain: str = DOMAIN) -> None:
        self.root = root
        self.domain = domain

    @cached_property
    def languages(self) -> tuple[str, ...]:
        """The languages that have a catalogue, e.g. ("en", "es")."""
        found = [p.name for p in sorted(self.root.iterdir()) if po_path(self.root, p.name, self.domain).is_file()]
        return tuple(found)

    @cached_property
    def _po(self) -> dict[str, Catalog]:
        out = {}
        for language in self.languages:
            with po_path(self.root, language, self.domain).open("rb") as f:
                out[language] = read_po(f, locale=language, domain=self.domain)
        return out

    def po(self, language: str) -> Catalog:
        """The parsed catalogue of ``language`` (Babel's ``Catalog``)."""
        return self._po[language]

    @cached_property
    def _gnu(self) -> dict[str, gettext.GNUTranslations]:
        out = {language: compiled(catalog) for language, catalog in self._po.items()}
        for language, tr in out.items():
            if language != SOURCE and SOURCE in out:
                tr.add_fallback(out[SOURCE])
        return out

    def gettext(self, language: str, msgid: str, context: str | None = None) -> str:
        """The text of ``msgid`` in ``language`` (English where it has none)."""
        tr = self._gnu.get(language) or self._gnu[SOURCE]
        return tr.pgettext(context, msgid) if context else tr.gettext(msgid)

    def ngettext(self, language: str, msgid: str, n: int) -> str:
        """The form of plural entry ``msgid`` that ``language`` uses for ``n`` things."""
        tr = self._gnu.get(language) or self._gnu[SOURCE]
        return tr.ngettext(msgid, msgid, n)

    def text(self, language: str, msgid: str, context: str | None = None) -> str | None:
        """The translation ``language`` itself has for ``msgid`` (no fallback), or None."""
        message = self._po[language].get(msgid, context)
        if message is None:
            return None
        string = message.string
        if isinstance(string, tuple | list):
            string = string[-1]
        return string or None

    def ids(self, language: str = SOURCE, context: str | None = None) -> list[str]:
        """The message ids of ``language``'s catalogue in gettext context ``context``."""
        return [m.id[0] if isinstance(m.id, tuple) else m.id
                for m in self._po[language] if m.id and m.context == context]


_current = Catalogues()


def catalogues() -> Catalogues:
    """The catalogues in use."""
    return _current


def use(root: Path) -> Catalogues:
    """Read the catalogues from ``root`` from now on (tests, or a server's own language
    pack); returns the previous ones so they can be put back with ``restore``."""
    global _current
    previous = _current
    _current = Catalogues(root)
    return previous


def restore(previous: Catalogues) -> None:
    """Go back to catalogues returned by ``use``."""
    global _current
    _current = previous


def language(locale: str | None) -> str:
    """The catalogue language for a locale such as "es-ES", "es_419" or "pt-BR": its own
    catalogue if there is one ("pt_BR"), else its base language's ("es"), else English."""
    return resolve(locale, catalogues().languages) or SOURCE


def t(key: str, locale: str | None, /, **fmt: Any) -> str:
    """The message ``key`` in ``locale``, with ``fmt`` filled in (for code without Discord,
    such as the pictures; the cogs use cogs.common.i18n.t)."""
    text = catalogues().gettext(language(locale), key)
    return text.format(**fmt) if fmt else text


def tn(key: str, n: int, locale: str | None, /, **fmt: Any) -> str:
    """The plural message ``key`` in the form ``locale`` uses for ``n`` things."""
    return catalogues().ngettext(language(locale), key, n).format(n=n, **fmt)


def count(noun: str, n: int, locale: str | None) -> str:
    """``n`` things, in the plural form ``locale`` uses: count("cards", 1, "es") is "1 carta"."""
    return tn("count." + noun, n, locale)


def names(items: list[str], locale: str | None) -> str:
    """Names joined as ``locale`` joins a list: "Ana, Bea y Carl", "Ana, Bea and Carl"."""
    return join(items, language(locale))


class Pairs(Mapping[str, tuple[str, str]]):
    """A cog's old table of (Spanish, English) texts, read from the catalogues: ``WORDS[key]``
    is the pair of ``prefix + key``, so code written against the table keeps working."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def _keys(self) -> list[str]:
        n = len(self.prefix)
        return [k[n:] for k in catalogues().ids() if k.startswith(self.prefix)]

    def __getitem__(self, key: str) -> tuple[str, str]:
        cat = catalogues()
        es, en = cat.text("es", self.prefix + key), cat.text("en", self.prefix + key)
        if es is None or en is None:
            raise KeyError(key)
        return es, en

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())


class Entries(Mapping[str, dict[str, str]]):
    """Every message id without a context, as ``{language: text}`` for each language."""

    def __getitem__(self, key: str) -> dict[str, str]:
        cat = catalogues()
        out = {lang: text for lang in cat.languages if (text := cat.text(lang, key)) is not None}
        if not out:
            raise KeyError(key)
        return out

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and catalogues().text(SOURCE, key) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(catalogues().ids())

    def __len__(self) -> int:
        return len(catalogues().ids())


class Names(Mapping[str, str]):
    """English command names (or descriptions, parameters, choices) to ``language``'s, read
    from the catalogue entries of gettext context ``context``."""

    def __init__(self, context: str, language: str) -> None:
        self.context = context
        self.language = language

    def __getitem__(self, key: str) -> str:
        text = catalogues().text(self.language, key, self.context)
        if text is None:
            raise KeyError(key)
        return text

    def __iter__(self) -> Iterator[str]:
        return iter(catalogues().ids(self.language, self.context))

    def __len__(self) -> int:
        return len(catalogues().ids(self.language, self.context))


# ----------------------------------------------------------------------------- absorbing tables


def _entries(table: Mapping[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(key, es, en) of a table of pairs, {"es", "en"} dicts, or English -> Spanish names."""
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield key, value["es"], value["en"]
        elif isinstance(value, tuple | list):
            yield key, value[0], value[1]
        else:
            yield key, str(value), key


def load(root: Path, language: str) -> Catalog:
    """The catalogue of ``language`` under ``root``, empty if there is none yet."""
    return load_po(root, language, DOMAIN)


def save(root: Path, language: str, catalog: Catalog) -> None:
    """Write ``catalog`` as ``language``'s catalogue under ``root``, sorted by id (where the
    code uses an entry is pybabel's business, tablero.pot: the file keeps ids and texts)."""
    save_po(root, language, DOMAIN, catalog)


def absorb(table: Mapping[str, Any], *, prefix: str = "", context: str | None = None,
           root: Path = LOCALE_DIR, replace: bool = False) -> list[str]:
    """Add a Python table's texts to the Spanish and English catalogues; returns the ids
    added. An id already in a catalogue keeps its text unless ``replace``."""
    added: list[str] = []
    cats = {lang: load(root, lang) for lang in ("es", "en")}
    for key, es, en in _entries(table):
        msgid = prefix + key
        for lang, text in (("es", es), ("en", en)):
            cat = cats[lang]
            if replace or cat.get(msgid, context) is None:
                cat.delete(msgid, context)  # Catalog.add keeps an existing entry's text
                cat.add(msgid, text, context=context)
                if lang == "en":
                    added.append(msgid)
    for lang, cat in cats.items():
        save(root, lang, cat)
    return added


def table_in_source(text: str, name: str) -> dict[str, Any]:
    """The literal value of the module-level table ``name`` in Python source ``text``,
    without importing it (a file from another branch or an older commit). Names of
    module-level string constants used as keys or values are resolved."""
    tree = ast.parse(text)
    constants: dict[str, str] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else (
            node.target if isinstance(node, ast.AnnAssign) else None)
        if not isinstance(target, ast.Name) or node.value is None:
            continue
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            constants[target.id] = value.value
        if target.id == name:
            resolved = ast.fix_missing_locations(_Constants(constants).visit(value))
            return dict(ast.literal_eval(resolved))
    raise KeyError(f"no table {name} in the source")


class _Constants(ast.NodeTransformer):
    def __init__(self, constants: dict[str, str]) -> None:
        self.constants = constants

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.constants:
            return ast.copy_location(ast.Constant(self.constants[node.id]), node)
        return node


def changed_entries(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of ``after`` that ``before`` lacks or held with another text."""
    return {k: v for k, v in after.items() if before.get(k) != v}


def main(argv: list[str] | None = None) -> int:
    """``absorb MODULE TABLE [--prefix P] [--context C]``: move a Python table into the
    catalogues (then replace the table in the code by ``Pairs(P)`` or calls to t()).
    ``tidy``: sort the catalogues again after ``pybabel update``."""
    parser = argparse.ArgumentParser(prog="python -m cogs.common.catalogue")
    sub = parser.add_subparsers(dest="cmd", required=True)
    ab = sub.add_parser("absorb", help="add a Python table of texts to the catalogues")
    ab.add_argument("module", help="dotted module name, e.g. cogs.guerra_de_mitos")
    ab.add_argument("table", help="the table's name in that module, e.g. WORDS")
    ab.add_argument("--prefix", default="", help="put before each key, e.g. gdm.")
    ab.add_argument("--context", default=None, choices=CONTEXTS, help="for tables of names")
    ab.add_argument("--replace", action="store_true", help="overwrite texts already there")
    diff = sub.add_parser("absorb-diff", help="add what a branch added to a Python table (merges)")
    diff.add_argument("before", help="the file as it was where the branch started (git show BASE:path)")
    diff.add_argument("after", help="the file as the branch left it (git show BRANCH:path)")
    diff.add_argument("table", help="the table's name in that file, e.g. WORDS or MESSAGES")
    diff.add_argument("--prefix", default="", help="put before each key, e.g. gdm.")
    diff.add_argument("--context", default=None, choices=CONTEXTS, help="for tables of names")
    sub.add_parser("tidy", help="sort every catalogue by id, one line per text (after pybabel update)")
    args = parser.parse_args(argv)
    if args.cmd == "tidy":
        for language in Catalogues(LOCALE_DIR).languages:
            save(LOCALE_DIR, language, load(LOCALE_DIR, language))
        return 0
    if args.cmd == "absorb-diff":
        try:
            before = table_in_source(Path(args.before).read_text(encoding="utf-8"), args.table)
        except (KeyError, SyntaxError):
            before = {}
        after = table_in_source(Path(args.after).read_text(encoding="utf-8"), args.table)
        added = absorb(changed_entries(before, after), prefix=args.prefix, context=args.context,
                       replace=True)
        print(f"{len(added)} message ids added or changed" + (f": {', '.join(added)}" if added else ""))
        return 0
    table = getattr(importlib.import_module(args.module), args.table)
    added = absorb(table, prefix=args.prefix, context=args.context, replace=args.replace)
    print(f"{len(added)} new message ids" + (f": {', '.join(added)}" if added else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
