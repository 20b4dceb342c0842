-- 0008_gdm_lobby_decks: the deck each player of a Guerra de Mitos lobby chose, privately,
-- before the game starts.
--
-- The row names the deck ('deck:<id>' for one of the player's own decks, 'ready:<id>' for a
-- ready deck); the list itself is read and fixed into the game's options when the game
-- starts, so a deck edited later changes nothing in a running game. Portable SQL as 0001.

CREATE TABLE gdm_lobby_decks (
    game       BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL,
    source     TEXT NOT NULL,                     -- 'deck:<id>' or 'ready:<id>'
    chosen_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, user_id)
);
