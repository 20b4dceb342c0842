"""The gettext catalogues of the rules' own texts: events, prompts, refusals, card and tile
names. One file per game (its *domain*) and language, ``rules/locale/<lang>/LC_MESSAGES/
<domain>.po``, read with Babel when first needed.

The message id of each text is its English wording, a ``str.format`` template ("{who}
places {tile} at {square}."), written in the code through the game's phrase book
(rules.phrases). English needs no catalogue; Spanish, and any language added later, is a
directory of ``.po`` files: a new language is catalogue files, not code. Run ``python -m
rules.catalogue update`` after changing a text in the code (see docs/translating.md).
"""

from __future__ import annotations

import argparse
import gettext
import io
import re
from collections.abc import Iterable, Iterator
from functools import cached_property
from pathlib import Path

from babel.core import UnknownLocaleError
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from rules.catalogue_scan import Found, fields, scan

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
# The language of the message ids: it needs no catalogue, and every other one falls back
# to it for a text it does not translate yet.
SOURCE = "en"
_NO_CATALOGUE = gettext.NullTranslations()


def po_path(root: Path, language: str, domain: str) -> Path:
    """Where ``language``'s catalogue of ``domain`` lives under ``root``."""
    return root / language / "LC_MESSAGES" / f"{domain}.po"


def compiled(catalog: Catalog) -> gettext.GNUTranslations:
    """A parsed catalogue compiled in memory (nothing to build after an install); its plural
    rule is its own Plural-Forms header. An entry not translated yet, or a plural missing a
    form, is left out, so it reads in English."""
    ready = Catalog(locale=catalog.locale, domain=catalog.domain, fuzzy=False)
    ready.mime_headers = catalog.mime_headers
    for m in catalog:
        if m.id and m.string and not (isinstance(m.string, tuple | list) and not all(m.string)):
            ready[m.id] = m
    buf = io.BytesIO()
    write_mo(buf, ready)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def resolve(locale: str | None, languages: tuple[str, ...] | set[str]) -> str | None:
    """The language among ``languages`` for a locale such as "es-ES", "es_419" or "pt-BR":
    its own ("pt_BR"), else its base language's ("es"); None if neither is there."""
    value = (locale or SOURCE).replace("-", "_")
    return next((c for c in (value, value.split("_")[0].lower()) if c in languages), None)


class Catalogues:
    """Every language's catalogues of the rules under one directory, parsed once."""

    def __init__(self, root: Path = LOCALE_DIR) -> None:
        self.root = root
        # Texts are rendered often (every view, every event line): the language of each
        # locale and each singular wording's translation are looked up once.
        self._language_of: dict[str | None, str] = {}
        self._wordings: dict[tuple[str, str, str | None, str], str] = {}

    @cached_property
    def languages(self) -> tuple[str, ...]:
        """The languages with at least one catalogue, English always among them."""
        found = {SOURCE}
        if self.root.is_dir():
            found |= {p.name for p in self.root.iterdir() if any((p / "LC_MESSAGES").glob("*.po"))}
        return tuple(sorted(found))

    def po(self, language: str, domain: str) -> Catalog | None:
        """The parsed catalogue of ``domain`` in ``language`` (Babel's), None if it has none."""
        return self._po.get((language, domain))

    @cached_property
    def _po(self) -> dict[tuple[str, str], Catalog]:
        out: dict[tuple[str, str], Catalog] = {}
        if not self.root.is_dir():
            return out
        for path in sorted(self.root.glob("*/LC_MESSAGES/*.po")):
            language, domain = path.parent.parent.name, path.stem
            with path.open("rb") as f:
                out[(language, domain)] = read_po(f, locale=language, domain=domain)
        return out

    @cached_property
    def _gnu(self) -> dict[tuple[str, str], gettext.GNUTranslations]:
        return {key: compiled(catalog) for key, catalog in self._po.items()}

    def translation(self, language: str, domain: str) -> gettext.NullTranslations:
        """The compiled catalogue (English, the message ids themselves, where there is none)."""
        return self._gnu.get((language, domain)) or _NO_CATALOGUE

    def wording(self, language: str, domain: str, context: str | None, msgid: str) -> str:
        """The translation of a singular wording (the wording itself where there is none)."""
        key = (language, domain, context, msgid)
        found = self._wordings.get(key)
        if found is None:
            tr = self.translation(language, domain)
            found = tr.pgettext(context, msgid) if context else tr.gettext(msgid)
            self._wordings[key] = found
        return found


