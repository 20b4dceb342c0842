-- 0002_clock_and_settings: turn clocks, per-user and per-server settings, spectators,
-- hand DMs edited in place, undo requests, and the catch-up bookmark of each seat.
-- Portable SQL, as 0001 explains (BIGINT snowflakes, DOUBLE PRECISION Unix seconds).

-- The game's turn clock: seconds a pending seat has to decide (NULL: no clock), and what
-- happens when it runs out ('ai': the bot plays for the seat, which stays the player's;
-- 'drop': the bot takes the seat for good).
ALTER TABLE games ADD COLUMN clock_seconds INTEGER;
ALTER TABLE games ADD COLUMN timeout_action TEXT NOT NULL DEFAULT 'ai';
-- When the game ended (finished or abandoned); NULL while open.
ALTER TABLE games ADD COLUMN finished_at DOUBLE PRECISION;

-- A seat taken over by the bot when its player timed out with timeout_action 'drop'
-- keeps its user id (for the record) but plays as an AI seat from then on.
ALTER TABLE seats ADD COLUMN dropped BOOLEAN NOT NULL DEFAULT FALSE;
-- The log seq of this seat's last own move: the catch-up summary starts after it.
ALTER TABLE seats ADD COLUMN seen_seq INTEGER NOT NULL DEFAULT 0;

-- /game mine looks games up by player.
CREATE INDEX seats_user ON seats (user_id) WHERE user_id IS NOT NULL;
-- /game list looks open games up by server.
CREATE INDEX games_guild_status ON games (guild_id, status);
-- The newest game of a channel, open or not (finished games stay reachable).
CREATE INDEX games_channel ON games (channel_id, id);

-- One row per pending human seat of a game with a clock. next_at is when the scheduler
-- must look at it next: a reminder, the deadline itself, or (paused) the end of the
-- player's vacation. One index on it is all the scheduler needs.
CREATE TABLE deadlines (
    game        BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     BIGINT NOT NULL,
    started_at  DOUBLE PRECISION NOT NULL,            -- when this wait began
    due_at      DOUBLE PRECISION NOT NULL,            -- when the timeout action applies
    reminders   INTEGER NOT NULL DEFAULT 0,           -- reminders sent for this wait (0-2)
    paused_left DOUBLE PRECISION,                     -- seconds left, while on vacation
    next_at     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE INDEX deadlines_next ON deadlines (next_at);
CREATE INDEX deadlines_user ON deadlines (user_id);

-- A user's own settings, the same in every server.
CREATE TABLE users (
    user_id        BIGINT PRIMARY KEY,
    notify         TEXT NOT NULL DEFAULT 'channel'
                   CHECK (notify IN ('channel', 'dm', 'both', 'none')),
    locale         TEXT,                              -- last known Discord locale
    vacation_until DOUBLE PRECISION,                  -- clocks paused until then
    vacation_year  INTEGER,                           -- the year vacation_used counts in
    vacation_used  DOUBLE PRECISION NOT NULL DEFAULT 0 -- days used that year
);

-- A server's settings (/config).
CREATE TABLE guild_settings (
    guild_id         BIGINT PRIMARY KEY,
    locale           TEXT,                            -- public messages; NULL: the creator's
    clock_seconds    INTEGER,                         -- default clock; NULL: none
    timeout_action   TEXT NOT NULL DEFAULT 'ai',
    creator_role_id  BIGINT,                          -- NULL: anyone may create games
    games_channel_id BIGINT                           -- NULL: games open where asked
);

-- Spectators of a game (/game watch).
CREATE TABLE watchers (
    game    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (game, user_id)
);

-- The last private-view DM of each seat, edited in place while it is recent.
CREATE TABLE dm_messages (
    game       BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    sent_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, seat)
);

-- An open request to take back a move: at most one per game. approvals is a JSON list
-- of the seats that said yes.
CREATE TABLE undo_requests (
    game       BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    seq        INTEGER NOT NULL,                      -- the move to take back
    approvals  TEXT NOT NULL DEFAULT '[]',
    created_at DOUBLE PRECISION NOT NULL
);
