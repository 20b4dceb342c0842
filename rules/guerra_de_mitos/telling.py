"""What the table is told: a public line for every move, and the prompt of each decision.

Every action a player takes leaves at least one public line in the log, with its amounts
(counters moved, power paid and left, passes in a row); a line names a card only when that
card is face up on the table before or after the move (in play, in a discard pile, on top of
a face-up oracle). Only the secret bid is told without its amount, and a card chosen while
it is hidden (in a hand, a deck, face down) is told as "a card" of where it was.

The prompts say what is being decided in the players' words. The prompt every seat may read
(``pending``) names no hidden card; the deciding seat's own view adds what only that seat
may see (the top of its deck, for Frigg).
"""

from __future__ import annotations

from rules.core import Action, Text, count, tr
from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import effects as E
from rules.guerra_de_mitos.cards import cards
from rules.guerra_de_mitos.facts import facts
from rules.guerra_de_mitos.model import (
    DECK,
    DISCARD,
    HAND,
    IN_PLAY,
    ORACLE,
    Assign,
    Bid,
    Challenge,
    Choose,
    DropOracle,
    Equip,
    GdmState,
    Meditate,
    Move,
    Pass,
    Starter,
    Step,
    Target,
)

# What each of the interpreter's verbs does, as a step of an ability is described.
VERB_WORDS: dict[str, Text] = {
    verb: tr(es, en)
    for verb, (es, en) in {
        "gain": ("ganar poder", "gain power"),
        "lose": ("perder poder", "lose power"),
        "exhaust": ("agotar", "exhaust"),
        "f": ("cambiar la fuerza", "change strength"),
        "pm": ("cambiar el poder máximo", "change maximum power"),
        "tire": ("cansar", "tire"),
        "ready": ("preparar", "ready"),
        "destroy": ("destruir", "destroy"),
        "battle": ("llevar al campo de batalla", "move to the battlefield"),
        "home": ("devolver a su panteón", "send back to its pantheon"),
        "draw": ("robar", "draw"),
        "discard": ("descartar de tu mano", "discard from your hand"),
        "key": ("dar una clave", "give a key"),
        "keyof": ("elegir una clave", "choose a key"),
        "unkey": ("quitar una clave", "remove a key"),
        "token": ("crear personajes", "create characters"),
        "forge": ("forjar un arma", "forge a weapon"),
        "noassign": ("impedir que se asigne", "forbid assigning"),
        "flag": ("cambiar una regla", "change a rule"),
        "look": ("mirar un oráculo", "look at an oracle"),
        "reveal": ("revelar un oráculo", "reveal an oracle"),
        "search": ("buscar en el mazo", "search the deck"),
        "revive": ("recuperar del descarte", "take back from the discard"),
        "control": ("tomar el control", "take control"),
        "strip": ("quitar bonificaciones", "remove bonuses"),
        "mute": ("quitar habilidades", "remove abilities"),
        "setpm": ("copiar el poder máximo", "copy maximum power"),
        "steal": ("robar un equipo", "steal an equipment"),
        "shield": ("proteger", "shield"),
        "bottomdeck": ("mirar la carta de arriba del mazo", "look at the top of the deck"),
        "fill": ("llenar de poder", "fill with power"),
        "resolution": ("cambiar la resolución", "change the resolution"),
        "neworacle": ("crear un oráculo", "make an oracle"),
        "drop": ("descartar de un oráculo", "discard from an oracle"),
        "repower": ("repartir el poder", "share out power"),
        "double": ("doblar la fuerza de un arma", "double a weapon's strength"),
        "copy": ("copiar una habilidad", "copy an ability"),
        "start": ("ser jugador inicial", "become start player"),
        "peekhand": ("mirar la mano de un rival", "look at an opponent's hand"),
        "bounce": ("devolver un equipo a la mano", "return an equipment to the hand"),
        "make": ("obligar a un rival", "make an opponent choose"),
        "under": ("poner bajo un oráculo", "put under an oracle"),
        "pick": ("elegir un número", "choose a number"),
        "untap": ("volver a usar habilidades", "use abilities again"),
        "move": ("mover un equipo", "move an equipment"),
        "reorder": ("ordenar un oráculo", "order an oracle"),
        "flip": ("girar un oráculo", "turn an oracle over"),
        "fetch": ("buscar un recurso", "fetch a resource"),
        "nut": ("poner un evento bajo un oráculo", "put an event under an oracle"),
        "muster": ("llevar al campo de batalla", "move to the battlefield"),
        "join": ("unirse a un ejército", "join an army"),
        "copied": ("usar la habilidad copiada", "use the copied ability"),
    }.items()
}
_SOME_STEP = tr("resolver su efecto", "resolve its effect")


