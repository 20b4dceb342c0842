"""Messages and Spanish names of the platform's commands around the games: the clock,
notifications, "my games", the log, undo, spectators, replays, /settings and /config."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # the clock
    "clock.timed_out": {
        "es": "⏰ Se acabó el tiempo de **{name}**: el bot ha jugado por su cuenta (recupera el asiento jugando).",
        "en": "⏰ **{name}** ran out of time: the bot has played for them (they take the seat back by moving).",
    },
    "clock.dropped": {
        "es": "⏰ Se acabó el tiempo de **{name}**: el bot ocupa su asiento hasta el final.",
        "en": "⏰ **{name}** ran out of time: the bot takes their seat until the end.",
    },
    "clock.reminder": {
        "es": "⏳ Recordatorio: te toca en {title} · partida #{id} ({channel}). Se acaba el tiempo {when}.",
        "en": "⏳ Reminder: it is your turn in {title} · game #{id} ({channel}). Your time runs out {when}.",
    },
    "clock.reminder_channel": {
        "es": "⏳ {who}, te toca; se acaba el tiempo {when}.",
        "en": "⏳ {who}, it is your turn; your time runs out {when}.",
    },
    "clock.none": {"es": "sin reloj", "en": "no clock"},
    "clock.label": {"es": "Reloj", "en": "Clock"},
    "clock.value": {
        "es": "{clock} por turno; al agotarse: {action}",
        "en": "{clock} per turn; when it runs out: {action}",
    },
    "timeout.ai": {"es": "juega el bot por el jugador", "en": "the bot plays for the player"},
    "timeout.drop": {"es": "el bot ocupa el asiento", "en": "the bot takes the seat"},
    "clock.vacation_board": {
        "es": "🏖️ De vacaciones (relojes parados): {who}",
        "en": "🏖️ On vacation (clocks stopped): {who}",
    },
    "vacation.until": {"es": "{name} hasta {when}", "en": "{name} until {when}"},
    "vacation.started": {
        "es": "🏖️ Vacaciones hasta {when}: tus relojes están parados en {n} partidas. Te quedan {left} días este año.",
        "en": "🏖️ On vacation until {when}: your clocks are stopped in {n} games. You have {left} days left this year.",
    },
    "vacation.ended": {
        "es": "Vacaciones terminadas: tus relojes vuelven a correr ({n} partidas).",
        "en": "Vacation over: your clocks run again ({n} games).",
    },
    # turns and catch-up
    "turn.dm": {
        "es": "🎲 Te toca en {title} · partida #{id} ({channel}): {prompt}",
        "en": "🎲 Your turn in {title} · game #{id} ({channel}): {prompt}",
    },
    "turn.time_left": {"es": "Se acaba tu tiempo {when}.", "en": "Your time runs out {when}."},
    "catchup.title": {"es": "**Desde tu última jugada:**", "en": "**Since your last move:**"},
    "catchup.more": {"es": "… y {n} jugadas antes", "en": "… and {n} earlier moves"},
    "catchup.none": {"es": "Nada nuevo desde tu última jugada.", "en": "Nothing new since your last move."},
    # my games, this server's games
    "mine.title": {"es": "Tus partidas abiertas", "en": "Your open games"},
    "mine.none": {"es": "No juegas ninguna partida abierta.", "en": "You are not in any open game."},
    "list.title": {"es": "Partidas abiertas en este servidor", "en": "Open games in this server"},
    "list.none": {"es": "No hay partidas abiertas en este servidor.", "en": "There are no open games in this server."},
    "mine.line": {"es": "**{title} #{id}** · {where} · {status}", "en": "**{title} #{id}** · {where} · {status}"},
    "mine.your_turn": {"es": "**te toca**", "en": "**your turn**"},
    "mine.waiting": {"es": "esperando a {who}", "en": "waiting for {who}"},
    "mine.lobby": {"es": "en el lobby ({n} jugadores)", "en": "in the lobby ({n} players)"},
    "mine.left": {"es": "tiempo hasta {when}", "en": "time until {when}"},
    "mine.paused": {"es": "reloj parado", "en": "clock stopped"},
    "mine.more": {"es": "… y {n} más", "en": "… and {n} more"},
    # the log
    "log.page": {"es": "Página {page} de {pages}", "en": "Page {page} of {pages}"},
    "log.hidden_move": {
        "es": "ha tomado una decisión que solo conoce quien la tomó",
        "en": "made a choice only they know",
    },
    "btn.prev": {"es": "◀ Anteriores", "en": "◀ Earlier"},
    "btn.next": {"es": "Siguientes ▶", "en": "Later ▶"},
    # undo
    "undo.asked": {
        "es": "↩️ **{name}** pide deshacer su última jugada (#{seq}). {who}: ¿aceptáis?",
        "en": "↩️ **{name}** asks to take back their last move (#{seq}). {who}: do you agree?",
    },
    "undo.done": {
        "es": "↩️ **{name}** ha deshecho su jugada #{seq}.",
        "en": "↩️ **{name}** took back move #{seq}.",
    },
    "undo.refused": {
        "es": "La petición de deshacer la jugada #{seq} ha sido rechazada; todo sigue igual.",
        "en": "The request to take back move #{seq} was refused; nothing changes.",
    },
    "undo.lapsed": {
        "es": "La petición de deshacer la jugada #{seq} ya no vale: la partida ha seguido o se acabó el tiempo.",
        "en": "The request to take back move #{seq} has lapsed: the game moved on or time ran out.",
    },
    "undo.voted": {"es": "Voto anotado; faltan más jugadores.", "en": "Vote noted; more players must answer."},
    "btn.undo_yes": {"es": "Aceptar", "en": "Agree"},
    "btn.undo_no": {"es": "Rechazar", "en": "Refuse"},
    # spectators, the end
    "watch.on": {
        "es": "👀 Sigues la partida #{id}: te llegará por DM cada jugada pública.",
        "en": "👀 You follow game #{id}: every public move will reach you by DM.",
    },
    "watch.off": {"es": "Ya no sigues la partida #{id}.", "en": "You no longer follow game #{id}."},
    "watch.player": {
        "es": "Juegas en esta partida: ya te llega todo lo que puedes ver.",
        "en": "You play in this game: you already get everything you may see.",
    },
    "watch.update": {
        "es": "👀 {title} · partida #{id} ({channel})",
        "en": "👀 {title} · game #{id} ({channel})",
    },
    "final.title": {
        "es": "Partida #{id}: lo que estaba oculto",
        "en": "Game #{id}: what was hidden",
    },
    # replays
    "replay.ready": {
        "es": "Registro de la partida #{id}: el archivo .json se puede reproducir (`python -m services.replay archivo.json`).",
        "en": "Record of game #{id}: the .json file can be replayed (`python -m services.replay file.json`).",
    },
    "replay.public_only": {
        "es": "La partida sigue en juego: solo va lo público. El registro completo y la animación, al terminar.",
        "en": "The game is still on: only public information is included. The full record and the animation come at the end.",
    },
    # lobby management
    "lobby.removed": {"es": "{name} ya no está en la partida #{id}.", "en": "{name} is no longer in game #{id}."},
    "lobby.host_now": {"es": "{who} es ahora el anfitrión de la partida #{id}.", "en": "{who} now hosts game #{id}."},
    # settings
    "settings.title": {"es": "Tus ajustes", "en": "Your settings"},
    "settings.notify": {"es": "Cómo te avisamos de tu turno", "en": "How you are told it is your turn"},
    "notify.channel": {"es": "mención en el canal", "en": "mention in the channel"},
    "notify.dm": {"es": "mensaje directo", "en": "direct message"},
    "notify.both": {"es": "mención y mensaje directo", "en": "mention and direct message"},
    "notify.none": {"es": "sin aviso", "en": "no notice"},
    "settings.vacation": {"es": "Vacaciones", "en": "Vacation"},
    "settings.vacation_left": {
        "es": "{left} de {total} días libres este año",
        "en": "{left} of {total} days left this year",
    },
    "config.title": {"es": "Ajustes del servidor", "en": "Server settings"},
    "config.locale": {"es": "Idioma de los mensajes públicos", "en": "Language of public messages"},
    "config.locale_user": {"es": "el de quien crea la partida", "en": "the game creator's"},
    "config.role": {"es": "Rol que puede crear partidas", "en": "Role allowed to create games"},
    "config.anyone": {"es": "cualquiera", "en": "anyone"},
    "config.channel": {"es": "Canal de los hilos de partidas", "en": "Channel for game threads"},
    "config.here": {"es": "donde se pida", "en": "wherever asked"},
    "config.not_allowed": {
        "es": "Solo quien tiene «Gestionar servidor» puede cambiar los ajustes del servidor.",
        "en": "Only members with Manage Server can change the server's settings.",
    },
    "err.creator_role": {
        "es": "En este servidor solo pueden crear partidas quienes tienen el rol {role}.",
        "en": "In this server only members with the {role} role can create games.",
    },
    "err.bad_clock": {
        "es": "Reloj desconocido «{value}». Elige: {options}.",
        "en": "Unknown clock '{value}'. Choose: {options}.",
    },
    # the bot's own permissions (names as Discord's settings show them)
    "perm.missing": {
        "es": "⚠️ Me faltan permisos en {channel} para la partida #{id}: {perms}. La partida sigue; "
              "mientras tanto, mira el tablero con /game status y tu mano con /game hand. "
              "Quien administre el servidor puede dármelos en los ajustes del canal.",
        "en": "⚠️ I am missing permissions in {channel} for game #{id}: {perms}. The game goes on; "
              "meanwhile, see the board with /game status and your hand with /game hand. "
              "A server admin can grant them in the channel's settings.",
    },
    "perm.new_missing": {
        "es": "No puedo llevar una partida en {channel}: me faltan estos permisos: {perms}. "
              "Quien administre el servidor puede dármelos en los ajustes del canal.",
        "en": "I cannot run a game in {channel}: I am missing these permissions: {perms}. "
              "A server admin can grant them in the channel's settings.",
    },
    "perm.view_channel": {"es": "Ver canal", "en": "View Channel"},
    "perm.send_messages": {"es": "Enviar mensajes", "en": "Send Messages"},
    "perm.send_messages_in_threads": {"es": "Enviar mensajes en hilos", "en": "Send Messages in Threads"},
    "perm.embed_links": {"es": "Insertar enlaces", "en": "Embed Links"},
    "perm.attach_files": {"es": "Adjuntar archivos", "en": "Attach Files"},
    "perm.read_message_history": {"es": "Leer el historial de mensajes", "en": "Read Message History"},
    "perm.create_public_threads": {"es": "Crear hilos públicos", "en": "Create Public Threads"},
}

COMMAND_NAMES_ES: dict[str, str] = {
    "mine": "mias",
    "list": "lista",
    "vacation": "vacaciones",
    "undo": "deshacer",
    "watch": "seguir",
    "replay": "repeticion",
    "remove": "quitar",
    "host": "anfitrion",
    "settings": "ajustes",
    "config": "configurar",
}

PARAMETER_NAMES_ES: dict[str, str] = {
    "clock": "reloj",
    "timeout": "tiempo_agotado",
    "days": "dias",
    "page": "pagina",
    "seat": "asiento",
    "player": "jugador",
    "notify": "aviso",
    "language": "idioma",
    "role": "rol",
    "channel": "canal",
}

DESCRIPTIONS_ES: dict[str, str] = {
    "Every open game of yours, in every server": "Todas tus partidas abiertas, en todos los servidores",
    "The open games of this server": "Las partidas abiertas de este servidor",
    "Stop the clocks of all your games for some days": "Para los relojes de todas tus partidas unos días",
    "Days of vacation (0 ends it)": "Días de vacaciones (0 las termina)",
    "Ask to take back your last move": "Pide deshacer tu última jugada",
    "Follow this channel's game as a spectator (again to stop)":
        "Sigue la partida de este canal como espectador (otra vez para dejarlo)",
    "The game's record, transcript and animation": "El registro, la transcripción y la animación de la partida",
    "Take a player or bot out of the lobby (host)": "Quita a un jugador o a un bot del lobby (anfitrión)",
    "Hand hosting over to another player (host)": "Cede el anfitrión a otro jugador (anfitrión)",
    "The seat to free": "El asiento que se libera",
    "The new host": "El nuevo anfitrión",
    "Turn clock: time each player has to move": "Reloj por turno: tiempo que tiene cada jugador para jugar",
    "When time runs out: the bot plays, or takes the seat": "Al agotarse: juega el bot, u ocupa el asiento",
    "Your own settings": "Tus propios ajustes",
    "How you are told it is your turn": "Cómo se te avisa de que te toca",
    "Server settings (Manage Server)": "Ajustes del servidor (Gestionar servidor)",
    "Language of public messages": "Idioma de los mensajes públicos",
    "Default turn clock of new games": "Reloj por defecto de las partidas nuevas",
    "Role allowed to create games": "Rol que puede crear partidas",
    "Channel where new games open their threads": "Canal donde las partidas nuevas abren sus hilos",
    "Log page": "Página del registro",
}

CHOICES_ES: dict[str, str] = {
    "No clock": "Sin reloj",
    "12 hours": "12 horas",
    "24 hours": "24 horas",
    "48 hours": "48 horas",
    "72 hours": "72 horas",
    "7 days": "7 días",
    "The bot plays for them": "Juega el bot por él",
    "The bot takes the seat": "El bot ocupa el asiento",
    "Mention in the channel": "Mención en el canal",
    "Direct message": "Mensaje directo",
    "Both": "Ambos",
    "Neither": "Ninguno",
    "Spanish": "Español",
    "English": "Inglés",
    "The creator's": "El de quien la crea",
    "Server default": "El del servidor",
}
