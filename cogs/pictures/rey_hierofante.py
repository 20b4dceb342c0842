"""The public picture of a Rey y Hierofante board, drawn only from a view (never the state).

Layout: Religión (seat 1) sits at the top, Realeza (seat 0) at the bottom, each with a
name strip and the tiles of their play area; the 3x3 board is on the left with the square
names on its edges; the right column holds the match status, the neutral zone (or the
draft offer) and the discard pile. A board tile faces its owner: seat 1's tiles are
drawn turned round, and every tile has a frame in its owner's colour.

The picture is drawn after every move, in a worker thread, so a render only copies a cached
background and pastes cached pieces, all already reduced to the palette (see "cached
pieces" below and ``IndexBackground`` in common.py), then compresses the rows it touched.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from cogs.common.catalogue import language
from cogs.common.catalogue import tn as _trn
from cogs.pictures.common import (
    LAST_MOVE,
    RGB,
    IndexBackground,
    IndexCanvas,
    fit_lines,
    player_name,
    put_index_lines,
    put_index_text,
    put_text,
    text_mask,
    text_width,
    truncate,
)
from cogs.pictures.rey_hierofante_tiles import (  # noqa: F401 - some re-exported for tests
    ACTIVE,
    BOARD_X,
    BOARD_Y,
    DISCARD_BOX,
    GOLD,
    INK,
    MINI,
    MUTED,
    NEUTRAL_BOX,
    PAGE,
    PALETTE,
    PANEL,
    PANEL_BOX,
    PASSIVE,
    PLATE,
    REASONS,
    SEAT,
    SIDE_X0,
    SIDE_X1,
    SMALL,
    SQ,
    SQUARE,
    SQUARE_TEXT,
    STATUS_BOX,
    STRIP,
    TEXT,
    TILE,
    VARIANTS,
    WOOD,
    WOOD_TEXT,
    ZONE_TOP,
    ZONE_X0,
    ZONE_X1,
    H,
    W,
    board_back,
    board_tile,
    mini_tile,
    say,
    shield,
    square_box,
    tile_box,
    tile_name,
)
from rules.rey_hierofante.model import CellView, RhView, ZoneTileView, square_name
from rules.rey_hierofante.tiles import TILES


def _base(lang: str) -> Image.Image:
    """What does not change between moves: panels, the board with its square names, boxes."""
    im = Image.new("RGB", (W, H), PAGE)
    d = ImageDraw.Draw(im)
    for seat in (0, 1):
        x0, _, x1, _ = PANEL_BOX[seat]
        d.rounded_rectangle(PANEL_BOX[seat], 10, fill=PANEL)
        top = seat == 1  # the strip sits on the panel's outer edge
        d.rounded_rectangle((x0, STRIP[seat][0], x1, STRIP[seat][1]), 10, fill=SEAT[seat],
                            corners=(top, top, not top, not top))
    d.rounded_rectangle(PLATE, 12, fill=WOOD)
    for i in range(9):
        x0, y0, x1, y1 = square_box(i)
        d.rectangle((x0 + 2, y0 + 2, x1 - 3, y1 - 3), fill=SQUARE)
        put_text(im, ((x0 + x1) / 2, (y0 + y1) / 2), square_name(i), 24, SQUARE_TEXT, bold=True,
                 align="m")
    # Square names on all four edges: players type them in their commands.
    for c in range(3):
        cx = BOARD_X + c * SQ + SQ / 2
        for y in (PLATE[1] + 10, PLATE[3] - 10):
            put_text(im, (cx, y), "ABC"[c], 14, WOOD_TEXT, bold=True, align="m")
    for r in range(3):
        cy = BOARD_Y + r * SQ + SQ / 2
        for x in (PLATE[0] + 10, PLATE[2] - 10):
            put_text(im, (x, cy), str(r + 1), 14, WOOD_TEXT, bold=True, align="m")
    for box in (STATUS_BOX, NEUTRAL_BOX, DISCARD_BOX):
        d.rounded_rectangle(box, 10, fill=PANEL)
    # Legend of the two effect colours.
    x, y = SIDE_X0 + 14, DISCARD_BOX[3] - 16
    for colour, word in ((ACTIVE, say(lang, "active")),
                         (PASSIVE, say(lang, "passive"))):
        d.rectangle((x, y - 5, x + 9, y + 4), fill=colour)
        x += 16 + put_text(im, (x + 15, y), word, SMALL, MUTED) + 18
    # and of the outline round the squares the last move changed
    d.rectangle((x, y - 6, x + 10, y + 5), outline=LAST_MOVE, width=2)
    put_text(im, (x + 16, y), say(lang, "last_move"), SMALL, MUTED)
    for seat in (0, 1):  # the side's name, first on its strip
        put_text(im, (ZONE_X0, _strip_middle(seat)), say(lang, f"faction.{seat}"), SMALL, TEXT,
                 bold=True)
    return im


# ----------------------------------------------------------------------------- cached pieces
#
# Every render starts from a copy of a cached index canvas (the fixed background with the
# turn markers) and pastes cached index pieces, each drawn once in full colour on the flat
# colour it sits on and reduced to the palette: the same pixels as drawing it all in full
# colour and reducing the whole picture, without a colour conversion per render. The caches
# are shared by the render threads; nothing in them is changed after it is made.

NO_MARK, TO_PLAY, WINNER = 0, 1, 2  # what a player's strip says besides the scores
_IDX = PALETTE.index


def _strip_middle(seat: int) -> float:
    return (STRIP[seat][0] + STRIP[seat][1]) / 2


def _pill_text(mark: int, lang: str) -> str:
    if mark == WINNER:
        return say(lang, "winner")
    return say(lang, "to_play")


def _pill_left(right: float, text: str) -> float:
    return right - text_width(text, SMALL, bold=True) - 18


def _pill(canvas: Image.Image, d: ImageDraw.ImageDraw, right: float, cy: float, text: str) -> float:
    """A gold label ending at ``right``; returns its left edge."""
    left = _pill_left(right, text)
    d.rounded_rectangle((left, cy - 11, right, cy + 11), 11, fill=GOLD)
    put_text(canvas, (left + 9, cy), text, SMALL, INK, bold=True)
    return left


def _scores_right(mark: int, lang: str) -> float:
    """Where the scores on a strip end: left of its label, if it has one."""
    if mark == NO_MARK:
        return float(ZONE_X1)
    return _pill_left(float(ZONE_X1), _pill_text(mark, lang)) - 14


@lru_cache(maxsize=32)
def _background(lang: str, marks: tuple[int, int]) -> IndexBackground:
    """The fixed background with each strip's label (to play, winner) and the frame round
    the panel of a player who is to play, as an index canvas."""
    im = _base(lang)
    d = ImageDraw.Draw(im)
    for seat in (1, 0):
        if marks[seat] != NO_MARK:
            _pill(im, d, float(ZONE_X1), _strip_middle(seat), _pill_text(marks[seat], lang))
        if marks[seat] == TO_PLAY:
            d.rounded_rectangle(PANEL_BOX[seat], 10, outline=GOLD, width=3)
    return IndexBackground(PALETTE, im)


@lru_cache(maxsize=1024)
def _scores(seat: int, lang: str, mark: int, match: bool, need: int, score: int, allies: int
            ) -> tuple[Image.Image, int, int, float]:
    """The right part of a strip (allies, then wins or points) as an index piece: the piece,
    its top-left corner and where the player's name must end."""
    s0, s1 = STRIP[seat]
    cy = _strip_middle(seat) - s0  # the strip drawn on its own: y from its top
    im = Image.new("RGB", (W, s1 - s0), SEAT[seat])
    d = ImageDraw.Draw(im)
    right = _scores_right(mark, lang)
    if match:
        for k in reversed(range(need)):
            d.ellipse((right - 12, cy - 6, right, cy + 6), outline=TEXT, width=2,
                      fill=GOLD if k < score else SEAT[seat])
            right -= 16
        right -= 4 + put_text(im, (right, cy), say(lang, "wins"), SMALL, TEXT, align="r")
    else:
        label = say(lang, "points", n=score)
        right -= put_text(im, (right, cy), label, 14, TEXT, bold=True, align="r")
    right -= 18
    right -= put_text(im, (right, cy), say(lang, "allies", n=allies), 14,
                      TEXT, align="r") + 18
    box = ImageChops.difference(im, Image.new("RGB", im.size, SEAT[seat])).getbbox()
    if box is None:  # cannot happen (there is always the allies label); keep it safe anyway
        box = (0, 0, 1, 1)
    return PALETTE.quantize(im.crop(box)), box[0], box[1] + s0, right