def verb_text(verb: str) -> Text:
    """What one operation of an ability does, in a few words."""
    return VERB_WORDS.get(verb, _SOME_STEP)


def name_of(card: str) -> Text:
    """A card's (or a created character's) name in both languages."""
    c = cards().get(card)
    if c is not None:
        return tr(c.name, c.name_en)
    n = facts(card).name
    return tr(n, n)


def _line(st: GdmState, seat: int | None, es: str, en: str, who: int | None = None) -> str:
    prefix = f"[{who}] " if who is not None else ""
    aud = "*" if seat is None else str(seat)
    return f"{aud}|{prefix}{es}|{prefix}{en}"


# ----------------------------------------------------------------------------- prompts


def step_title(st: GdmState, step: Step) -> Text:
    """The name of the card whose ability is being resolved (or the resolution's)."""
    if step.card.startswith("res:"):
        return tr("Resolución del enfrentamiento", "Confrontation resolution")
    src = B.peek(st, step.src).card if step.src is not None and step.src in st.cards else None
    if step.card.startswith("sub:"):
        return name_of(src) if src is not None else tr("Efecto", "Effect")
    return name_of(step.card)


def step_prompt(st: GdmState, owner: bool) -> Text:
    """The pending step of an ability; ``owner`` adds what only the deciding seat may see."""
    step = st.stack[-1]
    title = step_title(st, step)
    if step.ability == -1:
        return tr(f"{title.es}: elige una de las opciones.", f"{title.en}: choose one of the options.")
    ops = E.ability_of(step).steps
    if step.pos >= len(ops):
        return tr(f"{title.es}: elige.", f"{title.en}: choose.")
    op = ops[step.pos]
    what = verb_text(op.verb)
    es, en = f"{title.es}: elige para «{what.es}».", f"{title.en}: choose for “{what.en}”."
    deck = st.players[step.seat].deck
    if owner and op.verb == "bottomdeck" and deck:
        top = name_of(B.peek(st, deck[0]).card)
        es += f" Arriba de tu mazo está {top.es}: ponla debajo o déjala."
        en += f" On top of your deck is {top.en}: put it at the bottom or leave it."
    return tr(es, en)


# ----------------------------------------------------------------------------- the moves


def public(st: GdmState, uid: int) -> bool:
    """Whether everyone sees this card now (in play, in a discard, on a face-up oracle)."""
    if uid not in st.cards:
        return False
    c = B.peek(st, uid)
    if c.zone in IN_PLAY or c.zone == DISCARD:
        return True
    if c.zone == ORACLE:
        where = B.oracle_of(st, uid)
        if where is not None:
            o = st.players[where[0]].oracles[where[1]]
            return o.up and bool(o.cards) and o.cards[0] == uid
    return False


def _hidden_card(st: GdmState, uid: int, seat: int) -> Text:
    """A hidden card told by where it lies."""
    c = B.peek(st, uid) if uid in st.cards else None
    zone = c.zone if c is not None else ""
    mine = c is not None and c.owner == seat
    if zone == HAND:
        return tr("una carta de su mano", "a card from their hand") if mine else tr(
            f"una carta de la mano de [{c.owner}]", f"a card from [{c.owner}]'s hand"  # type: ignore[union-attr]
        )
    if zone == DECK:
        return tr("una carta de un mazo", "a card from a deck")
    if zone == ORACLE:
        return tr("una carta boca abajo de un oráculo", "a face-down card from an oracle")
    return tr("una carta", "a card")


def _oracle_word(idx: int) -> Text:
    return tr(f"su oráculo {idx + 1}", f"their oracle {idx + 1}")


