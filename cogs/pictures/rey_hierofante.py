"""The picture of a Rey y Hierofante board, drawn from a view (never from the state)."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from cogs.pictures.fonts import fit, flatten, font, paste_text
from rules.rey_hierofante.model import RhView, square_name
from rules.rey_hierofante.tiles import TILES

W, H = 640, 720
SQ = 130  # a board square
BOARD_X, BOARD_Y = 40, 170
SMALL = 50  # a tile in a play area
SIDE_X = BOARD_X + 3 * SQ + 30  # the neutral column

# Colours come from the 216 web-safe ones (steps of 51): the picture is saved with that
# fixed palette, which encodes four times faster than full colour and loses no flat colour.
BG = (51, 51, 51)
GRID = (102, 102, 102)
INK = (255, 255, 255)
DIM = (153, 153, 153)
SEAT_COLOUR = ((204, 51, 51), (51, 102, 255))  # Realeza red, Religión blue
FACE = {"red": (153, 0, 0), "blue": (0, 51, 153), "neutral": (102, 102, 102), "blank": (153, 153, 153)}
HIGHLIGHT = (255, 204, 0)
BACK = (102, 51, 0)
BACK_INK = (255, 204, 153)

# Two-word hint of what each effect does, shown under the name.
HINT = {
    "destroy": ("destruye", "destroys"), "banish": ("destierra", "banishes"),
    "flip": ("gira", "flips"), "move": ("mueve", "moves"), "copy": ("copia", "copies"),
    "banish_zone": ("destierra mano", "banishes hand"), "recover": ("recupera", "recovers"),
    "cancel": ("anula", "cancels"), "shield": ("escudo", "shield"), "protect": ("protege", "protects"),
    "cover": ("cubre", "covers"), "return": ("devuelve", "returns"), "death": ("muerte", "death"),
    "none": ("", ""),
}
REACH = {"adj8": "8", "orth": "+", "diag": "x", "group": "+/x", "line": "→", "front3": "▲3",
         "board": "", "self": "", "lr": "↔", "none": ""}


def _es(locale: str) -> bool:
    return (locale or "").lower().startswith("es")


def _fit(text: str, size: int, width: int) -> tuple[str, ImageFont.FreeTypeFont]:
    return fit(text, size, width)


def _shield(d: ImageDraw.ImageDraw, x: int, y: int, s: int) -> None:
    d.polygon([(x, y), (x + s, y), (x + s, y + s * 0.6), (x + s / 2, y + s), (x, y + s * 0.6)],
              fill=(255, 204, 102), outline=(51, 51, 0))


@lru_cache(maxsize=512)
def tile_image(tile: str | None, owner: int | None, size: int, locale: str, shielded: bool = False,
               covered: str | None = None, destroyed: bool = False, upright: bool = False
               ) -> Image.Image:
    """One tile, upright for seat 0 and turned round for seat 1 (it faces its owner).

    Tiles in a play area are drawn ``upright`` with their owner's frame."""
    im = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    es = _es(locale)
    r = max(4, size // 10)
    if tile is None:  # face down or hidden
        d.rounded_rectangle((2, 2, size - 3, size - 3), r, fill=BACK, outline=DIM, width=2)
        mark = ("destruida" if es else "destroyed") if destroyed else "?"
        text, f = _fit(mark, size // 5 if destroyed else size // 2, size - 12)
        d.text((size / 2, size / 2), text, font=f, fill=BACK_INK, anchor="mm")
        if destroyed:
            d.line((10, 10, size - 10, size - 10), fill=(204, 0, 0), width=3)
        return im
    t = TILES[tile]
    border = SEAT_COLOUR[owner] if owner is not None else (204, 204, 204)
    d.rounded_rectangle((2, 2, size - 3, size - 3), r, fill=FACE[t.faction], outline=border,
                        width=max(3, size // 20))
    # a band at the tile's foot: the side that faces its owner
    d.rectangle((8, size - size // 7, size - 9, size - size // 7 + 3), fill=border)
    name = t.es if es else t.en
    text, f = _fit(name, size // 5 if size >= 80 else size // 4, size - 10)
    d.text((size / 2, size * 0.40 if size >= 80 else size / 2), text, font=f, fill=INK, anchor="mm")
    if size >= 80:
        hint = HINT[t.effect][0 if es else 1]
        hint = f"{hint} {REACH[t.reach]}".strip()
        if t.kind == "passive":
            hint += " ·P"
        text, f = _fit(hint, size // 9, size - 14)
        d.text((size / 2, size * 0.62), text, font=f, fill=DIM, anchor="mm")
        if covered:
            under = TILES[covered]
            text, f = _fit(("sobre " if es else "on ") + (under.es if es else under.en), size // 9, size - 14)
            d.text((size / 2, size * 0.76), text, font=f, fill=HIGHLIGHT, anchor="mm")
    if shielded:
        _shield(d, size - size // 4 - 4, 6, size // 4)
    return im.rotate(180) if owner == 1 and not upright else im


def _zone_row(canvas: Image.Image, d: ImageDraw.ImageDraw, y: int, seat: int, view: RhView,
              names: list[str], locale: str) -> None:
    es = _es(locale)
    colour = SEAT_COLOUR[seat]
    who = names[seat] if seat < len(names) else f"#{seat + 1}"
    faction = ("Realeza", "Religión")[seat] if es else ("Royalty", "Religion")[seat]
    label = f"{who} · {faction} · " + (f"aliados {view.allies[seat]}" if es else f"allies {view.allies[seat]}")
    text, f = _fit(label, 20, W - 2 * BOARD_X - 40)
    turn = seat in view.to_act
    paste_text(canvas, (BOARD_X, y), ("▶ " if turn else "") + text, f.size, HIGHLIGHT if turn else colour, BG)
    x = BOARD_X
    for z in view.zones[seat][:11]:
        _paste(canvas, (x, y + 26), z.tile, seat, SMALL, locale, False, None, False, True)
        x += SMALL + 4
    if len(view.zones[seat]) > 11:
        paste_text(canvas, (x, y + 26 + SMALL // 2), f"+{len(view.zones[seat]) - 11}", 16, DIM, BG, middle=True)


@lru_cache(maxsize=512)
def _flat_tile(*key: object) -> Image.Image:
    return flatten(tile_image(*key), BG)  # type: ignore[arg-type]


def _paste(canvas: Image.Image, at: tuple[int, int], *key: object) -> None:
    """Paste the tile ``tile_image(*key)``, flattened onto the background once."""
    canvas.paste(_flat_tile(*key), at)


@lru_cache(maxsize=1)
def _frame() -> Image.Image:
    """What never changes: the background, the squares and their coordinates."""
    rgb = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(rgb)
    for c in range(3):
        x = BOARD_X + c * SQ + SQ // 2
        d.text((x, BOARD_Y - 10), "ABC"[c], font=font(16), fill=DIM, anchor="mm")
        d.text((x, BOARD_Y + 3 * SQ + 10), "ABC"[c], font=font(16), fill=DIM, anchor="mm")
    for r in range(3):
        y = BOARD_Y + r * SQ + SQ // 2
        d.text((BOARD_X - 14, y), str(r + 1), font=font(16), fill=DIM, anchor="mm")
        d.text((BOARD_X + 3 * SQ + 12, y), str(r + 1), font=font(16), fill=DIM, anchor="mm")
    for i in range(9):
        x, y = BOARD_X + (i % 3) * SQ, BOARD_Y + (i // 3) * SQ
        d.rectangle((x, y, x + SQ - 1, y + SQ - 1), fill=BG, outline=GRID, width=1)
        d.text((x + SQ / 2, y + SQ / 2), square_name(i), font=font(18), fill=GRID, anchor="mm")
    return flatten(rgb, BG)


def render_board(view: RhView, names: list[str], locale: str) -> bytes:
    """PNG of the board as ``view`` shows it (names: display name per seat; locale es/en)."""
    es = _es(locale)
    canvas = _frame().copy()
    d = ImageDraw.Draw(canvas)
    # header: game number, score, phase
    o = view.options
    if o.scoring == "match":
        score = (f"Partida {view.game_no} · victorias {view.wins[0]}-{view.wins[1]} (a {o.wins_needed})" if es
                 else f"Game {view.game_no} · wins {view.wins[0]}-{view.wins[1]} (first to {o.wins_needed})")
    else:
        score = (f"Partida {view.game_no}/{o.games} · puntos {view.points[0]}-{view.points[1]}" if es
                 else f"Game {view.game_no}/{o.games} · points {view.points[0]}-{view.points[1]}")
    paste_text(canvas, (BOARD_X, 14), score, 22, INK, BG)
    if view.finished:
        status = "Encuentro terminado" if es else "Match over"
    elif view.to_act:
        who = names[view.to_act[0]] if view.to_act[0] < len(names) else "?"
        verb = {"place": ("coloca", "to place"), "effect": ("elige efecto", "to choose an effect"),
                "draft": ("elige loseta", "to draft"), "choose_starter": ("elige quién empieza", "to choose who starts")}
        v = verb.get(view.phase, ("juega", "to play"))
        status = f"Turno de {who}: {v[0]}" if es else f"{who} {v[1]}"
    else:
        status = ""
    text, f = _fit(status, 18, W - 2 * BOARD_X)
    paste_text(canvas, (BOARD_X, 42), text, f.size, HIGHLIGHT, BG)
    # seat 1 sits at the top, seat 0 at the bottom
    _zone_row(canvas, d, 76, 1, view, names, locale)
    source = view.effect.source if view.effect is not None else None
    if source is not None:
        x, y = BOARD_X + (source % 3) * SQ, BOARD_Y + (source // 3) * SQ
        d.rectangle((x, y, x + SQ - 1, y + SQ - 1), outline=HIGHLIGHT, width=3)
    for i, v in enumerate(view.board):
        if v is not None:
            _paste(canvas, (BOARD_X + (i % 3) * SQ + 4, BOARD_Y + (i // 3) * SQ + 4),
                   v.tile, v.owner, SQ - 8, locale, v.shielded, v.covered, not v.face_up)
    # the neutral area and the discard pile on the right
    side, title = view.neutral_zone, ("Neutrales" if es else "Neutrals")
    if view.draft_offer:  # the draft variants have no neutral area: show the offer there
        side, title = view.draft_offer, "Draft"
    paste_text(canvas, (SIDE_X, BOARD_Y - 10), title, 16, DIM, BG, middle=True)
    y = BOARD_Y + 6
    for tile in side[:5]:
        _paste(canvas, (SIDE_X, y), tile, None, 60, locale)
        y += 64
    if not side:
        paste_text(canvas, (SIDE_X, y + 8), "—", 18, DIM, BG)
    dy = BOARD_Y + 3 * SQ - 36
    paste_text(canvas, (SIDE_X, dy), ("Descartes: " if es else "Discard: ") + str(len(view.discard)), 15, DIM, BG)
    paste_text(canvas, (SIDE_X, dy + 20), ("Reserva: " if es else "Stock: ") + str(view.stock_count), 15, DIM, BG)
    _zone_row(canvas, d, BOARD_Y + 3 * SQ + 30, 0, view, names, locale)
    out = io.BytesIO()
    # Level 1: the picture is re-sent on every move; speed matters more than bytes here.
    canvas.save(out, "PNG", compress_level=1)
    return out.getvalue()
