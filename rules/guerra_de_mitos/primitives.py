"""The vocabulary abilities are written in: phases, effect primitives, targets, amounts.

An ability is one line of data, read when the module loads and refused there if any word
is unknown::

    "inf: lose 1 self ; gain 2 me"

``inf``/``conf``/``static``/``event`` is the phase (``any``: a stand-in for a copied
ability, which takes that ability's phase); the operations before ``;`` are the cost
(all must be payable), those after it the effect (at least one must be possible); ``,``
separates operations. An operation is a verb followed by tokens: an amount (``2``, ``-1``,
``X``, ``per:<selector>:<max>``), a target selector (who, kind, zone, filters), a duration
(``turn`` or ``perm``), and modifiers (``all``, ``x2``, ``upto``, ``save=Y``, ``as=it``,
``key=...``, ``card=...``, ``tok=...``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rules.guerra_de_mitos.facts import norm_key

# ``any``: an ability whose phase is the one of the ability it stands for (a copied one).
PHASES = {
    "inf": "influence",
    "conf": "confrontation",
    "static": "static",
    "event": "event",
    "any": "any",
}

# verb -> what it does (for the docs and the validation of data)
VERBS: dict[str, str] = {
    "gain": "gain N power on the target (a reserve, a character, an oracle card)",
    "lose": "remove N power from the target (adds the amount removed to X)",
    "exhaust": "remove all power from the target (the amount removed goes to X)",
    "f": "give +/-N strength to the target for the duration",
    "pm": "give +/-N maximum power to the target for the duration",
    "tire": "tire the target",
    "ready": "ready the target",
    "destroy": "destroy the target (X gets its power, PM gets its maximum, COST its cost)",
    "battle": "move the target character to the battlefield",
    "home": "move the target character to its pantheon",
    "draw": "draw N cards from the design deck",
    "discard": "discard N cards from the hand (X counts them)",
    "key": "give the key named key= to the target for the duration",
    "unkey": "remove the key named key= (or every key but Dios with key=*) from the target",
    "token": "create N characters tok= in the pantheon (or the battlefield with zone=battle)",
    "forge": "create the weapon tok= and equip it on the target",
    "noassign": "the target cannot be assigned this turn",
    "flag": "set a rule change named name= for the duration (see effects.FLAGS)",
    "look": "look at the top card of the target oracle; mode= bottom|event|discard",
    "reveal": "turn face up the top card of the target oracle",
    "search": "search the design deck for card= and take it to the hand (or equip with mode=equip)",
    "revive": "move the target from the discard to the pantheon (mode=hand: to the hand)",
    "control": "take control of the target (dur turn: until the next action or the resolution)",
    "strip": "remove the strength bonuses and penalties of the target (mode=minus: only penalties)",
    "mute": "remove the target's abilities for good",
    "setpm": "the target's maximum power becomes the chosen card's maximum this turn",
    "steal": "move the target equipment onto one of your characters",
    "shield": "no action may target the target this turn",
    "bottomdeck": "look at the top of your design deck; you may put it at the bottom",
    "fill": "the target gains the power it lacks to reach its maximum (X = the gain)",
    "resolution": "replace this turn's confrontation resolution by the rule named mode=",
    "neworacle": "make a new oracle from the target card (discard or in play)",
    "drop": "discard the top card of the target oracle (mode=all: every card of it)",
    "repower": "the chosen cards share the power again (player's choice step by step)",
    "double": "double the strength of the target weapon this turn",
    "copy": "use the target's ability of this phase as the source's own (src=bearer: the bearer's)",
    "start": "become the start player",
    "peekhand": "look at an opponent's hand",
    "bounce": "return the target equipment to its owner's hand",
    "make": "the target player(s) resolve the follow-up sub= (choosing among its options)",
    "under": "put the target card under one of your oracles (chosen next), face down",
    "pick": "choose a number X from 1 to N",
    "untap": "the target may use its abilities again this turn",
    "reserve_pm": "the bearer counts +N maximum power when equipping invocations",
    "move": "move the target equipment between two of your characters",
    "reorder": "shuffle the target oracle (its power is lost)",
    "flip": "turn the top card of the target oracle face down or up",
    "fetch": "take a resource from this oracle to its top and shuffle the rest",
    "nut": "put an opponent's discarded event under one of your oracles",
    "muster": "move the target character to the battlefield; its controller chooses the army",
    "join": "the character chosen as it= joins the army of fighter mode=a|b (a follow-up)",
    "keyof": "choose the target character, then one of its keys (key=@ names it later)",
    "copied": "use ability N of the character this card copies this turn (Huitzilopochtli)",
}

STATIC_VERBS = {
    "cost": "this card costs N less for the card card= or characters with key=",
    "keycost": "your characters with key= cost N less",
    "keypm": "your characters with key= have +N maximum power",
    "haskey": "the bearer has the key key=",
    "indestructible": "this character cannot be destroyed",
    "stuck": "this character cannot be moved from the battlefield",
    "noweapons": "this character cannot carry weapons",
    "godonly": "this equipment can only go on a god (Dios)",
    "alone0": "strength 0 while alone in its army",
    "transfers": "N more counter moves (mode=all: every player's moves change)",
    "weapondiscount": "your weapons cost N less to equip",
    "nogain": "you cannot gain power in your reserve",
    "godpm": "your gods have N maximum power",
    "endloss": "lose N power from the reserve at the end of reorganisation",
    "invocpm": "the bearer may equip invocations as if it had +N maximum power",
    "herocost": "costs N less for characters with key=",
}

# own: yours; enemy: an opponent's (in a confrontation, your opponent's); other: any player's
# but yours (in a confrontation too: a player outside the fight); any: anyone's.
WHO = {"own", "enemy", "any", "other"}
SPECIAL = {"me", "opp", "opps", "everyone", "fighters", "self", "bearer", "it", "that"}
KINDS = {
    "char",
    "mortal",
    "god",
    "resource",
    "equip",
    "weapon",
    "armour",
    "invoc",
    "card",
    "event",
    "oracle",
    "hand",
    "pantheon",
    "godcard",
}
ZONES = {"@pantheon", "@battle", "@oracle", "@inplay", "@discard", "@hand", "@panor"}
FLAGS_T = {
    "tired",
    "ready",
    "exhausted",
    "haspower",
    "notself",
    "created",
    "hasweapon",
    "hasinvoc",
    "unrevealed",
    "noninvoc",
    "faceup",
    "bigger",
    "half",
    "tally",
    "notthat",
    "faced",
}
PREFIX = ("key:", "nokey:", "myth:", "pm<", "pm>=", "cost<=", "pm=", "p<=", "id:")
PARAMS = {
    "as",
    "key",
    "card",
    "tok",
    "p",
    "zone",
    "temp",
    "mode",
    "name",
    "dur",
    "rep",
    "pay",
    "distinct",
    "permif",
    "minus",
    "cap",
    "tally",
    "src",
    "sub",
}
VARS = {"X", "PM", "COST", "P", "D", "H", "ORA", "EVD", "PAN", "INV"}


class Per(BaseModel):
    """An amount counted: one per card matching ``sel``, at most ``cap``."""

    sel: Selector
    cap: int = 99
    times: int = 1


class Selector(BaseModel):
    """Which cards (or players, or oracles) an operation may choose among."""

    who: str = "any"
    special: str | None = None
    kind: str | None = None
    zone: str | None = None
    filters: list[str] = Field(default_factory=list)


class Op(BaseModel):
    """One operation of an ability."""

    verb: str
    n: int | str | Per = 1
    t: Selector = Field(default_factory=Selector)
    dur: Literal["turn", "perm", "fight", "none"] = "turn"
    count: int = 1
    all: bool = False
    upto: bool = False
    params: dict[str, str] = Field(default_factory=dict)


class Ability(BaseModel):
    """A card's ability: when it is used, what it costs, what it does."""

    phase: str
    cost: list[Op] = Field(default_factory=list)
    effect: list[Op] = Field(default_factory=list)
    when_tired: bool = False  # usable while the card is tired
    cond: str | None = None  # fought | in_pantheon | talismans | oddtable
    text: str = ""

    @property
    def steps(self) -> list[Op]:
        """Cost then effect, in the order they resolve."""
        return self.cost + self.effect


