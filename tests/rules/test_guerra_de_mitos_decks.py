"""Guerra de Mitos decks: every construction rule, share codes, plain lists, ready decks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import catalogue
from rules.core import RuleError
from rules.guerra_de_mitos.card_search import by_name
from rules.guerra_de_mitos.cards import MYTHOLOGIES, cards
from rules.guerra_de_mitos.decks import (
    DESIGN_DECK_MIN,
    GOD_DECK_MIN,
    Deck,
    DeckFormatError,
    IllegalDeck,
    can_add,
    deck_cards,
    export_code,
    export_list,
    import_code,
    import_list,
    is_legal,
    ready_decks,
    require_legal,
    validate,
)

C = cards()


def cid(name: str) -> str:
    """A card's id from its name."""
    c = by_name(name)
    assert c is not None, name
    return c.id


def legal_greek() -> Deck:
    """A legal Greek deck: 20 god-deck cards and 30 design-deck cards, nothing else."""
    god = {
        cid(n): k
        for n, k in [
            ("Zeus", 1),
            ("Poseidón", 1),
            ("Apolo", 1),
            ("Atenea", 1),
            ("Minotauro", 2),
            ("Ulises", 2),
            ("Perseo", 2),
            ("Teseo", 2),
            ("Heracles", 2),
            ("Pitia", 1),
            ("Oráculo de Delfos", 1),
            ("Laberinto de Creta", 2),
            ("Hinamatsuri", 2),
        ]
    }
    design = {
        cid(n): k
        for n, k in [
            ("Tridente", 1),
            ("Pegaso", 2),
            ("Arco de ítaca", 2),
            ("Hacha", 2),
            ("Euterpe", 1),
            ("Clío", 1),
            ("Reforzar líneas", 2),
            ("Adrenalina", 2),
            ("Paz impuesta", 2),
            ("Curación milagrosa", 2),
            ("Expulsión", 2),
            ("Ankh", 2),
            ("Golpe mortal", 2),
            ("Muralla de Atenas", 2),
            ("Cabeza de Medusa", 2),
            ("El caballo de Troya", 1),
            ("Mariposa y guerrero", 1),
            ("Incendio", 1),
        ]
    }
    return Deck(pantheon=cid("Olimpo"), god=god, design=design)


def rules_of(deck: Deck) -> list[str]:
    """The rules a deck breaks, by name."""
    return [p.rule for p in validate(deck)]


def test_a_legal_deck_passes() -> None:
    deck = legal_greek()
    assert deck.size() == (GOD_DECK_MIN, DESIGN_DECK_MIN)
    assert validate(deck) == [] and is_legal(deck)
    require_legal(deck)


def test_the_pantheon_is_required_and_must_be_a_pantheon() -> None:
    deck = legal_greek().model_copy(update={"pantheon": None})
    assert rules_of(deck) == ["pantheon_missing"]
    deck = legal_greek().model_copy(update={"pantheon": cid("Zeus")})
    assert rules_of(deck) == ["pantheon_not_pantheon"]
    deck = legal_greek().model_copy(update={"pantheon": "0999"})
    assert rules_of(deck) == ["unknown_card"]


def test_god_deck_needs_twenty_cards() -> None:
    deck = legal_greek().with_card(cid("Heracles"), -2)
    (problem,) = validate(deck)
    assert problem.rule == "god_deck_size"
    assert "18" in problem.text.es and "añade al menos 2" in problem.text.es
    assert "add at least 2" in problem.text.en


def test_design_deck_needs_thirty_cards() -> None:
    deck = legal_greek().with_card(cid("Incendio"), -1)
    (problem,) = validate(deck)
    assert problem.rule == "design_deck_size" and "add at least 1 more" in problem.text.en


