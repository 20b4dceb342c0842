"""Guerra de Mitos in Discord: the /gdm commands, the private step-by-step panel, the hands
and the picture of the table.

Every decision goes through the session service and the engine's legal actions; the engine
already splits an ability into steps (each cost, then each target, one choice at a time),
so the panel shows the step the engine asks for now, worded with the cards' names. A hand,
a face-down oracle card and a secret bid appear only in their owner's DMs and ephemeral
messages; the public board and its picture are drawn from the public view.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import i18n, services
from cogs.common.catalogue import Pairs
from cogs.common.choices import (
    ActButton,
    ActSelect,
    chooser,
    legal_choices,
    play_action,
    play_value,
)
from cogs.common.errors import reply
from cogs.common.i18n import locale_of, said
from cogs.common.present import (
    COLOUR,
    EMBED_FIELD,
    GameUI,
    clip,
    engine_view,
    mention,
    register,
    seat_of,
)
from cogs.pictures import draw_or_none
from cogs.pictures.guerra_de_mitos import SEAT_DISC, is_character, render_board
from cogs.pictures.guerra_de_mitos import card_name as token_or_card_name
from rules.catalogue import catalogues as rules_catalogues
from rules.catalogue import language as rules_language
from rules.catalogue import seat_words
from rules.core import Action, GameState, Seat, Text
from rules.guerra_de_mitos import matching as M
from rules.guerra_de_mitos import running as R
from rules.guerra_de_mitos.abilities import SUBS
from rules.guerra_de_mitos.card_search import by_name, search_names, stats_line, suggest
from rules.guerra_de_mitos.cards import MYTHOLOGY_NAME, Card, cards, token_name
from rules.guerra_de_mitos.decks import ready_decks
from rules.guerra_de_mitos.facts import facts
from rules.guerra_de_mitos.model import (
    Assign,
    Bid,
    Challenge,
    Choose,
    DropOracle,
    Enter,
    Equip,
    GdmState,
    GdmView,
    Meditate,
    Move,
    Pass,
    Play,
    Starter,
    Target,
    Use,
)
from rules.guerra_de_mitos.telling import verb_text
from services.session import Game, Refusal

log = logging.getLogger("tablero.guerra_de_mitos")

GAME_ID = "guerra_de_mitos"
MENU_SIZE = 25  # options in a select menu
ROWS = 5  # rows of components in a message
# The rules' log names a seat as "[2] ..." and a seat in texts as "asiento 3" / "seat 3".
SEAT_TAG = re.compile(r"\[(\d)\]")
# "seat 3" as events stored before the rules named seats with rules.core.seat_name read
SEAT_WORD = re.compile(r"\b(?:asiento|seat) (\d)\b", re.IGNORECASE)

# The kinds of action each /gdm command makes.
BID_KINDS = frozenset({"bid"})
TRANSFER_KINDS = frozenset({"move", "enter", "drop"})
PLAY_KINDS = frozenset({"play", "equip"})
USE_KINDS = frozenset({"use", "meditate"})
ASSIGN_KINDS = frozenset({"assign"})
CHOOSE_KINDS = frozenset({"target", "choose", "starter", "challenge"})

# Texts of this cog: catalogue ids "gdm.<key>" (cogs/locale); WORDS reads them as pairs.
# (What each verb of an ability does is the rules' own wording: rules/guerra_de_mitos/telling.py.)
WORDS = Pairs("gdm.")


def w(key: str, locale: str | None, **kw: object) -> str:
    """A word of this module in the reader's language."""
    return i18n.t("gdm." + key, locale, **kw)


def disc(seat: int) -> str:
    """The seat's colour on the picture, as a text disc."""
    return SEAT_DISC[seat % len(SEAT_DISC)]


def card_name(card: str, locale: str | None) -> str:
    """A card's (or a created token's) name in the reader's language."""
    return token_or_card_name(card, facts(card).name, locale)


def card_line(card: str, locale: str | None) -> str:
    """A card's name, numbers and ability in one line, for a hand."""
    c = cards().get(card)
    if c is None:
        return f"**{card_name(card, locale)}**"
    text = c.text(locale) or w("no_text", locale)
    return f"**{c.display_name(locale)}** · {stats_line(c, locale)} — {text}"


