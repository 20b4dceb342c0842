"""Every game's board picture, shown 520 px wide as Discord shows it, stays readable."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from PIL import ImageChops

from cogs.pictures.ankh_morpork import render_board as am_render
from cogs.pictures.rattus_cartus import disc_boxes, track_row
from cogs.pictures.rattus_cartus import render_board as rc_render
from cogs.pictures.rey_hierofante import render_board as rh_render
from rules.registry import engine
from tests.cogs.legibility import MIN_SHOWN_TEXT, SHOWN_WIDTH, smallest_shown_text

# The longest names Discord allows (32 characters), with accents.
LONG_NAMES = [f"Jugadora número {i} de la mesa ñá"[:32] for i in range(1, 6)]


def positions(game_id: str, seats: int, seed: int, every: int) -> list[Any]:
    """States of one random game: every ``every``-th move and the final one."""
    eng = engine(game_id)
    rng = random.Random(seed)
    st = eng.setup(seats, {}, seed)
    out = [st]
    moves = 0
    while not st.finished:
        seat = sorted(eng.pending(st))[0]
        st, _ = eng.apply(st, seat, rng.choice(eng.legal_actions(st, seat)))
        moves += 1
        if moves % every == 0:
            out.append(st)
    return [*out, st]


def check_legible(draw: Callable[[], bytes]) -> None:
    """The smallest text of the picture shows at least MIN_SHOWN_TEXT px tall."""
    shown, text, width = smallest_shown_text(draw)
    assert shown >= MIN_SHOWN_TEXT, f"{text!r} shows {shown:.1f} px high at 520 px (drawn {width} wide)"


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_rattus_cartus_text_is_readable_at_discord_width(seats: int) -> None:
    eng = engine("rattus_cartus")
    for st in positions("rattus_cartus", seats, 11, 40)[::3]:
        out = eng.outcome(st)
        view = eng.view(st, None)
        draw = partial(rc_render, view, LONG_NAMES[:seats], "es", out.winners if out else None)
        check_legible(draw)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_rattus_cartus_discs_never_overlap_whatever_the_ties(seats: int) -> None:
    eng = engine("rattus_cartus")
    tied = 0
    for seed in range(3):
        for st in positions("rattus_cartus", seats, seed, 7):
            view = eng.view(st, None)
            boxes = disc_boxes(view, 0, 20)
            assert len(boxes) == 6 * seats
            for i, (_, ax0, ay0, ax1, ay1) in enumerate(boxes):
                for _, bx0, by0, bx1, by1 in boxes[i + 1:]:
                    assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0
                # Each disc lies inside its own track's row.
                row = track_row(seats)
                assert ay0 // row == ay1 // row or ay1 % row == 0
            tied += sum(len({p.influence[c] for p in view.players}) < seats for c in range(6))
    assert tied > 0  # the games did put discs on shared spaces (at the start, all of them)


@pytest.mark.parametrize("seats", [2, 4])
def test_ankh_morpork_counts_costs_and_panel_are_readable_at_discord_width(seats: int) -> None:
    eng = engine("ankh_morpork")
    for st in positions("ankh_morpork", seats, 5, 25)[::3]:
        for locale in ("es", "en"):
            check_legible(partial(am_render, eng.view(st, None), LONG_NAMES[:seats], locale))


@pytest.mark.parametrize("variant", ["original", "draft"])
def test_rey_hierofante_tiles_and_panels_are_readable_at_discord_width(variant: str) -> None:
    eng = engine("rey_hierofante")
    st = eng.setup(2, {"variant": variant}, 4)
    rng = random.Random(4)
    for step in range(40):
        if st.finished:
            break
        if step % 8 == 0:
            for seat in (0, 1):  # each player's own picture
                check_legible(partial(rh_render, eng.view(st, seat), LONG_NAMES[:2], "es" if seat else "en"))
        seat = sorted(eng.pending(st))[0]
        st, _ = eng.apply(st, seat, rng.choice(eng.legal_actions(st, seat)))


def test_ankh_morpork_minion_counts_are_tall_enough_to_read_at_discord_width() -> None:
    """A count on a piece is read at a glance: its digit stands at least 9.5 px high as
    Discord shows the 700 px map (it was about 8 px)."""
    from cogs.pictures import ankh_morpork as am

    scale = SHOWN_WIDTH / am.W
    for seat, colour in enumerate(am.SEAT_COLOUR):
        ink = am.SEAT_INK[seat]
        for label in ("3", "12", "T", "D2"):
            plain = am.disc(colour, ink, "")
            marked = am.disc(colour, ink, label)
            box = ImageChops.difference(plain.convert("RGB"), marked.convert("RGB")).convert("L").point(lambda v: 255 if v > 40 else 0).getbbox()
            assert box is not None
            assert (box[3] - box[1]) * scale >= 9.5, (label, box)
            assert box[0] >= 2 and box[2] <= marked.width - 2  # inside the ring
