-- 0010_game_threads: new games open in their own thread by default (a server may turn the
-- default off in /config), and a game's thread is archived some hours after the game ends.
-- Portable SQL as 0001.

-- TRUE: /game new opens a thread unless the host says thread: False.
ALTER TABLE guild_settings ADD COLUMN game_threads BOOLEAN NOT NULL DEFAULT TRUE;
-- Hours after a game ends before its thread is archived; 0: never (Discord's own
-- auto-archive after a week without messages still applies).
ALTER TABLE guild_settings ADD COLUMN archive_hours INTEGER NOT NULL DEFAULT 24;

-- The threads the bot opened for games (a lobby's or a tournament table's). The time each
-- is due is the game's finished_at plus its server's archive_hours, so nothing waits in
-- memory: any check after a restart finds what came due meanwhile.
CREATE TABLE game_threads (
    thread_id   BIGINT PRIMARY KEY,
    game        BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id    BIGINT,
    archived_at DOUBLE PRECISION                 -- NULL until archived (or given up)
);

CREATE INDEX game_threads_open ON game_threads (game) WHERE archived_at IS NULL;
