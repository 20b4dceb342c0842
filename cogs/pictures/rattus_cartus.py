"""The picture of a Rattus Cartus board: influence tracks, the building row, the players.

Drawn only from the public view (``RcView`` for seat None): the picture can never show
a hand, a rat token's value or a nun card, because it is never given them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from cogs.common.catalogue import count as _count
from cogs.common.catalogue import language as _language
from cogs.common.catalogue import names as _names
from cogs.common.catalogue import t as _tr
from cogs.common.catalogue import tn as _trn
from cogs.pictures.common import LAST_MOVE
from cogs.pictures.fonts import font as shared_font
from rules.rattus_cartus.cards import BUILDINGS, CLASS_NAME, CLASSES, KIND_NAME, Supply
from rules.rattus_cartus.model import BuildingView, PlayerView, RcView

# Discord shows a picture at most 520 px wide: at 640 the picture is shrunk by a fifth, so
# every size below stays readable there (the smallest text, 12 px, shows at about 10 px).
WIDTH = 640
MARGIN = 10
HEADER = 32
LABEL_W = 124  # the class names left of the tracks
MIN_SPACES = 16  # a track shows at least 0..15; it grows when someone goes further
# Each track has one lane per player, so discs on the same space sit one above the other
# and never cover each other, whatever the ties.
LANE = {2: 20, 3: 18, 4: 17, 5: 16}
ROW_PAD = 5  # the track's space above its first lane (for the space numbers) and below
DISC = 20  # the disc in the player list and in buildings
CARD_LINE = 22
PLAYER_LINE = 26
WIN = (200, 150, 20)

BG = (238, 228, 206)
INK = (40, 32, 24)
FAINT = (120, 108, 92)
CARD_BG = (250, 246, 236)
WHITE = (255, 255, 255)
CLASS_COLOUR: dict[str, tuple[int, int, int]] = {
    "campesinado": (118, 150, 58),
    "burguesia": (214, 164, 40),
    "iglesia": (150, 150, 172),
    "caballeria": (176, 56, 50),
    "hechiceria": (122, 74, 160),
    "realeza": (44, 92, 168),
}
# Player discs: distinct from one another and readable on every track's tint.
SEAT_COLOUR: tuple[tuple[int, int, int], ...] = (
    (232, 84, 60),
    (70, 150, 230),
    (250, 214, 60),
    (60, 186, 110),
    (236, 120, 200),
)

# The picture's labels: catalogue ids "pic.rc.<key>" (cogs/locale).


def lane(players: int) -> int:
    """The height of one player's lane on a track."""
    return LANE.get(players, 16)


def track_row(players: int) -> int:
    """The height of one class's track: a lane per player and the padding."""
    return ROW_PAD * 2 + 2 + lane(players) * players


def say(key: str, locale: str, **fmt: object) -> str:
    """A label of the picture in ``locale``."""
    return ascii_text(_tr("pic.rc." + key, locale, **fmt))


def ascii_text(text: str) -> str:
    """``text`` as drawn: the project's font has accents, so only control characters go."""
    return "".join(c for c in text if c.isprintable())


def font(size: int) -> ImageFont.FreeTypeFont:
    """The project's picture font (DejaVu Sans: accents and symbols included)."""
    return shared_font(size)


Colour = tuple[int, int, int]


def mix(a: Colour, b: Colour, amount: float) -> Colour:
    """``a`` moved towards ``b`` by ``amount`` (0: a, 1: b)."""
    return (
        int(a[0] + (b[0] - a[0]) * amount),
        int(a[1] + (b[1] - a[1]) * amount),
        int(a[2] + (b[2] - a[2]) * amount),
    )


def tint(colour: Colour, amount: float) -> Colour:
    """``colour`` mixed with the background: 0 is the background, 1 the colour."""
    return mix(BG, colour, amount)


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """Every colour the picture uses, with the in-between shades of its smoothed edges.

    Mapping the finished picture onto this fixed palette takes well under a millisecond
    and makes the PNG a quarter of the size and twice as fast to encode as plain RGB.
    """
    tracks = [tint(c, 0.22) for c in CLASS_COLOUR.values()]
    base = [
        BG,
        INK,
        FAINT,
        CARD_BG,
        WHITE,
        tint(INK, 0.55),
        *CLASS_COLOUR.values(),
        *tracks,
        *(tint(c, 0.45) for c in CLASS_COLOUR.values()),
        *(tint(c, 0.7) for c in CLASS_COLOUR.values()),
        *SEAT_COLOUR,
        WIN,
        LAST_MOVE,
    ]
    # Text and disc outlines are smoothed against whatever lies under them.
    pairs = [
        (INK, BG),
        (INK, CARD_BG),
        (FAINT, CARD_BG),
        (FAINT, BG),
        (WIN, BG),
        *((WHITE, c) for c in CLASS_COLOUR.values()),
        *((INK, t) for t in tracks),
        *((INK, c) for c in SEAT_COLOUR),
    ]
    steps = 8
    colours = list(
        dict.fromkeys(base + [mix(a, b, k / steps) for a, b in pairs for k in range(1, steps)])
    )
    flat = [v for c in colours[:256] for v in c]
    img = Image.new("P", (1, 1))
    img.putpalette(flat + [0] * (768 - len(flat)))
    return img


