"""How a game looks in Discord: a generic presentation any engine gets, refined per game."""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from cogs.common.i18n import names, t, tn
from cogs.common.last_change import Marks, last_change
from cogs.common.usertext import plain
from rules.catalogue import seat_words
from rules.core import Action, Event, GameState, Naming, Seat, Text
from services.fairness import of_game
from services.session import Game

FILENAME = "board.png"
# How the engines name a seat in their texts.


def seat_of(match: re.Match[str]) -> int:
    """The seat a match of rules.catalogue.seat_words() names ("Jugador 2" is seat 1)."""
    found = re.search(r"[1-9]", match[0])
    assert found is not None
    return int(found[0]) - 1
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NO_MENTIONS = discord.AllowedMentions.none()
COLOUR = discord.Colour(0x8E5A2B)  # the wood of a game table

EMBED_FIELD = 1024
EMBED_DESCRIPTION = 4096
CONTENT = 2000


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, with an ellipsis, when it is longer.

    A text of several lines loses whole lines from its end (a board field never shows half
    a line), a single line is cut between words; either way a mention, a link or a bold
    name is never split in two."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 1)  # room for "\n…" after the last whole line
    if cut > 0:
        return text[:cut].rstrip() + "\n…"
    cut = text.rfind(" ", 0, limit)
    if cut <= 0:  # one long word: nothing better than a hard cut
        cut = limit - 1
    return text[:cut].rstrip() + "…"


def keep_newest(lines: Sequence[str], limit: int) -> str:
    """``lines`` joined in at most ``limit`` characters, losing the oldest whole lines first
    (an ellipsis says some went): the end of a turn is what a reader needs most."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    size = 2  # "…\n"
    for line in reversed(lines):
        if size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    if not kept:
        return clip(lines[-1], limit)
    return "\n".join(["…", *reversed(kept)])


def clip_before(body: str, tail: str, limit: int) -> str:
    """``body`` then ``tail`` in at most ``limit`` characters: ``body`` loses its oldest whole
    lines (what happened last, the game's end say, stays) and ``tail`` stays whole (it holds
    the mentions of who must act: cutting it would lose a ping)."""
    if not tail:
        return keep_newest(body.split("\n"), limit)
    room = limit - len(tail) - 1
    if not body or room < 2:
        return clip(tail, limit)
    return keep_newest(body.split("\n"), room) + "\n" + tail


@dataclass
class Rendered:
    """A message ready to send or edit: content, embed, optional picture and components."""

    content: str | None
    embed: discord.Embed
    png: bytes | None = None
    view: discord.ui.View | None = None
    filename: str = FILENAME  # the picture's attachment (its embed's image names it)

    def files(self) -> list[discord.File]:
        """The picture as an attachment list (empty when there is none)."""
        if self.png is None:
            return []
        return [discord.File(io.BytesIO(self.png), filename=self.filename)]

    def rename(self, filename: str) -> None:
        """Attach the picture as ``filename`` (two pictures in one message need two names)."""
        self.filename = filename
        if self.png is not None:
            self.embed.set_image(url=f"attachment://{filename}")

    def send_kwargs(self) -> dict[str, Any]:
        """Arguments for ``send``/``send_message``."""
        # Boards, lobbies and hands never notify: the record of the move that made someone
        # pending is the one message that pings them (see cogs/common/announce.py).
        kw: dict[str, Any] = {"content": self.content, "embed": self.embed, "allowed_mentions": NO_MENTIONS}
        if self.png is not None:
            kw["files"] = self.files()
        if self.view is not None:
            kw["view"] = self.view
        return kw

    def edit_kwargs(self) -> dict[str, Any]:
        """Arguments for ``edit``: the picture replaces the old one, components are replaced."""
        return {
            "content": self.content,
            "embed": self.embed,
            "attachments": self.files(),
            "view": self.view,
            "allowed_mentions": NO_MENTIONS,
        }


# The mark of a seat the bot plays (its own, or one it took over from a player who left or
# timed out for good) wherever the seat is listed.
BOT_MARK = "🤖"


def listed(g: Game, seat: Seat) -> str:
    """A seat's plain name in a list that pings nobody, marked when the bot plays it."""
    row = g.seat_row(seat)
    return f"{BOT_MARK} {plain(row.name)}" if row.ai or row.user_id is None else plain(row.name)


def mention(g: Game, seat: Seat) -> str:
    """A ping for a human seat; the bold name of a seat the bot plays, marked as the bot's."""
    row = g.seat_row(seat)
    if row.ai or row.user_id is None:
        return f"{BOT_MARK} **{row.name}**"
    return f"<@{row.user_id}>"


