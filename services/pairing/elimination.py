"""Single and double elimination brackets with seeding and byes.

A bracket is a list of matches whose two slots name where their players come from: a
seed, the winner of an earlier match or (double elimination) its loser. Results are the
only input: the bracket is rebuilt from the seeding, the recorded winners and the drops,
so it survives a restart by construction.

- The bracket has the next power of two of places; the missing seeds are byes, which
  fall to the top seeds (standard seeding: 1 meets the last seed, 2 the one before...).
- A match with one side empty (a bye, a dropped player, the loser of a bye) is a
  walkover: the other side goes through without playing.
- A player who drops loses every match not yet decided (Bracket.drop).
- Double elimination: losers drop to the losers' bracket, crossed so that early
  rematches are avoided where the layout allows; the winners' champion meets the losers'
  champion in the grand final, and if the losers' champion wins it, a second final
  decides (the bracket reset), since only then has everyone lost twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .common import PlayerId


class _Unknown:
    """Marks a slot whose player is not known yet (an earlier match is unplayed)."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
Occupant = PlayerId | None | _Unknown  # None: nobody (a bye)


@dataclass(frozen=True)
class Slot:
    """Where a match's player comes from: seed index, or the winner/loser of a match."""

    kind: Literal["seed", "winner", "loser"]
    ref: int | str


@dataclass(frozen=True)
class BracketMatch:
    """One match of the bracket: its key (W2.1, L3.0, GF, GF2), side, round and slots."""

    key: str
    side: Literal["W", "L", "F"]
    round: int
    slots: tuple[Slot, Slot]
    stage: int  # players eliminated at a higher stage place better
    eliminates: bool  # the loser is out (False: drops to the losers' bracket)
    reset: bool = False  # the bracket-reset final: only played if the first final demands it


