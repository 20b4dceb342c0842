"""Every Guerra de Mitos move is told to everyone: each applied action yields a public event
(the secret bid is told without its amount), and no public event names a card that is hidden
at the time; the prompts speak the players' words and keep hidden cards to their owner."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest

from rules.core import Event
from rules.guerra_de_mitos import telling as T
from rules.guerra_de_mitos.cards import cards
from rules.guerra_de_mitos.facts import all_facts
from rules.guerra_de_mitos.model import (
    Assign,
    Bid,
    DropOracle,
    Equip,
    GdmView,
    Meditate,
    Move,
    Pass,
    Use,
)
from rules.guerra_de_mitos.telling import VERB_WORDS
from tests import playout
from tests.rules import gdm_helpers as H
from tests.rules.test_guerra_de_mitos_playouts import RULES, move, options, pick

E = H.E
GAMES = {2: 4, 3: 2, 4: 1}  # seeded games per player count


def _names() -> tuple[dict[str, set[str]], re.Pattern[str]]:
    """Every card name (Spanish and English) and the card ids that bear it."""
    by: dict[str, set[str]] = {}
    for c in cards().values():
        for n in (c.name, c.name_en):
            by.setdefault(n, set()).add(c.id)
    for f in all_facts().values():
        by.setdefault(f.name, set()).add(f.id)
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(re.escape(n) for n in sorted(by, key=len, reverse=True)) + r")(?![\w-])"
    )
    return by, pattern


NAMES, NAME_RE = _names()


def visible(v: GdmView) -> set[str]:
    """The cards the public view shows: in play, discards, face-up oracle tops, pantheons."""
    out = {c.card for c in v.in_play}
    for s in v.seats:
        out |= set(s.discard) | {s.pantheon} | {o.top for o in s.oracles if o.top}
    return out


def named(e: Event) -> set[str]:
    """The card names an event's text holds, in either language."""
    return set(NAME_RE.findall(e.text.es)) | set(NAME_RE.findall(e.text.en))


def check_step(before: GdmView, after: GdmView, events: list[Event], action: object) -> None:
    """At least one public event; each card it names is face up before or after the move."""
    public = [e for e in events if e.audience is None]
    assert public, f"{action!r} was told to nobody"
    seen = visible(before) | visible(after)
    for e in public:
        for n in named(e):
            assert NAMES[n] & seen, (action, e.text.es, n)


def play_one(n: int, seed: int, told: set[str]) -> None:
    """One seeded game (a checked play-out, tests/playout.py), checking every step; ``told``
    gathers the kinds of moves met (by phase). Half the moves are the built-in player's (it
    plays cards and fights with purpose), half the eager random player's of the play-outs."""
    r = random.Random(seed * 7 + n)
    opts = options(r, n)

    def mover(rng: random.Random, st: object, seat: int, legal: list) -> object:
        return E.ai_action(st, seat) if rng.random() < 0.5 else move(rng, st, seat, legal, True)

    def hook(before: object, after: object, seat: int, action: object, events: list) -> None:
        check_step(E.view(before, None), E.view(after, None), events, action)
        told.add(f"{'stack' if before.stack else before.phase}:{action.kind}")

    playout.play(replace(RULES, options=lambda k, s: opts), n, seed, rng=r, mover=mover,
                 every=None, step_hook=hook)


@pytest.mark.parametrize("n", sorted(GAMES))
def test_every_move_of_random_games_is_told_without_hidden_cards(n: int) -> None:
    told: set[str] = set()
    for seed in range(GAMES[n]):
        play_one(n, seed, told)
    # the moves this test is about were met, so the checks above were not idle
    wanted = {
        "transfer:move",
        "transfer:pass",
        "influence:pass",
        "influence:meditate",
        "fight:assign",
        "fight:pass",
        "stack:target",
    }
    wanted |= {"bid:bid", "starter:starter"} if n == 2 else {"challenge:challenge"}
    assert wanted <= told, wanted - told