@lru_cache(maxsize=32)
def disc(seat: int, size: int = DISC) -> Image.Image:
    """A player's disc with their seat number, drawn once and pasted everywhere."""
    d = size * 2  # the ring is drawn at twice the size and shrunk, for smooth edges
    img = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    colour = SEAT_COLOUR[seat % len(SEAT_COLOUR)]
    draw.ellipse((1, 1, d - 2, d - 2), fill=colour, outline=INK, width=3)
    img = img.resize((size, size), Image.Resampling.LANCZOS)
    # The number at its final size: three quarters of the disc, readable when shown smaller.
    ImageDraw.Draw(img).text(
        (size / 2, size / 2 + 0.5),
        str(seat + 1),
        font=font(round(size * 0.75)),
        fill=INK,
        anchor="mm",
    )
    return img


@lru_cache(maxsize=32)
def tracks_panel(locale: str, spaces: int, players: int) -> Image.Image:
    """The six tracks without discs: class names, spaces, every fifth space numbered."""
    row = track_row(players)
    img = Image.new("RGB", (WIDTH, row * len(CLASSES)), BG)
    draw = ImageDraw.Draw(img)
    label = font(15)
    x0, x1 = MARGIN + LABEL_W, WIDTH - MARGIN
    step = (x1 - x0) / spaces
    for c, cls in enumerate(CLASSES):
        y = c * row
        colour = CLASS_COLOUR[cls]
        draw.rectangle((MARGIN, y + 2, MARGIN + LABEL_W - 6, y + row - 2), fill=colour)
        name = ascii_text(CLASS_NAME[cls].get(locale))
        draw.text((MARGIN + 6, y + row / 2), name, font=label, fill=WHITE, anchor="lm")
        draw.rectangle((x0, y + 2, x1, y + row - 2), fill=tint(colour, 0.22))
        for k in range(spaces):
            x = x0 + k * step
            # Every fifth line is stronger, under the ruler's numbers above the tracks.
            draw.line(
                (x, y + 2, x, y + row - 2),
                fill=tint(colour, 0.7 if k % 5 == 0 else 0.45),
                width=2 if k % 5 == 0 else 1,
            )
    return img


# The phases the header names ("pic.rc.<phase>").
PHASES = ("supply", "enter", "resolve", "over")


def _phase_line(view: RcView, locale: str) -> str:
    head = say("round", locale, n=view.round, total=view.rounds)
    return f"Rattus Cartus  ·  {head}  ·  {say(view.phase, locale)}"


def _supply_text(supply: Sequence[int], locale: str) -> str:
    draw, rats, peeks = supply
    return Supply(draw=draw, rats=rats, peeks=peeks).text().get(locale)


def _slot_text(cards: int, revealed: list[str] | None, locale: str) -> str:
    if revealed:
        counts: dict[str, int] = {}
        for k in revealed:
            counts[k] = counts.get(k, 0) + 1
        return ascii_text(
            ", ".join(
                f"{n} {KIND_NAME[k].get(locale)}" if n > 1 else KIND_NAME[k].get(locale)
                for k, n in counts.items()
            )
        )
    return ascii_text(_trn("pic.rc.cards", cards, locale))


def fit(text: str, size: int, width: float) -> str:
    """``text`` cut (with "...") to fit ``width`` pixels at font ``size``."""
    f = font(size)
    if f.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest start of the text that fits with its "..."
        mid = (lo + hi + 1) // 2
        if f.getlength(text[:mid] + "...") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip(", ") + "..."


@lru_cache(maxsize=1024)
def text_mask(text: str, size: int, width: int | None) -> tuple[Image.Image, int, int]:
    """The glyphs of ``text`` (cut to ``width`` pixels) as a mask, and its offset from the
    top-left corner of the line. Boards repeat most of their words from one move to the
    next, so each is drawn once and pasted afterwards: drawing text is the costly part."""
    if width is not None:
        text = fit(text, size, width)
    f = font(size)
    left, top, right, bottom = f.getbbox(text)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255)
    return mask, int(left), int(top)


def put_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour,
    *,
    middle: bool = False,
    width: int | None = None,
) -> None:
    """Write ``text`` at ``xy`` (its top-left, or its left middle with ``middle``)."""
    mask, left, top = text_mask(text, size, width)
    x, y = xy
    if middle:
        ascent, descent = font(size).getmetrics()
        y -= (ascent + descent) / 2
    x0, y0 = int(x) + left, int(y) + top
    img.paste(fill, (x0, y0, x0 + mask.width, y0 + mask.height), mask)