@dataclass
class Bracket:
    """A seeded elimination bracket and what has been decided in it."""

    kind: Literal["single", "double"]
    seeds: list[PlayerId]
    matches: list[BracketMatch]
    results: dict[str, PlayerId] = field(default_factory=dict)
    dropped: set[PlayerId] = field(default_factory=set)
    _forfeits: dict[PlayerId, str] = field(default_factory=dict, repr=False, compare=False)

    # ---------------------------------------------------------------- resolution

    def resolve(self) -> dict[str, tuple[Occupant, Occupant, Occupant, Occupant]]:
        """For each match: its two players, its winner and its loser (None: nobody)."""
        out: dict[str, tuple[Occupant, Occupant, Occupant, Occupant]] = {}
        self._forfeits: dict[PlayerId, str] = {}
        for m in self.matches:
            a, b = (self._slot(s, out) for s in m.slots)
            done = m.key in self.results
            for p in (a, b):
                if not done and isinstance(p, int) and p in self.dropped:
                    self._forfeits.setdefault(p, m.key)
            a = self._present(a, done)
            b = self._present(b, done)
            if m.reset:
                first = out[str(m.slots[0].ref)]
                if first[2] is UNKNOWN:
                    out[m.key] = (UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN)
                    continue
                if first[2] is None or first[2] == first[0] or first[3] is None:
                    # The winners' champion won the first final (or it was a walkover):
                    # the reset is not played.
                    out[m.key] = (None, None, first[2], None)
                    continue
            if a is UNKNOWN or b is UNKNOWN:
                out[m.key] = (a, b, UNKNOWN, UNKNOWN)
            elif a is None or b is None:
                out[m.key] = (a, b, b if a is None else a, None)
            elif done:
                w = self.results[m.key]
                out[m.key] = (a, b, w, b if w == a else a)
            else:
                out[m.key] = (a, b, UNKNOWN, UNKNOWN)
        return out

    def _slot(self, s: Slot, out: Mapping[str, tuple[Occupant, ...]]) -> Occupant:
        if s.kind == "seed":
            i = int(s.ref)
            return self.seeds[i] if i < len(self.seeds) else None
        res = out[str(s.ref)]
        return res[2] if s.kind == "winner" else res[3]

    def _present(self, p: Occupant, done: bool) -> Occupant:
        """A dropped player forfeits every match not already decided."""
        if not done and isinstance(p, int) and p in self.dropped:
            return None
        return p

    def playable(self) -> list[tuple[str, PlayerId, PlayerId]]:
        """Matches whose two players are known and that still need playing, in bracket order."""
        res = self.resolve()
        out = []
        for m in self.matches:
            a, b, w, _ = res[m.key]
            if isinstance(a, int) and isinstance(b, int) and w is UNKNOWN:
                out.append((m.key, a, b))
        return out

    def record(self, key: str, winner: PlayerId) -> None:
        """Record the winner of a playable match; ValueError if that is not one of its players."""
        playing = {k: (a, b) for k, a, b in self.playable()}
        if key not in playing:
            raise ValueError(f"match {key} is not waiting for a result")
        if winner not in playing[key]:
            raise ValueError(f"{winner} does not play match {key}")
        self.results[key] = winner

    def drop(self, player: PlayerId) -> list[str]:
        """Drop a player: they forfeit every match not yet decided.

        Walkovers already decided (a player through on a bye, say) are first written into
        the results, so that the drop cannot undo them; returns the keys so written, which
        the caller stores with the other results.
        """
        res = self.resolve()
        written = []
        for m in self.matches:
            w = res[m.key][2]
            if m.key not in self.results and not m.reset and isinstance(w, int):
                self.results[m.key] = w
                written.append(m.key)
        self.dropped.add(player)
        return written

    def finished(self) -> bool:
        """True once the champion is known."""
        return isinstance(self.champion(), int)

    def champion(self) -> Occupant:
        """The winner of the last match played (UNKNOWN while undecided)."""
        res = self.resolve()
        return res[self.matches[-1].key][2]

    def placements(self) -> dict[PlayerId, int]:
        """Place of every player out so far, and 1 for the champion (ties share places).

        Players still in count above everyone out: with four left of eight, those out in
        the first round share fifth place.
        """
        res = self.resolve()
        stage: dict[PlayerId, int] = {}
        by_key = {m.key: m for m in self.matches}
        for key, (_, _, _, loser) in res.items():
            m = by_key[key]
            if isinstance(loser, int) and m.eliminates:
                stage[loser] = m.stage
            elif m.reset and isinstance(res[key][2], int) and res[key][0] is None:
                # The reset was not needed: the first final's loser is out, second.
                first_loser = res[str(m.slots[0].ref)][3]
                if isinstance(first_loser, int):
                    stage[first_loser] = m.stage
        champ = self.champion()
        top = max((m.stage for m in self.matches), default=0) + 1
        if isinstance(champ, int):
            stage[champ] = top
        # A dropped player is out at the first match they forfeit (on the winners' side of a
        # double elimination, below every losers'-side loser); before any, below everyone.
        for p in self.dropped:
            key = self._forfeits.get(p)
            stage.setdefault(p, by_key[key].stage if key else 0)
        # Players still in the bracket rank above everyone already out.
        alive = sum(1 for p in self.seeds if p not in stage)
        places: dict[PlayerId, int] = {}
        for p, s in stage.items():
            places[p] = 1 + alive + sum(1 for q in stage.values() if q > s)
        return places

    def still_in(self) -> list[PlayerId]:
        """Players not yet eliminated (nor dropped), in seed order."""
        out = set(self.placements())
        return [p for p in self.seeds if p not in out]


# ---------------------------------------------------------------------- construction


def seed_positions(size: int) -> list[int]:
    """Seed indices (0 = top) in bracket order, so that 1 meets `size`, 2 meets `size`-1..."""
    order = [0]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n - 1 - s)]
    return order


def _size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return max(size, 2)


