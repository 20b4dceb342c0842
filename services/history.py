"""A game's history from its seed and its append-only log, undo rows included."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core import Engine, Event, GameState, Seat
from storage.rows import ActionRow

# The log row that takes back move ``seq``: the platform's own kind, which no game uses.
UNDO_KIND = "tablero.undo"


def undo_json(seq: int) -> str:
    """The log entry that takes back move ``seq``."""
    return json.dumps({"kind": UNDO_KIND, "seq": seq}, separators=(",", ":"))


def undone_seq(action: str) -> int | None:
    """The move an undo row takes back, or None for an ordinary move."""
    if UNDO_KIND not in action:
        return None
    try:
        data = json.loads(action)
    except ValueError:
        return None
    if isinstance(data, dict) and data.get("kind") == UNDO_KIND:
        return int(data["seq"])
    return None


@dataclass
class Entry:
    """One row of the log replayed: the state it led to and what it caused."""

    row: ActionRow
    before: GameState
    after: GameState
    events: list[Event]
    undoes: int | None = None  # the seq this row took back, for an undo row


def replay_log(
    engine: Engine, num_seats: int, options: dict[str, Any], seed: int, rows: Sequence[ActionRow]
) -> Iterator[Entry]:
    """Replay ``rows`` from the seed, yielding each row with the states around it.

    An undo row restores the state from before the move it names (the rules are
    deterministic and keep their random generator in the state, so that is exact), with
    the version moved on to the undo row's own number.
    """
    state = engine.setup(num_seats, options, seed)
    before_seq: dict[int, GameState] = {}
    for row in rows:
        target = undone_seq(row.action)
        if target is not None:
            restored = before_seq[target].model_copy(update={"version": row.seq})
            yield Entry(row=row, before=state, after=restored, events=[], undoes=target)
            state = restored
            continue
        before_seq[row.seq] = state
        new, events = engine.apply(state, row.seat, row.action)
        yield Entry(row=row, before=state, after=new, events=events)
        state = new


def final_state(
    engine: Engine, num_seats: int, options: dict[str, Any], seed: int, rows: Sequence[ActionRow]
) -> GameState:
    """The state the whole log leads to."""
    state = engine.setup(num_seats, options, seed)
    for entry in replay_log(engine, num_seats, options, seed, rows):
        state = entry.after
    return state


def _strings(node: Any, out: set[str]) -> set[str]:
    if isinstance(node, str):
        out.add(node)
    elif isinstance(node, dict):
        for v in node.values():
            _strings(v, out)
    elif isinstance(node, list | tuple):
        for v in node:
            _strings(v, out)
    return out


def reveals(engine: Engine, before: GameState, after: GameState, events: Sequence[Event],
            mover: Seat) -> bool:
    """Whether a move drew anything random or showed anyone something hidden (see
    ``what_it_reveals``): such a move cannot be taken back."""
    return what_it_reveals(engine, before, after, events, mover) is not None


def what_it_reveals(engine: Engine, before: GameState, after: GameState,
                    events: Sequence[Event], mover: Seat) -> str | None:
    """Why taking a move back would leak something, or None when nothing would.

    Conservative by design (a refused undo costs less than a leak): any random draw; any
    event told to some seats only but the mover; any value hidden in some seat's private
    view before the move that a viewer other than that seat sees after it for the first
    time; and anything a seat's view knows after the move that it did not know before
    (``View.known``: a card drawn, peeked, dealt or turned up from a deck shuffled at setup),
    since taking the move back and making it again would show that seat the same thing
    for free.
    """
    if after.rng.draws != before.rng.draws:
        return "random draw"
    if any(e.audience is not None and set(e.audience) != {mover} for e in events):
        return "private event"
    seats = range(before.num_seats)
    views_before = {w: engine.view(before, w) for w in [None, *seats]}
    views_after = {w: engine.view(after, w) for w in [None, *seats]}
    for w in seats:
        new = views_after[w].known(views_after[None]) - views_before[w].known(views_before[None])
        if new:
            return f"new to seat {w}: {min(new)}"
    dumped_before = {w: v.model_dump(mode="json") for w, v in views_before.items()}
    public_before = dumped_before[None]
    known = _strings(public_before, set())
    hidden: dict[Seat, set[str]] = {}
    for w in seats:
        hidden[w] = {
            s for k, v in dumped_before[w].items() if k != "seat" and public_before.get(k) != v
            for s in _strings(v, set())
        } - known
    for viewer in [None, *seats]:
        was = _strings(dumped_before[viewer], set())
        now = _strings(views_after[viewer].model_dump(mode="json"), set())
        new_strings = now - was
        if not new_strings:
            continue
        for w in seats:
            if w != viewer and new_strings & hidden[w]:
                return f"hidden from seat {w} shown to {viewer}"
    return None
