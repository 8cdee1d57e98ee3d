-- The loyalty programme (issue 23): levels, the member agreement, members, level changes,
-- qualifying spend, and the points ledger. BIGINT and TEXT only, times as epoch ms, money as
-- fen, points as integers. docs/loyalty.md explains every table and its invariants.

-- Seeded levels (tiers): the threshold is qualifying spend (fen) in the rolling window.
CREATE TABLE loyalty_levels (
    level           BIGINT PRIMARY KEY,
    name_zh         TEXT NOT NULL,
    name_en         TEXT NOT NULL,
    threshold       BIGINT NOT NULL CHECK (threshold >= 0),
    points_per_yuan BIGINT NOT NULL CHECK (points_per_yuan >= 0),
    -- [{code, nameZh, nameEn, descriptionZh, descriptionEn}]
    privileges      TEXT NOT NULL,
    -- {upgrade gift options}: [{optionId, type, points, productCode, nameZh, nameEn}]
    gift_options    TEXT NOT NULL,
    updated_at      BIGINT NOT NULL
);

-- Member agreement versions; exactly one is current (the highest `current` flag wins).
CREATE TABLE loyalty_agreements (
    version     TEXT PRIMARY KEY,
    title_zh    TEXT NOT NULL,
    title_en    TEXT NOT NULL,
    content_zh  TEXT NOT NULL,
    content_en  TEXT NOT NULL,
    is_current  BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL
);

-- One row per member: joining is inserting it (the primary key makes a second join a no-op).
CREATE TABLE loyalty_members (
    user_id            BIGINT PRIMARY KEY REFERENCES users (id),
    level              BIGINT NOT NULL,
    agreement_version  TEXT NOT NULL,
    joined_at          BIGINT NOT NULL,
    level_since        BIGINT NOT NULL
);

-- Append-only: every level change (join, upgrade, downgrade) with the spend that decided it.
CREATE TABLE loyalty_level_changes (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id          BIGINT NOT NULL REFERENCES users (id),
    from_level       BIGINT,
    to_level         BIGINT NOT NULL,
    reason           TEXT NOT NULL,
    qualifying_spend BIGINT NOT NULL,
    at               BIGINT NOT NULL
);
CREATE INDEX loyalty_level_changes_user ON loyalty_level_changes (user_id, at);

-- Qualifying spend, append-only: + the paid amount of a completed order, - its refund. The
-- level is the sum over the rolling window; never the points balance.
CREATE TABLE loyalty_spend (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        BIGINT NOT NULL REFERENCES users (id),
    business_type  TEXT NOT NULL,
    business_id    TEXT NOT NULL,
    amount         BIGINT NOT NULL,
    at             BIGINT NOT NULL,
    UNIQUE (business_type, business_id)
);
CREATE INDEX loyalty_spend_user ON loyalty_spend (user_id, at);

-- The balance: a cache of the ledger (each column is the sum of its delta column in
-- points_entries), never below zero. `held`: authorised at submit, not yet captured;
-- `owed`: reversed points the member did not have any more, paid back by later credits.
CREATE TABLE points_accounts (
    user_id     BIGINT PRIMARY KEY REFERENCES users (id),
    available   BIGINT NOT NULL DEFAULT 0 CHECK (available >= 0),
    pending     BIGINT NOT NULL DEFAULT 0 CHECK (pending >= 0),
    held        BIGINT NOT NULL DEFAULT 0 CHECK (held >= 0),
    owed        BIGINT NOT NULL DEFAULT 0 CHECK (owed >= 0),
    updated_at  BIGINT NOT NULL
);

-- The ledger, append-only. One business move is one row, unique by (business type, business
-- id, direction): the same order is never credited twice, the same hold never captured twice.
CREATE TABLE points_entries (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id          BIGINT NOT NULL REFERENCES users (id),
    kind             TEXT NOT NULL,
    business_type    TEXT NOT NULL,
    business_id      TEXT NOT NULL,
    direction        TEXT NOT NULL,
    points           BIGINT NOT NULL,
    d_available      BIGINT NOT NULL DEFAULT 0,
    d_pending        BIGINT NOT NULL DEFAULT 0,
    d_held           BIGINT NOT NULL DEFAULT 0,
    d_owed           BIGINT NOT NULL DEFAULT 0,
    lot_id           BIGINT,
    expires_at       BIGINT,
    note             TEXT,
    created_at       BIGINT NOT NULL,
    UNIQUE (business_type, business_id, direction)
);
CREATE INDEX points_entries_user ON points_entries (user_id, created_at);

-- Lots: what a credit left to spend, with its expiry; spent soonest-expiring first.
-- status: pending (earned, refund window open), available, reversed.
CREATE TABLE points_lots (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        BIGINT NOT NULL REFERENCES users (id),
    business_type  TEXT NOT NULL,
    business_id    TEXT NOT NULL,
    points         BIGINT NOT NULL CHECK (points >= 0),
    remaining      BIGINT NOT NULL CHECK (remaining >= 0),
    expired        BIGINT NOT NULL DEFAULT 0 CHECK (expired >= 0),
    status         TEXT NOT NULL,
    matures_at     BIGINT NOT NULL,
    expires_at     BIGINT NOT NULL,
    created_at     BIGINT NOT NULL,
    UNIQUE (business_type, business_id)
);
CREATE INDEX points_lots_user ON points_lots (user_id, status, expires_at);
CREATE INDEX points_lots_due ON points_lots (status, matures_at);

-- Points authorised at submit (the spree store-credit pattern): held, then captured at payment
-- or released when the order closes unpaid. `lots`: [[lotId, points]] taken, given back on release.
CREATE TABLE points_holds (
    order_no    TEXT PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES users (id),
    points      BIGINT NOT NULL CHECK (points > 0),
    status      TEXT NOT NULL,
    lots        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX points_holds_status ON points_holds (status, created_at);
