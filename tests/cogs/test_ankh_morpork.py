"""Mundodisco: Ankh-Morpork in Discord without Discord: its board, hands, step panel,
reaction windows, picture and commands."""

from __future__ import annotations

import io
import json
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image

from bot import Settings, create_bot
from cogs.ankh_morpork import PANEL, UI, find_card
from cogs.common.choices import ActButton, ActSelect, announcement
from cogs.common.delivery import Delivery
from cogs.common.i18n import Translator
from cogs.common.present import ping_line, turn_lines, ui_for
from cogs.pictures.ankh_morpork import MAP_H, W, render_board
from rules.ankh_morpork.cards import CARDS
from rules.ankh_morpork.model import AmState, Interrupt, Skip
from rules.ankh_morpork.personalities import PERSONALITIES
from rules.core import seat_name
from rules.registry import engine
from services.session import Game, MoveResult, SessionService, Step
from storage import GameRow, SeatRow, Store
from tests.cogs.test_board_delivery import World

E = engine("ankh_morpork")  # with its built-in player
USERS = (101, 202, 303, 404)
NAMES = ("alice", "bob", "carol", "dave")
SEED = 13  # with the AI's choices: Carol answers Alice's assassination with Gaspode
PERSONALITY_NAMES = sorted({n for p in PERSONALITIES.values() for n in (p.name.es, p.name.en)})


def game(state: AmState | None = None, *, seats: int = 3, locale: str = "en", seed: int = SEED,
         closed: tuple[int, ...] = ()) -> Game:
    """An Ankh-Morpork game around ``state`` (a fresh seeded one by default)."""
    state = state or E.setup(seats, {}, seed)
    row = GameRow(
        id=1, guild_id=5, channel_id=900, game_id="ankh_morpork", options={}, status="active",
        seed=seed, version=state.version, state=None, host_id=USERS[0], locale=locale,
        board_channel_id=900, board_message_id=None, created_at=0.0, updated_at=0.0,
    )
    rows = [SeatRow(game=1, seat=i, user_id=USERS[i], ai=False, name=NAMES[i], locale=None, dm_closed=i in closed)
            for i in range(state.num_seats)]
    return Game(row=row, seats=rows, engine=E, state=state)


def play_until(g: Game, stop: Callable[[AmState], bool], limit: int = 400) -> list[Any]:
    """Let the AI play every seat until ``stop(state)``; returns the last move's events."""
    events: list[Any] = []
    for _ in range(limit):
        st = g.state
        assert isinstance(st, AmState)
        if stop(st) or st.finished:
            return events
        seat = next(iter(E.pending(st)))
        g.state, events = E.apply(st, seat, E.ai_action(st, seat))
    raise AssertionError("never got there")


def reacting(st: AmState) -> bool:
    return bool(st.stack) and st.stack[-1].kind == "react"


def embed_text(embed: discord.Embed) -> str:
    return json.dumps(embed.to_dict(), ensure_ascii=False)


def items(view: discord.ui.View) -> list[Any]:
    return [getattr(c, "item", c) for c in view.children]


def hidden_names(st: AmState) -> list[str]:
    """Names that must not reach the channel now: cards in hands, personalities."""
    held = [n for hand in st.hands for c in hand for n in (CARDS[c].name.es, CARDS[c].name.en)]
    return held + ([] if st.finished else PERSONALITY_NAMES)


def shown(text: str, names: list[str]) -> list[str]:
    found = []
    for name in names:
        rest = text
        for c in CARDS.values():
            for longer in (c.name.es, c.name.en):
                if len(longer) > len(name) and name in longer:
                    rest = rest.replace(longer, "")
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", rest):
            found.append(name)
    return found


# ----------------------------------------------------------------------------- words


def test_rules_texts_name_the_players_and_menus_show_no_markdown() -> None:
    g = game()
    assert UI.wording(g, seat_name(1), "es") == "**bob**"
    assert UI.wording(g, seat_name(3), "en") == "Player 4"  # no such seat in a 3-player game
    # words stored before the rules gave seats as values still read with names
    assert UI.named(g, "Jugador 2 juega Gaspode.") == "**bob** juega Gaspode."
    play_until(g, reacting)
    seat = next(iter(g.pending()))
    labels = [UI.label(g, seat, a, "en") for a in g.legal_actions(seat)]
    assert labels[-1] == "No" and all("**" not in x and "Player" not in x for x in labels)
    assert "alice wants to remove one of your minions" in UI.menu_text(g, seat, "en")
    # a bot loading the cog runs the module again and registers its own copy
    assert type(ui_for("ankh_morpork")).__name__ == "AmUI" and ui_for("ankh_morpork").game_id == "ankh_morpork"


