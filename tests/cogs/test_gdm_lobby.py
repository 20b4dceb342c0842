"""How a Guerra de Mitos lobby shows the players' decks (who has chosen, never what) and the
private menu of decks, built in memory."""

from __future__ import annotations

import importlib
import json

from cogs.gdm_lobby import LobbyDeckButton, LobbyLook, deck_options
from rules.core import tr
from rules.guerra_de_mitos.decks import ready_decks
from rules.registry import engine
from services.gdm_decks import DeckChoice, ready_choices
from services.gdm_lobby import GAME_ID, GdmLobby, deck_spec
from services.session import Game
from storage import GameRow, SeatRow
from tests.rules.test_guerra_de_mitos_decks import legal_greek

E = engine(GAME_ID)
ALICE, BOB = 101, 202


class _Session:
    store = None


def lobby_game(decks: list) -> Game:
    row = GameRow(
        id=7, guild_id=5, channel_id=900, game_id=GAME_ID,
        options=E.parse_options({"decks": decks}).model_dump(mode="json"), status="lobby", seed=None,
        version=0, state=None, host_id=ALICE, locale="en", board_channel_id=900,
        board_message_id=None, created_at=0.0, updated_at=0.0,
    )
    seats = [
        SeatRow(game=7, seat=0, user_id=ALICE, ai=False, name="alice", locale=None, dm_closed=False),
        SeatRow(game=7, seat=1, user_id=BOB, ai=False, name="bob", locale=None, dm_closed=False),
        SeatRow(game=7, seat=2, user_id=None, ai=True, name="Bot", locale=None, dm_closed=False),
        SeatRow(game=7, seat=3, user_id=None, ai=True, name="Bot 2", locale=None, dm_closed=False),
    ]
    return Game(row=row, seats=seats, engine=E)


def test_the_lobby_says_who_has_chosen_and_never_what() -> None:
    lobby_mod = importlib.import_module("cogs.lobby")
    gl = GdmLobby(_Session())  # type: ignore[arg-type]
    gl._chosen = {7: {BOB: "deck:12"}}
    g = lobby_game(["egipcia", "griega", "nordica"])
    lobby_mod.LOBBY_EXTRAS[GAME_ID] = LobbyLook(gl)
    try:
        text = json.dumps(lobby_mod.render_lobby(g, "en").embed.to_dict(), ensure_ascii=False)
        rendered = lobby_mod.render_lobby(g, "es")
    finally:
        lobby_mod.LOBBY_EXTRAS.pop(GAME_ID, None)
    egypt, norse = ready_decks()["egipcia"], ready_decks()["nordica"]
    assert f"not chosen yet (else: {egypt.name_en})" in text  # alice: the /game new default
    assert "✅ deck chosen" in text and "deck:12" not in text  # bob chose: not what
    assert f"🤖 **Bot** · {norse.name_en}" in text and "🤖 **Bot 2** · a ready deck at random" in text
    assert any(isinstance(i, LobbyDeckButton) for i in rendered.view.children)
    spanish = json.dumps(rendered.embed.to_dict(), ensure_ascii=False)
    assert f"sin elegir (si no: {egypt.name})" in spanish and "✅ mazo elegido" in spanish

    # a seat a tournament fixed; the options show a list as private
    spec = deck_spec(legal_greek()).model_dump(mode="json")
    locked = lobby_game([spec, None])
    assert LobbyLook(gl).seat_note(locked, 0, "en") == " · 🔒 tournament deck"
    shown = lobby_mod.describe_options(locked, "en")
    assert "Decks: chosen privately, a ready deck at random" in shown
    assert legal_greek().pantheon not in shown


def test_the_menu_puts_the_players_decks_first_and_always_the_six_ready_decks() -> None:
    mine = [
        DeckChoice(key=f"deck:{i}", name=tr(f"Mazo {i}", f"Mazo {i}"), deck=legal_greek())
        for i in range(30)
    ]
    options = deck_options([*mine, *ready_choices()], "deck:3", "en")
    values = [o.value for o in options]
    assert len(options) == 25
    assert values[:19] == [f"deck:{i}" for i in range(19)]
    assert values[19:] == [f"ready:{r}" for r in ready_decks()]
    assert [o.value for o in options if o.default] == ["deck:3"]
    assert options[0].description.startswith("your deck · ")
    assert options[-1].description.startswith("ready deck · ")
