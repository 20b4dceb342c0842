-- 0012_seed_commitment: the dice anyone can verify. A game's seed is drawn at its start
-- with a secret salt; the card shows a SHA-256 commitment to both (services/fairness.py) and
-- both are revealed when the game ends, so anyone can check every shuffle and draw. Games
-- started before this have no salt and no commitment. Portable SQL as 0001.

ALTER TABLE games ADD COLUMN seed_salt TEXT;
