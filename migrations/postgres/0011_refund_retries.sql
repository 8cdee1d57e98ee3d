-- How many times the provider failed an owed refund: the housekeeping job waits longer after
-- each failure (15 s, 30 s, 1 min … at most an hour) instead of asking every 15 s forever.
ALTER TABLE payments ADD COLUMN refund_attempts INTEGER NOT NULL DEFAULT 0;
