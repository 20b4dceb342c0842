"""Per-card tests of the first half of the card list (ids 0001-0182, in the list's order).

Each case builds a small position (``gdm_cardtest``), plays the card's ability where it
matters, answers its choices, and asserts the exact change: amounts, targets, costs paid,
and nothing else changed. Static texts and cards without ability get tests of their own
below the table.
"""

from __future__ import annotations

import pytest

from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import flow as F
from rules.guerra_de_mitos import matching as M
from rules.guerra_de_mitos import plays as PL
from rules.guerra_de_mitos import running as R
from rules.guerra_de_mitos.model import GdmState, Use
from tests.rules import gdm_helpers as H
from tests.rules.gdm_cardtest import Case, E, Now, offered, run_case, use
from tests.rules.gdm_cardtest import Who as W
from tests.rules.gdm_cardtest import reveal as reveal_oracle
from tests.rules.gdm_coverage import cover, covers


def count(card: str, zone: str, power: int | None = None):  # type: ignore[no-untyped-def]
    """A check: exactly one instance of ``card`` in ``zone`` (with that power)."""

    def chk(st: GdmState, names: dict[str, int]) -> None:
        got = [c for c in st.cards.values() if c.card == card and c.zone == zone]
        assert len(got) == 1, got
        if power is not None:
            assert got[0].power == power

    return chk


def times(card: str, zone: str, n: int, power: int):  # type: ignore[no-untyped-def]
    """A check: ``n`` instances of ``card`` in ``zone``, each with ``power``."""

    def chk(st: GdmState, names: dict[str, int]) -> None:
        got = [c for c in st.cards.values() if c.card == card and c.zone == zone]
        assert len(got) == n and all(c.power == power for c in got), got

    return chk


def _fought(name: str):  # type: ignore[no-untyped-def]
    def prep(st: GdmState, names: dict[str, int]) -> None:
        st.cards[names[name]].fought = True

    return prep


def _minus_f(name: str, n: int):  # type: ignore[no-untyped-def]
    def prep(st: GdmState, names: dict[str, int]) -> None:
        st.cards[names[name]].f_turn = n

    return prep


def _pan_muted(seat: int):  # type: ignore[no-untyped-def]
    def chk(st: GdmState, names: dict[str, int]) -> None:
        pan = names[f"pan{seat}"]
        assert st.cards[pan].silenced or st.cards[pan].muted
        st2 = st.model_copy(deep=True)
        st2.phase, st2.actor, st2.stack = "influence", seat, []
        assert not PL.ability_allowed(st2, seat, pan, 0, "influence")

    return chk


def _muted(name: str):  # type: ignore[no-untyped-def]
    def chk(st: GdmState, names: dict[str, int]) -> None:
        c = st.cards[names[name]]
        assert c.muted == [0] or c.muted == list(range(len(c.muted))) and c.muted

    return chk


def _top_to_bottom(seat: int, card: str):  # type: ignore[no-untyped-def]
    def chk(st: GdmState, names: dict[str, int]) -> None:
        deck = st.players[seat].deck
        assert st.cards[deck[-1]].card == card and st.cards[deck[0]].card != card

    return chk


def _equipped(card: str, on: str):  # type: ignore[no-untyped-def]
    def chk(st: GdmState, names: dict[str, int]) -> None:
        gear = [st.cards[g].card for g in st.cards[names[on]].gear]
        assert card in gear, gear

    return chk


SEAT0_MORTAL_DISCARD = {"dead": W("0015", 0, "discard")}
TWO_FOES = {"foe2": W("0058", 1, None, 2)}

