-- Payments and orders under load (issue 34). Same shapes as the SQLite file, but for the
-- order-number counter: a sequence here, a row there.

-- An Idempotency-Key is claimed before its work starts: the first request inserts the row
-- with status 0 (in progress) and its own token in `claim`; a request with the same key waits
-- for the answer instead of doing the work again. The answer replaces the claim (status, the
-- response, `claim` back to NULL); a request that fails deletes its claim, and one whose node
-- died is taken over after a lease. Rows answered before this migration have no claim.
ALTER TABLE idempotency_keys ADD COLUMN claim TEXT;

-- Order numbers are the China time to the second and six digits; the digits come from one
-- counter for the whole deployment (every node draws from it), so two orders of one second
-- differ unless a million numbers were drawn between them. PostgreSQL has a sequence (no lock
-- held, nothing rolled back); SQLite one row, advanced by `UPDATE … RETURNING`.
CREATE SEQUENCE order_numbers;