def test_the_public_board_never_shows_a_hand_or_a_personality() -> None:
    for seats, seed in ((2, 3), (3, SEED), (4, 8)):
        g = game(seats=seats, seed=seed)
        st = g.state
        assert isinstance(st, AmState)
        moves = 0
        while not st.finished:
            seat = next(iter(E.pending(st)))
            before = st
            action = E.ai_action(st, seat)
            st, events = E.apply(st, seat, action)
            g.state = st
            moves += 1
            if moves % 3 and not st.finished:
                continue
            result = MoveResult(game=g, before=before, steps=[Step(seat=seat, action=action, events=events, version=1)])
            for locale in ("en", "es"):
                rendered = UI.board(g, events, locale)
                public = embed_text(rendered.embed) + (rendered.content or "") + announcement(g, result, locale)
                assert not shown(public, hidden_names(st)), (shown(public, hidden_names(st)), public)
            for s in range(seats):
                mine = "\n".join(UI.private_lines(g, s, "en"))
                assert all(CARDS[c].name.en in mine for c in st.hands[s])
                assert PERSONALITIES[st.personality[s]].name.en in mine
        board = embed_text(UI.board(g, [], "en").embed)
        # at the end the personalities are told, with everyone's points
        assert all(PERSONALITIES[st.personality[s]].name.en in board for s in range(seats))
        assert all(f"**{st.scores[s]} point{'' if st.scores[s] == 1 else 's'}**" in board for s in range(seats))


def test_the_board_without_a_picture_describes_the_city() -> None:
    g = game()
    fields = {f.name: f.value for f in UI.board(g, [], "es").embed.fields}
    assert "7 · Las Sombras" in fields["La ciudad"] and "⚠️" in fields["La ciudad"]
    assert "Mazo:" in fields["Mazo y banco"]
    pictured = {f.name for f in UI.board(g, [], "es", png=b"x").embed.fields}
    assert "La ciudad" not in pictured
    assert "turn 1" in UI.title(g, "en")


# ----------------------------------------------------------------------------- private views


def test_dms_follow_the_hand_the_personality_and_the_peeks_not_the_board() -> None:
    g = game()
    st = g.state
    assert isinstance(st, AmState)
    facts = [UI.dm_facts(g, st, s) for s in range(3)]
    turn = st.turn
    # a card played changes its player's hand, and nobody else's
    card = next(c for c in st.hands[turn] if any(a.kind == "play" and a.card == c for a in E.legal_actions(st, turn)))
    after, _ = E.apply(st, turn, {"kind": "play", "card": card})
    assert UI.dm_facts(g, after, turn) != facts[turn]
    assert all(UI.dm_facts(g, after, s) == facts[s] for s in range(3) if s != turn)
    text = "\n".join(UI.private_lines(g, turn, "es"))
    assert "Tu personalidad (secreta)" in text and f"Tu mano ({len(st.hands[turn])})" in text


def test_the_personality_shows_how_close_it_is() -> None:
    g = game()
    st = g.state
    assert isinstance(st, AmState)
    lines = UI.personality_lines(g, 0, "en")
    assert PERSONALITIES[st.personality[0]].name.en in lines[0]
    if PERSONALITIES[st.personality[0]].goal != "deck":
        assert lines[1].startswith("You are at ")


# ----------------------------------------------------------------------------- the step panel


def _covered(view: discord.ui.View, g: Game, seat: int) -> list[int]:
    out: list[int] = []
    for it in items(view):
        assert isinstance(it, discord.ui.Button | discord.ui.Select)
        parts = (it.custom_id or "").split(":")
        assert parts[2:5] == ["1", str(g.version), str(seat)], it.custom_id
        if isinstance(it, discord.ui.Button):
            assert parts[1] == "act"
            out.append(int(parts[5]))
        else:
            assert parts[1] == "acts" and len(it.options) <= 25
            out += [int(o.value) for o in it.options]
    return out


