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

from rules.core import Action, Text
from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import matching as M
from rules.guerra_de_mitos import running as R
from rules.guerra_de_mitos.cards import KEYS, key_id, verbatim
from rules.guerra_de_mitos.lines import name_of, tag
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
    LogLine,
    Meditate,
    Move,
    Pass,
    Starter,
    Step,
    Target,
)
from rules.phrases import Phrases

msg = Phrases("guerra_de_mitos")

# What each of the interpreter's verbs does, as a step of an ability is described.
VERB_WORDS: dict[str, Text] = {
    "gain": msg.c("ability step", "gain power"),
    "lose": msg.c("ability step", "lose power"),
    "exhaust": msg.c("ability step", "exhaust"),
    "f": msg.c("ability step", "change strength"),
    "pm": msg.c("ability step", "change maximum power"),
    "tire": msg.c("ability step", "tire"),
    "ready": msg.c("ability step", "ready"),
    "destroy": msg.c("ability step", "destroy"),
    "battle": msg.c("ability step", "move to the battlefield"),
    "home": msg.c("ability step", "send back to its pantheon"),
    "draw": msg.c("ability step", "draw"),
    "discard": msg.c("ability step", "discard from your hand"),
    "key": msg.c("ability step", "give a key"),
    "keyof": msg.c("ability step", "choose a key"),
    "unkey": msg.c("ability step", "remove a key"),
    "token": msg.c("ability step", "create characters"),
    "forge": msg.c("ability step", "forge a weapon"),
    "noassign": msg.c("ability step", "forbid assigning"),
    "flag": msg.c("ability step", "change a rule"),
    "look": msg.c("ability step", "look at an oracle"),
    "reveal": msg.c("ability step", "reveal an oracle"),
    "search": msg.c("ability step", "search the deck"),
    "revive": msg.c("ability step", "take back from the discard"),
    "control": msg.c("ability step", "take control"),
    "strip": msg.c("ability step", "remove bonuses"),
    "mute": msg.c("ability step", "remove abilities"),
    "setpm": msg.c("ability step", "copy maximum power"),
    "steal": msg.c("ability step", "steal an equipment"),
    "shield": msg.c("ability step", "shield"),
    "bottomdeck": msg.c("ability step", "look at the top of the deck"),
    "fill": msg.c("ability step", "fill with power"),
    "resolution": msg.c("ability step", "change the resolution"),
    "neworacle": msg.c("ability step", "make an oracle"),
    "drop": msg.c("ability step", "discard from an oracle"),
    "repower": msg.c("ability step", "share out power"),
    "double": msg.c("ability step", "double a weapon's strength"),
    "copy": msg.c("ability step", "copy an ability"),
    "start": msg.c("ability step", "become start player"),
    "peekhand": msg.c("ability step", "look at an opponent's hand"),
    "bounce": msg.c("ability step", "return an equipment to the hand"),
    "make": msg.c("ability step", "make an opponent choose"),
    "under": msg.c("ability step", "put under an oracle"),
    "pick": msg.c("ability step", "choose a number"),
    "untap": msg.c("ability step", "use abilities again"),
    "move": msg.c("ability step", "move an equipment"),
    "reorder": msg.c("ability step", "order an oracle"),
    "flip": msg.c("ability step", "turn an oracle over"),
    "fetch": msg.c("ability step", "fetch a resource"),
    "nut": msg.c("ability step", "put an event under an oracle"),
    "muster": msg.c("ability step", "move to the battlefield"),
    "join": msg.c("ability step", "join an army"),
    "copied": msg.c("ability step", "use the copied ability"),
}
_SOME_STEP = msg.c("ability step", "resolve its effect")


def verb_text(verb: str) -> Text:
    """What one operation of an ability does, in a few words."""
    return VERB_WORDS.get(verb, _SOME_STEP)


def _line(seat: int | None, text: Text) -> LogLine:
    """A line for everyone (``seat`` None) or for one seat only."""
    return LogLine(aud=None if seat is None else [seat], text=text)


# ----------------------------------------------------------------------------- prompts


def step_title(st: GdmState, step: Step) -> Text:
    """The name of the card whose ability is being resolved (or the resolution's)."""
    if step.card.startswith("res:"):
        return msg("Confrontation resolution")
    src = B.peek(st, step.src).card if step.src is not None and step.src in st.cards else None
    if step.card.startswith("sub:"):
        return name_of(src) if src is not None else msg("Effect")
    return name_of(step.card)


def step_prompt(st: GdmState, owner: bool) -> Text:
    """The pending step of an ability; ``owner`` adds what only the deciding seat may see."""
    step = st.stack[-1]
    title = step_title(st, step)
    if step.ability == -1:
        return msg("{title}: choose one of the options.", title=title)
    ops = M.ability_of(step).steps
    if step.pos >= len(ops):
        return msg("{title}: choose.", title=title)
    op = ops[step.pos]
    what = verb_text(op.verb)
    deck = st.players[step.seat].deck
    if owner and op.verb == "bottomdeck" and deck:
        top = name_of(B.peek(st, deck[0]).card)
        return msg("{title}: choose for “{step}”. On top of your deck is {top}: put it at the "
                   "bottom or leave it.", title=title, step=what, top=top)
    return msg("{title}: choose for “{step}”.", title=title, step=what)


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
        return msg("a card from their hand") if mine else msg("a card from {owner}'s hand", owner=tag(c.owner))
    if zone == DECK:
        return msg("a card from a deck")
    if zone == ORACLE:
        return msg("a face-down card from an oracle")
    return msg("a card")