def disc_boxes(view: RcView, top: int, spaces: int) -> list[tuple[int, int, int, int, int]]:
    """Where each disc goes on the tracks: (seat, x0, y0, x1, y1), one per player and class.

    Every player has a lane of their own on every track, so two discs never overlap."""
    n = len(view.players)
    row, size = track_row(n), lane(n)
    x0 = MARGIN + LABEL_W
    step = (WIDTH - MARGIN - x0) / spaces
    boxes = []
    for c in range(len(view.tracks)):
        for p in view.players:
            value = p.influence[c]
            # Centred in its space, shifted right of the space number on numbered spaces.
            x = int(x0 + value * step + (step - size) / 2)
            y = top + c * row + ROW_PAD + 1 + p.seat * size
            boxes.append((p.seat, x, y, x + size, y + size))
    return boxes


def _draw_tracks(img: Image.Image, view: RcView, top: int, spaces: int) -> None:
    size = lane(len(view.players))
    for seat, x, y, _, _ in disc_boxes(view, top, spaces):
        sprite = disc(seat, size)
        img.paste(sprite, (x, y), sprite)


def _building_box(
    draw: ImageDraw.ImageDraw,
    img: Image.Image,
    b: BuildingView,
    box: tuple[int, int, int, int],
    names: Sequence[str],
    locale: str,
) -> None:
    x0, y0, x1, y1 = box
    colour = CLASS_COLOUR[b.cls]
    draw.rounded_rectangle(box, radius=6, fill=CARD_BG, outline=colour, width=2)
    draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y0 + 24), fill=colour)
    building = BUILDINGS[b.building]
    title = f"{b.index + 1}. {building.name.get(locale)} ({CLASS_NAME[b.cls].get(locale)})"
    put_text(img, (x0 + 8, y0 + 13), ascii_text(title), 14, WHITE, middle=True, width=x1 - x0 - 16)
    supply = say("supply_of", locale, what=_supply_text(b.supply, locale))
    put_text(img, (x0 + 8, y0 + 29), supply, 12, FAINT, width=x1 - x0 - 16)
    y = y0 + 48
    if not b.slots:
        put_text(img, (x0 + 8, y), say("empty", locale), 13, FAINT)
    for slot in b.slots:
        sprite = disc(slot.seat)
        img.paste(sprite, (x0 + 8, y), sprite)
        name = names[slot.seat] if slot.seat < len(names) else f"#{slot.seat + 1}"
        text = f"{ascii_text(name)}: {_slot_text(slot.cards, slot.revealed, locale)}"
        room = x1 - x0 - DISC - 22
        put_text(img, (x0 + 8 + DISC + 6, y + DISC / 2), text, 13, INK, middle=True, width=room)
        y += CARD_LINE


def _player_line(view: RcView, p: PlayerView, locale: str) -> str:
    if view.final is not None:
        score = next((f for f in view.final if f.seat == p.seat), None)
        if score is not None:
            line = say("final", locale, total=score.total, rats=score.rats)
            return line + (say("dead", locale) if score.eliminated else "")
    line = say("player", locale, cards=p.hand, rats=_count("rat_tokens", p.rat_tokens, locale), vp=p.vp)
    if view.phase == "supply":
        line += "  ·  " + say("ready" if p.supply_done else "waiting", locale)
    return line


def _ruler(img: Image.Image, top: int, spaces: int) -> None:
    """The space numbers, every fifth, once above the six tracks."""
    x0 = MARGIN + LABEL_W
    step = (WIDTH - MARGIN - x0) / spaces
    for k in range(0, spaces, 5):
        put_text(
            img, (x0 + k * step + step / 2 - font(12).getlength(str(k)) / 2, top), str(k), 12, FAINT
        )


def _card_state(b: BuildingView) -> tuple[object, ...]:
    return tuple((slot.seat, slot.cards, tuple(slot.revealed or ())) for slot in b.slots)


def changes(before: RcView, after: RcView) -> frozenset[tuple[str, int, int]]:
    """What the last move changed: ("disc", class, seat) for an influence disc that moved,
    ("card", index, 0) for a building card of the same row whose discs or cards changed (a
    new row dealt is not a move's doing)."""
    out: set[tuple[str, int, int]] = set()
    was = {p.seat: p.influence for p in before.players}
    for p in after.players:
        old = was.get(p.seat)
        for c, value in enumerate(p.influence):
            if old is not None and c < len(old) and old[c] != value:
                out.add(("disc", c, p.seat))
    cards = {b.index: b for b in before.row}
    for b in after.row:
        old_card = cards.get(b.index)
        if old_card is not None and old_card.card == b.card and _card_state(old_card) != _card_state(b):
            out.add(("card", b.index, 0))
    return frozenset(out)