def test_each_card_goes_in_its_own_deck() -> None:
    base = legal_greek()
    deck = base.model_copy(update={"god": {**base.god, cid("Hacha"): 1}})
    assert "wrong_deck" in rules_of(deck)
    (p,) = [p for p in validate(deck) if p.rule == "wrong_deck"]
    assert p.card_id == cid("Hacha") and "mazo de designios" in p.text.es
    deck = base.model_copy(update={"design": {**base.design, cid("Asgard"): 1}})
    assert "wrong_deck" in rules_of(deck)
    deck = base.model_copy(update={"design": {**base.design, "0999": 1}})
    assert "unknown_card" in rules_of(deck)


def test_at_most_two_copies() -> None:
    deck = legal_greek().with_card(cid("Hacha"))
    assert rules_of(deck) == ["copies"]
    (p,) = validate(deck)
    assert p.text.es == "Hacha: como mucho 2 copias de una carta; quita 1."
    assert p.text.en == "Axe: at most 2 copies of a card; remove 1."


def test_one_copy_of_a_god() -> None:
    deck = legal_greek().with_card(cid("Zeus"))
    (p,) = validate(deck)
    assert p.rule == "one_copy"
    assert p.text.es == "Zeus: solo una copia de un dios; quita 1."
    assert p.text.en == "Zeus: only one copy of a god; remove 1."


def test_thor_one_copy_of_a_god() -> None:
    nordic = ready_decks()["nordica"].deck.with_card(cid("Thor"))
    (p,) = validate(nordic)
    assert (p.text.es, p.text.en) == (
        "Thor: solo una copia de un dios; quita 1.",
        "Thor: only one copy of a god; remove 1.",
    )


def test_one_copy_of_a_unique_card() -> None:
    deck = legal_greek().with_card(cid("Tridente"))
    (p,) = validate(deck)
    assert p.rule == "one_copy" and "única" in p.text.es and "unique" in p.text.en
    # Every invocation is unique.
    assert rules_of(legal_greek().with_card(cid("Euterpe"))) == ["one_copy"]
    # Unique events too.
    deck = legal_greek().with_card(cid("La caída de Innsmouth"), 2)
    assert rules_of(deck) == ["one_copy"]


def test_at_most_two_battle_cards() -> None:
    deck = legal_greek().with_card(cid("Nyar llama a su puerta"))
    (p,) = validate(deck)
    assert p.rule == "battle_limit" and "3" in p.text.es and "Battle" in p.text.en
    # Two copies of one Batalla card count as two.
    deck = legal_greek().with_card(cid("El caballo de Troya"))
    assert rules_of(deck) == ["battle_limit"]


def test_no_card_keyed_to_another_mythology() -> None:
    deck = legal_greek().with_card(cid("Mjolnir"))
    (p,) = validate(deck)
    assert p.rule == "other_mythology" and p.card_id == cid("Mjolnir")
    assert "Nórdica" in p.text.es and "Griega" in p.text.es
    # A Neutral pantheon allows no mythology's keyed cards.
    neutral = legal_greek().model_copy(update={"pantheon": cid("Inframundo")})
    keyed = {p.card_id for p in validate(neutral)}
    assert rules_of(neutral) == ["other_mythology", "other_mythology"]
    assert keyed == {cid("Tridente"), cid("Oráculo de Delfos")}


def test_characters_of_another_mythology_are_allowed() -> None:
    # Only a mythology key forbids a card; another affiliation costs 1P when put into play.
    deck = legal_greek().with_card(cid("Odín")).with_card(cid("Ra"))
    assert validate(deck) == []
    # Ojo de Ra carries no mythology key: any pantheon may use it.
    assert validate(legal_greek().with_card(cid("Ojo de Ra"))) == []


def test_every_broken_rule_is_reported_at_once() -> None:
    deck = Deck(pantheon=None, god={cid("Zeus"): 2}, design={cid("Hacha"): 3})
    assert sorted(rules_of(deck)) == sorted(
        ["pantheon_missing", "god_deck_size", "design_deck_size", "one_copy", "copies"]
    )
    with pytest.raises(IllegalDeck) as info:
        require_legal(deck)
    assert len(info.value.problems) == 5
    assert "Zeus" in info.value.message("es") and "legal" in info.value.message("en")


