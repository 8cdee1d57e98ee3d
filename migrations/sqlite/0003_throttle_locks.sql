-- One row per throttled key (an SMS phone, an SMS client address, a login phone). A check-and-
-- write first upserts its key's row inside the transaction: PostgreSQL then holds that row's
-- lock and SQLite the database write lock until commit, so two requests for the same key
-- cannot both pass a limit. The row holds nothing else; it only exists to be locked.
CREATE TABLE throttle_locks (
    lock_key  TEXT PRIMARY KEY
);
