-- 0011_living_card: what a game's one living card and its spectators' one DM need.
-- A turn's steps are folded into one message: the outbox is read back per game, newest
-- first, to find what the turn told so far. A spectator gets one DM per game, edited as the
-- game goes: where it is. Portable SQL as 0001.

CREATE INDEX outbox_game ON outbox (game, id);

ALTER TABLE watchers ADD COLUMN channel_id BIGINT;
ALTER TABLE watchers ADD COLUMN message_id BIGINT;
