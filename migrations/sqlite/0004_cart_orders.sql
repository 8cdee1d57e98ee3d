-- Promotions, carts, orders and idempotent submits.
-- Same shapes as the PostgreSQL file: BIGINT and TEXT only, flags as 0/1, times as epoch ms,
-- money as fen.

CREATE TABLE promotions (
    rule_id     TEXT PRIMARY KEY,
    sort        BIGINT NOT NULL,
    doc         TEXT NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- One row per cart: 'u:{userId}' or 'v:{token}'. The document is the whole cart; `version`
-- is the optimistic-concurrency check between nodes (a write names the version it read).
CREATE TABLE carts (
    cart_key    TEXT PRIMARY KEY,
    user_id     BIGINT REFERENCES users (id),
    doc         TEXT NOT NULL,
    version     BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX carts_updated ON carts (updated_at);

-- An order: the columns that are queried or change, and `doc` with what was frozen at submit
-- (lines as priced, rules applied, address, receiver, notes).
CREATE TABLE orders (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    order_no         TEXT NOT NULL UNIQUE,
    user_id          BIGINT NOT NULL REFERENCES users (id),
    store_code       TEXT NOT NULL,
    order_type       BIGINT NOT NULL,
    state            BIGINT NOT NULL,
    progress         BIGINT NOT NULL,
    payment_type     TEXT NOT NULL,
    is_book          BIGINT NOT NULL,
    order_time       BIGINT NOT NULL,
    product_amount   BIGINT NOT NULL,
    discount_amount  BIGINT NOT NULL,
    delivery_fee     BIGINT NOT NULL,
    order_amount     BIGINT NOT NULL,
    paid_amount      BIGINT NOT NULL DEFAULT 0,
    doc              TEXT NOT NULL,
    seq              BIGINT NOT NULL DEFAULT 0,
    version          BIGINT NOT NULL DEFAULT 1,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE INDEX orders_user ON orders (user_id, created_at);
CREATE INDEX orders_store ON orders (store_code, state, created_at);

CREATE TABLE order_lines (
    order_no       TEXT NOT NULL REFERENCES orders (order_no),
    line_no        BIGINT NOT NULL,
    product_code   TEXT NOT NULL,
    quantity       BIGINT NOT NULL,
    unit_price     BIGINT NOT NULL,
    count_price    BIGINT NOT NULL,
    discount       BIGINT NOT NULL,
    doc            TEXT NOT NULL,
    PRIMARY KEY (order_no, line_no)
);

-- Every transition of an order, written in the transaction that makes it.
CREATE TABLE order_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    order_no    TEXT NOT NULL REFERENCES orders (order_no),
    seq         BIGINT NOT NULL,
    state       BIGINT NOT NULL,
    progress    BIGINT NOT NULL,
    actor       TEXT NOT NULL,
    note        TEXT,
    at          BIGINT NOT NULL,
    UNIQUE (order_no, seq)
);

-- Idempotency-Key: the first answer to a (scope, key), replayed for 24 hours.
CREATE TABLE idempotency_keys (
    scope        TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    body_hash    TEXT NOT NULL,
    status       BIGINT NOT NULL,
    response     TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (scope, idem_key)
);
CREATE INDEX idempotency_created ON idempotency_keys (created_at);