def _uid_name(st: GdmState, uid: int, locale: str | None) -> str:
    c = st.cards.get(uid)
    return card_name(c.card, locale) if c is not None else f"#{uid}"


class GdmUI(GameUI):
    """How Guerra de Mitos looks: the table picture, the players, the step panel; hands in private."""

    game_id = GAME_ID
    event_separator = "\n"

    def state(self, g: Game) -> GdmState:
        """The game's state (the game has started)."""
        assert isinstance(g.state, GdmState)
        return g.state

    def view(self, g: Game, seat: Seat | None, state: GameState | None = None) -> GdmView:
        """The engine's view for ``seat`` (None: public)."""
        return engine_view(g, seat, GdmView, state)

    # -- words ---------------------------------------------------------------------------

    def wording(self, g: Game, text: Text, locale: str) -> str:
        """A text of the rules as Discord shows it: players' names for seat numbers and card
        names in the reader's language (the rules' prompts already name no hidden card)."""
        return self.named(g, reader_names(text.get(locale), locale))

    def named(self, g: Game, text: str, bold: bool = True) -> str:
        """``text`` with the players' names instead of the rules' "[2]" and "seat 3"."""

        def name(seat: int, raw: str) -> str:
            if not 0 <= seat < len(g.seats):
                return raw
            n = self.name(g, seat)
            return f"**{discord.utils.escape_markdown(n)}**" if bold else n

        text = SEAT_TAG.sub(lambda m: name(int(m[1]), m[0]), text)
        text = seat_words().sub(lambda m: name(seat_of(m), m[0]), text)
        return SEAT_WORD.sub(lambda m: name(int(m[1]) - 1, m[0]), text)

    def label(self, g: Game, seat: Seat, action: Action, locale: str) -> str:
        """A legal action in words, with the cards' and players' names."""
        assert g.state is not None
        return clip(action_label(self.state(g), seat, action, locale, g.names), 100)

    # -- private information -------------------------------------------------------------

    def dm_facts(self, g: Game, state: GameState | None, seat: Seat) -> list[str]:
        """The hand, the cards seen and the own bid: a DM goes out when one of them changes
        (not at every step of a choice, which the panel shows)."""
        if state is None:
            return []
        v = self.view(g, seat, state)
        return [f"hand={sorted(v.hand or [])}", f"peeks={v.peeks}", f"bid={v.seats[seat].bid}"]

    def private_lines(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """Your hand with what each card does, your bid, what you have seen, and what is asked."""
        if g.state is None:
            return []
        v = self.view(g, seat)
        hand = v.hand or []
        lines = [f"**{w('your_hand', locale, n=len(hand))}**"]
        lines += [f"• {card_line(c, locale)}" for c in hand] or [f"• {w('hand_empty', locale)}"]
        mine = v.seats[seat]
        if v.phase == "bid" and mine.bid is not None:
            lines.append(f"🤫 {w('your_bid', locale, n=mine.bid)}")
        if v.peeks:
            seen = ", ".join(
                card_name(c, locale) for c in v.peeks if c in cards() or c.startswith("tk-")
            )
            if seen:
                lines.append(f"👁️ {w('peeks', locale)}: {seen}")
        st = self.state(g)
        if st.stack and st.stack[-1].seat == seat:
            lines.append(f"**{w('now', locale)}**")
            lines += step_lines(st, locale, g.names)
        elif v.prompt is not None:
            lines.append(f"**{w('now', locale)}** {self.named(g, v.prompt.get(locale))}")
        return lines

    # -- the step panel ------------------------------------------------------------------

    def menu(self, g: Game, seat: Seat, locale: str) -> discord.ui.View | None:
        """The step panel: a menu per kind of move, the current choice, and a Pass button."""
        if g.state is None or g.status != "active" or seat not in g.pending():
            return None
        return panel(g, seat, locale)

    def menu_text(self, g: Game, seat: Seat, locale: str) -> str:
        """What is being decided: the ability being resolved step by step, or the phase."""
        lines = []
        st = self.state(g)
        if st.stack and st.stack[-1].seat == seat:
            lines += step_lines(st, locale, g.names)
        prompt = g.pending().get(seat)
        if prompt is not None and not st.stack:
            lines.append(f"**{self.named(g, prompt.text.get(locale), bold=False)}**")
            me = st.players[seat]
            if st.phase == "transfer":
                lines.append(i18n.tn("gdm.moves_left", me.moves, locale, r=me.reserve))
            elif st.phase != "bid":
                lines.append(w("reserve_now", locale, r=me.reserve))
        return "\n".join(lines) or w("pick_option", locale)

    # -- pictures and embeds ---------------------------------------------------------------

    def picture(self, g: Game, seat: Seat | None, locale: str) -> bytes | None:
        """The public table drawn by cogs/pictures (private views go without a picture)."""
        if seat is not None:
            return None
        return draw_or_none(render_board, self.view(g, None), g.names, locale, g.id)

    def board_fields(
        self, g: Game, locale: str, pictured: bool = False
    ) -> list[tuple[str, str, bool]]:
        """The players with their reserves; without a picture also every oracle and card in play."""
        if g.state is None:
            return super().board_fields(g, locale, pictured)
        v = self.view(g, None)
        fields = [(w("players", locale), self.players_text(g, v, locale), False)]
        if v.fight:
            a, b = v.fight
            fields.append((w("fight", locale), f"{mention(g, a)} ⚔ {mention(g, b)}", False))
        if not pictured:
            fields.append(
                (w("table", locale), clip(table_text(v, locale, g.names), EMBED_FIELD), False)
            )
        return fields

    def players_text(self, g: Game, v: GdmView, locale: str) -> str:
        """One line per player: reserve, hand, deck, victory points, the bid."""
        lines = []
        for sv in v.seats:
            parts = [
                w("reserve", locale, n=sv.reserve),
                w("hand_n", locale, n=sv.hand_size),
                w("deck_n", locale, n=sv.deck_size),
            ]
            if len(v.seats) > 2:
                parts.append(w("vp", locale, n=f"{sv.vp:g}"))
            if v.phase == "bid":
                parts.append(
                    w("bid_wait", locale) if sv.seat in v.to_act else w("bid_done", locale)
                )
            if not sv.alive:
                parts.append(w("out", locale))
            if v.first == sv.seat and v.phase not in ("bid", "starter"):
                parts.append(f"★ {w('first', locale)}")
            lines.append(
                f"{disc(sv.seat)} {mention(g, sv.seat)} · {card_name(sv.pantheon, locale)}: "
                + " · ".join(parts)
            )
        return clip("\n".join(lines), EMBED_FIELD)


def table_text(v: GdmView, locale: str, names: Sequence[str]) -> str:
    """The table in text (when the picture is missing): oracles and cards in play per player."""
    lines = []
    for sv in v.seats:
        ors = []
        for i, o in enumerate(sv.oracles):
            top = (
                card_name(o.top, locale)
                if o.top
                else (w("down", locale) if o.size else w("empty", locale))
            )
            ors.append(f"{i + 1}: {top} ({o.power}P)")
        cards_in = []
        for c in v.in_play:
            if c.ctrl != sv.seat or c.card == sv.pantheon or c.zone not in ("pantheon", "battle"):
                continue
            if is_character(c):
                bits = f"{card_name(c.card, locale)} {c.strength}F {c.power}/{c.max_power}P"
            else:
                bits = f"{card_name(c.card, locale)} {c.power}P"
            if c.tired:
                bits += f" ({w('tired', locale)})"
            if c.zone == "battle":
                bits += " ⚔"
            cards_in.append(bits)
        name = names[sv.seat] if sv.seat < len(names) else f"#{sv.seat + 1}"
        lines.append(
            f"{disc(sv.seat)} **{discord.utils.escape_markdown(name)}** · {w('oracles', locale)} "
            + " · ".join(ors)
        )
        if cards_in:
            lines.append("  " + ", ".join(cards_in))
    return "\n".join(lines)


# ----------------------------------------------------------------------------- labels


def _seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def _oracle_words(st: GdmState, seat: int, idx: int, locale: str) -> str:
    """ "oracle 2 (Horus)" when its top card is face up, else "oracle 2"."""
    p = st.players[seat]
    base = w("oracle_w", locale, n=idx + 1)
    if idx < len(p.oracles) and p.oracles[idx].up and p.oracles[idx].cards:
        base += f" ({_uid_name(st, p.oracles[idx].cards[0], locale)})"
    return base


def _where(st: GdmState, seat: int, uid: int, locale: str, names: Sequence[str]) -> str:
    """Where a card to choose is, from the chooser's side: its controller and zone."""
    c = st.cards[uid]
    if c.zone == "hand":
        return w("in_hand", locale)
    bits = []
    if c.ctrl != seat:
        bits.append(w("of", locale, name=_seat_name(names, c.ctrl)))
    if c.zone == "battle":
        bits.append(w("battle", locale))
    elif c.zone == "discard":
        bits.append(w("in_discard", locale))
    if c.zone in ("pantheon", "battle") and (c.power or c.tired):
        bits.append(f"{c.power}P" + (f", {w('tired', locale)}" if c.tired else ""))
    return ", ".join(bits)


def choice_label(st: GdmState, seat: int, action: Action, locale: str, names: Sequence[str]) -> str:
    """A Target or Choose of the ability being resolved, in words."""
    step = st.stack[-1]
    if isinstance(action, Target):
        where = _where(st, seat, action.uid, locale, names)
        name = _uid_name(st, action.uid, locale)
        return f"{name} ({where})" if where else name
    assert isinstance(action, Choose)
    value = action.value
    ck = R.choice_kind(st)
    kind = ck[0] if ck else M.NUMBER
    if kind == M.PLAYER:
        return _seat_name(names, value)
    if kind == M.ORACLE_T:
        owner, idx = divmod(value, 16)
        o = M.oracle_at(st, value)
        text = w("oracle_of", locale, n=idx + 1, name=_seat_name(names, owner))
        if o is not None:
            top = _uid_name(st, o.cards[0], locale) if o.up and o.cards else w("down", locale)
            text += f" · {top} · {o.power}P"
        return text
    if step.ability == -1:  # an opponent's card makes this seat choose one of its options
        sub = SUBS[step.card[4:]][value]
        what = ", ".join(verb_words(op.verb, locale) for op in sub.steps)
        return w("option", locale, n=value + 1, what=what)
    op = M.ability_of(step).steps[step.pos]
    if op.verb == "bottomdeck":
        return w("to_bottom" if value else "leave_top", locale)
    if op.verb == "look":
        if op.params.get("mode") == "bottom":
            return w("to_bottom" if value else "leave_top", locale)
        return w("discard_it" if value else "keep", locale)
    if op.verb == "key" and "|" in op.params.get("key", ""):
        from rules.guerra_de_mitos.cards import KEYS, key_id

        word = op.params["key"].split("|")[value]
        k = key_id(word)
        return KEYS[k].get(locale) if k else word
    return w("number", locale, n=value)


def verb_words(verb: str, locale: str) -> str:
    """What one operation of an ability does, in a few words."""
    return verb_text(verb).get(locale)


def action_label(st: GdmState, seat: int, a: Action, locale: str, names: Sequence[str]) -> str:
    """Any legal action of ``seat`` in words (card names, never ids)."""
    if isinstance(a, Target | Choose) and st.stack:
        return choice_label(st, seat, a, locale, names)
    if isinstance(a, Bid):
        return w("bid", locale, n=a.amount)
    if isinstance(a, Starter):
        return w("starter", locale, name=_seat_name(names, a.seat))
    if isinstance(a, Move):
        src = w("reserve_w", locale) if a.src < 0 else _oracle_words(st, seat, a.src, locale)
        dst = w("reserve_w", locale) if a.dst < 0 else _oracle_words(st, seat, a.dst, locale)
        return w("move", locale, src=src, dst=dst)
    if isinstance(a, DropOracle | Enter):
        o = st.players[seat].oracles[a.oracle]
        top = o.cards[0] if o.cards and o.up else None
        name = _uid_name(st, top, locale) if top is not None else "?"
        if isinstance(a, DropOracle):
            return w("drop", locale, card=name, n=a.oracle + 1)
        c = cards().get(st.cards[top].card) if top is not None else None
        cost = c.cost if c is not None and c.cost is not None else "?"
        return w("enter", locale, card=name, n=a.oracle + 1, cost=cost)
    if isinstance(a, Play | Use):
        text = w(
            "play" if isinstance(a, Play) else "use", locale, card=_uid_name(st, a.uid, locale)
        )
        if a.ability:
            text += w("ability_n", locale, n=a.ability + 1)
        if isinstance(a, Play) and a.payer is not None:
            text += w("payer", locale, card=_uid_name(st, a.payer, locale))
        return text
    if isinstance(a, Equip):
        return w(
            "equip",
            locale,
            card=_uid_name(st, a.uid, locale),
            target=_uid_name(st, a.target, locale),
        )
    if isinstance(a, Meditate):
        return w("meditate", locale, card=_uid_name(st, a.uid, locale))
    if isinstance(a, Assign):
        c = st.cards[a.uid]
        return w("assign", locale, card=_uid_name(st, a.uid, locale)) + f" ({c.power}P)"
    if isinstance(a, Challenge):
        return w("challenge", locale, name=_seat_name(names, a.seat))
    if isinstance(a, Pass):
        if st.stack:
            return w("pass.choice", locale)
        if st.phase == "transfer":
            return w("pass.transfer", locale)
        if st.phase == "fight" and st.fight is not None and st.fight.stage == "assign":
            return w("pass.assign", locale)
        return w("pass", locale)
    return str(a.model_dump())


def step_lines(st: GdmState, locale: str, names: Sequence[str]) -> list[str]:
    """The ability being resolved: its card and text, which step of how many, what is chosen."""
    step = st.stack[-1]
    src = st.cards.get(step.src) if step.src is not None else None
    if step.card.startswith("res:"):
        title = w("resolution", locale)
        text = ""
    else:
        card = src.card if step.card.startswith("sub:") and src is not None else step.card
        c = cards().get(card)
        title = card_name(card, locale)
        text = c.text(locale) if c is not None else ""
    lines = [f"🃏 **{title}**" + (f" — {text}" if text else "")]
    if step.ability == -1:
        lines.append(w("pick_option", locale))
        return lines
    ab = M.ability_of(step)
    ops = ab.steps
    if step.pos < len(ops):
        op = ops[step.pos]
        part = w("cost" if step.pos < len(ab.cost) else "effect", locale)
        lines.append(
            "▶ "
            + w(
                "step",
                locale,
                k=step.pos + 1,
                n=len(ops),
                part=part,
                what=verb_words(op.verb, locale),
            )
        )
        if op.upto:
            lines.append(w("optional", locale))
        deck = st.players[step.seat].deck
        if op.verb == "bottomdeck" and deck:
            lines.append(w("top_of_deck", locale, card=_uid_name(st, deck[0], locale)))
    if step.chosen:
        chosen = []
        for u in step.chosen:
            if u in st.cards and (st.cards[u].zone != "hand" or st.cards[u].owner == step.seat):
                chosen.append(_uid_name(st, u, locale))
        if chosen:
            lines.append(w("chosen", locale, names=", ".join(chosen)))
    return lines


# Per reader's language (of the rules' catalogues in use): the cards' Spanish names that
# read otherwise there, and a pattern finding them.
_RENAMES: dict[str, tuple[object, dict[str, str], re.Pattern[str] | None]] = {}


def reader_names(text: str, locale: str | None) -> str:
    """``text`` (possibly with the rules' Spanish card names in other words, as the rules
    wrote them before the catalogues: events stored then) with the cards' names in the
    reader's language."""
    language, shipped = rules_language(locale), rules_catalogues()
    if language not in _RENAMES or _RENAMES[language][0] is not shipped:
        renames: dict[str, str] = {}
        for c in cards().values():
            shown = c.display_name(language)
            if c.name != shown:
                renames[c.name] = shown
            for tk in c.tokens:
                renames.setdefault(tk.name, token_name(tk).get(language))
        names = sorted(renames, key=len, reverse=True)
        pattern = (
            re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])")
            if names
            else None
        )
        _RENAMES[language] = (shipped, renames, pattern)
    _, renames, pattern = _RENAMES[language]
    return pattern.sub(lambda m: renames[m[1]], text) if pattern is not None else text


