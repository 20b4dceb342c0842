"""The rules' own texts (events, prompts, refusals, card and tile names) come from gettext
catalogues: every text the code writes is translated in every language's catalogue, none is
written as a Spanish/English pair any more, and a new language is catalogue files alone."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from rules import catalogue
from rules.catalogue import problems, seat_words
from rules.catalogue_scan import ROOT, scan
from rules.core import IllegalAction, RuleError, Text, seat_name, tr
from rules.phrases import Phrases
from rules.registry import engine as get_engine

# Where a pair is allowed for good: the Text model's own definitions.
PAIR_HOME = {"rules/core.py"}
_ERRORS = {"RuleError", "IllegalAction", "InvalidAction", "NotYourTurn", "GameOver", "StaleAction",
           "Refusal", "TournamentRefusal", "DeckRefusal"}
# A line that means one language on purpose (a log line, a name stored as it always was)
# says so with this comment.
ONE_LANGUAGE = "# one language:"
# The catalogue machinery itself names its languages.
LANGUAGE_HOME = {"cogs/common/catalogue.py", "cogs/common/i18n.py", "cogs/common/catalogue_scan.py",
                 "rules/catalogue.py", "rules/catalogue_scan.py"}


def _pairs_in(path: Path) -> list[str]:
    """Places in one module that write a text as a Spanish/English pair."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.splitlines()
    rel = str(path.relative_to(ROOT))
    found = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            # rules.core's tr(es, en) and count(n, es, es_many, en, en_many); the cogs' own
            # count(noun, n, locale) reads their catalogue and is no pair
            if (name == "tr" and len(node.args) == 2) or (name == "count" and len(node.args) == 5) \
                    or (name == "Text" and {k.arg for k in node.keywords} & {"es", "en"}):
                found.append(f"{where}: {name}(...)")
            elif name in _ERRORS and len(node.args) >= 2:
                found.append(f"{where}: {name}(es, en)")
        elif isinstance(node, ast.Attribute) and node.attr in ("es", "en", "text_es", "text_en") \
                and isinstance(node.ctx, ast.Load):
            found.append(f"{where}: .{node.attr}")
        line = lines[node.lineno - 1] if hasattr(node, "lineno") else ""
        if rel not in LANGUAGE_HOME and ONE_LANGUAGE not in line:
            # words chosen for Spanish and English only: t(key, "es"), x.get("en"), or a
            # loop over ("es", "en"); a third language would read English there
            if isinstance(node, ast.Call) and any(
                    isinstance(a, ast.Constant) and a.value in ("es", "en") for a in node.args):
                found.append(f"{where}: a call for one language")
            elif isinstance(node, ast.Tuple | ast.List) and {"es", "en"} <= {
                    e.value for e in node.elts if isinstance(e, ast.Constant)}:
                found.append(f"{where}: ('es', 'en')")
    return found


