-- 0013_limits: what a server admin sets in /config to keep one member from tiring the bot.
-- Portable SQL as 0001.

-- A member runs each heavy command (/game new, /game replay, /gdm deck import) at most 3
-- times (services/limits.py BURST) in any window of this many seconds; 0: no limit.
ALTER TABLE guild_settings ADD COLUMN cooldown_seconds INTEGER NOT NULL DEFAULT 60;
-- Open lobbies (games not started yet) a member may host, and the whole server may hold.
ALTER TABLE guild_settings ADD COLUMN lobbies_per_member INTEGER NOT NULL DEFAULT 3;
ALTER TABLE guild_settings ADD COLUMN lobbies_per_server INTEGER NOT NULL DEFAULT 30;
-- Threads of games not over yet that a member's games may hold, and the whole server.
ALTER TABLE guild_settings ADD COLUMN threads_per_member INTEGER NOT NULL DEFAULT 5;
ALTER TABLE guild_settings ADD COLUMN threads_per_server INTEGER NOT NULL DEFAULT 100;