def test_the_panel_offers_every_legal_action_once() -> None:
    for seats, seed in ((3, SEED), (4, 2)):
        g = game(seats=seats, seed=seed)
        st = g.state
        assert isinstance(st, AmState)
        kinds: set[str] = set()
        while not st.finished:
            seat = next(iter(E.pending(st)))
            view = UI.menu(g, seat, "en")
            assert view is not None and len(view.children) <= 25
            legal = E.legal_actions(st, seat)
            assert sorted(_covered(view, g, seat)) == list(range(len(legal)))
            kinds.add(E.pending(st)[seat].kind.split(":")[0])
            assert UI.menu_text(g, seat, "en")
            st, _ = E.apply(st, seat, E.ai_action(st, seat))
            g.state = st
        assert {"turn", "minion", "assassinate", "money", "scroll", "another"} <= kinds


def test_playing_a_card_walks_through_its_symbols() -> None:
    g = game()
    play_until(g, lambda s: bool(s.stack) and s.stack[-1].kind == "money")
    st = g.state
    assert isinstance(st, AmState)
    seat = next(iter(E.pending(st)))
    text = UI.menu_text(g, seat, "en")
    card = next(f for f in reversed(st.stack) if f.kind == "card").card
    assert text.startswith(f"🃏 **{CARDS[card].name.en}**") and "▶ **💰" in text
    buttons = [it for it in items(UI.menu(g, seat, "en")) if isinstance(it, discord.ui.Button)]  # type: ignore[arg-type]
    assert [b.style for b in buttons] == [discord.ButtonStyle.success, discord.ButtonStyle.secondary]
    assert buttons[0].label.startswith("Collect $") and buttons[1].label == "Do not collect"


def test_a_reaction_has_a_button_per_interrupt_and_no() -> None:
    g = game()
    play_until(g, reacting)
    st = g.state
    assert isinstance(st, AmState)
    seat = next(iter(E.pending(st)))
    view = PANEL.view(g, seat, "en")
    labels = [it.label for it in items(view)]
    assert labels == [f"Play {CARDS[a.card].name.en}" for a in E.legal_actions(st, seat) if isinstance(a, Interrupt)] + ["No"]
    assert items(view)[0].style is discord.ButtonStyle.danger
    assert isinstance(E.legal_actions(st, seat)[-1], Skip)


def test_a_reaction_is_awaited_in_the_channel_without_a_ping_or_a_card() -> None:
    g = game()
    play_until(g, reacting)
    st = g.state
    assert isinstance(st, AmState)
    seat = next(iter(E.pending(st)))
    assert UI.reaction(g, seat)
    lines = turn_lines(g, "en")
    assert lines == [f"⏳ Waiting to see whether **{NAMES[seat]}** answers (they decide privately)."]
    assert ping_line(g, "en") is None
    text = embed_text(UI.board(g, [], "en").embed) + " ".join(lines)
    assert not any(CARDS[c].name.en in text for c in st.hands[seat])
    # with closed DMs nobody could ask them privately: the channel pings them
    closed = game(st, closed=(seat,))
    assert f"<@{USERS[seat]}>" in (ping_line(closed, "en") or "")
    assert f"<@{USERS[seat]}>" in turn_lines(closed, "en")[0]


# ----------------------------------------------------------------------------- the reaction DM


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    store = await Store.open(tmp_path / "t.db")
    yield World(SessionService(store, seed_source=lambda: SEED))
    await store.close()


async def _to_reaction(world: World) -> tuple[Game, MoveResult]:
    s = world.session
    g = await s.create(guild_id=1, channel_id=500, game_id="ankh_morpork", options={}, host_id=USERS[0],
                       host_name="alice", locale="en")
    for user, name in zip(USERS[1:3], NAMES[1:3], strict=True):
        await s.join(g.id, user_id=user, name=name, locale="en")
    await s.start(g.id, by=USERS[0])
    g = await s.require(g.id)
    while True:
        st = g.state
        assert isinstance(st, AmState)
        (seat,) = E.pending(st)
        result = await s.move(g.id, USERS[seat], E.ai_action(st, seat))
        if reacting(g.state):  # type: ignore[arg-type]
            return g, result