@lru_cache(maxsize=1024)
def _board_piece(tile: str, owner: int, covered: str | None, lang: str, shielded: bool
                 ) -> Image.Image:
    """A face-up board tile with its shield, if it has one, as an index piece."""
    im = board_tile(tile, owner, covered, lang)
    if shielded:  # on the tile's right edge, clear of its name whichever way it faces
        im = im.copy()
        shield(ImageDraw.Draw(im), TILE - 27, TILE / 2 - 15, 22, 28)
    return PALETTE.quantize(im)


@lru_cache(maxsize=4)
def _back_piece(lang: str) -> Image.Image:
    """A face-down board tile as an index piece."""
    return PALETTE.quantize(board_back(lang))


@lru_cache(maxsize=2048)
def _mini_piece(tile: str | None, owner: int | None, size: int, lang: str, hidden: bool = False
                ) -> Image.Image:
    """``mini_tile`` as an index piece."""
    return PALETTE.quantize(mini_tile(tile, owner, size, lang, hidden))


def _text(canvas: IndexCanvas, xy: tuple[float, float], text: str, size: int, colour: RGB,
          background: RGB = PANEL, *, bold: bool = False, align: str = "l") -> int:
    """``put_text`` on the canvas where it is ``background`` (the panel colour unless said)."""
    return put_index_text(canvas, PALETTE, xy, text, size, colour, background, bold=bold,
                          align=align)


