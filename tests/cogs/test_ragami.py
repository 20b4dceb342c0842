"""Ragami in Discord without Discord: its picture, board fields, hands and names."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from babel.messages.catalog import Catalog

from cogs.common import catalogue as cogs_catalogue
from cogs.common.i18n import t
from cogs.common.present import event_lines, said_by, ui_for
from cogs.pictures.ragami import render_board
from cogs.ragami import UI
from rules import catalogue as rules_catalogue
from rules.core import Text
from rules.ragami.cards import card_name
from rules.ragami.model import RgState
from rules.registry import engine
from services.session import Game
from storage import GameRow, SeatRow
from tests.rules.test_ragami_playouts import perturbed, policy

E = engine("ragami")  # with its built-in player
USERS = (101, 202, 303, 404)
NAMES = ("alice", "bob", "carol", "dave")
PNG = b"\x89PNG\r\n\x1a\n"


def game(
    state: RgState | None = None, *, seats: int = 3, locale: str = "en", seed: int = 7
) -> Game:
    """A Ragami game around ``state`` (a fresh seeded one by default)."""
    state = state or E.setup(seats, {}, seed)
    row = GameRow(
        id=1,
        guild_id=5,
        channel_id=900,
        game_id="ragami",
        options={},
        status="active",
        seed=seed,
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
        for i in range(seats)
    ]
    return Game(row=row, seats=rows, engine=E, state=state)


def advance(state: RgState, moves: int, seed: int = 1) -> RgState:
    """The built-in player moves for everybody ``moves`` times (or to the end)."""
    for _ in range(moves):
        if state.finished:
            break
        seat = min(E.pending(state))
        state, _ = E.apply(state, seat, E.ai_action(state, seat))
    return state


def test_the_ui_is_registered() -> None:
    # Loading the cog as an extension (the end-to-end tests do) runs its module again and
    # registers a fresh UI of the same class: compare the class, not the object.
    shown = ui_for("ragami")
    assert (type(shown).__module__, type(shown).__qualname__) == (type(UI).__module__, type(UI).__qualname__)


def test_the_picture_draws_every_stage_and_only_public_things() -> None:
    r = random.Random(3)
    for n in (2, 3, 4):
        s = E.setup(n, {}, 20 + n)
        for step in range(6):
            png = render_board(E.view(s, None), NAMES[:n], "es" if step % 2 else "en")
            assert png.startswith(PNG)
            # drawn from the public view only: hidden cards redrawn change nothing
            assert render_board(
                E.view(perturbed(s, None, r), None), NAMES[:n], "en"
            ) == render_board(E.view(s, None), NAMES[:n], "en")
            s = advance(s, 60)
        assert s.finished or s.round > 1


def test_ui_picture_only_for_the_public_board() -> None:
    g = game(advance(E.setup(3, {}, 4), 40))
    assert UI.picture(g, None, "es").startswith(PNG)
    assert UI.picture(g, 0, "es") is None


def test_names_replace_seat_numbers() -> None:
    g = game()
    text = Text(es="Jugador 2 (verde) pasa.", en="Player 2 (green) passes.")
    assert "**bob**" in UI.wording(g, text, "en")
    assert "**bob**" in UI.wording(g, text, "es")


def test_board_fields_show_scores_and_the_running_resolution() -> None:
    g = game(advance(E.setup(3, {}, 9), 30), locale="es")
    assert UI.title(g, "es").endswith(f"· Ronda {g.state.round}")
    fields = UI.board_fields(g, "es", pictured=False)
    names = [f[0] for f in fields]
    assert names[:3] == ["Jugadores", "Conflictos", "Dados de Acción"]
    assert "<@101>" in fields[0][1] and "PV" in fields[0][1]


def test_private_lines_show_only_the_own_hand() -> None:
    s = advance(E.setup(3, {}, 11), 80)
    g = game(s)
    for seat in range(3):
        text = "\n".join(UI.private_lines(g, seat, "en"))
        for c in s.hands[seat]:
            assert card_name(c).en in text
        facts = UI.dm_facts(g, s, seat)
        assert facts == [f"hand={sorted(s.hands[seat])}", f"drawn={sorted(s.drawn[seat])}"]


def test_every_legal_action_has_a_label_in_both_languages() -> None:
    s = E.setup(4, {}, 13)
    g = game(s, seats=4)
    for _ in range(100):
        if s.finished:
            break
        g.state = s
        for seat in E.pending(s):
            for a in E.legal_actions(s, seat):
                for loc in ("es", "en"):
                    label = UI.label(g, seat, a, loc)
                    assert label and "{" not in label
        seat = min(E.pending(s))
        s, _ = E.apply(s, seat, E.ai_action(s, seat))


# ----------------------------------------------------------------------------- legibility


def test_every_text_of_the_picture_stays_legible_at_discords_width() -> None:
    from functools import partial

    import cogs.pictures.ragami as pic
    from tests.cogs.legibility import MIN_SHOWN_TEXT, smallest_shown_text

    long_names = [f"Jugadora número {i} de la mesa ñá"[:32] for i in range(1, 5)]
    for n in (2, 4):
        s = E.setup(n, {}, 30 + n)
        for moves in (0, 150, 400):
            s = advance(s, moves)
            for locale in ("es", "en"):
                draw = partial(pic.render_board, E.view(s, None), long_names[:n], locale)
                shown, text, width = smallest_shown_text(draw)
                assert width == pic.WIDTH
                # about 11 px on the screen (16 px drawn, shown at 520 of 760 px wide),
                # above the project's floor; the old picture drew 10 px numbers (under 7 px)
                assert shown >= max(MIN_SHOWN_TEXT, 10.9), (text, shown)


# ----------------------------------------------------------------------------- the step panel


def panel_indices(view) -> list[int]:
    """The legal-action indices a panel offers (its menus' values and its buttons)."""
    from cogs.common.choices import ActButton, ActSelect

    out: list[int] = []
    for child in view.children:
        if isinstance(child, ActSelect):
            out += [int(o.value) for o in child.item.options]
        elif isinstance(child, ActButton):
            out.append(child.index)
    return out


def test_the_panel_offers_every_legal_move_once_and_nothing_else() -> None:
    from cogs.ragami import PANEL

    s = E.setup(3, {}, 17)
    g = game(s)
    seen = 0
    for _ in range(260):
        if s.finished:
            break
        g.state = s
        seat = min(E.pending(s))
        legal = E.legal_actions(s, seat)
        view = PANEL.view(g, seat, "es")
        if any(
            type(c).__name__ == "ActSelect" or type(c).__name__ == "ActButton"
            for c in view.children
        ):
            assert sorted(panel_indices(view)) == list(range(len(legal)))
            assert len(view.children) <= 25
            seen += 1
        s, _ = E.apply(s, seat, E.ai_action(s, seat))
    assert seen > 200


def resolving_states(seed: int, count: int) -> list[RgState]:
    """States in the middle of a resolution, from a game of the built-in player."""
    out = []
    s = E.setup(3, {}, seed)
    while not s.finished and len(out) < count:
        if s.step is not None and s.step.res is not None:
            out.append(s)
        seat = min(E.pending(s))
        s, _ = E.apply(s, seat, E.ai_action(s, seat))
    return out


def test_every_step_of_a_resolution_shows_the_running_total() -> None:
    states = resolving_states(5, 12)
    assert len(states) >= 6
    enough = short = 0
    for s in states:
        g = game(s)
        r = s.step.res
        seat = s.turn
        en = UI.menu_text(g, seat, "en")
        es = UI.menu_text(g, seat, "es")
        assert f"Conflict on square {r.square}: power **{r.total}** of **{r.cost}**" in en
        assert f"Conflicto de la casilla {r.square}: poder **{r.total}** de **{r.cost}**" in es
        if r.total >= r.cost:
            assert "Enough: you may resolve" in en
            enough += 1
        else:
            assert (
                f"**{r.cost - r.total}** more needed" in en
                and (f"Faltan **{r.cost - r.total}**" if r.cost - r.total > 1 else "Falta **1**.") in es
            )
            short += 1
        # the board and the private view ("my hand" under which the panel opens) say it too
        fields = dict((name, value) for name, value, _ in UI.board_fields(g, "en", pictured=True))
        assert f"power **{r.total}** of **{r.cost}**" in fields["Resolving"]
        assert f"power **{r.total}** of **{r.cost}**" in "\n".join(UI.private_lines(g, seat, "en"))
        # nobody else sees it in their private view: it is the turn player's progress
        other = (seat + 1) % 3
        assert "Conflict on square" not in "\n".join(UI.private_lines(g, other, "en"))
    assert enough and short


def test_power_choices_say_the_total_they_reach() -> None:
    from cogs.common.choices import ActSelect
    from cogs.ragami import PANEL

    for s in resolving_states(8, 20):
        r = s.step.res
        if r.total >= r.cost or s.cubes[s.turn] == 0:
            continue
        view = PANEL.view(game(s), s.turn, "en")
        menu = next(c for c in view.children if isinstance(c, ActSelect))
        first = menu.item.options[0]
        assert first.label == "+1 from cubes"
        assert first.description == f"→ power {r.total + 1} of {r.cost}"
        return
    raise AssertionError("no resolution short of power with cubes to add")


# ----------------------------------------------------------------------------- /rg piece


def picking_state(seed: int) -> RgState:
    """A state where the turn player chooses a piece to move (then its destination)."""
    from rules.ragami.model import Pick

    s = E.setup(3, {}, seed)
    r = random.Random(seed)
    while not s.finished:
        seat = min(E.pending(s))
        legal = E.legal_actions(s, seat)
        if s.phase == "turn" and any(isinstance(a, Pick) and a.piece[0] == "S" for a in legal):
            return s
        s, _ = E.apply(s, seat, r.choice(legal))
    raise AssertionError("no Saint to pick")


def test_piece_then_destination_only_among_the_legal_ones() -> None:
    import pytest

    from cogs.ragami import destination_choices, piece_choices, piece_steps
    from rules.ragami.model import Pick, Place
    from services.session import Refusal

    s = picking_state(3)
    g = game(s)
    seat = s.turn
    picks = [a for a in E.legal_actions(s, seat) if isinstance(a, Pick)]
    offered = piece_choices(g, seat, "", "en")
    assert [c.value for c in offered] == [a.piece for a in picks]
    pick = picks[0]
    after, _ = E.apply(s, seat, pick)
    legal_to = [a.at for a in E.legal_actions(after, seat) if isinstance(a, Place)]
    assert [c.value for c in destination_choices(g, seat, pick.piece, "", "en")] == legal_to[:25]
    # by the autocompleted values, or by the names a player types
    steps = piece_steps(g, seat, pick.piece, legal_to[0])
    assert steps == [pick, Place(at=legal_to[0])]
    label = offered[0].name
    assert piece_steps(g, seat, label.upper(), f"square {legal_to[0]}") == steps
    state = s
    for a in steps:
        state, _ = E.apply(state, seat, a)
    # a square out of reach, nonsense, or no destination: refused in both languages, naming
    # the legal destinations
    unreachable = next(str(q) for q in range(1, 31) if str(q) not in legal_to)
    for bad in (unreachable, "the moon"):
        with pytest.raises(Refusal) as err:
            piece_steps(g, seat, pick.piece, bad)
        assert (
            f"square {legal_to[0]}" in err.value.text.en
            and f"casilla {legal_to[0]}" in err.value.text.es
        )
    with pytest.raises(Refusal) as err:
        piece_steps(g, seat, pick.piece, None)
    assert "Say where" in err.value.text.en
    with pytest.raises(Refusal) as err:
        piece_steps(g, seat, "dragon", legal_to[0])
    assert "not a piece you can move now" in err.value.text.en
    # once the piece is chosen, only its destination is left: "*" names it
    g2 = game(after)
    assert [c.value for c in piece_choices(g2, seat, "", "en")] == ["*"]
    assert piece_steps(g2, seat, "*", legal_to[-1]) == [Place(at=legal_to[-1])]


# ----------------------------------------------------------------------------- /rg card and names


def test_any_card_is_found_by_number_name_or_id() -> None:
    from cogs.ragami import card_choices, card_embed, find_kind
    from rules.ragami.cards import KINDS

    for k in KINDS:
        assert find_kind(str(k.number)) is k
        assert find_kind(f"#{k.number}") is k and find_kind(f"n.º {k.number}") is k
        assert (
            find_kind(k.name.es.upper()) is k and find_kind(k.name.en) is k and find_kind(k.id) is k
        )
        embed = card_embed(k, "es")
        assert k.text.es in embed.description and str(k.copies) in embed.fields[0].value
        assert ("🔺" in embed.fields[1].value) == k.triangle and (
            "⬜" in embed.fields[1].value
        ) == k.cube
    assert find_kind("dragon") is None and find_kind("99") is None
    assert len(card_choices("", "en")) == len(KINDS)
    assert {c.value for c in card_choices("power", "en")} >= {"poder2", "poder4"}


def test_spanish_command_names_are_unique_in_the_group() -> None:
    from cogs.common import i18n
    from cogs.ragami import Ragami

    names = [c.name for c in Ragami.rg.commands]
    assert {"die", "piece", "play", "keep", "resolve", "pass", "decide", "card"} <= set(names)
    spanish = [i18n.COMMAND_NAMES_ES.get(n, n) for n in names]
    assert len(set(spanish)) == len(spanish), spanish
    for c in Ragami.rg.commands:
        assert c.description in i18n.DESCRIPTIONS_ES
        for p in c.parameters:
            assert p.name in i18n.PARAMETER_NAMES_ES


def test_the_final_picture_names_the_winner() -> None:
    from cogs.pictures.ragami import render_board
    from tests.cogs.legibility import recorded_text

    s = advance(E.setup(3, {}, 6), 2000)
    assert s.finished
    winners = E.outcome(s).winners
    g = game(s)
    with recorded_text() as drawn:
        png = UI.picture(g, None, "en")
    assert png is not None and png.startswith(PNG)
    texts = [text for _, text in drawn]
    if len(winners) == 1:
        assert f"Game over · {NAMES[winners[0]]} wins" in " ".join(texts)
    assert {f"★ {NAMES[w]}" for w in winners} <= set(texts)
    # drawn without the result (a game under way), nobody is marked
    with recorded_text() as drawn:
        render_board(E.view(s, None), list(NAMES[:3]), "en")
    assert not any(t.startswith("★") for _, t in drawn)


def test_every_text_has_spanish_and_english_with_the_same_placeholders() -> None:
    import string

    from cogs.ragami import WORDS

    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    for key, (es, en) in WORDS.items():
        assert es and en and fields(es) == fields(en), key


def test_the_board_names_the_piece_being_moved() -> None:
    from rules.ragami.model import Pick

    s = picking_state(3)
    pick = next(a for a in E.legal_actions(s, s.turn) if isinstance(a, Pick))
    after, _ = E.apply(s, s.turn, pick)
    fields = {name: value for name, value, _ in UI.board_fields(game(after), "es", pictured=True)}
    assert fields["Se mueve"].startswith("Santo ")
    assert "Se mueve" not in {name for name, _, _ in UI.board_fields(game(s), "es", pictured=True)}


def test_no_move_of_a_whole_game_is_told_as_a_secret_choice() -> None:
    """The channel's line for every move (power added, a power card, a piece picked, going
    on, a kept card) says what was done, never "made a choice only they know". Half the
    moves are the built-in player's (it resolves), half random (they pick pieces)."""
    state = E.setup(3, {}, 11)
    g = game(state)
    r = random.Random(11)
    hidden = [t("log.hidden_move", loc) for loc in ("en", "es")]
    kinds: set[str] = set()
    while not state.finished:
        seat = r.choice(sorted(E.pending(state)))
        if r.random() < 0.5:
            action = E.ai_action(state, seat)
        else:
            action = policy(r, E.legal_actions(state, seat))
        state, events = E.apply(state, seat, action)
        for loc in ("en", "es"):
            line = said_by(g, seat, event_lines(events, loc, None, g=g), loc)
            assert not any(h in line for h in hidden), (state.version, line)
        kinds |= {e.kind for e in events}
    assert {"pick", "power", "resolve_start", "virtue_stay"} <= kinds, kinds


# ----------------------------------------------------------------------------- a third language

FR_CARD = "« {value} » n'est pas une carte d'action de Ragami. Les cartes : {options}"
FR_DEST = "« {value} » n'est pas une destination possible pour {piece}. Vous pouvez aller : {options}"


@pytest.fixture
def with_french(tmp_path: Path) -> Iterator[None]:
    """The shipped catalogues plus French ones (the cogs' and Ragami's), as a server would
    drop them in."""
    cogs_root, rules_root = tmp_path / "cogs", tmp_path / "rules"
    shutil.copytree(cogs_catalogue.LOCALE_DIR, cogs_root)
    shutil.copytree(rules_catalogue.LOCALE_DIR, rules_root)
    fr = Catalog(locale="fr", domain=cogs_catalogue.DOMAIN)
    fr.add("rg.bad_card", FR_CARD)
    fr.add("rg.bad_dest", FR_DEST)
    cogs_catalogue.save(cogs_root, "fr", fr)
    rg = Catalog(locale="fr", domain="ragami")
    rg.add("Two Saints", "Deux Saints")
    rg.add("square {number}", "case {number}")
    rules_catalogue.save(rules_root, "fr", "ragami", rg)
    cogs_before, rules_before = cogs_catalogue.use(cogs_root), rules_catalogue.use(rules_root)
    yield
    cogs_catalogue.restore(cogs_before)
    rules_catalogue.restore(rules_before)


def test_a_card_is_found_by_its_name_in_any_language_the_rules_have(with_french: None) -> None:
    from cogs.ragami import card_choices, find_kind
    from rules.ragami.cards import KIND

    saints = KIND["santos"]
    assert find_kind("Deux Saints") is saints and find_kind("deux saints") is saints
    assert find_kind("Dos Santos") is saints and find_kind("Two Saints") is saints
    # autocomplete finds it by its French name whatever the reader's language
    assert [c.value for c in card_choices("deux", "es")] == ["santos"]


async def test_an_unknown_card_is_refused_in_the_readers_language(with_french: None) -> None:
    from cogs.ragami import Ragami, kind_title
    from rules.ragami.cards import KINDS
    from services.session import Refusal

    interaction: Any = SimpleNamespace(locale=discord.Locale.french)
    with pytest.raises(Refusal) as err:
        await Ragami.card.callback(Ragami(cast(Any, None)), interaction, "Dragon")
    french = err.value.message("fr")
    assert french.startswith("« Dragon » n'est pas une carte") and "Deux Saints" in french
    # Spanish and English read as they always did
    for lang in ("es", "en"):
        options = ", ".join(kind_title(k, lang) for k in KINDS)
        assert err.value.message(lang) == t("rg.bad_card", lang, value="Dragon", options=options)
    assert err.value.message("es").startswith("«Dragon» no es una carta de acción de Ragami.")
    assert "Dos Santos" in err.value.message("es") and "Two Saints" in err.value.message("en")


def test_a_destination_is_typed_and_refused_in_any_language(with_french: None) -> None:
    from cogs.ragami import piece_steps
    from rules.ragami.model import Pick, Place
    from services.session import Refusal

    s = picking_state(3)
    g = game(s)
    seat = s.turn
    pick = next(a for a in E.legal_actions(s, seat) if isinstance(a, Pick))
    after, _ = E.apply(s, seat, pick)
    legal_to = [a.at for a in E.legal_actions(after, seat) if isinstance(a, Place) and a.at.isdigit()]
    assert piece_steps(g, seat, pick.piece, f"Case {legal_to[0]}") == [pick, Place(at=legal_to[0])]
    with pytest.raises(Refusal) as err:
        piece_steps(g, seat, pick.piece, "la lune")
    french = err.value.message("fr")
    assert french.startswith("« la lune » n'est pas une destination possible pour ")
    assert f"case {legal_to[0]}" in french
    assert f"square {legal_to[0]}" in err.value.message("en")
    assert err.value.message("es").startswith("«la lune» no es un destino posible para ")
    assert f"casilla {legal_to[0]}" in err.value.message("es")