def _winners_bracket(n: int) -> tuple[list[BracketMatch], list[list[str]]]:
    """The winners' side: round 1 from the seeds, then winners of pairs of matches."""
    size = _size(n)
    pos = seed_positions(size)
    matches: list[BracketMatch] = []
    rounds: list[list[str]] = []
    keys = []
    for i in range(size // 2):
        key = f"W1.{i}"
        slots = (Slot("seed", pos[2 * i]), Slot("seed", pos[2 * i + 1]))
        matches.append(BracketMatch(key, "W", 1, slots, 1, True))
        keys.append(key)
    rounds.append(keys)
    r = 1
    while len(keys) > 1:
        r += 1
        nxt = []
        for i in range(len(keys) // 2):
            key = f"W{r}.{i}"
            slots = (Slot("winner", keys[2 * i]), Slot("winner", keys[2 * i + 1]))
            matches.append(BracketMatch(key, "W", r, slots, r, True))
            nxt.append(key)
        keys = nxt
        rounds.append(keys)
    return matches, rounds


def single_elimination(seeds: Sequence[PlayerId]) -> Bracket:
    """A single-elimination bracket for players in seed order (best first)."""
    if len(seeds) < 2:
        raise ValueError("an elimination needs at least two players")
    matches, _ = _winners_bracket(len(seeds))
    return Bracket("single", list(seeds), matches)


def double_elimination(seeds: Sequence[PlayerId]) -> Bracket:
    """A double-elimination bracket: winners' side, losers' side, final and possible reset."""
    if len(seeds) < 2:
        raise ValueError("an elimination needs at least two players")
    w_matches, w_rounds = _winners_bracket(len(seeds))
    # In double elimination a winners'-side loser is not out yet.
    matches = [BracketMatch(m.key, m.side, m.round, m.slots, 0, False) for m in w_matches]
    m_rounds = len(w_rounds)
    if m_rounds == 1:
        lb_champion = Slot("loser", w_rounds[0][0])
        stage = 0
    else:
        stage = 0
        lr = 0
        # Losers' round 1: the losers of winners' round 1, in pairs.
        lr += 1
        stage += 1
        prev: list[str] = []
        first = w_rounds[0]
        for i in range(len(first) // 2):
            key = f"L{lr}.{i}"
            slots = (Slot("loser", first[2 * i]), Slot("loser", first[2 * i + 1]))
            matches.append(BracketMatch(key, "L", lr, slots, stage, True))
            prev.append(key)
        for wr in range(1, m_rounds):
            # Minor round: survivors meet the losers dropping from winners' round wr+1,
            # in reverse (or half-rotated) order so they do not meet their last opponent.
            lr += 1
            stage += 1
            dropping = list(w_rounds[wr])
            dropping = dropping[::-1] if wr % 2 else _rotate_half(dropping)
            cur = []
            for i, (p, d) in enumerate(zip(prev, dropping, strict=True)):
                key = f"L{lr}.{i}"
                slots = (Slot("winner", p), Slot("loser", d))
                matches.append(BracketMatch(key, "L", lr, slots, stage, True))
                cur.append(key)
            prev = cur
            if len(prev) > 1:
                # Major round: the survivors play each other.
                lr += 1
                stage += 1
                cur = []
                for i in range(len(prev) // 2):
                    key = f"L{lr}.{i}"
                    slots = (Slot("winner", prev[2 * i]), Slot("winner", prev[2 * i + 1]))
                    matches.append(BracketMatch(key, "L", lr, slots, stage, True))
                    cur.append(key)
                prev = cur
        lb_champion = Slot("winner", prev[0])
    wb_champion = Slot("winner", w_rounds[-1][0])
    matches.append(BracketMatch("GF", "F", 1, (wb_champion, lb_champion), stage + 1, False))
    matches.append(
        BracketMatch(
            "GF2",
            "F",
            2,
            (Slot("winner", "GF"), Slot("loser", "GF")),
            stage + 1,
            True,
            reset=True,
        )
    )
    return Bracket("double", list(seeds), matches)


def _rotate_half(keys: list[str]) -> list[str]:
    h = len(keys) // 2
    return keys[h:] + keys[:h] if h else keys


def bracket_from(
    kind: str,
    seeds: Sequence[PlayerId],
    results: Mapping[str, PlayerId],
    dropped: Iterable[PlayerId],
) -> Bracket:
    """Rebuild a bracket from its stored seeding, results and drops."""
    b = single_elimination(seeds) if kind == "single" else double_elimination(seeds)
    b.results.update(results)
    b.dropped.update(dropped)
    return b
