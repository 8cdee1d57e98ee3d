-- Payment attempts and order comments. Same shapes as the PostgreSQL file.

-- One row per payment attempt (PaymentSession): created, pending, paid, failed, closed,
-- refunded. `version` is the optimistic check that makes a notify apply once.
CREATE TABLE payments (
    payment_id        TEXT PRIMARY KEY,
    order_no          TEXT NOT NULL REFERENCES orders (order_no),
    user_id           BIGINT NOT NULL,
    method            TEXT NOT NULL,
    provider          TEXT NOT NULL,
    amount            BIGINT NOT NULL,
    state             TEXT NOT NULL,
    provider_trade_no TEXT,
    instructions      TEXT,
    fail_reason       TEXT,
    refunded          BIGINT NOT NULL DEFAULT 0,
    created_at        BIGINT NOT NULL,
    expires_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    version           BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX payments_order ON payments (order_no);
CREATE INDEX payments_user ON payments (user_id, state, created_at);
CREATE INDEX payments_pending ON payments (state, expires_at);

CREATE TABLE order_comments (
    order_no    TEXT PRIMARY KEY REFERENCES orders (order_no),
    user_id     BIGINT NOT NULL,
    rating      BIGINT NOT NULL,
    body        TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
