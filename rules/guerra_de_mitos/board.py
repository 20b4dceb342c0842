"""Reading the board: a card's current keys, strength, maximum power and cost; moving cards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rules.guerra_de_mitos import facts as _facts
from rules.guerra_de_mitos.abilities import ABILITIES, abilities
from rules.guerra_de_mitos.facts import CHAR, EQUIP, INVOC, RESOURCE, Facts, facts, norm_key
from rules.guerra_de_mitos.model import (
    BATTLE,
    DECK,
    DISCARD,
    GEAR,
    GONE,
    HAND,
    IN_PLAY,
    ORACLE,
    PANTHEON,
    CardTable,
    GdmState,
    Inst,
    Oracle,
)

# Readers below look records up with ``_get`` (dict.__getitem__): a state's card table
# copies a record when ``st.cards[uid]`` hands it out (copy-on-write, model.CardTable), and
# code that only reads has no need of a copy. Writers keep using ``st.cards[uid]``.
_get = dict.__getitem__
_items = dict.items


def peek(st: GdmState, uid: int) -> Inst:
    """A card's record for reading only (it may be shared with other states: never write to it)."""
    return _get(st.cards, uid)


def raw_items(st: GdmState):  # noqa: ANN201 - a dict items view
    """``(uid, record)`` pairs for reading only (records may be shared: never write to them)."""
    return _items(st.cards)


# Zones whose cards no default selector reaches: most of the table, and never in play.
COLD = frozenset((HAND, DECK, DISCARD, ORACLE, GONE))


_OPEN = ()  # a reading stretch is open; its list is made on first use


@contextmanager
def reading(st: GdmState) -> Iterator[None]:
    """A stretch of pure reading (legal actions, views): the cards outside ``COLD`` are listed once.

    Nothing may write to the state inside; ``controlled``, ``sources`` and the selectors of
    the interpreter then walk that short list instead of the whole table.
    """
    cards = st.cards
    if not isinstance(cards, CardTable) or cards._live is not None:
        yield
        return
    cards._live = _OPEN  # type: ignore[assignment]
    try:
        yield
    finally:
        cards._live = None


def warm(st: GdmState, zones: frozenset[str] | tuple[str, ...]) -> object:
    """``(uid, record)`` pairs for reading, enough for cards in ``zones`` (all when unsure)."""
    cards = st.cards
    live = getattr(cards, "_live", None)
    if live is None or not COLD.isdisjoint(zones):
        return _items(cards)
    if live is _OPEN:
        live = cards._live = [(u, c) for u, c in _items(cards) if c.zone not in COLD]  # type: ignore[attr-defined]
    return live


def _with_static(verb: str) -> frozenset[str]:
    """Card ids carrying a static operation ``verb`` (to skip scanning the whole table)."""
    return frozenset(
        cid
        for cid, abs_ in ABILITIES.items()
        for ab in abs_
        if ab.phase == "static"
        for op in ab.effect
        if op.verb == verb
    )


KEYPM, KEYCOST, WEAPONDISCOUNT = (
    _with_static("keypm"),
    _with_static("keycost"),
    _with_static("weapondiscount"),
)


def sources(st: GdmState, seat: int, ids: frozenset[str]) -> list[int]:
    """Cards in play controlled by ``seat`` whose id is in ``ids``."""
    return [
        u
        for u, c in warm(st, IN_PLAY)  # type: ignore[attr-defined]
        if c.card in ids and c.ctrl == seat and c.zone in IN_PLAY
    ]


def fx(st: GdmState, uid: int) -> Facts:
    """The printed facts of a card instance."""
    return (_facts._cache or _facts.all_facts())[_get(st.cards, uid).card]


def statics(st: GdmState, uid: int, verb: str) -> list:
    """The static operations named ``verb`` on a card that are not removed."""
    c = _get(st.cards, uid)
    out = []
    for i, ab in enumerate(abilities(c.card)):
        if ab.phase == "static" and i not in c.muted and not c.silenced:
            out += [op for op in ab.effect if op.verb == verb]
    for m in c.marks:  # Huitzilopochtli: the static text of the character copied this turn
        if m.startswith("copy:") and not c.silenced:
            for ab in abilities(m[5:]):
                if ab.phase == "static":
                    out += [op for op in ab.effect if op.verb == verb]
    return out


def controlled(st: GdmState, seat: int, zones: tuple[str, ...] = IN_PLAY) -> list[int]:
    """Uids of cards ``seat`` controls in ``zones``."""
    return [u for u, c in warm(st, zones) if c.ctrl == seat and c.zone in zones]  # type: ignore[attr-defined]


def pantheon_card(st: GdmState, seat: int) -> str:
    """The card id of ``seat``'s pantheon."""
    return _get(st.cards, st.players[seat].pantheon).card


