"""Guerra de Mitos in Discord without Discord: the picture, the labels of every move, the
step panel of an ability, the hands, and /gdm card's lookup."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
import shutil
from pathlib import Path
from typing import get_args

from babel.messages.catalog import Catalog
from PIL import Image

from cogs.common.choices import ActButton, ActSelect
from cogs.common.present import ui_for
from cogs.guerra_de_mitos import (
    ASSIGN_KINDS,
    BID_KINDS,
    CHOOSE_KINDS,
    PANEL,
    PLAY_KINDS,
    TRANSFER_KINDS,
    UI,
    USE_KINDS,
    card_choices,
    card_embed,
    card_name,
    find_card,
    reader_names,
    step_lines,
)
from cogs.pictures.guerra_de_mitos import WIDTH, render_board
from rules import catalogue
from rules.core import Text, seat_name
from rules.guerra_de_mitos.cards import cards
from rules.guerra_de_mitos.model import Choose, GdmAction, GdmState, Move, Target, Use
from rules.registry import engine
from services.session import Game
from storage import GameRow, SeatRow
from tests.rules import gdm_helpers as H

E = engine("guerra_de_mitos")  # with its built-in player
USERS = (101, 202, 303, 404)
NAMES = ("alice", "bob", "carol", "dave")
PNG = b"\x89PNG\r\n\x1a\n"
# What a label must never show: an id, a field name, raw JSON.
RAW = re.compile(r"\buid\b|\{|\}|\b\d{4}\b|#\d")
SWAP = ["0015", "0039", "0058", "0166", "0127", "0224", "0265"]


def game(state: GdmState, *, locale: str = "en") -> Game:
    """A Guerra de Mitos game around ``state``."""
    row = GameRow(
        id=1,
        guild_id=5,
        channel_id=900,
        game_id="guerra_de_mitos",
        options={},
        status="active",
        seed=1,
        version=state.version,
        state=None,
        host_id=USERS[0],
        locale=locale,
        board_channel_id=900,
        board_message_id=None,
        created_at=0.0,
        updated_at=0.0,
    )
    rows = [
        SeatRow(
            game=1, seat=i, user_id=USERS[i], ai=False, name=NAMES[i], locale=None, dm_closed=False
        )
        for i in range(state.num_seats)
    ]
    return Game(row=row, seats=rows, engine=E, state=state)


def advance(state: GdmState, moves: int, rng: random.Random | None = None) -> GdmState:
    """``moves`` moves (or to the end): random ones with ``rng``, else the built-in player's."""
    for _ in range(moves):
        if state.finished:
            break
        seat = min(E.pending(state))
        legal = E.legal_actions(state, seat)
        a = rng.choice(legal) if rng is not None else E.ai_action(state, seat)
        state, _ = E.apply(state, seat, a)
    return state


def scrambled(st: GdmState) -> GdmState:
    """The same table with every hidden card (hands, decks, face-down oracle cards) changed
    and the bids not yet revealed changed: the public view must not notice."""
    other = E.copy_state(st)
    k = 0
    for p in other.players:
        hidden = list(p.hand) + list(p.deck)
        for o in p.oracles:
            hidden += o.cards[1:] if o.up else o.cards
        for u in hidden:
            other.cards[u].card = SWAP[k % len(SWAP)]
            k += 1
        p.deck.reverse()
        if st.phase == "bid" and p.bid is not None:
            p.bid = p.bid % 4 + 1
    return other


def test_the_ui_is_registered() -> None:
    # Loading the cog as an extension (the end-to-end tests do) runs its module again and
    # registers a fresh UI of the same class: compare the class, not the object.
    shown = ui_for("guerra_de_mitos")
    assert (type(shown).__module__, type(shown).__qualname__) == (type(UI).__module__, type(UI).__qualname__)


def test_the_picture_is_520_wide_for_2_3_4_players_and_shows_only_public_things() -> None:
    for n in (2, 3, 4):
        s = E.setup(n, {}, 10 + n)
        if n == 2:  # one secret bid in: the picture says someone has bid, not how much
            s, _ = E.apply(s, 0, E.legal_actions(s, 0)[2])
        rng = random.Random(n)
        for stage in range(3):
            locale = ("es", "en")[stage % 2]
            png = render_board(E.view(s, None), NAMES[:n], locale)
            assert png.startswith(PNG)
            img = Image.open(io.BytesIO(png))
            assert img.width == WIDTH and img.height < 260 * n + 120
            assert render_board(E.view(scrambled(s), None), NAMES[:n], locale) == png
            s = advance(s, 45, rng)
        assert s.round > 1


