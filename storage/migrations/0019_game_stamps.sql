-- 0019_game_stamps: a number every write of a game's row or of its seats bumps (in the same
-- transaction), so that a process sharing the database with others checks a game it holds
-- in memory by reading this one column, not the whole row and its seats
-- (storage/stamps.py). Portable SQL as 0001.

ALTER TABLE games ADD COLUMN stamp BIGINT NOT NULL DEFAULT 0;