class Before:
    """What a move's line needs from the position before it is applied."""

    def __init__(self, st: GdmState, seat: int, action: Action) -> None:
        self.seat = seat
        self.passes = st.passes
        self.seated = sum(1 for q in st.players if q.alive)
        self.phase = st.phase
        if st.phase == "fight" and st.fight is not None and st.fight.stage == "assign":
            self.phase = "assign"
        self.was_public = False
        self.step: Step | None = st.stack[-1] if st.stack else None
        self.title: Text | None = step_title(st, self.step) if self.step is not None else None
        self.named: Text | None = None  # a chosen card or option, told as everyone may read it
        self.hidden: Text | None = None  # the same card told by where it lies
        self.power = 0
        self.cost = 0
        a = action
        if self.step is not None and isinstance(a, Target):
            self.named = name_of(B.peek(st, a.uid).card) if a.uid in st.cards else None
            self.hidden = _hidden_card(st, a.uid, seat)
            self.was_public = public(st, a.uid)
        elif self.step is not None and isinstance(a, Choose):
            self.named = _choice_words(st, a.value)
        elif isinstance(a, DropOracle):
            o = st.players[seat].oracles[a.oracle]
            self.named = name_of(B.peek(st, o.cards[0]).card) if o.cards else None
        elif isinstance(a, Equip):
            self.cost = B.cost(st, seat, a.uid, a.target)
        elif isinstance(a, Meditate | Assign):
            self.power = B.peek(st, a.uid).power


def _choice_words(st: GdmState, value: int) -> Text:
    """A number, player or oracle chosen for the step being resolved, in words."""
    step = st.stack[-1]
    ck = E.choice_kind(st)
    kind = ck[0] if ck else E.NUMBER
    if kind == E.PLAYER:
        return tr(f"[{value}]", f"[{value}]")
    if kind == E.ORACLE_T:
        owner, idx = divmod(value, 16)
        return tr(f"el oráculo {idx + 1} de [{owner}]", f"[{owner}]'s oracle {idx + 1}")
    return _quoted(_option_words(st, step, value))


def _quoted(t: Text) -> Text:
    return tr(f"«{t.es}»", f"“{t.en}”")


def _option_words(st: GdmState, step: Step, value: int) -> Text:
    """A number chosen for the step being resolved: what it means, where the card says."""
    special = E.choice_text(st, value)
    if special is not None:
        return special
    if step.ability == -1:
        return tr(f"la opción {value + 1}", f"option {value + 1}")
    op = E.ability_of(step).steps[step.pos]
    if op.verb == "bottomdeck" or (op.verb == "look" and op.params.get("mode") == "bottom"):
        return tr("ponerla debajo", "put it at the bottom") if value else tr(
            "dejarla donde está", "leave it where it is"
        )
    if op.verb == "look":
        return tr("descartarla", "discard it") if value else tr("dejarla", "leave it")
    if op.verb == "key" and "|" in op.params.get("key", ""):
        from rules.guerra_de_mitos.cards import KEYS, key_id

        word = op.params["key"].split("|")[value]
        k = key_id(word)
        return KEYS[k] if k else tr(word, word)
    return tr(str(value), str(value))