def _lines(canvas: IndexCanvas, xy: tuple[float, float], lines: tuple[str, ...], size: int,
           colour: RGB, *, bold: bool = False) -> None:
    """``put_lines`` on the panel colour."""
    put_index_lines(canvas, PALETTE, xy, lines, size, colour, PANEL, bold=bold)


# ----------------------------------------------------------------------------- per render


def _winner(view: RhView) -> int | None:
    """The match winner of a finished match (None: a draw on points)."""
    o = view.options
    if o.scoring == "match":
        for s in (0, 1):
            if view.wins[s] >= o.wins_needed:
                return s
        score = view.wins
    else:
        score = view.points
    if score[0] == score[1]:
        return None
    return 0 if score[0] > score[1] else 1


def _score(view: RhView) -> tuple[int, int]:
    src = view.wins if view.options.scoring == "match" else view.points
    return src[0], src[1]


def _status(view: RhView, names: list[str], lang: str) -> str:
    """What the match waits for, or how it ended."""
    def who(s: int) -> str:
        return truncate(names[s], 150, 17, bold=True)

    a, b = _score(view)
    if view.finished:
        w = _winner(view)
        if w is None:
            return say(lang, "draw", n=a)
        hi, lo = max(a, b), min(a, b)
        return say(lang, "match_won", who=who(w), hi=hi, lo=lo)
    actor = view.to_act[0] if view.to_act else view.turn
    if view.phase == "choose_starter":
        text = say(lang, "chooses_starter", who=who(actor))
        if view.history and view.history[-1].winner is not None:
            last = view.history[-1]
            why = say(lang, f"reason.{last.reason}") if last.reason in REASONS else last.reason
            won = who(last.winner) if last.winner is not None else "?"
            n = max(1, view.game_no - 1)
            text = say(lang, "game_won", who=won, n=n, why=why) + text
        return text
    if view.phase == "draft":
        return say(lang, "drafts", who=who(actor))
    if view.phase == "effect" and view.effect is not None:
        e = view.effect
        tile = tile_name(e.tile, lang)
        at = square_name(e.source) if 0 <= e.source < 9 else "?"
        return say(lang, "effect", who=who(actor), tile=tile, at=at)
    return say(lang, "to_place", who=who(actor))