def test_the_picture_changes_with_what_is_public() -> None:
    s = advance(E.setup(2, {}, 3), 70)
    g = game(s)
    before = UI.picture(g, None, "en")
    s2 = E.copy_state(s)
    s2.players[0].reserve += 5
    assert render_board(E.view(s2, None), NAMES[:2], "en") != before
    assert UI.picture(g, 0, "en") is None  # private views go without a picture


def test_every_legal_move_has_a_label_with_names_in_both_languages() -> None:
    seen: set[str] = set()
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        rng = random.Random(seed)
        s = E.setup(n, {}, seed)
        g = game(s)
        while not s.finished and s.version < 150:
            g.state = s
            for seat in E.pending(s):
                for a in E.legal_actions(s, seat):
                    seen.add(a.kind)
                    for loc in ("es", "en"):
                        label = UI.label(g, seat, a, loc)
                        assert label and not RAW.search(label), (a, label)
            s = advance(s, 1, rng)
    assert {"bid", "move", "enter", "play", "use", "assign", "target", "pass"} <= seen, seen


def test_a_choice_step_names_the_card_the_step_and_the_targets() -> None:
    s = E.setup(3, {}, 1)
    for _ in range(400):
        if s.stack and isinstance(E.legal_actions(s, s.stack[-1].seat)[0], Target | Choose):
            break
        seat = min(E.pending(s))
        s, _ = E.apply(s, seat, E.ai_action(s, seat))
    assert s.stack, "no ability with a choice in this game"
    seat = s.stack[-1].seat
    g = game(s)
    lines = step_lines(s, "es", NAMES)
    src = s.stack[-1].card
    assert cards()[src].name in lines[0] and "Paso" in lines[1]
    assert UI.menu_text(g, seat, "en").startswith("🃏 **")
    for a in E.legal_actions(s, seat):
        if isinstance(a, Target):
            assert card_name(s.cards[a.uid].card, "en") in UI.label(g, seat, a, "en")


async def test_the_panel_offers_every_legal_move_once_and_fits_a_message() -> None:
    s = E.setup(2, {}, 1)
    rng = random.Random(1)
    checked = 0
    while not s.finished and s.version < 150:
        g = game(s)
        for seat in E.pending(s):
            view = PANEL.view(g, seat, "es")
            legal = E.legal_actions(s, seat)
            indices = []
            for item in view.children:
                if isinstance(item, ActSelect):
                    assert len(item.item.options) <= 25
                    indices += [int(o.value) for o in item.item.options]
                elif isinstance(item, ActButton):
                    indices.append(item.index)
            if indices:  # else: the generic menu took over
                assert sorted(indices) == list(range(len(legal)))
                assert len(view.children) <= 25
                checked += 1
        s = advance(s, 1, rng)
    assert checked > 100


def test_hands_stay_private_and_dms_follow_only_real_news() -> None:
    s = advance(E.setup(3, {}, 4), 40)
    g = game(s)
    for seat in range(3):
        text = "\n".join(UI.private_lines(g, seat, "en"))
        for u in s.players[seat].hand:
            assert cards()[s.cards[u].card].name_en in text
        facts = UI.dm_facts(g, s, seat)
        assert facts[0] == f"hand={sorted(s.cards[u].card for u in s.players[seat].hand)}"
    # a step that changes no hand sends no DM: a counter moved in a transfer
    def counter_move(st: GdmState) -> Move | None:
        legal = E.legal_actions(st, min(E.pending(st)))
        return next((a for a in legal if isinstance(a, Move)), None)

    while counter_move(s) is None:
        s = advance(s, 1)
    seat = min(E.pending(s))
    t, _ = E.apply(s, seat, counter_move(s))
    others = [x for x in range(3) if x != seat]
    assert all(UI.dm_facts(g, s, x) == UI.dm_facts(g, t, x) for x in others)


def test_the_secret_bid_is_in_the_own_hand_view_only() -> None:
    s = E.setup(2, {}, 5)
    s, _ = E.apply(s, 1, E.legal_actions(s, 1)[3])
    g = game(s, locale="es")
    assert "4P" in "\n".join(UI.private_lines(g, 1, "es"))
    assert "4P" not in "\n".join(UI.private_lines(g, 0, "es"))
    fields = " ".join(v for _, v, _ in UI.board_fields(g, "es", pictured=False))
    assert "ha pujado" in fields and "4P" not in fields.replace("reserva", "")


def test_seat_numbers_become_names() -> None:
    g = game(E.setup(3, {}, 2))
    assert (
        UI.wording(g, Text(es="[1] revela Zeus", en="[1] reveals Zeus"), "en")
        == "**bob** reveals Zeus"
    )
    assert "**carol**" in UI.wording(g, Text(es="Empieza el asiento 3", en="Seat 3 starts"), "en")


