"""Swiss pairing: players of equal score meet, nobody meets the same opponent twice while
that can be avoided, and the bye goes to the lowest-ranked player who has not had one.

Two-player games are paired by a maximum-weight matching (networkx's blossom algorithm)
whose weights encode, in strict order of priority: everyone paired; no rematch; the
smallest score differences (squared, by score group); within a score group the top half
against the bottom half; then who plays first. To stay fast with a thousand players the
graph holds only edges near each player's ideal opponent; when that graph has no perfect
matching without rematches the search widens, and only when the whole graph has none are
rematches admitted, as few as possible.

Multiplayer games seat tables by standing (the top players together), table sizes
balanced, then a local search swaps players between nearby tables to avoid seating the
same people together again, keeping the score spread at each table small.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .common import History, PlayerId, Round, Table, order_seats, table_sizes

# How far from a player's ideal opponent the matching looks first, then on a retry.
_WINDOWS = (6, 24, 200)


def pair_swiss(
    standing: Sequence[PlayerId],
    scores: Mapping[PlayerId, float],
    history: History,
    *,
    table_size: int = 2,
    min_size: int = 2,
) -> Round:
    """Pair the next Swiss round of the active players, given in standing order (best first)."""
    players = list(dict.fromkeys(standing))
    sizes, n_byes = table_sizes(len(players), table_size, min_size)
    if table_size == 2:
        return _pair_two(players, scores, history, n_byes)
    byes = _choose_byes(players, history, n_byes)
    rest = [p for p in players if p not in byes]
    tables = _seat_tables(rest, scores, history, sizes)
    return Round(tuple(Table(order_seats(t, history)) for t in tables), tuple(byes))


def _choose_byes(players: list[PlayerId], history: History, n: int) -> list[PlayerId]:
    """The n lowest-ranked players with the fewest byes so far (those without one first)."""
    if n == 0:
        return []
    bottom_up = list(reversed(players))
    ranked = sorted(range(len(bottom_up)), key=lambda i: (history.byes[bottom_up[i]], i))
    return [bottom_up[i] for i in ranked[:n]]


# ---------------------------------------------------------------------- two players


def _pair_two(
    players: list[PlayerId], scores: Mapping[PlayerId, float], history: History, n_byes: int
) -> Round:
    """Two-player Swiss round: a bye if the count is odd, the rest by weighted matching."""
    if n_byes == 0:
        pairs, _ = _match(players, scores, history)
        return Round(tuple(Table(order_seats(p, history)) for p in pairs))
    # The bye goes to the lowest-ranked player without one; should that force a rematch
    # that another choice avoids, the next candidate up takes it instead.
    bottom_up = list(reversed(players))
    order = sorted(range(len(bottom_up)), key=lambda i: (history.byes[bottom_up[i]], i))
    best: tuple[int, list[tuple[PlayerId, PlayerId]], PlayerId] | None = None
    fewest_byes = history.byes[bottom_up[order[0]]]
    for i in order[:8]:
        cand = bottom_up[i]
        if history.byes[cand] > fewest_byes:
            break
        pairs, rematches = _match([p for p in players if p != cand], scores, history)
        if best is None or rematches < best[0]:
            best = (rematches, pairs, cand)
        if rematches == 0:
            break
    assert best is not None
    _, pairs, bye = best
    return Round(tuple(Table(order_seats(p, history)) for p in pairs), (bye,))


def _match(
    players: list[PlayerId], scores: Mapping[PlayerId, float], history: History
) -> tuple[list[tuple[PlayerId, PlayerId]], int]:
    """A perfect matching of an even list of players in standing order; also its rematches.

    Score groups are paired from the top down, as in the Dutch system: each group, with
    the player floated down from the group above, is matched on its own; when its count
    is odd one player (preferably its lowest-ranked, never the one who just floated
    down if avoidable) floats down to the next group. A group that cannot be paired
    without a rematch floats down whole. Small matchings keep this fast; if the bottom
    group still cannot be paired, the whole field is matched at once, rematches allowed
    as few as possible.
    """
    # Equal scores must be contiguous for the group positions below.
    players = sorted(players, key=lambda p: -scores.get(p, 0))
    groups: list[list[PlayerId]] = []
    for p in players:
        if groups and scores.get(groups[-1][0], 0) == scores.get(p, 0):
            groups[-1].append(p)
        else:
            groups.append([p])
    found: list[tuple[PlayerId, PlayerId]] = []
    down: list[PlayerId] = []
    for k, grp in enumerate(groups):
        pool = down + grp
        last = k == len(groups) - 1
        if last and len(pool) % 2:
            break  # cannot happen for an even field; matched whole below
        pairs, rematches, floated = _match_all(
            pool,
            scores,
            history,
            allow_rematch=False,
            float_one=len(pool) % 2 == 1,
            protected=frozenset(down),
        )
        if rematches < 0:
            down = pool
            continue
        found.extend(pairs)
        down = [floated] if floated is not None else []
    else:
        if not down:
            return found, 0
    pairs, rematches, _ = _match_all(players, scores, history, allow_rematch=True)
    return pairs, rematches


def _match_all(
    players: list[PlayerId],
    scores: Mapping[PlayerId, float],
    history: History,
    *,
    allow_rematch: bool,
    float_one: bool = False,
    protected: frozenset[PlayerId] = frozenset(),
) -> tuple[list[tuple[PlayerId, PlayerId]], int, PlayerId | None]:
    """Match these players at once, leaving one to float down if `float_one`.

    Returns the pairs, the rematches among them (-1: none avoids a rematch and they are
    not allowed) and the player left over.
    """
    n = len(players)
    if n == 0:
        return [], 0, None
    groups = sorted({scores.get(p, 0) for p in players}, reverse=True)
    gidx = {s: i for i, s in enumerate(groups)}
    group = [gidx[scores.get(p, 0)] for p in players]
    start: dict[int, int] = {}
    size: dict[int, int] = {}
    for i, g in enumerate(group):
        start.setdefault(g, i)
        size[g] = size.get(g, 0) + 1
    pos = [i - start[group[i]] for i in range(n)]

    # Priorities as integer weights: each level outweighs every possible sum of the next.
    colour_w = 1
    fold_w = n + 1  # colour clashes add up to at most n/2
    group_w = fold_w * (2 * n * n + 1)  # fold deviations and the float choice stay below
    rematch_w = group_w * (len(groups) ** 2 * n + 1)
    refloat_w = rematch_w // 2  # floating the same player twice in a row
    top = rematch_w * (n + 1)
    dummy = n  # pairing with it means floating down

    def cost(i: int, j: int) -> int:
        if j == dummy:
            # Prefer the lowest-ranked to float, and not someone who just floated down.
            return fold_w * (n - 1 - i) + (refloat_w if players[i] in protected else 0)
        gi, gj = group[i], group[j]
        if gi == gj:
            half = size[gi] // 2
            fold = abs(abs(pos[j] - pos[i]) - half)
        else:
            # A player floating down meets the top of the next group: count the distance
            # from the bottom of the upper group plus from the top of the lower one.
            hi, lo = (i, j) if gi < gj else (j, i)
            fold = (size[group[hi]] - 1 - pos[hi]) + pos[lo]
        c = group_w * (gi - gj) ** 2 + fold_w * fold
        if _colour_clash(history, players[i], players[j]):
            c += colour_w
        if history.times_met(players[i], players[j]):
            c += rematch_w * history.times_met(players[i], players[j])
        return c

    nodes = n + 1 if float_one else n

    def solve(edges: set[tuple[int, int]]) -> list[tuple[int, int]]:
        # Imported when a round is paired, not when the bot starts (a fifth of a second).
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(nodes))
        g.add_weighted_edges_from((i, j, top - cost(i, j)) for i, j in edges)
        if float_one:
            g.add_weighted_edges_from((i, dummy, top - cost(i, dummy)) for i in range(n))
        m = nx.max_weight_matching(g, maxcardinality=True)
        return [tuple(sorted(e)) for e in m]

    def met(i: int, j: int) -> bool:
        return history.times_met(players[i], players[j]) > 0

    def done(
        pairs: list[tuple[int, int]],
    ) -> tuple[list[tuple[PlayerId, PlayerId]], PlayerId | None]:
        floated = next((players[i] for i, j in pairs if j == dummy), None)
        real = [(i, j) for i, j in pairs if j != dummy]
        return _as_players(players, real), floated

    for window in _WINDOWS:
        if window >= n:
            break
        edges = {e for e in _window_edges(n, group, pos, start, size, window) if not met(*e)}
        pairs = solve(edges)
        if 2 * len(pairs) == nodes:
            matched, floated = done(pairs)
            return matched, 0, floated
    every = {(i, j) for i in range(n) for j in range(i + 1, n)}
    pairs = solve({e for e in every if not met(*e)})
    if 2 * len(pairs) != nodes and not allow_rematch:
        return [], -1, None
    if 2 * len(pairs) != nodes:
        # No pairing avoids every rematch: admit them, as few as possible (the weights).
        pairs = solve(every)
    rematches = sum(1 for i, j in pairs if j != dummy and met(i, j))
    matched, floated = done(pairs)
    return matched, rematches, floated


def _as_players(
    players: list[PlayerId], pairs: list[tuple[int, int]]
) -> list[tuple[PlayerId, PlayerId]]:
    """Index pairs to player pairs, ordered by the better-placed player (top table first)."""
    return [(players[i], players[j]) for i, j in sorted(pairs)]


def _window_edges(
    n: int,
    group: list[int],
    pos: list[int],
    start: dict[int, int],
    size: dict[int, int],
    window: int,
) -> set[tuple[int, int]]:
    """Edges from each player to the neighbours in standing order and around the fold partner."""
    edges: set[tuple[int, int]] = set()
    for i in range(n):
        for j in range(i + 1, min(n, i + window + 1)):
            edges.add((i, j))
        g = group[i]
        half = size[g] // 2
        for target in (pos[i] + half, pos[i] - half):
            for d in range(-window, window + 1):
                q = target + d
                if 0 <= q < size[g]:
                    j = start[g] + q
                    if j != i:
                        edges.add((min(i, j), max(i, j)))
    return edges


def _colour_clash(history: History, a: PlayerId, b: PlayerId) -> bool:
    """Both players are due to play first (or both due to play second)."""
    da = history.firsts[a] * 2 - history.games[a]
    db = history.firsts[b] * 2 - history.games[b]
    return (da < 0 and db < 0) or (da > 0 and db > 0)


# ---------------------------------------------------------------------- multiplayer


def _seat_tables(
    players: list[PlayerId],
    scores: Mapping[PlayerId, float],
    history: History,
    sizes: list[int],
) -> list[list[PlayerId]]:
    """Seat players (standing order) at tables of the given sizes: by standing, then swaps."""
    tables: list[list[PlayerId]] = []
    i = 0
    for s in sizes:
        tables.append(players[i : i + s])
        i += s
    groups = sorted({scores.get(p, 0) for p in players}, reverse=True)
    gidx = {s: k for k, s in enumerate(groups)}
    rank = {p: k for k, p in enumerate(players)}
    g = {p: gidx[scores.get(p, 0)] for p in players}
    n = len(players)
    rematch_w = (len(groups) ** 2 + 1) * (n + 1) * 10

    def member_cost(p: PlayerId, others: list[PlayerId]) -> int:
        c = 0
        for q in others:
            if q != p:
                c += rematch_w * history.times_met(p, q) + (n + 1) * (g[p] - g[q]) ** 2
                c += abs(rank[p] - rank[q])
        return c

    def repeats() -> int:
        return sum(
            history.times_met(a, b) for t in tables for k, a in enumerate(t) for b in t[k + 1 :]
        )

    for reach in (2, 6, len(tables)):
        if repeats() == 0:
            break
        _improve(tables, member_cost, reach)
    return tables


def _improve(
    tables: list[list[PlayerId]],
    member_cost: Callable[[PlayerId, list[PlayerId]], int],
    reach: int,
) -> None:
    """Swap players between tables up to `reach` apart while that lowers the total cost."""
    # A table's cost is the sum over its pairs, so a swap changes only the pairs of the two
    # players moved: compare their costs with their table-mates before and after.
    for _ in range(50):
        changed = False
        for ti in range(len(tables)):
            for tj in range(ti + 1, min(len(tables), ti + reach + 1)):
                a_t, b_t = tables[ti], tables[tj]
                for x in range(len(a_t)):
                    for y in range(len(b_t)):
                        a, b = a_t[x], b_t[y]
                        rest_a = a_t[:x] + a_t[x + 1 :]
                        rest_b = b_t[:y] + b_t[y + 1 :]
                        before = member_cost(a, rest_a) + member_cost(b, rest_b)
                        after = member_cost(b, rest_a) + member_cost(a, rest_b)
                        if after < before:
                            a_t[x], b_t[y] = b, a
                            changed = True
        if not changed:
            return
