-- 0004_tournament_organisers: the role allowed to run tournaments on a server (/config),
-- besides members with Manage Server. NULL: only Manage Server.
ALTER TABLE guild_settings ADD COLUMN organiser_role_id BIGINT;
