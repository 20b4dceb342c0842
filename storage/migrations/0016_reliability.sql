-- 0016_reliability: the clock's escalation and each player's reliability record.
-- Portable SQL as 0001 (BIGINT snowflakes, DOUBLE PRECISION Unix seconds).

-- Every timeout the clock applied, once per wait: (game, seat, started_at) is the wait,
-- so a timeout applied again after a crash is the same row. action says what it did:
-- 'ai' the bot played the turn, 'drop' the bot took the seat for good, 'lose' the seat
-- lost the game on time, 'no' a question asked out of turn answered "no" (not counted
-- against the player). seq is the game's version just before the bot's moves for the seat
-- (those moves are the bot's, not the player's, in the reliability record).
CREATE TABLE timeouts (
    game       BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    BIGINT NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    at         DOUBLE PRECISION NOT NULL,
    action     TEXT NOT NULL CHECK (action IN ('ai', 'drop', 'lose', 'no')),
    seq        INTEGER NOT NULL,
    PRIMARY KEY (game, seat, started_at)
);
CREATE INDEX timeouts_user ON timeouts (user_id);

-- After this many timeouts of one player in one game the bot takes the seat for good
-- (/config timeouts); 0: never.
ALTER TABLE guild_settings ADD COLUMN timeout_limit INTEGER NOT NULL DEFAULT 3;

-- What a tournament asks of a player signing up (JSON: min_finished, max_timeout_pct);
-- NULL: nothing.
ALTER TABLE tournaments ADD COLUMN requirements TEXT;
