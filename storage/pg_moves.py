"""Group commit on PostgreSQL: a batch of moves of different games in one statement.

GroupCommit (storage/group_commit.py) queues the moves that arrive while a batch commits;
on PostgreSQL a batch is one call of a function of the database's (``BATCH_FUNCTION``, made
at Store.open), which is one round trip and its own transaction, however many moves it holds.
The function takes the locks of every game in the batch, then runs one statement over the
moves as arrays (unnest): the games' UPDATEs, each guarded by its version, and, for the games
whose UPDATE landed, their log rows, their players' catch-up marks, their deadlines and their
outbox rows, in data-modifying WITH clauses. Its statement starts once the locks are held, so
it sees whatever the game's last writer committed (a statement in a function sees the
database as of its own start, not the call's). A stale move changes nothing and is told
StaleVersion while the others land. (A lone move is the same call inside a transaction of
its own, rolled back if its caller gives up before the COMMIT.) Should the call fail as a whole (a constraint that one
move breaks), the batch is written again move by move, each in a savepoint of one
transaction: the failing move is refused alone and the others land, as on SQLite. Every
caller is answered after the COMMIT; a move of a batch whose caller gave up while it ran
may have landed, as a statement cancelled while it runs.

What one commit_moves call writes here is what ``GameQueries.commit_moves`` writes on SQLite
(storage/games.py), its steps folded into one: the last step's state and version, every
step's log row, the last seen mark of each seat that moved itself, and the deadlines the
steps leave, the plans of several steps composed (``net_plan``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import asyncpg

from .deadlines import DeadlinePlan
from .dialect import PgIntegrityError, game_locks, lock_keys
from .dialect_postgres import WRITE_LOCK, PgConnection, PgDatabase
from .errors import StaleVersion
from .games import MoveCommit, MoveWrite
from .outbox import dumps_payload

Outcome = tuple[BaseException | None, Any]
T = TypeVar("T")

# In the function: $1-$6: the games' UPDATE (id, expected version, new version, state, finished, now);
# $7-$10 log rows; $11-$13 seen marks; $14-$16 deadline plans (the games that have one, and
# every (game, seat) whose row stays or is written anew); $17-$24 new deadline rows;
# $25-$26 new outbox rows; $27-$29 outbox rows rewritten. ($30: the games' lock keys.)
# $31-$33 time banks (game, seat, seconds); $34 the new deadline rows' playing hours.
BATCH_SQL = """
WITH m AS (
  SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::boolean[])
    AS m(game, expected, version, state, finished)
), u AS (
  UPDATE games AS g SET state = m.state, version = m.version, updated_at = $6,
    status = CASE WHEN m.finished THEN 'finished' ELSE g.status END,
    finished_at = CASE WHEN m.finished THEN $6 ELSE g.finished_at END, stamp = g.stamp + 1
  FROM m WHERE g.id = m.game AND g.version = m.expected AND g.status = 'active'
  RETURNING g.id, g.stamp AS now_stamp
), logged AS (
  INSERT INTO actions (game, seq, seat, action, at)
  SELECT a.game, a.seq, a.seat, a.action, $6
  FROM unnest($7::bigint[], $8::int[], $9::int[], $10::text[]) AS a(game, seq, seat, action)
  WHERE a.game IN (SELECT id FROM u)
), seen AS (
  UPDATE seats AS s SET seen_seq = v.seq
  FROM unnest($11::bigint[], $12::int[], $13::int[]) AS v(game, seat, seq)
  WHERE s.game = v.game AND s.seat = v.seat AND v.game IN (SELECT id FROM u)
), dropped AS (
  DELETE FROM deadlines AS d
  WHERE d.game = ANY($14::bigint[]) AND d.game IN (SELECT id FROM u)
    AND (d.game, d.seat) NOT IN (
      SELECT k.game, k.seat FROM unnest($15::bigint[], $16::int[]) AS k(game, seat))
), due AS (
  INSERT INTO deadlines (game, seat, user_id, started_at, due_at, reminders, paused_left, next_at,
                         hours)
  SELECT * FROM unnest($17::bigint[], $18::int[], $19::bigint[], $20::float8[], $21::float8[],
                       $22::int[], $23::float8[], $24::float8[], $34::text[])
    AS r(game, seat, user_id, started_at, due_at, reminders, paused_left, next_at, hours)
  WHERE r.game IN (SELECT id FROM u)
  ON CONFLICT (game, seat) DO UPDATE SET user_id = excluded.user_id,
    started_at = excluded.started_at, due_at = excluded.due_at, reminders = excluded.reminders,
    paused_left = excluded.paused_left, next_at = excluded.next_at, hours = excluded.hours
), banked AS (
  INSERT INTO clock_banks (game, seat, seconds)
  SELECT * FROM unnest($31::bigint[], $32::int[], $33::float8[]) AS b(game, seat, seconds)
  WHERE b.game IN (SELECT id FROM u)
  ON CONFLICT (game, seat) DO UPDATE SET seconds = excluded.seconds
), noted AS (
  INSERT INTO outbox (game, kind, payload, created_at)
  SELECT n.game, 'change', n.payload, $6
  FROM unnest($25::bigint[], $26::text[]) AS n(game, payload)
  WHERE n.game IN (SELECT id FROM u)
  RETURNING game, id
), renoted AS (
  UPDATE outbox AS o SET payload = n.payload
  FROM unnest($27::bigint[], $28::bigint[], $29::text[]) AS n(id, game, payload)
  WHERE o.id = n.id AND NOT o.expanded AND n.game IN (SELECT id FROM u)
)
SELECT id, NULL::bigint, now_stamp FROM u
UNION ALL SELECT game, id, NULL::bigint FROM noted
"""


# Versioned: a change to it is a new name, so that processes of two versions sharing one
# database each call their own.
BATCH_FUNCTION = "tablero_move_batch_3"
_ARGS = ("bigint[], int[], int[], text[], boolean[], float8, bigint[], int[], int[], text[],"
         " bigint[], int[], int[], bigint[], bigint[], int[], bigint[], int[], bigint[],"
         " float8[], float8[], int[], float8[], float8[], bigint[], text[], bigint[], bigint[],"
         " text[], bigint[], bigint[], int[], float8[], text[]")
PG_ROUTINES = (
    f"""CREATE OR REPLACE FUNCTION {BATCH_FUNCTION}({_ARGS})
