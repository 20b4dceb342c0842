"""Rattus Cartus in Discord without Discord: its board, hands, panels, picture and options."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs.common.choices import announcement
from cogs.common.present import ui_for
from cogs.lobby import gather_options, option_suggestions
from cogs.pictures.rattus_cartus import render_board
from cogs.rattus_cartus import (
    UI,
    _check_entering,
    building_panel,
    cards_panel,
    entering_steps,
    playable_cards,
    resolve_building,
)
from rules.core import RuleError, Text
from rules.rattus_cartus.cards import BUILDINGS, KIND, NUNS, PILES
from rules.rattus_cartus.engine import RcEngine, playable
from rules.rattus_cartus.model import Done, Enter, Play, PrivateView, RcState, Undo
from services.session import Game, MoveResult, SessionService, Step
from storage import GameRow, SeatRow, Store

E = RcEngine()
USERS = (101, 202, 303, 404, 505)
NAMES = ("alice", "bob", "carol", "dave", "eve")
# A population card's full name carries its nuns, which only its holder may know.
FULL_NAME = re.compile(r"\((?:Peasantry|Bourgeoisie|Church|Knighthood|Sorcery|Royalty), \d nuns\)"
                       r"|\((?:Campesinado|Burguesía|Iglesia|Caballería|Hechicería|Realeza), \d rel\.\)")


def game(state: RcState | None = None, *, seats: int = 3, locale: str = "en", seed: int = 7) -> Game:
    """A Rattus Cartus game around ``state`` (a fresh seeded one by default)."""
    state = state or E.setup(seats, {}, seed)
    row = GameRow(
        id=1, guild_id=5, channel_id=900, game_id="rattus_cartus", options={}, status="active",
        seed=seed, version=state.version, state=None, host_id=USERS[0], locale=locale,
        board_channel_id=900, board_message_id=None, created_at=0.0, updated_at=0.0,
    )
    rows = [SeatRow(game=1, seat=i, user_id=USERS[i], ai=False, name=NAMES[i], locale=None, dm_closed=False)
            for i in range(seats)]
    return Game(row=row, seats=rows, engine=E, state=state)


def play(g: Game, seat: int, action: Any) -> list[Any]:
    assert g.state is not None
    g.state, events = E.apply(g.state, seat, action)
    return events


def to_phase(g: Game, phase: str, rng: random.Random | None = None) -> None:
    """Play random legal moves until the game reaches ``phase``."""
    rng = rng or random.Random(1)
    assert g.state is not None
    while g.state.phase != phase:
        seat = sorted(E.pending(g.state))[0]
        play(g, seat, rng.choice(E.legal_actions(g.state, seat)))


def embed_text(embed: discord.Embed) -> str:
    return json.dumps(embed.to_dict(), ensure_ascii=False)


def test_rules_texts_name_the_players() -> None:
    g = game()
    text = Text(es="Jugador 2 da 1 carta a Jugador 3.", en="Player 2 gives 1 card to Player 3.")
    assert UI.wording(g, text, "en") == "**bob** gives 1 card to **carol**."
    assert UI.wording(g, text, "es") == "**bob** da 1 carta a **carol**."
    turn = [line for line in announcement(g, MoveResult(game=g, before=g.state), "es").split("\n")]
    assert all("Jugador" not in line for line in turn)


def test_phase_b_board_shows_who_is_still_to_answer_and_nothing_of_the_choice() -> None:
    g = game()
    before = g.state
    choice = E.legal_actions(g.state, 1)[-1]
    events = play(g, 1, choice)
    rendered = UI.board(g, events, "en")
    fields = {f.name: f.value for f in rendered.embed.fields}
    assert "✅ has chosen: <@202>" in fields["Supply"]
    assert "still to choose: <@101> and <@303>" in fields["Supply"]
    assert "<@101>" in rendered.content and "<@303>" in rendered.content and "<@202>" not in rendered.content
    text = embed_text(rendered.embed)
    label = E.describe(g.state, 1, choice)
    assert label.en not in text and label.es not in text
    said = announcement(g, MoveResult(game=g, before=before, steps=[
        Step(seat=1, action=choice, events=events, version=1)]), "en")
    assert said.startswith("**bob** has chosen their supply.") and label.en not in said


def test_public_board_never_shows_a_hand_and_private_views_show_their_own() -> None:
    rng = random.Random(4)
    g = game(seed=11)
    assert g.state is not None
    steps = 0
    while not g.state.finished:
        seat = sorted(E.pending(g.state))[0]
        events = play(g, seat, rng.choice(E.legal_actions(g.state, seat)))
        steps += 1
        if steps % 7:
            continue
        for locale in ("en", "es"):
            public = embed_text(UI.board(g, events, locale).embed) + announcement(
                g, MoveResult(game=g, before=None, steps=[Step(seat=seat, action=Done(), events=events, version=1)]),
                locale)
            assert not FULL_NAME.search(public), public
            for s in range(3):
                mine = "\n".join(UI.private_lines(g, s, locale))
                held = [c for c in g.state.hands[s] if c in NUNS]
                if held:
                    assert FULL_NAME.search(mine)
                assert f"({len(g.state.hands[s])})" in mine
    assert g.state.final is not None
    fields = {f.name: f.value for f in UI.board(g, [], "en").embed.fields}
    assert all(f"**{f.total} VP**" in fields["Final scoring"] for f in g.state.final)


def test_dms_follow_hand_rats_and_peeks_not_the_steps_of_a_choice() -> None:
    g = game()
    to_phase(g, "enter")
    assert g.state is not None
    seat = g.state.queue[0]
    facts = UI.dm_facts(g, g.state, seat)
    play(g, seat, Enter(building=0))
    assert UI.dm_facts(g, g.state, seat) == facts
    card = next((c for c in g.state.hands[seat] if playable(c)), None)
    if card is not None:
        play(g, seat, Play(card=card))
        assert UI.dm_facts(g, g.state, seat) == facts
    # the seat's picks do show in its own hand view, for when it looks
    assert "You are entering" in "\n".join(UI.private_lines(g, seat, "en"))
    play(g, seat, Done())
    assert UI.dm_facts(g, g.state, seat) != facts or card is None


def test_entering_takes_back_a_half_made_choice_first() -> None:
    g = game()
    to_phase(g, "enter")
    assert g.state is not None
    seat = g.state.queue[0]
    cards = [c for c in g.state.hands[seat] if playable(c)][:2]
    fresh = UI.view(g, seat)
    assert entering_steps(fresh, 1, cards) == [Enter(building=1), *(Play(card=c) for c in cards), Done()]
    play(g, seat, Enter(building=0))
    if cards:
        play(g, seat, Play(card=cards[0]))
    half = UI.view(g, seat)
    steps = entering_steps(half, 1, cards)
    assert steps[: 1 + len(cards[:1])] == [Undo()] * (1 + len(cards[:1]))
    state = g.state
    for a in steps:  # the engine accepts every step in order
        state, _ = E.apply(state, seat, a)
    assert state.where[seat] == 1 and sorted(state.played[seat]) == sorted(cards)


def test_panels_are_private_menus_of_the_seats_own_cards() -> None:
    g = game()
    to_phase(g, "enter")
    assert g.state is not None
    seat = g.state.queue[0]
    menu = UI.menu(g, seat, "en")
    assert menu is not None
    ids = [c.custom_id for c in menu.children]  # type: ignore[attr-defined]
    assert ids[0] == f"tablero:rc:enter:1:{g.version}:{seat}"
    text, view = cards_panel(g, seat, 0, "en")
    assert "only you see" in text
    items = [getattr(c, "item", c) for c in view.children]
    values = [o.value for c in items if isinstance(c, discord.ui.Select) for o in c.options]
    assert sorted(values) == sorted(c for c in g.state.hands[seat] if playable(c))
    assert UI.menu(g, (seat + 1) % 3, "en") is None  # not their turn: no panel
    assert building_panel(g, seat, "es").children


def test_a_huge_hand_offers_25_cards_of_every_kind() -> None:
    hand = [c for c in NUNS][:40] + PILES["espada"][:3] + PILES["joker"][:2] + PILES["oro"][:2]
    me = PrivateView(hand=hand, rats=[], peeks={}, supply_choice=None, entering=None, picking=[], played=[])
    offered = playable_cards(me)
    assert len(offered) == 25 and all(playable(c) for c in offered)
    assert {KIND[c] for c in offered} == {KIND[c] for c in hand if playable(c)}


def test_picture_is_drawn_from_the_public_view_only() -> None:
    g = game(seats=5, seed=3)
    assert g.state is not None
    rng = random.Random(2)
    while not g.state.finished:  # the board is drawn again after every move
        seat = sorted(E.pending(g.state))[0]
        play(g, seat, rng.choice(E.legal_actions(g.state, seat)))
        png = render_board(E.view(g.state, None), g.names, "es")  # type: ignore[arg-type]
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError):
        render_board(E.view(g.state, 0), g.names, "es")  # type: ignore[arg-type]
    assert UI.picture(g, 0, "en") is None and UI.picture(g, None, "en") is not None
    # The registered presentation is this game's (a bot loading the extension again runs the
    # module anew, so compare what it is, not which object).
    registered = ui_for("rattus_cartus")
    assert type(registered).__qualname__ == type(UI).__qualname__ and registered.game_id == UI.game_id


def test_lobby_offers_and_reads_the_options_of_the_engine() -> None:
    offered = [c.value for c in option_suggestions(E, "", "en")]
    assert {"buildings=first_game", "buildings=random_cards", "buildings=random_buildings",
            "all_eliminated=fewest_rats"} <= set(offered)
    more = [c.value for c in option_suggestions(E, "buildings=chosen chosen=granja+cast", "es")]
    assert "buildings=chosen chosen=granja+castillo" in more
    assert all(v.startswith("buildings=chosen chosen=granja+") for v in more)
    text = "buildings=chosen chosen=granja+mercado+monasterio+castillo+palacio+tienda"
    opts = gather_options(E, {}, text)
    assert opts["chosen"] == ["granja", "mercado", "monasterio", "castillo", "palacio", "tienda"]
    assert E.parse_options(opts).chosen[0] == "granja"
    with pytest.raises(RuleError):
        E.parse_options(gather_options(E, {}, "buildings=chosen chosen=granja+mercado"))


async def test_several_steps_commit_together_or_not_at_all(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "tablero.db")
    try:
        service = SessionService(store, seed_source=lambda: 99)
        g = await service.create(guild_id=1, channel_id=900, game_id="rattus_cartus", options={},
                                 host_id=USERS[0], host_name="alice", locale="en")
        await service.join(g.id, user_id=USERS[1], name="bob", locale="es")
        await service.start(g.id, by=USERS[0])
        g = await service.require(g.id)
        for seat in sorted(g.pending()):
            await service.move(g.id, g.seat_row(seat).user_id or 0, g.legal_actions(seat)[0])
        assert isinstance(g.state, RcState) and g.state.phase == "enter"
        seat = g.state.queue[0]
        user = g.seat_row(seat).user_id or 0
        version = g.version
        not_mine = next(c for c in NUNS if c not in g.state.hands[seat])
        with pytest.raises(RuleError):
            await service.move_many(g.id, user, [Enter(building=0), Play(card=not_mine), Done()], version)
        assert g.version == version and len(await store.actions(g.id)) == version
        cards = [c for c in g.state.hands[seat] if playable(c)][:2]
        result = await service.move_many(g.id, user, [Enter(building=0), *(Play(card=c) for c in cards), Done()],
                                          version)
        assert [s.seat for s in result.steps[: len(cards) + 2]] == [seat] * (len(cards) + 2)
        assert len(await store.actions(g.id)) == g.version
        said = announcement(g, result, "en")
        assert said.count("**alice**") + said.count("**bob**") >= 1
        assert f"with {len(cards)} card" in said and not FULL_NAME.search(said)
    finally:
        await store.close()


FRENCH_BUILDINGS = {
    "Farm": "Ferme", "Brewery": "Brasserie", "Marketplace": "Marché", "Office": "Bureau",
    "Monastery": "Monastère", "Hospital": "Hôpital", "Castle": "Château", "Guard Tower": "Tour de guet",
    "Palace": "Palais", "Treasury": "Trésor", "Fortune-teller's Tent": "Tente de la diseuse",
    "Piper's Hut": "Cabane du joueur de flûte",
}


@pytest.fixture
def with_french(tmp_path: Path) -> Any:
    """The shipped catalogues of both sides plus French ones, as a server would drop them in."""
    from babel.messages.catalog import Catalog

    from cogs.common import catalogue as cogs_catalogue
    from rules import catalogue as rules_catalogue

    rules_root, cogs_root = tmp_path / "rules", tmp_path / "cogs"
    shutil.copytree(rules_catalogue.LOCALE_DIR, rules_root)
    shutil.copytree(cogs_catalogue.LOCALE_DIR, cogs_root)
    names = Catalog(locale="fr", domain="rattus_cartus")
    for en, fr in FRENCH_BUILDINGS.items():
        names.add(en, fr)
    rules_catalogue.save(rules_root, "fr", "rattus_cartus", names)
    words = Catalog(locale="fr", domain=cogs_catalogue.DOMAIN)
    words.add("rc.unknown_building", "« {value} » n'est pas un bâtiment de cette manche. Il y a : {options}")
    cogs_catalogue.save(cogs_root, "fr", words)
    rules_before, cogs_before = rules_catalogue.use(rules_root), cogs_catalogue.use(cogs_root)
    yield
    cogs_catalogue.restore(cogs_before)
    rules_catalogue.restore(rules_before)


def _entering_view(g: Game) -> Any:
    to_phase(g, "enter")
    assert g.state is not None
    return UI.view(g, g.state.queue[0])


def test_an_unknown_building_is_refused_in_the_readers_language_with_the_rounds_buildings() -> None:
    v = _entering_view(game())
    with pytest.raises(RuleError) as caught:
        resolve_building(v, "nowhere", "en")
    es = ", ".join(f"{b.index + 1}. {BUILDINGS[b.building].name.get('es')}" for b in v.row)
    en = ", ".join(f"{b.index + 1}. {BUILDINGS[b.building].name.get('en')}" for b in v.row)
    assert caught.value.text.get("es") == f"«nowhere» no es un edificio de esta ronda. Hay: {es}"
    assert caught.value.text.get("en") == f"'nowhere' is not one of this round's buildings. There are: {en}"


def test_a_third_language_finds_and_lists_the_buildings_by_its_own_names(with_french: None) -> None:
    v = _entering_view(game())
    first = v.row[0]
    french = FRENCH_BUILDINGS[BUILDINGS[first.building].name.get("en")]
    assert resolve_building(v, french.upper(), "fr") == first.index
    # the other languages' names still find it
    assert resolve_building(v, BUILDINGS[first.building].name.get("es"), "fr") == first.index
    with pytest.raises(RuleError) as caught:
        resolve_building(v, "nulle part", "fr")
    listed = ", ".join(f"{b.index + 1}. {FRENCH_BUILDINGS[BUILDINGS[b.building].name.get('en')]}" for b in v.row)
    assert caught.value.text.get("fr") == f"« nulle part » n'est pas un bâtiment de cette manche. Il y a : {listed}"
    assert caught.value.text.get("fr-FR") == caught.value.text.get("fr")


def test_entering_out_of_turn_is_refused_with_what_is_asked_or_nothing_more() -> None:
    g = game()
    to_phase(g, "enter")
    assert g.state is not None
    waiting = next(s for s in range(3) if s not in E.pending(g.state))
    with pytest.raises(RuleError) as caught:
        _check_entering(g, waiting, "en")
    assert caught.value.text.get("en") == "It is not your turn to enter a building."
    assert caught.value.text.get("es") == "Ahora no te toca entrar en un edificio."