def public_lines(events: list[Event]) -> list[str]:
    """The English texts of the public events."""
    return [e.text.en for e in events if e.audience is None]


def test_counter_moves_and_the_end_of_a_transfer_say_their_amounts() -> None:
    st = H.blank(2, reserve=10)
    H.oracle(st, ["0002"], 0, power=1)
    st.phase, st.actor = "transfer", 0
    st.players[0].moves = 3
    st, ev = E.apply(st, 0, Move(src=-1, dst=0))
    assert public_lines(ev) == [
        "Player 1 moves 1P from their reserve to oracle 1 (reserve: 9P, oracle 1: 2P; 2 moves left)."
    ]
    assert ev[0].text.es == (
        "Jugador 1 mueve 1P de su reserva al oráculo 1 (reserva: 9P, oráculo 1: 2P; le quedan 2 movimientos)."
    )
    st, ev = E.apply(st, 0, Move(src=0, dst=-1))
    assert public_lines(ev)[0].startswith("Player 1 moves 1P from oracle 1 to their reserve (oracle 1: 1P")
    st, ev = E.apply(st, 0, Pass())
    assert public_lines(ev)[0] == "Player 1 ends their transfer (reserve 10P)."


def test_discarding_an_oracle_card_names_the_card_that_goes_to_the_discard() -> None:
    st = H.blank(2)
    H.oracle(st, ["0002", "0007"], 0, power=0)
    st.phase, st.actor = "transfer", 0
    st, ev = E.apply(st, 0, DropOracle(oracle=0))
    name = cards()["0002"].name_en
    assert public_lines(ev)[0] == f"Player 1 discards {name} from their oracle 1 (it held no power)."
    assert cards()["0007"].name_en not in " ".join(public_lines(ev))


def test_meditating_equipping_and_passing_are_told_with_their_amounts() -> None:
    st = H.blank(2)
    char = H.put(st, "0007", 0, power=1)
    st, ev = E.apply(st, 0, Meditate(uid=char))
    name = cards()["0007"].name_en
    assert public_lines(ev)[0] == f"Player 1 meditates with {name}: tires it, and it gains 2P (now 3P)."
    st, ev = E.apply(st, 1, Pass())
    assert public_lines(ev) == ["Player 2 passes (1 of 2 passes in a row)."]
    st2 = H.blank(2)
    bearer = H.put(st2, "0007", 0, power=4)
    gear = H.in_hand(st2, "0212", 0)
    equips = [a for a in E.legal_actions(st2, 0) if isinstance(a, Equip) and a.uid == gear]
    assert equips, "the test needs an equipment that fits"
    st2, ev = E.apply(st2, 0, equips[0])
    cost = 4 - st2.cards[bearer].power
    assert public_lines(ev)[0].startswith(f"Player 1 equips {cards()['0212'].name_en} on {name}: pays {cost}P")


def test_assigning_and_passing_in_a_confrontation_are_told() -> None:
    st = H.blank(2)
    char = H.put(st, "0007", 0, power=3)
    H.fight(st, 0, 1, stage="assign")
    st, ev = E.apply(st, 0, Assign(uid=char))
    name = cards()["0007"].name_en
    assert public_lines(ev) == [f"Player 1 assigns {name} to the battlefield: pays 1P (2P left)."]
    st, ev = E.apply(st, 1, Pass())
    assert public_lines(ev) == ["Player 2 assigns no more characters."]
    st, ev = E.apply(st, 0, Pass())
    assert public_lines(ev)[0] == "Player 1 assigns no more characters."
    st, ev = E.apply(st, 0, Pass())
    assert public_lines(ev) == ["Player 1 passes in the confrontation."]


def test_the_secret_bid_is_told_without_its_amount_and_the_amount_to_its_owner() -> None:
    st = E.setup(2, options(random.Random(3), 2), 3)
    st, ev = E.apply(st, 0, Bid(amount=3))
    assert public_lines(ev) == ["Player 1 has made a secret bid."]
    mine = [e for e in ev if e.audience == [0]]
    assert [e.text.en for e in mine] == ["Your secret bid: 3P."]
    st, ev = E.apply(st, 1, Bid(amount=2))
    assert "Bids revealed: 3 and 2." in " ".join(public_lines(ev))


