-- 0004_outbox: what a committed change owes Discord, written in the change's own
-- transaction and marked done once delivered, so that a crash loses none of it.
--
-- A 'change' row stands for one committed change (a move and the bot's replies, a game's
-- start, a reminder): its payload says what happened (versions, the clock, an undo). When
-- it is first delivered it is expanded, in one transaction, into one row per message it
-- owes (the record, the board, each hand, question, turn DM, spectator), each with its key
-- inside the change and what it needs to be sent again identically. Portable SQL as 0001.

CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY,
    game        BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    parent      BIGINT REFERENCES outbox (id) ON DELETE CASCADE, -- NULL: a change row
    kind        TEXT NOT NULL,                     -- 'change', or the kind of message
    msg_key     TEXT NOT NULL DEFAULT '',          -- e.g. 'hand:2', unique in its change
    payload     TEXT NOT NULL DEFAULT '{}',        -- JSON
    created_at  DOUBLE PRECISION NOT NULL,
    expanded    BOOLEAN NOT NULL DEFAULT FALSE,    -- a change: its messages are written
    done_at     DOUBLE PRECISION                   -- NULL until delivered (or given up)
);

-- Delivery after a restart reads only what is left to do.
CREATE INDEX outbox_open ON outbox (id) WHERE done_at IS NULL;
CREATE INDEX outbox_parent ON outbox (parent);

-- A thread being opened for a new game (/game new thread: True): written before the thread
-- is created and removed in the transaction that creates the game in it, so a thread left
-- without its game by a crash in between is found and removed at the next start.
CREATE TABLE pending_threads (
    id          INTEGER PRIMARY KEY,
    guild_id    BIGINT,
    parent_id   BIGINT NOT NULL,                   -- the channel the thread opens in
    name        TEXT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL
);
