"""Ankh-Morpork's names and sentences come from its catalogue: the same words in Spanish
and English as the game has always written, chosen when a text is shown."""

from __future__ import annotations

from rules.ankh_morpork import scoring
from rules.ankh_morpork.board import AREAS, area_by_name
from rules.ankh_morpork.cards import CARDS, card_text
from rules.ankh_morpork.events import EVENTS
from rules.ankh_morpork.personalities import PERSONALITIES
from rules.ankh_morpork.text import cards_names, piece_name
from rules.core import IllegalAction, Text
from tests.rules.am_helpers import E, position


def test_names_read_in_each_language() -> None:
    assert (CARDS["death"].name.get("es"), CARDS["death"].name.get("en")) == ("La Muerte", "Death")
    # a card the Spanish rulebook does not name keeps its English name in Spanish
    assert CARDS["rincewind"].name.get("es") == CARDS["rincewind"].name.get("en") == "Rincewind"
    assert AREAS[0].name.get("es") == "Hermanas Dolly" and AREAS[0].name.get("en-GB") == "Dolly Sisters"
    assert EVENTS["fog"].name.get("es") == "Niebla"
    assert PERSONALITIES["vimes"].name.get("es") == "Comandante Vimes"
    assert PERSONALITIES["vimes"].text.get("en").startswith("You win if the deck runs out")
    # an area is found by its name in either language
    assert area_by_name("hermanas dolly") == area_by_name("Dolly Sisters") == 0
    assert piece_name(2).get("es") == "un secuaz de Jugador 3"


def test_a_cards_line_is_its_symbols_then_its_text() -> None:
    line = card_text("agony_aunts")
    assert (line.get("es"), line.get("en")) == ("asesinato · 2 $ · secuaz", "assassinate · $2 · minion")
    loan = card_text("mr_bent")
    assert loan.get("es").startswith("pergamino · otra carta. Préstamo: toma 10 $ del banco")
    assert card_text("peeled_nuts").get("es") == "sin símbolos"
    assert card_text("gaspode").get("en").startswith("Interrupt: stop another player")


def test_lists_of_cards_are_joined_the_way_each_language_joins_them() -> None:
    names = cards_names(["death", "rincewind", "groat"])
    assert names.get("es") == "La Muerte, Rincewind y Groat"
    assert names.get("en") == "Death, Rincewind, and Groat"
    assert cards_names([]).get("es") == "-"


def test_the_end_says_win_or_wins_as_many_players_share_it() -> None:
    st = position(3, personalities=["vetinari", "rust", "selachii"])
    st.finished, st.end_reason, st.winners, st.scores = True, "deck", [0, 2], [30, 12, 30]
    two = scoring.end_text(st)
    assert two.get("es") == ("se acabó el mazo; ganan por puntos Jugador 1 y Jugador 3 "
                             "(puntos: Jugador 1 30, Jugador 2 12, Jugador 3 30).")
    assert two.get("en") == ("the deck ran out; Player 1 and Player 3 win on points "
                             "(points: Player 1 30, Player 2 12, Player 3 30).")
    st.end_reason, st.winners = "riots", [1]
    assert scoring.end_text(st).get("es").startswith("hubo disturbios; gana por puntos Jugador 2 ")
    assert scoring.end_text(st).get("en").startswith("riots broke out; Player 2 wins on points ")


def test_a_refusal_names_what_is_asked_and_what_may_be_done() -> None:
    st = position(2, hands={0: ["groat"], 1: ["dwarves"]}, money=[10, 10])
    (seat,) = E.pending(st)
    try:
        E.apply(st, seat, {"kind": "play", "card": "dwarves"})
    except IllegalAction as refused:
        text = refused.text
    else:
        raise AssertionError("playing a card from another hand was accepted")
    assert isinstance(text, Text)
    assert text.get("es").startswith("Eso no se puede hacer ahora. Tu turno: juega una carta")
    assert "Puedes: Jugar Groat" in text.get("es")
    assert text.get("en").startswith("That cannot be done now. Your turn: play a card")
    # what reaches the store is the wording and its values, rendered again when read
    again = Text.model_validate_json(text.model_dump_json())
    assert again.get("es") == text.get("es") and again.get("en") == text.get("en")