def _modules() -> list[Path]:
    out = []
    for package in ("rules", "services", "cogs"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = str(path.relative_to(ROOT))
            if rel in PAIR_HOME:
                continue
            out.append(path)
    return out


def test_no_text_is_written_as_a_spanish_english_pair() -> None:
    pairs = [p for path in _modules() for p in _pairs_in(path)]
    assert pairs == []


def test_the_scan_reads_every_text() -> None:
    found = scan()
    assert found.errors == []
    # the tiles' names and the engine's events are among them
    entries = found.entries("rey_hierofante")
    assert (None, "Hierophant") in entries
    assert (None, "{seat} places {tile} at {sq}.") in entries


def test_every_language_translates_every_text() -> None:
    assert list(problems(scan())) == []


def test_the_catalogues_are_in_line_with_the_code(tmp_path: Path) -> None:
    shutil.copytree(catalogue.LOCALE_DIR, tmp_path / "locale")
    assert catalogue.update(tmp_path / "locale") == {}


def test_update_adds_new_texts_drops_old_ones_and_restarts_a_new_plural(tmp_path: Path) -> None:
    root = tmp_path / "locale"
    shutil.copytree(catalogue.LOCALE_DIR, root)
    cat = catalogue.load(root, "es", "rey_hierofante")
    cat.delete("Hierophant")
    cat.add("An old text", "Un texto viejo")
    cat.delete("Royalty")
    cat.add(("Royalty", "Royalties"), ("Realeza", "Realezas"))  # the code has it singular
    catalogue.save(root, "es", "rey_hierofante", cat)
    changed = catalogue.update(root)
    assert sorted(changed[str(catalogue.po_path(root, "es", "rey_hierofante"))]) == [
        "+ Hierophant", "+ Royalty", "- An old text", "- Royalty"]
    again = catalogue.load(root, "es", "rey_hierofante")
    assert again.get("Hierophant").string == ""  # to translate
    assert again.get("Royalty").string == "" and not isinstance(again.get("Royalty").id, tuple)
    assert again.get("An old text") is None
    assert "#:" not in catalogue.po_path(root, "es", "rey_hierofante").read_text(encoding="utf-8")


def _write(root: Path, language: str, domain: str, entries: dict, plural_forms: str) -> None:
    cat = Catalog(locale=language, domain=domain, fuzzy=False)
    cat.plural_forms  # noqa: B018  (Babel fills it from the locale; the header below wins)
    cat.mime_headers = [*[(k, v) for k, v in cat.mime_headers if k != "Plural-Forms"],
                        ("Plural-Forms", plural_forms)]
    for key, value in entries.items():
        if isinstance(key, tuple) and key[0] == "@":  # ("@", context, wording)
            cat.add(key[2], value, context=key[1])
        else:
            cat.add(key, value)
    catalogue.save(root, language, domain, cat)


@pytest.fixture
def with_french(tmp_path: Path):
    """The project's catalogues plus a French one for Rey y Hierofante."""
    root = tmp_path / "locale"
    shutil.copytree(catalogue.LOCALE_DIR, root)
    _write(root, "fr", "rey_hierofante", {
        "Place the Citizen on any square.": "Placez le Citoyen sur n'importe quelle case.",
        "Hierophant": "Hiérophante",
        "{seat} places {tile} at {sq}.": "{seat} pose {tile} en {sq}.",
        ("{n} tile", "{n} tiles"): ("{n} tuile", "{n} tuiles"),
    }, "nplurals=2; plural=(n > 1);")
    _write(root, "fr", "core", {("@", "seat", "Player {number}"): "Joueur {number}"},
           "nplurals=2; plural=(n > 1);")
    previous = catalogue.use(root)
    yield root
    catalogue.restore(previous)


def test_a_new_language_is_catalogue_files_alone(with_french: Path) -> None:
    assert "fr" in catalogue.catalogues().languages
    eng = get_engine("rey_hierofante")
    state = eng.setup(2, {}, seed=3)
    while state.phase == "choose_starter" or state.phase == "draft":  # reach the first placement
        seat = next(iter(eng.pending(state)))
        state, _ = eng.apply(state, seat, eng.legal_actions(state, seat)[0])
    seat, prompt = next(iter(eng.pending(state).items()))
    assert prompt.text.get("fr-FR") == "Placez le Citoyen sur n'importe quelle case."
    assert prompt.text.get("fr") == "Placez le Citoyen sur n'importe quelle case."
    # the first placement's event, French words filled with French names
    place = next(a for a in eng.legal_actions(state, seat))
    state, events = eng.apply(state, seat, place)
    said = events[0].text.get("fr")
    assert said.startswith("Joueur ") and " pose " in said and " en " in said
    # the platform gives the player's name as the seat's value, in French too
    assert events[0].text.get("fr", lambda seat: "Ana").startswith("Ana (")
    # and still recognises the seat in French words a game stored before that
    assert seat_words().sub("Ana", said).startswith("Ana (")
    # a text French does not translate yet reads in English, never as an id or blank
    assert Phrases("rey_hierofante")("Royalty").get("fr") == "Royalty"
    # French's own plural rule: 0 and 1 are singular
    book = Phrases("rey_hierofante")
    assert [book.n(k, "{n} tile", "{n} tiles").get("fr") for k in (0, 1, 2)] == ["0 tuile", "1 tuile", "2 tuiles"]
    assert [book.n(k, "{n} tile", "{n} tiles").get("en") for k in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]
    # Spanish and English are untouched
    assert prompt.text.get("es") == "Coloca el Ciudadano en cualquier casilla."
    assert prompt.text.get("en") == "Place the Citizen on any square."


def test_a_wrong_translation_is_reported_and_never_crashes(tmp_path: Path) -> None:
    root = tmp_path / "locale"
    shutil.copytree(catalogue.LOCALE_DIR, root)
    _write(root, "fr", "rey_hierofante", {
        "Hierophant": "",  # not translated
        "{seat} places {tile} at {sq}.": "{joueur} pose {tile} en {sq}.",  # a value the code does not give
    }, "nplurals=2; plural=(n > 1);")
    previous = catalogue.use(root)
    try:
        found = [p for p in problems(scan(), ["fr"]) if "rey_hierofante" in p]
        assert any("'Hierophant' is not translated" in p for p in found)
        assert any("fills in ['joueur', 'sq', 'tile']" in p for p in found)
        text = Phrases("rey_hierofante")("{seat} places {tile} at {sq}.", seat="A", tile="B", sq="C")
        assert text.get("fr") == "A places B at C."
    finally:
        catalogue.restore(previous)


def test_texts_travel_as_json_and_render_in_each_language() -> None:
    book = Phrases("rey_hierofante")
    text = book("{seat} places {tile} at {sq}.", seat=book("{seat} ({faction})", seat=seat_name(0),
                faction=book("Royalty")), tile=book("Hierophant"), sq="B2")
    again = Text.model_validate_json(text.model_dump_json())
    assert again == text
    assert again.get("es") == "Jugador 1 (Realeza) coloca Hierofante en B2."
    assert again.get("en-GB") == "Player 1 (Royalty) places Hierophant at B2."
    # lists are joined the way each language joins them
    many = book("{tiles}", tiles=[book("King"), book("Queen"), book("Hierophant")])
    assert many.get("es") == "Rey, Reina y Hierofante"
    assert many.get("en") == "King, Queen, and Hierophant"
    # numbers stay numbers until the template formats them
    assert book("{delta:+d} ({share:.1f})", delta=3, share=0.25).get("es") == "+3 (0.2)"


def test_texts_stored_before_the_catalogues_still_read() -> None:
    old = Text.model_validate({"es": "Ana coloca el Rey.", "en": "Ana places the King."})
    assert old.get("es-ES") == "Ana coloca el Rey." and old.get("en-US") == "Ana places the King."
    assert old.get("fr") == "Ana places the King."
    assert Text.model_validate_json(old.model_dump_json()) == old
    assert tr("a", "b").es == "a"
    err = RuleError("uno", "one")
    assert err.message("es") == "uno" and str(err) == "one"
    refused = IllegalAction(Phrases("rey_hierofante")("Choose a neutral tile for your area."))
    assert refused.message("es") == "Elige una loseta neutral para tu zona."
