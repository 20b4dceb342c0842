-- 0009_tournament_owed: what a tournament's committed change owes its channel (a table's
-- result, a round opened, a table played again, the podium, a cancellation), written in the
-- change's own transaction and marked done once posted, so a crash loses none of it and a
-- restart posts it once. Portable SQL as 0001.

CREATE TABLE tournament_owed (
    id          INTEGER PRIMARY KEY,
    tournament  BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,                     -- 'result', 'round', 'replayed', 'podium', 'cancelled'
    payload     TEXT NOT NULL DEFAULT '{}',        -- JSON: the match, the round, why
    created_at  DOUBLE PRECISION NOT NULL,
    done_at     DOUBLE PRECISION                   -- NULL until posted (or given up)
);

CREATE INDEX tournament_owed_open ON tournament_owed (tournament, id) WHERE done_at IS NULL;