async def test_the_reaction_is_asked_by_dm_of_the_right_player_only(world: World) -> None:
    g, result = await _to_reaction(world)
    delivery = Delivery(world)  # type: ignore[arg-type]
    victim = next(iter(g.pending()))
    mover = result.steps[-1].seat
    assert mover != victim
    world.log.clear()
    await delivery.ask_reactions(g, mover)
    sent = [m for (op, ch, mid) in world.log if op == "send" for m in [world.messages[mid]]]
    assert [m["channel"] for m in sent] == [-USERS[victim]]
    dm = sent[0]
    assert dm["content"].startswith(f"<@{USERS[victim]}>, in Discworld: Ankh-Morpork · game #{g.id}")
    assert "Play an interrupt?" in dm["content"]
    ids = [it.custom_id for it in items(dm["view"])]
    assert ids == [f"tablero:act:{g.id}:{g.version}:{victim}:{i}" for i in range(len(g.legal_actions(victim)))]
    assert all(isinstance(c, ActButton) for c in dm["view"].children)
    # the one who answers sees the next step where they answered: no second DM for them
    world.log.clear()
    await delivery.ask_reactions(g, victim)
    assert world.log == []


async def test_a_reaction_with_closed_dms_is_pinged_in_the_channel(world: World) -> None:
    g, result = await _to_reaction(world)
    victim = next(iter(g.pending()))
    world.close_dms(USERS[victim])
    delivery = Delivery(world)  # type: ignore[arg-type]
    await delivery.ask_reactions(g, result.steps[-1].seat)
    said = [m["content"] for m in world.messages.values() if m["channel"] == 500]
    assert any("has direct messages closed" in c for c in said)
    assert any(c.startswith(f"<@{USERS[victim]}>, you have a decision to make") for c in said)
    assert g.seat_row(victim).dm_closed
    assert not any(CARDS[c].name.en in " ".join(said) for c in g.state.hands[victim])  # type: ignore[union-attr]


# ----------------------------------------------------------------------------- picture


def test_picture_is_drawn_from_the_public_view_only() -> None:
    for seats in (2, 3, 4):
        g = game(seats=seats, seed=5)
        st = g.state
        assert isinstance(st, AmState)
        while not st.finished:
            seat = next(iter(E.pending(st)))
            st, _ = E.apply(st, seat, E.ai_action(st, seat))
            view = E.view(st, None)
            png = render_board(view, list(NAMES[:seats]), "es" if seats % 2 else "en")  # type: ignore[arg-type]
        g.state = st
        width, height = Image.open(io.BytesIO(png)).size
        assert width == W and height > MAP_H  # the players' panel under the map
        with pytest.raises(ValueError):
            render_board(E.view(st, 0), list(NAMES[:seats]), "es")  # type: ignore[arg-type]
        assert UI.picture(g, 0, "en") is None and UI.picture(g, None, "en") is not None
    # any name is drawn
    render_board(E.view(E.setup(2, {}, 1), None), ["x" * 200, "🎲 Ñandú 💀 " * 10], "es")  # type: ignore[arg-type]


def test_the_picture_changes_with_the_pieces() -> None:
    st = E.setup(3, {}, 1)
    before = render_board(E.view(st, None), ["a", "b", "c"], "en")  # type: ignore[arg-type]
    st.minions[11][1] += 2
    st.trouble[11] = True
    after = render_board(E.view(st, None), ["a", "b", "c"], "en")  # type: ignore[arg-type]
    assert before != after
    assert render_board(E.view(st, None), ["a", "b", "c"], "es") != after  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- commands


@pytest.fixture
async def tree(tmp_path: Path) -> AsyncIterator[discord.app_commands.CommandTree[Any]]:
    bot = create_bot(Settings(token="unused", db_path=str(tmp_path / "t.db")))
    await bot.load_extension("cogs.ankh_morpork")
    yield bot.tree
    await bot.close()


async def test_am_commands_have_spanish_names_and_descriptions(tree: Any) -> None:
    translator = Translator()
    (top,) = [await cmd.get_translated_payload(tree, translator) for cmd in tree.get_commands()]
    assert top["name"] == "am"
    es = {o["name"]: o.get("name_localizations", {}).get("es-ES") for o in top["options"]}
    assert es == {"play": "jugar", "power": "poder", "decide": "decidir", "pass": "pasar", "card": "carta",
                  "areas": "zonas", "personality": "personalidad"}
    for sub in top["options"]:
        assert 1 <= len(sub["description_localizations"]["es-ES"]) <= 100, sub["name"]
        for opt in sub.get("options", []):
            assert opt["name_localizations"]["es-ES"] and opt["description_localizations"]["es-ES"], opt


def test_cards_are_found_by_either_name() -> None:
    assert find_card("la muerte") == "death" and find_card("Death") == "death"
    assert find_card("gaspode") == "gaspode" and find_card("dwarves") == "dwarves"
    assert find_card("nada de nada") is None
    assert isinstance(ActSelect(1, 2, 0, 0).item, discord.ui.Select)