def event_lines(
    events: Sequence[Event], locale: str, viewer: Seat | None = None, g: Game | None = None
) -> list[str]:
    """The texts of the events ``viewer`` may read (worded by ``g``'s presentation if given)."""
    if g is None:
        return [e.text.get(locale) for e in events if e.visible_to(viewer)]
    ui = ui_for(g.row.game_id)
    return [ui.wording(g, e.text, locale) for e in events if e.visible_to(viewer)]


def said_by(g: Game, seat: Seat, texts: Sequence[str], locale: str) -> str:
    """One player's move as a line that reads on its own: the game's words when their first
    line already names a player (whoever it is about), else "**name**: what", else that they
    chose in secret."""
    ui = ui_for(g.row.game_id)
    name = plain(g.seat_row(seat).name)
    what = ui.event_separator.join(texts)
    # A first line that names a player says whom it is about: a consequence of the move
    # (another player's building action, whose turn it is) must not read as the mover's.
    naming = ui.naming(g)
    if texts and any(n and n in texts[0] for n in map(naming, range(len(g.seats)))):
        return what
    if texts:
        return f"**{name}**: {what}"
    return f"**{name}** {t('log.hidden_move', locale)}"


def outcome_line(g: Game, locale: str) -> str:
    """How the game ended: the rules' reason (how it was won) and who won."""
    assert g.state is not None
    out = g.engine.outcome(g.state)
    parts = [t("board.finished", locale)]
    if out is not None:
        reason = ui_for(g.row.game_id).wording(g, out.reason, locale)
        # a sentence of its own here (the rules' reason also follows "The game is over:")
        parts.append(reason[:1].upper() + reason[1:])
        # The seats the reason names: a reason that already says who won ("ana wins 2 to 1")
        # is not followed by "ana wins." again.
        told: set[int] = set()
        out.reason.get(locale, lambda seat: told.add(seat))
        winners = out.winners
        if winners and set(winners) <= told:
            pass
        elif len(out.ranking) <= 1 and len(winners) == len(g.seats) and len(g.seats) > 1:
            parts.append(t("board.draw", locale))
        elif len(winners) == 1:
            parts.append(t("board.winner", locale, who=mention(g, winners[0])))
        elif winners:
            who = names([mention(g, s) for s in winners], locale)
            parts.append(t("board.winners", locale, who=who))
    return " ".join(parts)


def asked_by_dm(g: Game, seat: Seat) -> bool:
    """Whether ``seat`` is in a reaction window that reaches them by DM (so the channel
    names them without pinging them); with closed DMs the channel pings them instead."""
    row = g.seat_row(seat)
    return not row.ai and not row.dm_closed and ui_for(g.row.game_id).reaction(g, seat)


def turn_lines(g: Game, locale: str) -> list[str]:
    """Who must act now and what, or the result once the game is over."""
    if g.status == "abandoned":
        return [t("board.abandoned", locale)]
    if g.state is not None and g.state.finished:
        return [outcome_line(g, locale)]
    ui = ui_for(g.row.game_id)
    lines = []
    for seat, prompt in sorted(g.pending().items()):
        if ui.reaction(g, seat):
            # The question itself could hint at what the seat holds: the channel only
            # learns that the game waits for their answer.
            who = f"**{plain(g.seat_row(seat).name)}**" if asked_by_dm(g, seat) \
                else mention(g, seat)
            lines.append(t("board.reaction", locale, who=who))
        else:
            lines.append(t("board.turn", locale, who=mention(g, seat), prompt=ui.wording(g, prompt.text, locale)))
    return lines


def ping_line(g: Game, locale: str) -> str | None:
    """A line pinging every human who must act now (but those asked privately by DM)."""
    humans = [mention(g, s) for s in sorted(g.pending()) if not g.seat_row(s).ai and not asked_by_dm(g, s)]
    if not humans:
        return None
    return tn("board.your_turn", len(humans), locale, who=names(humans, locale))


def jump_url(g: Game) -> str | None:
    """A link to the game's own channel (its thread, for a game in a thread): never to a
    message, since the board is posted again (the old one deleted) when buried, and a link
    to a deleted message leads nowhere. The live board is always near the channel's bottom."""
    channel = g.row.board_channel_id or g.row.channel_id
    if not channel:
        return None
    guild = g.row.guild_id if g.row.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{channel}"


V = TypeVar("V")


def engine_view(g: Game, seat: Seat | None, kind: type[V], state: GameState | None = None) -> V:
    """The engine's view of ``state`` (default: the game's) for ``seat`` (None: public),
    which must be a ``kind``."""
    st = state if state is not None else g.state
    assert st is not None
    # The views of the current state (and of the one just replaced) are kept by the game: a
    # move draws the card, the menus, the labels and what it owes from the same few views.
    v = g.view_of(st, seat)
    assert isinstance(v, kind)
    return v