def test_card_lookup_in_both_languages() -> None:
    some = next(c for c in cards().values() if c.name != c.name_en and c.text_es)
    assert find_card(some.name) == some.id
    assert find_card(some.name_en) == some.id
    assert find_card(some.name_en.upper()) == some.id
    assert find_card(some.id) == some.id
    assert find_card("nada parecido a una carta") is None
    es_embed = card_embed(some.id, "es")
    en_embed = card_embed(some.id, "en")
    assert es_embed.title == some.name and es_embed.description == some.text_es
    assert en_embed.title == some.name_en and en_embed.description == some.text_en
    # the autocomplete finds a card by its name in the other language, and offers ids
    choices = card_choices(some.name_en[:6], "es")
    assert any(c.value == some.id for c in choices)
    assert all(c.value in cards() and len(c.name) <= 100 for c in card_choices("", "en"))


def test_a_third_language_reads_the_cards_by_its_own_names(tmp_path: Path) -> None:
    root = tmp_path / "locale"
    shutil.copytree(catalogue.LOCALE_DIR, root)
    fr = Catalog(locale="fr", domain="guerra_de_mitos", fuzzy=False)
    fr.add("Melpomene", "Melpomène", context="card name")
    catalogue.save(root, "fr", "guerra_de_mitos", fr)
    old = "Melpómene gains 2P"  # an event stored with the rules' Spanish card name
    previous = catalogue.use(root)
    try:
        embed = card_embed("0185", "fr")
        # the reader's name first, then the printed cards' (Spanish) one
        assert embed.title == "Melpomène" and embed.footer.text.endswith(" · Melpómene")
        assert any(c.name.startswith("Melpomène · Melpómene (") for c in card_choices("Melp", "fr"))
        assert reader_names(old, "fr-FR") == "Melpomène gains 2P"
        assert reader_names(old, "en") == "Melpomene gains 2P" and reader_names(old, "es") == old
    finally:
        catalogue.restore(previous)
    # Spanish and English read as they always did
    assert card_embed("0185", "es").footer.text.endswith(" · Melpomene")
    assert card_embed("0185", "en").footer.text.endswith(" · Melpómene")
    assert reader_names(old, "fr") == "Melpomene gains 2P"  # no French any more: English


def test_every_kind_of_move_has_a_command() -> None:
    kinds = {
        get_args(m)[0]
        for m in (c.model_fields["kind"].annotation for c in get_args(get_args(GdmAction)[0]))
    }
    by_command = (
        BID_KINDS | TRANSFER_KINDS | PLAY_KINDS | USE_KINDS | ASSIGN_KINDS | CHOOSE_KINDS | {"pass"}
    )
    assert kinds == by_command


def test_frigg_shows_the_top_of_the_deck_to_her_player_only() -> None:
    st = H.blank(2)
    frigg = H.put(st, "0037", 0, power=3)
    H.on_deck(st, ["0250", "0212"], 0)  # a card nobody else has seen on top
    st, _ = E.apply(st, 0, Use(uid=frigg))
    assert st.stack and E.pending(st).keys() == {0}
    g = game(st)
    top = cards()["0250"]
    private = UI.menu_text(g, 0, "en")
    assert "Frigg" in private and top.name_en in private
    assert top.name in "\n".join(UI.private_lines(g, 0, "es"))
    labels = [UI.label(g, 0, a, "en") for a in E.legal_actions(st, 0)]
    assert labels == ["Leave it on top", "Put it at the bottom"]
    # the channel's "whose turn" line: the ability and its step, never the card
    prompt = g.pending()[0].text
    for locale in ("es", "en"):
        public = UI.wording(g, prompt, locale)
        assert "Frigg" in public and top.name not in public and top.name_en not in public
    board = UI.board(g, [], "en")
    assert top.name_en not in json.dumps(board.embed.to_dict(), ensure_ascii=False)


def test_english_readers_see_english_card_names_in_the_rules_texts() -> None:
    g = game(E.setup(2, {}, 2))
    text = Text(es="[0] juega Adrenalina", en="[0] plays Adrenalina")
    assert UI.wording(g, text, "en") == "**alice** plays Adrenaline"
    assert UI.wording(g, text, "es") == "**alice** juega Adrenalina"


def test_the_ready_decks_are_listed_with_how_to_choose_them() -> None:
    from cogs.guerra_de_mitos import decks_text
    from rules.guerra_de_mitos.decks import ready_decks

    for locale in ("es", "en"):
        text = decks_text(locale)
        assert all(
            f"`{rid}`" in text and rd.display_name(locale) in text
            for rid, rd in ready_decks().items()
        )
        assert "options:decks=" in text


