"""Resolving a conflict step by step: the virtues and powers spent, then its success or failure."""

from __future__ import annotations

from rules.core import Action, Event, Text
from rules.ragami.cards import CARDS, card_name
from rules.ragami.city import BUILDINGS_AT, node_name
from rules.ragami.legal import unknown_power
from rules.ragami.model import (
    Cancel,
    Commit,
    Power,
    PowerCard,
    Resolution,
    RgState,
    Roll,
    Step,
)
from rules.ragami.table import (
    COLOUR_NAME,
    cubes,
    demon_count,
    ev,
    give_cubes,
    piece_owner,
    who,
)
from rules.ragami.text import msg


def dec_die(state: RgState, slot: int) -> None:
    """An action die used: one use fewer (never below zero)."""
    state.dice[slot] = max(0, state.dice[slot] - 1)


def running(res: Resolution) -> Text:
    """The power gathered so far against the cost: "power 5 of 7"."""
    return msg("power {total} of {cost}", total=res.total, cost=res.cost)


def resolution_event(state: RgState, seat: int, res: Resolution) -> Event:
    """A resolution begins: its cost, and the power Saints and a second Ragami give."""
    demons = res.cost - res.die
    price = (
        msg("die {die} + {demons}", die=res.die, demons=demon_count(demons))
        if demons
        else msg("die {die}", die=res.die)
    )
    saints = len(res.saints)
    helper = COLOUR_NAME[res.helper] if res.helper is not None else None
    if saints and helper is not None:
        bonus = msg.n(
            saints,
            "+{n} from the Saint, +2 from the {colour} Ragami",
            "+{n} from the Saints, +2 from the {colour} Ragami",
            colour=helper,
        )
    elif saints:
        bonus = msg.n(saints, "+{n} from the Saint", "+{n} from the Saints")
    elif helper is not None:
        bonus = msg("+2 from the {colour} Ragami", colour=helper)
    else:
        bonus = None
    text = (
        msg(
            "{seat} tries to resolve the conflict on square {square}, which costs {cost} "
            "({price}); {bonus}: {power}.",
            seat=who(seat),
            square=res.square,
            cost=res.cost,
            price=price,
            bonus=bonus,
            power=running(res),
        )
        if bonus is not None
        else msg(
            "{seat} tries to resolve the conflict on square {square}, which costs {cost} "
            "({price}): {power}.",
            seat=who(seat),
            square=res.square,
            cost=res.cost,
            price=price,
            power=running(res),
        )
    )
    return ev(
        "resolve_start",
        text,
        seat=seat,
        square=res.square,
        saints=res.saints,
        helper=res.helper,
        power=res.total,
        cost=res.cost,
    )


def resolve_step(state: RgState, seat: int, res: Resolution, a: Action) -> list[Event]:
    """One step of a resolution: add power, commit, roll, or give up."""
    if isinstance(a, Power):
        if a.source == "cubes":
            state.cubes[seat] -= a.amount
            res = res.model_copy(update={"cubes": res.cubes + a.amount})
            text = msg(
                "{seat} adds {amount} from cubes ({power}).",
                seat=who(seat),
                amount=a.amount,
                power=running(res),
            )
        else:
            res = res.model_copy(update={"virtue": res.virtue + a.amount})
            text = msg(
                "{seat} adds {amount} from their Virtue die ({power}).",
                seat=who(seat),
                amount=a.amount,
                power=running(res),
            )
        state.step = state.step.model_copy(update={"res": res})  # type: ignore[union-attr]
        return [
            ev(
                "power",
                text,
                seat=seat,
                source=a.source,
                amount=a.amount,
                power=res.total,
                cost=res.cost,
            )
        ]
    if isinstance(a, PowerCard):
        k = CARDS[a.card]
        state.hands[seat].remove(a.card)
        cost = {"poder2": 1, "poder4": 2}.get(k, 0)
        state.cubes[seat] -= cost
        power = {"poder2": 2, "poder4": 4, "poderx": unknown_power(state, seat)}.get(k, 0)
        res = res.model_copy(update={"card": a.card, "card_cubes": cost, "card_power": power})
        state.step = state.step.model_copy(update={"res": res})  # type: ignore[union-attr]
        # the card goes face up into the resolution: naming it reveals nothing hidden
        name = card_name(a.card)
        if k == "doble":  # (it costs no cube)
            text = msg(
                "{seat} plays {card}: the Power die will be rolled twice ({power}).",
                seat=who(seat),
                card=name,
                power=running(res),
            )
        elif cost:
            text = msg(
                "{seat} plays {card}, pays {cubes}: +{amount} ({power}).",
                seat=who(seat),
                card=name,
                cubes=cubes(cost),
                amount=power,
                power=running(res),
            )
        else:
            text = msg(
                "{seat} plays {card}: +{amount} ({power}).",
                seat=who(seat),
                card=name,
                amount=power,
                power=running(res),
            )
        return [
            ev(
                "power_card",
                text,
                seat=seat,
                card=a.card,
                cubes=cost,
                amount=power,
                power=res.total,
                cost=res.cost,
            )
        ]
    if isinstance(a, Cancel):
        return cancel(state, seat, res)
    if isinstance(a, Commit):
        return succeed(state, seat, res, [])
    assert isinstance(a, Roll)
    twice = res.card is not None and CARDS[res.card] == "doble"
    rolls = [state.rng.randint(1, 6) for _ in range(2 if twice else 1)]
    state.last_roll = rolls
    shown = " + ".join(str(r) for r in rolls)
    events = [
        ev(
            "power_die",
            msg("{seat} rolls the Power die: {rolls}.", seat=who(seat), rolls=shown),
            seat=seat,
            rolls=rolls,
        )
    ]
    if res.total + sum(rolls) >= res.cost:
        return succeed(state, seat, res, events)
    return fail(state, seat, res, events)


