-- A version per store board (the StoreActor's state): bumped in the same transaction as every
-- change to store_states or store_sold_out, so a node holding the board in memory can tell
-- with one read whether what it holds is current. No row: version 0 (never changed).
CREATE TABLE store_board_versions (
    store_code  TEXT PRIMARY KEY,
    version     BIGINT NOT NULL
);