CASES: list[Case] = [
    # ------------------------------------------------------------ Japonesa
    Case("0001", "inf", {"r0": -2, "r1": -2}, pan=("0001", "0023")),
    Case(
        "0002",
        "inf",
        {"ally.tired": True, "ally.p": 1, "foe.p": -1},
        pan=("0002", "0023"),
        cast={"other": W("0039", 0, None, 2)},  # a Norse character of seat 0 is not offered
    ),
    Case("0003", "inf", {"foe.pm": -1}, pan=("0003", "0023")),
    Case(
        "0004",
        "conf",
        {"ally.zone": "discard", "foe.zone": "discard", "disc0": 1, "disc1": 1},
        cast={"god": W("0048", 0)},  # a god of seat 0 is no mortal to destroy
    ),
    Case("0005", "inf", {"src.p": -1, "r0": 2}),
    Case("0006", "conf", {"src.p": -1, "foe.zone": "pantheon"}),
    Case("0007", "conf", {"r0": 2}, cast={"home": W("0039", 0, "pantheon")}),  # 2 in the army
    Case(
        "0008",
        "conf",
        {"src.p": -1, "o0.0": 2},
        cast={"orc": W("0015", 0, "oracle", 1), "norse": W("0039", 0, "oracle", 1)},
    ),
    Case("0009", "inf", {"ally.f": 1}, cast={"other": W("0039", 0)}),
    Case("0010", "inf", {"src.p": -1, "src.tired": False}, idx=1, tired=True, power=2),
    Case("0011", "inf", {"ally.tired": False}, cast={"ally": W("0015", 0, None, 2, True)}),
    Case(
        "0012",
        "conf",
        {"src.zone": "battle"},
        src_zone="pantheon",
        prep=_fought("src"),
    ),
    Case(
        "0013",
        "conf",
        {"src.tired": True, "foe.tired": True, "foe2.tired": True},
        cast=TWO_FOES,
        picks=["foe"],
        offer={"foe", "foe2"},
    ),
    Case("0014", "inf", {"src.p": -1}, idx=1, check=count("tk-kitsune", "pantheon", 1)),
    Case("0016", "conf", {"foe.p": -1}, idx=1),
    Case("0017", "conf", {"foe.f": -2}),
    Case("0018", "conf", {"src.p": -1, "src.f": 2}),
    Case("0020", "inf", {"src.p": -1, "r1": -1}),
    Case("0021", "inf", {"ally.p": -2, "r0": 2}, picks=["ally"], offer={"src", "ally"}),
    # ------------------------------------------------------------ Nórdica
    Case("0022", "inf", {"o0.0": 2}, pan=("0022", "0003"), cast={"orc": W("0039", 0, "oracle", 0)}),
    Case(
        "0023",
        "inf",
        {"ally.f": 1},
        pan=("0023", "0003"),
        cast={"ally": W("0039", 0), "greek": W("0058", 0)},
    ),
    Case("0024", "inf", {"ally.tired": False}, cast={"ally": W("0039", 0, None, 2, True)}),
    Case(
        "0025",
        "inf",
        {"src.tired": True, "deck0": -1, "src.f": 3, "src.pm": 1, "mj.zone": "gear"},
        cast={"mj": W("0217", 0, "deck")},
        check=_equipped("0217", "src"),
    ),
    Case("0025", "conf", {"foe.tired": True}, idx=1),
    Case("0026", "conf", {"src.zone": "battle"}, src_zone="pantheon"),
    Case("0027", "conf", {"src.f": 1, "ally.f": 1}, cast={"ally": W("0039", 0)}),
    Case(
        "0028",
        "inf",
        {"src.p": -2, "dead.zone": "pantheon", "disc0": -1},
        cast=SEAT0_MORTAL_DISCARD,
    ),
    Case("0030", "inf", {"ally.p": 1}, picks=["ally"], offer={"src", "ally"}),
    Case("0031", "conf", {"foe.tired": True}),
    Case(
        "0032",
        "conf",
        {"foe.zone": "discard", "disc1": 1},
        cast={"foe": W("0039", 1, None, 0)},
    ),
    Case(
        "0033",
        "conf",
        {"src.p": -1, "ally.zone": "battle"},
        cast={"ally": W("0015", 0, "pantheon")},
    ),
    Case("0035", "inf", {"src.tired": False}, tired=True),
    Case("0036", "inf", {"foe.p": -1}),
    Case(
        "0037",
        "inf",
        {},
        cast={"c1": W("0265", 0, "deck"), "c0": W("0299", 0, "deck")},
        picks=[1],
        check=_top_to_bottom(0, "0299"),
    ),
    Case("0040", "conf", {"src.p": -2, "r0": 3}),
    Case(
        "0041",
        "inf",
        {"src.f": 1, "ally.f": 1},
        cast={"ally": W("0030", 0), "other": W("0039", 0)},
    ),
    # ------------------------------------------------------------ Griega
    Case(
        "0042",
        "conf",
        {"ally.p": 1, "ally.f": 1},
        pan=("0042", "0003"),
        cast={"ally": W("0058", 0)},
    ),
    Case(
        "0043",
        "inf",
        {"ally.f": 1},
        idx=1,
        pan=("0043", "0003"),
        cast={"axe": W("0224", 0, "gear:ally"), "foeaxe": W("0224", 1, "gear:foe")},
    ),
    Case("0044", "inf", {"foe.tired": True}),
    Case("0045", "inf", {"src.p": -1}, check=count("tk-espiritu", "pantheon", 1)),
    Case(
        "0046",
        "inf",
        {"ally.keys": frozenset({"ashigaru", "heroe"})},
        picks=[1, "ally"],
        check=lambda st, n: st.cards[n["ally"]].keys_turn == ["heroe"],
    ),
    Case(
        "0046",
        "inf",
        {"ally.keys": frozenset({"heroe", "guerrero"})},
        cast={"ally": W("0058", 0)},
        picks=[0, "ally"],
        note="greek-for-good",
        check=lambda st, n: st.cards[n["ally"]].keys_add == ["guerrero"],
    ),
    Case(
        "0047",
        "inf",
        {"src.tired": True, "deck0": -1, "hand0": 1, "tri.zone": "hand"},
        cast={"tri": W("0222", 0, "deck")},
        check=lambda st, n: st.cards[n["tri"]].zone == "hand",
    ),
    Case("0047", "conf", {"foe.p": -1}, idx=1),
    Case("0048", "inf", {"foe.p": -1}),
    Case("0049", "conf", {"foe.f": -1, "foe2.f": -1}, cast=TWO_FOES, picks=["foe"]),
    Case("0051", "inf", {"ally.f": 1}, cast={"ally": W("0058", 0), "other": W("0015", 0)}),
    Case("0052", "inf", {"ally.p": 2}),
    Case(
        "0053",
        "conf",
        {"src.tired": True, "ally.zone": "battle"},
        cast={"ally": W("0015", 0, "pantheon")},
    ),
    Case("0054", "conf", {"src.f": 1, "ally.f": 1}, cast={"ally": W("0039", 0)}),
    Case("0055", "conf", {"foe.p": -1}),
    Case(
        "0056",
        "inf",
        {"ally.f": 1},
        cast={"ally": W("0058", 0), "jp": W("0015", 0)},
        picks=["ally"],
        offer={"src", "ally"},
        check=lambda st, n: st.cards[n["ally"]].f_perm == 1,
    ),
    Case(
        "0057",
        "inf",
        {"ally.f": 1, "ally.pm": 1},
        cast={"ally": W("0058", 0), "jp": W("0015", 0)},
        picks=["ally"],
        check=_equipped("tk-arma", "ally"),
    ),
    Case(
        "0057",
        "inf",
        {"o0.0": 1},
        idx=1,
        cast={"smithy": W("0154", 0, "oracle", 0), "other": W("0166", 0, "oracle", 0)},
    ),
    Case("0060", "conf", {"foe.f": 2}, prep=_minus_f("foe", -2), picks=["foe"]),
    # ------------------------------------------------------------ Azteca
    Case("0061", "inf", {}, pan=("0061", "0001"), check=_pan_muted(1)),
    Case("0062", "inf", {"ally.p": -2, "r0": 2}, pan=("0062", "0003"), cast={"ally": W("0070", 0)}),
    Case(
        "0063",
        "inf",
        {"dead.zone": "oracle", "disc0": -1, "o0.0": Now(0)},
        cast=SEAT0_MORTAL_DISCARD,
        check=lambda st, n: st.players[0].oracles[-1].cards == [n["dead"]],
    ),
    Case(
        "0064",
        "conf",
        {"src.tired": True},
        check=lambda st, n: (
            st.flags.get("fight:actiontax:1") is True and "fight:actiontax:0" not in st.flags
        ),
    ),
    Case(
        "0066",
        "conf",
        {"foe.zone": "discard", "disc1": 1, "src.p": -2},
        picks=["foe"],
    ),
    Case(
        "0068",
        "inf",
        {"src.p": -2},
        check=lambda st, n: st.cards[n["foe"]].no_assign,
    ),
    Case("0069", "conf", {"ally.zone": "discard", "disc0": 1, "r0": 3}),
    Case("0070", "conf", {"r0": 1}),
    Case(
        "0071",
        "conf",
        {"ally.tired": False},
        cast={"ally": W("0070", 0, None, 2, True), "jp": W("0015", 0, None, 2, True)},
    ),
    Case(
        "0072",
        "conf",
        {"src.p": -1, "foe.f": -2, "foe.pm": 1, "disc1": 1, "axe.zone": "discard"},
        cast={"axe": W("0224", 1, "gear:foe")},
    ),
    Case(
        "0073",
        "inf",
        {"foe.p": -1, "ally.p": 1},
        cast={"ally": W("0070", 0)},
        picks=["ally"],
        offer={"src", "ally"},
    ),
    Case(
        "0074",
        "inf",
        {"src.p": -1, "hand0": 1, "deck0": -1, "d.zone": "hand"},
        cast={"d": W("0265", 0, "deck")},
    ),
    Case("0075", "conf", {"src.p": -1, "src.f": -1, "ally.f": -1, "foe.f": -1}),
    Case("0077", "conf", {"src.tired": False}, tired=True),
    Case("0078", "conf", {"foe.tired": True}),
    Case("0079", "conf", {"ally.p": 1}, cast={"ally": W("0070", 0)}, picks=["ally"]),
    # ------------------------------------------------------------ Egipcia
    Case(
        "0080",
        "inf",
        {"ev.zone": "oracle", "disc1": -1},
        pan=("0080", "0003"),
        cast={"orc": W("0097", 0, "oracle-down", 0), "ev": W("0127", 1, "discard")},
        check=lambda st, n: st.players[0].oracles[0].cards[-1] == n["ev"],
    ),
    Case(
        "0081",
        "inf",
        {"r0": -2, "disc1": 2, "theirs.zone": "discard", "o1.0": Now(None)},
        pan=("0081", "0003"),
        cast={"mine": W("0097", 0, "oracle", 0), "theirs": W("0097", 1, "oracle-down", 0)},
        prep=lambda st, n: (
            H.on_deck(st, [], 1)
            or st.players[1].oracles[0].cards.append(B.new_inst(st, "0015", 1, "oracle"))
        ),
        picks=["o1.0"],
        check=lambda st, n: st.players[1].oracles == [],
    ),
    Case(
        "0082",
        "inf",
        {"ally.tired": True, "ally.p": -2, "src.p": 2, "src.f": 2},
    ),
    Case(
        "0083",
        "conf",
        {"src.p": -3},
        power=3,
        check=times("tk-criatura", "battle", 3, 1),
    ),
    Case("0084", "inf", {"ally.p": 1}, picks=["ally"]),
    Case(
        "0085",
        "conf",
        {"src.f": 2},
        cast={
            "r1": W("0166", 0, "pantheon"),
            "r2": W("0149", 0, "pantheon"),
            "e": W("0166", 1, "pantheon"),
        },
    ),
    Case(
        "0086",
        "inf",
        {"clio.tired": True},
        cast={"foe": W("0059", 1), "clio": W("0190", 1, "gear:foe")},
    ),
    Case(
        "0087",
        "inf",
        {"res.tired": True},
        cast={"res": W("0166", 1, "pantheon"), "mine": W("0166", 0, "pantheon")},
    ),
    Case("0088", "inf", {"r0": -1, "r1": -1}),
    Case("0089", "conf", {"foe.p": -2}, picks=["foe"]),
    Case(
        "0090",
        "conf",
        {"src.p": -2, "ally.p": 2},
        power=2,
        picks=["ally", "ally"],
    ),
    Case(
        "0091",
        "inf",
        {"src.p": -1, "o0.0": 2},
        cast={"res": W("0166", 0, "oracle", 0)},
    ),
    Case(
        "0093",
        "inf",
        {"o1.0": -2},
        cast={"orc": W("0039", 1, "oracle", 3), "empty": W("0015", 0, "oracle", 0)},
    ),
    Case(
        "0094",
        "inf",
        {"src.p": -1, "orc.zone": "pantheon", "orc.p": Now(0), "o0.0": Now(None)},
        cast={"orc": W("0015", 0, "oracle", 0)},
    ),
    Case(
        "0095",
        "conf",
        {"ally.p": -1, "foe.p": -1},
        cast={"big": W("0025", 1, None, 3)},
    ),
    Case(
        "0096",
        "inf",
        {"src.p": 2},
        power=1,
        cast={"r1": W("0166", 0, "pantheon"), "r2": W("0149", 0, "pantheon")},
    ),
    Case(
        "0099",
        "inf",
        {"disc1": 1, "ev.zone": "discard", "o1.0": Now(None)},
        cast={"ev": W("0127", 1, "oracle-down", 0), "mine": W("0015", 0, "oracle-down", 0)},
        picks=["o1.0"],
        check=lambda st, n: "0127" in st.players[0].peeks,
    ),
    # ------------------------------------------------------------ Primigenia
    Case("0100", "inf", {}, pan=("0100", "0003"), check=count("tk-sectario", "pantheon", 0)),
    Case(
        "0101",
        "inf",
        {"res.tired": True},
        pan=("0101", "0003"),
        cast={"res": W("0166", 1, "pantheon")},
    ),
    Case(
        "0102",
        "inf",
        {"ally.zone": "discard", "disc0": 1},
        pan=("0003", "0001"),
        picks=["pan1"],
        check=_pan_muted(1),
    ),
    Case(
        "0103",
        "inf",
        {"ally.zone": "discard", "disc0": 1},
        cast={"foe": W("0059", 1), "clio": W("0190", 1, "gear:foe")},
        check=_muted("clio"),
    ),
    Case(
        "0104",
        "inf",
        {"ally.zone": "discard", "disc0": 1},
        cast={"foe": W("0036", 1)},
        picks=["foe"],
        check=_muted("foe"),
    ),
    Case(
        "0105",
        "inf",
        {
            "ally.zone": "discard",
            "disc0": 1,
            "foe.f": -2,
            "foe.pm": 1,
            "disc1": 1,
            "axe.zone": "discard",
        },
        cast={"axe": W("0224", 1, "gear:foe")},
    ),
    Case(
        "0106",
        "inf",
        {"foe.tired": True},
        cast={"foe": W("0020", 1)},
        picks=["foe"],
        offer={"src", "foe"},
    ),
    Case("0107", "inf", {"foe.f": -1}, cast={"foe": W("0048", 1)}),
    Case(
        "0108",
        "inf",
        {"ally.zone": "discard", "disc0": 1},
        cast={"res": W("0166", 1, "pantheon")},
        check=_muted("res"),
    ),
    Case("0109", "inf", {"o0.0": 1}, cast={"orc": W("0115", 0, "oracle", 0)}),
    Case(
        "0110",
        "inf",
        {},
        cast={"axe": W("0224", 0, "hand")},
        check=lambda st, n: (
            B.cost(st, 0, n["axe"], n["ally"]) == 1 and B.cost(st, 1, n["axe"], n["foe"]) == 2
        ),
    ),
    Case("0111", "inf", {"ally.tired": False}, cast={"ally": W("0114", 0, None, 2, True)}),
    Case(
        "0115",
        "conf",
        {"src.p": -1, "ally.zone": "battle"},
        cast={"ally": W("0015", 0, "pantheon")},
    ),
    Case("0116", "conf", {"ally.f": 1}, cast={"ally": W("0113", 0), "other": W("0015", 0)}),
    Case(
        "0118",
        "conf",
        {"foe.zone": "discard", "disc1": 1, "src.f": 1},
        cast={"foe": W("0039", 1, None, 0)},
    ),
    # ------------------------------------------------------------ Eventos
    Case("0119", "event", {"ally.f": 1}, cast={"ally": W("0039", 0)}),
    Case(
        "0120",
        "event",
        {},
        cast={"god": W("0048", 1, "pantheon", 3)},
        check=lambda st, n: (
            st.flags.get("no_god_abilities")
            and not PL.ability_allowed(st, 1, n["god"], 0, "influence")
        ),
    ),
    Case(
        "0121",
        "event",
        {
            "ally.keys": frozenset({"loco"}),
            "foe.keys": frozenset({"loco"}),
            "god.keys": frozenset({"dios", "loco"}),
            "b.keys": frozenset({"berserker", "guerrero"}),
        },
        cast={"god": W("0048", 1, "pantheon", 3), "b": W("0039", 0, "battle")},
    ),
    Case(
        "0122",
        "event",
        {},
        cast={"m": W("0036", 1, "pantheon", 3)},
        check=lambda st, n: not PL.ability_allowed(st, 1, n["m"], 0, "influence"),
    ),
    Case(
        "0123",
        "event",
        {},
        cast={"yoroi": W("0236", 1, "gear:foe")},
        check=lambda st, n: (
            st.flags.get("no_equip_abilities")
            and not PL.ability_allowed(st, 1, n["yoroi"], 0, "influence")
        ),
    ),
    Case("0124", "event", {"o0.0": 2}, cast={"orc": W("0015", 0, "oracle", 0)}),
    Case(
        "0125",
        "event",
        {"small.tired": True, "esmall.tired": True},
        cast={"small": W("0019", 0), "esmall": W("0038", 1)},
    ),
    Case("0126", "event", {"ally.p": 1, "b.p": 1}, cast={"b": W("0039", 0, "battle")}),
    Case("0127", "event", {"r0": 3}),
    Case("0128", "event", {"ally.p": -2, "r0": 2}),
    Case("0129", "event", {"ally.p": 2}, cast={"ally": W("0015", 0, None, 1)}),
    Case("0130", "event", {"ally.f": -1, "foe.f": -1}),
    Case(
        "0131",
        "event",
        {},
        check=lambda st, n: not B.destroyable(st, n["ally"]) and not B.destroyable(st, n["foe"]),
    ),
    Case(
        "0132",
        "event",
        {"ally.tired": True, "foe.tired": True},
        cast={"jp": W("0019", 1)},
        picks=["ally"],
    ),
    Case(
        "0133",
        "event",
        {
            "ally.zone": "discard",
            "disc0": 1,
            "hand0": 3,
            "deck0": -3,
            "d1.zone": "hand",
            "d2.zone": "hand",
            "d3.zone": "hand",
        },
        cast={f"d{i}": W("0265", 0, "deck") for i in range(4)},
    ),
    Case(
        "0134",
        "event",
        {"r.tired": True, "er.tired": True},
        cast={"r": W("0166", 0, "pantheon"), "er": W("0166", 1, "pantheon")},
    ),
    Case(
        "0135",
        "event",
        {"foe.zone": "discard", "disc1": 1},
        picks=["foe"],
        cast={"g": W("0048", 1)},
    ),
    Case(
        "0136",
        "event",
        {"ally.p": -1, "b.p": -1, "r0": 2},
        cast={"b": W("0039", 0, "battle", 3)},
    ),
    Case("0137", "event", {"o0.0": 2}, cast={"res": W("0166", 0, "oracle", 0)}),
    Case("0138", "event", {"foe.tired": True, "foe.p": 2}, cast={"foe": W("0048", 1)}),
    Case("0139", "event", {"ally.p": -1, "foe.p": -1}),
    Case("0141", "event", {"r0": -1, "r1": -1}),
    # ------------------------------------------------------------ Recursos
    Case("0142", "conf", {"src.tired": True, "foe.p": -1}),
    Case("0143", "inf", {"src.tired": True, "foe.f": -1}),
    Case(
        "0144",
        "inf",
        {"src.tired": True, "hand0": 1, "deck0": -1, "d.zone": "hand"},
        cast={"d": W("0265", 0, "deck")},
    ),
    Case("0145", "inf", {"src.tired": True, "foe.p": -2}, picks=["foe"]),
    Case(
        "0146",
        "inf",
        {
            "src.tired": True,
            "hand0": 1,
            "deck0": -2,
            "disc0": 1,
            "h.zone": "discard",
            "d1.zone": "hand",
            "d2.zone": "hand",
        },
        cast={"h": W("0265", 0, "hand"), "d1": W("0299", 0, "deck"), "d2": W("0299", 0, "deck")},
    ),
    Case("0147", "conf", {"src.tired": True, "foe.p": -1}),
    Case(
        "0148",
        "inf",
        {"src.tired": True, "r0": 2, "ally.f": -2, "ally.pm": 1, "disc0": 1, "axe.zone": "discard"},
        cast={"axe": W("0224", 0, "gear:ally")},
    ),
    Case("0149", "inf", {"src.tired": True, "r0": 2}),
    Case(
        "0150",
        "inf",
        {"src.tired": True},
        cast={"orc": W("0015", 1, "oracle-down", 0)},
        check=lambda st, n: st.players[1].oracles[0].up,
    ),
    Case(
        "0151",
        "inf",
        {"src.tired": True, "r0": 1},
        cast={"theirs": W("0166", 1, "pantheon")},
        check=lambda st, n: not st.cards[n["theirs"]].tired,
    ),
    Case(
        "0152",
        "inf",
        {"src.tired": True, "ally.tired": False},
        cast={"ally": W("0015", 0, None, 2, True)},
    ),
    Case("0153", "conf", {"src.tired": True, "ally.f": 1}),
    Case("0154", "inf", {"src.tired": True, "ally.f": 1}, check=_equipped("tk-arma1", "ally")),
    Case("0155", "inf", {"src.tired": True, "ally.p": -1, "r0": 1}),
    Case("0155", "inf", {"src.tired": True, "ally.p": 1, "r0": -1}, idx=1),
    Case("0156", "inf", {"src.tired": True, "o0.0": 2}, cast={"orc": W("0048", 0, "oracle", 0)}),
    Case(
        "0157",
        "inf",
        {"src.tired": True, "ally.pm": 1},
        cast={"ally": W("0019", 0), "other": W("0015", 0)},
        check=lambda st, n: st.cards[n["ally"]].pm_perm == 1,
    ),
    Case("0158", "inf", {"src.tired": True, "ally.keys": frozenset({"ashigaru", "loco"})}),
    Case("0158", "inf", {"src.tired": True, "ally.f": 1}, idx=1, cast={"ally": W("0113", 0)}),
    Case(
        "0159",
        "inf",
        {"src.tired": True, "hand0": 1, "deck0": -1, "clio.zone": "hand"},
        cast={"clio": W("0190", 0, "deck")},
    ),
    Case(
        "0160",
        "inf",
        {"src.tired": True, "ally.pm": -2, "foe.pm": -2},
        check=lambda st, n: st.cards[n["foe"]].pm_round == -2,
    ),
    Case("0161", "inf", {"src.tired": True, "foe.pm": -1}),
    Case(
        "0162",
        "inf",
        {"src.tired": True, "o1.0": -1},
        cast={"orc": W("0039", 1, "oracle", 2)},
        picks=["orc"],
        offer={"ally", "foe", "orc"},
    ),
    Case("0163", "inf", {"src.tired": True, "ally.p": -1, "r0": 3}),
    Case("0164", "inf", {"src.tired": True, "ally.p": 2}),
    Case("0165", "inf", {"src.tired": True, "ally.p": 1}, cast={"god": W("0048", 0)}),
    Case("0166", "inf", {"src.tired": True, "r0": 1}),
    Case("0167", "inf", {"src.tired": True, "r1": -1}),
    Case(
        "0168",
        "inf",
        {"src.tired": True, "o1.0": -2},
        cast={"orc": W("0039", 1, "oracle", 2)},
        prep=lambda st, n: (
            st.players[1].oracles[0].cards.append(B.new_inst(st, "0015", 1, "oracle"))
        ),
        picks=[1],
        check=lambda st, n: st.players[1].oracles[0].cards[-1] == n["orc"],
    ),
    Case(
        "0169",
        "conf",
        {"src.tired": True, "ally.p": 1, "b.p": 1},
        cast={"b": W("0039", 0, "battle"), "home": W("0039", 0, "pantheon")},
    ),
    Case(
        "0170",
        "inf",
        {"res.zone": "pantheon", "o0.0": Now(None), "res.p": Now(0)},
        cast={"res": W("0149", 0, "oracle", 3)},
        check=lambda st, n: st.cards[n["res"]].power == 0 and st.players[0].oracles == [],
    ),
    Case("0171", "inf", {"src.tired": True, "god.p": 1}, cast={"god": W("0048", 0)}),
    Case(
        "0172",
        "inf",
        {"src.tired": True},
        check=lambda st, n: "next_event_void" in st.lasting,
    ),
    Case(
        "0173",
        "inf",
        {"ally.f": -2, "ally.pm": 1, "b.f": 2, "b.pm": -1},
        cast={"axe": W("0224", 0, "gear:ally"), "b": W("0039", 0)},
    ),
    Case(
        "0174",
        "inf",
        {"src.tired": True, "ally.f": 1, "foe.f": 1},
        cast={"ally": W("0058", 0), "foe": W("0058", 1)},
        picks=["ally", "foe"],
    ),
    Case("0175", "inf", {"src.tired": True, "r0": 2}, cast={"r": W("0166", 0, "pantheon")}),
    # ------------------------------------------------------------ Neutral
    Case("0178", "inf", {"foe.pm": -2}, idx=2, pan=("0178", "0003"), cast={"foe": W("0048", 1)}),
    Case("0179", "inf", {"src.f": 1, "ally.f": 1}, cast={"ally": W("0114", 0)}),
    Case("0181", "conf", {"src.p": -1, "foe.zone": "pantheon"}),
    Case("0182", "inf", {}, check=lambda st, n: st.flags.get("no_control:0") is True),
]
# The caps of the counted amounts ("máximo 5", "máximo 3"): one more than the cap in play.
SIX = {f"c{i}": W("0097", 0, "battle", 1) for i in range(5)}
FOUR_RES = {f"r{i}": W("0166", 0, "pantheon") for i in range(4)}
CASES += [
    Case("0007", "conf", {"r0": 5}, cast=SIX, note="cap"),
    Case("0085", "conf", {"src.f": 3}, cast=FOUR_RES, note="cap"),
    Case("0096", "inf", {"src.p": 3}, power=1, cast=FOUR_RES, note="cap"),
    Case("0175", "inf", {"src.tired": True, "r0": 3}, cast=FOUR_RES, note="cap"),
]
cover([c.card for c in CASES], __name__ + ".test_card_case")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_card_case(case: Case) -> None:
    """The card's ability, played where it matters, does exactly what it says."""
    run_case(case)