def cancel(state: RgState, seat: int, res: Resolution) -> list[Event]:
    """Give up before the end: everything goes back, the action is not used."""
    state.cubes[seat] += res.cubes + res.card_cubes
    if res.card is not None:
        state.hands[seat].append(res.card)
    if res.via is not None:
        state.hands[seat].append(res.via)
        give_back = 1
        state.cubes[seat] += give_back
        state.cube_supply -= give_back
    if not res.free:
        state.acted = res.was_acted
        state.die_used = res.die_was_used
    state.step = None
    return [
        ev(
            "cancel",
            msg(
                "{seat} gives up resolving the conflict on square {square} "
                "and takes back what they had added.",
                seat=who(seat),
                square=res.square,
            ),
            seat=seat,
            square=res.square,
        )
    ]


def spend(state: RgState, seat: int, res: Resolution) -> None:
    """The action itself is used, whatever the result."""
    if res.slot is not None:
        dec_die(state, res.slot)
    if res.via is not None:
        state.discard.append(res.via)


def succeed(state: RgState, seat: int, res: Resolution, events: list[Event]) -> list[Event]:
    """The conflict is resolved: the die's value in VP, the track, the helpers' rewards."""
    spend(state, seat, res)
    q = res.square
    del state.conflicts[q]
    state.cube_supply += res.cubes + res.card_cubes
    if res.card is not None:
        state.discard.append(res.card)
    if res.virtue:
        state.virtue[seat] -= res.virtue
        if state.virtue[seat] == 0:
            state.virtue_at[seat] = None
    state.vp[seat] += res.die
    state.resolved[seat] += 1
    state.step = None
    events = [
        *events,
        ev(
            "resolved",
            msg(
                "{seat} resolves the conflict on square {square}: +{vp} VP.",
                seat=who(seat),
                square=q,
                vp=res.die,
            ),
            seat=seat,
            square=q,
            die=res.die,
            cost=res.cost,
            power=res.total,
        ),
    ]
    for c in res.saints:
        owner = piece_owner(state, c)
        if owner is not None:
            state.vp[owner] += 1
            events.append(
                ev(
                    "saint_vp",
                    msg("{seat} scores 1 VP for their Saint.", seat=who(owner)),
                    seat=owner,
                )
            )
    if res.helper is not None:
        owner = piece_owner(state, res.helper)
        if owner is not None:
            got = give_cubes(state, owner, 2)
            events.append(
                ev(
                    "helper",
                    msg.n(
                        got,
                        "{seat} gets {n} cube for the help.",
                        "{seat} gets {n} cubes for the help.",
                        seat=who(owner),
                    ),
                    seat=owner,
                    cubes=got,
                )
            )
    return events


def fail(state: RgState, seat: int, res: Resolution, events: list[Event]) -> list[Event]:
    """The power die fell short: nothing spent is lost (but Double power), the Ragami leaves."""
    spend(state, seat, res)
    state.cubes[seat] += res.cubes + res.card_cubes
    if res.card is not None:
        if CARDS[res.card] == "doble":
            state.discard.append(res.card)
        else:
            state.hands[seat].append(res.card)
    events.append(
        ev(
            "failed",
            msg(
                "{seat} fails to resolve the conflict on square {square}.",
                seat=who(seat),
                square=res.square,
            ),
            seat=seat,
            square=res.square,
        )
    )
    choices = BUILDINGS_AT[res.square]
    if len(choices) == 1:
        state.ragamis[seat] = choices[0]
        state.step = None
        events.append(
            ev(
                "flee",
                msg(
                    "{seat}'s Ragami withdraws to {where}.",
                    seat=who(seat),
                    where=node_name(choices[0]),
                ),
                seat=seat,
                at=choices[0],
            )
        )
    else:
        state.step = Step(kind="flee")
    return events