def pantheon_myth(st: GdmState, seat: int) -> str | None:
    """The mythology of ``seat``'s pantheon."""
    return facts(pantheon_card(st, seat)).myth


def keys(st: GdmState, uid: int) -> set[str]:
    """The keys a card has now."""
    c = _get(st.cards, uid)
    ks = set(fx(st, uid).keys) | set(c.keys_add) | set(c.keys_turn)
    for g in c.gear:
        for op in statics(st, g, "haskey"):
            ks.add(norm_key(op.params["key"]))
    ks -= set(c.keys_del)
    if st.flags.get("tindalos") and fx(st, uid).type == CHAR and c.zone in (PANTHEON, ORACLE):
        ks = (ks & {"dios"}) | {"loco"}
    return ks


def is_char(st: GdmState, uid: int) -> bool:
    """Whether the card is a character."""
    return fx(st, uid).type == CHAR


def is_god(st: GdmState, uid: int) -> bool:
    """A character with the key Dios."""
    return is_char(st, uid) and "dios" in keys(st, uid)


def is_mortal(st: GdmState, uid: int) -> bool:
    """A character without the key Dios (glossary: Mortal)."""
    return is_char(st, uid) and "dios" not in keys(st, uid)


def max_power(st: GdmState, uid: int) -> int:
    """The character's maximum power (PM) now, with gear and every modifier."""
    c = _get(st.cards, uid)
    base = c.pm_set if c.pm_set is not None else fx(st, uid).power
    pm = base + c.pm_perm + c.pm_turn + c.pm_round
    for g in c.gear:
        pm += fx(st, g).power + _get(st.cards, g).pm_perm
    if c.zone in IN_PLAY or c.zone == ORACLE:
        src = sources(st, c.ctrl, KEYPM)
        ks = keys(st, uid) if src else set()
        for u in src:
            for op in statics(st, u, "keypm"):
                if norm_key(op.params["key"]) in ks:
                    pm += int(op.n)  # type: ignore[arg-type]
    return pm


def strength(st: GdmState, uid: int) -> int:
    """The character's strength with weapons and bonuses."""
    c = _get(st.cards, uid)
    s = fx(st, uid).strength + c.f_perm + c.f_turn
    for g in c.gear:
        gc = _get(st.cards, g)
        gs = fx(st, g).strength + gc.f_turn + gc.f_perm
        s += gs * 2 if gc.f_double else gs
    if statics(st, uid, "alone0") and c.zone == BATTLE:
        mates = [u for u in controlled(st, c.ctrl, (BATTLE,)) if is_char(st, u)]
        if len(mates) == 1:
            return 0
    return s


def army(st: GdmState, seat: int) -> int:
    """The strength of ``seat``'s army: ready whole, tired half, exhausted or negative none."""
    total = 0
    for u in controlled(st, seat, (BATTLE,)):
        if not is_char(st, u):
            continue
        c = _get(st.cards, u)
        s = strength(st, u)
        if c.power <= 0 or s <= 0:
            continue
        total += s // 2 if c.tired else s
    return total


def cost(st: GdmState, seat: int, uid: int, bearer: int | None = None) -> int:
    """What the card costs ``seat`` (to put into play, to equip on ``bearer``, to play)."""
    f = fx(st, uid)
    n = f.cost
    for op in statics(st, uid, "cost"):
        who = op.params["card"]
        if who == pantheon_card(st, seat) or (
            bearer is not None and _get(st.cards, bearer).card == who
        ):
            n -= int(op.n)  # type: ignore[arg-type]
    if bearer is not None:
        for op in statics(st, uid, "herocost"):
            if norm_key(op.params["key"]) in keys(st, bearer):
                n -= int(op.n)  # type: ignore[arg-type]
    if f.type == CHAR:
        for u in sources(st, seat, KEYCOST):
            for op in statics(st, u, "keycost"):
                if norm_key(op.params["key"]) in f.keys:
                    n -= int(op.n)  # type: ignore[arg-type]
    if f.type in (EQUIP, INVOC) and bearer is not None:
        if "arma" in f.keys:
            for u in sources(st, seat, WEAPONDISCOUNT):
                for op in statics(st, u, "weapondiscount"):
                    n -= int(op.n)  # type: ignore[arg-type]
        if st.flags.get(f"equipdiscount:{seat}"):
            n -= 1
    return max(0, n)


