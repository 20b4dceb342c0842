-- 0015_clock_bank_hours: time banks next to the per-turn clock, and each player's playing
-- hours (time zone and quiet hours, when their clock does not run). Portable SQL as 0001.

-- A time bank: games.clock_seconds is then each seat's reserve at the start, and every
-- wait that ends with the seat's move adds bank_increment seconds, up to bank_cap.
-- NULL: the per-turn clock of 0002 (clock_seconds for every wait).
ALTER TABLE games ADD COLUMN bank_increment INTEGER;
ALTER TABLE games ADD COLUMN bank_cap INTEGER;
-- The server's default clock for new games, the same way (/config).
ALTER TABLE guild_settings ADD COLUMN bank_increment INTEGER;
ALTER TABLE guild_settings ADD COLUMN bank_cap INTEGER;

-- A user's IANA time zone (NULL: UTC) and the hours they do not play, as
-- services/clock_time.py writes them ("23:00-08:00, 09:00-17:00 weekdays"; NULL: none).
ALTER TABLE users ADD COLUMN time_zone TEXT;
ALTER TABLE users ADD COLUMN quiet_hours TEXT;

-- The playing hours a wait was timed with (zone and quiet hours in one text; NULL: the
-- clock runs all day): due_at, the reminders and the time left are counted with them.
ALTER TABLE deadlines ADD COLUMN hours TEXT;

-- A seat's time bank while it is not pending (running seconds left; no row: the reserve
-- the game started with). Written in the same transaction as the move that ends a wait.
CREATE TABLE clock_banks (
    game    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    seconds DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, seat)
);
