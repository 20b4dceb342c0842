"""Rattus Cartus's texts come from its catalogue: each language says one thing or several in
its own form, joins lists its own way, and a language without a catalogue reads English."""

from __future__ import annotations

from rules.rattus_cartus.cards import BUILDINGS, KIND, NUNS, Supply, card_name, names
from rules.rattus_cartus.model import Task
from rules.rattus_cartus.scoring import finish, outcome
from tests.rules.rc_helpers import E, game
from tests.rules.test_rattus_cartus_scoring import table


def _card(cls: str, nuns: int) -> str:
    return next(c for c in NUNS if KIND[c] == cls and NUNS[c] == nuns)


def test_card_names_say_one_nun_or_several() -> None:
    one, four = _card("realeza", 1), _card("realeza", 4)
    assert card_name(one).es == "Rey (Realeza, 1 rel.)"
    assert card_name(one).en == "King (Royalty, 1 nun)"
    assert card_name(four).en == "King (Royalty, 4 nuns)"
    assert card_name(four).get("fr") == "King (Royalty, 4 nuns)"  # no French catalogue yet


def test_lists_are_joined_as_each_language_joins_them() -> None:
    hand = [_card("realeza", 0), "e00", _card("campesinado", 0)]
    assert names(hand).es == "Campesino (Campesinado, 0 rel.), Rey (Realeza, 0 rel.) y Espada"
    assert names(hand).en == "Peasant (Peasantry, 0 nuns), King (Royalty, 0 nuns), and Sword"
    assert names([]).es == "nada"
    assert Supply(draw=2, rats=1, peeks=1).text().es == "roba 2 + devuelve 1 rata + mira 1 religiosa"
    assert Supply(rats=2).text().en == "give back 2 rats"
    assert BUILDINGS["tienda"].name.es == "Tienda del Adivino"
    assert BUILDINGS["tienda"].standard_text.en == "Look at 1 card of the nun row."


def test_the_nun_row_prompt_agrees_with_the_cards_left() -> None:
    s = game(3, ["tienda-1", "granja-1"])
    s.phase = "resolve"
    for left, es, en in ((2, "te quedan 2", "(2 left)"), (1, "te queda 1", "(1 left)")):
        s.tasks = [Task(kind="peek", b=0, seat=1, n=left)]
        text = E.pending(s)[1].text
        assert es in text.es and en in text.en


def test_a_shared_win_names_every_winner_as_a_list() -> None:
    s = table(3)
    s.vp = [4, 4, 4]
    s.rats = [[3], [3], [3]]
    finish(s)
    reason = outcome(s).reason
    assert reason.es == "Jugador 1, Jugador 2 y Jugador 3 comparten la victoria con 4 PV y 3 en ratas."
    assert reason.en == "Player 1, Player 2, and Player 3 share the win with 4 VP and 3 in rats."


def test_final_scoring_keeps_each_player_apart_with_semicolons() -> None:
    s = table(2)
    s.vp = [3, 1]
    s.rats = [[5, 5, 3], [1]]
    events = finish(s)
    final = next(e for e in events if e.kind == "final")
    assert final.text.es == ("Puntuación final. Jugador 1: 3 PV, 13 en ratas (aniquilado por la "
                             "peste); Jugador 2: 1 PV, 1 en ratas.")
    assert final.text.en == ("Final scoring. Player 1: 3 VP, 13 in rats (killed by the plague); "
                             "Player 2: 1 VP, 1 in rats.")
