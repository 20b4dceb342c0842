"""A game's record as a file anyone can replay, a readable transcript, and an animation.

While a game is on, the record holds only what the public may know (its public events):
the seed and the actions would give away hands and decks. Once it is over, the record
holds the seed and every action, which replay to the final state on any machine.

``python -m services.replay record.json`` replays a record and prints the result.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from rules.core import Engine, GameState, RuleError, Text
from services.fairness import commitment, of_game
from services.history import replay_log
from storage.rows import ActionRow

FORMAT = "tablero-replay"
VERSION = 1
# An animation longer than this many frames keeps every n-th state (and the last).
MAX_FRAMES = 120


def state_digest(engine: Engine, state: GameState) -> str:
    """A fingerprint of a state, to check that a replay reached the same one."""
    return hashlib.sha256(engine.dump_state(state).encode()).hexdigest()


def build_record(
    engine: Engine,
    *,
    game: int,
    options: dict[str, Any],
    players: Sequence[str],
    seed: int | None,
    rows: Sequence[ActionRow],
    finished: bool,
    final: GameState | None,
    salt: str | None = None,
) -> dict[str, Any]:
    """The record of a game: full (seed and actions) once finished, public events otherwise;
    the commitment to the seed (``salt``: its secret, see services/fairness.py) in both, the
    salt itself only once finished."""
    record: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "game": engine.id, "id": game,
        "options": options if finished else engine.public_options(options),
        "players": list(players), "finished": finished,
    }
    dice = of_game(seed, salt, over=finished and final is not None)
    if dice.commitment is not None:
        record["seed_commitment"] = dice.commitment
    if finished and seed is not None and final is not None:
        record["seed"] = seed
        if dice.revealed:
            record["seed_salt"] = dice.salt
        record["actions"] = [
            {"seq": r.seq, "seat": r.seat, "at": r.at, "action": json.loads(r.action)} for r in rows
        ]
        record["final_version"] = final.version
        record["final_state_sha256"] = state_digest(engine, final)
        return record
    public: list[dict[str, Any]] = []
    if seed is not None:
        for entry in replay_log(engine, len(players), options, seed, rows):
            events = [e.text.model_dump() for e in entry.events if e.visible_to(None)]
            public.append({"seq": entry.row.seq, "seat": entry.row.seat, "at": entry.row.at,
                           "undoes": entry.undoes, "events": events})
    record["public_log"] = public
    return record


def replay_record(record: dict[str, Any], engines: dict[str, Engine] | None = None) -> GameState:
    """Replay a finished game's record to its final state, checking its fingerprint."""
    if record.get("format") != FORMAT:
        raise ValueError("not a Tablero replay file")
    if "seed" not in record:
        raise ValueError("this record holds only public information (the game was not over)")
    if "seed_commitment" in record and (
        not isinstance(record.get("seed_salt"), str)
        or commitment(record["seed"], record["seed_salt"]) != record["seed_commitment"]
    ):
        raise ValueError("the seed and salt do not give the commitment shown at the start")
    if engines is None:
        from rules.registry import games

        engines = games()
    engine = engines[record["game"]]
    rows = [
        ActionRow(game=record["id"], seq=a["seq"], seat=a["seat"],
                  action=json.dumps(a["action"], separators=(",", ":")), at=a["at"])
        for a in record["actions"]
    ]
    state = engine.setup(len(record["players"]), record["options"], record["seed"])
    try:
        for entry in replay_log(engine, len(record["players"]), record["options"], record["seed"], rows):
            state = entry.after
    except RuleError as exc:  # a move the rules refuse: the record was changed, or its seed
        raise ValueError(f"a move of the record cannot be made from this seed: {exc}") from None
    if state_digest(engine, state) != record["final_state_sha256"]:
        raise ValueError("the replay did not reach the recorded final state")
    return state


def transcript(
    engine: Engine,
    *,
    players: Sequence[str],
    options: dict[str, Any],
    seed: int | None,
    rows: Sequence[ActionRow],
    viewer_all: bool,
    locale: str,
    when: Callable[[float], str],
    wording: Callable[[Text], str] | None = None,
) -> str:
    """The game as readable lines: every event the public may read (everything once over);
    ``wording`` turns a rules text into the reader's words (players' names for seats)."""
    lines: list[str] = []
    if seed is None:
        return ""
    for entry in replay_log(engine, len(players), options, seed, rows):
        who = players[entry.row.seat]
        stamp = when(entry.row.at)
        if entry.undoes is not None:
            lines.append(f"{entry.row.seq:>4} {stamp} {who}: ↩ #{entry.undoes}")
            continue
        texts = [wording(e.text) if wording else e.text.get(locale)
                 for e in entry.events if viewer_all or e.visible_to(None)]
        lines.append(f"{entry.row.seq:>4} {stamp} {who}: " + (" · ".join(texts) or "…"))
    return "\n".join(lines) + "\n"


def animation(states: Sequence[GameState], picture: Callable[[GameState], bytes | None],
              frame_ms: int = 700) -> bytes | None:
    """An animated GIF of the board through ``states`` (None when the game has no picture)."""
    from PIL import Image

    if not states:
        return None
    step = max(1, -(-len(states) // MAX_FRAMES))
    chosen = list(states[::step])
    if chosen[-1] is not states[-1]:
        chosen.append(states[-1])
    frames = []
    for st in chosen:
        png = picture(st)
        if png is None:
            return None
        frame = Image.open(io.BytesIO(png))
        # The boards are palette pictures already: kept as they are, each frame carries its
        # own small palette and nothing is re-quantised (which cost seconds per game).
        if frame.mode != "P":
            frame = frame.convert("RGB").quantize(colors=128)
        frames.append(frame.resize((frame.width // 2, frame.height // 2), Image.Resampling.NEAREST)
                      if frame.width > 800 else frame)
    out = io.BytesIO()
    durations = [frame_ms] * (len(frames) - 1) + [frame_ms * 4]
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=durations,
                   loop=0, optimize=False)
    return out.getvalue()


def states_of(engine: Engine, num_seats: int, options: dict[str, Any], seed: int,
              rows: Sequence[ActionRow]) -> list[GameState]:
    """The state after setup and after every row of the log."""
    states = [engine.setup(num_seats, options, seed)]
    states.extend(e.after for e in replay_log(engine, num_seats, options, seed, rows))
    return states


def main(argv: Sequence[str] | None = None) -> int:
    """Replay a record file and print how the game ended."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m services.replay RECORD.json", file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        record = json.load(f)
    try:
        state = replay_record(record)
    except (ValueError, KeyError) as exc:
        print(f"cannot replay: {exc}", file=sys.stderr)
        return 1
    from rules.registry import games

    engine = games()[record["game"]]
    outcome = engine.outcome(state)
    print(f"{record['game']} #{record['id']}: replayed {len(record['actions'])} moves "
          f"to version {state.version}; the state matches the record.")
    if "seed_commitment" in record:
        print(f"The seed {record['seed']} and salt {record['seed_salt']} give the commitment "
              f"{record['seed_commitment']}: compare it with the one the game's card showed "
              "from its start.")
    else:
        print("This game started before seeds were committed to: there is no commitment to check.")
    if outcome is not None:
        ranking = " > ".join(", ".join(record["players"][s] for s in group) for group in outcome.ranking)
        print(f"{outcome.reason.get('en')} Ranking: {ranking or '-'}")  # one language: a tool's output
    return 0


if __name__ == "__main__":
    sys.exit(main())
