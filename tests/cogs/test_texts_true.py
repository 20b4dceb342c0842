"""Everything a player reads is true and in one language: seeded whole games of every game,
in Spanish and English, whose every public and private text (the card, each hand, the menus,
the events each seat may read, the turn's DM, a reaction's DM, the reminders and the catch-up,
the end and the spectators' summary of what each seat held) is scanned for a seat number where a player's name
belongs, for words of the other language or of Python, and for points on the card that disagree with the
final scoring."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import cogs.ankh_morpork  # noqa: F401 - each cog registers its game's presentation
import cogs.guerra_de_mitos  # noqa: F401
import cogs.ragami  # noqa: F401
import cogs.rattus_cartus  # noqa: F401
import cogs.rey_hierofante  # noqa: F401
from cogs.common.i18n import t
from cogs.common.present import GameUI, event_lines, outcome_line, said_by, ui_for
from rules.registry import games
from services.session import Game
from tests.cogs.test_words_in_number import NAMES
from tests.cogs.test_words_in_number import _game as _game

EVERY = 9  # the card, hands and menus every few moves (the events of every move)
MAX_STEPS = 4000

# A seat's number where its player's name belongs, in either language.
SEAT_NUMBER = re.compile(r"\b(?:Player|Jugador|Jugadora|seat|asiento) [1-9]\b", re.I)
# Words that, read in one language (the key), belong to the other: short, common, and in
# no name of either language.
OTHER = {
    "es": re.compile(r"\b(?:the|of|and|with|your|you|wins|win|is|are|from|their|Mr|Mrs|Sir|Guild|"
                     r"Street|House|Shop|Player|cards|turn|points|draws|plays|pays|have|held|time|"
                     r"runs|out|game|games|hand|this|that|it|to|on|at|by|for|round|move|moves|choose|"
                     r"enter|nobody|none)\b", re.I),
    "en": re.compile(r"\b(?:el|los|las|del|y|con|por|para|que|una|juega|gana|ganan|roba|paga|carta|"
                     r"cartas|Jugador|turno|puntos|Señor|Señora|Gremio|se|tu|tus|su|sus|tiempo|acaba|"
                     r"partida|partidas|mano|es|al|ha|han|elige|jugada|jugadas|ronda|nadie|tenía)\b", re.I),
}
# Python's own words where a sentence belongs: a list of numbers, None, True, False.
CODE = re.compile(r"\[\d+(?:, \d+)+\]|\b(?:None|True|False)\b")
# Points on the card: a number right before the game's word for them.
POINTS = re.compile(r"(?<![\d.,])(-?\d+(?:[.,]\d+)?)\s*\**\s*(?:VP|PV|points|puntos)\b")


def _embed(rendered: Any) -> list[str]:
    data = rendered.embed.to_dict()
    out = [data.get("title", ""), data.get("description", ""), rendered.content or ""]
    out += [f["name"] + "\n" + f["value"] for f in data.get("fields", [])]
    return out


def problems(text: str, lang: str) -> list[str]:
    """A seat's number where a name belongs, words of the other language, and Python's
    words (a list, None), in ``text``."""
    return [m[0] for m in (*SEAT_NUMBER.finditer(text), *OTHER[lang].finditer(text), *CODE.finditer(text))]


def disagreements(g: Game, ui: GameUI, lang: str) -> list[str]:
    """Points the finished game's card gives a player other than the final scoring's."""
    assert g.state is not None
    out = g.engine.outcome(g.state)
    assert out is not None
    found = []
    for field in ui.board(g, [], lang).embed.fields:
        for line in (field.value or "").splitlines():
            named = [s for s in range(len(g.seats)) if f"**{NAMES[s]}**" in line or f"<@{101 + s}>" in line]
            if len(named) != 1 or named[0] not in out.scores:
                continue  # a line about nobody, or about several players
            want = out.scores[named[0]]
            found += [f"{line} (final: {want:g})" for m in POINTS.finditer(line)
                      if float(m[1].replace(",", ".")) != want]
    return found


def _turn_dm_and_reminders(g: Game, seat: int, prompt: str, events: list[Any], lang: str) -> list[str]:
    """What reaches a pending seat by DM (as cogs/common/player_messages.py words it): the
    turn's DM with its prompt, time left and catch-up (the last events, told as the bot's
    moves in that seat when they were), the reminders alone and grouped."""
    title, when = g.engine.title.get(lang), "<t:1900000000:R>"
    told = [said_by(g, seat, event_lines(events, lang, seat, g=g), lang)]
    return [
        t("turn.dm", lang, title=title, id=g.id, channel="<#1>", prompt=prompt),
        t("turn.time_left", lang, when=when),
        t("catchup.title", lang), *[t("catchup.bot_for_you", lang, move=x) for x in told if x],
        # a secret choice the bot made for the seat, told in the words of its move menu
        *[t("catchup.bot_chose", lang, choice=ui_for(g.row.game_id).label(g, seat, a, lang))
          for a in g.legal_actions(seat)[:1]],
        t("clock.reminder", lang, title=title, id=g.id, channel="<#1>", when=when, n=1),
        t("clock.reminders", lang),
        t("clock.reminders_line", lang, title=title, id=g.id, channel="<#1>", when=when),
    ]


def _texts(g: Game, ui: GameUI, events: list[Any], lang: str, full: bool) -> list[str]:
    texts = []
    for seat in [None, *range(len(g.seats))]:
        texts += event_lines(events, lang, seat, g=g)
    if not full:
        return texts
    texts += _embed(ui.board(g, events, lang))
    for seat in range(len(g.seats)):
        texts += _embed(ui.private(g, seat, lang))
    for seat, prompt in g.pending().items():
        if ui.reaction(g, seat):  # asked by DM, out of turn
            texts.append(t("board.react_dm", lang, who="<@1>", title=g.engine.title.get(lang), id=g.id,
                           channel="<#1>"))
        texts.append(ui.menu_text(g, seat, lang))
        texts += [ui.label(g, seat, a, lang) for a in g.legal_actions(seat)[:40]]
        texts += _turn_dm_and_reminders(g, seat, ui.wording(g, prompt.text, lang), events, lang)
    if g.state is not None and g.state.finished:
        texts.append(outcome_line(g, lang))
        # the spectators' summary at the end: what every seat held, under its player's name
        for seat in range(len(g.seats)):
            texts += [t("final.held", lang, name=NAMES[seat]), *ui.revealed_lines(g, seat, lang)]
    return texts


@pytest.mark.parametrize("game_id", sorted(games()))
def test_whole_games_read_true_and_in_one_language(game_id: str) -> None:
    eng = games()[game_id]
    ui = ui_for(game_id)
    found: list[tuple[str, str, str]] = []
    ended = 0
    for seats in sorted({eng.min_players, min(eng.max_players, 3)}):
        g = _game(game_id, seats, seed=seats)
        rnd = random.Random(f"{game_id}:{seats}")
        events: list[Any] = []
        seen: set[str] = set()
        for step in range(MAX_STEPS):
            pending = eng.pending(g.state)
            # every few moves, and at the first of each kind of decision (Rey y Hierofante's
            # choice of who starts the next game comes once or twice a match)
            kinds = {p.kind for p in pending.values()}
            full = step % EVERY == 0 or not pending or not kinds <= seen
            seen |= kinds
            for lang in ("es", "en"):
                for text in _texts(g, ui, events, lang, full):
                    found += [(lang, p, text) for p in problems(text, lang)]
            if not pending:
                break
            seat = rnd.choice(sorted(pending))
            g.state, events = eng.apply(g.state, seat, rnd.choice(eng.legal_actions(g.state, seat)))
        assert g.state is not None
        if g.state.finished:
            ended += 1
            for lang in ("es", "en"):
                found += [(lang, "points", x) for x in disagreements(g, ui, lang)]
    assert ended, "no game reached its end"
    assert not found, found[:10]


def test_the_checks_catch_what_they_look_for() -> None:
    assert problems("Gana Player 2.", "es") == ["Player 2", "Player"]
    assert problems("Jugador 3 wins.", "en") == ["Jugador 3", "Jugador"]
    assert problems("ana juega El Tambor Remendado.", "es") == []
    assert problems("ana plays The Mended Drum.", "es") == ["plays", "The"]
    assert problems("ana plays El Tambor Remendado.", "en") == ["El"]
    assert problems("Mictlán, Cthulhu y Gaspode", "es") == []
    assert problems("La fila muestra [0, 3, 2]: 5.", "es") == ["[0, 3, 2]"]
    assert problems("La fila muestra 0 + 3 + 2: 5. Mitra: False", "es") == ["False"]
    assert [m[1] for m in POINTS.finditer("ana: 4 en mano · **44 PV** · 0.5 VP · 30P")] == ["44", "0.5"]
