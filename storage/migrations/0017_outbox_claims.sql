-- 0017_outbox_claims: which process is delivering a change, and until when. Several
-- processes (shards) on one database each deliver the changes they make, and one of them
-- delivers what a process that died left: a change is claimed before it is delivered, so
-- that two processes never deliver it both; a claim not renewed in time (its process died)
-- may be taken over. Portable SQL as 0001.

ALTER TABLE outbox ADD COLUMN claimed_by TEXT;               -- the delivering process, or NULL
ALTER TABLE outbox ADD COLUMN claimed_until DOUBLE PRECISION; -- when its claim runs out