_current = Catalogues()


def catalogues() -> Catalogues:
    """The catalogues in use."""
    return _current


def use(root: Path) -> Catalogues:
    """Read the rules' catalogues from ``root`` from now on (tests, or a server's own
    language pack); returns the previous ones for ``restore``."""
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
    catalogues if there are any ("pt_BR"), else its base language's ("es"), else English."""
    cats = catalogues()
    found = cats._language_of.get(locale)
    if found is None:
        found = resolve(locale, cats.languages) or SOURCE
        cats._language_of[locale] = found
    return found


_seat_words: tuple[Catalogues, re.Pattern[str]] | None = None


def seat_words() -> re.Pattern[str]:
    """What matches a seat's name as any language with a catalogue writes it ("Jugador 2",
    "Player 2", "Joueur 2"; rules.core.seat_name), so the platform can put the player's
    name in its place; the seat's number is the match's only digits."""
    global _seat_words
    cats = catalogues()
    if _seat_words is None or _seat_words[0] is not cats:
        ways = set()
        for language_ in cats.languages:
            template = cats.translation(language_, "core").pgettext("seat", "Player {number}")
            if "{number}" not in template:
                continue  # a translation that forgot the number cannot be recognised
            before, _, after = template.partition("{number}")
            ways.add(re.escape(before) + r"[1-9]" + re.escape(after))
        pattern = r"(?<!\w)(?:" + "|".join(sorted(ways, key=len, reverse=True)) + r")(?!\w)"
        _seat_words = (cats, re.compile(pattern))
    return _seat_words[1]


def join(items: list[str], language_: str) -> str:
    """Items joined as the language joins a list: "A, B y C", "A, B and C"."""
    if len(items) < 2:
        return "".join(items)
    try:
        return format_list(list(items), locale=language_)
    except (ValueError, UnknownLocaleError):  # a catalogue for a language CLDR lacks
        return ", ".join(items)


# ----------------------------------------------------------------------------- maintenance


def load(root: Path, language_: str, domain: str) -> Catalog:
    """The catalogue of ``domain`` in ``language_`` under ``root``, empty if there is none."""
    path = po_path(root, language_, domain)
    if path.is_file():
        with path.open("rb") as f:
            return read_po(f, locale=language_, domain=domain)
    return Catalog(locale=language_, domain=domain, project="Tablero", fuzzy=False)


def save(root: Path, language_: str, domain: str, catalog: Catalog) -> None:
    """Write ``catalog`` under ``root``, sorted by id."""
    path = po_path(root, language_, domain)
    path.parent.mkdir(parents=True, exist_ok=True)
    catalog.fuzzy = False
    catalog.project, catalog.version = "Tablero", "0.1.0"
    for message in catalog:
        # where the code writes a text is the scan's business: kept out of the files, it
        # does not turn every moved line into a change of every catalogue
        message.auto_comments, message.locations = [], []
    with path.open("wb") as f:
        write_po(f, catalog, width=0, sort_output=True, omit_header=False)