RETURNS TABLE (moved bigint, note bigint, stamped bigint) LANGUAGE plpgsql AS $fn$
DECLARE
  k bigint;
BEGIN
  -- As every write of a game takes them (storage/dialect_postgres.py), in the same order.
  PERFORM pg_advisory_xact_lock_shared({WRITE_LOCK});
  FOREACH k IN ARRAY $30 LOOP
    PERFORM pg_advisory_xact_lock(k);
  END LOOP;
  RETURN QUERY {BATCH_SQL};
END
$fn$""",
)
_CALL = f"SELECT moved, note, stamped FROM {BATCH_FUNCTION}({', '.join(f'${i}' for i in range(1, 35))})"


class _Withdrawn(Exception):
    """Rolls back a batch whose every caller stopped waiting."""


def net_plan(steps: Sequence[MoveWrite]) -> DeadlinePlan | None:
    """What the steps do to the game's deadlines, as one plan (None: they leave them be).

    A plan keeps some seats' rows and writes new ones; a second plan after it keeps what both
    keep, and the first one's new rows only where the second keeps them and writes none."""
    plan: DeadlinePlan | None = None
    for step in steps:
        nxt = DeadlinePlan(frozenset()) if step.finished else step.deadlines
        if nxt is None:
            continue
        if plan is None:
            plan = nxt
            continue
        written = {r.seat for r in nxt.new}
        carried = tuple(r for r in plan.new if r.seat in nxt.keep and r.seat not in written)
        # A seat's time bank is what the last step that ended one of its waits left.
        banks = tuple(sorted({**dict(plan.banks), **dict(nxt.banks)}.items()))
        plan = DeadlinePlan(keep=plan.keep & nxt.keep, new=carried + nxt.new, banks=banks)
    return plan