def test_a_state_stored_mid_move_keeps_its_lines_in_either_form() -> None:
    """A line waiting in the log is stored as a text; a state stored before the catalogues
    holds "aud|es|en" strings, and both load and are told as they were written."""
    st = H.blank(2, reserve=10)
    H.oracle(st, ["0002"], 0, power=1)
    st.phase, st.actor = "transfer", 0
    st.players[0].moves = 3
    st.log = T.told(st, Move(src=-1, dst=0), T.Before(st, 0, Move(src=-1, dst=0)))
    back = E.load_state(E.dump_state(st))
    assert back.log == st.log and back.log[0].text.m.startswith("{who} moves 1P")
    old = json.loads(E.dump_state(st))
    old["log"] = ["*|[0] pasa (1 de 2 pases seguidos).|[0] passes (1 of 2 passes in a row).",
                  "1|Tu puja secreta: 3P.|Your secret bid: 3P.", "0,1|uno|one"]
    stored = E.load_state(json.dumps(old))
    ev = E._flush(stored)
    assert [(e.text.es, e.text.en, e.audience) for e in ev] == [
        ("[0] pasa (1 de 2 pases seguidos).", "[0] passes (1 of 2 passes in a row).", None),
        ("Tu puja secreta: 3P.", "Your secret bid: 3P.", [1]),
        ("uno", "one", [0, 1]),
    ]
    assert stored.log == []


def test_frigg_prompt_names_the_top_card_only_in_her_players_view() -> None:
    st = H.blank(2)
    frigg = H.put(st, "0037", 0, power=3)
    H.on_deck(st, ["0250", "0212"], 0)
    st, ev = E.apply(st, 0, Use(uid=frigg))
    top = cards()["0250"]
    public = E.pending(st)[0].text
    for text in (public.es, public.en):
        assert "Frigg" in text and top.name not in text and top.name_en not in text
        assert "bottomdeck" not in text and "(" not in text  # no verb of the interpreter
    assert public.es == "Frigg: elige para «mirar la carta de arriba del mazo»."
    assert public.en == "Frigg: choose for “look at the top of the deck”."
    own = E.view(st, 0).prompt
    assert own is not None and top.name in own.es and top.name_en in own.en
    assert E.view(st, 1).prompt is None and E.view(st, None).prompt is None
    # the choice is told to all without the card
    st, ev = E.apply(st, 0, E.legal_actions(st, 0)[1])
    lines = public_lines(ev)
    assert lines[0] == "Player 1 chooses “put it at the bottom” for Frigg."
    assert all(top.name_en not in x and top.name not in x for x in lines)


def test_no_prompt_holds_a_verb_of_the_interpreter() -> None:
    verbs = re.compile(r"\((?:" + "|".join(re.escape(v) for v in VERB_WORDS) + r")\)")
    st = E.setup(3, options(random.Random(5), 3), 5)
    r = random.Random(5)
    for _ in range(600):
        if st.finished:
            break
        for prompt in E.pending(st).values():
            assert not verbs.search(prompt.text.es) and not verbs.search(prompt.text.en)
        seat = r.choice(sorted(E.pending(st)))
        st, _ = E.apply(st, seat, pick(r, E.legal_actions(st, seat)))


def test_every_step_of_an_ability_has_words() -> None:
    from rules.guerra_de_mitos.abilities import ABILITIES, SUBS

    steps = [ab for abs_ in ABILITIES.values() for ab in abs_ if ab.phase != "static"]
    steps += [ab for subs in SUBS.values() for ab in subs]
    verbs = {op.verb for ab in steps for op in ab.steps}
    assert verbs <= set(VERB_WORDS), verbs - set(VERB_WORDS)
