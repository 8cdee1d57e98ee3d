-- What a store's tablet sets live (the StoreActor's state): open, busy or closed with a
-- notice, and the sold-out ("86") products. Same shapes as the PostgreSQL file.

-- One row per store whose staff ever set its status; no row: the catalogue's status.
CREATE TABLE store_states (
    store_code  TEXT PRIMARY KEY,
    status      TEXT NOT NULL,
    notice      TEXT,
    updated_at  BIGINT NOT NULL,
    updated_by  TEXT NOT NULL
);

-- One row per sold-out product of a store. Toggling one product is one insert or delete, so
-- two tablets toggling different products at once lose nothing.
CREATE TABLE store_sold_out (
    store_code   TEXT NOT NULL,
    product_code TEXT NOT NULL,
    since        BIGINT NOT NULL,
    PRIMARY KEY (store_code, product_code)
);
