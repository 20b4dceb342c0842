"""Final scoring, the plague, and the ranking."""

from __future__ import annotations

from rules.core import Event, Outcome
from rules.phrases import Phrases
from rules.rattus_cartus.cards import CLASSES, KIND, NUNS
from rules.rattus_cartus.model import RcState, Score
from rules.rattus_cartus.table import ev, rat_value, semicolons, track_order, who

msg = Phrases("rattus_cartus")

SPECIAL_MAJORITIES = ("espada", "flauta", "salvo")


def class_points(state: RcState) -> list[list[int]]:
    """[seat][class]: 10/5/2 (10/5 with two players) by track order; no influence, no points."""
    awards = (10, 5) if state.num_seats == 2 else (10, 5, 2)
    out = [[0] * len(CLASSES) for _ in range(state.num_seats)]
    for c in range(len(CLASSES)):
        ranked = [s for s in track_order(state, c) if state.influence[s][c] > 0]
        for place, s in enumerate(ranked[:len(awards)]):
            out[s][c] = awards[place]
    return out


def majority(counts: list[int], alone: int = 2, tied: int = 1) -> list[int]:
    """Points for having the most of something (at least one): `alone`, or `tied` each on a tie."""
    top = max(counts)
    if top <= 0:
        return [0] * len(counts)
    best = [i for i, c in enumerate(counts) if c == top]
    pts = alone if len(best) == 1 else tied
    return [pts if i in best else 0 for i in range(len(counts))]


def gold_points(counts: list[int], two_players: bool) -> list[int]:
    """Gold: 6 to the most and 3 to the second; a tie for first splits 9 (rounded down) and
    leaves no second; a tie for second splits 3. Two players: no second place."""
    n = len(counts)
    out = [0] * n
    top = max(counts)
    if top <= 0:
        return out
    first = [i for i in range(n) if counts[i] == top]
    if len(first) > 1:
        pot = 6 if two_players else 9
        for i in first:
            out[i] = pot // len(first)
        return out
    out[first[0]] = 6
    if two_players:
        return out
    rest = [counts[i] for i in range(n) if i not in first and counts[i] > 0]
    if not rest:
        return out
    second = [i for i in range(n) if i not in first and counts[i] == max(rest)]
    for i in second:
        out[i] = 3 // len(second)
    return out


def held(state: RcState, seat: int) -> dict[str, int]:
    """What a hand counts for at the end: population cards and jokers, and each special."""
    hand = state.hands[seat]
    out = {"hand": sum(1 for c in hand if c in NUNS or KIND[c] == "joker")}
    for k in ("espada", "flauta", "salvo", "oro"):
        out[k] = sum(1 for c in hand if KIND[c] == k)
    return out


def finish(state: RcState) -> list[Event]:
    """Score everything, then the plague: rats over the nuns revealed eliminate."""
    n = state.num_seats
    hs = [held(state, s) for s in range(n)]
    cls = class_points(state)
    hand = majority([h["hand"] for h in hs])
    specials = {k: majority([h[k] for h in hs]) for k in SPECIAL_MAJORITIES}
    gold = gold_points([h["oro"] for h in hs], n == 2) if "tesoro" in state.in_play else [0] * n
    nuns = sum(NUNS[c] for c in state.nuns)
    state.final = []
    for s in range(n):
        sp = {k: specials[k][s] for k in SPECIAL_MAJORITIES}
        total = sum(cls[s]) + hand[s] + sum(sp.values()) + gold[s] + state.vp[s]
        rats = rat_value(state, s)
        state.final.append(Score(seat=s, classes=cls[s], hand=hand[s], specials=sp, gold=gold[s],
                                 tokens=state.vp[s], total=total, rats=rats, held=hs[s],
                                 eliminated=rats > nuns))
    state.phase = "over"
    state.finished = True
    shown = [NUNS[c] for c in state.nuns]
    lines = [msg("{seat}: {total} VP, {rats} in rats (killed by the plague)", seat=who(f.seat),
                 total=f.total, rats=f.rats) if f.eliminated
             else msg("{seat}: {total} VP, {rats} in rats", seat=who(f.seat), total=f.total,
                      rats=f.rats)
             for f in state.final]
    out = outcome(state)
    return [
        # the row as the card adds it up, "4 + 0 + 2 + 1 + 3", in every language (a Python
        # list, "[4, 0, 2, 1, 3]", reads as code)
        ev("nuns", msg.n(nuns, "The nun row shows {shown}: {n} nun.",
                         "The nun row shows {shown}: {n} nuns.", shown=" + ".join(map(str, shown))),
           nuns=shown),
        ev("final", msg("Final scoring. {scores}.", scores=semicolons(lines)),
           totals=[f.total for f in state.final], rats=[f.rats for f in state.final]),
        ev("game_end", msg("The game is over: {reason}", reason=out.reason),
           ranking=out.ranking),
    ]


def outcome(state: RcState) -> Outcome:
    """Survivors by points, then fewer rats; the plague's victims after them, all alike."""
    assert state.final is not None
    final = state.final
    survivors = [f for f in final if not f.eliminated]
    rescued = False
    if not survivors and state.options.all_eliminated == "fewest_rats":
        low = min(f.rats for f in final)
        survivors = [f for f in final if f.rats == low]
        rescued = True
    scores = {f.seat: float(f.total) for f in final}
    if not survivors:
        return Outcome(ranking=[], scores=scores,
                       reason=msg("the plague kills everybody: nobody wins."))
    key = {f.seat: (-f.total, f.rats) for f in survivors}
    ranking: list[list[int]] = []
    for s in sorted(key, key=lambda s: (key[s], s)):
        if ranking and key[ranking[-1][0]] == key[s]:
            ranking[-1].append(s)
        else:
            ranking.append([s])
    dead = sorted(f.seat for f in final if f.seat not in key)
    if dead:
        ranking.append(dead)
    win = ranking[0]
    best = final[win[0]]
    if len(win) > 1:
        reason = msg("{winners} share the win with {total} VP and {rats} in rats.",
                     winners=[who(s) for s in win], total=best.total, rats=best.rats)
    elif rescued:
        reason = msg("the plague kills everybody; {seat}, with the fewest rats ({rats}), counts "
                     "as the survivor and wins.", seat=who(win[0]), rats=best.rats)
    else:
        reason = msg("{seat} inherits the crown with {total} VP.", seat=who(win[0]), total=best.total)
    return Outcome(ranking=ranking, scores=scores, reason=reason)
