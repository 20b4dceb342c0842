-- 0007_leases: work that must be done by one process at a time (the turn clock, the
-- tournaments' next rounds, delivering what a dead process left in the outbox) is owned
-- through a lease: a row taken with a conditional write, renewed while its owner lives,
-- and taken over by another process once it has expired.
--
-- Portable as 0001: DOUBLE PRECISION Unix seconds; taken with INSERT ... ON CONFLICT
-- (SQLite 3.24+, PostgreSQL 9.5+).

CREATE TABLE leases (
    name        TEXT PRIMARY KEY,                  -- the work: 'clock', 'tournaments', 'resume'
    owner       TEXT NOT NULL,                     -- the process holding it (host:pid:random)
    taken_at    DOUBLE PRECISION NOT NULL,         -- when this owner took it
    expires_at  DOUBLE PRECISION NOT NULL          -- free for anyone after this time
);