def parse_selector(tokens: list[str]) -> Selector:
    """Build a selector from its words; unknown words raise ValueError."""
    sel = Selector()
    for tok in tokens:
        if tok in WHO:
            sel.who = tok
        elif tok in SPECIAL:
            sel.special = tok
        elif tok in KINDS:
            sel.kind = tok
        elif tok in ZONES:
            sel.zone = tok
        elif tok in FLAGS_T:
            sel.filters.append(tok)
        elif tok.startswith(PREFIX):
            if tok.startswith(("key:", "nokey:")):
                head, _, rest = tok.partition(":")
                tok = head + ":" + "|".join(norm_key(k) for k in rest.split("|"))
            sel.filters.append(tok)
        else:
            raise ValueError(f"unknown target word {tok!r}")
    return sel


def parse_op(text: str, static: bool = False) -> Op:
    """Parse one operation; unknown verbs or words raise ValueError."""
    toks = text.split()
    verb, rest = toks[0], toks[1:]
    if verb not in (STATIC_VERBS if static else VERBS):
        raise ValueError(f"unknown verb {verb!r} in {text!r}")
    op = Op(verb=verb)
    sel_toks: list[str] = []
    for tok in rest:
        if tok.lstrip("+-").isdigit():
            op.n = int(tok)
        elif tok.lstrip("-") in VARS:
            op.n = tok
        elif tok.startswith("per:"):
            sel_s, _, cap = tok[4:].rpartition(":")
            op.n = Per(sel=parse_selector(sel_s.split(".")), cap=int(cap))
        elif tok in ("turn", "perm", "fight"):
            op.dur = tok  # type: ignore[assignment]
        elif tok == "all":
            op.all = True
        elif tok == "upto":
            op.upto = True
        elif tok.startswith("x") and tok[1:].isdigit():
            op.count = int(tok[1:])
        elif "=" in tok and not tok.startswith(PREFIX):
            k, _, v = tok.partition("=")
            op.params[k] = v
        else:
            sel_toks.append(tok)
    op.t = parse_selector(sel_toks)
    unknown = set(op.params) - PARAMS
    if unknown:
        raise ValueError(f"unknown parameter {sorted(unknown)} in {text!r}")
    return op


def parse_ability(line: str) -> Ability:
    """Parse ``"phase[+flags]: cost ; effect"``."""
    head, _, body = line.partition(":")
    parts = head.strip().split("+")
    if parts[0] not in PHASES:
        raise ValueError(f"unknown phase {parts[0]!r} in {line!r}")
    ab = Ability(phase=PHASES[parts[0]], text=line)
    for flag in parts[1:]:
        if flag == "tired":
            ab.when_tired = True
        elif flag in ("fought", "in_pantheon", "talismans", "oddtable"):
            ab.cond = flag
        else:
            raise ValueError(f"unknown ability flag {flag!r}")
    static = ab.phase == "static"
    if ";" in body:
        cost_s, _, eff_s = body.partition(";")
    else:
        cost_s, eff_s = "", body
    ab.cost = [parse_op(s.strip(), static) for s in cost_s.split(",") if s.strip()]
    ab.effect = [parse_op(s.strip(), static) for s in eff_s.split(",") if s.strip()]
    if not ab.effect:
        raise ValueError(f"ability without effect: {line!r}")
    return ab


Per.model_rebuild()