# ---------------------------------------------------------------- cards without ability

VANILLA_STATS = {
    # id: (cost, F, PM, keys), as printed
    "0015": (1, 1, 3, {"ashigaru"}),
    "0019": (0, 0, 2, {"invocador", "ashigaru"}),
    "0038": (0, 0, 2, {"invocador", "volva"}),
    "0039": (1, 1, 3, {"berserker", "guerrero"}),
    "0058": (1, 1, 3, {"heroe", "guerrero"}),
    "0059": (0, 0, 2, {"invocador"}),
    "0076": (1, 1, 3, {"guerrero", "aguila"}),
    "0097": (0, 0, 2, {"esclavo"}),
    "0098": (1, 1, 3, {"reina", "invocador"}),
    "0113": (0, 0, 2, {"loco", "invocador"}),
    "0114": (2, 3, 2, {"criatura"}),
    "0117": (1, 1, 3, {"loco", "sonador"}),
}
cover(VANILLA_STATS, __name__ + ".test_vanilla_character")
PANTHEON_OF = {
    "japonesa": "0001",
    "nordica": "0022",
    "griega": "0042",
    "azteca": "0061",
    "egipcia": "0080",
    "primigenia": "0100",
}


@pytest.mark.parametrize("cid", sorted(VANILLA_STATS))
def test_vanilla_character(cid: str) -> None:
    """Put into play for its cost: its printed F, PM and keys, no text, nothing to use."""
    from rules.guerra_de_mitos.cards import card
    from rules.guerra_de_mitos.facts import facts
    from rules.guerra_de_mitos.model import Enter

    cost, f, pm, keys = VANILLA_STATS[cid]
    assert card(cid).text_es == card(cid).text_en == ""
    st = H.blank(2, pantheons=(PANTHEON_OF[facts(cid).myth or ""], "0003"))
    st.phase, st.actor = "transfer", 0
    st.players[0].moves = 0
    i = H.oracle(st, [cid], 0, power=cost)
    if cost:
        st.players[0].oracles[i].power = cost - 1
        assert Enter(oracle=i) not in E.legal_actions(st, 0)
    st.players[0].oracles[i].power = cost + 4
    st, _ = E.apply(st, 0, Enter(oracle=i))
    u = next(u for u, c in st.cards.items() if c.card == cid)
    assert st.cards[u].zone == "pantheon" and st.cards[u].power == min(cost + 4, pm)
    assert (B.strength(st, u), B.max_power(st, u), B.keys(st, u)) == (f, pm, keys)
    st.phase = "influence"
    assert not [a for a in E.legal_actions(st, 0) if isinstance(a, Use) and a.uid == u]