def render_board(
    view: RcView, names: Sequence[str], locale: str, winners: Sequence[int] | None = None,
    changed: frozenset[tuple[str, int, int]] = frozenset(),
) -> bytes:
    """A PNG of the public board (``view`` must be the public view: seat None).

    ``winners`` (the seats ranked first, from the engine's outcome) are marked on the
    final board; an empty list on a finished game says nobody won. ``changed`` (see
    ``changes``) is outlined: what the last move changed."""
    if view.seat is not None:
        # A private view holds a hand: refuse rather than risk drawing it for everyone.
        raise ValueError("the board picture is drawn from the public view only")
    n = len(view.players)
    most = max((len(b.slots) for b in view.row), default=0)
    card_h = 52 + CARD_LINE * max(most, 1)
    ruler_top = HEADER + 2
    tracks_top = ruler_top + 16
    row_top = tracks_top + track_row(n) * len(CLASSES) + 10
    players_top = row_top + (card_h + 10 if view.row else 0)
    height = players_top + PLAYER_LINE * n + MARGIN
    spaces = max(MIN_SPACES, max((max(p.influence) for p in view.players), default=0) + 2)
    won = set(winners or ()) if view.finished else set()

    img = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(img)
    head = _phase_line(view, locale)
    if view.finished and winners is not None:
        who = [ascii_text(names[s]) if s < len(names) else f"#{s + 1}" for s in winners]
        head += "  ·  " + (
            ascii_text(_trn("pic.rc.won_by", len(who), locale, who=_names(who, locale)))
            if who else say("nobody", locale)
        )
    # What the blue outline means, at the header's right end.
    legend = say("last_move", locale)
    legend_x = WIDTH - MARGIN - round(font(13).getlength(legend))
    draw.rounded_rectangle((legend_x - 20, HEADER / 2 - 5, legend_x - 6, HEADER / 2 + 9), radius=3,
                           outline=LAST_MOVE, width=2)
    put_text(img, (legend_x, HEADER / 2 + 2), legend, 13, FAINT, middle=True)
    put_text(img, (MARGIN, HEADER / 2 + 2), head, 18, INK, middle=True, width=legend_x - 30 - MARGIN)
    _ruler(img, ruler_top, spaces)
    img.paste(tracks_panel(_language(locale), spaces, n), (0, tracks_top))
    _draw_tracks(img, view, tracks_top, spaces)
    for seat, x, y, x1, y1 in disc_boxes(view, tracks_top, spaces):
        c = (y - tracks_top) // track_row(n)
        if ("disc", c, seat) in changed:
            draw.ellipse((x - 3, y - 3, x1 + 2, y1 + 2), outline=LAST_MOVE, width=2)

    if view.row:
        gap = 10
        w = (WIDTH - 2 * MARGIN - gap * (len(view.row) - 1)) // len(view.row)
        for i, b in enumerate(view.row):
            x = MARGIN + i * (w + gap)
            _building_box(draw, img, b, (x, row_top, x + w, row_top + card_h), names, locale)
            if ("card", b.index, 0) in changed:
                draw.rounded_rectangle((x - 4, row_top - 4, x + w + 4, row_top + card_h + 4), radius=8,
                                       outline=LAST_MOVE, width=3)

    stats_x = 270
    for p in view.players:
        y = players_top + p.seat * PLAYER_LINE
        if p.seat in won:
            # The winner's line is framed in gold and says so.
            draw.rounded_rectangle(
                (MARGIN - 4, y, WIDTH - MARGIN + 4, y + PLAYER_LINE - 2),
                radius=5,
                outline=WIN,
                width=2,
            )
        sprite = disc(p.seat)
        img.paste(sprite, (MARGIN, y + 2), sprite)
        name = names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}"
        label = ascii_text(name) or f"#{p.seat + 1}"
        suffix = f" ({say('start', locale)})" if p.seat == view.start and not view.finished else ""
        room = stats_x - (MARGIN + DISC + 8) - 8
        label = fit(label, 15, room - font(15).getlength(suffix)) + suffix
        put_text(img, (MARGIN + DISC + 8, y + 12), label, 15, INK, middle=True)
        line = _player_line(view, p, locale)
        if p.seat in won:
            line += "  ·  " + say("wins" if len(won) == 1 else "share", locale)
        put_text(img, (stats_x, y + 12), line, 14, INK, middle=True, width=WIDTH - MARGIN - stats_x)

    out = io.BytesIO()
    flat = img.quantize(palette=palette(), dither=Image.Dither.NONE)
    flat.save(out, format="PNG", compress_level=6)
    return out.getvalue()