def test_deck_model_refuses_bad_counts() -> None:
    with pytest.raises(ValueError):
        Deck(pantheon=None, god={cid("Zeus"): 0})


def test_with_card_adds_to_the_right_deck_and_removes() -> None:
    deck = Deck().with_card(cid("Hacha")).with_card(cid("Zeus")).with_card(cid("Olimpo"))
    assert deck.design == {cid("Hacha"): 1} and deck.god == {cid("Zeus"): 1}
    assert deck.pantheon == cid("Olimpo")
    deck = deck.with_card(cid("Hacha"), -1).with_card(cid("Olimpo"), -1)
    assert deck.design == {} and deck.pantheon is None
    assert [c.name for c in deck_cards(legal_greek())].count("Hacha") == 2


def test_can_add_filters_what_may_legally_go_in() -> None:
    deck = legal_greek()
    assert not can_add(deck, cid("Zeus"))  # a god already there
    assert not can_add(deck, cid("Hacha"))  # two copies already
    assert not can_add(deck, cid("Mjolnir"))  # Norse key under a Greek pantheon
    assert not can_add(deck, cid("Nyar llama a su puerta"))  # two Batalla already
    assert can_add(deck, cid("Hades")) and can_add(deck, cid("Incendio"))
    assert can_add(Deck(), cid("Hacha")) and not can_add(Deck(), "0999")


# ----------------------------------------------------------------------------- ready decks


def test_six_ready_decks_one_per_mythology_all_legal() -> None:
    decks = ready_decks()
    assert sorted(d.mythology for d in decks.values()) == sorted(MYTHOLOGIES)
    for rd in decks.values():
        assert validate(rd.deck) == [], rd.id
        assert C[rd.deck.pantheon].mythology == rd.mythology
        assert rd.display_name("es") and rd.display_name("en")


def test_ready_decks_are_built_to_play() -> None:
    for rd in ready_decks().values():
        deck = rd.deck
        chars = [c for c in deck_cards(deck) if c.type == "character"]
        # Characters of the deck's own mythology (no affiliation penalty), enough to fight.
        assert len(chars) >= 15 and all(c.mythology == rd.mythology for c in chars)
        costs = sorted(c.cost or 0 for c in chars)
        assert sum(1 for x in costs if x <= 2) >= 3  # cheap characters for the first turns
        assert sum(1 for x in costs if x >= 6) >= 3  # gods to grow into
        gods = [c for c in chars if c.is_god]
        assert len(gods) >= 4
        # Every invocation has a summoner to carry it.
        if any(c.type == "invocation" for c in deck_cards(deck)):
            assert any("Invocador" in c.keys for c in chars), rd.id
        assert sum(1 for c in deck_cards(deck) if c.type == "resource") >= 4


@pytest.mark.parametrize(
    "deck_id", ["japonesa", "nordica", "griega", "azteca", "egipcia", "primigenia"]
)
def test_ready_decks_round_trip(deck_id: str) -> None:
    deck = ready_decks()[deck_id].deck
    code = export_code(deck)
    assert import_code(code) == deck
    assert import_code(code.lower()) == deck
    assert import_code(" ".join(code[i : i + 5] for i in range(0, len(code), 5))) == deck
    assert len(code) <= 64
    for locale in ("es", "en"):
        assert import_list(export_list(deck, locale)) == deck


# ----------------------------------------------------------------------------- random decks


@st.composite
def legal_decks(draw: st.DrawFn) -> Deck:
    """A random legal deck for a random pantheon."""
    pantheons = [c for c in C.values() if c.type == "pantheon"]
    pantheon = draw(st.sampled_from(pantheons))
    allowed = [
        c
        for c in C.values()
        if c.type != "pantheon" and (c.keyed_to is None or c.keyed_to == pantheon.mythology)
    ]
    god: dict[str, int] = {}
    design: dict[str, int] = {}
    battle = 0
    order = draw(st.permutations(allowed))
    for c in order:
        part = god if c.deck == "god" else design
        need = GOD_DECK_MIN if c.deck == "god" else DESIGN_DECK_MIN
        if sum(part.values()) >= need + draw(st.integers(0, 3)):
            continue
        n = 1 if (c.is_god or c.is_unique) else draw(st.integers(1, 2))
        if c.is_battle:
            if battle + n > 2:
                continue
            battle += n
        part[c.id] = n
    return Deck(pantheon=pantheon.id, god=god, design=design)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_decks())