# ---------------------------------------------------------------- static texts


@covers("0010")
def test_masakado_costs_one_less_under_takamagahara() -> None:
    st = H.blank(2, pantheons=("0002", "0001"))
    m0 = H.oracle(st, ["0010"], 0, power=1)
    m1 = H.oracle(st, ["0010"], 1, power=1)
    assert B.cost(st, 0, st.players[0].oracles[m0].cards[0]) == 1
    assert B.cost(st, 1, st.players[1].oracles[m1].cards[0]) == 2
    assert F.can_enter(st, 0, m0) and not F.can_enter(st, 1, m1)


@covers("0014")
def test_inari_gives_her_ashigaru_one_more_maximum_power() -> None:
    st = H.blank(2)
    mine, theirs = H.put(st, "0015", 0), H.put(st, "0015", 1)
    other = H.put(st, "0039", 0)
    assert B.max_power(st, mine) == 3
    H.put(st, "0014", 0, power=3)
    assert (B.max_power(st, mine), B.max_power(st, theirs), B.max_power(st, other)) == (4, 3, 3)


@covers("0016")
def test_houou_cannot_be_destroyed() -> None:
    st = H.blank(2)
    sigrun = H.put(st, "0032", 0, "battle", power=3)
    houou = H.put(st, "0016", 1, "battle", power=0)  # exhausted, yet indestructible
    H.fight(st)
    assert not B.destroyable(st, houou)
    assert not offered(st, sigrun)
    other = H.put(st, "0039", 1, "battle", power=0)
    st = use(st, sigrun)
    assert st.cards[houou].zone == "battle" and st.cards[other].zone == "discard"


