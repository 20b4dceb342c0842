"""Guerra de Mitos in words for Discord: the cards', seats' and actions' names in the
reader's language, the ability being resolved step by step, and the table in text. The
cog (cogs/guerra_de_mitos.py) and its step panel read them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cogs.common import i18n
from cogs.common.usertext import plain
from cogs.pictures.guerra_de_mitos import SEAT_DISC, is_character
from cogs.pictures.guerra_de_mitos import card_name as token_or_card_name
from rules.catalogue import catalogues as rules_catalogues
from rules.catalogue import language as rules_language
from rules.core import Action, Text, seat_name
from rules.guerra_de_mitos import matching as M
from rules.guerra_de_mitos import running as R
from rules.guerra_de_mitos.abilities import SUBS
from rules.guerra_de_mitos.card_search import stats_line
from rules.guerra_de_mitos.cards import cards, token_name
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

# Texts stored before the rules named seats as values (rules.core.seat_name) named them
# "[2]" in the log and "asiento 3" / "seat 3" elsewhere.
SEAT_TAG = re.compile(r"\[(\d)\]")
_OLD_TAG = re.compile(r"\[(\d)\]\Z")
# "seat 3" as events stored before the rules named seats with rules.core.seat_name read
SEAT_WORD = re.compile(r"\b(?:asiento|seat) (\d)\b", re.IGNORECASE)



def with_seat_values(text: Text) -> Text:
    """``text`` with the seats its stored values name the old way ("[2]", a whole value)
    given as ``seat_name`` values: the table then puts the player's name there as a value,
    never by a pattern over words that may hold a player's own name."""
    changed = False
    args: dict[str, object] = {}
    for key, value in text.a.items():
        if isinstance(value, str) and (m := _OLD_TAG.match(value)):
            args[key], changed = seat_name(int(m[1])), True
        elif isinstance(value, Text):
            new = with_seat_values(value)
            args[key], changed = new, changed or new is not value
        else:
            args[key] = value
    return text.model_copy(update={"a": args}) if changed else text


def w(key: str, locale: str | None, **kw: object) -> str:
    """A word of the Guerra de Mitos texts ("gdm.<key>") in the reader's language."""
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
            f"{disc(sv.seat)} **{plain(name)}** · {w('oracles', locale)} "
            + " · ".join(ors)
        )
        if cards_in:
            lines.append("  " + ", ".join(cards_in))
    return "\n".join(lines)


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