def test_random_legal_decks_round_trip(deck: Deck) -> None:
    assert validate(deck) == []
    assert import_code(export_code(deck)) == deck
    assert import_list(export_list(deck, "es")) == deck
    assert import_list(export_list(deck, "en")) == deck


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(sorted(c for c in C if C[c].type != "pantheon")),
        st.integers(1, 40),
        max_size=80,
    ),
    st.sampled_from([None, *sorted(c for c in C if C[c].type == "pantheon")]),
)
def test_any_deck_of_real_cards_round_trips_through_the_code(
    counts: dict[str, int], pantheon: str | None
) -> None:
    # Incomplete or illegal decks can be shared too (a deck is saved while being built).
    deck = Deck.from_counts(pantheon, counts)
    assert import_code(export_code(deck)) == deck


def test_every_single_mistyped_character_is_caught() -> None:
    # Every one-character substitution of every ready deck's code (about 10,000 codes).
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    for rd in ready_decks().values():
        code = export_code(rd.deck)
        for i, old in enumerate(code):
            for new in alphabet:
                if new != old:
                    with pytest.raises(DeckFormatError):
                        import_code(code[:i] + new + code[i + 1 :])


# ----------------------------------------------------------------------------- malformed input


@pytest.mark.parametrize(
    "code",
    [
        "",
        "   ",
        "hola!",
        "GDM",
        "4S0K06DFTXF9AX",
        "UUUUUUUUUU",
        "4S0K06DFTXF9AXARJGEZB0QFGHAJGPKRJH26888V8B8AAGWGCM6F",
    ],
)
def test_malformed_codes_get_a_clear_error(code: str) -> None:
    with pytest.raises(DeckFormatError) as info:
        import_code(code)
    assert "código" in info.value.message("es") or "código" in info.value.message("es-ES")
    assert "code" in info.value.message("en")
    assert isinstance(info.value, RuleError)


def test_code_dropping_a_character_is_caught() -> None:
    code = export_code(ready_decks()["azteca"].deck)
    for i in range(len(code)):
        with pytest.raises(DeckFormatError):
            import_code(code[:i] + code[i + 1 :])


def test_list_formats_accepted() -> None:
    text = """
    // my deck
    Pantheon: Olympus
    2 Hacha
    2x Axe
    Pegaso x2
    - 1 ZEUS
    * tridente
    """
    deck = import_list(text)
    assert deck.pantheon == cid("Olimpo")
    assert deck.design == {cid("Hacha"): 4, cid("Pegaso"): 2, cid("Tridente"): 1}
    assert deck.god == {cid("Zeus"): 1}
    assert rules_of(deck).count("copies") == 1  # reading a list does not judge it
    assert import_list("Yomi\n1 Hacha").pantheon == cid("Yomi")


def test_malformed_lists_get_a_clear_error_naming_every_line() -> None:
    with pytest.raises(DeckFormatError) as info:
        import_list("2 Hachaa\n1 Zeus\nPanteón: Zeus\n0 Hacha\n1 Yomi\n1 Asgard")
    es, en = info.value.message("es"), info.value.message("en")
    assert "línea 1" in es and "Hachaa" in es and "Hacha" in es  # a suggestion
    assert "line 3" in en and "not a pantheon" in en
    assert "line 4" in en and "copies" in en
    assert "line 6" in en and "single pantheon" in en
    assert "line 2" not in en
    with pytest.raises(DeckFormatError):
        import_list("")
    with pytest.raises(DeckFormatError):
        import_list("# only a comment\n\n")