@covers("0029")
def test_dvrger_cannot_be_sent_off_the_battlefield() -> None:
    st = H.blank(2)
    kurami = H.put(st, "0006", 0, "battle", power=3)
    dvrger = H.put(st, "0029", 1, "battle", power=2)
    H.fight(st)
    assert not offered(st, kurami)
    other = H.put(st, "0039", 1, "battle", power=2)
    st = use(st, kurami)
    assert st.cards[dvrger].zone == "battle" and st.cards[other].zone == "pantheon"


@covers("0034")
def test_fenrir_carries_no_weapon() -> None:
    from rules.guerra_de_mitos.model import Equip

    st = H.blank(2)
    fenrir = H.put(st, "0034", 0, power=5)
    axe, yoroi = H.in_hand(st, "0224"), H.in_hand(st, "0235")
    legal = E.legal_actions(st, 0)
    assert Equip(uid=axe, target=fenrir) not in legal
    assert Equip(uid=yoroi, target=fenrir) in legal


@covers("0043")
def test_atlantida_loses_one_at_the_end_of_reorganisation() -> None:
    st = H.blank(2, pantheons=("0043", "0003"))
    F.reorganise(st)
    assert (st.players[0].reserve, st.players[1].reserve) == (19, 20)


@covers("0065")
def test_arvad_alone_has_no_strength() -> None:
    st = H.blank(2)
    arvad = H.put(st, "0065", 0, "battle", power=2)
    H.fight(st)
    assert B.strength(st, arvad) == 0 and B.army(st, 0) == 0
    H.put(st, "0097", 0, "battle", power=1)
    assert B.strength(st, arvad) == 4 and B.army(st, 0) == 4


@covers("0112")
def test_howard_takes_invocations_as_if_he_had_three_more_pm() -> None:
    st = H.blank(2)
    howard, antonio = H.put(st, "0112", 0, power=1), H.put(st, "0113", 0, power=2)
    drug = H.in_hand(st, "0208")  # -3PM
    assert B.can_carry(st, drug, howard) and not B.can_carry(st, drug, antonio)


@covers("0140")
def test_akher_brings_a_resource_to_the_top_of_its_oracle() -> None:
    st = H.blank(2)
    i = H.oracle(st, ["0140", "0015", "0166", "0039"], 0, power=2, up=False)
    st = reveal_oracle(st, 0, i)
    o = st.players[0].oracles[i]
    assert st.cards[o.cards[0]].card == "0166" and o.up and o.power == 2
    assert sorted(st.cards[u].card for u in o.cards[1:]) == ["0015", "0039"]
    assert [st.cards[u].card for u in st.players[0].discard] == ["0140"]


@covers("0176")
def test_mercado_de_tebas_makes_weapons_cheaper() -> None:
    st = H.blank(2)
    H.put(st, "0176", 0)
    a, b = H.put(st, "0039", 0, power=3), H.put(st, "0039", 1, power=3)
    axe, yoroi = H.in_hand(st, "0224"), H.in_hand(st, "0235")
    assert (B.cost(st, 0, axe, a), B.cost(st, 1, axe, b), B.cost(st, 0, yoroi, a)) == (1, 2, 2)


