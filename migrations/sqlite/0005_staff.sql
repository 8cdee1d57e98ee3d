-- Store staff and their tablet sessions. Same shapes as the PostgreSQL file.

-- A staff member belongs to one store; the PIN is kept as an argon2 hash.
CREATE TABLE staff (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    store_code  TEXT NOT NULL,
    staff_code  TEXT NOT NULL,
    name        TEXT NOT NULL,
    pin_hash    TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    UNIQUE (store_code, staff_code)
);

-- Only the sha256 of a staff token is kept. A token is scoped to the staff member's store.
CREATE TABLE staff_sessions (
    token_hash  TEXT PRIMARY KEY,
    staff_id    BIGINT NOT NULL REFERENCES staff (id),
    store_code  TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id);
