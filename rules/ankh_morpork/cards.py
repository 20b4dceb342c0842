"""The 101 player cards: symbols in printed order and scroll effects, in the project's own words.

Names and texts are written in English; the Spanish catalogue gives the Spanish edition's
names where the Spanish rulebook has them, and otherwise keeps the English name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.core import Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")

Symbol = Literal[
    "minion", "building", "assassinate", "trouble", "money", "scroll", "event", "another",
    "interrupt",
]


@dataclass(frozen=True)
class Card:
    """One player card."""

    id: str
    name: Text
    border: Literal["green", "brown"]
    symbols: tuple[Symbol, ...]
    money: int = 0  # the amount in the "take money" symbol
    scroll: str = ""  # id of the scroll effect (see SCROLLS)


# What each scroll does.
SCROLLS: dict[str, Text] = {
    "loan": msg("Loan: take $10 from the bank and keep this card in front of you; at the end repay $12 or lose 15 points."),
    "two_cards": msg("Pick a player: they hand you two cards of their choice."),
    "card_or_dollar": msg("Every other player gives you $1 or a card, as they choose."),
    "card_for_two": msg("Give one of your cards to a player; they pay you $2 for it."),
    "steal_two_each": msg("Take $2 from every other player (what they have, if less)."),
    "hand_penalty": msg("Pick another player: they pay you $5 or this card sits in front of them for good, taking one place in their hand."),
    "swap_personality": msg("You may swap your personality for a random unused one."),
    "draw2": msg("Draw two cards from the deck."),
    "draw3": msg("Draw three cards from the deck."),
    "draw4": msg("Draw four cards from the deck."),
    "flee_trouble": msg("Move one of your minions out of an area with trouble into a neighbouring area."),
    "pay_per_trouble": msg("Collect $1 for each trouble marker on the board."),
    "sell_cards1": msg("Discard any number of cards and collect $1 for each."),
    "sell_cards2": msg("Discard any number of cards and collect $2 for each."),
    "discard_one": msg("Discard a card."),
    "steal_three": msg("Take $3 from a player of your choice."),
    "isle_crowd": msg("Collect $1 for each minion in the Isle of Gods."),
    "gamble_steal": msg("Roll the die: 7 or more, take $3 from a player you choose; a 1, remove one of your minions."),
    "monks": msg("Shuffle the discard pile, take four cards at random and leave the rest as the discard pile."),
    "shove": msg("Move another player's minion into a neighbouring area."),
    "fire_brigade": msg("Pick a player: unless they pay you $5, you may remove one of their buildings."),
    "business_plan": msg("Roll the die: 7 or more, collect $4 from the bank; a 1, pay $2 to the bank or remove one of your minions."),
    "two_cards_play": msg("Play two other cards from your hand, one after the other."),
    "buy_calm": msg("Replace another player's building in an area without trouble by one of yours, paying them its cost."),
    "half_price": msg("Build one building at half price."),
    "minion_at_building": msg("Put a minion in an area where you have a building."),
    "near_unreal": msg("Put a minion in Unreal Estate or a neighbouring area."),
    "quiet_minion": msg("Put a minion in any area without placing a trouble marker."),
    "trouble_payday": msg("Pick an area with trouble and collect $2 for each minion in it."),
    "minion_at_trouble": msg("Put a minion in an area with trouble."),
    "pick_pocket": msg("Take two cards at random from a player's hand, keep one and give back the other."),
    "pay_per_building": msg("Collect $1 for each building on the board, whatever its colour."),
    "buy_troubled": msg("Replace another player's building in an area with trouble by one of yours, paying them its cost."),
    "spread_trouble": msg("Put a trouble marker in an area next to one that already has trouble."),
    "hit_or_miss": msg("Roll the die: 7 or more, remove a minion of your choice from an area with trouble; a 1, remove one of yours."),
    "draw_per_building": msg("Draw one card for each of your buildings on the board."),
    "place_trouble": msg("Put a trouble marker in the area of your choice."),
    "ride_anywhere": msg("Pay $2 to a player, then move one of your minions to any area."),
    "force_pay": msg("Make one player give another $3 (you may be neither of them)."),
    "move_anywhere": msg("Move one of your minions to any other area."),
    "clear_unreal": msg("Remove one minion from Unreal Estate."),
    "swap_minions": msg("Swap the places of any two minions on the board."),
    "spy_hand": msg("Look at a player's hand and choose one card for them to discard."),
    "carcer": msg("Roll the die twice: remove one minion of your choice from each area rolled, trouble or not."),
    "swap_hands": msg("Swap your hand with another player's."),
    "alchemy": msg("Discard up to three cards and refill your hand to five."),
    "audit": msg("Every other player, in turn order, removes one of their own minions from the board."),
    "paid_hit": msg("Pay $2 to a player, then assassinate a minion."),
    "hired_hit": msg("Pay another player $2: they remove a minion of their choice (not yours) from an area with trouble."),
    "peek_personalities": msg("Look at all the unused personalities but one."),
}

INTERRUPT_TEXT: dict[str, Text] = {
    "wallace_sonky": msg("Interrupt: the text of another player's card does not affect you."),
    "gaspode": msg("Interrupt: stop another player moving or removing one of your minions."),
    "fresh_start_club": msg("Interrupt: if another player's card takes one of your minions off the board, put it in another area."),
    "susan": msg("Interrupt: stop another player's card taking one of your minions off the board."),
    "igor": msg("Interrupt: if another player's card takes one of your minions off the board, put it in another area."),
    "mossy_lawn": msg("Interrupt: end your turn now and take the card you were playing back into your hand."),
}


def _c(id: str, name: Text, border: str, *symbols: str, money: int = 0, scroll: str = "") -> Card:
    return Card(id, name, border, tuple(symbols), money, scroll)  # type: ignore[arg-type]


G, B = "green", "brown"
_ALL: list[Card] = [
    _c("mr_bent", msg("Mr Bent"), G, "scroll", "another", scroll="loan"),
    _c("bank_of_am", msg("The Bank of Ankh-Morpork"), G, "scroll", "another", scroll="loan"),
    _c("beggars_guild", msg("The Beggars' Guild"), G, "scroll", "minion", scroll="two_cards"),
    _c("sunshine_sanctuary", msg("The Ankh-Morpork Sunshine Dragon Sanctuary"), G, "scroll", "another", scroll="card_or_dollar"),
    _c("sergeant_angua", msg("Sergeant Angua"), G, "trouble", "another"),
    _c("agony_aunts", msg("The Agony Aunts"), G, "assassinate", "money", "minion", money=2),
    _c("seamstresses_guild", msg("The Seamstresses' Guild"), G, "scroll", "minion", scroll="card_for_two"),
    _c("pin_and_tulip", msg("Mr Pin & Mr Tulip"), G, "assassinate", "money", money=1),
    _c("thieves_guild", msg("The Thieves' Guild"), G, "scroll", "minion", scroll="steal_two_each"),
    _c("wallace_sonky", msg("Wallace Sonky"), G, "interrupt"),
    _c("dr_whiteface", msg("Dr Whiteface"), G, "scroll", "minion", scroll="hand_penalty"),
    _c("zorgo", msg("Zorgo the Retro-phrenologist"), G, "scroll", "building", scroll="swap_personality"),
    _c("queen_molly", msg("Queen Molly"), G, "minion", "scroll", scroll="two_cards"),
    _c("royal_mint", msg("The Royal Mint"), G, "building", "money", money=5),
    _c("rincewind", msg("Rincewind"), G, "event", "scroll", "another", scroll="flee_trouble"),
    _c("rosie_palm", msg("Rosie Palm"), G, "minion", "scroll", scroll="card_for_two"),
    _c("sacharissa", msg("Sacharissa Cripslock"), G, "scroll", "minion", scroll="pay_per_trouble"),
    _c("shonky_shop", msg("Shonky Shop"), G, "scroll", "building", scroll="sell_cards1"),
    _c("mended_drum", msg("The Mended Drum"), G, "building", "money", money=2),
    _c("modo", msg("Modo"), G, "scroll", "minion", scroll="discard_one"),
    _c("nobby_nobbs", msg("Nobby Nobbs"), G, "scroll", "another", scroll="steal_three"),
    _c("opera_house", msg("The Opera House"), G, "building", "scroll", scroll="isle_crowd"),
    _c("peeled_nuts", msg("The Peeled Nuts"), G),
    _c("pink_pussycat", msg("Pink Pussy Cat Club"), G, "money", "another", money=3),
    _c("here_n_now", msg("Here'n'Now"), G, "scroll", "another", scroll="gamble_steal"),
    _c("hex", msg("Hex"), G, "scroll", "building", scroll="draw3"),
    _c("history_monks", msg("History Monks"), G, "scroll", "minion", scroll="monks"),
    _c("inigo_skimmer", msg("Inigo Skimmer"), G, "assassinate", "money", money=2),
    _c("leonard_of_quirm", msg("Leonard of Quirm"), G, "scroll", scroll="draw4"),
    _c("librarian", msg("Librarian"), G, "scroll", scroll="draw4"),
    _c("gaspode", msg("Gaspode"), G, "interrupt"),
    _c("gimlets", msg("Gimlet's Dwarf Delicatessen"), G, "money", "minion", money=3),
    _c("groat", msg("Groat"), G, "minion"),
    _c("mr_gryle", msg("Mr Gryle"), G, "assassinate", "money", money=1),
    _c("hargas", msg("Harga's House of Ribs"), G, "money", "minion", money=3),
    _c("harry_king", msg("Harry King"), G, "minion", "scroll", scroll="sell_cards2"),
    _c("the_duckman", msg("The Duckman"), G, "scroll", scroll="shove"),
    _c("the_dysk", msg("The Dysk"), G, "building", "scroll", scroll="isle_crowd"),
    _c("fire_brigade", msg("The Fire Brigade"), G, "scroll", "another", scroll="fire_brigade"),
    _c("fools_guild", msg("The Fools' Guild"), G, "scroll", "minion", scroll="hand_penalty"),
    _c("foul_ole_ron", msg("Foul Ole Ron"), G, "scroll", "another", scroll="shove"),
    _c("fresh_start_club", msg("Fresh Start Club"), G, "interrupt"),
    _c("mr_boggis", msg("Mr Boggis"), G, "scroll", "minion", scroll="steal_two_each"),
    _c("mrs_cake", msg("Mrs Cake"), G, "scroll", "money", "building", money=2, scroll="peek_personalities"),
    _c("captain_carrot", msg("Captain Carrot"), G, "minion", "trouble", "money", money=1),
    _c("dr_cruces", msg("Dr Cruces"), G, "assassinate", "money", money=3),
    _c("cmot_dibbler", msg("CMOT Dibbler"), G, "scroll", "another", scroll="business_plan"),
    _c("drumknott", msg("Drumknott"), G, "scroll", scroll="two_cards_play"),
    # ---------------------------------------------------------------- brown border
    _c("sybil_vimes", msg("Sybil Vimes"), B, "money", "scroll", money=3, scroll="buy_calm"),
    _c("mr_teatime", msg("Mr Teatime"), B, "money", "assassinate", "another", money=3),
    _c("the_watch", msg("The Watch"), B, "building", "trouble"),
    _c("wee_mad_arthur", msg("Wee Mad Arthur"), B, "scroll", scroll="half_price"),
    _c("william_de_worde", msg("William de Worde"), B, "minion", "scroll", scroll="pay_per_trouble"),
    _c("willikins", msg("Willikins"), B, "scroll", scroll="minion_at_building"),
    _c("senior_wrangler", msg("The Senior Wrangler"), B, "event", "scroll", "another", scroll="near_unreal"),
    _c("mr_shine", msg("Mr Shine"), B, "scroll", scroll="quiet_minion"),
    _c("mr_slant", msg("Mr Slant"), B, "scroll", "building", scroll="trouble_payday"),
    _c("smoking_gnu", msg("The Smoking Gnu"), B, "scroll", "another", scroll="minion_at_trouble"),
    _c("stanley", msg("Stanley"), B, "scroll", "minion", scroll="pick_pocket"),
    _c("susan", msg("Susan"), B, "interrupt"),
    _c("ponder_stibbons", msg("Ponder Stibbons"), B, "event", "scroll", scroll="two_cards_play"),
    _c("post_office", msg("The Post Office"), B, "scroll", "minion", scroll="pay_per_building"),
    _c("reacher_gilt", msg("Reacher Gilt"), B, "scroll", scroll="buy_troubled"),
    _c("recent_runes", msg("Professor of Recent Runes"), B, "event", "scroll", "another", scroll="draw2"),
    _c("ridcully", msg("Archchancellor Ridcully"), B, "event", "scroll", "scroll", scroll="near_unreal"),
    _c("ruby", msg("Ruby"), B, "minion", "building"),
    _c("igor", msg("Igor"), B, "interrupt"),
    _c("the_luggage", msg("The Luggage"), B, "assassinate", "scroll", scroll="discard_one"),
    _c("the_mob", msg("The Mob"), B, "scroll", "minion", "another", scroll="spread_trouble"),
    _c("moist_von_lipwig", msg("Moist von Lipwig"), B, "minion", "money", "scroll", "another", money=3, scroll="draw2"),
    _c("mossy_lawn", msg("Doctor Mossy Lawn"), B, "interrupt"),
    _c("patricians_palace", msg("Patrician's Palace"), B, "building", "money", "minion", money=4),
    _c("edward_death", msg("Edward d'Eath"), B, "assassinate", "money", "building", money=3),
    _c("errol", msg("Errol"), B, "scroll", "another", scroll="hit_or_miss"),
    _c("gargoyles", msg("Gargoyles"), B, "scroll", "building", scroll="draw_per_building"),
    _c("doctor_hix", msg("Doctor Hix"), B, "event", "scroll", "another", scroll="place_trouble"),
    _c("hobsons", msg("Hobsons's Livery Stable"), B, "scroll", "building", scroll="ride_anywhere"),
    _c("hubert", msg("Hubert"), B, "scroll", "minion", scroll="force_pay"),
    _c("death", msg("Death"), B, "assassinate", "assassinate", "building"),
    _c("deep_dwarves", msg("Deep Dwarves"), B, "scroll", "another", scroll="quiet_minion"),
    _c("sergeant_detritus", msg("Sergeant Detritus"), B, "trouble", "trouble"),
    _c("dorfl", msg("Dorfl"), B, "scroll", "another", scroll="move_anywhere"),
    _c("lord_downey", msg("Lord Downey"), B, "assassinate", "money", "building", money=3),
    _c("dwarves", msg("Dwarves"), B, "minion", "minion"),
    _c("cheery_littlebottom", msg("Sergeant Cheery Littlebottom"), B, "scroll", "trouble", scroll="draw2"),
    _c("otto_chriek", msg("Otto Chriek"), B, "scroll", "building", scroll="pay_per_trouble"),
    _c("the_clacks", msg("The Clacks"), B, "scroll", "money", "another", money=3, scroll="draw2"),
    _c("sergeant_colon", msg("Sergeant Colon"), B, "trouble", "minion"),
    _c("cosmo_lavish", msg("Cosmo Lavish"), B, "scroll", "another", scroll="hired_hit"),
    _c("the_dean", msg("The Dean"), B, "event", "scroll", "another", scroll="clear_unreal"),
    _c("the_bursar", msg("The Bursar"), B, "event", "scroll", "another", scroll="swap_minions"),
    _c("cable_street", msg("Cable Street Particulars"), B, "scroll", "minion", scroll="spy_hand"),
    _c("canting_crew", msg("Canting Crew"), B, "scroll", "minion", scroll="shove"),
    _c("carcer", msg("Carcer"), B, "scroll", "another", scroll="carcer"),
    _c("chair_of_studies", msg("The Chair of Indefinite Studies"), B, "event", "scroll", "another", scroll="swap_hands"),
    _c("charles_lavatory", msg("Sir Charles Lavatory"), B, "scroll", "building", scroll="pay_per_building"),
    _c("adora_belle", msg("Adora Belle Dearheart"), B, "scroll", "minion", "building", scroll="move_anywhere"),
    _c("alchemists_guild", msg("The Alchemists' Guild"), B, "scroll", "building", scroll="alchemy"),
    _c("the_auditors", msg("The Auditors"), B, "scroll", scroll="audit"),
    _c("buggy_swires", msg("Buggy Swires"), B, "trouble"),
    _c("burleigh", msg("Burleigh & Stronginthearm"), B, "scroll", "building", scroll="paid_hit"),
]
CARDS: dict[str, Card] = {c.id: c for c in _ALL}
GREEN: tuple[str, ...] = tuple(c.id for c in _ALL if c.border == "green")
BROWN: tuple[str, ...] = tuple(c.id for c in _ALL if c.border == "brown")
# Cards left out of a two-player game (rulebook, "Partidas de dos jugadores").
TWO_PLAYER_REMOVED: frozenset[str] = frozenset({"hubert", "cosmo_lavish"})
INTERRUPTS: frozenset[str] = frozenset(c.id for c in _ALL if "interrupt" in c.symbols)
# Cards that, once placed in front of a player, count toward their hand and never leave.
STUCK_CARDS: frozenset[str] = frozenset({"dr_whiteface", "fools_guild"})


def symbol_name(card_id: str, symbol: Symbol) -> Text:
    """One symbol of a card in words (the amount of a money symbol included)."""
    if symbol == "money":
        return msg("${amount}", amount=CARDS[card_id].money)
    return {
        "minion": msg.c("symbol", "minion"), "building": msg.c("symbol", "building"),
        "assassinate": msg.c("symbol", "assassinate"), "trouble": msg.c("symbol", "remove trouble"),
        "scroll": msg.c("symbol", "scroll"), "event": msg.c("symbol", "random event"),
        "another": msg.c("symbol", "play another"), "interrupt": msg.c("symbol", "interrupt"),
    }[symbol]


def card_text(card_id: str) -> Text:
    """The card's symbols and text as one line."""
    c = CARDS[card_id]
    symbols: Text | None = None
    for s in c.symbols:  # "minion · $2 · scroll"
        name = symbol_name(card_id, s)
        symbols = name if symbols is None else msg("{symbols} · {symbol}", symbols=symbols, symbol=name)
    if symbols is None:
        symbols = msg("no symbols")
    if c.scroll:
        return msg("{symbols}. {scroll}", symbols=symbols, scroll=SCROLLS[c.scroll])
    if c.id in INTERRUPT_TEXT:
        return INTERRUPT_TEXT[c.id]
    return symbols