@covers("0177")
def test_inframundo_demons_cost_two_less() -> None:
    st = H.blank(2, pantheons=("0177", "0003"))
    tengu = H.oracle(st, ["0020"], 0, power=1)  # a Demon of cost 3
    nobu = H.oracle(st, ["0015"], 0, power=0)
    assert B.cost(st, 0, st.players[0].oracles[tengu].cards[0]) == 1
    assert B.cost(st, 0, st.players[0].oracles[nobu].cards[0]) == 1
    assert F.can_enter(st, 0, tengu) and not F.can_enter(st, 0, nobu)


@covers("0178")
def test_la_orden_gains_nothing_and_its_gods_have_less_pm() -> None:
    st = H.blank(2, pantheons=("0178", "0003"))
    rok = H.put(st, "0166", 0)
    god, theirs = H.put(st, "0048", 0), H.put(st, "0048", 1)
    assert (B.max_power(st, god), B.max_power(st, theirs)) == (4, 6)
    st = use(st, rok)
    assert st.players[0].reserve == 20 and st.cards[rok].tired


# ---------------------------------------------------------------- cards with code of their own


def _fight_table() -> GdmState:
    st = H.blank(2)
    H.fight(st)
    return st


@covers("0050")
def test_puk_borrows_an_enemy_until_his_next_action() -> None:
    from rules.guerra_de_mitos.model import Pass

    st = _fight_table()
    puk = H.put(st, "0050", 0, "battle", power=3)
    surtur = H.put(st, "0016", 1, "battle", power=3)  # Houou: CONFRONTATION, an enemy loses 1P
    mine = H.put(st, "0039", 0, "battle", power=2)
    milo = H.put(st, "0097", 1, "battle", power=2)
    st = pick(use(st, puk), surtur)
    assert st.cards[puk].power == 2
    assert st.cards[surtur].ctrl == 0 and B.army(st, 0) == 0 + 2 + 1 and B.army(st, 1) == 0
    # seat 1 cannot use its own character meanwhile
    assert not PL.ability_allowed(st, 1, surtur, 1, "confrontation")
    st, _ = E.apply(st, 1, Pass())
    # the borrowed character's ability is seat 0's next action; then it goes back
    st = use(st, surtur, 1)  # "an enemy character" is now one of seat 1's: Milo
    assert st.cards[milo].power == 1 and st.cards[mine].power == 2
    assert st.cards[surtur].ctrl == 1 and not st.cards[surtur].borrowed


@covers("0050", "0328")
def test_borrowed_characters_go_back_before_the_resolution() -> None:
    from rules.guerra_de_mitos.model import Pass

    st = _fight_table()
    freya = H.in_hand(st, "0328")
    H.put(st, "0039", 0, "battle", power=2)
    big = H.put(st, "0025", 1, "battle", power=5)  # Thor, 4F
    st = use(st, freya)
    assert st.cards[big].ctrl == 0 and not B.destroyable(st, big)
    st, _ = E.apply(st, 1, Pass())
    st, _ = E.apply(st, 0, Pass())
    # resolution: Thor fought for seat 1 again: 4 against 1, seat 0 loses 3
    assert st.cards[big].ctrl == 1 and st.players[0].reserve == 17


@covers("0182")
def test_couger_stops_puk() -> None:
    st = H.blank(2)
    couger = H.put(st, "0182", 0, power=2)
    st = use(st, couger)
    for flags in (dict(st.flags), {}):
        st2 = st.model_copy(deep=True)
        st2.flags = flags
        puk = H.put(st2, "0050", 1, "battle", power=3)
        H.put(st2, "0039", 0, "battle", power=2)
        H.fight(st2)
        st2.fight.turn = 1  # type: ignore[union-attr]
        assert offered(st2, puk, 0, seat=1) == (not flags)


def pick(st: GdmState, *values: int) -> GdmState:
    """Answer the pending choices with these cards or numbers, in order."""
    from rules.guerra_de_mitos.model import Choose, Target

    for v in values:
        assert st.stack, f"no choice left for {v}"
        seat = st.stack[-1].seat
        legal = E.legal_actions(st, seat)
        act = Target(uid=v) if Target(uid=v) in legal else Choose(value=v)
        assert act in legal, (v, legal)
        st, _ = E.apply(st, seat, act)
    return st


def answer_all(st: GdmState, pick: int = 0) -> GdmState:
    """Answer every pending choice with its first option."""
    return H.settle_choices(st, pick)


@covers("0092")
def test_upuat_moves_a_character_and_its_controller_picks_the_army() -> None:
    from rules.guerra_de_mitos.model import Choose

    st = _fight_table()
    upuat = H.put(st, "0092", 0, "battle", power=3)
    theirs = H.put(st, "0039", 1, "pantheon", power=2)
    H.put(st, "0015", 0, "pantheon", power=2)
    st = use(st, upuat)
    assert st.cards[upuat].power == 2
    st = pick(st, theirs)
    assert st.cards[theirs].zone == "battle"
    # seat 1 controls it and chooses: 0 the army of seat 0 (who opened), 1 its own
    assert st.stack[-1].seat == 1
    assert {a.value for a in E.legal_actions(st, 1) if isinstance(a, Choose)} == {0, 1}
    assert R.choice_text(st, 0).es == "El ejército de Jugador 1"  # type: ignore[union-attr]
    assert R.choice_text(st, 1).en == "Player 2's army"  # type: ignore[union-attr]
    st, _ = E.apply(st, 1, Choose(value=1))
    assert st.cards[theirs].ctrl == 1 and B.army(st, 1) == 1


@covers("0254", "0338")
@pytest.mark.parametrize("cid", ["0254", "0338"])
def test_another_players_character_is_dragged_into_the_fight(cid: str) -> None:
    from rules.guerra_de_mitos.model import Choose

    st = H.blank(3)
    H.fight(st, 0, 1)
    bearer = H.put(st, "0039", 0, "battle", power=2)
    src = H.gear(st, cid, bearer) if cid == "0254" else H.in_hand(st, cid)
    third = H.put(st, "0025", 2, "pantheon", power=5)  # Thor of the player outside the fight
    H.put(st, "0015", 0, "pantheon", power=2)  # seat 0's own: not "another player's"
    st = use(st, src)
    assert st.cards[third].zone == "battle" and st.stack[-1].seat == 2
    st, _ = E.apply(st, 2, Choose(value=1))  # Thor joins seat 1's army
    assert st.cards[third].ctrl == 1 and B.army(st, 1) == 4
    F.reorganise(st)
    assert st.cards[third].ctrl == 2 and st.cards[third].zone == "pantheon"


@covers("0180")
def test_drobbit_resolves_an_opponents_hidden_event_as_his_own() -> None:
    st = _fight_table()
    drobbit = H.put(st, "0180", 0, "battle", power=3)
    i = H.oracle(st, ["0127", "0015"], 1, power=1, up=False)  # Hinamatsuri: gain 3P
    st = use(st, drobbit)
    o = st.players[1].oracles[i]
    assert st.players[0].reserve == 23 and st.players[1].reserve == 20
    assert st.cards[o.cards[0]].card == "0127" and not o.up and o.power == 1
    assert "0127" in st.players[0].peeks


@covers("0180")
def test_drobbit_only_looks_at_a_card_that_is_no_event() -> None:
    st = _fight_table()
    drobbit = H.put(st, "0180", 0, "battle", power=3)
    H.oracle(st, ["0015"], 1, power=1, up=False)
    before = st.players[0].reserve
    st = use(st, drobbit)
    assert st.players[0].reserve == before and st.players[0].peeks == ["0015"]
    assert not st.players[1].oracles[0].up


