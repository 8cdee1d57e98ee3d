-- Accounts: users, sessions, SMS codes, failed logins, privacy consents, address book.
-- Same shapes as the PostgreSQL file: BIGINT and TEXT only, flags as 0/1, times as epoch ms.

-- A closed account keeps its row (orders reference it) with every personal field nulled.
CREATE TABLE users (
    id                    INTEGER PRIMARY KEY AUTOINCREMENT,
    phone                 TEXT UNIQUE,
    password_hash         TEXT,
    name                  TEXT,
    email                 TEXT,
    gender                BIGINT NOT NULL DEFAULT 0,
    birthday              TEXT,
    user_key              TEXT NOT NULL UNIQUE,
    anonymous_flag        BIGINT NOT NULL DEFAULT 0,
    is_loyalty            BIGINT NOT NULL DEFAULT 0,
    loyalty_level         BIGINT,
    points                BIGINT NOT NULL DEFAULT 0,
    personalized_agree    BIGINT NOT NULL DEFAULT 0,
    remind_again          BIGINT NOT NULL DEFAULT 0,
    recommendation        BIGINT NOT NULL DEFAULT 0,
    created_at            BIGINT NOT NULL,
    updated_at            BIGINT NOT NULL,
    closed_at             BIGINT
);

-- Only the sha256 of a token is kept: a leaked table logs nobody in.
CREATE TABLE sessions (
    token_hash  TEXT PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES users (id),
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- One row per code sent; the rows also count sends for the rate limits.
CREATE TABLE sms_codes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    phone       TEXT NOT NULL,
    scene       TEXT NOT NULL,
    client_ip   TEXT NOT NULL,
    salt        TEXT NOT NULL,
    code_hash   TEXT NOT NULL,
    attempts    BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    spent_at    BIGINT
);
CREATE INDEX sms_codes_phone ON sms_codes (phone, scene, created_at);
CREATE INDEX sms_codes_ip ON sms_codes (client_ip, created_at);

CREATE TABLE login_failures (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    phone       TEXT NOT NULL,
    failed_at   BIGINT NOT NULL
);
CREATE INDEX login_failures_phone ON login_failures (phone, failed_at);

-- Append-only: every agree and refuse, with the policy version (its update time) it was about.
CREATE TABLE privacy_consents (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         BIGINT NOT NULL REFERENCES users (id),
    decision        TEXT NOT NULL,
    policy_version  BIGINT NOT NULL,
    decided_at      BIGINT NOT NULL
);
CREATE INDEX privacy_consents_user ON privacy_consents (user_id, id);

CREATE TABLE addresses (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         BIGINT NOT NULL REFERENCES users (id),
    name            TEXT NOT NULL,
    phone           TEXT NOT NULL,
    base_address    TEXT NOT NULL,
    house_number    TEXT NOT NULL,
    lat             TEXT NOT NULL,
    lng             TEXT NOT NULL,
    city_name       TEXT,
    province_name   TEXT,
    county_name     TEXT,
    is_default      BIGINT NOT NULL DEFAULT 0,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX addresses_user ON addresses (user_id);