def oracle_of(st: GdmState, uid: int) -> tuple[int, int] | None:
    """(seat, oracle index) of a card on top of an oracle, or None."""
    c = _get(st.cards, uid)
    if c.zone != ORACLE:
        return None
    for i, o in enumerate(st.players[c.owner].oracles):
        if o.cards and o.cards[0] == uid:
            return c.owner, i
    if c.ctrl != c.owner:  # a card in another player's oracle (La sandalia de Nitocris)
        for i, o in enumerate(st.players[c.ctrl].oracles):
            if o.cards and o.cards[0] == uid:
                return c.ctrl, i
    return None


def holder(st: GdmState, uid: int) -> int | None:
    """The character carrying an equipment."""
    return _get(st.cards, uid).on


def leave(st: GdmState, uid: int) -> None:
    """Take a card out of wherever it is listed (hand, decks, oracles, a bearer)."""
    c = st.cards[uid]
    p = st.players[c.owner]
    for lst in (p.hand, p.deck, p.discard):
        if uid in lst:
            lst.remove(uid)
    # A card may sit in another player's oracle (La sandalia de Nitocris, Nut).
    for q in st.players if c.zone == ORACLE else (p,):
        for o in q.oracles:
            if uid in o.cards:
                top = o.cards[0] == uid
                o.cards.remove(uid)
                if top:
                    o.up = False
        q.oracles[:] = [o for o in q.oracles if o.cards]
    if c.on is not None:
        bearer = st.cards[c.on]
        if uid in bearer.gear:
            bearer.gear.remove(uid)
        c.on = None


def reset(c: Inst) -> None:
    """Forget everything that happened to a card in play."""
    c.power = 0
    c.tired = False
    c.f_perm = c.f_turn = c.pm_perm = c.pm_turn = c.pm_round = 0
    c.pm_set = None
    c.keys_add, c.keys_turn, c.keys_del, c.muted, c.used, c.marks = [], [], [], [], [], []
    c.fought = c.temp = c.doomed = c.no_assign = c.shielded = c.borrowed = c.silenced = False
    c.f_double = False


def to_discard(st: GdmState, uid: int) -> None:
    """Send a card to its owner's discard (created tokens leave the game)."""
    c = st.cards[uid]
    for g in list(c.gear):
        to_discard(st, g)
    leave(st, uid)
    reset(c)
    c.ctrl = c.owner
    if c.created:
        c.zone = GONE
        return
    c.zone = DISCARD
    st.players[c.owner].discard.append(uid)


def destroyable(st: GdmState, uid: int) -> bool:
    """Whether the card may be destroyed now."""
    if statics(st, uid, "indestructible"):
        return False
    if "nodestroy" in st.cards[uid].marks:
        return False  # Embrujo de Freya: not while it is borrowed
    return not (st.flags.get("mortals_safe") and is_mortal(st, uid))


def put_in_pantheon(st: GdmState, uid: int, seat: int) -> None:
    """Place a card in ``seat``'s pantheon zone."""
    leave(st, uid)
    c = st.cards[uid]
    c.zone = PANTHEON
    c.ctrl = seat


def new_inst(st: GdmState, card: str, owner: int, zone: str, created: bool = False) -> int:
    """Create a card instance."""
    uid = st.next_uid
    st.next_uid += 1
    st.cards[uid] = Inst(uid=uid, card=card, owner=owner, ctrl=owner, zone=zone, created=created)
    return uid


def can_carry(st: GdmState, gear_uid: int, bearer: int, extra_pm: int = 0) -> bool:
    """The equip rules: one weapon, one armour, invocations on Invocadores, god-only gear."""
    f = fx(st, gear_uid)
    if not is_char(st, bearer):
        return False
    ks = keys(st, bearer)
    if statics(st, gear_uid, "godonly") and "dios" not in ks:
        return False
    mine = [fx(st, g) for g in _get(st.cards, bearer).gear]
    if "arma" in f.keys:
        if statics(st, bearer, "noweapons") or any("arma" in m.keys for m in mine):
            return False
    if "armadura" in f.keys and any("armadura" in m.keys for m in mine):
        return False
    if f.type == INVOC:
        if "invocador" not in ks:
            return False
        bonus = sum(int(op.n) for op in statics(st, bearer, "invocpm"))  # type: ignore[arg-type]
        if max_power(st, bearer) + bonus + extra_pm + f.power < 0:
            return False
    return True


def attach(st: GdmState, gear_uid: int, bearer: int) -> None:
    """Put an equipment on a character."""
    leave(st, gear_uid)
    g = st.cards[gear_uid]
    g.zone = GEAR
    g.on = bearer
    g.ctrl = st.cards[bearer].ctrl
    st.cards[bearer].gear.append(gear_uid)


def is_resource(st: GdmState, uid: int) -> bool:
    """Whether the card is a resource."""
    return fx(st, uid).type == RESOURCE


def top(o: Oracle) -> int | None:
    """The top card of an oracle."""
    return o.cards[0] if o.cards else None
