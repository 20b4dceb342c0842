"""Messages and Spanish names of /tournament (/torneo) and /rating (/clasificacion)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "tourney.title": {"es": "🏆 {name} · torneo #{id}", "en": "🏆 {name} · tournament #{id}"},
    "tourney.game_line": {"es": "Juego: {game}", "en": "Game: {game}"},
    "tourney.format_line": {"es": "Formato: {format}", "en": "Format: {format}"},
    "tourney.format.swiss": {"es": "suizo", "en": "Swiss"},
    "tourney.format.round_robin": {"es": "liga (todos contra todos)", "en": "round robin"},
    "tourney.format.single_elim": {"es": "eliminación directa", "en": "single elimination"},
    "tourney.format.double_elim": {"es": "doble eliminación", "en": "double elimination"},
    "tourney.table_size_line": {
        "es": "Mesas de hasta {n} jugadores",
        "en": "Tables of up to {n} players",
    },
    "tourney.rounds_line": {"es": "Rondas: {n}", "en": "Rounds: {n}"},
    "tourney.clock_line": {"es": "Reloj: {clock}", "en": "Clock: {clock}"},
    "tourney.seeding.rating": {"es": "Cabezas de serie por rating", "en": "Seeded by rating"},
    "tourney.seeding.random": {"es": "Cabezas de serie al azar", "en": "Seeded at random"},
    "tourney.rated": {"es": "Sus partidas cuentan para el rating", "en": "Its games are rated"},
    "tourney.unrated": {
        "es": "Sus partidas no cuentan para el rating",
        "en": "Its games are not rated",
    },
    "tourney.cap_line": {"es": "Plazas: {n}", "en": "Places: {n}"},
    "tourney.check_in_line": {
        "es": "Hay que confirmar asistencia (**Confirmar**) antes del comienzo",
        "en": "Entrants must check in (**Check in**) before the start",
    },
    "tourney.deadline_line": {"es": "Inscripción hasta {when}", "en": "Sign-up closes {when}"},
    "tourney.entrants": {"es": "Inscritos ({n}{cap})", "en": "Entrants ({n}{cap})"},
    "tourney.signup_footer": {
        "es": "Apúntate con el botón; puedes salir hasta que empiece.",
        "en": "Sign up with the button; you may leave until it starts.",
    },
    "tourney.btn.checkin": {"es": "Confirmar", "en": "Check in"},
    "tourney.thread": {
        "es": "{name} · R{round} · mesa {table}",
        "en": "{name} · R{round} · table {table}",
    },
    "tourney.table_intro": {
        "es": "🏆 **{name}**, ronda {round}, mesa {table}: {game}.\nJugadores: {players}\nReloj: {clock}",
        "en": "🏆 **{name}**, round {round}, table {table}: {game}.\nPlayers: {players}\nClock: {clock}",
    },
    "tourney.standings_link": {"es": "Clasificación: {url}", "en": "Standings: {url}"},
    "tourney.table_closed": {
        "es": "Esta mesa del torneo se ha cerrado sin terminar la partida.",
        "en": "This tournament table has been closed before its game ended.",
    },
    "tourney.line": {
        "es": "{rank}. {who} — **{points}** pts ({games} partidas, {wins} victorias)",
        "en": "{rank}. {who} — **{points}** pts ({games} games, {wins} wins)",
    },
    "tourney.line_elim": {
        "es": "{rank}. {who} ({wins} de {games} ganadas)",
        "en": "{rank}. {who} ({wins} of {games} won)",
    },
    "tourney.dropped_mark": {"es": "(retirado)", "en": "(dropped)"},
    "tourney.more": {"es": "… y {n} más (imagen y CSV)", "en": "… and {n} more (picture and CSV)"},
    "tourney.standings_title": {
        "es": "Clasificación · {name} (#{id})",
        "en": "Standings · {name} (#{id})",
    },
    "tourney.status.running": {"es": "En juego: ronda {round}", "en": "Playing: round {round}"},
    "tourney.status.finished": {"es": "Terminado", "en": "Finished"},
    "tourney.status.cancelled": {"es": "Cancelado", "en": "Cancelled"},
    "tourney.tb_footer": {"es": "Desempates: {tiebreaks}", "en": "Tie-breaks: {tiebreaks}"},
    "tourney.tb.median_buchholz": {"es": "Buchholz mediano", "en": "median Buchholz"},
    "tourney.tb.buchholz": {"es": "Buchholz", "en": "Buchholz"},
    "tourney.tb.sonneborn_berger": {"es": "Sonneborn-Berger", "en": "Sonneborn-Berger"},
    "tourney.tb.head_to_head": {"es": "enfrentamiento directo", "en": "head to head"},
    "tourney.tb.game_points": {"es": "puntos de partida", "en": "game points"},
    "tourney.result": {
        "es": "Ronda {round}, mesa {table} ({how}): {order}",
        "en": "Round {round}, table {table} ({how}): {order}",
    },
    "tourney.kind.game": {"es": "partida", "en": "game"},
    "tourney.kind.abandoned": {"es": "abandono", "en": "abandoned"},
    "tourney.kind.awarded": {"es": "decidido por la organización", "en": "awarded"},
    "tourney.kind.nobody": {"es": "nadie gana", "en": "nobody won"},
    "tourney.kind.bye": {"es": "descanso", "en": "bye"},
    "tourney.replayed": {
        "es": "La mesa {table} se juega otra vez: {thread}",
        "en": "Table {table} is played again: {thread}",
    },
    "tourney.round_opened": {
        "es": "🏆 **{name}**: empieza la ronda {round}.",
        "en": "🏆 **{name}**: round {round} begins.",
    },
    "tourney.table_line": {
        "es": "Mesa {table}: {who} · {thread}",
        "en": "Table {table}: {who} · {thread}",
    },
    "tourney.bye": {"es": "Descansa (gana 1 punto): {who}", "en": "Bye (scores 1 point): {who}"},
    "tourney.finished": {
        "es": "🏆 **{name}** ha terminado. Podio:",
        "en": "🏆 **{name}** is over. The podium:",
    },
    "tourney.cancelled": {
        "es": "El torneo **{name}** se ha cancelado.",
        "en": "The tournament **{name}** has been cancelled.",
    },
    "tourney.cancelled_few": {
        "es": "El torneo **{name}** se ha cancelado al cerrar la inscripción: {why}",
        "en": "The tournament **{name}** was cancelled when sign-up closed: {why}",
    },
    "tourney.no_threads": {
        "es": "⚠️ No puedo abrir los hilos de las mesas aquí: me faltan estos permisos: {perms}. "
        "Las mesas se abrirán solas en cuanto los tenga.",
        "en": "⚠️ I cannot open the tables' threads here: I am missing these permissions: {perms}. "
        "The tables will open by themselves once I have them.",
    },
    "tourney.text_channel": {
        "es": "Crea el torneo en un canal de texto: cada mesa abrirá en él un hilo.",
        "en": "Create the tournament in a text channel: each table will open a thread in it.",
    },
    "tourney.none_here": {
        "es": "No hay ningún torneo abierto aquí.",
        "en": "There is no open tournament here.",
    },
    "tourney.which": {
        "es": "Hay varios torneos abiertos: elige uno con la opción torneo.",
        "en": "Several tournaments are open: pick one with the tournament option.",
    },
    "tourney.not_organiser": {
        "es": "Solo la organización (Gestionar servidor o el rol de torneos de /configurar) puede hacer eso.",
        "en": "Only organisers (Manage Server or the tournament role from /config) can do that.",
    },
    "tourney.joined": {
        "es": "Te has inscrito en **{name}**.",
        "en": "You have signed up for **{name}**.",
    },
    "tourney.left": {
        "es": "Ya no estás inscrito en **{name}**.",
        "en": "You are no longer signed up for **{name}**.",
    },
    "tourney.started": {"es": "**{name}** ha empezado.", "en": "**{name}** has started."},
    "tourney.awarded": {
        "es": "Resultado de la mesa {table} anotado.",
        "en": "Table {table}'s result recorded.",
    },
    "tourney.repaired": {
        "es": "La mesa {table} empieza de nuevo.",
        "en": "Table {table} starts again.",
    },
    "tourney.dropped": {
        "es": "{who} se retira del torneo.",
        "en": "{who} has dropped from the tournament.",
    },
    "tourney.ended": {"es": "**{name}** se ha cerrado.", "en": "**{name}** has been closed."},
    "tourney.no_table": {
        "es": "No hay mesa {table} en la ronda actual.",
        "en": "There is no table {table} in the current round.",
    },
    "tourney.ranking_help": {
        "es": "Escribe la clasificación de la mesa con menciones, la mejor primero (un «=» entre dos los empata).",
        "en": "Write the table's ranking as mentions, best first (an '=' between two ties them).",
    },
    "config.organiser_role": {"es": "Organizan torneos", "en": "Tournament organisers"},
    "config.manage_server": {"es": "Gestionar servidor", "en": "Manage Server"},
    "rating.me_title": {"es": "Rating de {who}", "en": "{who}'s ratings"},
    "rating.value": {
        "es": "Rating **{rating}** ({n} partidas puntuadas)",
        "en": "Rating **{rating}** ({n} rated games)",
    },
    "rating.unrated": {"es": "Sin rating todavía", "en": "Not rated yet"},
    "rating.record": {
        "es": "{games} partidas, {wins} victorias · últimas: {recent}",
        "en": "{games} games, {wins} wins · latest: {recent}",
    },
    "rating.none": {"es": "Aún no hay partidas terminadas.", "en": "No finished games yet."},
    "rating.top_title": {"es": "Mejores de {game}", "en": "Best at {game}"},
    "rating.top_line": {
        "es": "{rank}. {who} — **{rating}** ({n} partidas)",
        "en": "{rank}. {who} — **{rating}** ({n} games)",
    },
    "rating.nobody": {
        "es": "Nadie tiene rating en este juego todavía.",
        "en": "Nobody is rated at this game yet.",
    },
    "rating.footer": {
        "es": "Estimación prudente (OpenSkill, μ − 3σ): sube al ganar y al jugar más.",
        "en": "Conservative estimate (OpenSkill, μ − 3σ): rises with wins and with games played.",
    },
}

COMMAND_NAMES_ES: dict[str, str] = {
    "tournament": "torneo",
    "create": "crear",
    "standings": "clasificacion",
    "award": "adjudicar",
    "repair": "repetir",
    "drop": "retirar",
    "end": "terminar",
    "rating": "rating",
    "me": "yo",
    "top": "mejores",
}

PARAMETER_NAMES_ES: dict[str, str] = {
    "name": "nombre",
    "format": "formato",
    "rounds": "rondas",
    "table_size": "jugadores_mesa",
    "cap": "plazas",
    "check_in": "confirmar",
    "seeding": "cabezas_de_serie",
    "rated": "puntua",
    "signup_hours": "horas_inscripcion",
    "tournament": "torneo",
    "table": "mesa",
    "ranking": "clasificacion",
    "organiser_role": "rol_torneos",
}

DESCRIPTIONS_ES: dict[str, str] = {
    "Tournaments of this server": "Torneos de este servidor",
    "Ratings of this server": "Ratings de este servidor",
    "Create a tournament with sign-up in this channel": "Crea un torneo con inscripción en este canal",
    "The tournament's name": "El nombre del torneo",
    "How players are paired": "Cómo se emparejan los jugadores",
    "Rounds (Swiss; default: enough to separate the field)": "Rondas (suizo; por defecto, las necesarias para desempatar)",
    "Players per table (multiplayer games: 3 to 5)": "Jugadores por mesa (juegos multijugador: de 3 a 5)",
    "Turn clock of its games": "Reloj por turno de sus partidas",
    "Most players that may sign up": "Máximo de inscritos",
    "Players must check in before the start": "Hay que confirmar asistencia antes de empezar",
    "Seeding by rating or at random": "Cabezas de serie por rating o al azar",
    "Its games count for ratings": "Sus partidas cuentan para el rating",
    "Sign-up closes and the tournament starts after these hours": "La inscripción se cierra y el torneo empieza pasadas estas horas",
    "Game options as key=value separated by spaces": "Opciones del juego como clave=valor separadas por espacios",
    "Sign up for the tournament": "Inscríbete en el torneo",
    "Withdraw before the tournament starts": "Retira tu inscripción antes de que empiece",
    "Close sign-up and open round 1 (organiser)": "Cierra la inscripción y abre la ronda 1 (organización)",
    "The standings, a picture and a CSV file": "La clasificación, una imagen y un archivo CSV",
    "Decide a table's result (organiser)": "Decide el resultado de una mesa (organización)",
    "The table's number in the current round": "El número de la mesa en la ronda actual",
    "Players best first as mentions; '=' between two ties them": "Jugadores, el mejor primero, como menciones; un «=» entre dos los empata",
    "Start a table again with a new game (organiser)": "Repite una mesa con una partida nueva (organización)",
    "Drop a player from the rest of the tournament (organiser)": "Retira a un jugador del resto del torneo (organización)",
    "The player to drop": "El jugador que se retira",
    "End the tournament now; the standings stand (organiser)": "Termina el torneo ya; la clasificación queda como está (organización)",
    "Which tournament": "Qué torneo",
    "Your ratings and record on this server": "Tu rating y tu historial en este servidor",
    "Whose ratings (default: yours)": "De quién (por defecto, tú)",
    "The server's best players of a game": "Los mejores jugadores de un juego en este servidor",
    "Role allowed to run tournaments (besides Manage Server)": "Rol que puede organizar torneos (además de Gestionar servidor)",
}

CHOICES_ES: dict[str, str] = {
    "Swiss": "Suizo",
    "Round robin": "Liga",
    "Single elimination": "Eliminación directa",
    "Double elimination": "Doble eliminación",
    "By rating": "Por rating",
    "At random": "Al azar",
}


def register() -> None:
    """Add these messages and names to the shared catalogue (once; a clash is a bug)."""
    from cogs.common import i18n

    for table, extra in (
        (i18n.MESSAGES, MESSAGES),
        (i18n.COMMAND_NAMES_ES, COMMAND_NAMES_ES),
        (i18n.PARAMETER_NAMES_ES, PARAMETER_NAMES_ES),
        (i18n.DESCRIPTIONS_ES, DESCRIPTIONS_ES),
        (i18n.CHOICES_ES, CHOICES_ES),
    ):
        clash = [k for k in extra if k in table and table[k] != extra[k]]  # type: ignore[operator]
        if clash:
            raise RuntimeError(f"message ids defined twice: {sorted(clash)}")
        table.update(extra)  # type: ignore[attr-defined]