def update(root: Path = LOCALE_DIR) -> dict[str, list[str]]:
    """Bring every language's catalogues in line with the texts in the code: a new text is
    added untranslated, a text no longer used is removed; returns what changed, by file."""
    found = scan()
    if found.errors:
        raise SystemExit("texts the scan cannot read:\n" + "\n".join(found.errors))
    changes: dict[str, list[str]] = {}
    languages = [lang for lang in catalogues().languages if lang != SOURCE]
    for language_ in languages:
        for domain in sorted(found.domains()):
            cat = load(root, language_, domain)
            wanted = found.entries(domain)
            log: list[str] = []
            for (context, msgid), entry in wanted.items():
                old = cat.get(msgid, context)
                if old is not None and isinstance(old.id, tuple) != bool(entry.plural):
                    # a text that gained (or lost) a plural: its translation starts again
                    cat.delete(old.id, context)
                    log.append(f"- {msgid}")
                    old = None
                if old is None:
                    cat.add((msgid, entry.plural) if entry.plural else msgid,
                            ("", "") if entry.plural else "", context=context)
                    log.append(f"+ {msgid}")
            for message in list(cat):
                if message.id and (message.context, message.id[0] if isinstance(message.id, tuple)
                                   else message.id) not in wanted:
                    cat.delete(message.id, message.context)
                    log.append(f"- {message.id}")
            if log:
                save(root, language_, domain, cat)
                changes[str(po_path(root, language_, domain))] = log
    return changes


def problems(found: Found, languages: Iterable[str] | None = None) -> Iterator[str]:
    """What each language's catalogues lack or get wrong for the texts in ``found``: a
    missing or empty translation, a plural without all its forms, another set of values
    than the English fills in, and entries the code no longer writes."""
    cats = catalogues()
    for language in languages if languages is not None else cats.languages:
        if language == SOURCE:
            continue
        for domain in sorted(found.domains()):
            cat = cats.po(language, domain)
            wanted = found.entries(domain)
            if cat is None:
                yield f"{language}: no catalogue for {domain}"
                continue
            for (context, wording), entry in sorted(wanted.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
                message = cat.get(wording, context)
                label = f"{language}/{domain}: {wording!r}" + (f" [{context}]" if context else "")
                if message is None or not message.string:
                    yield f"{label} is not translated ({entry.where})"
                    continue
                english = fields(wording) | (fields(entry.plural) | {"n"} if entry.plural else set())
                if entry.plural:
                    forms = list(message.string) if isinstance(message.string, tuple | list) else [message.string]
                    if not isinstance(message.string, tuple | list) or not all(forms):
                        yield f"{label} lacks a plural form"
                        continue
                    if len(forms) != cat.num_plurals:
                        yield f"{label} has {len(forms)} forms, the language has {cat.num_plurals}"
                    used = set().union(*(fields(f) for f in forms))
                    if not used <= english or used | {"n"} != english | {"n"}:
                        yield f"{label} fills in {sorted(used)}, the English {sorted(english)}"
                elif isinstance(message.string, tuple | list):
                    yield f"{label} is a plural entry, the code writes it as singular"
                elif fields(message.string) != english:
                    yield f"{label} fills in {sorted(fields(message.string))}, the English {sorted(english)}"
            for message in cat:
                if not message.id:
                    continue
                wording = message.id[0] if isinstance(message.id, tuple) else message.id
                if (message.context, wording) not in wanted:
                    yield f"{language}/{domain}: {wording!r} is in the catalogue but no longer in the code"
        for path in sorted((cats.root / language / "LC_MESSAGES").glob("*.po")):
            if path.stem not in found.domains():
                yield f"{language}: catalogue {path.stem} has no text in the code"


def missing() -> list[str]:
    """Every problem of every catalogue, and every text the scan could not read."""
    found = scan()
    return found.errors + list(problems(found))


def main(argv: list[str] | None = None) -> int:
    """``update``: add the code's new texts to every catalogue and drop unused ones;
    ``check``: list texts a catalogue lacks."""
    parser = argparse.ArgumentParser(prog="python -m rules.catalogue")
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("update", help="add new texts (untranslated) and remove unused ones")
    sub.add_parser("check", help="list the texts each language lacks")
    args = parser.parse_args(argv)
    if args.cmd == "update":
        for path, log in update().items():
            print(f"{path}: {len(log)} change(s)")
            for line in log:
                print("   ", line)
        return 0
    lacking = missing()
    for line in lacking:
        print(line)
    return 1 if lacking else 0


if __name__ == "__main__":
    raise SystemExit(main())