UI = GdmUI()
register(UI)


# ----------------------------------------------------------------------------- Spanish names

# (their names in each language are catalogue entries with the contexts "command",
# "parameter" and "description": cogs/locale)


# ----------------------------------------------------------------------------- the step panel


def _about(st: GdmState, seat: int, a: Action, locale: str) -> str:
    """The small print under a menu entry: what the card does."""
    uid = None
    if isinstance(a, Play | Use | Equip):
        uid = a.uid
    elif isinstance(a, Enter | DropOracle):
        ors = st.players[seat].oracles
        o = ors[a.oracle] if a.oracle < len(ors) else None
        uid = o.cards[0] if o is not None and o.cards and o.up else None
    elif isinstance(a, Target | Assign | Meditate):
        uid = a.uid
    if uid is None or uid not in st.cards:
        return ""
    c = cards().get(st.cards[uid].card)
    if c is None:
        return ""
    return c.text(locale) or stats_line(c, locale)


def _group(a: Action) -> str | None:
    if isinstance(a, Enter | DropOracle):
        return "ph.enter"
    if isinstance(a, Move):
        return "ph.move"
    if isinstance(a, Play | Equip):
        return "ph.play"
    if isinstance(a, Use | Meditate):
        return "ph.use"
    if isinstance(a, Assign):
        return "ph.assign"
    if isinstance(a, Target | Choose):
        return "ph.choose"
    return None  # a button: bid, starter, challenge, pass