def _oracle_word(idx: int) -> Text:
    return msg("their oracle {number}", number=idx + 1)


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
    ck = R.choice_kind(st)
    kind = ck[0] if ck else M.NUMBER
    if kind == M.PLAYER:
        return tag(value)
    if kind == M.ORACLE_T:
        owner, idx = divmod(value, 16)
        return msg("{owner}'s oracle {number}", owner=tag(owner), number=idx + 1)
    return _quoted(_option_words(st, step, value))


def _quoted(t: Text) -> Text:
    return msg("“{words}”", words=t)


def _option_words(st: GdmState, step: Step, value: int) -> Text:
    """A number chosen for the step being resolved: what it means, where the card says."""
    special = R.choice_text(st, value)
    if special is not None:
        return special
    if step.ability == -1:
        return msg("option {number}", number=value + 1)
    op = M.ability_of(step).steps[step.pos]
    if op.verb == "bottomdeck" or (op.verb == "look" and op.params.get("mode") == "bottom"):
        return msg("put it at the bottom") if value else msg("leave it where it is")
    if op.verb == "look":
        return msg("discard it") if value else msg("leave it")
    if op.verb == "key" and "|" in op.params.get("key", ""):
        word = op.params["key"].split("|")[value]
        k = key_id(word)
        return KEYS[k] if k else verbatim(word)
    return verbatim(str(value))


def told(st: GdmState, action: Action, before: Before) -> list[LogLine]:
    """The lines that tell ``action`` (already applied to ``st``); none where the rules already
    tell it (putting a card into play, playing a card, using an ability)."""
    a, seat = action, before.seat
    who = tag(seat)
    p = st.players[seat]
    if before.step is not None:
        title = before.title
        assert title is not None
        if isinstance(a, Pass):
            return [_line(None, msg("{who} chooses no more for {title}.", who=who, title=title))]
        what = before.named
        if isinstance(a, Target) and not (before.was_public or public(st, a.uid)):
            what = before.hidden
        if what is None:
            what = msg("a card")
        return [_line(None, msg("{who} chooses {what} for {title}.", who=who, what=what, title=title))]
    if isinstance(a, Bid):
        return [
            _line(None, msg("{who} has made a secret bid.", who=who)),
            _line(seat, msg("Your secret bid: {amount}P.", amount=a.amount)),
        ]
    if isinstance(a, Starter):
        return [_line(None, msg("{who} chooses {starter} to start.", who=who, starter=tag(a.seat)))]
    if isinstance(a, Move):
        return [_move_line(st, seat, a)]
    if isinstance(a, DropOracle):
        card = before.named or msg("its card")
        return [_line(None, msg("{who} discards {card} from {oracle} (it held no power).",
                                who=who, card=card, oracle=_oracle_word(a.oracle)))]
    if isinstance(a, Equip):
        gear, bearer = name_of(B.peek(st, a.uid).card), name_of(B.peek(st, a.target).card)
        left = B.peek(st, a.target).power
        return [_line(None, msg("{who} equips {gear} on {bearer}: pays {cost}P from {bearer} ({left}P left).",
                                who=who, gear=gear, bearer=bearer, cost=before.cost, left=left))]
    if isinstance(a, Meditate):
        card = name_of(B.peek(st, a.uid).card)
        now = B.peek(st, a.uid).power
        got = now - before.power
        return [_line(None, msg("{who} meditates with {card}: tires it, and it gains {got}P (now {now}P).",
                                who=who, card=card, got=got, now=now))]
    if isinstance(a, Assign):
        card = name_of(B.peek(st, a.uid).card)
        now = B.peek(st, a.uid).power
        paid = before.power - now
        return [_line(None, msg("{who} assigns {card} to the battlefield: pays {paid}P ({now}P left).",
                                who=who, card=card, paid=paid, now=now))]
    if isinstance(a, Challenge):
        return [_line(None, msg("{who} confronts {rival}.", who=who, rival=tag(a.seat)))]
    if isinstance(a, Pass):
        return [_pass_line(seat, before, p.reserve)]
    return []


def _move_line(st: GdmState, seat: int, a: Move) -> LogLine:
    p = st.players[seat]

    def where(i: int) -> tuple[Text, Text, Text, int]:
        """From there, to there, its label, and the power there now."""
        if i < 0:
            return msg("from their reserve"), msg("to their reserve"), msg("reserve"), p.reserve
        k = i + 1
        return (msg("from oracle {number}", number=k), msg("to oracle {number}", number=k),
                msg("oracle {number}", number=k), p.oracles[i].power)

    s, d = where(a.src), where(a.dst)
    return _line(None, msg.n(
        p.moves,
        "{who} moves 1P {source} {dest} ({source_label}: {source_power}P, {dest_label}: {dest_power}P; {n} move left).",
        "{who} moves 1P {source} {dest} ({source_label}: {source_power}P, {dest_label}: {dest_power}P; {n} moves left).",
        who=tag(seat), source=s[0], dest=d[1], source_label=s[2], source_power=s[3],
        dest_label=d[2], dest_power=d[3]))


def _pass_line(seat: int, before: Before, reserve: int) -> LogLine:
    """A pass: at the end of a transfer, in influence, in the assignment or in a confrontation."""
    who = tag(seat)
    phase = before.phase
    if phase == "transfer":
        return _line(None, msg("{who} ends their transfer (reserve {reserve}P).", who=who, reserve=reserve))
    if phase == "influence":
        return _line(None, msg("{who} passes ({passes} of {seated} passes in a row).",
                               who=who, passes=before.passes + 1, seated=before.seated))
    if phase == "assign":
        return _line(None, msg("{who} assigns no more characters.", who=who))
    return _line(None, msg("{who} passes in the confrontation.", who=who))
