"""Guerra de Mitos for 2 or more players: the Engine the platform talks to."""

from __future__ import annotations

from typing import Any, ClassVar

from rules.core import Action, Engine, Event, IllegalAction, Outcome, Prompt, Seat, Text, seat_name
from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import flow as F
from rules.guerra_de_mitos import lines as L
from rules.guerra_de_mitos import plays as PL
from rules.guerra_de_mitos import running as R
from rules.guerra_de_mitos import setup as SU
from rules.guerra_de_mitos import telling as T
from rules.guerra_de_mitos.cards import joined, verbatim
from rules.guerra_de_mitos.legal import legal
from rules.guerra_de_mitos.model import (
    ACTION_ADAPTER,
    BATTLE,
    GEAR,
    ORACLE,
    Assign,
    Bid,
    CardTable,
    CardView,
    Challenge,
    Choose,
    DeckSpec,
    DropOracle,
    Enter,
    Equip,
    GdmState,
    GdmView,
    Meditate,
    Move,
    Options,
    Oracle,
    OracleView,
    Pass,
    Play,
    SeatView,
    Starter,
    Target,
    Use,
    clone,
)
from rules.guerra_de_mitos.model import PANTHEON as ZP
from rules.phrases import Phrases

msg = Phrases("guerra_de_mitos")


def ready_decks() -> dict[str, DeckSpec]:
    """The ready decks by id, as the engine deals them (empty if the deck list is absent)."""
    try:
        from rules.guerra_de_mitos.decks import ready_decks as catalogue  # type: ignore[import-not-found]
    except ImportError:
        return {}
    out = {}
    for rid, rd in catalogue().items():
        d = rd.deck
        gods = [c for c, n in d.god.items() for _ in range(n)]
        designs = [c for c, n in d.design.items() for _ in range(n)]
        out[rid] = DeckSpec(pantheon=d.pantheon, gods=gods, designs=designs)
    return out


_new, _set = object.__new__, object.__setattr__


def _clone_oracle(o: Oracle) -> Oracle:
    """``clone`` for the many small oracles copied with every move."""
    d = o.__dict__
    new = _new(Oracle)
    _set(new, "__dict__", {"cards": d["cards"][:], "up": d["up"], "power": d["power"]})
    _set(new, "__pydantic_fields_set__", set(o.__pydantic_fields_set__))
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


# The state's list and dict fields that ``copy_state`` copies one level deep (the others it
# rebuilds itself).
_REBUILT = {"cards", "players", "flags", "stack"}
_STATE_LISTS = tuple(
    k
    for k, f in GdmState.model_fields.items()
    if getattr(f.annotation, "__origin__", None) is list and k not in _REBUILT
)
_STATE_DICTS = tuple(
    k
    for k, f in GdmState.model_fields.items()
    if getattr(f.annotation, "__origin__", None) is dict and k not in _REBUILT
)


# The prompts that say nothing about the position are built once (``_pending`` is asked
# several times for every move).
_PROMPTS = {
    "bid": Prompt(
        kind="bid",
        text=msg("Bid 1 to 4 power in secret."),
    ),
    "starter": Prompt(kind="starter", text=msg("Choose who starts.")),
    "transfer": Prompt(
        kind="transfer",
        text=msg("Transfer: move counters, put cards into play or finish."),
    ),
    "influence": Prompt(
        kind="influence",
        text=msg("Influence: play an action, use an ability, equip, meditate or pass."),
    ),
    "challenge": Prompt(
        kind="challenge",
        text=msg("Choose whom you confront."),
    ),
    "assign": Prompt(
        kind="assign",
        text=msg("Assign a character to the battlefield (1P) or pass."),
    ),
    "fight": Prompt(
        kind="fight",
        text=msg("Confrontation: play an action, use an ability or pass."),
    ),
}