def _game_line(view: RhView, lang: str) -> str:
    o = view.options
    if o.scoring == "match":
        return _trn("pic.rh.game_match", o.wins_needed, lang, game=view.game_no)
    return say(lang, "game_points", game=view.game_no, games=o.games)


def _mark(view: RhView, seat: int, winner: int | None) -> int:
    if view.finished:
        return WINNER if winner == seat else NO_MARK
    return TO_PLAY if seat in view.to_act else NO_MARK


def _panel(canvas: IndexCanvas, view: RhView, seat: int, name: str, mark: int, lang: str) -> None:
    """A player's strip (name, allies, score; side and turn are in the background) and
    play area."""
    x = ZONE_X0 + text_mask(say(lang, f"faction.{seat}"), SMALL, True)[0].width - 2 + 14
    o = view.options
    match = o.scoring == "match"
    allies = view.allies[seat] if seat < len(view.allies) else 0
    piece, px, py, right = _scores(seat, lang, mark, match, min(o.wins_needed, 9) if match else 0,
                                   view.wins[seat] if match else view.points[seat], allies)
    canvas.paste(piece, (px, py))
    lines, fs = fit_lines(name, right - x, 18, min_size=SMALL, bold=True)
    _text(canvas, (x, _strip_middle(seat)), lines[0], fs, TEXT, SEAT[seat], bold=True)
    _zone(canvas, view.zones[seat] if seat < len(view.zones) else [], seat, lang)