def told(st: GdmState, action: Action, before: Before) -> list[str]:
    """The lines that tell ``action`` (already applied to ``st``); none where the rules already
    tell it (putting a card into play, playing a card, using an ability)."""
    a, seat = action, before.seat
    p = st.players[seat]
    if before.step is not None:
        t = before.title
        assert t is not None
        if isinstance(a, Pass):
            return [_line(st, None, f"no elige más para {t.es}.", f"chooses no more for {t.en}.", seat)]
        what = before.named
        if isinstance(a, Target) and not (before.was_public or public(st, a.uid)):
            what = before.hidden
        if what is None:
            what = tr("una carta", "a card")
        return [_line(st, None, f"elige {what.es} para {t.es}.", f"chooses {what.en} for {t.en}.", seat)]
    if isinstance(a, Bid):
        return [
            _line(st, None, "ha pujado en secreto.", "has made a secret bid.", seat),
            _line(st, seat, f"Tu puja secreta: {a.amount}P.", f"Your secret bid: {a.amount}P."),
        ]
    if isinstance(a, Starter):
        return [_line(st, None, f"elige que empiece [{a.seat}].", f"chooses [{a.seat}] to start.", seat)]
    if isinstance(a, Move):
        return [_move_line(st, seat, a)]
    if isinstance(a, DropOracle):
        n = before.named or tr("su carta", "its card")
        o = _oracle_word(a.oracle)
        return [
            _line(
                st,
                None,
                f"descarta {n.es} de {o.es} (sin poder).",
                f"discards {n.en} from {o.en} (it held no power).",
                seat,
            )
        ]
    if isinstance(a, Equip):
        x, y = name_of(B.peek(st, a.uid).card), name_of(B.peek(st, a.target).card)
        left = B.peek(st, a.target).power
        return [
            _line(
                st,
                None,
                f"equipa {x.es} a {y.es}: paga {before.cost}P de {y.es} (le quedan {left}P).",
                f"equips {x.en} on {y.en}: pays {before.cost}P from {y.en} ({left}P left).",
                seat,
            )
        ]
    if isinstance(a, Meditate):
        x = name_of(B.peek(st, a.uid).card)
        now = B.peek(st, a.uid).power
        got = now - before.power
        return [
            _line(
                st,
                None,
                f"medita con {x.es}: lo cansa y gana {got}P (ahora {now}P).",
                f"meditates with {x.en}: tires it, and it gains {got}P (now {now}P).",
                seat,
            )
        ]
    if isinstance(a, Assign):
        x = name_of(B.peek(st, a.uid).card)
        now = B.peek(st, a.uid).power
        paid = before.power - now
        return [
            _line(
                st,
                None,
                f"asigna {x.es} al campo de batalla: paga {paid}P (le quedan {now}P).",
                f"assigns {x.en} to the battlefield: pays {paid}P ({now}P left).",
                seat,
            )
        ]
    if isinstance(a, Challenge):
        return [_line(st, None, f"se enfrenta a [{a.seat}].", f"confronts [{a.seat}].", seat)]
    if isinstance(a, Pass):
        return [_pass_line(st, seat, before, p.reserve)]
    return []


def _move_line(st: GdmState, seat: int, a: Move) -> str:
    p = st.players[seat]

    def where(i: int) -> tuple[str, str, str, str, str, str, str]:
        """Spanish from/to/label, English from/to/label, and the power there now."""
        if i < 0:
            return ("de su reserva", "a su reserva", "reserva", "from their reserve",
                    "to their reserve", "reserve", f"{p.reserve}P")
        k = i + 1
        return (f"del oráculo {k}", f"al oráculo {k}", f"oráculo {k}", f"from oracle {k}",
                f"to oracle {k}", f"oracle {k}", f"{p.oracles[i].power}P")

    s, d = where(a.src), where(a.dst)
    left = count(p.moves, "movimiento", "movimientos", "move", "moves")
    quedan = "le queda" if p.moves == 1 else "le quedan"
    return _line(
        st,
        None,
        f"mueve 1P {s[0]} {d[1]} ({s[2]}: {s[6]}, {d[2]}: {d[6]}; {quedan} {left.es}).",
        f"moves 1P {s[3]} {d[4]} ({s[5]}: {s[6]}, {d[5]}: {d[6]}; {left.en} left).",
        seat,
    )


def _pass_line(st: GdmState, seat: int, before: Before, reserve: int) -> str:
    """A pass: at the end of a transfer, in influence, in the assignment or in a confrontation."""
    phase = before.phase
    if phase == "transfer":
        return _line(
            st,
            None,
            f"termina su transferencia (reserva {reserve}P).",
            f"ends their transfer (reserve {reserve}P).",
            seat,
        )
    if phase == "influence":
        k, n = before.passes + 1, before.seated
        return _line(
            st,
            None,
            f"pasa ({k} de {n} pases seguidos).",
            f"passes ({k} of {n} passes in a row).",
            seat,
        )
    if phase == "assign":
        return _line(
            st, None, "no asigna más personajes.", "assigns no more characters.", seat
        )
    return _line(st, None, "pasa en el enfrentamiento.", "passes in the confrontation.", seat)