@dataclass
class _Arrays:
    """The statement's parameters for one round of moves, one list per column."""

    cols: list[list[Any]] = field(default_factory=lambda: [[] for _ in range(33)])

    def add(self, item: MoveCommit) -> None:
        """Put one commit_moves call's writes in the arrays; none when a step other than the
        last ends the game (the next could not follow it: stale, as on SQLite)."""
        if any(step.finished for step in item.steps[:-1]):
            return
        c, g, last = self.cols, item.game, item.steps[-1]
        version = item.expected_version + len(item.steps)
        for col, value in zip(c[:5], (g, item.expected_version, version, last.state, last.finished),
                              strict=True):
            col.append(value)
        seen: dict[int, int] = {}
        for seq, step in enumerate(item.steps, start=item.expected_version + 1):
            for col, value in zip(c[6:10], (g, seq, step.seat, step.action), strict=True):
                col.append(value)
            if step.own:
                seen[step.seat] = seq
        for seat, seq in seen.items():
            for col, value in zip(c[10:13], (g, seat, seq), strict=True):
                col.append(value)
        plan = net_plan(item.steps)
        if plan is not None:
            c[13].append(g)
            for seat in sorted(plan.keep | {r.seat for r in plan.new}):
                c[14].append(g)
                c[15].append(seat)
            for r in plan.new:
                for col, value in zip(c[16:24], (r.game, r.seat, r.user_id, r.started_at, r.due_at,
                                                 r.reminders, r.paused_left, r.next_at), strict=True):
                    col.append(value)
                c[32].append(r.hours)
            for seat, seconds in plan.banks:
                for col, value in zip(c[29:32], (g, seat, seconds), strict=True):
                    col.append(value)
        if item.change is not None:
            if item.change.id is None:
                c[24].append(g)
                c[25].append(dumps_payload(item.change.payload))
            else:
                for col, value in zip(c[26:29], (item.change.id, g,
                                                 dumps_payload(item.change.payload)), strict=True):
                    col.append(value)

    def params(self, now: float) -> list[Any]:
        """The function's 34 parameters."""
        return [*self.cols[:5], now, *self.cols[6:29], lock_keys(game_locks(*self.cols[0])),
                *self.cols[29:]]


def rounds(items: Sequence[MoveCommit]) -> list[list[int]]:
    """The items' indexes in rounds where each game appears once (one UPDATE per game and
    statement; a second move of a game goes in the next round, and sees the first)."""
    out: list[list[int]] = []
    seen: list[set[int]] = []
    for i, item in enumerate(items):
        k = next((k for k, games in enumerate(seen) if item.game not in games), len(out))
        if k == len(out):
            out.append([])
            seen.append(set())
        out[k].append(i)
        seen[k].add(item.game)
    return out


def _outcome(item: MoveCommit, landed: dict[int, int]) -> Outcome:
    """What commit_moves hears of ``item``: its last seq and the stamps it left, or stale."""
    if item.game in landed:
        stamp = landed[item.game]
        return None, (item.expected_version + len(item.steps), {item.game: (stamp - 1, stamp)})
    return StaleVersion(
        f"game {item.game} is no longer active at version {item.expected_version}"
    ), None


def _params(items: Sequence[MoveCommit]) -> list[Any]:
    """The function's parameters for ``items`` (games all different)."""
    arrays = _Arrays()
    for item in items:
        arrays.add(item)
    return arrays.params(items[0].now)


def _results(rows: Sequence[Sequence[Any]]) -> tuple[dict[int, int], dict[int, int]]:
    """What the function answered: the games that moved (with the stamps they now have: one
    UPDATE each, one bump), and the new outbox rows by game."""
    landed = {int(r[0]): int(r[2]) for r in rows if r[1] is None}
    return landed, {int(r[0]): int(r[1]) for r in rows if r[1] is not None}


