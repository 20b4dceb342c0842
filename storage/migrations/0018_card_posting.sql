-- 0018_card_posting: when a game's card was last about to be posted anew (buried, gone or
-- too old), until the new card's id is stored. A crash between posting it and storing it
-- leaves a second live card no change of the outbox looks for: the next start finds it by
-- this mark, keeps it and retires the other copy. Portable SQL as 0001.

ALTER TABLE games ADD COLUMN card_posting_at DOUBLE PRECISION; -- NULL once the card is stored
