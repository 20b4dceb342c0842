"""Pieces on the board, money and cards: the small operations every effect is made of."""

from __future__ import annotations

from rules.ankh_morpork.board import ADJ, AREAS
from rules.ankh_morpork.model import DEMON, TROLL, AmState

MINIONS_EACH = 12
BUILDINGS_EACH = 6
TROLLS_IN_BOX = 3
DEMONS_IN_BOX = 4
# 35 coins of $1 and 17 of $5: the bank is what the players do not hold.
MONEY_IN_BOX = 35 + 17 * 5


def hand_limit(st: AmState, s: int) -> int:
    """Five, less each card stuck in front of the seat."""
    return max(0, 5 - len(st.stuck[s]))


def bank(st: AmState) -> int:
    """Money left in the bank."""
    return MONEY_IN_BOX - sum(st.money)


def collect(st: AmState, s: int, n: int) -> int:
    """The seat takes up to ``n`` from the bank; returns what it got."""
    got = max(0, min(n, bank(st)))
    st.money[s] += got
    return got


def pay_bank(st: AmState, s: int, n: int) -> int:
    """The seat pays up to ``n`` to the bank; returns what it paid."""
    paid = min(n, st.money[s])
    st.money[s] -= paid
    return paid


def transfer(st: AmState, src: int, dst: int, n: int) -> int:
    """``src`` gives up to ``n`` to ``dst``; returns the amount."""
    amt = min(n, st.money[src])
    st.money[src] -= amt
    st.money[dst] += amt
    return amt


def draw(st: AmState, s: int, n: int) -> list[str]:
    """The seat draws up to ``n`` cards; drawing the deck's last card marks the end."""
    got = st.deck[:n]
    if got:
        del st.deck[: len(got)]
        st.hands[s].extend(got)
        if not st.deck:
            st.deck_out = True
    return got


def refill(st: AmState, s: int) -> list[str]:
    """Draw up to the seat's hand limit."""
    need = hand_limit(st, s) - len(st.hands[s])
    return draw(st, s, need) if need > 0 else []


def discard_from_hand(st: AmState, s: int, c: str) -> None:
    """Put a card from the seat's hand on the discard pile."""
    st.hands[s].remove(c)
    st.discard.append(c)


# ------------------------------------------------------------------------ pieces


def count(st: AmState, a: int, p: int) -> int:
    """How many pieces of kind ``p`` are in area ``a``."""
    if p == TROLL:
        return st.trolls[a]
    if p == DEMON:
        return st.demons[a]
    return st.minions[a][p]


def all_minions(st: AmState, a: int) -> int:
    """Every minion in the area, trolls and demons included (the rulebook counts them as minions)."""
    return sum(st.minions[a]) + st.trolls[a] + st.demons[a]


def pieces_in(st: AmState, a: int) -> list[int]:
    """Kinds of piece present in area ``a``."""
    out = [s for s, k in enumerate(st.minions[a]) if k]
    if st.trolls[a]:
        out.append(TROLL)
    if st.demons[a]:
        out.append(DEMON)
    return out


def supply(st: AmState, s: int) -> int:
    """Minions the seat still has off the board."""
    return MINIONS_EACH - sum(row[s] for row in st.minions)


def building_supply(st: AmState, s: int) -> int:
    """Buildings the seat still has off the board."""
    return BUILDINGS_EACH - st.buildings.count(s)


def on_board(st: AmState, s: int) -> list[int]:
    """Areas with at least one of the seat's minions."""
    return [a for a in range(12) if st.minions[a][s]]


def add_piece(st: AmState, a: int, p: int, trouble: bool = True) -> None:
    """Put a piece in an area; a minion joining others brings trouble (unless told not to)."""
    if trouble and all_minions(st, a) > 0:
        st.trouble[a] = True
    if p == TROLL:
        st.trolls[a] += 1
    elif p == DEMON:
        st.demons[a] += 1
    else:
        st.minions[a][p] += 1


def remove_piece(st: AmState, a: int, p: int) -> None:
    """Take a piece out of an area; the area's trouble marker goes with it."""
    if p == TROLL:
        st.trolls[a] -= 1
    elif p == DEMON:
        st.demons[a] -= 1
    else:
        st.minions[a][p] -= 1
    st.trouble[a] = False


def move_piece(st: AmState, src: int, dst: int, p: int) -> None:
    """Move a piece: trouble leaves ``src``, and comes to ``dst`` if it holds a minion."""
    remove_piece(st, src, p)
    add_piece(st, dst, p)


def placement_areas(st: AmState, s: int, without: int = -1) -> list[int]:
    """Where the seat may place a minion: where it has one, or next to it; anywhere if none.

    ``without``: an area one of its minions is being taken back from (it no longer counts there).
    """
    have = {a for a in range(12) if st.minions[a][s] - (1 if a == without else 0) > 0}
    if not have:
        return list(range(12))
    ok = set(have)
    for a in have:
        ok |= ADJ[a]
    return sorted(ok)


def holder(st: AmState, a: int) -> int:
    """Who holds the area's city card (-1: nobody, or it was set aside)."""
    return -1 if st.card_out[a] else st.buildings[a]


def set_building(st: AmState, a: int, s: int) -> None:
    """The seat's building now stands in ``a``; its card comes to them this turn."""
    st.buildings[a] = s
    if not st.card_out[a] and a not in st.fresh:
        st.fresh.append(a)


def remove_building(st: AmState, a: int) -> None:
    """The building leaves ``a``; its card goes back beside the board."""
    st.buildings[a] = -1


def cost(a: int) -> int:
    """Building cost of an area."""
    return AREAS[a].cost