class GdmEngine(Engine[GdmState]):
    """Guerra de Mitos: seats 0..n-1 in turn order (to the left)."""

    id: ClassVar[str] = "guerra_de_mitos"
    title: ClassVar[Text] = msg("War of Myths")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    # "Multijugador: se sortean los sitios al azar" (docs/rules/guerra_de_mitos.md).
    random_seats: ClassVar[bool] = True
    options_model = Options
    state_model = GdmState
    action_adapter = ACTION_ADAPTER

    # ------------------------------------------------------------------ setup

    def _setup(self, num_seats: int, options: Any, seed: int) -> GdmState:
        opts: Options = options
        decks = self._decks(num_seats, opts, seed)
        st = SU.build(num_seats, opts, decks, seed)
        self._flush(st)
        return st

    def public_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """A deck given as a list is a player's secret: shown as "private" ("random" for a
        seat left to a ready deck picked from the seed); a ready deck's name stays."""
        decks = options.get("decks")
        if not isinstance(decks, list):
            return options
        shown = ["random" if d is None else d if isinstance(d, str) else "private" for d in decks]
        return {**options, "decks": shown}

    def reseat_options(self, options: dict[str, Any], seating: dict[int, int]) -> dict[str, Any]:
        """Each seat's deck goes with its player to the place drawn for them."""
        decks = options.get("decks")
        if not isinstance(decks, list) or not decks:
            return options
        moved: list[Any] = [None] * len(seating)
        for old, new in seating.items():
            moved[new] = decks[old] if old < len(decks) else None
        return {**options, "decks": moved}

    def _decks(self, n: int, opts: Options, seed: int) -> list[DeckSpec]:
        ready = ready_decks()
        chosen: list[DeckSpec] = []
        names = sorted(ready)
        for s in range(n):
            d = opts.decks[s] if s < len(opts.decks) else None
            if d is None:
                if not names:
                    raise IllegalAction(
                        msg("A player's deck is missing.")
                    )
                d = names[(seed + s) % len(names)]
            if isinstance(d, str):
                if d not in ready:
                    raise IllegalAction(
                        msg("There is no ready deck named {deck}.", deck=d)
                    )
                d = ready[d]
            SU.check_deck(d)
            chosen.append(d)
        return chosen

    def copy_state(self, state: GdmState) -> GdmState:
        """A copy deep in what ``_apply`` mutates; card records are shared until written."""
        s = state
        cards = s.cards
        if not isinstance(cards, CardTable):  # a table assigned by hand: adopt it
            cards = CardTable(cards)
            object.__setattr__(s, "cards", cards)
        players = []
        for p in s.players:
            q = clone(p)
            q.__dict__["oracles"] = [_clone_oracle(o) for o in p.oracles]
            players.append(q)
        flags = {k: ([list(x) for x in v] if k == "res" else v) for k, v in s.flags.items()}
        # ``clone`` without copying the card table and flags only to replace them
        d = s.__dict__.copy()
        for k in _STATE_LISTS:
            d[k] = d[k][:]
        for k in _STATE_DICTS:
            d[k] = dict(d[k])
        new = _new(type(s))
        _set(new, "__dict__", d)
        _set(new, "__pydantic_fields_set__", set(s.__pydantic_fields_set__))
        _set(new, "__pydantic_extra__", None)
        _set(new, "__pydantic_private__", None)
        d["rng"] = clone(s.rng)
        d["cards"] = cards.share()
        d["players"] = players
        d["flags"] = flags
        d["stack"] = [clone(x) for x in s.stack]
        d["fight"] = clone(s.fight) if s.fight is not None else None
        return new

    # ------------------------------------------------------------------ turn structure

    def _pending(self, st: GdmState) -> dict[Seat, Prompt]:
        if st.finished:
            return {}
        if st.stack:
            step = st.stack[-1]
            return {step.seat: Prompt(kind="choice", text=T.step_prompt(st, owner=False))}
        ph = st.phase
        if ph == "bid":
            return {s: _PROMPTS["bid"] for s in range(2) if st.players[s].bid is None}
        if ph == "starter":
            return {st.chooser: _PROMPTS["starter"]}
        if ph in ("transfer", "influence"):
            return {st.actor: _PROMPTS[ph]}
        if ph == "challenge":
            return {st.chooser: _PROMPTS["challenge"]}
        if ph == "fight" and st.fight is not None:
            f = st.fight
            return {f.turn: _PROMPTS["assign" if f.stage == "assign" else "fight"]}
        return {}

    def _legal_actions(self, st: GdmState, seat: Seat, only: Action | None = None) -> list[Action]:
        """Every legal action; with ``only``, just those of its kind (and card) that could equal it."""
        with B.reading(st):
            return legal(st, seat, only)

    def _apply(self, st: GdmState, seat: Seat, action: Action) -> list[Event]:
        # Only the legal actions that could equal this one are generated (same code, fewer cards).
        if action not in self._legal_actions(st, seat, only=action):
            raise self._refusal(st, seat, self._legal_actions(st, seat))
        return self.do(st, seat, action)

    def do(self, st: GdmState, seat: Seat, action: Action) -> list[Event]:
        """Carry out an action already known to be legal (mutates ``st``)."""
        a = action
        n0 = len(st.log)
        before = T.Before(st, seat, a)
        self._carry_out(st, seat, a)
        # the move's own line comes before what followed from it
        st.log[n0:n0] = T.told(st, a, before)
        F.settle(st)
        self._continue(st)
        return self._flush(st)

    def _carry_out(self, st: GdmState, seat: Seat, a: Action) -> None:
        if st.stack:
            if isinstance(a, Pass):
                R.stop(st)
            else:
                R.choose(st, a.uid if isinstance(a, Target) else a.value)  # type: ignore[union-attr]
        elif isinstance(a, Bid):
            SU.bid(st, seat, a.amount)
        elif isinstance(a, Starter):
            SU.name_starter(st, a.seat)
        elif st.phase == "transfer":
            if isinstance(a, Move):
                F.move(st, seat, a.src, a.dst)
            elif isinstance(a, DropOracle):
                F.drop(st, seat, a.oracle)
            elif isinstance(a, Enter):
                F.enter(st, seat, a.oracle)
            else:
                F.end_transfer(st)
        elif st.phase == "influence":
            self._influence(st, seat, a)
        elif isinstance(a, Challenge):
            F.open_fight(st, seat, a.seat)
        elif st.phase == "fight":
            self._fight(st, seat, a)

    def _influence(self, st: GdmState, seat: int, a: Action) -> None:
        if isinstance(a, Pass):
            F.influence_pass(st, seat)
            return
        if isinstance(a, Play):
            PL.play_action(st, seat, a.uid, a.ability, "influence", None)
        elif isinstance(a, Use):
            PL.use_ability(st, seat, a.uid, a.ability, "influence")
        elif isinstance(a, Equip):
            F.equip(st, seat, a.uid, a.target)
        elif isinstance(a, Meditate):
            F.meditate(st, seat, a.uid)
        st.flags["_after"] = "influence"

    def _fight(self, st: GdmState, seat: int, a: Action) -> None:
        f = st.fight
        assert f is not None
        if f.stage == "assign":
            if isinstance(a, Assign):
                F.assign(st, seat, a.uid)
            else:
                F.assign_pass(st, seat)
            return
        if isinstance(a, Pass):
            F.fight_pass(st, seat)
            return
        if isinstance(a, Play):
            PL.play_action(st, seat, a.uid, a.ability, "confrontation", a.payer)
        elif isinstance(a, Use):
            PL.use_ability(st, seat, a.uid, a.ability, "confrontation")
        st.flags["_after"] = f"fight:{seat}"

    def _continue(self, st: GdmState) -> None:
        """Once no ability waits for a choice, the phase goes on where it paused."""
        guard = 0
        while not st.finished and not st.stack and guard < 50:
            guard += 1
            after = st.flags.pop("_after", None)
            if after == "influence":
                if st.phase == "influence":
                    F.influence_acted(st, st.actor)
                continue
            if after is not None and after.startswith("fight:"):
                if st.fight is not None and st.fight.stage == "act":
                    F.fight_acted(st, int(after[6:]))
                continue
            if st.phase == "fight" and st.fight is not None and st.fight.stage == "done":
                F.close_fight(st)
                continue
            if st.phase == "fight" and st.fight is None:
                F.next_challenge(st)
                continue
            break
        F.settle(st)

    def _refusal(self, st: GdmState, seat: int, legal: list[Action]) -> IllegalAction:
        p = self._pending(st)[seat].text
        shown = [self.describe(st, seat, a) for a in legal[:8]]
        more = len(legal) - len(shown)
        # the options one after another, split by semicolons
        options = joined(shown, "; ")
        if more > 0:
            options = msg.n(more, "{options}; and {n} more", "{options}; and {n} more", options=options)
        return IllegalAction(msg("That cannot be done now. {prompt} You may: {options}.", prompt=p, options=options))

    def _flush(self, st: GdmState) -> list[Event]:
        """Turn the log lines written by the rules into events with their audience."""
        out = []
        for line in st.log:
            out.append(Event(kind="log", text=line.text, audience=line.aud))
        st.log = []
        return out

    # ------------------------------------------------------------------ views and outcome

    def _card_view(self, st: GdmState, u: int) -> CardView:
        c = B.peek(st, u)
        f = B.fx(st, u)
        is_char = B.is_char(st, u)
        return CardView(
            uid=u,
            card=c.card,
            name=f.name,
            owner=c.owner,
            ctrl=c.ctrl,
            zone=c.zone,
            power=c.power,
            strength=B.strength(st, u) if is_char else f.strength,
            max_power=B.max_power(st, u) if is_char else f.power,
            tired=c.tired,
            gear=list(c.gear),
            keys=sorted(B.keys(st, u)),
        )

    def _sides(self, st: GdmState) -> dict[Seat, Text]:
        # each seat's pantheon card: what players compare across a server's games
        return {s: L.name_of(B.pantheon_card(st, s)) for s in range(st.num_seats)
                if st.players[s].pantheon >= 0}

    def _view(self, st: GdmState, seat: Seat | None) -> GdmView:
        with B.reading(st):
            return self._view_of(st, seat)

    def _view_of(self, st: GdmState, seat: Seat | None) -> GdmView:
        me = seat if seat is not None and 0 <= seat < st.num_seats else None
        seats = []
        revealed = st.phase != "bid"
        for s, p in enumerate(st.players):
            ors = [
                OracleView(
                    size=len(o.cards),
                    power=o.power,
                    top=B.peek(st, o.cards[0]).card if o.up and o.cards else None,
                )
                for o in p.oracles
            ]
            seats.append(
                SeatView(
                    seat=s,
                    reserve=max(p.reserve, 0),
                    alive=p.alive,
                    vp=p.vp,
                    hand_size=len(p.hand),
                    deck_size=len(p.deck),
                    discard=[B.peek(st, u).card for u in p.discard],
                    oracles=ors,
                    pantheon=B.peek(st, p.pantheon).card,
                    bid=p.bid if (revealed or s == me) else None,
                )
            )
        in_play = [
            self._card_view(st, u) for u, c in B.raw_items(st) if c.zone in (ZP, BATTLE, GEAR)
        ]
        pend = self.pending(st)
        return GdmView(
            seat=seat,
            version=st.version,
            phase=st.phase,
            round=st.round,
            first=st.first,
            actor=st.actor,
            to_act=sorted(pend),
            prompt=self._own_prompt(st, pend, me),
            seats=seats,
            in_play=in_play,
            hand=[B.peek(st, u).card for u in st.players[me].hand] if me is not None else None,
            peeks=list(st.players[me].peeks) if me is not None else [],
            fight=[st.fight.a, st.fight.b] if st.fight else None,
            finished=st.finished,
            winners=list(st.winners),
            end_reason=st.end_reason,
        )

    def _own_prompt(self, st: GdmState, pend: dict[Seat, Prompt], me: Seat | None) -> Text | None:
        """The prompt as the deciding seat reads it: a step of an ability may add what only
        that seat sees (the public prompt of ``pending`` never does)."""
        if me is None or me not in pend:
            return None
        if st.stack and st.stack[-1].seat == me:
            return T.step_prompt(st, owner=True)
        return pend[me].text

    def _outcome(self, st: GdmState) -> Outcome:
        n = st.num_seats
        if n == 2:
            others = [s for s in range(n) if s not in st.winners]
            ranking = [list(st.winners), others] if others else [list(st.winners)]
            scores = {s: float(st.players[s].reserve) for s in range(n)}
        else:
            vals = sorted({p.vp for p in st.players}, reverse=True)
            ranking = [[s for s in range(n) if st.players[s].vp == v] for v in vals]
            scores = {s: st.players[s].vp for s in range(n)}
        reasons = {
            "dios_de_dioses": msg("God of gods: 30P or more after reorganisation."),
            "olvido": msg("Oblivion: a reserve reached 0P."),
            "puntos": msg("Most victory points wins."),
            "limite": msg("The turn limit was reached: the largest reserve wins."),
            "bloqueo": msg(
                "Blocked game: nothing left to draw or reveal and the table the same turn after "
                "turn; the largest reserve wins (with more players, most victory points)."
            ),
        }
        why = reasons.get(st.end_reason, reasons["puntos"])
        return Outcome(ranking=ranking, scores=scores, reason=joined([why, *_end_figures(st, ranking[0])], " "))

    # ------------------------------------------------------------------ labels and AI

    def describe(self, state: GdmState, seat: Seat, action: Action) -> Text:
        """A short label for a legal action, in both languages."""
        st, a = state, action

        def nm(u: int) -> Text:
            return L.name_of(B.peek(st, u).card) if u in st.cards else verbatim(str(u))

        if isinstance(a, Bid):
            return msg("Bid {amount}", amount=a.amount)
        if isinstance(a, Starter):
            return msg("{seat} starts", seat=seat_name(a.seat))
        if isinstance(a, Move):
            def place(i: int) -> Text:
                return msg("reserve") if i < 0 else msg("oracle {number}", number=i + 1)

            if a.src < 0 and st.players[seat].reserve <= 1:  # the last counter: Olvido
                return msg("Move your reserve's last 1P to {dest} (you leave the game)",
                           dest=place(a.dst))
            return msg("Move 1P from {source} to {dest}", source=place(a.src), dest=place(a.dst))
        if isinstance(a, DropOracle):
            return msg("Discard oracle {number}'s card", number=a.oracle + 1)
        if isinstance(a, Enter):
            return msg("Put into play from oracle {number}", number=a.oracle + 1)
        if isinstance(a, Play):
            return msg("Play {card}", card=nm(a.uid))
        if isinstance(a, Use):
            return msg("Use {card}", card=nm(a.uid))
        if isinstance(a, Equip):
            return msg("Equip {card} on {bearer}", card=nm(a.uid), bearer=nm(a.target))
        if isinstance(a, Meditate):
            return msg("Meditate with {card}", card=nm(a.uid))
        if isinstance(a, Assign):
            return msg("Assign {card}", card=nm(a.uid))
        if isinstance(a, Challenge):
            return msg("Confront {seat}", seat=seat_name(a.seat))
        if isinstance(a, Target):
            return nm(a.uid)
        if isinstance(a, Choose):
            return msg("Choose {value}", value=a.value)
        if isinstance(a, Pass):
            return msg("Pass")
        return super().describe(state, seat, a)


