-- 0014_result_sides: what each seat of a finished game played as (a faction, a pantheon, a
-- personality), so a server's statistics can tell how often each one wins. Portable SQL as 0001.

-- The side's text as the rules name it (a catalogue text's JSON); NULL where a game's seats
-- differ only by their order, and for results stored before this column.
ALTER TABLE result_places ADD COLUMN side TEXT;
