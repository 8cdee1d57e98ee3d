-- Member gifts (issue 23): a welcome gift on joining and an upgrade gift on reaching a level,
-- granted once per (user, level, cycle) by the unique key, in the transaction that joins or
-- changes the level. Claiming writes the delivery to the outbox in the same transaction; the
-- worker delivers it (points credited under the ledger's own unique key, a product recorded
-- for the next order) and marks it done, so a crash between claim and delivery neither loses
-- nor duplicates a gift.

CREATE TABLE loyalty_gifts (
    gift_id        TEXT PRIMARY KEY,
    user_id        BIGINT NOT NULL REFERENCES users (id),
    kind           TEXT NOT NULL,
    level          BIGINT NOT NULL,
    cycle          TEXT NOT NULL,
    -- [{optionId, type, points, productCode, nameZh, nameEn}] as granted
    options        TEXT NOT NULL,
    status         TEXT NOT NULL,
    chosen_option  TEXT,
    claimed_at     BIGINT,
    expires_at     BIGINT NOT NULL,
    created_at     BIGINT NOT NULL,
    UNIQUE (user_id, level, cycle)
);
CREATE INDEX loyalty_gifts_user ON loyalty_gifts (user_id, created_at);

-- The durable outbox of gift deliveries: one row per gift, retried until done.
CREATE TABLE loyalty_gift_outbox (
    gift_id     TEXT PRIMARY KEY REFERENCES loyalty_gifts (gift_id),
    user_id     BIGINT NOT NULL,
    option      TEXT NOT NULL,
    attempts    BIGINT NOT NULL DEFAULT 0,
    next_at     BIGINT NOT NULL,
    last_error  TEXT,
    done_at     BIGINT,
    created_at  BIGINT NOT NULL
);
CREATE INDEX loyalty_gift_outbox_due ON loyalty_gift_outbox (done_at, next_at);

-- Free products won as gifts, waiting for the member's next order.
CREATE TABLE loyalty_gift_items (
    gift_id       TEXT PRIMARY KEY REFERENCES loyalty_gifts (gift_id),
    user_id       BIGINT NOT NULL,
    product_code  TEXT NOT NULL,
    order_no      TEXT,
    created_at    BIGINT NOT NULL
);
CREATE INDEX loyalty_gift_items_user ON loyalty_gift_items (user_id, order_no);
