-- The sandbox provider's own ledger, and reconciliation. Same shapes as the PostgreSQL file.

-- One row per trade at the sandbox provider: what a real provider keeps on its side. state is
-- pending, success, fail, cancel or closed; it leaves pending once (a compare-and-set on it).
-- The notify of a settled trade: its signed body, how many attempts were claimed, when the
-- next is due, and sending / delivered / gave_up. Every node sharing the database shares it.
CREATE TABLE sandbox_trades (
    payment_id         TEXT PRIMARY KEY,
    trade_no           TEXT NOT NULL UNIQUE,
    order_no           TEXT NOT NULL,
    subject            TEXT NOT NULL,
    amount             BIGINT NOT NULL,
    method             TEXT NOT NULL,
    notify_url         TEXT NOT NULL,
    return_url         TEXT NOT NULL,
    instructions       TEXT NOT NULL,
    state              TEXT NOT NULL,
    created_at         BIGINT NOT NULL,
    expires_at         BIGINT NOT NULL,
    settled_at         BIGINT,
    refunded           BIGINT NOT NULL DEFAULT 0,
    notify_body        TEXT,
    notify_state       TEXT,
    notify_attempts    BIGINT NOT NULL DEFAULT 0,
    notify_next_at     BIGINT,
    notify_last_answer TEXT,
    version            BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX sandbox_trades_settled ON sandbox_trades (state, settled_at);
CREATE INDEX sandbox_trades_notify ON sandbox_trades (notify_state, notify_next_at);

-- A refund id is unique per trade: asking again answers the first refund.
CREATE TABLE sandbox_refunds (
    payment_id         TEXT NOT NULL REFERENCES sandbox_trades (payment_id),
    refund_id          TEXT NOT NULL,
    provider_refund_no TEXT NOT NULL UNIQUE,
    amount             BIGINT NOT NULL,
    refunded_total     BIGINT NOT NULL,
    at                 BIGINT NOT NULL,
    PRIMARY KEY (payment_id, refund_id)
);
CREATE INDEX sandbox_refunds_at ON sandbox_refunds (at);

-- The daily reconciliation job claims its day here, so two nodes or a restart never run the
-- same day twice; a claim whose run never finished may be taken over after an hour.
CREATE TABLE reconcile_days (
    day         TEXT PRIMARY KEY,
    claimed_at  BIGINT NOT NULL,
    finished_at BIGINT
);

-- Every reconciliation run (the daily job's and pizza-order reconcile's) and what it found.
CREATE TABLE reconcile_runs (
    run_id      TEXT PRIMARY KEY,
    day         TEXT NOT NULL,
    started_by  TEXT NOT NULL,
    started_at  BIGINT NOT NULL,
    finished_at BIGINT NOT NULL,
    matched     BIGINT NOT NULL,
    repaired    BIGINT NOT NULL,
    unresolved  BIGINT NOT NULL,
    findings    TEXT NOT NULL
);
CREATE INDEX reconcile_runs_day ON reconcile_runs (day, started_at);