class GameUI:
    """A game's presentation; this base works for any engine from its views and labels."""

    game_id: str = "*"
    # Between the texts of one move's events in its announcement (a game whose moves
    # set off long chains of events may want one per line).
    event_separator: str = " "

    # -- words -----------------------------------------------------------------------

    def name(self, g: Game, seat: int) -> str:
        """A seat's display name (plain; "#n" for a seat the game has no row for)."""
        try:
            return g.seat_row(seat).name
        except KeyError:
            return f"#{seat + 1}"

    def naming(self, g: Game, bold: bool = True) -> Naming:
        """How this game's texts name a seat: the player's name (bold where ``bold``), given
        to the rules' texts as a value, so no display name or translation can pass for one."""

        def one(seat: int) -> str | None:
            if not 0 <= seat < len(g.seats):
                return None
            name = self.name(g, seat)
            return f"**{plain(name)}**" if bold else name

        return one

    def wording(self, g: Game, text: Text, locale: str, bold: bool = True) -> str:
        """How a text of the rules (event, prompt, result) reads in Discord: the rules name a
        seat with ``rules.core.seat_name`` and a reader sees the player's name there."""
        said = text.get(locale, self.naming(g, bold))
        return self.named(g, said, bold) if text.lit is not None else said

    def named(self, g: Game, text: str, bold: bool = True) -> str:
        """``text``, stored in words before the rules named seats as values ("Jugador 2"),
        with the players' names instead of the seat numbers."""

        def one(m: re.Match[str]) -> str:
            return self.naming(g, bold)(seat_of(m)) or m[0]

        return seat_words().sub(one, text)

    # -- private information -----------------------------------------------------------

    def dm_facts(self, g: Game, state: GameState | None, seat: Seat) -> list[str]:
        """What ``seat`` knows privately, as facts; a DM goes out when they change.

        Default: every secret of the seat's view. A game whose private view also holds
        the steps of a choice in progress can narrow this so that only real news is sent."""
        return g.secrets(seat, state) if state is not None else []

    def menu(self, g: Game, seat: Seat, locale: str) -> discord.ui.View | None:
        """The private menu ``seat`` gets from Play or My hand (None: the generic menu of
        legal moves). A game may offer its own for a choice of several steps."""
        return None

    def menu_text(self, g: Game, seat: Seat, locale: str) -> str:
        """The words above ``seat``'s private menu (a game may say what is being decided)."""
        return t("board.pick", locale, name=g.seat_row(seat).name)

    def reaction(self, g: Game, seat: Seat) -> bool:
        """Whether ``seat``'s pending decision is a reaction out of turn (an interrupt card,
        a payment to spare a piece): it is asked by DM with a button per answer, and the
        channel only says that the game waits for them (default: never)."""
        return False

    # -- labels ----------------------------------------------------------------------

    def label(self, g: Game, seat: Seat, action: Action, locale: str) -> str:
        """A short label for a legal action (the engine's own description)."""
        assert g.state is not None
        return clip(self.wording(g, g.engine.describe(g.state, seat, action), locale, bold=False), 100)

    def group_of(self, g: Game, seat: Seat, action: Action) -> Hashable | None:
        """The first step of a two-step choice this action belongs to (None: no grouping).

        Default: its kind and first field, e.g. ("place", "rey") - the tile before the square.
        """
        data = action.model_dump(mode="json")
        kind = data.pop("kind", "")
        first = next(iter(data.values()), None)
        return (kind, json.dumps(first, sort_keys=True)) if first is not None else (kind,)

    def group_label(self, g: Game, seat: Seat, key: Hashable, actions: Sequence[Action], locale: str) -> str:
        """The label of a group of actions in the first step."""
        if isinstance(key, tuple) and len(key) == 2:
            return clip(f"{key[0]}: {json.loads(key[1])}", 100)
        return clip(str(key), 100)

    def group_description(
        self, g: Game, seat: Seat, key: Hashable, actions: Sequence[Action], locale: str
    ) -> str:
        """The small print under a group in the first step (default: how many choices)."""
        return tn("board.options_n", len(actions), locale)

    # -- pictures and embeds -----------------------------------------------------------

    def picture(self, g: Game, seat: Seat | None, locale: str) -> bytes | None:
        """A PNG of what ``seat`` sees (None: this game has no picture)."""
        return None

    def last_change(self, g: Game, seat: Seat | None, view: Any,
                    diff: Callable[[Any, Any], Marks]) -> Marks:
        """What the last move that changed the board changed in ``view`` (``seat``'s view
        of ``g`` now), by the picture's ``diff``: the picture marks it."""
        return last_change().marks(g.id, seat, g.version, view, diff)

    # What the statistics call the sides a game's seats play as (``Engine.sides``): a
    # catalogue key; a game names its own ("Pantheon") where "Side" says less.
    side_key = "stats.side"

    def seat_side(self, seat: int, locale: str) -> str | None:
        """What a seat is besides its place in turn order, for a server's statistics (a
        faction that always sits there); None when seats differ only by their order."""
        return None

    def title(self, g: Game, locale: str) -> str:
        """The board's title."""
        return t("board.title", locale, title=g.engine.title.get(locale), id=g.id)

    def board_fields(self, g: Game, locale: str, pictured: bool = False) -> list[tuple[str, str, bool]]:
        """Extra (name, value, inline) fields of the board embed (``pictured``: a picture
        comes with it, so the fields need not draw the board in text)."""
        players = "\n".join(f"{i + 1}. {mention(g, s.seat)}" for i, s in enumerate(g.seats))
        return [(t("board.players", locale), players or "-", True)]

    def board(self, g: Game, events: Sequence[Event], locale: str, png: bytes | None = None) -> Rendered:
        """The public board: whose turn, the last public events, the players, the picture
        (``png``, drawn beforehand with ``draw`` so that drawing never blocks the bot)."""
        desc = "\n".join(turn_lines(g, locale))
        embed = discord.Embed(title=clip(self.title(g, locale), 256), description=clip(desc, EMBED_DESCRIPTION), colour=COLOUR)
        last = event_lines(events, locale, g=g)
        if last:
            embed.add_field(name=t("board.last", locale), value=clip("\n".join(last[-8:]), EMBED_FIELD), inline=False)
        for name, value, inline in self.board_fields(g, locale, png is not None):
            embed.add_field(name=name, value=clip(value, EMBED_FIELD), inline=inline)
        embed.set_footer(text="\n".join([t("board.version", locale, id=g.id, version=g.version),
                                          *dice_lines(g, locale)]))
        if png is not None:
            embed.set_image(url=f"attachment://{FILENAME}")
        content = ping_line(g, locale) if g.status == "active" else None
        return Rendered(content=content, embed=embed, png=png)

    def private_lines(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """What ``seat`` holds that others do not see, as lines of text."""
        part = g.private_part(seat)
        return [f"**{k}**: `{clip(json.dumps(v, ensure_ascii=False), 900)}`" for k, v in part.items()]

    def revealed_lines(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """What ``seat`` held, told to others once the game is over (a spectator's summary,
        in the third person under the player's name). Default: the seat's private lines; a
        game whose private lines speak to their owner ("your zone") words them here."""
        return self.private_lines(g, seat, locale)

    def private(self, g: Game, seat: Seat, locale: str, png: bytes | None = None) -> Rendered:
        """``seat``'s private view ("my hand"), for a DM or an ephemeral reply."""
        lines = self.private_lines(g, seat, locale) or [t("hand.nothing", locale)]
        embed = discord.Embed(
            title=t("hand.title", locale, id=g.id),
            description=clip("\n".join(lines), EMBED_DESCRIPTION),
            colour=COLOUR,
            url=jump_url(g),
        )
        embed.set_footer(text=t("board.version", locale, id=g.id, version=g.version))
        if png is not None:
            embed.set_image(url=f"attachment://{FILENAME}")
        return Rendered(content=None, embed=embed, png=png)


def dice_lines(g: Game, locale: str) -> list[str]:
    """The card's word on the game's dice: the commitment to the seed while the game runs,
    the seed and salt that give it once it is over (services/fairness.py)."""
    over = g.state is not None and g.state.finished
    dice = of_game(g.row.seed, g.row.seed_salt, over=over)
    if dice.commitment is None:
        return []
    if dice.revealed:
        return [t("board.dice_revealed", locale, seed=dice.seed, salt=dice.salt, commitment=dice.commitment)]
    return [t("board.dice", locale, commitment=dice.commitment)]


async def draw(ui: GameUI, g: Game, seat: Seat | None, locale: str) -> bytes | None:
    """``ui``'s picture of ``g`` for ``seat``, drawn in a worker thread (None: no picture).

    ``g`` should be a snapshot (see ``snapshot``) so a move committed meanwhile cannot
    mix two states in one message."""
    if g.state is None:
        return None
    return await asyncio.to_thread(ui.picture, g, seat, locale)


def snapshot(g: Game) -> Game:
    """A shallow copy of ``g``: commits replace the state object, so this one stays put."""
    return g.copy()


_GENERIC = GameUI()
_UIS: dict[str, GameUI] = {}


def register(ui: GameUI) -> None:
    """Use ``ui`` to draw its game (a game's cog calls this when it loads)."""
    _UIS[ui.game_id] = ui


def ui_for(game_id: str) -> GameUI:
    """The presentation of ``game_id``: its own, or the generic one."""
    return _UIS.get(game_id, _GENERIC)
