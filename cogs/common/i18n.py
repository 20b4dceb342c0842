"""Every message of the Discord side in Spanish and English, and Spanish command names."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

DEFAULT_LOCALE = "es"

# Message catalogue: id -> {"es": ..., "en": ...}. Placeholders use str.format names.
MESSAGES: dict[str, dict[str, str]] = {
    # errors
    "err.bug": {
        "es": "Algo ha fallado por nuestra parte (error `{id}`). Queda anotado; prueba otra vez.",
        "en": "Something went wrong on our side (error `{id}`). It has been logged; try again.",
    },
    "err.cooldown": {
        "es": "Espera {seconds} s antes de repetirlo.",
        "en": "Wait {seconds} s before trying that again.",
    },
    "err.guild_only": {
        "es": "Esto solo funciona en un canal de un servidor.",
        "en": "This only works in a server channel.",
    },
    "err.not_allowed": {
        "es": "No tienes permiso para hacer eso.",
        "en": "You are not allowed to do that.",
    },
    "err.command_outdated": {
        "es": "Ese comando ha cambiado; espera un momento a que Discord lo actualice.",
        "en": "That command has changed; wait a moment for Discord to update it.",
    },
    "err.no_thread_here": {
        "es": "No puedo abrir un hilo desde aquí: usa hilo: True en un canal de texto.",
        "en": "I cannot open a thread from here: use thread: True in a text channel.",
    },
    "err.thread_forbidden": {
        "es": "No tengo permiso para crear hilos en este canal (Crear hilos públicos).",
        "en": "I am not allowed to create threads in this channel (Create Public Threads).",
    },
    "err.bad_option": {
        "es": "No entiendo la opción «{item}»: escribe clave=valor separados por espacios.",
        "en": "I do not understand the option '{item}': write key=value separated by spaces.",
    },
    "err.unknown_option": {
        "es": "{game} no tiene la opción «{key}». Opciones: {known}.",
        "en": "{game} has no option '{key}'. Options: {known}.",
    },
    "err.pick_from_list": {
        "es": "«{value}» no es una jugada posible ahora. Elige una de la lista: {options}",
        "en": "'{value}' is not a possible move now. Pick one from the list: {options}",
    },
    "err.unknown_tile": {
        "es": "«{value}» no es una loseta que puedas colocar. Puedes: {options}",
        "en": "'{value}' is not a tile you can place. You can: {options}",
    },
    "err.unknown_square": {
        "es": "«{value}» no es una casilla (A1 a C3).",
        "en": "'{value}' is not a square (A1 to C3).",
    },
    "err.stale_menu": {
        "es": "Ese menú es de una jugada anterior; usa el del tablero actual.",
        "en": "That menu belongs to an earlier move; use the one on the current board.",
    },
    "err.not_this_seat": {
        "es": "Este menú es para {name}.",
        "en": "This menu is for {name}.",
    },
    # lobby
    "lobby.title": {"es": "{title} · partida #{id}", "en": "{title} · game #{id}"},
    "lobby.open": {
        "es": "Lobby abierto. Pulsa **Unirse** para jugar.",
        "en": "Lobby open. Press **Join** to play.",
    },
    "lobby.players": {"es": "Jugadores ({n}/{max})", "en": "Players ({n}/{max})"},
    "lobby.nobody": {"es": "Nadie todavía", "en": "Nobody yet"},
    "lobby.host": {"es": "Anfitrión", "en": "Host"},
    "lobby.options": {"es": "Opciones", "en": "Options"},
    "lobby.needs": {
        "es": "Se juega con {min}-{max} jugadores. Quien la creó pulsa **Empezar**.",
        "en": "Takes {min}-{max} players. The host presses **Start**.",
    },
    "lobby.started": {
        "es": "La partida ha empezado: el tablero está abajo.",
        "en": "The game has started: the board is below.",
    },
    "lobby.abandoned": {"es": "Partida abandonada.", "en": "Game abandoned."},
    "lobby.thread_name": {"es": "{title} #{id}", "en": "{title} #{id}"},
    "lobby.in_thread": {
        "es": "Partida #{id} abierta en {thread}.",
        "en": "Game #{id} opened in {thread}.",
    },
    "lobby.created": {
        "es": "Partida #{id} creada. Invita a los demás a pulsar Unirse.",
        "en": "Game #{id} created. Ask the others to press Join.",
    },
    "btn.join": {"es": "Unirse", "en": "Join"},
    "btn.leave": {"es": "Salir", "en": "Leave"},
    "btn.ai": {"es": "Añadir IA", "en": "Add AI"},
    "btn.start": {"es": "Empezar", "en": "Start"},
    "btn.hand": {"es": "Mi mano", "en": "My hand"},
    "btn.play": {"es": "Jugar", "en": "Play"},
    "lobby.joined": {"es": "Te has unido a la partida #{id}.", "en": "You joined game #{id}."},
    "lobby.left": {"es": "Has dejado la partida #{id}.", "en": "You left game #{id}."},
    "lobby.ai_added": {"es": "IA añadida.", "en": "AI added."},
    # board
    "board.title": {"es": "{title} · partida #{id}", "en": "{title} · game #{id}"},
    "board.turn": {"es": "Turno de {who}: {prompt}", "en": "{who} to play: {prompt}"},
    "board.your_turn": {"es": "{who}, te toca.", "en": "{who}, your turn."},
    "board.last": {"es": "Últimas jugadas", "en": "Last moves"},
    "board.players": {"es": "Jugadores", "en": "Players"},
    "board.finished": {"es": "🏁 Fin de la partida.", "en": "🏁 Game over."},
    "board.winner": {"es": "Gana {who}.", "en": "{who} wins."},
    "board.winners": {"es": "Ganan {who}.", "en": "{who} win."},
    "board.draw": {"es": "Empate.", "en": "Draw."},
    "board.abandoned": {"es": "Partida abandonada.", "en": "Game abandoned."},
    "board.version": {"es": "Partida #{id} · jugada {version}", "en": "Game #{id} · move {version}"},
    "board.pick": {"es": "Elige tu jugada, {name}", "en": "Choose your move, {name}"},
    "board.pick_step": {"es": "Elige, {name}: {group}", "en": "Choose, {name}: {group}"},
    "board.options_n": {"es": "{n} opciones", "en": "{n} options"},
    "board.choose_in": {
        "es": "Elige cómo sigue: {group}",
        "en": "Choose how it goes on: {group}",
    },
    "board.done": {"es": "Hecho.", "en": "Done."},
    "board.chosen": {"es": "Hecho: {label}.", "en": "Done: {label}."},
    "board.reaction": {
        "es": "⏳ Esperando a ver si {who} responde (lo decide en privado).",
        "en": "⏳ Waiting to see whether {who} answers (they decide privately).",
    },
    "board.react_dm": {
        "es": "{who}, en {title} · partida #{id} ({channel}) puedes responder ahora:",
        "en": "{who}, in {title} · game #{id} ({channel}) you may answer now:",
    },
    "board.react_ping": {
        "es": "{who}, tienes una decisión pendiente: pulsa «Jugar» en el tablero.",
        "en": "{who}, you have a decision to make: press “Play” on the board.",
    },
    "board.moved": {"es": "**{name}**: {what}", "en": "**{name}**: {what}"},
    "board.moved_plain": {"es": "**{name}** ha jugado.", "en": "**{name}** has moved."},
    "board.started": {
        "es": "¡Empieza la partida #{id}!",
        "en": "Game #{id} begins!",
    },
    "board.score": {"es": "Marcador", "en": "Score"},
    # hand / private view
    "hand.title": {"es": "Tu mano · partida #{id}", "en": "Your hand · game #{id}"},
    "hand.nothing": {
        "es": "No tienes nada oculto en esta partida: todo está en el tablero.",
        "en": "You hold nothing hidden in this game: everything is on the board.",
    },
    "hand.dm_intro": {
        "es": "{title} · partida #{id} en {channel}",
        "en": "{title} · game #{id} in {channel}",
    },
    "hand.dm_closed": {
        "es": "{name} tiene los mensajes directos cerrados: puede ver su mano con /partida mano "
        "o con el botón «Mi mano» del tablero.",
        "en": "{name} has direct messages closed: they can see their hand with /game hand "
        "or the “My hand” button on the board.",
    },
    # status / log
    "status.lobby": {
        "es": "Partida #{id} ({title}) en el lobby: {players}.",
        "en": "Game #{id} ({title}) in the lobby: {players}.",
    },
    "status.none": {
        "es": "No hay ninguna partida abierta en este canal.",
        "en": "There is no open game in this channel.",
    },
    "log.title": {"es": "Registro · partida #{id}", "en": "Log · game #{id}"},
    "log.empty": {"es": "Aún no se ha jugado nada.", "en": "No moves yet."},
    "log.more": {"es": "… y {n} jugadas anteriores.", "en": "… and {n} earlier moves."},
    "abandon.done": {
        "es": "{who} ha abandonado la partida #{id}.",
        "en": "{who} abandoned game #{id}.",
    },
    # Rey y Hierofante
    "rh.score_match": {
        "es": "Partida {game} · gana quien llegue a {n} victorias",
        "en": "Game {game} · first to {n} wins",
    },
    "rh.score_points": {
        "es": "Partida {game} de {games} · a puntos",
        "en": "Game {game} of {games} · on points",
    },
    "rh.board": {"es": "Tablero", "en": "Board"},
    "rh.neutral": {"es": "Zona neutral", "en": "Neutral area"},
    "rh.zone_of": {"es": "Zona de {name}", "en": "{name}'s area"},
    "rh.your_zone": {"es": "Tu zona", "en": "Your area"},
    "rh.draft_offer": {"es": "Oferta del draft", "en": "Draft offer"},
    "rh.draft_seen": {"es": "Has visto en el draft", "en": "Seen in the draft"},
    "rh.hidden_note": {
        "es": "🔒 = oculta para tu rival.",
        "en": "🔒 = hidden from your opponent.",
    },
    "hand.news": {"es": "Solo para ti", "en": "Only for you"},
    # Rattus Cartus
    "rc.round": {"es": "Ronda {n} de {total}", "en": "Round {n} of {total}"},
    "rc.phase.supply": {"es": "B · suministro", "en": "B · supply"},
    "rc.phase.enter": {"es": "C · entrar en edificios", "en": "C · entering buildings"},
    "rc.phase.resolve": {"es": "D · resolver edificios", "en": "D · resolving buildings"},
    "rc.phase.over": {"es": "fin de la partida", "en": "game over"},
    "rc.last_round": {
        "es": "Última ronda: quien gana la acción preferente suma 1 de influencia en su lugar.",
        "en": "Last round: whoever wins a premium action gains 1 influence instead.",
    },
    "rc.players": {"es": "Jugadores", "en": "Players"},
    "rc.player_line": {
        "es": "{disc} {who}: {cards} en mano · {rats} fichas de rata · {vp} PV",
        "en": "{disc} {who}: {cards} in hand · {rats} rat tokens · {vp} VP",
    },
    "rc.start_player": {"es": "inicial", "en": "start player"},
    "rc.supply_state": {"es": "Suministro", "en": "Supply"},
    "rc.chosen": {"es": "✅ ya han elegido: {who}", "en": "✅ have chosen: {who}"},
    "rc.waiting": {"es": "⏳ faltan: {who}", "en": "⏳ still to choose: {who}"},
    "rc.queue": {"es": "Orden para entrar", "en": "Order of entering"},
    "rc.row": {"es": "Edificios de la ronda", "en": "This round's buildings"},
    "rc.row_line": {
        "es": "**{n}. {building}** ({cls}) · suministro: {supply}",
        "en": "**{n}. {building}** ({cls}) · supply: {supply}",
    },
    "rc.slot": {"es": "{disc} {who}: {what}", "en": "{disc} {who}: {what}"},
    "rc.cards_n": {"es": "{n} cartas boca abajo", "en": "{n} cards face down"},
    "rc.cards_1": {"es": "1 carta boca abajo", "en": "1 card face down"},
    "rc.nobody_in": {"es": "nadie dentro", "en": "nobody inside"},
    "rc.tracks": {"es": "Influencia", "en": "Influence"},
    "rc.final": {"es": "Puntuación final", "en": "Final scoring"},
    "rc.final_line": {
        "es": "{who}: **{total} PV** (clases {classes}, mano {hand}, especiales {specials}, "
        "oro {gold}, fichas {tokens}) · {rats} en ratas{dead}",
        "en": "{who}: **{total} VP** (classes {classes}, hand {hand}, specials {specials}, "
        "gold {gold}, tokens {tokens}) · {rats} in rats{dead}",
    },
    "rc.dead": {"es": " · ☠ la peste", "en": " · ☠ the plague"},
    "rc.nuns": {"es": "La fila de religiosas: {shown} = {total}", "en": "The nun row: {shown} = {total}"},
    "rc.hand": {"es": "Tu mano ({n})", "en": "Your hand ({n})"},
    "rc.hand_empty": {"es": "sin cartas", "en": "no cards"},
    "rc.rats": {"es": "Tus ratas", "en": "Your rats"},
    "rc.rats_line": {
        "es": "🐀 fichas {tokens} = **{total}** ratas",
        "en": "🐀 tokens {tokens} = **{total}** rats",
    },
    "rc.no_rats": {"es": "🐀 ninguna rata", "en": "🐀 no rats"},
    "rc.peeks": {"es": "Religiosas que has visto", "en": "Nun cards you have seen"},
    "rc.peek": {"es": "n.º {n}: {nuns}", "en": "#{n}: {nuns}"},
    "rc.no_peeks": {"es": "ninguna todavía", "en": "none yet"},
    "rc.my_supply": {"es": "Tu suministro (secreto)", "en": "Your supply (secret)"},
    "rc.my_entering": {"es": "Estás entrando", "en": "You are entering"},
    "rc.my_played": {"es": "Tus cartas boca abajo", "en": "Your cards face down"},
    "rc.choose_building": {
        "es": "Elige el edificio en el que entras (solo tú ves este mensaje).",
        "en": "Choose the building you enter (only you see this message).",
    },
    "rc.building_ph": {"es": "Edificio", "en": "Building"},
    "rc.choose_cards": {
        "es": "Entras en **{building}**. Elige las cartas que juegas boca abajo (solo tú las "
        "ves; los demás sabrán cuántas).",
        "en": "You enter **{building}**. Choose the cards you play face down (only you see "
        "them; the others will know how many).",
    },
    "rc.cards_ph": {"es": "Cartas boca abajo", "en": "Cards face down"},
    "rc.more_cards": {
        "es": "El menú muestra 25 de tus {n} cartas jugables.",
        "en": "The menu shows 25 of your {n} playable cards.",
    },
    "rc.no_playable": {
        "es": "No tienes cartas que se puedan jugar aquí.",
        "en": "You hold no cards that can be played here.",
    },
    "rc.btn.none": {"es": "Entrar sin cartas", "en": "Enter with no cards"},
    "rc.btn.back": {"es": "Otro edificio", "en": "Another building"},
    "rc.btn.pass": {"es": "Salvoconducto: elegir después", "en": "Safe-conduct: choose later"},
    "rc.inside": {"es": "dentro: {who}", "en": "inside: {who}"},
    "rc.empty": {"es": "vacío", "en": "empty"},
    "rc.not_rc": {
        "es": "La partida de este canal no es de Rattus Cartus.",
        "en": "This channel's game is not Rattus Cartus.",
    },
    "rc.not_entering": {
        "es": "Ahora no te toca entrar en un edificio. {prompt}",
        "en": "It is not your turn to enter a building. {prompt}",
    },
    "rc.unknown_building": {
        "es": "«{value}» no es un edificio de esta ronda. Hay: {options}",
        "en": "'{value}' is not one of this round's buildings. There are: {options}",
    },
    "rc.unknown_card": {
        "es": "Esa carta ya no está en tu mano; abre el menú otra vez.",
        "en": "That card is no longer in your hand; open the menu again.",
    },
    "rc.buildings_title": {"es": "Rattus Cartus · edificios en juego", "en": "Rattus Cartus · buildings in play"},
    "rc.premium": {"es": "Preferente", "en": "Premium"},
    "rc.standard": {"es": "Normal", "en": "Standard"},
    "rc.specials": {"es": "Cartas especiales", "en": "Special cards"},
    # Mundodisco: Ankh-Morpork
    "am.not_am": {
        "es": "La partida de este canal no es de Mundodisco: Ankh-Morpork.",
        "en": "This channel's game is not Discworld: Ankh-Morpork.",
    },
    "am.not_started": {"es": "La partida aún no ha empezado.", "en": "The game has not started yet."},
    "am.turn": {"es": "turno {n}", "en": "turn {n}"},
    "am.players": {"es": "Jugadores", "en": "Players"},
    "am.in_play": {"es": "En juego", "en": "On the table"},
    "am.city": {"es": "La ciudad", "en": "The city"},
    "am.table": {"es": "Mazo y banco", "en": "Deck and bank"},
    "am.money": {"es": "{n} $", "en": "${n}"},
    "am.hand_n": {"es": "{n} cartas en mano", "en": "{n} cards in hand"},
    "am.supply": {"es": "secuaces libres: {m} · edificios libres: {b}", "en": "minions left: {m} · buildings left: {b}"},
    "am.area_cards": {"es": "cartas de zona: {areas}", "en": "area cards: {areas}"},
    "am.loans": {"es": "préstamos: {n}", "en": "loans: {n}"},
    "am.stuck": {"es": "fijas delante: {cards}", "en": "stuck in front: {cards}"},
    "am.final_line": {"es": "**{points} puntos** · era {personality}", "en": "**{points} points** · was {personality}"},
    "am.deck_line": {
        "es": "Mazo: {deck} cartas · descartes: {discard} · banco: {bank} $ · problemas: {trouble}/12",
        "en": "Deck: {deck} cards · discard pile: {discard} · bank: ${bank} · trouble: {trouble}/12",
    },
    "am.last_discard": {"es": "Última descartada: {card}", "en": "Last discarded: {card}"},
    "am.events_line": {
        "es": "Eventos aleatorios por salir: {n} (ya salieron: {done})",
        "en": "Random events left: {n} (already drawn: {done})",
    },
    "am.your_personality": {"es": "Tu personalidad (secreta):", "en": "Your personality (secret):"},
    "am.progress": {"es": "Ahora llevas {have} de {need}.", "en": "You are at {have} of {need}."},
    "am.your_hand": {"es": "Tu mano ({n})", "en": "Your hand ({n})"},
    "am.hand_empty": {"es": "sin cartas", "en": "no cards"},
    "am.peeked": {
        "es": "Personalidades sin usar que has visto: {who}",
        "en": "Unused personalities you have seen: {who}",
    },
    "am.now": {"es": "Ahora:", "en": "Now:"},
    "am.empty": {"es": "vacía", "en": "empty"},
    "am.ph.play": {"es": "Juega una carta", "en": "Play a card"},
    "am.ph.power": {"es": "Usa una carta de zona", "en": "Use a city area card"},
    "am.ph.choose": {"es": "Elige", "en": "Choose"},
    "am.sym.minion": {"es": "secuaz", "en": "minion"},
    "am.sym.building": {"es": "edificio", "en": "building"},
    "am.sym.assassinate": {"es": "asesinato", "en": "assassinate"},
    "am.sym.trouble": {"es": "quitar problema", "en": "remove trouble"},
    "am.sym.money": {"es": "dinero", "en": "money"},
    "am.sym.scroll": {"es": "pergamino", "en": "scroll"},
    "am.sym.event": {"es": "evento aleatorio", "en": "random event"},
    "am.sym.another": {"es": "otra carta", "en": "play another"},
    "am.sym.interrupt": {"es": "interrupción", "en": "interrupt"},
    "am.symbols": {"es": "Símbolos, en orden", "en": "Symbols, in order"},
    "am.border.green": {"es": "Borde verde", "en": "Green border"},
    "am.border.brown": {"es": "Borde marrón", "en": "Brown border"},
    "am.unknown_card": {
        "es": "No conozco ninguna carta «{value}». Escribe parte de su nombre y elige de la lista.",
        "en": "I know no card '{value}'. Type part of its name and pick from the list.",
    },
    "am.no_skip": {
        "es": "Ahora no hay nada que saltar. {prompt}",
        "en": "There is nothing to skip now. {prompt}",
    },
    "am.areas_title": {"es": "Ankh-Morpork: las doce zonas", "en": "Ankh-Morpork: the twelve areas"},
    "am.area_line": {
        "es": "**{area}** · {cost} $ · vecinas: {near}{river}\n  {power}",
        "en": "**{area}** · ${cost} · neighbours: {near}{river}\n  {power}",
    },
    # option names and values shown in lobbies
    "opt.variant": {"es": "Variante", "en": "Variant"},
    "opt.scoring": {"es": "Puntuación", "en": "Scoring"},
    "opt.wins_needed": {"es": "Victorias necesarias", "en": "Wins needed"},
    "opt.games": {"es": "Partidas", "en": "Games"},
    "opt.reshuffle": {"es": "Rebarajar neutrales", "en": "Reshuffle neutrals"},
    "opt.variant.original": {"es": "Original", "en": "Original"},
    "opt.variant.clasico": {"es": "Clásico", "en": "Classic"},
    "opt.variant.aleatorio": {"es": "Aleatorio", "en": "Random"},
    "opt.variant.aleatorio_oculto": {"es": "Aleatorio oculto", "en": "Hidden random"},
    "opt.variant.draft": {"es": "Draft", "en": "Draft"},
    "opt.variant.draft_oculto": {"es": "Draft oculto", "en": "Hidden draft"},
    "opt.scoring.match": {"es": "Match (victorias)", "en": "Match (wins)"},
    "opt.scoring.points": {"es": "Puntos", "en": "Points"},
    "opt.reshuffle.True": {"es": "sí", "en": "yes"},
    "opt.buildings": {"es": "Edificios", "en": "Buildings"},
    "opt.buildings.first_game": {"es": "primera partida", "en": "first game"},
    "opt.buildings.random_cards": {"es": "cinco cartas al azar por clase", "en": "five random cards per class"},
    "opt.buildings.random_buildings": {"es": "un edificio al azar por clase", "en": "one random building per class"},
    "opt.buildings.chosen": {"es": "elegidos (chosen=…)", "en": "chosen (chosen=…)"},
    "opt.chosen": {"es": "Edificios elegidos", "en": "Chosen buildings"},
    "opt.chosen.granja": {"es": "Granja", "en": "Farm"},
    "opt.chosen.cerveceria": {"es": "Cervecería", "en": "Brewery"},
    "opt.chosen.mercado": {"es": "Mercado", "en": "Marketplace"},
    "opt.chosen.oficina": {"es": "Oficina", "en": "Office"},
    "opt.chosen.monasterio": {"es": "Monasterio", "en": "Monastery"},
    "opt.chosen.hospital": {"es": "Hospital", "en": "Hospital"},
    "opt.chosen.castillo": {"es": "Castillo", "en": "Castle"},
    "opt.chosen.torre_vigia": {"es": "Torre Vigía", "en": "Guard Tower"},
    "opt.chosen.palacio": {"es": "Palacio", "en": "Palace"},
    "opt.chosen.tesoro": {"es": "Tesoro Público", "en": "Treasury"},
    "opt.chosen.tienda": {"es": "Tienda del Adivino", "en": "Fortune-teller's Tent"},
    "opt.chosen.cabana": {"es": "Cabaña del Flautista", "en": "Piper's Hut"},
    "opt.all_eliminated": {"es": "Si la peste mata a todos", "en": "If the plague kills everyone"},
    "opt.all_eliminated.nobody": {"es": "nadie gana", "en": "nobody wins"},
    "opt.all_eliminated.fewest_rats": {"es": "gana quien tenga menos ratas", "en": "fewest rats wins"},
    "opt.reshuffle.False": {"es": "no", "en": "no"},
    # autocomplete
    "ac.not_your_turn": {"es": "Ahora no te toca", "en": "It is not your turn"},
    "ac.no_game": {"es": "No hay partida en este canal", "en": "No game in this channel"},
    "ac.not_seated": {"es": "No juegas en esta partida", "en": "You are not in this game"},
}

# Spanish names of commands and groups (English is the default name in code).
COMMAND_NAMES_ES: dict[str, str] = {
    "game": "partida",
    "new": "nueva",
    "join": "unirse",
    "leave": "salir",
    "start": "empezar",
    "status": "estado",
    "hand": "mano",
    "log": "registro",
    "abandon": "abandonar",
    "move": "jugar",
    "rh": "rh",
    "place": "colocar",
    "effect": "efecto",
    "starter": "inicial",
    "draft": "draft",
    "rc": "rc",
    "supply": "suministro",
    "enter": "entrar",
    "pass": "pasar",
    "decide": "decidir",
    "buildings": "edificios",
    "am": "am",
    "play": "jugar",
    "power": "poder",
    "card": "carta",
    "areas": "zonas",
    "personality": "personalidad",
}

PARAMETER_NAMES_ES: dict[str, str] = {
    "game": "juego",
    "thread": "hilo",
    "options": "opciones",
    "variant": "variante",
    "scoring": "puntuacion",
    "wins_needed": "victorias",
    "games": "partidas",
    "reshuffle": "rebarajar",
    "choice": "opcion",
    "tile": "loseta",
    "square": "casilla",
    "building": "edificio",
    "card": "carta",
    "area": "zona",
}

# Descriptions are keyed by their English text, so the code reads naturally.
DESCRIPTIONS_ES: dict[str, str] = {
    "Board and card games, played over days": "Juegos de mesa y de cartas, jugados a lo largo de días",
    "Open a game lobby in this channel": "Abre el lobby de una partida en este canal",
    "Join the game of this channel": "Únete a la partida de este canal",
    "Leave the lobby of this channel's game": "Deja el lobby de la partida de este canal",
    "Start this channel's game (host)": "Empieza la partida de este canal (anfitrión)",
    "Show this channel's game": "Muestra la partida de este canal",
    "See your hand (only you see it)": "Mira tu mano (solo la ves tú)",
    "The public log of moves": "El registro público de jugadas",
    "Close this channel's game for good (host or Manage Channels)":
        "Cierra para siempre la partida de este canal (anfitrión o Gestionar canales)",
    "Make a move from the list of legal moves": "Haz una jugada de la lista de jugadas posibles",
    "Which game": "Qué juego",
    "Open it in a new public thread": "Ábrela en un hilo público nuevo",
    "More options as key=value separated by spaces": "Más opciones como clave=valor separadas por espacios",
    "Variant of the rules": "Variante de las reglas",
    "Match (first to N wins) or points over N games": "Match (el primero con N victorias) o puntos en N partidas",
    "Wins needed to take the match": "Victorias necesarias para ganar el match",
    "Number of games when scoring by points": "Número de partidas si se juega a puntos",
    "Reshuffle the used neutrals when they run out": "Rebaraja los neutrales usados cuando se acaban",
    "Your move": "Tu jugada",
    "Rey y Hierofante moves": "Jugadas de Rey y Hierofante",
    "Place a tile on the board": "Coloca una loseta en el tablero",
    "Use (or decline) the effect of the tile you placed": "Usa (o rechaza) el efecto de la loseta que has colocado",
    "Choose who starts the next game": "Elige quién empieza la siguiente partida",
    "Keep a tile of the draft": "Quédate una loseta del draft",
    "The tile to place": "La loseta que colocas",
    "The square (A1 to C3)": "La casilla (A1 a C3)",
    "What the effect does": "Qué hace el efecto",
    "Who starts": "Quién empieza",
    "The tile to keep": "La loseta que te quedas",
    "Rattus Cartus moves": "Jugadas de Rattus Cartus",
    "Secretly choose the supply action of a building card (phase B)":
        "Elige en secreto la acción de suministro de una carta de edificio (fase B)",
    "Enter a building and choose your face-down cards privately (phase C)":
        "Entra en un edificio y elige en privado tus cartas boca abajo (fase C)",
    "Play a Safe-conduct: choose your building after the others (phase C)":
        "Juega un Salvoconducto: elige tu edificio después de los demás (fase C)",
    "Answer what the buildings ask of you: duels, cards to give, Hospital, nun cards (phase D)":
        "Responde a lo que te piden los edificios: duelos, cartas que dar, Hospital, religiosas (fase D)",
    "What the buildings in play and the special cards do": "Qué hacen los edificios en juego y las cartas especiales",
    "The supply action you take": "La acción de suministro que eliges",
    "The building you enter": "El edificio en el que entras",
    "What you decide": "Lo que decides",
    "Discworld: Ankh-Morpork moves": "Jugadas de Mundodisco: Ankh-Morpork",
    "Play a card from your hand": "Juega una carta de tu mano",
    "The card you play": "La carta que juegas",
    "Use the power of a city area card you hold": "Usa el poder de una carta de zona que tengas",
    "The area whose card you use": "La zona cuya carta usas",
    "Answer what the game asks now: a symbol's choice, a scroll, a payment, an interrupt":
        "Responde a lo que pide la partida: un símbolo, un pergamino, un pago, una interrupción",
    "Skip what is asked now: pass, end your turn, skip a symbol, or say no":
        "Salta lo que se pide: pasa, acaba tu turno, salta un símbolo o di que no",
    "What any card of the deck does": "Qué hace cualquier carta del mazo",
    "The card": "La carta",
    "The twelve areas: costs, neighbours and city area card powers":
        "Las doce zonas: costes, vecinas y poderes de sus cartas",
    "Your secret personality and how close it is to winning":
        "Tu personalidad secreta y cuánto le falta para ganar",
}

CHOICES_ES: dict[str, str] = {
    "Match": "Match",
    "Points": "Puntos",
}


def _merge_platform() -> None:
    # The platform's commands around the games keep their catalogue in a module of its own.
    from cogs.common import i18n_platform as p

    for table, extra in ((MESSAGES, p.MESSAGES), (COMMAND_NAMES_ES, p.COMMAND_NAMES_ES),
                         (PARAMETER_NAMES_ES, p.PARAMETER_NAMES_ES),
                         (DESCRIPTIONS_ES, p.DESCRIPTIONS_ES), (CHOICES_ES, p.CHOICES_ES)):
        clash = set(table) & set(extra)
        if clash and any(table[k] != extra[k] for k in clash):  # type: ignore[index]
            raise RuntimeError(f"message ids defined twice: {sorted(clash)}")
        table.update(extra)  # type: ignore[arg-type]


_merge_platform()


def set_default_locale(locale: str) -> None:
    """Choose the language used where no user locale is known (TABLERO_LOCALE)."""
    global DEFAULT_LOCALE
    DEFAULT_LOCALE = "es" if locale.lower().startswith("es") else "en"


def lang(locale: str | discord.Locale | None) -> str:
    """The project language for a Discord locale: "es" for any Spanish, else "en"."""
    if locale is None:
        return DEFAULT_LOCALE
    value = locale.value if isinstance(locale, discord.Locale) else str(locale)
    return "es" if value.lower().startswith("es") else "en"


def t(key: str, locale: str | discord.Locale | None, /, **fmt: Any) -> str:
    """The message ``key`` in ``locale``, with ``fmt`` filled in."""
    entry = MESSAGES[key]
    text = entry[lang(locale)]
    return text.format(**fmt) if fmt else text


def locale_of(interaction: discord.Interaction) -> str:
    """The language of the user behind ``interaction`` ("es" or "en")."""
    return lang(interaction.locale)


class Translator(app_commands.Translator):
    """Gives commands, options, descriptions and choices their Spanish names."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The Spanish text of ``string`` for Spanish locales; None (keep English) otherwise."""
        if lang(locale) != "es":
            return None
        where = context.location
        loc = app_commands.TranslationContextLocation
        message = string.message
        if where in (loc.command_name, loc.group_name):
            return COMMAND_NAMES_ES.get(message)
        if where is loc.parameter_name:
            return PARAMETER_NAMES_ES.get(message)
        if where is loc.choice_name:
            spanish = string.extras.get("es")
            return spanish if spanish else CHOICES_ES.get(message)
        if where in (loc.command_description, loc.group_description, loc.parameter_description):
            return DESCRIPTIONS_ES.get(message)
        return None