def _key_index(k: str) -> int:
    return M.key_list().index(k)


@covers("0191")
def test_sacrificio_gladiatorio_gives_a_key_for_good() -> None:
    st = H.blank(2)
    summoner = H.put(st, "0019", 0, power=2)  # Midori: Invocador, Ashigaru
    H.gear(st, "0191", summoner)
    zeus = H.put(st, "0044", 1, power=3)
    sac = next(u for u, c in st.cards.items() if c.card == "0191")
    st = pick(use(st, sac), zeus)
    assert R.choice_text(st, _key_index("trueno")).en == "Thunder"  # type: ignore[union-attr]
    st = pick(st, _key_index("trueno"))  # Midori, the only one of yours, takes it
    assert "trueno" in B.keys(st, summoner) and st.cards[summoner].keys_add == ["trueno"]
    F.reorganise(st)
    assert "trueno" in B.keys(st, summoner)


@covers("0271")
def test_jak_copies_or_removes_a_key() -> None:
    from rules.guerra_de_mitos.model import Choose

    st = H.blank(2)
    jak = H.in_hand(st, "0271")
    mine = H.put(st, "0015", 0, power=2)
    zeus = H.put(st, "0044", 1, power=3)
    st = use(st, jak)
    assert R.choice_text(st, 1).es == "Quitar una clave"  # type: ignore[union-attr]
    st, _ = E.apply(st, 0, Choose(value=1))  # remove a key
    st = pick(st, zeus, _key_index("dios"))
    assert "dios" not in B.keys(st, zeus) and B.is_mortal(st, zeus)
    F.reorganise(st)
    assert B.is_mortal(st, zeus)
    jak2 = H.in_hand(st, "0271")
    st.phase, st.actor = "influence", 0
    st = use(st, jak2)
    st, _ = E.apply(st, 0, Choose(value=0))  # copy a key onto one of yours
    st = pick(st, zeus, _key_index("trueno"))
    assert B.keys(st, mine) == {"ashigaru", "trueno"}


@covers("0258")
def test_las_manzanas_de_loki_use_an_enemy_ability_as_your_characters() -> None:
    st = H.blank(2)
    apples = H.in_hand(st, "0258")
    tengu = H.put(st, "0020", 1, power=3)  # Karasu Tengu: take 1P from him; opponent -1P
    H.put(st, "0036", 1, power=3)  # Surtur: another enemy ability
    mine = H.put(st, "0039", 0, power=2)
    other = H.put(st, "0058", 0, power=1)
    broke = H.put(st, "0015", 0, power=0)  # cannot pay the 1P
    st = use(st, apples)
    assert st.players[0].reserve == 19  # the card's cost
    st = pick(st, tengu)
    assert offered_uids(st) == {mine, other}
    st = pick(st, mine)
    assert st.cards[mine].power == 1 and st.cards[tengu].power == 3
    assert st.players[1].reserve == 19 and st.cards[other].power == 1
    assert st.cards[broke].power == 0 and not st.stack


def offered_uids(st: GdmState) -> set[int]:
    """The cards offered by the pending choice."""
    from rules.guerra_de_mitos.model import Target

    return {a.uid for a in E.legal_actions(st, st.stack[-1].seat) if isinstance(a, Target)}


@covers("0288")
def test_deuda_de_honor_uses_an_opponents_resource() -> None:
    st = H.blank(2)
    debt = H.in_hand(st, "0288")
    shit = H.put(st, "0149", 1)  # Templo Shitennoji: tire it; gain 2P
    st = use(st, debt)
    assert st.players[0].reserve == 20 - 1 + 2 and st.players[1].reserve == 20
    assert st.cards[shit].tired  # used as if it were yours: its cost is paid by it


@covers("0335")
def test_tacticas_belicas_gives_the_odd_player_out_a_confrontation() -> None:
    from rules.guerra_de_mitos.model import Challenge, Pass

    st = H.blank(3)
    tac = H.in_hand(st, "0335", 2)
    st2 = H.blank(2)
    assert not offered(st2, H.in_hand(st2, "0335"))  # two players: nobody is left out
    st.actor = 2
    st = use(st, tac, seat=2)
    for s in (0, 1, 2):
        st, _ = E.apply(st, s, Pass())
    assert st.phase == "challenge" and st.chooser == 0
    st, _ = E.apply(st, 0, Challenge(seat=1))
    for _ in range(4):
        st, _ = E.apply(st, next(iter(E.pending(st))), Pass())
    # seat 2 was left out: it fights one more confrontation against anyone
    assert st.phase == "challenge" and st.chooser == 2
    assert {a.seat for a in E.legal_actions(st, 2)} == {0, 1}
    st, _ = E.apply(st, 2, Challenge(seat=0))
    assert st.fight is not None and (st.fight.a, st.fight.b) == (2, 0)


@covers("0067")
def test_huitzilopochtli_keeps_the_copied_ability_until_the_end_of_the_turn() -> None:
    from rules.guerra_de_mitos.model import Pass

    st = H.blank(2)
    huitzi = H.put(st, "0067", 0, power=5)
    H.put(st, "0025", 1, power=3)  # Thor: INFLUENCE search Mjolnir; CONFRONTATION tire an enemy
    foe = H.put(st, "0039", 1, power=2)
    st = use(st, huitzi)  # Thor is the only character with an ability to copy
    assert st.cards[huitzi].marks == ["copy:0025"]
    assert not offered(st, huitzi, 1)  # Thor's INFLUENCE ability: no Mjolnir in the deck
    st.actor = 0
    mj = H.on_deck(st, ["0217"])[0]
    st = use(st, huitzi, 1)
    assert st.cards[mj].zone == "gear" and st.cards[huitzi].tired
    # in the confrontation he still has Thor's second ability
    st.cards[huitzi].tired = False
    st.cards[huitzi].zone = st.cards[foe].zone = "battle"
    H.fight(st)
    st = use(st, huitzi, 2)
    assert st.cards[foe].tired
    st, _ = E.apply(st, 1, Pass())
    F.reorganise(st)
    assert not [m for m in st.cards[huitzi].marks if m.startswith("copy:")]


@covers("0067")
def test_huitzilopochtli_copies_a_static_text_too() -> None:
    st = H.blank(2)
    huitzi = H.put(st, "0067", 0, power=5)
    H.put(st, "0016", 1, power=2)  # Houou cannot be destroyed
    st = use(st, huitzi)
    assert not B.destroyable(st, huitzi)


# ---------------------------------------------------------------- costs chosen by the player


@covers("0320")
def test_navios_de_jason_each_action_costs_1p_from_a_character_chosen() -> None:
    st = _fight_table()
    jason = H.in_hand(st, "0320")
    a = H.put(st, "0039", 0, "battle", power=3)
    b = H.put(st, "0058", 0, "battle", power=2)
    ymir = H.put(st, "0031", 1, "battle", power=3)  # Ymir: tire an enemy character
    st = use(st, jason, payer=a)
    assert st.cards[a].power == 2 and st.flags.get("fight:jason")
    # seat 1 uses an ability: it first pays 1P from one of its characters (Ymir, the only one)
    st = use(st, ymir, seat=1)
    assert st.cards[ymir].power == 2
    st = pick(st, b)
    assert st.cards[b].tired
    # seat 0 plays an action: it chooses which character pays the extra 1P
    adrenaline = H.in_hand(st, "0326")  # Adrenalina, cost 0: one of yours gets +2F
    st = use(st, adrenaline)
    assert offered_uids(st) == {a, b}
    st = pick(st, b, a)
    assert (st.cards[a].power, st.cards[b].power) == (2, 1)
    assert B.strength(st, a) == 1 + 2


