-- Payments and orders under load (issue 34). Same shapes as the SQLite file.

-- An Idempotency-Key is claimed before its work starts: the first request inserts the row
-- with status 0 (in progress) and its own token in `claim`; a request with the same key waits
-- for the answer instead of doing the work again. The answer replaces the claim (status, the
-- response, `claim` back to NULL); a request that fails deletes its claim, and one whose node
-- died is taken over after a lease. Rows answered before this migration have no claim.
ALTER TABLE idempotency_keys ADD COLUMN claim TEXT;
