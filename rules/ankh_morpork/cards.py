"""The 101 player cards: symbols in printed order and scroll effects, in the project's own words.

Names are the Spanish edition's where the Spanish rulebook gives them; otherwise the
English name serves both languages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Symbol = Literal[
    "minion", "building", "assassinate", "trouble", "money", "scroll", "event", "another",
    "interrupt",
]


@dataclass(frozen=True)
class Card:
    """One player card."""

    id: str
    es: str
    en: str
    border: Literal["green", "brown"]
    symbols: tuple[Symbol, ...]
    money: int = 0  # the amount in the "take money" symbol
    scroll: str = ""  # id of the scroll effect (see SCROLLS)


@dataclass(frozen=True)
class ScrollText:
    """What a scroll does, in both languages."""

    es: str
    en: str


SCROLLS: dict[str, ScrollText] = {
    "loan": ScrollText("Préstamo: toma 10 $ del banco y deja esta carta delante de ti; al final devuelves 12 $ o pierdes 15 puntos.",
                       "Loan: take $10 from the bank and keep this card in front of you; at the end repay $12 or lose 15 points."),
    "two_cards": ScrollText("Elige a un jugador: te da dos cartas de su mano, las que él quiera.",
                            "Pick a player: they hand you two cards of their choice."),
    "card_or_dollar": ScrollText("Cada uno de los demás te da 1 $ o una carta, a su elección.",
                                 "Every other player gives you $1 or a card, as they choose."),
    "card_for_two": ScrollText("Dale una de tus cartas a un jugador; él te paga 2 $ a cambio.",
                               "Give one of your cards to a player; they pay you $2 for it."),
    "steal_two_each": ScrollText("Quita 2 $ a cada uno de los demás (lo que tengan, si no llegan).",
                                 "Take $2 from every other player (what they have, if less)."),
    "hand_penalty": ScrollText("Elige a otro jugador: o te paga 5 $ o se queda esta carta delante, ocupando un hueco de su mano para siempre.",
                               "Pick another player: they pay you $5 or this card sits in front of them for good, taking one place in their hand."),
    "swap_personality": ScrollText("Puedes cambiar tu personalidad por una al azar de las que no se usan.",
                                   "You may swap your personality for a random unused one."),
    "draw2": ScrollText("Roba dos cartas del mazo.", "Draw two cards from the deck."),
    "draw3": ScrollText("Roba tres cartas del mazo.", "Draw three cards from the deck."),
    "draw4": ScrollText("Roba cuatro cartas del mazo.", "Draw four cards from the deck."),
    "flee_trouble": ScrollText("Lleva un secuaz tuyo de una zona con problema a una zona vecina.",
                               "Move one of your minions out of an area with trouble into a neighbouring area."),
    "pay_per_trouble": ScrollText("Cobra 1 $ por cada problema que haya en el tablero.",
                                  "Collect $1 for each trouble marker on the board."),
    "sell_cards1": ScrollText("Descarta las cartas que quieras y cobra 1 $ por cada una.",
                              "Discard any number of cards and collect $1 for each."),
    "sell_cards2": ScrollText("Descarta las cartas que quieras y cobra 2 $ por cada una.",
                              "Discard any number of cards and collect $2 for each."),
    "discard_one": ScrollText("Descarta una carta.", "Discard a card."),
    "steal_three": ScrollText("Quita 3 $ al jugador que elijas.", "Take $3 from a player of your choice."),
    "isle_crowd": ScrollText("Cobra 1 $ por cada secuaz que haya en la Isla de los Dioses.",
                             "Collect $1 for each minion in the Isle of Gods."),
    "gamble_steal": ScrollText("Tira el dado: con 7 o más quitas 3 $ a quien elijas; con 1 retiras un secuaz tuyo.",
                               "Roll the die: 7 or more, take $3 from a player you choose; a 1, remove one of your minions."),
    "monks": ScrollText("Baraja los descartes, toma cuatro al azar y deja el resto como pila de descartes.",
                        "Shuffle the discard pile, take four cards at random and leave the rest as the discard pile."),
    "shove": ScrollText("Lleva un secuaz de otro jugador a una zona vecina.",
                        "Move another player's minion into a neighbouring area."),
    "fire_brigade": ScrollText("Elige a un jugador: si no te paga 5 $, puedes quitarle un edificio.",
                               "Pick a player: unless they pay you $5, you may remove one of their buildings."),
    "business_plan": ScrollText("Tira el dado: con 7 o más cobras 4 $ del banco; con 1 pagas 2 $ al banco o retiras un secuaz tuyo.",
                                "Roll the die: 7 or more, collect $4 from the bank; a 1, pay $2 to the bank or remove one of your minions."),
    "two_cards_play": ScrollText("Juega otras dos cartas de tu mano, una tras otra.",
                                 "Play two other cards from your hand, one after the other."),
    "buy_calm": ScrollText("Sustituye el edificio de otro jugador en una zona sin problema por uno tuyo, pagándole su coste.",
                           "Replace another player's building in an area without trouble by one of yours, paying them its cost."),
    "half_price": ScrollText("Construye un edificio a mitad de precio.", "Build one building at half price."),
    "minion_at_building": ScrollText("Pon un secuaz en una zona donde tengas un edificio.",
                                     "Put a minion in an area where you have a building."),
    "near_unreal": ScrollText("Pon un secuaz en los Solares Irreales o en una zona vecina.",
                              "Put a minion in Unreal Estate or a neighbouring area."),
    "quiet_minion": ScrollText("Pon un secuaz en cualquier zona sin poner problema.",
                               "Put a minion in any area without placing a trouble marker."),
    "trouble_payday": ScrollText("Elige una zona con problema y cobra 2 $ por cada secuaz que haya en ella.",
                                 "Pick an area with trouble and collect $2 for each minion in it."),
    "minion_at_trouble": ScrollText("Pon un secuaz en una zona con problema.", "Put a minion in an area with trouble."),
    "pick_pocket": ScrollText("Toma dos cartas al azar de la mano de un jugador, quédate una y devuélvele la otra.",
                              "Take two cards at random from a player's hand, keep one and give back the other."),
    "pay_per_building": ScrollText("Cobra 1 $ por cada edificio en el tablero, de cualquier color.",
                                   "Collect $1 for each building on the board, whatever its colour."),
    "buy_troubled": ScrollText("Sustituye el edificio de otro jugador en una zona con problema por uno tuyo, pagándole su coste.",
                               "Replace another player's building in an area with trouble by one of yours, paying them its cost."),
    "spread_trouble": ScrollText("Pon un problema en una zona vecina de otra que ya tenga problema.",
                                 "Put a trouble marker in an area next to one that already has trouble."),
    "hit_or_miss": ScrollText("Tira el dado: con 7 o más retiras el secuaz que quieras de una zona con problema; con 1 retiras uno tuyo.",
                              "Roll the die: 7 or more, remove a minion of your choice from an area with trouble; a 1, remove one of yours."),
    "draw_per_building": ScrollText("Roba una carta por cada edificio tuyo en el tablero.",
                                    "Draw one card for each of your buildings on the board."),
    "place_trouble": ScrollText("Pon un problema en la zona que elijas.", "Put a trouble marker in the area of your choice."),
    "ride_anywhere": ScrollText("Paga 2 $ a un jugador y lleva un secuaz tuyo a cualquier zona.",
                                "Pay $2 to a player, then move one of your minions to any area."),
    "force_pay": ScrollText("Obliga a un jugador a dar 3 $ a otro (tú no puedes ser ninguno de los dos).",
                            "Make one player give another $3 (you may be neither of them)."),
    "move_anywhere": ScrollText("Lleva un secuaz tuyo a cualquier otra zona.", "Move one of your minions to any other area."),
    "clear_unreal": ScrollText("Retira un secuaz de los Solares Irreales.", "Remove one minion from Unreal Estate."),
    "swap_minions": ScrollText("Intercambia de sitio dos secuaces cualesquiera del tablero.",
                               "Swap the places of any two minions on the board."),
    "spy_hand": ScrollText("Mira la mano de un jugador y elige una carta que descarta.",
                           "Look at a player's hand and choose one card for them to discard."),
    "carcer": ScrollText("Tira el dado dos veces: retira un secuaz a tu elección de cada zona que salga, aunque no tenga problema.",
                         "Roll the die twice: remove one minion of your choice from each area rolled, trouble or not."),
    "swap_hands": ScrollText("Cambia tu mano por la de otro jugador.", "Swap your hand with another player's."),
    "alchemy": ScrollText("Descarta hasta tres cartas y rellena tu mano hasta cinco.",
                          "Discard up to three cards and refill your hand to five."),
    "audit": ScrollText("Cada uno de los demás, por turno, retira un secuaz suyo del tablero.",
                        "Every other player, in turn order, removes one of their own minions from the board."),
    "paid_hit": ScrollText("Paga 2 $ a un jugador y luego asesina un secuaz.",
                           "Pay $2 to a player, then assassinate a minion."),
    "hired_hit": ScrollText("Paga 2 $ a otro jugador: él retira un secuaz a su elección (no tuyo) de una zona con problema.",
                            "Pay another player $2: they remove a minion of their choice (not yours) from an area with trouble."),
    "peek_personalities": ScrollText("Mira todas las personalidades no usadas menos una.",
                                     "Look at all the unused personalities but one."),
}

INTERRUPT_TEXT: dict[str, ScrollText] = {
    "wallace_sonky": ScrollText("Interrupción: el texto de una carta de otro jugador no te afecta.",
                                "Interrupt: the text of another player's card does not affect you."),
    "gaspode": ScrollText("Interrupción: impide que otro jugador mueva o retire un secuaz tuyo.",
                          "Interrupt: stop another player moving or removing one of your minions."),
    "fresh_start_club": ScrollText("Interrupción: si la carta de otro jugador te quita un secuaz, ponlo en otra zona.",
                                   "Interrupt: if another player's card takes one of your minions off the board, put it in another area."),
    "susan": ScrollText("Interrupción: impide que la carta de otro jugador saque del tablero un secuaz tuyo.",
                        "Interrupt: stop another player's card taking one of your minions off the board."),
    "igor": ScrollText("Interrupción: si la carta de otro jugador te quita un secuaz, ponlo en otra zona.",
                       "Interrupt: if another player's card takes one of your minions off the board, put it in another area."),
    "mossy_lawn": ScrollText("Interrupción: acaba tu turno ahora y recupera en tu mano la carta que estabas jugando.",
                             "Interrupt: end your turn now and take the card you were playing back into your hand."),
}


def _c(id: str, es: str | None, en: str, border: str, *symbols: str, money: int = 0,
       scroll: str = "") -> Card:
    return Card(id, es or en, en, border, tuple(symbols), money, scroll)  # type: ignore[arg-type]


G, B = "green", "brown"
_ALL: list[Card] = [
    _c("mr_bent", "Señor Bent", "Mr Bent", G, "scroll", "another", scroll="loan"),
    _c("bank_of_am", "El Banco de Ankh-Morpork", "The Bank of Ankh-Morpork", G, "scroll", "another", scroll="loan"),
    _c("beggars_guild", None, "The Beggars' Guild", G, "scroll", "minion", scroll="two_cards"),
    _c("sunshine_sanctuary", None, "The Ankh-Morpork Sunshine Dragon Sanctuary", G, "scroll", "another", scroll="card_or_dollar"),
    _c("sergeant_angua", None, "Sergeant Angua", G, "trouble", "another"),
    _c("agony_aunts", None, "The Agony Aunts", G, "assassinate", "money", "minion", money=2),
    _c("seamstresses_guild", None, "The Seamstresses' Guild", G, "scroll", "minion", scroll="card_for_two"),
    _c("pin_and_tulip", None, "Mr Pin & Mr Tulip", G, "assassinate", "money", money=1),
    _c("thieves_guild", "El Gremio de Ladrones", "The Thieves' Guild", G, "scroll", "minion", scroll="steal_two_each"),
    _c("wallace_sonky", "Wallace Sonky", "Wallace Sonky", G, "interrupt"),
    _c("dr_whiteface", "Doctor Carablanca", "Dr Whiteface", G, "scroll", "minion", scroll="hand_penalty"),
    _c("zorgo", None, "Zorgo the Retro-phrenologist", G, "scroll", "building", scroll="swap_personality"),
    _c("queen_molly", None, "Queen Molly", G, "minion", "scroll", scroll="two_cards"),
    _c("royal_mint", None, "The Royal Mint", G, "building", "money", money=5),
    _c("rincewind", None, "Rincewind", G, "event", "scroll", "another", scroll="flee_trouble"),
    _c("rosie_palm", None, "Rosie Palm", G, "minion", "scroll", scroll="card_for_two"),
    _c("sacharissa", None, "Sacharissa Cripslock", G, "scroll", "minion", scroll="pay_per_trouble"),
    _c("shonky_shop", None, "Shonky Shop", G, "scroll", "building", scroll="sell_cards1"),
    _c("mended_drum", None, "The Mended Drum", G, "building", "money", money=2),
    _c("modo", None, "Modo", G, "scroll", "minion", scroll="discard_one"),
    _c("nobby_nobbs", None, "Nobby Nobbs", G, "scroll", "another", scroll="steal_three"),
    _c("opera_house", None, "The Opera House", G, "building", "scroll", scroll="isle_crowd"),
    _c("peeled_nuts", None, "The Peeled Nuts", G),
    _c("pink_pussycat", None, "Pink Pussy Cat Club", G, "money", "another", money=3),
    _c("here_n_now", None, "Here'n'Now", G, "scroll", "another", scroll="gamble_steal"),
    _c("hex", None, "Hex", G, "scroll", "building", scroll="draw3"),
    _c("history_monks", None, "History Monks", G, "scroll", "minion", scroll="monks"),
    _c("inigo_skimmer", None, "Inigo Skimmer", G, "assassinate", "money", money=2),
    _c("leonard_of_quirm", None, "Leonard of Quirm", G, "scroll", scroll="draw4"),
    _c("librarian", None, "Librarian", G, "scroll", scroll="draw4"),
    _c("gaspode", "Gaspode", "Gaspode", G, "interrupt"),
    _c("gimlets", None, "Gimlet's Dwarf Delicatessen", G, "money", "minion", money=3),
    _c("groat", None, "Groat", G, "minion"),
    _c("mr_gryle", None, "Mr Gryle", G, "assassinate", "money", money=1),
    _c("hargas", None, "Harga's House of Ribs", G, "money", "minion", money=3),
    _c("harry_king", None, "Harry King", G, "minion", "scroll", scroll="sell_cards2"),
    _c("the_duckman", None, "The Duckman", G, "scroll", scroll="shove"),
    _c("the_dysk", None, "The Dysk", G, "building", "scroll", scroll="isle_crowd"),
    _c("fire_brigade", "La Brigada de Bomberos", "The Fire Brigade", G, "scroll", "another", scroll="fire_brigade"),
    _c("fools_guild", "El Gremio de Bufones", "The Fools' Guild", G, "scroll", "minion", scroll="hand_penalty"),
    _c("foul_ole_ron", None, "Foul Ole Ron", G, "scroll", "another", scroll="shove"),
    _c("fresh_start_club", None, "Fresh Start Club", G, "interrupt"),
    _c("mr_boggis", None, "Mr Boggis", G, "scroll", "minion", scroll="steal_two_each"),
    _c("mrs_cake", None, "Mrs Cake", G, "scroll", "money", "building", money=2, scroll="peek_personalities"),
    _c("captain_carrot", None, "Captain Carrot", G, "minion", "trouble", "money", money=1),
    _c("dr_cruces", None, "Dr Cruces", G, "assassinate", "money", money=3),
    _c("cmot_dibbler", None, "CMOT Dibbler", G, "scroll", "another", scroll="business_plan"),
    _c("drumknott", "Drumknott", "Drumknott", G, "scroll", scroll="two_cards_play"),
    # ---------------------------------------------------------------- brown border
    _c("sybil_vimes", None, "Sybil Vimes", B, "money", "scroll", money=3, scroll="buy_calm"),
    _c("mr_teatime", None, "Mr Teatime", B, "money", "assassinate", "another", money=3),
    _c("the_watch", None, "The Watch", B, "building", "trouble"),
    _c("wee_mad_arthur", None, "Wee Mad Arthur", B, "scroll", scroll="half_price"),
    _c("william_de_worde", None, "William de Worde", B, "minion", "scroll", scroll="pay_per_trouble"),
    _c("willikins", None, "Willikins", B, "scroll", scroll="minion_at_building"),
    _c("senior_wrangler", None, "The Senior Wrangler", B, "event", "scroll", "another", scroll="near_unreal"),
    _c("mr_shine", None, "Mr Shine", B, "scroll", scroll="quiet_minion"),
    _c("mr_slant", None, "Mr Slant", B, "scroll", "building", scroll="trouble_payday"),
    _c("smoking_gnu", None, "The Smoking Gnu", B, "scroll", "another", scroll="minion_at_trouble"),
    _c("stanley", None, "Stanley", B, "scroll", "minion", scroll="pick_pocket"),
    _c("susan", None, "Susan", B, "interrupt"),
    _c("ponder_stibbons", "Ponder Stibbons", "Ponder Stibbons", B, "event", "scroll", scroll="two_cards_play"),
    _c("post_office", None, "The Post Office", B, "scroll", "minion", scroll="pay_per_building"),
    _c("reacher_gilt", None, "Reacher Gilt", B, "scroll", scroll="buy_troubled"),
    _c("recent_runes", None, "Professor of Recent Runes", B, "event", "scroll", "another", scroll="draw2"),
    _c("ridcully", None, "Archchancellor Ridcully", B, "event", "scroll", "scroll", scroll="near_unreal"),
    _c("ruby", None, "Ruby", B, "minion", "building"),
    _c("igor", None, "Igor", B, "interrupt"),
    _c("the_luggage", None, "The Luggage", B, "assassinate", "scroll", scroll="discard_one"),
    _c("the_mob", None, "The Mob", B, "scroll", "minion", "another", scroll="spread_trouble"),
    _c("moist_von_lipwig", None, "Moist von Lipwig", B, "minion", "money", "scroll", "another", money=3, scroll="draw2"),
    _c("mossy_lawn", None, "Doctor Mossy Lawn", B, "interrupt"),
    _c("patricians_palace", None, "Patrician's Palace", B, "building", "money", "minion", money=4),
    _c("edward_death", None, "Edward d'Eath", B, "assassinate", "money", "building", money=3),
    _c("errol", None, "Errol", B, "scroll", "another", scroll="hit_or_miss"),
    _c("gargoyles", None, "Gargoyles", B, "scroll", "building", scroll="draw_per_building"),
    _c("doctor_hix", None, "Doctor Hix", B, "event", "scroll", "another", scroll="place_trouble"),
    _c("hobsons", None, "Hobsons's Livery Stable", B, "scroll", "building", scroll="ride_anywhere"),
    _c("hubert", "Hubert", "Hubert", B, "scroll", "minion", scroll="force_pay"),
    _c("death", "La Muerte", "Death", B, "assassinate", "assassinate", "building"),
    _c("deep_dwarves", None, "Deep Dwarves", B, "scroll", "another", scroll="quiet_minion"),
    _c("sergeant_detritus", None, "Sergeant Detritus", B, "trouble", "trouble"),
    _c("dorfl", None, "Dorfl", B, "scroll", "another", scroll="move_anywhere"),
    _c("lord_downey", None, "Lord Downey", B, "assassinate", "money", "building", money=3),
    _c("dwarves", None, "Dwarves", B, "minion", "minion"),
    _c("cheery_littlebottom", None, "Sergeant Cheery Littlebottom", B, "scroll", "trouble", scroll="draw2"),
    _c("otto_chriek", None, "Otto Chriek", B, "scroll", "building", scroll="pay_per_trouble"),
    _c("the_clacks", None, "The Clacks", B, "scroll", "money", "another", money=3, scroll="draw2"),
    _c("sergeant_colon", None, "Sergeant Colon", B, "trouble", "minion"),
    _c("cosmo_lavish", "Cosmo Lavish", "Cosmo Lavish", B, "scroll", "another", scroll="hired_hit"),
    _c("the_dean", None, "The Dean", B, "event", "scroll", "another", scroll="clear_unreal"),
    _c("the_bursar", "El Tesorero", "The Bursar", B, "event", "scroll", "another", scroll="swap_minions"),
    _c("cable_street", None, "Cable Street Particulars", B, "scroll", "minion", scroll="spy_hand"),
    _c("canting_crew", None, "Canting Crew", B, "scroll", "minion", scroll="shove"),
    _c("carcer", "Carcer", "Carcer", B, "scroll", "another", scroll="carcer"),
    _c("chair_of_studies", None, "The Chair of Indefinite Studies", B, "event", "scroll", "another", scroll="swap_hands"),
    _c("charles_lavatory", None, "Sir Charles Lavatory", B, "scroll", "building", scroll="pay_per_building"),
    _c("adora_belle", None, "Adora Belle Dearheart", B, "scroll", "minion", "building", scroll="move_anywhere"),
    _c("alchemists_guild", None, "The Alchemists' Guild", B, "scroll", "building", scroll="alchemy"),
    _c("the_auditors", None, "The Auditors", B, "scroll", scroll="audit"),
    _c("buggy_swires", None, "Buggy Swires", B, "trouble"),
    _c("burleigh", None, "Burleigh & Stronginthearm", B, "scroll", "building", scroll="paid_hit"),
]
CARDS: dict[str, Card] = {c.id: c for c in _ALL}
GREEN: tuple[str, ...] = tuple(c.id for c in _ALL if c.border == "green")
BROWN: tuple[str, ...] = tuple(c.id for c in _ALL if c.border == "brown")
# Cards left out of a two-player game (rulebook, "Partidas de dos jugadores").
TWO_PLAYER_REMOVED: frozenset[str] = frozenset({"hubert", "cosmo_lavish"})
INTERRUPTS: frozenset[str] = frozenset(c.id for c in _ALL if "interrupt" in c.symbols)
# Cards that, once placed in front of a player, count toward their hand and never leave.
STUCK_CARDS: frozenset[str] = frozenset({"dr_whiteface", "fools_guild"})


def card_text(card_id: str) -> tuple[str, str]:
    """The card's symbols and text as one line in Spanish and one in English."""
    c = CARDS[card_id]
    es_sym = {"minion": "secuaz", "building": "edificio", "assassinate": "asesinato",
              "trouble": "quitar problema", "money": f"{c.money} $", "scroll": "pergamino",
              "event": "evento aleatorio", "another": "otra carta", "interrupt": "interrupción"}
    en_sym = {"minion": "minion", "building": "building", "assassinate": "assassinate",
              "trouble": "remove trouble", "money": f"${c.money}", "scroll": "scroll",
              "event": "random event", "another": "play another", "interrupt": "interrupt"}
    es = " · ".join(es_sym[s] for s in c.symbols) or "sin símbolos"
    en = " · ".join(en_sym[s] for s in c.symbols) or "no symbols"
    if c.scroll:
        es, en = f"{es}. {SCROLLS[c.scroll].es}", f"{en}. {SCROLLS[c.scroll].en}"
    elif c.id in INTERRUPT_TEXT:
        es, en = INTERRUPT_TEXT[c.id].es, INTERRUPT_TEXT[c.id].en
    return es, en
