"""The picture of a Rattus Cartus board: influence tracks, the building row, the players.

Drawn only from the public view (``RcView`` for seat None): the picture can never show
a hand, a rat token's value or a nun card, because it is never given them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from cogs.pictures.fonts import font as shared_font
from rules.rattus_cartus.cards import BUILDINGS, CLASS_NAME, CLASSES, KIND_NAME, Supply
from rules.rattus_cartus.model import BuildingView, PlayerView, RcView

WIDTH = 760
MARGIN = 10
HEADER = 30
LABEL_W = 116  # the class names left of the tracks
TRACK_ROW = 25
TRACKS_H = TRACK_ROW * len(CLASSES)
MIN_SPACES = 16  # a track shows at least 0..15; it grows when someone goes further
DISC = 16
STACK = 4  # how far a disc sits above the one under it on the same space
CARD_LINE = 17
PLAYER_LINE = 21

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
    (232, 84, 60), (70, 150, 230), (250, 214, 60), (60, 186, 110), (236, 120, 200),
)

TEXT: dict[str, dict[str, str]] = {
    "round": {"es": "Ronda {n} de {total}", "en": "Round {n} of {total}"},
    "supply": {"es": "B: suministro", "en": "B: supply"},
    "enter": {"es": "C: entrar en edificios", "en": "C: entering buildings"},
    "resolve": {"es": "D: resolver edificios", "en": "D: resolving buildings"},
    "over": {"es": "Fin de la partida", "en": "Game over"},
    "cards": {"es": "{n} cartas", "en": "{n} cards"},
    "card": {"es": "1 carta", "en": "1 card"},
    "player": {
        "es": "{cards} en mano  ·  {rats} fichas de rata  ·  {vp} PV",
        "en": "{cards} in hand  ·  {rats} rat tokens  ·  {vp} VP",
    },
    "final": {"es": "{total} PV  ·  {rats} en ratas", "en": "{total} VP  ·  {rats} in rats"},
    "dead": {"es": "  ·  peste", "en": "  ·  plague"},
    "start": {"es": "inicial", "en": "start"},
    "ready": {"es": "ha elegido", "en": "has chosen"},
    "waiting": {"es": "eligiendo", "en": "choosing"},
    "empty": {"es": "nadie", "en": "nobody"},
    "supply_of": {"es": "Suministro: {what}", "en": "Supply: {what}"},
}


def say(key: str, locale: str, **fmt: object) -> str:
    """A label of the picture in ``locale``."""
    text = TEXT[key]["es" if locale.startswith("es") else "en"]
    return ascii_text(text.format(**fmt) if fmt else text)


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
    base = [BG, INK, FAINT, CARD_BG, WHITE, tint(INK, 0.55), *CLASS_COLOUR.values(), *tracks,
            *(tint(c, 0.45) for c in CLASS_COLOUR.values()), *SEAT_COLOUR]
    # Text and disc outlines are smoothed against whatever lies under them.
    pairs = [(INK, BG), (INK, CARD_BG), (FAINT, CARD_BG),
             *((WHITE, c) for c in CLASS_COLOUR.values()), *((INK, t) for t in tracks),
             *((INK, c) for c in SEAT_COLOUR)]
    steps = 8
    colours = list(dict.fromkeys(
        base + [mix(a, b, k / steps) for a, b in pairs for k in range(1, steps)]))
    flat = [v for c in colours[:256] for v in c]
    img = Image.new("P", (1, 1))
    img.putpalette(flat + [0] * (768 - len(flat)))
    return img


@lru_cache(maxsize=8)
def disc(seat: int) -> Image.Image:
    """A player's disc with their seat number, drawn once and pasted everywhere."""
    d = DISC * 2  # drawn at twice the size and shrunk, for smooth edges
    img = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((1, 1, d - 2, d - 2), fill=SEAT_COLOUR[seat % len(SEAT_COLOUR)], outline=INK, width=3)
    draw.text((d / 2, d / 2 + 1), str(seat + 1), font=font(20), fill=INK, anchor="mm")
    return img.resize((DISC, DISC), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def tracks_panel(locale: str, spaces: int) -> Image.Image:
    """The six tracks without discs: class names, spaces, every fifth space numbered."""
    img = Image.new("RGB", (WIDTH, TRACKS_H), BG)
    draw = ImageDraw.Draw(img)
    small, label = font(10), font(13)
    x0, x1 = MARGIN + LABEL_W, WIDTH - MARGIN
    step = (x1 - x0) / spaces
    for c, cls in enumerate(CLASSES):
        y = c * TRACK_ROW
        colour = CLASS_COLOUR[cls]
        draw.rectangle((MARGIN, y + 2, MARGIN + LABEL_W - 6, y + TRACK_ROW - 2), fill=colour)
        name = ascii_text(CLASS_NAME[cls].get(locale))
        draw.text((MARGIN + 6, y + TRACK_ROW / 2), name, font=label, fill=WHITE, anchor="lm")
        draw.rectangle((x0, y + 2, x1, y + TRACK_ROW - 2), fill=tint(colour, 0.22))
        for k in range(spaces):
            x = x0 + k * step
            draw.line((x, y + 2, x, y + TRACK_ROW - 2), fill=tint(colour, 0.45))
            if k % 5 == 0:
                draw.text((x + 2, y + 3), str(k), font=small, fill=tint(INK, 0.55))
    return img


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
        return ascii_text(", ".join(
            f"{n} {KIND_NAME[k].get(locale)}" if n > 1 else KIND_NAME[k].get(locale)
            for k, n in counts.items()))
    return say("card", locale) if cards == 1 else say("cards", locale, n=cards)


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


def put_text(img: Image.Image, xy: tuple[float, float], text: str, size: int, fill: Colour, *,
             middle: bool = False, width: int | None = None) -> None:
    """Write ``text`` at ``xy`` (its top-left, or its left middle with ``middle``)."""
    mask, left, top = text_mask(text, size, width)
    x, y = xy
    if middle:
        ascent, descent = font(size).getmetrics()
        y -= (ascent + descent) / 2
    x0, y0 = int(x) + left, int(y) + top
    img.paste(fill, (x0, y0, x0 + mask.width, y0 + mask.height), mask)


def _draw_tracks(img: Image.Image, view: RcView, top: int, spaces: int) -> None:
    x0 = MARGIN + LABEL_W
    step = (WIDTH - MARGIN - x0) / spaces
    for c, order in enumerate(view.tracks):
        y = top + c * TRACK_ROW + (TRACK_ROW - DISC) // 2
        on_space: dict[int, list[int]] = {}
        for seat in order:
            on_space.setdefault(view.players[seat].influence[c], []).append(seat)
        for value, seats in on_space.items():
            # The track lists seats first to last; on a shared space the first is the
            # bottom of the stack, so drawing in that order puts later arrivals on top,
            # each a little to the right and higher so every number stays readable.
            shift = min(6.0, (step - 2) / len(seats)) if len(seats) > 1 else 0.0
            for h, seat in enumerate(seats):
                x = int(x0 + value * step + 1 + h * shift)
                sprite = disc(seat)
                img.paste(sprite, (x, y + STACK - h * STACK // 2), sprite)


def _building_box(
    draw: ImageDraw.ImageDraw, img: Image.Image, b: BuildingView, box: tuple[int, int, int, int],
    names: Sequence[str], locale: str,
) -> None:
    x0, y0, x1, y1 = box
    colour = CLASS_COLOUR[b.cls]
    draw.rounded_rectangle(box, radius=6, fill=CARD_BG, outline=colour, width=2)
    draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y0 + 22), fill=colour)
    building = BUILDINGS[b.building]
    title = f"{b.index + 1}. {building.name().get(locale)} ({CLASS_NAME[b.cls].get(locale)})"
    put_text(img, (x0 + 8, y0 + 12), ascii_text(title), 13, WHITE, middle=True, width=x1 - x0 - 16)
    supply = say("supply_of", locale, what=_supply_text(b.supply, locale))
    put_text(img, (x0 + 8, y0 + 26), supply, 11, FAINT, width=x1 - x0 - 16)
    y = y0 + 44
    if not b.slots:
        put_text(img, (x0 + 8, y), say("empty", locale), 12, FAINT)
    for slot in b.slots:
        sprite = disc(slot.seat)
        img.paste(sprite, (x0 + 8, y), sprite)
        name = names[slot.seat] if slot.seat < len(names) else f"#{slot.seat + 1}"
        text = f"{ascii_text(name)[:14]}: {_slot_text(slot.cards, slot.revealed, locale)}"
        room = x1 - x0 - DISC - 22
        put_text(img, (x0 + 8 + DISC + 6, y + DISC / 2), text, 12, INK, middle=True, width=room)
        y += CARD_LINE


def _player_line(view: RcView, p: PlayerView, locale: str) -> str:
    if view.final is not None:
        score = next((f for f in view.final if f.seat == p.seat), None)
        if score is not None:
            line = say("final", locale, total=score.total, rats=score.rats)
            return line + (say("dead", locale) if score.eliminated else "")
    line = say("player", locale, cards=p.hand, rats=p.rat_tokens, vp=p.vp)
    if view.phase == "supply":
        line += "  ·  " + say("ready" if p.supply_done else "waiting", locale)
    return line


def render_board(view: RcView, names: Sequence[str], locale: str) -> bytes:
    """A PNG of the public board (``view`` must be the public view: seat None)."""
    if view.seat is not None:
        # A private view holds a hand: refuse rather than risk drawing it for everyone.
        raise ValueError("the board picture is drawn from the public view only")
    n = len(view.players)
    most = max((len(b.slots) for b in view.row), default=0)
    card_h = 48 + CARD_LINE * max(most, 1)
    tracks_top = HEADER + 4
    row_top = tracks_top + TRACKS_H + 10
    players_top = row_top + (card_h + 10 if view.row else 0)
    height = players_top + PLAYER_LINE * n + MARGIN
    spaces = max(MIN_SPACES, max((max(p.influence) for p in view.players), default=0) + 2)

    img = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(img)
    put_text(img, (MARGIN, HEADER / 2 + 2), _phase_line(view, locale), 16, INK, middle=True)
    img.paste(tracks_panel("es" if locale.startswith("es") else "en", spaces), (0, tracks_top))
    _draw_tracks(img, view, tracks_top, spaces)

    if view.row:
        gap = 10
        w = (WIDTH - 2 * MARGIN - gap * (len(view.row) - 1)) // len(view.row)
        for i, b in enumerate(view.row):
            x = MARGIN + i * (w + gap)
            _building_box(draw, img, b, (x, row_top, x + w, row_top + card_h), names, locale)

    for p in view.players:
        y = players_top + p.seat * PLAYER_LINE
        sprite = disc(p.seat)
        img.paste(sprite, (MARGIN, y + 2), sprite)
        name = names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}"
        label = ascii_text(name)[:20] or f"#{p.seat + 1}"
        if p.seat == view.start and not view.finished:
            label += f" ({say('start', locale)})"
        put_text(img, (MARGIN + DISC + 8, y + 10), label, 13, INK, middle=True)
        put_text(img, (250, y + 10), _player_line(view, p, locale), 13, INK, middle=True)

    out = io.BytesIO()
    flat = img.quantize(palette=palette(), dither=Image.Dither.NONE)
    flat.save(out, format="PNG", compress_level=6)
    return out.getvalue()