@covers("0341")
def test_an_entorno_cost_is_split_as_the_player_chooses() -> None:
    st = _fight_table()
    fog = H.in_hand(st, "0341")  # Niebla debilitadora, Entorno, cost 1: every character -2F
    a = H.put(st, "0039", 0, "battle", power=1)
    b = H.put(st, "0058", 0, "battle", power=3)
    H.put(st, "0015", 1, "battle", power=2)
    st = use(st, fog, payer=a)
    assert st.cards[a].power == 0 and st.cards[b].power == 3 and not st.stack


@covers("0350")
def test_an_entorno_cost_of_two_takes_the_second_point_where_the_player_says() -> None:
    st = _fight_table()
    muspel = H.in_hand(st, "0350")  # Múspel, Entorno, cost 2
    a = H.put(st, "0039", 0, "battle", power=2)
    b = H.put(st, "0058", 0, "battle", power=2)
    c = H.put(st, "0015", 1, "battle", power=2)
    d = H.put(st, "0097", 1, "battle", power=2)
    st = use(st, muspel, payer=a)
    assert st.cards[a].power == 1
    assert offered_uids(st) == {a, b}
    st = pick(st, b)
    assert (st.cards[a].power, st.cards[b].power) == (1, 1)
    st = pick(st, a, c)  # two of yours -1F, two enemies -3F (the second of each follows)
    assert [B.strength(st, u) for u in (a, b, c, d)] == [0, 0, 1 - 3, 0 - 3] and not st.stack


@covers("0249")
def test_libro_de_eibon_puts_an_oracle_in_the_chosen_order() -> None:
    st = H.blank(2)
    bearer = H.put(st, "0039", 0, power=2)
    book = H.gear(st, "0249", bearer)
    i = H.oracle(st, ["0015", "0039", "0058"], 0, power=3, up=True)
    o = st.players[0].oracles[i]
    x, y, z = o.cards
    st = use(st, book)
    assert st.cards[book].zone == "discard"
    assert set(st.players[0].peeks) >= {"0015", "0039", "0058"}
    assert offered_uids(st) == {x, y, z}
    st = pick(st, z, x)  # the last one falls into place
    o = st.players[0].oracles[i]
    assert o.cards == [z, x, y] and o.power == 0 and not o.up and not st.stack


# ---------------------------------------------------------------- rule changes seen at work


@covers("0064")
def test_chicomecoatl_taxes_each_confrontation_action_of_the_opponent() -> None:
    st = _fight_table()
    chico = H.put(st, "0064", 0, "battle", power=3)
    ymir = H.put(st, "0031", 1, "battle", power=2)
    H.put(st, "0039", 0, "battle", power=2)
    st = use(st, chico)
    st = use(st, ymir, seat=1)
    st = answer_all(st)
    assert st.players[1].reserve == 19 and st.players[0].reserve == 20


@covers("0068")
def test_chalchiuhtlicue_keeps_an_enemy_out_of_the_assignment() -> None:
    from rules.guerra_de_mitos.model import Pass

    st = H.blank(2)
    chal = H.put(st, "0068", 0, power=4)
    foe = H.put(st, "0039", 1, power=2)
    other = H.put(st, "0058", 1, power=2)
    st = pick(use(st, chal), foe)
    assert st.cards[chal].power == 2
    st, _ = E.apply(st, 1, Pass())
    st, _ = E.apply(st, 0, Pass())
    assert st.phase == "fight"
    assert foe not in F.assignable(st, 1) and other in F.assignable(st, 1)


@covers("0172")
def test_opera_de_sidney_voids_the_next_event_revealed() -> None:
    st = H.blank(2)
    opera = H.put(st, "0172", 0)
    st = use(st, opera)
    i = H.oracle(st, ["0127", "0015"], 1, up=False)  # Hinamatsuri of the opponent
    st = reveal_oracle(st, 1, i)
    assert st.players[1].reserve == 20 and "next_event_void" not in st.lasting
    j = H.oracle(st, ["0127", "0015"], 1, up=False)
    st = reveal_oracle(st, 1, j)
    assert st.players[1].reserve == 23  # only the next one


@covers("0151", "0155")
def test_palacio_de_moctezuma_chooses_which_ability_of_the_resource_it_copies() -> None:
    from rules.guerra_de_mitos.model import Choose

    st = H.blank(2)
    palace = H.put(st, "0151", 0)
    wabi = H.put(st, "0155", 1)  # two INFLUENCE abilities
    mine = H.put(st, "0015", 0, power=1)
    st = use(st, palace)
    assert {a.value for a in E.legal_actions(st, 0) if isinstance(a, Choose)} == {0, 1}
    st, _ = E.apply(st, 0, Choose(value=1))  # pay 1P from the reserve; a character gains 1P
    assert st.cards[palace].tired and not st.cards[wabi].tired
    assert st.players[0].reserve == 19 and st.cards[mine].power == 2 and not st.stack


@covers("0104")
def test_yogg_sothoth_removes_one_ability_chosen_among_several() -> None:
    from rules.guerra_de_mitos.model import Choose

    st = H.blank(2)
    yogg = H.put(st, "0104", 0, power=4)
    H.put(st, "0015", 0, power=1)  # the mortal destroyed as the cost
    thor = H.put(st, "0025", 1, power=3)  # INFLUENCE and CONFRONTATION abilities
    H.put(st, "0039", 1, power=2)  # no ability: nothing to remove, not offered
    st = use(st, yogg)
    assert offered_uids(st) == {yogg, thor}  # any character with an ability, himself too
    st = pick(st, thor)
    assert {a.value for a in E.legal_actions(st, 0) if isinstance(a, Choose)} == {0, 1}
    assert R.choice_text(st, 1).en == "Thor: ability 2 (CONFRONTATION)"  # type: ignore[union-attr]
    st, _ = E.apply(st, 0, Choose(value=1))
    assert st.cards[thor].muted == [1]
    F.reorganise(st)
    assert st.cards[thor].muted == [1]


# ---------------------------------------------------------------- the new code in random play

NEW_DESIGNS = ["0191", "0254", "0258", "0271", "0288", "0328", "0335", "0338", "0320", "0249"]
NEW_DESIGNS += ["0341", "0350", "0361", "0184", "0190", "0326", "0265", "0266"]
NEW_GODS = ["0050", "0067", "0092", "0180", "0104", "0151", "0155", "0172"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cards_with_code_of_their_own_in_random_games(seed: int) -> None:
    """Short random games whose decks hold those cards: every move applies, the game ends,
    the state round-trips through JSON and no view shows another seat's hand."""
    import random

    from rules.guerra_de_mitos.model import DeckSpec, Options

    rng = random.Random(seed)
    n = 2 if seed % 2 else 3
    decks = []
    for myth in rng.sample(H.MYTHOLOGIES, n):
        d = H.deck_for(myth)
        decks.append(DeckSpec(pantheon=d.pantheon, gods=d.gods + NEW_GODS, designs=NEW_DESIGNS * 2))
    st = E.setup(n, Options(decks=decks, max_rounds=5), seed)
    moves = 0
    while not st.finished:
        pend = sorted(E.pending(st))
        assert pend
        seat = rng.choice(pend)
        legal = E.legal_actions(st, seat)
        assert legal
        st, _ = E.apply(st, seat, rng.choice(legal))
        moves += 1
        if moves % 50 == 0:
            assert type(st).model_validate_json(st.model_dump_json()) == st
            for other in range(n):
                v = E.view(st, other)
                assert v.hand == [st.cards[u].card for u in st.players[other].hand]
                assert E.view(st, None).hand is None
    assert st.finished and E.outcome(st) is not None
