-- Coupons (issue 24): templates with guarded issue counters, customers' coupons moving by
-- compare-and-set on (coupon_code, status), an append-only event per move, exchange codes,
-- and the outbox of coupons to give back per order. BIGINT and TEXT only, times as epoch ms.
-- docs/coupons.md explains every table and its invariants.

-- A template: the rule (the domain's CouponTemplate as JSON) and its guarded counter. Issuing is
-- `UPDATE … SET issued = issued + 1 WHERE … AND (total_limit IS NULL OR issued < total_limit)`
-- in the transaction that inserts the coupon: a sold-out template updates no row.
CREATE TABLE coupon_templates (
    template_code   TEXT PRIMARY KEY,
    body            TEXT NOT NULL,
    total_limit     BIGINT CHECK (total_limit IS NULL OR total_limit >= 0),
    per_user_limit  BIGINT CHECK (per_user_limit IS NULL OR per_user_limit >= 0),
    issued          BIGINT NOT NULL DEFAULT 0 CHECK (issued >= 0),
    collectable     BIGINT NOT NULL DEFAULT 0,
    sort            BIGINT NOT NULL DEFAULT 0,
    updated_at      BIGINT NOT NULL,
    CHECK (total_limit IS NULL OR issued <= total_limit)
);

-- Per (template, user): how many were issued to the user, guarded the same way.
CREATE TABLE coupon_user_counts (
    template_code  TEXT NOT NULL REFERENCES coupon_templates (template_code),
    user_id        BIGINT NOT NULL REFERENCES users (id),
    issued         BIGINT NOT NULL DEFAULT 0 CHECK (issued >= 0),
    PRIMARY KEY (template_code, user_id)
);

-- A customer's coupon. (source, source_key) is the business key of its issue: a retried
-- request (a chain issue, an exchange code, a gift, a transfer) finds the coupon it made.
CREATE TABLE coupons (
    coupon_code    TEXT PRIMARY KEY,
    template_code  TEXT NOT NULL REFERENCES coupon_templates (template_code),
    user_id        BIGINT NOT NULL REFERENCES users (id),
    status         TEXT NOT NULL CHECK (status IN ('ISSUED', 'LOCKED', 'USED', 'RETURNED', 'EXPIRED', 'TRANSFERRED')),
    valid_from     BIGINT NOT NULL,
    valid_to       BIGINT NOT NULL,
    order_no       TEXT,
    parent_code    TEXT REFERENCES coupons (coupon_code),
    source         TEXT NOT NULL,
    source_key     TEXT NOT NULL,
    issued_at      BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL,
    UNIQUE (source, source_key),
    -- A locked coupon always names its order.
    CHECK (status <> 'LOCKED' OR order_no IS NOT NULL)
);
CREATE INDEX coupons_user ON coupons (user_id, status, valid_to);
CREATE INDEX coupons_order ON coupons (order_no);
CREATE INDEX coupons_due ON coupons (status, valid_to);

-- Append-only: every move of every coupon (from_status NULL at issue).
CREATE TABLE coupon_events (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    coupon_code  TEXT NOT NULL REFERENCES coupons (coupon_code),
    user_id      BIGINT NOT NULL,
    from_status  TEXT,
    to_status    TEXT NOT NULL,
    order_no     TEXT,
    reason       TEXT NOT NULL,
    created_at   BIGINT NOT NULL
);
CREATE INDEX coupon_events_coupon ON coupon_events (coupon_code, id);

-- Exchange codes: each gives one coupon of its template, once.
CREATE TABLE coupon_exchange_codes (
    code           TEXT PRIMARY KEY,
    template_code  TEXT NOT NULL REFERENCES coupon_templates (template_code),
    valid_to       BIGINT NOT NULL,
    used_by        BIGINT,
    coupon_code    TEXT,
    used_at        BIGINT,
    created_at     BIGINT NOT NULL
);

-- Exchange attempts, for the throttle (10 a minute per user and per client address).
CREATE TABLE coupon_exchange_attempts (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      BIGINT NOT NULL,
    client_ip    TEXT NOT NULL,
    at           BIGINT NOT NULL
);
CREATE INDEX coupon_exchange_attempts_user ON coupon_exchange_attempts (user_id, at);
CREATE INDEX coupon_exchange_attempts_ip ON coupon_exchange_attempts (client_ip, at);

-- The outbox of give-backs: one row per closed order whose coupons must come back, written
-- in the transaction that records the order's move (or by the sweep), retried with backoff
-- until done. Giving back is a compare-and-set per coupon, so a retry after a crash gives
-- nothing twice.
CREATE TABLE coupon_returns (
    order_no    TEXT PRIMARY KEY,
    reason      TEXT NOT NULL,
    attempts    BIGINT NOT NULL DEFAULT 0,
    next_at     BIGINT NOT NULL,
    last_error  TEXT,
    done_at     BIGINT,
    created_at  BIGINT NOT NULL
);
CREATE INDEX coupon_returns_due ON coupon_returns (done_at, next_at);