def panel(g: Game, seat: Seat, locale: str) -> discord.ui.View:
    """``seat``'s private panel for what it must decide now: a menu per kind of move (or the
    current step of an ability), and a button for each of bid, start player, opponent, pass."""
    st = UI.state(g)
    actions = g.legal_actions(seat)
    order = ["ph.choose", "ph.enter", "ph.move", "ph.play", "ph.use", "ph.assign"]
    grouped: dict[str, list[int]] = {}
    buttons: list[int] = []
    for i, a in enumerate(actions):
        key = _group(a)
        if key is None:
            buttons.append(i)
        else:
            grouped.setdefault(key, []).append(i)
    menus = [
        (key, chunk)
        for key in order
        if key in grouped
        for chunk in (
            grouped[key][k : k + MENU_SIZE] for k in range(0, len(grouped[key]), MENU_SIZE)
        )
    ]
    if len(menus) + -(-len(buttons) // 5) > ROWS:
        return chooser(g, seat, locale)  # far too much for one message: the generic menu
    view = discord.ui.View(timeout=None)
    for part, (key, chunk) in enumerate(menus):
        options = [
            discord.SelectOption(
                label=UI.label(g, seat, actions[i], locale) or "-",
                value=str(i),
                description=clip(_about(st, seat, actions[i], locale), 100) or None,
            )
            for i in chunk
        ]
        view.add_item(
            ActSelect(g.id, g.version, seat, part, options=options, placeholder=w(key, locale))
        )
    for i in buttons:
        a = actions[i]
        style = (
            discord.ButtonStyle.secondary if isinstance(a, Pass) else discord.ButtonStyle.primary
        )
        view.add_item(
            ActButton(g.id, g.version, seat, i, label=UI.label(g, seat, a, locale), style=style)
        )
    return view


# ----------------------------------------------------------------------------- the cog


def find_card(value: str) -> str | None:
    """The card a typed or autocompleted value names: its id, or its name in either language."""
    raw = value.strip()
    if raw in cards():
        return raw
    found = by_name(raw)
    if found is not None:
        return found.id
    hits = search_names(raw, None, limit=2) if raw else []
    return hits[0].id if len(hits) == 1 else None


def other_name(c: Card, locale: str | None) -> str:
    """The other name a player may know a card by: its Spanish name (the printed cards'),
    or its English name for a reader whose name for it is the Spanish one."""
    return c.name if c.display_name(locale) != c.name else c.name_en


def card_choices(current: str, locale: str) -> list[app_commands.Choice[str]]:
    """Autocomplete over the 364 cards, by name in either language (card texts are public)."""
    out = []
    for c in search_names(current, locale, limit=MENU_SIZE):
        name = c.display_name(locale)
        other = other_name(c, locale)
        shown = name if other == name else f"{name} · {other}"
        out.append(
            app_commands.Choice(name=clip(f"{shown} ({stats_line(c, locale)})", 100), value=c.id)
        )
    return out


def card_embed(card: str, locale: str) -> discord.Embed:
    """What a card is and does, in the reader's language."""
    c = cards()[card]
    embed = discord.Embed(
        title=c.display_name(locale),
        description=clip(c.text(locale) or w("no_text", locale), 4000),
        colour=COLOUR,
    )
    embed.add_field(name="·", value=stats_line(c, locale), inline=False)
    if c.keys:
        embed.add_field(name=w("keys", locale), value=", ".join(c.key_names(locale)), inline=False)
    other = other_name(c, locale)
    footer = f"#{c.id}"
    if c.mythology:
        footer += f" · {MYTHOLOGY_NAME[c.mythology].get(locale)}"
    if other != c.display_name(locale):
        footer += f" · {other}"
    embed.set_footer(text=footer)
    return embed


def decks_text(locale: str) -> str:
    """The ready decks, one line each, and how to choose them."""
    lines = []
    for rid, rd in ready_decks().items():
        d = rd.deck
        lines.append(
            w(
                "deck_line",
                locale,
                name=rd.display_name(locale),
                id=rid,
                myth=MYTHOLOGY_NAME[rd.mythology].get(locale),
                pantheon=card_name(d.pantheon, locale),
                gods=i18n.count("god_cards", sum(d.god.values()), locale),
                designs=i18n.count("design_cards", sum(d.design.values()), locale),
            )
        )
    lines.append("")
    lines.append(w("decks_how", locale))
    return "\n".join(lines)


class GuerraDeMitos(commands.Cog):
    """The /gdm commands."""

    gdm = app_commands.Group(
        name="gdm", description="Guerra de Mitos (War of Myths) moves", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _game(self, interaction: discord.Interaction) -> Game:
        g = await services(interaction).session.require_in_channel(interaction.channel_id or 0)
        if g.row.game_id != GAME_ID:
            raise Refusal(said("gdm.not_gdm"))
        return g

    async def _then_panel(self, interaction: discord.Interaction, game: int) -> None:
        """After a move by command: the caller's next step, privately, if they have one."""
        g = await services(interaction).session.get(game)
        if g is None or g.status != "active":
            return
        seat = g.seat_of(interaction.user.id)
        if seat is None or seat not in g.pending():
            return
        locale = locale_of(interaction)
        view = UI.menu(g, seat, locale)
        await interaction.followup.send(
            clip(UI.menu_text(g, seat, locale), 2000),
            view=view or discord.utils.MISSING,
            ephemeral=True,
        )

    async def _move(
        self, interaction: discord.Interaction, value: str, kinds: frozenset[str]
    ) -> None:
        g = await self._game(interaction)
        g, seat = await services(interaction).session.prepare(g.id, interaction.user.id)
        if not any(a.kind in kinds for a in g.legal_actions(seat)):
            # nothing of this kind is possible now: say what the game asks instead
            prompt = g.pending()[seat].text
            raise Refusal(said("gdm.not_now", prompt=lambda lang: UI.wording(g, prompt, lang)))
        await play_value(interaction, value, kinds)
        await self._then_panel(interaction, g.id)

    # -- moves -------------------------------------------------------------------------

    @gdm.command(
        name="bid", description="Your secret bid for the start player: power you give your opponent"
    )
    @app_commands.describe(amount="1 to 4 power")
    async def bid(self, interaction: discord.Interaction, amount: str) -> None:
        """The secret bid (only you learn it until both have bid)."""
        await self._move(interaction, amount, BID_KINDS)

    _bid_ac = bid.autocomplete("amount")(legal_choices(BID_KINDS))

    @gdm.command(
        name="transfer",
        description="Transfer: move a power counter, put a card into play, discard from an oracle",
    )
    @app_commands.describe(move="What you do")
    async def transfer(self, interaction: discord.Interaction, move: str) -> None:
        """One step of your transfer."""
        await self._move(interaction, move, TRANSFER_KINDS)

    _transfer_ac = transfer.autocomplete("move")(legal_choices(TRANSFER_KINDS))

    @gdm.command(
        name="play",
        description="Play an action card from your hand, or equip a card on a character",
    )
    @app_commands.describe(card="The card (and its target)")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        """Play or equip; the ability's costs and targets follow in your private panel."""
        await self._move(interaction, card, PLAY_KINDS)

    _play_ac = play.autocomplete("card")(legal_choices(PLAY_KINDS))

    @gdm.command(
        name="use", description="Use the ability of one of your cards in play, or meditate"
    )
    @app_commands.describe(ability="The card whose ability you use")
    async def use(self, interaction: discord.Interaction, ability: str) -> None:
        """Use an ability (its costs and targets follow in your private panel) or meditate."""
        await self._move(interaction, ability, USE_KINDS)

    _use_ac = use.autocomplete("ability")(legal_choices(USE_KINDS))

    @gdm.command(
        name="assign", description="Confrontation: send a ready character to the battlefield (1P)"
    )
    @app_commands.describe(character="The character you assign")
    async def assign(self, interaction: discord.Interaction, character: str) -> None:
        """Assign a character to the battlefield."""
        await self._move(interaction, character, ASSIGN_KINDS)

    _assign_ac = assign.autocomplete("character")(legal_choices(ASSIGN_KINDS))

    @gdm.command(
        name="choose",
        description="Answer what the game asks: a target, an option, the start player, an opponent",
    )
    @app_commands.describe(choice="What you choose")
    async def choose(self, interaction: discord.Interaction, choice: str) -> None:
        """The next step of an ability (a card, a player, an oracle, a number) or a choice of the turn."""
        await self._move(interaction, choice, CHOOSE_KINDS)

    _choose_ac = choose.autocomplete("choice")(legal_choices(CHOOSE_KINDS))

    @gdm.command(
        name="pass",
        description="Pass: end your transfer, pass your action, assign or choose no more",
    )
    async def pass_(self, interaction: discord.Interaction) -> None:
        """Pass on what is asked now."""
        bot = services(interaction)
        g = await self._game(interaction)
        g, seat = await bot.session.prepare(g.id, interaction.user.id)
        if not any(isinstance(a, Pass) for a in g.legal_actions(seat)):
            prompt = g.pending()[seat].text
            raise Refusal(said("gdm.no_pass", prompt=lambda lang: UI.named(g, prompt.get(lang))))
        await play_action(interaction, g.id, Pass())
        await self._then_panel(interaction, g.id)

    # -- looking things up ---------------------------------------------------------------

    @gdm.command(name="card", description="What any card of Guerra de Mitos does")
    @app_commands.describe(name="The card's name, in Spanish or English")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        """A card's numbers, keys and ability, privately, in your language."""
        locale = locale_of(interaction)
        found = find_card(name)
        if found is None:
            close = suggest(name) if name.strip() else []

            def hint(lang: str) -> str:
                names = ", ".join(c.display_name(lang) for c in close)
                return w("maybe", lang, names=names) if close else ""

            raise Refusal(said("gdm.unknown_card", value=clip(name, 40), hint=hint))
        await reply(interaction, embed=card_embed(found, locale), ephemeral=True)

    @gdm.command(name="decks", description="The six ready decks and how to choose them")
    async def decks(self, interaction: discord.Interaction) -> None:
        """The ready decks, privately."""
        locale = locale_of(interaction)
        embed = discord.Embed(
            title=w("decks_title", locale), description=decks_text(locale), colour=COLOUR
        )
        await reply(interaction, embed=embed, ephemeral=True)

    @card.autocomplete("name")
    async def _card_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            return card_choices(current, locale_of(interaction))
        except Exception:
            log.exception("card autocomplete failed")
            return []


async def setup(bot: commands.Bot) -> None:
    """Load the Guerra de Mitos cog (discord.py extension entry point)."""
    await bot.add_cog(GuerraDeMitos(bot))