def _zone(canvas: IndexCanvas, zone: list[ZoneTileView], seat: int, lang: str) -> None:
    top = ZONE_TOP[seat]
    if not zone:
        _text(canvas, (ZONE_X0, top + MINI / 2), say(lang, "empty_zone"), 14,
              MUTED)
        return
    gap = 6
    span = ZONE_X1 - ZONE_X0
    # Shrink the tiles when many are held; past the smallest size, the rest is a count.
    size = max(72, min(MINI, (span + gap) // len(zone) - gap))
    fit = (span + gap) // (size + gap)
    shown = zone if len(zone) <= fit else zone[:fit - 1]
    y = top + (MINI - size) // 2
    x = ZONE_X0
    for z in shown:
        canvas.paste(_mini_piece(z.tile, seat, size, lang, z.hidden and z.tile is not None), (x, y))
        x += size + gap
    if len(shown) < len(zone):
        _text(canvas, (x + size / 2, top + MINI / 2), f"+{len(zone) - len(shown)}", 18, TEXT,
              bold=True, align="m")


def _side(canvas: IndexCanvas, view: RhView, names: list[str], lang: str) -> None:
    """The right column: status, neutral zone or draft, discard pile and stock."""
    x0, x1 = SIDE_X0 + 14, SIDE_X1 - 14
    width = x1 - x0
    _, top, _, _ = STATUS_BOX
    _text(canvas, (x0, top + 15), _game_line(view, lang), 14, MUTED)
    lines, fs = fit_lines(_status(view, names, lang), width, 17, min_size=SMALL, max_lines=2, bold=True)
    _lines(canvas, (x0, top + 47), lines, fs, GOLD, bold=True)
    v = view.options.variant
    variant = say(lang, f"variant.{v}") if v in VARIANTS else v
    _text(canvas, (x0, top + 80), say(lang, "variant", name=variant), SMALL, MUTED)

    _, top, _, _ = NEUTRAL_BOX
    tiles: list[str] = view.neutral_zone
    title = say(lang, "neutral_zone", n=len(tiles))
    note = ""
    if view.phase == "draft":
        picker = view.draft_picker if view.draft_picker is not None else view.turn
        who = truncate(names[picker], 160, 14, bold=True)
        if view.draft_offer is not None:
            tiles = view.draft_offer
            title = say(lang, "draft_picks", who=who)
        else:
            tiles = []
            title = say(lang, "hidden_draft")
            note = say(lang, "picks_secretly", who=who)
    _text(canvas, (x0, top + 15), truncate(title, width, 14, bold=True), 14, MUTED, bold=True)
    if not tiles:
        _text(canvas, (x0, top + 60), note or say(lang, "empty"), 14, MUTED)
    per_row, pitch = 3, MINI + 6
    for k, tile in enumerate(tiles[:2 * per_row]):
        if k == 2 * per_row - 1 and len(tiles) > 2 * per_row:
            _text(canvas, (x0 + (per_row - 1) * pitch + MINI / 2, top + 26 + MINI + 6 + MINI / 2),
                  f"+{len(tiles) - k}", 18, TEXT, bold=True, align="m")
            break
        canvas.paste(_mini_piece(tile, None, MINI, lang),
                     (x0 + (k % per_row) * pitch, top + 26 + (k // per_row) * (MINI + 6)))

    _, top, _, _ = DISCARD_BOX
    n = len(view.discard)
    _text(canvas, (x0, top + 15), say(lang, "discard", n=n), 14, MUTED,
          bold=True)
    if view.discard:
        text = ", ".join(tile_name(t, lang) for t in reversed(view.discard))  # newest first
        lines, fs = fit_lines(text, width, SMALL, min_size=SMALL, max_lines=3)
        _lines(canvas, (x0, top + 50), lines, fs, TEXT)
    else:
        _text(canvas, (x0, top + 40), say(lang, "empty"), 14, TEXT)
    stock = say(lang, "stock", n=view.stock_count)
    _text(canvas, (x0, top + 94), stock, SMALL, MUTED)


def changes(before: RhView, after: RhView) -> frozenset[int]:
    """The squares whose tile changed from ``before`` to ``after``: placed, turned face
    down, flipped to the other side, moved, covered, gone."""
    return frozenset(i for i in range(9)
                     if (before.board[i:i + 1] or [None]) != (after.board[i:i + 1] or [None]))


def _board(canvas: IndexCanvas, view: RhView, lang: str, changed: frozenset[int] = frozenset()) -> None:
    """The nine squares: tiles facing their owners, shields, the squares the last move
    changed, the pending effect's square."""
    cells: list[CellView | None] = view.board[:9]
    for i, cell in enumerate(cells):
        if cell is None:
            continue
        x, y, _, _ = tile_box(i)
        if cell.tile is None or not cell.face_up or cell.tile not in TILES:
            canvas.paste(_back_piece(lang), (x, y))
            continue
        covered = cell.covered if cell.covered in TILES else None
        canvas.paste(_board_piece(cell.tile, 1 if cell.owner == 1 else 0, covered, lang,
                                  bool(cell.shielded)), (x, y))
    for i in sorted(changed):
        if 0 <= i < 9:  # in the wood round the tile; a pending effect's gold goes over it
            x0, y0, x1, y1 = square_box(i)
            canvas.rectangle((x0, y0, x1 - 1, y1 - 1), _IDX[LAST_MOVE], 3)
    e = view.effect
    if e is not None and not view.finished:
        gold = _IDX[GOLD]
        if 0 <= e.origin < 9 and e.origin != e.source:  # a copy acts from the copier
            x0, y0, x1, y1 = square_box(e.origin)
            canvas.rectangle((x0, y0, x1 - 1, y1 - 1), gold, 2)
        if 0 <= e.source < 9:
            x0, y0, x1, y1 = square_box(e.source)
            canvas.rectangle((x0, y0, x1 - 1, y1 - 1), gold, 4)


def render_board(view: RhView, names: list[str], locale: str,
                 changed: frozenset[int] = frozenset()) -> bytes:
    """PNG of the public board as ``view`` shows it (names: display name per seat; locale
    'es'/'en...'; ``changed``: the squares the last move changed, outlined)."""
    lang = language(locale)
    who = [player_name(names[s] if s < len(names) else None, say(lang, "player", n=s + 1))
           for s in (0, 1)]
    winner = _winner(view) if view.finished else None
    marks = (_mark(view, 0, winner), _mark(view, 1, winner))
    canvas = _background(lang, marks).start()
    for seat in (1, 0):
        _panel(canvas, view, seat, who[seat], marks[seat], lang)
    _board(canvas, view, lang, changed)
    _side(canvas, view, who, lang)
    return canvas.png()