async def test_every_gdm_command_and_option_has_a_spanish_name_and_description(tmp_path) -> None:
    from bot import Settings, create_bot
    from cogs.common.i18n import Translator
    from tests.cogs.test_i18n import NAME, walk

    bot = create_bot(Settings(token="unused", db_path=str(tmp_path / "t.db")))
    await bot.load_extension("cogs.guerra_de_mitos")
    try:
        top = next(c for c in bot.tree.get_commands() if c.name == "gdm")
        payload = await top.get_translated_payload(bot.tree, Translator())
    finally:
        await bot.close()
    paths = {}
    for path, node in walk(payload):
        names = node.get("name_localizations") or {}
        assert NAME.match(names.get("es-ES", "")), path
        desc = (node.get("description_localizations") or {}).get("es-ES", "")
        assert 1 <= len(desc) <= 100 and len(node["description"]) <= 100, (path, desc)
        paths[path] = names["es-ES"]
    assert paths["/gdm/bid"] == "pujar" and paths["/gdm/card/name"] == "nombre"
    assert len(paths) == 1 + 9 + 7  # the group, its commands, their options
    siblings = [o["name_localizations"]["es-ES"] for o in payload["options"]]
    assert len(set(siblings)) == len(siblings)


def test_the_board_embed_names_players_reserves_and_the_confrontation() -> None:
    s = E.setup(3, {}, 1)
    rng = random.Random(2)
    while not (s.fight and s.fight.stage == "act"):
        s = advance(s, 1, rng)
    g = game(s, locale="es")
    fields = {name: value for name, value, _ in UI.board_fields(g, "es", pictured=False)}
    assert {"Jugadores", "Enfrentamiento", "Mesa"} <= set(fields)
    for sv in E.view(s, None).seats:
        assert f"<@{USERS[sv.seat]}>" in fields["Jugadores"]
        assert f"reserva {sv.reserve}P" in fields["Jugadores"]
    a, b = s.fight.a, s.fight.b
    assert fields["Enfrentamiento"] == f"<@{USERS[a]}> ⚔ <@{USERS[b]}>"
    # with the picture, the table is not written out again
    assert "Mesa" not in {name for name, _, _ in UI.board_fields(g, "es", pictured=True)}
    # the text table shows only public cards: in play and face-up oracle tops
    hidden = {
        s.cards[u].card
        for p in s.players
        for u in p.hand + [c for o in p.oracles for c in (o.cards[1:] if o.up else o.cards)]
    }
    public = {c.card for c in E.view(s, None).in_play} | {
        o.top for sv in E.view(s, None).seats for o in sv.oracles if o.top
    }
    for card in hidden - public:
        assert cards()[card].name not in fields["Mesa"], card


def test_every_text_of_the_picture_is_readable_at_discord_width() -> None:
    from functools import partial

    from tests.cogs.test_pictures_legible import LONG_NAMES, check_legible

    for n in (2, 4):
        rng = random.Random(n)
        s = E.setup(n, {}, 30 + n)
        for stage in range(3):
            locale = ("es", "en")[stage % 2]
            check_legible(partial(render_board, E.view(s, None), LONG_NAMES[:n], locale))
            s = advance(s, 60, rng)


def test_the_log_names_players_by_value_whatever_their_display_names() -> None:
    """The rules name seats as values, so a display name that looks like a seat's tag or
    number ("[1]", "Player 2") is shown as it is, and never turned into someone else's."""
    from rules.guerra_de_mitos.model import Move

    st = H.blank(2, reserve=10)
    H.oracle(st, ["0002"], 0, power=1)
    st.phase, st.actor = "transfer", 0
    st.players[0].moves = 3
    g = game(st)
    g.seats = [dataclasses.replace(g.seats[0], name="[1]"), dataclasses.replace(g.seats[1], name="Player 1")]
    _, events = E.apply(st, 0, Move(src=-1, dst=0))
    line = UI.wording(g, events[0].text, "en")
    assert line.startswith("**[1]** moves 1P"), line
    assert "Player 1" not in line
    named = Text(m="{who} is out.", a={"who": seat_name(0)})
    assert UI.wording(g, named, "en") == "**[1]** is out."  # not taken for seat 1's tag
    # a line stored before, with the old tag as a whole value, still reads with the name
    old = Text(m="{who} passes ({passes} of {seated} passes in a row).", a={"who": "[1]", "passes": 1, "seated": 2})
    assert UI.wording(g, old, "en").startswith("**Player 1** passes")