__all__ = ["GdmEngine", "ORACLE"]


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def _reserve_figure(seat: int, reserve: int) -> Text:
    """A seat's reserve as the end tells it: what it holds, and what it fell short."""
    if reserve < 0:
        return msg("{seat} 0P ({short}P short)", seat=seat_name(seat), short=-reserve)
    return msg("{seat} {power}P", seat=seat_name(seat), power=reserve)


def _end_figures(st: GdmState, winners: list[int]) -> list[Text]:
    """What the end's reason says after the rule that ended the game: who won, each
    player's figure that decided it (reserves with two players, victory points with more),
    and who went out and why."""
    n = st.num_seats
    said: list[Text] = []
    if len(winners) == 1:
        said.append(msg("{seat} wins.", seat=seat_name(winners[0])))
    elif winners:
        # a list value: joined as the reader's language joins a list ("ana y bea")
        said.append(msg("{seats} share the win.", seats=[seat_name(s) for s in winners]))
    if n == 2:
        # as the log told them: a reserve holds 0P at least, and a loss larger than it is
        # told as what it fell short (the rulebook's "negativos", which decide a tie at 0P)
        each = [_reserve_figure(s, st.players[s].reserve) for s in range(n)]
        said.append(msg("Reserves: {list}.", list=joined(each, ", ")))
    else:
        order = sorted(range(n), key=lambda s: -st.players[s].vp)
        each = [msg("{seat} {vp} VP", seat=seat_name(s), vp=_number(st.players[s].vp)) for s in order]
        said.append(msg("Victory points: {list}.", list=joined(each, ", ")))
    for s in range(n):
        p = st.players[s]
        if not p.alive and p.reserve <= 0 and s not in winners:
            said.append(msg("{seat} went out with an empty reserve (0P).", seat=seat_name(s)))
    return said