def test_unknown_cards_cannot_be_shared_or_imported() -> None:
    with pytest.raises(DeckFormatError):
        Deck.from_counts(None, {"0999": 1})
    with pytest.raises(DeckFormatError):
        export_code(Deck(pantheon=None, god={"0999": 1}))


def test_summary_counts_types_curves_and_affiliations() -> None:
    from rules.guerra_de_mitos.decks import summary

    s = summary(legal_greek())
    assert (s.god_size, s.design_size, s.legal) == (20, 30, True)
    assert s.by_type == {
        "action": 21,
        "character": 15,
        "equipment": 7,
        "event": 2,
        "invocation": 2,
        "resource": 3,
    }
    assert sum(s.god_curve.values()) == 18  # events have no cost
    assert s.god_curve[8] == 1 and s.god_curve[1] == 4  # Zeus; Heracles x2 and Laberinto x2
    assert sum(s.design_curve.values()) == 30
    assert s.gods == 4 and s.battle == 2
    assert s.affiliations == {"Griega": 15}
    mixed = summary(legal_greek().with_card(cid("Odín")).with_card(cid("Grim'a'gor")))
    assert mixed.affiliations == {"Griega": 15, "Neutral": 1, "Nórdica": 1}
    assert not summary(Deck()).legal


def test_problems_name_the_type_with_its_article_and_count_one_card_as_one() -> None:
    base = legal_greek()
    deck = base.model_copy(update={"god": {**base.god, cid("Reforzar líneas"): 1}})
    (p,) = [p for p in validate(deck) if p.rule == "wrong_deck"]
    assert p.text.es == (
        "Reforzar líneas: es una acción y no va en el mazo de dioses; pásala al mazo de designios."
    )
    assert p.text.en == (
        "Reinforce the Lines: it is an action and does not go in the god deck; move it to the design deck."
    )
    deck = base.model_copy(update={"design": {**base.design, cid("Asgard"): 1}})
    (p,) = [p for p in validate(deck) if p.rule == "wrong_deck"]
    assert p.text.es.endswith(": es un panteón y no va en el mazo de designios; pásala al sitio del panteón.")
    one = Deck(pantheon=cid("Olimpo"), god={cid("Zeus"): 1}, design={cid("Hacha"): 1})
    sizes = {p.rule: p.text for p in validate(one)}
    assert sizes["god_deck_size"].es.startswith("El mazo de dioses tiene 1 carta: añade al menos 19 ")
    assert sizes["design_deck_size"].en.startswith("The design deck has 1 card: add at least 29 more ")
    assert validate(Deck(pantheon=cid("Olimpo")))[0].text.en.startswith("The god deck has 0 cards:")


def test_deck_texts_read_in_a_new_language(tmp_path: Path) -> None:
    root = tmp_path / "locale"
    shutil.copytree(catalogue.LOCALE_DIR, root)
    fr = Catalog(locale="fr", domain="guerra_de_mitos", fuzzy=False)
    fr.add("Axe", "Hache", context="card name")
    fr.add("{card}: at most {most} copies of a card; remove {extra}.",
           "{card} : {most} exemplaires au plus ; retirez-en {extra}.")
    fr.add("The deck is not legal: {problems}", "Le deck n'est pas légal : {problems}")
    fr.add("Heroes of Olympus", "Héros de l'Olympe", context="ready deck")
    catalogue.save(root, "fr", "guerra_de_mitos", fr)
    previous = catalogue.use(root)
    try:
        deck = legal_greek().with_card(cid("Hacha"), 1)
        with pytest.raises(IllegalDeck) as info:
            require_legal(deck)
        assert info.value.message("fr") == "Le deck n'est pas légal : Hache : 2 exemplaires au plus ; retirez-en 1."
        assert info.value.message("es") == "El mazo no es legal: Hacha: como mucho 2 copias de una carta; quita 1."
        greek = next(rd for rd in ready_decks().values() if rd.mythology == "Griega")
        assert greek.display_name("fr-FR") == "Héros de l'Olympe"
    finally:
        catalogue.restore(previous)