class PgMoveBatches:
    """Writes GroupCommit's batches of MoveCommit on PostgreSQL (see the module doc)."""

    def __init__(self, db: PgDatabase) -> None:
        """Write through ``db``'s pool."""
        self._db = db
        # For the tests and benchmarks: batches written again move by move.
        self.retried = 0

    async def __call__(self, items: list[MoveCommit], abandoned: Callable[[], bool]) -> list[Outcome]:
        """Write ``items``; what became of each, after its COMMIT."""
        try:
            if len(items) > 1 and len(rounds(items)) == 1:
                # The common case under load: one call, its own transaction, one round trip.
                landed, noted = _results(await self._db.fetchall(_CALL, _params(items)))
                return self._answer(items, range(len(items)), landed, noted)
            # A lone move (or several of one game) in a transaction of ours, rolled back
            # if its caller gives up before the COMMIT, as a lone move always was.
            return await self._in_rounds(items, abandoned)
        except (PgIntegrityError, asyncpg.PostgresError):
            if len(items) == 1:
                raise
        self.retried += 1
        return await self._one_by_one(items, abandoned)

    @staticmethod
    def _answer(items: Sequence[MoveCommit], chosen: Sequence[int] | range, landed: dict[int, int],
                noted: dict[int, int], outcomes: list[Outcome] | None = None) -> list[Outcome]:
        """The outcomes of the items ``chosen`` (by index) once committed; each new outbox
        row's id given to its note (not before: a row rolled back has none)."""
        outcomes = [(None, None)] * len(items) if outcomes is None else outcomes
        for i in chosen:
            item = items[i]
            outcomes[i] = _outcome(item, landed)
            if item.game in noted and item.change is not None:
                item.change.id = noted[item.game]
        return outcomes

    async def _in_rounds(self, items: list[MoveCommit], abandoned: Callable[[], bool]) -> list[Outcome]:
        """A call per round (a game appears once in each), in one transaction."""

        async def body(conn: PgConnection) -> list[tuple[list[int], dict[int, int], dict[int, int]]]:
            done = []
            for part in rounds(items):
                rows = await conn.execute_fetchall(_CALL, _params([items[i] for i in part]))
                done.append((part, *_results(rows)))
            return done

        outcomes: list[Outcome] = [(None, None)] * len(items)
        for part, landed, noted in await self._transaction(items, abandoned, body) or ():
            self._answer(items, part, landed, noted, outcomes)
        return outcomes

    async def _one_by_one(self, items: list[MoveCommit], abandoned: Callable[[], bool]) -> list[Outcome]:
        """Each move in a call of its own and a savepoint: its error undoes it alone."""

        async def body(conn: PgConnection) -> list[BaseException | tuple[dict[int, int], dict[int, int]]]:
            done: list[BaseException | tuple[dict[int, int], dict[int, int]]] = []
            for item in items:
                await conn.execute("SAVEPOINT group_write")
                try:
                    done.append(_results(await conn.execute_fetchall(_CALL, _params([item]))))
                except (PgIntegrityError, asyncpg.PostgresError) as exc:
                    await conn.execute("ROLLBACK TO SAVEPOINT group_write")
                    done.append(exc)
                await conn.execute("RELEASE SAVEPOINT group_write")
            return done

        outcomes: list[Outcome] = [(None, None)] * len(items)
        for i, got in enumerate(await self._transaction(items, abandoned, body) or ()):
            if isinstance(got, BaseException):
                outcomes[i] = (got, None)
            else:
                self._answer(items, [i], *got, outcomes)
        return outcomes

    async def _transaction(self, items: list[MoveCommit], abandoned: Callable[[], bool],
                           body: Callable[[PgConnection], Awaitable[T]]) -> T | None:
        """``body`` in one transaction holding every game's lock; committed unless nobody
        waits any more (then None)."""
        try:
            async with self._db.write(locks=game_locks(*(i.game for i in items))) as conn:
                result = await body(conn)
                if abandoned():
                    raise _Withdrawn
        except _Withdrawn:
            return None  # rolled back; nobody hears it
        return result
